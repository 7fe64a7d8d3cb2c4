/* test_loopdev.c - a loop device's backing chain from a fixture sysfs tree, and in words. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loopdev.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_describe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
