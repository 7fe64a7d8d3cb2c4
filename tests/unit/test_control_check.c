/* test_control_check.c - validation of `set` arguments before anything is written. */
#include "unit.h"

#include <string.h>

#include "control.h"
#include "knobs.h"

static struct control_limits loop_limits(const char *target)
{
	struct control_limits lim;
	memset(&lim, 0, sizeof lim);
	const char *names[] = { "none", "mq-deadline", "kyber", "bfq" };
	for (size_t i = 0; i < 4; i++)
		snprintf(lim.schedulers[i], sizeof lim.schedulers[i], "%s", names[i]);
	lim.nschedulers = 4;
	snprintf(lim.scheduler, sizeof lim.scheduler, "none");
	snprintf(lim.target_scheduler, sizeof lim.target_scheduler, "%s", target);
	lim.queue_depth = 128;
	lim.max_hw_sectors_kb = 1280;
	lim.page_kb = 4;
	return lim;
}

static int check(const char *target, const char *key, const char *value, char *out,
		 struct error *err)
{
	struct control_limits lim = loop_limits(target);
	return control_value_check(&lim, key, value, out, SETTING_VAL_MAX, err);
}

static void test_nr_requests_ranges(void **state)
{
	(void)state;
	char out[SETTING_VAL_MAX];
	struct error err = { "" };
	assert_int_equal(check("none", "nr_requests", "128", out, &err), 0);
	assert_string_equal(out, "128");
	assert_int_equal(check("none", "nr_requests", "4", out, &err), 0);
	assert_int_equal(check("none", "nr_requests", "129", out, &err), -1);
	assert_non_null(strstr(err.msg, "4..128"));
	assert_non_null(strstr(err.msg, "none"));
	assert_int_equal(check("none", "nr_requests", "3", out, &err), -1);
	assert_int_equal(check("mq-deadline", "nr_requests", "2048", out, &err), 0);
	assert_int_equal(check("bfq", "nr_requests", "2049", out, &err), -1);
	assert_non_null(strstr(err.msg, "4..2048 with scheduler bfq"));
}

static void test_junk_numbers_refused(void **state)
{
	(void)state;
	char out[SETTING_VAL_MAX];
	struct error err = { "" };
	const char *junk[] = { "abc", "12abc", "-1",  "+5", " 5",
			       "5 ",  "0x10",  "1e3", "",   "99999999999999999999999" };
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		assert_int_equal(check("none", "read_ahead_kb", junk[i], out, &err), -1);
		assert_non_null(strstr(err.msg, "allowed"));
	}
	assert_int_equal(check("none", "read_ahead_kb", "4294967295", out, &err), 0);
	assert_int_equal(check("none", "read_ahead_kb", "4294967296", out, &err), -1);
}

static void test_max_sectors(void **state)
{
	(void)state;
	char out[SETTING_VAL_MAX];
	struct error err = { "" };
	assert_int_equal(check("none", "max_sectors_kb", "0", out, &err), 0); /* default */
	assert_int_equal(check("none", "max_sectors_kb", "3", out, &err), -1);
	assert_int_equal(check("none", "max_sectors_kb", "4", out, &err), 0);
	assert_int_equal(check("none", "max_sectors_kb", "1280", out, &err), 0);
	assert_int_equal(check("none", "max_sectors_kb", "1281", out, &err), -1);
	assert_non_null(strstr(err.msg, "4..1280"));
}

static void test_write_cache_spellings(void **state)
{
	(void)state;
	char out[SETTING_VAL_MAX];
	struct error err = { "" };
	assert_int_equal(check("none", "write_cache", "write-through", out, &err), 0);
	assert_string_equal(out, "write through");
	assert_int_equal(check("none", "write_cache", "back", out, &err), 0);
	assert_string_equal(out, "write back");
	assert_int_equal(check("none", "write_cache", "write  back", out, &err), -1);
	assert_int_equal(check("none", "write_cache", "on", out, &err), -1);
}

static void test_scheduler_must_be_listed(void **state)
{
	(void)state;
	char out[SETTING_VAL_MAX];
	struct error err = { "" };
	assert_int_equal(check("none", "scheduler", "bfq", out, &err), 0);
	assert_int_equal(check("none", "scheduler", "cfq", out, &err), -1);
	assert_non_null(strstr(err.msg, "none, mq-deadline, kyber, bfq"));
	assert_int_equal(check("none", "scheduler", "../../etc", out, &err), -1);
}

static void test_iosched_values(void **state)
{
	(void)state;
	char out[SETTING_VAL_MAX];
	struct error err = { "" };
	assert_int_equal(check("mq-deadline", "iosched.fifo_batch", "16", out, &err), 0);
	assert_int_equal(check("mq-deadline", "iosched.fifo_batch", "2147483648", out, &err), -1);
	assert_int_equal(check("mq-deadline", "iosched.fifo_batch", "x", out, &err), -1);
	assert_int_equal(check("mq-deadline", "iosched.slice_idle", "1", out, &err), -1);
	assert_non_null(strstr(err.msg, "no such tunable"));
	assert_int_equal(check("kyber", "iosched.read_lat_nsec", "18446744073709551615", out, &err),
			 0);
	assert_int_equal(check("none", "iosched.fifo_batch", "1", out, &err), -1);
}

static void test_assignment_split(void **state)
{
	(void)state;
	char key[SETTING_KEY_MAX], value[SETTING_VAL_MAX];
	struct error err = { "" };
	assert_int_equal(control_assignment_split("nr_requests=64", key, sizeof key, value,
						  sizeof value, &err),
			 0);
	assert_string_equal(key, "nr_requests");
	assert_string_equal(value, "64");
	assert_int_equal(control_assignment_split("write_cache=write back", key, sizeof key, value,
						  sizeof value, &err),
			 0);
	assert_string_equal(value, "write back");
	assert_int_equal(control_assignment_split("iosched.fifo_batch=8", key, sizeof key, value,
						  sizeof value, &err),
			 0);
	assert_int_equal(
		control_assignment_split("nr_requests", key, sizeof key, value, sizeof value, &err),
		-1);
	assert_int_equal(control_assignment_split("=5", key, sizeof key, value, sizeof value, &err),
			 -1);
	assert_int_equal(control_assignment_split("nr_requests=", key, sizeof key, value,
						  sizeof value, &err),
			 -1);
	assert_int_equal(control_assignment_split("rotational=1", key, sizeof key, value,
						  sizeof value, &err),
			 -1);
	assert_non_null(strstr(err.msg, "unknown key"));
	assert_int_equal(control_assignment_split("iosched.../x=1", key, sizeof key, value,
						  sizeof value, &err),
			 -1);
	assert_int_equal(
		control_assignment_split("iosched.=1", key, sizeof key, value, sizeof value, &err),
		-1);
}


/* The knobs' ranges (issue 25): what the kernel would take and quietly map, clamp or
 * ignore is refused with the range; wbt's -1 asks for the default. */
static void test_knob_values(void **state)
{
	(void)state;
	char out[SETTING_VAL_MAX];
	struct error err = { "" };
	assert_int_equal(check("none", "wbt_lat_usec", "0", out, &err), 0);
	assert_int_equal(check("none", "wbt_lat_usec", "-1", out, &err), 0);
	assert_string_equal(out, "-1");
	assert_int_equal(check("none", "wbt_lat_usec", "9223372036854775", out, &err), 0);
	assert_int_equal(check("none", "wbt_lat_usec", "9223372036854776", out, &err), -1);
	assert_non_null(strstr(err.msg, "-1 = the default"));
	assert_int_equal(check("none", "wbt_lat_usec", "-2", out, &err), -1);
	assert_int_equal(check("none", "nomerges", "2", out, &err), 0);
	assert_int_equal(check("none", "nomerges", "3", out, &err), -1);   /* the kernel: 1 */
	assert_non_null(strstr(err.msg, "0..2"));
	assert_int_equal(check("none", "rq_affinity", "2", out, &err), 0);
	assert_int_equal(check("none", "rq_affinity", "3", out, &err), -1);
	assert_int_equal(check("none", "add_random", "1", out, &err), 0);
	assert_int_equal(check("none", "add_random", "2", out, &err), -1);
	assert_int_equal(check("none", "iostats", "0", out, &err), 0);
	assert_int_equal(check("none", "iostats", "yes", out, &err), -1);
	assert_int_equal(check("none", "bdi.strict_limit", "1", out, &err), 0);
	assert_int_equal(check("none", "bdi.strict_limit", "2", out, &err), -1);
	assert_int_equal(check("none", "bdi.max_ratio", "100", out, &err), 0);
	assert_int_equal(check("none", "bdi.max_ratio", "101", out, &err), -1);
	assert_non_null(strstr(err.msg, "0..100"));
	assert_int_equal(check("none", "bdi.min_ratio_fine", "1000000", out, &err), 0);
	assert_int_equal(check("none", "bdi.min_ratio_fine", "1000001", out, &err), -1);
	assert_int_equal(check("none", "bdi.max_bytes", "1073741824", out, &err), 0);
	assert_int_equal(check("none", "bdi.max_bytes", "1G", out, &err), -1);
	assert_int_equal(check("none", "loop.dio", "on", out, &err), 0);
	assert_string_equal(out, "1");
	assert_int_equal(check("none", "loop.dio", "0", out, &err), 0);
	assert_string_equal(out, "0");
	assert_int_equal(check("none", "loop.dio", "2", out, &err), -1);
	assert_int_equal(check("none", "io_poll", "1", out, &err), -1);   /* watched only */
}

/* Every key set takes is in the table with its range, and the watched-only ones are
 * refused by name with the reason. */
static void test_knob_keys(void **state)
{
	(void)state;
	char key[SETTING_KEY_MAX], value[SETTING_VAL_MAX];
	struct error err = { "" };
	const char *settable[] = { "wbt_lat_usec=0", "nomerges=1", "rq_affinity=1", "add_random=0",
				   "iostats=1", "bdi.strict_limit=1", "bdi.max_ratio=50",
				   "bdi.max_ratio_fine=1", "bdi.max_bytes=1", "bdi.min_ratio=1",
				   "bdi.min_ratio_fine=1", "bdi.min_bytes=1", "loop.dio=1" };
	for (size_t i = 0; i < sizeof settable / sizeof settable[0]; i++)
		assert_int_equal(control_assignment_split(settable[i], key, sizeof key, value,
							  sizeof value, &err), 0);
	const char *watched[] = { "io_poll=1", "io_poll_delay=0", "loop.backing_file=/x",
				  "loop.ro=1", "loop.sectors=8" };
	for (size_t i = 0; i < sizeof watched / sizeof watched[0]; i++) {
		assert_int_equal(control_assignment_split(watched[i], key, sizeof key, value,
							  sizeof value, &err), -1);
		assert_non_null(strstr(err.msg, "watched, not set"));
	}
	assert_int_equal(control_assignment_split("bogus=1", key, sizeof key, value, sizeof value,
						  &err), -1);
	assert_non_null(strstr(err.msg, "wbt_lat_usec"));
	assert_non_null(strstr(err.msg, "bdi.max_ratio"));
	assert_non_null(strstr(err.msg, "loop.dio"));
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		assert_true(k->help[0] && (k->write == KNOB_READ_ONLY ? k->why != NULL
								      : k->value != KNOB_NOT_SET));
	}
}

static void test_scheduler_names(void **state)
{
	(void)state;
	char names[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME];
	int cur;
	assert_int_equal(control_scheduler_names("none [mq-deadline] kyber bfq", names,
						 CONTROL_SCHED_MAX, &cur),
			 4);
	assert_int_equal(cur, 1);
	assert_string_equal(names[1], "mq-deadline");
	assert_string_equal(names[3], "bfq");
	assert_int_equal(control_scheduler_names("[none] ", names, CONTROL_SCHED_MAX, &cur), 1);
	assert_int_equal(cur, 0);
	assert_int_equal(control_scheduler_names("", names, CONTROL_SCHED_MAX, &cur), 0);
	assert_int_equal(cur, -1);
	assert_int_equal(
		control_scheduler_names("a b c d e f g h i j", names, CONTROL_SCHED_MAX, &cur),
		CONTROL_SCHED_MAX);
}

static void test_name_validation(void **state)
{
	(void)state;
	assert_true(control_name_valid("loop0"));
	assert_true(control_name_valid("nvme0n1"));
	assert_true(control_name_valid("dm-0"));
	assert_false(control_name_valid(""));
	assert_false(control_name_valid("../vda"));
	/* a '/' is a cciss-style name (sysfs spells it '!'), never a path: it cannot lead
	 * into a disk's directory, and empty or dotted components are refused */
	assert_true(control_name_valid("cciss/c0d0"));
	assert_false(control_name_valid("cciss/"));
	assert_false(control_name_valid("cciss//c0d0"));
	assert_false(control_name_valid("cciss/../vda"));
	char disk[DEV_NAME_MAX];
	bool part;
	assert_int_equal(control_disk_of("tests/fixtures/edge/1", "cciss/c0d0", disk, sizeof disk,
					 &part), 0);
	assert_string_equal(disk, "cciss/c0d0");
	assert_false(part);
	assert_int_equal(control_disk_of("tests/fixtures/edge/1", "cciss/c0d0p1", disk,
					 sizeof disk, &part), 0);
	assert_string_equal(disk, "cciss/c0d0");
	assert_true(part);
	assert_int_equal(control_disk_of("tests/fixtures/layout20/1", "vdb/queue", disk,
					 sizeof disk, &part), -1);
	assert_false(control_name_valid("-x"));
	assert_false(control_name_valid(".hidden"));
	assert_false(control_name_valid("a b"));
	assert_false(control_name_valid("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nr_requests_ranges),
		cmocka_unit_test(test_junk_numbers_refused),
		cmocka_unit_test(test_max_sectors),
		cmocka_unit_test(test_write_cache_spellings),
		cmocka_unit_test(test_scheduler_must_be_listed),
		cmocka_unit_test(test_iosched_values),
		cmocka_unit_test(test_assignment_split),
		cmocka_unit_test(test_knob_values),
		cmocka_unit_test(test_knob_keys),
		cmocka_unit_test(test_scheduler_names),
		cmocka_unit_test(test_name_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
