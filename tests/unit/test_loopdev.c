/* test_loopdev.c - a loop device's backing chain from a fixture sysfs tree, and in words. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loopdev.h"
#include "sampler.h"

static void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *fixture_tree(void)
{
	char tmpl[] = "/tmp/ioscope-loopdev.XXXXXX";
	char *root = strdup(mkdtemp(tmpl));
	char path[512];
	const char *dirs[] = { "sys", "sys/block", "sys/block/loop3", "sys/block/loop3/loop",
			       "sys/block/loop4", "sys/block/vda", NULL };
	for (size_t i = 0; dirs[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	put(root, "sys/block/loop3/loop/backing_file", "/var/tmp/bench.img\n");
	put(root, "sys/block/loop3/loop/dio", "1\n");
	put(root, "sys/block/loop3/loop/offset", "4096\n");
	put(root, "sys/block/loop3/loop/sizelimit", "0\n");
	return root;
}

static void test_read(void **state)
{
	(void)state;
	char *root = fixture_tree();
	struct loop_backing l;
	loop_backing_read(root, "loop3", &l);
	assert_true(l.present);
	assert_string_equal(l.file, "/var/tmp/bench.img");
	assert_int_equal(l.dio, 1);
	assert_int_equal(l.offset, 4096);
	assert_int_equal(l.sizelimit, 0);
	/* under a fixture root the file is not this machine's: not stat()ed */
	assert_int_equal(l.major, 0);
	assert_string_equal(l.disk, "");
	loop_backing_read(root, "loop4", &l);   /* nothing attached */
	assert_false(l.present);
	loop_backing_read(root, "vda", &l);
	assert_false(l.present);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

static void test_describe(void **state)
{
	(void)state;
	struct snapshot s;
	snapshot_init(&s);
	struct mount *m = snapshot_add_mount(&s);
	m->major = 0;
	m->minor = 45;   /* btrfs: an anonymous device, the mount table knows the disk */
	snprintf(m->disk, sizeof m->disk, "nvme0n1p2");
	snprintf(m->fstype, sizeof m->fstype, "btrfs");
	snprintf(m->mountpoint, sizeof m->mountpoint, "/srv");
	struct device d = { .name = "loop0" };
	char buf[1024];
	loop_backing_describe(&d, &s, buf, sizeof buf);
	assert_string_equal(buf, "");
	d.loop = (struct loop_backing){ .present = true, .minor = 45, .dio = 0, .offset = 512 };
	snprintf(d.loop.file, sizeof d.loop.file, "/srv/disk.img");
	loop_backing_describe(&d, &s, buf, sizeof buf);
	assert_string_equal(buf, "/srv/disk.img on nvme0n1p2 (btrfs /srv), offset 512, direct I/O off");
	d.loop.minor = 46;
	d.loop.dio = -1;
	snprintf(d.loop.disk, sizeof d.loop.disk, "sdb1");
	loop_backing_describe(&d, &s, buf, sizeof buf);
	assert_string_equal(buf, "/srv/disk.img on sdb1, offset 512, direct I/O ?");
	snapshot_free(&s);
}

/* losetup --direct-io changes loop/dio with no uevent, so no new description: the
 * sampler reads it every sample, and still describes the device only once. */
static void test_sampler_follows_dio(void **state)
{
	(void)state;
	char *root = fixture_tree();
	char path[512];
	snprintf(path, sizeof path, "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	put(root, "proc/diskstats", "   7       3 loop3 10 0 80 5 20 0 160 9 0 14 14 0 0 0 0 0 0\n");
	put(root, "sys/block/loop3/loop/dio", "0\n");
	struct sampler sm;
	struct error err;
	assert_int_equal(sampler_open(&sm, root, &err), 0);
	struct snapshot s;
	snapshot_init(&s);
	assert_int_equal(sampler_sample(&sm, &s, &err), 0);
	assert_int_equal(s.ndevices, 1);
	assert_true(s.devices[0].loop.present);
	assert_int_equal(s.devices[0].loop.dio, 0);
	put(root, "sys/block/loop3/loop/dio", "1\n");
	assert_int_equal(sampler_sample(&sm, &s, &err), 0);
	assert_int_equal(s.devices[0].loop.dio, 1);
	assert_string_equal(s.devices[0].loop.file, "/var/tmp/bench.img");
	assert_int_equal(sm.rescans, 1);
	sampler_close(&sm);
	snapshot_free(&s);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_sampler_follows_dio),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
