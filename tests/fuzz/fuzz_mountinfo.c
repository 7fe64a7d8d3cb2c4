/* fuzz_mountinfo.c - the mountinfo parser and disk resolution on arbitrary bytes. */
#include <stdint.h>
#include <string.h>

#include "diskstats.h"
#include "mountinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_string(const char *s, size_t cap)
{
	if (!memchr(s, '\0', cap))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char disks[] = " 8 0 sda 0 0 0 0 0 0 0 0 0 0 0\n 8 1 sda1 0 0 0 0 0 0 0 0 0 0 0\n"
				    " 253 0 dm-0 0 0 0 0 0 0 0 0 0 0 0\n";
	struct snapshot devs, mt;
	snapshot_init(&devs);
	snapshot_init(&mt);
	diskstats_parse(disks, sizeof disks - 1, &devs, NULL);
	if (devs.ndevices == 3)
		strcpy(devs.devices[2].dm_name, "vg-root");
	struct error err;
	mountinfo_parse((const char *)data, size, &mt, &err);
	for (size_t i = 0; i < mt.nmounts; i++) {
		struct mount *m = &mt.mounts[i];
		/* A root prefix: no stat() or ioctl() on fuzzed paths. */
		mountinfo_resolve_disk(m, &devs, "/nonexistent-fuzz-root");
		mountinfo_is_block_backed(m);
		if (m->mountpoint[0] != '/' || !m->fstype[0])
			__builtin_trap();
		check_string(m->disk, sizeof m->disk);
		check_string(m->source, sizeof m->source);
		check_string(m->mount_opts, sizeof m->mount_opts);
		check_string(m->super_opts, sizeof m->super_opts);
	}
	char out[64];
	mountinfo_unescape((const char *)data, size, out, size % sizeof out);
	snapshot_free(&mt);
	snapshot_free(&devs);
	return 0;
}
