/* What a phase is for `ioscope compare` (src/record/compare_keys.h): a mark's key drops its
 * figures and writes the device under test and its mount point as tokens, so that the
 * same workload on two filesystems pairs; and what is not the same stays apart. */
#include "unit.h"

#include <string.h>

#include "compare_keys.h"
#include "events.h"

static const struct compare_subject mnt_a = {
	.device = "loop3", .mount = "/mnt/a", .device_token = "<device>", .mount_token = "<mount>",
};
static const struct compare_subject mnt_b = {
	.device = "loop5", .mount = "/mnt/b", .device_token = "<device>", .mount_token = "<mount>",
};

static void expect_tokens(const struct compare_subject *s, const char *in, const char *want)
{
	char out[256];
	compare_tokens(in, s, 1, out, sizeof out);
	assert_string_equal(out, want);
}

static void test_tokens(void **state)
{
	(void)state;
	expect_tokens(&mnt_a, "untar.sh /mnt/a", "untar.sh <mount>");
	expect_tokens(&mnt_b, "untar.sh /mnt/b", "untar.sh <mount>");
	expect_tokens(&mnt_a, "tar -C /mnt/a/x -xf t.tar", "tar -C <mount>/x -xf t.tar");
	expect_tokens(&mnt_a, "sh -c 'cp t /mnt/a'", "sh -c 'cp t <mount>'");
	/* not a whole path: another directory */
	expect_tokens(&mnt_a, "ls /mnt/ab /srv/mnt/a", "ls /mnt/ab /srv/mnt/a");
	/* the device, a partition of it, not another device */
	expect_tokens(&mnt_a, "mkfs.ext4 /dev/loop3", "mkfs.ext4 /dev/<device>");
	expect_tokens(&mnt_a, "dd of=/dev/loop3p1", "dd of=/dev/<device>p1");
	expect_tokens(&mnt_a, "sched loop3 none→kyber", "sched <device> none→kyber");
	expect_tokens(&mnt_a, "loop30 loop3x xloop3", "loop30 loop3x xloop3");
	struct compare_subject sdb = { .device = "sdb", .device_token = "<device>" };
	expect_tokens(&sdb, "mount /dev/sdb1 /dev/sdbc", "mount /dev/<device>1 /dev/sdbc");
	/* "/" is no mount point to write as a token: every path would lose its start */
	struct compare_subject root = { .device = "vda", .mount = "/", .device_token = "<device>",
					.mount_token = "<mount>" };
	expect_tokens(&root, "tar -C /tmp", "tar -C /tmp");
	/* the longest mount point first, its device's name inside it kept as the path */
	struct compare_subject two[2] = {
		{ .device = "loop1", .mount = "/mnt", .device_token = "<device 1>",
		  .mount_token = "<mount 1>" },
		{ .device = "loop2", .mount = "/mnt/loop2", .device_token = "<device 2>",
		  .mount_token = "<mount 2>" },
	};
	char out[256];
	compare_tokens("cp /mnt/x /mnt/loop2/y loop2", two, 2, out, sizeof out);
	assert_string_equal(out, "cp <mount 1>/x <mount 2>/y <device 2>");
	/* cut at the buffer's end, terminated */
	char small[12];
	compare_tokens("untar.sh /mnt/a/long/path", &mnt_a, 1, small, sizeof small);
	assert_string_equal(small, "untar.sh <m");
}

static void make(struct event *ev, enum event_kind kind, const char *object, const char *key,
		 const char *value)
{
	event_own(ev, kind, object, key);
	event_set_new_value(ev, "%s", value);
}

static void expect_key(const struct compare_subject *s, enum event_kind kind, const char *object,
		       const char *key, const char *value, const char *want)
{
	struct event ev;
	make(&ev, kind, object, key, value);
	char out[COMPARE_KEY_MAX];
	compare_mark_key(&ev, s, 1, out, sizeof out);
	assert_string_equal(out, want);
	event_free(&ev);
}

static void test_mark_keys(void **state)
{
	(void)state;
	/* the same command on two filesystems, its elapsed time dropped */
	expect_key(&mnt_a, EVENT_RUN, "run", "start", "sh -c 'tar xf t -C /mnt/a'",
		   "start sh -c 'tar xf t -C <mount>'");
	expect_key(&mnt_b, EVENT_RUN, "run", "start", "sh -c 'tar xf t -C /mnt/b'",
		   "start sh -c 'tar xf t -C <mount>'");
	expect_key(&mnt_a, EVENT_RUN, "run", "exit", "0 (3.09 s)", "exit 0");
	expect_key(&mnt_b, EVENT_RUN, "run", "exit", "0 (4.23 s)", "exit 0");
	/* what differs in kind stays apart */
	expect_key(&mnt_a, EVENT_RUN, "run", "exit", "1 (4.23 s)", "exit 1");
	expect_key(&mnt_a, EVENT_RUN, "run", "exit", "signal 9 (0.50 s)", "exit signal 9");
	/* a matrix step is its step: its figures and its cell's parameters dropped */
	expect_key(&mnt_a, EVENT_RUN, "matrix", "synced", "0.009 s", "synced");
	expect_key(&mnt_a, EVENT_RUN, "matrix", "cell", "cell 2/6 repeat 1: ext4 kyber noatime cold",
		   "cell");
	expect_key(&mnt_b, EVENT_RUN, "matrix", "mkfs", "mkfs.xfs -q -f /dev/loop5", "mkfs");
	/* a user's mark keeps its figures: "step 2" is not "step 3" */
	expect_key(&mnt_a, EVENT_USER_MARK, "user", "mark", "step 2", "mark: step 2");
	expect_key(&mnt_a, EVENT_USER_MARK, "user", "mark", "untar into /mnt/a",
		   "mark: untar into <mount>");
}

static void test_moments(void **state)
{
	(void)state;
	struct event ev;
	make(&ev, EVENT_USER_MARK, "user", "mark", "untar");
	assert_true(compare_mark_is_moment(&ev));
	event_free(&ev);
	make(&ev, EVENT_RUN, "run", "exit", "0 (1.00 s)");
	assert_true(compare_mark_is_moment(&ev));
	event_free(&ev);
	make(&ev, EVENT_SCHEDULER, "loop3", "scheduler", "kyber");
	assert_false(compare_mark_is_moment(&ev));
	event_free(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_mark_keys),
		cmocka_unit_test(test_moments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
