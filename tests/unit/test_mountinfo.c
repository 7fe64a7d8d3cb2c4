/* test_mountinfo.c - mountinfo lines, escapes, and which disk a mount sits on. */
#include "unit.h"

#include <string.h>

#include "diskstats.h"
#include "control.h"
#include "mountinfo.h"

static struct mount parse_ok(const char *line)
{
	struct mount m;
	assert_int_equal(mountinfo_parse_line(line, strlen(line), &m), 0);
	return m;
}

static void test_plain_line(void **state)
{
	struct mount m = parse_ok("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard,resuid=65534");
	assert_int_equal(m.id, 27);   /* as fdinfo's mnt_id names the mount */
	assert_int_equal(m.major, 254);
	assert_int_equal(m.minor, 0);
	assert_string_equal(m.mountpoint, "/");
	assert_string_equal(m.fstype, "ext4");
	assert_string_equal(m.source, "/dev/vda");
	assert_string_equal(m.mount_opts, "rw,relatime");
	assert_string_equal(m.super_opts, "rw,discard,resuid=65534");
	assert_string_equal(m.disk, "");
	assert_false(m.cut);
}

static void test_optional_fields_and_escapes(void **state)
{
	struct mount m = parse_ok("36 35 98:0 /mnt1 /mnt/a\\040b\\011c\\012d\\134e rw,noatime "
				  "shared:1 master:2 propagate_from:3 - ext3 /dev/my\\040disk "
				  "rw,errors=continue");
	assert_string_equal(m.mountpoint, "/mnt/a b\tc\nd\\e");
	assert_string_equal(m.source, "/dev/my disk");
	assert_string_equal(m.fstype, "ext3");
	assert_string_equal(m.super_opts, "rw,errors=continue");
	/* An empty source is a field of its own: two spaces. */
	m = parse_ok("40 27 0:50 / /x rw - tmpfs  rw,size=4k");
	assert_string_equal(m.source, "");
	assert_string_equal(m.super_opts, "rw,size=4k");
}

static void test_unescape(void **state)
{
	char out[16];
	assert_int_equal(mountinfo_unescape("a\\040b", 6, out, sizeof out), 0);
	assert_string_equal(out, "a b");
	/* Not an escape: kept as is. */
	assert_int_equal(mountinfo_unescape("a\\9b\\", 5, out, sizeof out), 0);
	assert_string_equal(out, "a\\9b\\");
	assert_int_equal(mountinfo_unescape("\\400", 4, out, sizeof out), 0);   /* > 0377 */
	assert_string_equal(out, "\\400");
	assert_int_equal(mountinfo_unescape("\\000", 4, out, sizeof out), -1);  /* NUL */
	assert_int_equal(mountinfo_unescape("0123456789abcdef", 16, out, sizeof out), -1);
	assert_int_equal(mountinfo_unescape("0123456789abcde", 15, out, sizeof out), 0);
	assert_int_equal(mountinfo_unescape("", 0, out, 0), -1);
}

static void test_malformed_lines(void **state)
{
	const char *bad[] = {
		"",
		"27 1 254:0 / / rw,relatime ext4 /dev/vda rw",             /* no dash */
		"27 1 254:0 / / rw,relatime - ext4 /dev/vda",               /* no super opts */
		"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw extra",
		"27 1 2540 / / rw - ext4 /dev/vda rw",                      /* devno */
		"27 1 a:0 / / rw - ext4 /dev/vda rw",
		"27 1 254:99999999999 / / rw - ext4 /dev/vda rw",
		"x 1 254:0 / / rw - ext4 /dev/vda rw",
		"27 1 254:0 / relative rw - ext4 /dev/vda rw",
		"27 1 254:0 / / rw - aVeryLongFilesystemTypeNameThatDoesNotFit /dev/vda rw",
		"27 1 254:0 / /a\\000b rw - ext4 /dev/vda rw",
		"27  1 254:0 / / rw - ext4 /dev/vda rw",                    /* double space */
	};
	struct mount m;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(mountinfo_parse_line(bad[i], strlen(bad[i]), &m), -1);

	/* A mount point longer than the buffer is dropped, not truncated. */
	char line[2048];
	int n = snprintf(line, sizeof line, "27 1 8:1 / /");
	while (n < 700)
		line[n++] = 'x';
	n += snprintf(line + n, sizeof line - (size_t)n, " rw - ext4 /dev/sda1 rw");
	assert_int_equal(mountinfo_parse_line(line, (size_t)n, &m), -1);

	/* Options longer than their field (an overlay's lowerdir= list) are cut and said: the
	 * mount is still there to find a path's mount in, but neither the snapshot nor a
	 * remount may take its options for the kernel's. */
	n = snprintf(line, sizeof line, "31 1 0:40 / /merged rw - overlay overlay rw,lowerdir=");
	while (n < 1500)
		line[n++] = 'l';
	assert_int_equal(mountinfo_parse_line(line, (size_t)n, &m), 0);
	assert_true(m.cut);
	assert_int_equal(m.id, 31);
	assert_string_equal(m.mountpoint, "/merged");
	assert_string_equal(m.fstype, "overlay");
	assert_int_equal(strlen(m.super_opts), sizeof m.super_opts - 1);
	struct control_mount cm;
	line[n] = '\0';
	assert_int_equal(control_mountinfo_parse_line(line, &cm), -1);
}

static struct snapshot devices_of(const char *text)
{
	struct snapshot s;
	snapshot_init(&s);
	assert_true(diskstats_parse(text, strlen(text), &s, NULL) > 0);
	return s;
}

static void test_fixture_table_resolves_disks(void **state)
{
	FILE *f = fopen(fixture_path("no-sys-no-psi/proc/self/mountinfo"), "r");
	assert_non_null(f);
	char buf[8192];
	size_t len = fread(buf, 1, sizeof buf, f);
	fclose(f);

	struct snapshot devs = devices_of(" 8 1 sda1 0 0 0 0 0 0 0 0 0 0 0\n"
					  " 8 2 sda2 0 0 0 0 0 0 0 0 0 0 0\n"
					  " 252 1 vdb1 0 0 0 0 0 0 0 0 0 0 0\n"
					  " 253 0 dm-0 0 0 0 0 0 0 0 0 0 0 0\n");
	snprintf(devs.devices[3].dm_name, sizeof devs.devices[3].dm_name, "vg-data");
	struct snapshot mt;
	snapshot_init(&mt);
	assert_int_equal(mountinfo_parse(buf, len, &mt, NULL), 6);
	const char *disks[] = { "", "sda1", "vdb1", "sda2", "", "dm-0" };
	const bool block[] = { false, true, true, true, false, true };
	for (size_t i = 0; i < mt.nmounts; i++) {
		mountinfo_resolve_disk(&mt.mounts[i], &devs, "/fixture");
		assert_string_equal(mt.mounts[i].disk, disks[i]);
		assert_int_equal(mountinfo_is_block_backed(&mt.mounts[i]), block[i]);
	}
	assert_string_equal(mt.mounts[2].mountpoint, "/mnt/with space");
	/* btrfs's anonymous 0:N found its disk through the source field */
	assert_int_equal(mt.mounts[3].major, 0);

	/* By dm name when major:minor says nothing. */
	struct mount m = parse_ok("50 27 0:77 / /y rw - btrfs /dev/mapper/vg-data rw");
	mountinfo_resolve_disk(&m, &devs, "/fixture");
	assert_string_equal(m.disk, "dm-0");
	m = parse_ok("50 27 0:77 / /y rw - btrfs /dev/nosuch rw");
	mountinfo_resolve_disk(&m, &devs, "/fixture");
	assert_string_equal(m.disk, "");
	assert_false(mountinfo_is_block_backed(&m));
	snapshot_free(&mt);
	snapshot_free(&devs);
}

/* This machine's own table: every mount on a real major is on a disk that
 * /proc/diskstats lists. */
static void test_live_table(void **state)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	FILE *g = fopen("/proc/diskstats", "r");
	assert_non_null(f);
	assert_non_null(g);
	static char mbuf[1 << 18], dbuf[1 << 18];
	size_t mlen = fread(mbuf, 1, sizeof mbuf, f), dlen = fread(dbuf, 1, sizeof dbuf, g);
	fclose(f);
	fclose(g);
	struct snapshot devs, mt;
	snapshot_init(&devs);
	snapshot_init(&mt);
	assert_true(diskstats_parse(dbuf, dlen, &devs, NULL) > 0);
	int n = mountinfo_parse(mbuf, mlen, &mt, NULL);
	assert_true(n > 0);
	bool saw_root = false;
	for (size_t i = 0; i < mt.nmounts; i++) {
		struct mount *m = &mt.mounts[i];
		mountinfo_resolve_disk(m, &devs, NULL);
		if (m->major != 0 && snapshot_find_device(&devs, m->disk) == NULL)
			fail_msg("%s (%u:%u) on no disk", m->mountpoint, m->major, m->minor);
		saw_root |= strcmp(m->mountpoint, "/") == 0;
	}
	assert_true(saw_root);
	snapshot_free(&mt);
	snapshot_free(&devs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_line),
		cmocka_unit_test(test_optional_fields_and_escapes),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_fixture_table_resolves_disks),
		cmocka_unit_test(test_live_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
