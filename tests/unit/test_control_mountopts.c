/* test_control_mountopts.c - remount option lists: parsing, merging, verdicts, mountinfo. */
#include "unit.h"

#include <string.h>
#include <sys/mount.h>

#include "control.h"

static size_t parse(const char *text, const char *super, struct control_mount_opt *opts, int expect)
{
	size_t n = 0;
	struct error err = { "" };
	int r = control_mount_opts_parse(opts, CONTROL_MAX_ITEMS, &n, text, super, &err);
	if (r != expect)
		fail_msg("%s: got %d (%s)", text, r, err.msg);
	return n;
}

static void test_scopes(void **state)
{
	(void)state;
	struct control_mount_opt o[CONTROL_MAX_ITEMS];
	size_t n = parse("noatime,+nodev,-noexec,commit=30,ro", "rw", o, 0);
	assert_int_equal(n, 5);
	assert_int_equal(o[0].scope, CONTROL_OPT_MOUNT);
	assert_int_equal(o[0].attr_set, MOUNT_ATTR_NOATIME);
	assert_int_equal(o[0].attr_clr, MOUNT_ATTR__ATIME);
	assert_int_equal(o[1].attr_set, MOUNT_ATTR_NODEV);
	assert_string_equal(o[2].key, "exec");
	assert_int_equal(o[2].attr_set, 0);
	assert_int_equal(o[2].attr_clr, MOUNT_ATTR_NOEXEC);
	assert_int_equal(o[3].scope, CONTROL_OPT_SUPER);
	assert_true(o[3].has_value);
	assert_string_equal(o[3].key, "commit");
	assert_string_equal(o[3].value, "30");
	assert_int_equal(o[4].scope, CONTROL_OPT_BOTH);
	assert_int_equal(o[4].attr_set, MOUNT_ATTR_RDONLY);
}

/* Only what is named is touched: no other per-mount bit is in set or clear. */
static void test_only_named_bits(void **state)
{
	(void)state;
	struct control_mount_opt o[CONTROL_MAX_ITEMS];
	size_t n = parse("noatime", "rw", o, 0);
	unsigned set = 0, clr = 0;
	for (size_t i = 0; i < n; i++) {
		set |= o[i].attr_set;
		clr |= o[i].attr_clr;
	}
	assert_int_equal((set | clr) & (MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC |
					MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODIRATIME),
			 0);
	n = parse("commit=5", "rw", o, 0);
	assert_int_equal(o[0].attr_set | o[0].attr_clr, 0);
}

static void test_minus_forms(void **state)
{
	(void)state;
	struct control_mount_opt o[CONTROL_MAX_ITEMS];
	parse("-nobarrier", "rw,nobarrier", o, 0);
	assert_string_equal(o[0].key, "barrier");
	parse("-discard", "rw,discard", o, 0);
	assert_string_equal(o[0].key, "nodiscard");
	parse("-noatime", "rw", o, 0);
	assert_string_equal(o[0].key, "relatime");
	parse("-ro", "ro", o, 0);
	assert_string_equal(o[0].key, "rw");
	parse("-lazytime", "rw,lazytime", o, 0);
	assert_string_equal(o[0].key, "nolazytime");
	parse("-commit", "rw,commit=30", o, -1); /* valued: say commit=VALUE */
	parse("-relatime", "rw", o, -1);         /* which atime mode then? */
	parse("-commit=5", "rw", o, -1);
}

static void test_refused_tokens(void **state)
{
	(void)state;
	struct control_mount_opt o[CONTROL_MAX_ITEMS];
	const char *bad[] = {
		"",
		",,",
		"bind",
		"defaults",
		"x-systemd.automount",
		"source=/dev/sda",
		"subvol=/x",
		"commit=",
		"=5",
		"noatime=1",
		"ro=1",
		"a b",
		"commit=3 0",
		"opt=\"x\"",
		"commit=1\\",
		"noatime,relatime",
		"noatime,noatime",
		"nosuid,suid",
		"ro,rw",
		"barrier,nobarrier",
		"commit=5,commit=6",
		".x",
		"-",
		"+",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		parse(bad[i], "rw", o, -1);
	char many[512] = "";
	for (int i = 0; i < CONTROL_MAX_ITEMS + 1; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "%so%d", i ? "," : "", i);
	parse(many, "rw", o, -1);
}

static void test_opts_find(void **state)
{
	(void)state;
	char v[64];
	const char *list = "rw,inode64,logbufs=8,logbsize=32k,noquota";
	assert_true(control_opts_find(list, "logbsize", v, sizeof v));
	assert_string_equal(v, "32k");
	assert_true(control_opts_find(list, "rw", v, sizeof v));
	assert_string_equal(v, "");
	assert_false(control_opts_find(list, "logb", v, sizeof v));
	assert_false(control_opts_find(list, "quota", v, sizeof v));
	assert_true(control_opts_find(list, "noquota", NULL, 0));
	assert_false(control_opts_find("", "rw", v, sizeof v));
}

static enum control_verdict verdict(const char *fstype, const char *text, const char *bm,
				    const char *am, const char *bs, const char *as)
{
	struct control_mount_opt o[CONTROL_MAX_ITEMS];
	size_t n = 0;
	struct error err = { "" };
	assert_int_equal(control_mount_opts_parse(o, CONTROL_MAX_ITEMS, &n, text, bs, &err), 0);
	struct control_mount before, after;
	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	snprintf(before.mount_opts, sizeof before.mount_opts, "%s", bm);
	snprintf(after.mount_opts, sizeof after.mount_opts, "%s", am);
	snprintf(before.super_opts, sizeof before.super_opts, "%s", bs);
	snprintf(after.super_opts, sizeof after.super_opts, "%s", as);
	return control_mount_opt_verdict(&o[0], fstype, &before, &after);
}

static void test_verdicts(void **state)
{
	(void)state;
	const char *xb = "rw,inode64,logbufs=8,logbsize=32k,noquota";
	/* xfs takes logbsize/logbufs/allocsize on remount and ignores them */
	assert_int_equal(verdict("xfs", "logbsize=256k", "rw", "rw", xb, xb), CONTROL_NOT_APPLIED);
	assert_int_equal(verdict("xfs", "allocsize=1m", "rw", "rw", xb, xb), CONTROL_NOT_APPLIED);
	assert_int_equal(verdict("xfs", "inode32", "rw", "rw", xb,
				 "rw,inode32,logbufs=8,logbsize=32k,noquota"),
			 CONTROL_APPLIED);
	/* ext4 hides defaults: commit=5 after commit=30 shows as nothing */
	assert_int_equal(verdict("ext4", "commit=5", "rw", "rw", "rw,commit=30", "rw"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("ext4", "commit=5", "rw", "rw", "rw", "rw"), CONTROL_HIDDEN);
	assert_int_equal(verdict("ext4", "commit=30", "rw", "rw", "rw", "rw,commit=30"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("ext4", "commit=30", "rw", "rw", "rw,commit=30", "rw,commit=30"),
			 CONTROL_ALREADY);
	assert_int_equal(verdict("ext4", "barrier=0", "rw", "rw", "rw", "rw,nobarrier"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("ext4", "barrier=1", "rw", "rw", "rw,nobarrier", "rw"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("ext4", "barrier=0", "rw", "rw", "rw", "rw"), CONTROL_HIDDEN);
	/* btrfs shows compress=zstd as compress=zstd:3 */
	assert_int_equal(verdict("btrfs", "compress=zstd", "rw", "rw", "rw", "rw,compress=zstd:3"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("btrfs", "compress=no", "rw", "rw", "rw,compress=lzo", "rw"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("btrfs", "nobarrier", "rw", "rw", "rw", "rw,nobarrier"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("btrfs", "barrier", "rw", "rw", "rw,nobarrier", "rw"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("btrfs", "nobarrier", "rw", "rw", "rw,barrier", "rw,barrier"),
			 CONTROL_NOT_APPLIED);
	/* per-mount flags */
	assert_int_equal(
		verdict("ext4", "noatime", "rw,nosuid,relatime", "rw,nosuid,noatime", "rw", "rw"),
		CONTROL_APPLIED);
	assert_int_equal(verdict("ext4", "noatime", "rw,relatime", "rw,relatime", "rw", "rw"),
			 CONTROL_NOT_APPLIED);
	assert_int_equal(verdict("ext4", "strictatime", "rw,relatime", "rw", "rw", "rw"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("ext4", "-nosuid", "rw,nosuid", "rw", "rw", "rw"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("ext4", "suid", "rw,nosuid", "rw,nosuid", "rw", "rw"),
			 CONTROL_NOT_APPLIED);
	assert_int_equal(verdict("ext4", "nodev", "rw,nodev", "rw,nodev", "rw", "rw"),
			 CONTROL_ALREADY);
	assert_int_equal(verdict("xfs", "ro", "rw,nodev", "ro,nodev", xb, "ro,inode64"),
			 CONTROL_APPLIED);
	assert_int_equal(verdict("xfs", "ro", "rw,nodev", "ro,nodev", xb, xb), CONTROL_NOT_APPLIED);
}

static void test_mountinfo_line(void **state)
{
	(void)state;
	struct control_mount m;
	assert_int_equal(
		control_mountinfo_parse_line("42 27 7:1 / /tmp/a\\040b rw,nosuid,nodev,relatime "
					     "shared:1 - ext4 /dev/loop1 rw,commit=30\n",
					     &m),
		0);
	assert_int_equal(m.id, 42);
	assert_int_equal(m.major, 7);
	assert_int_equal(m.minor, 1);
	assert_string_equal(m.mountpoint, "/tmp/a b");
	assert_string_equal(m.mount_opts, "rw,nosuid,nodev,relatime");
	assert_string_equal(m.fstype, "ext4");
	assert_string_equal(m.source, "/dev/loop1");
	assert_string_equal(m.super_opts, "rw,commit=30");
	assert_int_equal(control_mountinfo_parse_line(
				 "45 27 0:39 / /m rw - btrfs /dev/loop3 rw,subvol=/", &m),
			 0);
	assert_int_equal(m.major, 0);
	assert_int_equal(control_mountinfo_parse_line("garbage", &m), -1);
	assert_int_equal(control_mountinfo_parse_line("1 2 3:4 / /m rw shared:1 master:2", &m), -1);
	assert_int_equal(control_mountinfo_parse_line("x 2 3:4 / /m rw - ext4 /dev/x rw", &m), -1);
}

static void test_completion_names(void **state)
{
	(void)state;
	const char *const *n = control_mount_option_names("ext4");
	bool commit = false;
	for (size_t i = 0; n[i]; i++)
		commit |= strcmp(n[i], "commit=") == 0;
	assert_true(commit);
	assert_non_null(control_mount_option_names("nosuchfs"));
	assert_non_null(control_mount_option_names(NULL));
}

static void test_completion(void **state)
{
	(void)state;
	const char *names[] = { "noatime",       "nobarrier",    "nodev", "commit=",
				"compress=zstd", "compress=lzo", NULL };
	char text[64], cand[128];
	snprintf(text, sizeof text, "commit=30,+noa");
	assert_int_equal(control_mount_opts_complete(text, sizeof text, names, cand, sizeof cand),
			 1);
	assert_string_equal(text, "commit=30,+noatime");
	snprintf(text, sizeof text, "co");
	assert_int_equal(control_mount_opts_complete(text, sizeof text, names, cand, sizeof cand),
			 3);
	assert_string_equal(text, "com"); /* commit= and compress= share only "com" */
	assert_string_equal(cand, "commit= compress=zstd compress=lzo");
	snprintf(text, sizeof text, "-nob");
	control_mount_opts_complete(text, sizeof text, names, cand, sizeof cand);
	assert_string_equal(text, "-nobarrier");
	snprintf(text, sizeof text, "compr");
	assert_int_equal(control_mount_opts_complete(text, sizeof text, names, cand, sizeof cand),
			 2);
	assert_string_equal(text, "compress=");
	snprintf(text, sizeof text, "xyz");
	assert_int_equal(control_mount_opts_complete(text, sizeof text, names, cand, sizeof cand),
			 0);
	assert_string_equal(text, "xyz");
	char small[8];
	snprintf(small, sizeof small, "a,noa");
	control_mount_opts_complete(small, sizeof small, names, cand, sizeof cand);
	assert_string_equal(small, "a,noa"); /* no room: unchanged */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scopes),         cmocka_unit_test(test_only_named_bits),
		cmocka_unit_test(test_minus_forms),    cmocka_unit_test(test_refused_tokens),
		cmocka_unit_test(test_opts_find),      cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_mountinfo_line), cmocka_unit_test(test_completion_names),
		cmocka_unit_test(test_completion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
