/* fuzz_diskstats.c - the /proc/diskstats parser on arbitrary bytes, alone and
 * through the sampler (slot reuse, name-set changes, device description) on a
 * scratch fixture tree whose proc/diskstats is each input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskstats.h"
#include "sampler.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char tree[64];
static struct sampler sampler;
static struct snapshot reused;
static bool sampler_ready;

/* A name becomes a path under /sys/block: '/' only between components (cciss/c0d0),
 * none of them empty, "." or "..", and no blank or control byte anywhere. */
static bool name_is_path_safe(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len >= DEV_NAME_MAX)
		return false;
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c < 0x21 || *c == 0x7f)
			return false;
	for (const char *part = name;; ) {
		size_t n = strcspn(part, "/");
		if (n == 0 || (n == 1 && part[0] == '.') || (n == 2 && part[0] == '.' && part[1] == '.'))
			return false;
		if (part[n] == '\0')
			return true;
		part += n + 1;
	}
}

static void check(const struct snapshot *s)
{
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct device *d = &s->devices[i];
		int nf = d->counters.nfields;
		if (!name_is_path_safe(d->name) || (nf != 14 && nf != 18 && nf != 20))
			__builtin_trap();
		if (nf < 18 && (d->counters.dc_ios || d->counters.fl_ios))
			__builtin_trap();
	}
}

static void remove_tree(void)
{
	char cmd[128];
	sampler_close(&sampler);
	snapshot_free(&reused);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tree);
	if (tree[0] && system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tree);
}

static void setup_tree(void)
{
	snprintf(tree, sizeof tree, "/tmp/ioscope-fuzz.XXXXXX");
	if (!mkdtemp(tree))
		return;
	char path[128];
	snprintf(path, sizeof path, "%s/proc", tree);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/proc/diskstats", tree);
	FILE *f = fopen(path, "w");
	if (f)
		fclose(f);
	struct error err;
	snapshot_init(&reused);
	sampler_ready = sampler_open(&sampler, tree, &err) == 0;
	atexit(remove_tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot s;
	snapshot_init(&s);
	struct error err;
	diskstats_parse((const char *)data, size, &s, &err);
	check(&s);
	snapshot_free(&s);

	if (!tree[0])
		setup_tree();
	if (!sampler_ready)
		return 0;
	char path[128];
	snprintf(path, sizeof path, "%s/proc/diskstats", tree);
	FILE *f = fopen(path, "w");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	/* procfile saw the file as regular only if it had a size when opened;
	 * re-open so each input is read the way a fixture is. */
	procfile_open(&sampler.diskstats, path, PROCFILE_SEQ_EOF_HINT, &err);
	if (sampler_sample(&sampler, &reused, &err) == 0)
		check(&reused);
	return 0;
}
