/* test_diskstats.c - the /proc/diskstats parser on every layout and on garbage. */
#include "unit.h"

#include <string.h>

#include "diskstats.h"

static char *slurp(const char *rel, size_t *len)
{
	FILE *f = fopen(fixture_path(rel), "rb");
	assert_non_null(f);
	static char buf[1 << 16];
	*len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	return buf;
}

static struct device parse_one(const char *line, int expect)
{
	struct device d;
	memset(&d, 0, sizeof d);
	assert_int_equal(diskstats_parse_line(line, strlen(line), &d), expect);
	return d;
}

static void test_layout20_fields_in_order(void **state)
{
	struct device d = parse_one(" 254       0 vda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17", 0);
	assert_string_equal(d.name, "vda");
	assert_int_equal(d.major, 254);
	assert_int_equal(d.minor, 0);
	const struct disk_counters *c = &d.counters;
	uint64_t got[] = { c->rd_ios, c->rd_merges, c->rd_sectors, c->rd_ticks, c->wr_ios,
			   c->wr_merges, c->wr_sectors, c->wr_ticks, c->in_flight, c->io_ticks,
			   c->time_in_queue, c->dc_ios, c->dc_merges, c->dc_sectors, c->dc_ticks,
			   c->fl_ios, c->fl_ticks };
	for (unsigned i = 0; i < 17; i++)
		assert_int_equal(got[i], i + 1);
	assert_int_equal(c->nfields, 20);
	assert_true(counters_have_discard(c));
	assert_true(counters_have_flush(c));
}

static void test_layout14_has_no_discard_or_flush(void **state)
{
	struct device d = parse_one("   8       0 sda 1000 10 80000 500 2000 20 160000 1500 3 1800 2000", 0);
	assert_int_equal(d.counters.nfields, 14);
	assert_int_equal(d.counters.wr_sectors, 160000);
	assert_int_equal(d.counters.in_flight, 3);
	assert_int_equal(d.counters.time_in_queue, 2000);
	assert_int_equal(d.counters.dc_ios, 0);
	assert_int_equal(d.counters.fl_ios, 0);
	assert_false(counters_have_discard(&d.counters));
	assert_false(counters_have_flush(&d.counters));
}

static void test_layout18_has_discard_not_flush(void **state)
{
	struct device d = parse_one(" 259 0 nvme0n1 5000 0 400000 1000 10000 500 800000 4000 0 6000 5000 100 1 204800 50", 0);
	assert_int_equal(d.counters.nfields, 18);
	assert_int_equal(d.counters.dc_ios, 100);
	assert_int_equal(d.counters.dc_merges, 1);
	assert_int_equal(d.counters.dc_sectors, 204800);
	assert_int_equal(d.counters.dc_ticks, 50);
	assert_true(counters_have_discard(&d.counters));
	assert_false(counters_have_flush(&d.counters));
}

static void test_malformed_lines_rejected(void **state)
{
	const char *bad[] = {
		"",
		"   ",
		"8 0 sda",
		"8 0 sda 1 2 3 4 5 6 7 8 9 10",                    /* 13 fields */
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 11 x",               /* 15, not a number */
		"8 0 cciss//c0d0 1 2 3 4 5 6 7 8 9 10 11",          /* empty component */
		"8 0 /c0d0 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 cciss/ 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 cciss/../c0d0 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 ./sda 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 1x",
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 +1",
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 18446744073709551616",
		"8 0 sda 1 2 3 4 5 6 7 8 9 10 99999999999999999999999",
		"x 0 sda 1 2 3 4 5 6 7 8 9 10 11",
		"8 4294967296 sda 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 1234567890123456789012345678901234567890123456789012345678901234 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 s\x7f" "a 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 ../../etc 1 2 3 4 5 6 7 8 9 10 11",             /* a path, not a name */
		"8 0 .. 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 . 1 2 3 4 5 6 7 8 9 10 11",
		"8 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		parse_one(bad[i], -1);
}

static void test_extremes_accepted(void **state)
{
	struct device d = parse_one("4294967295 1048575 a 18446744073709551615 0 0 0 0 0 0 0 0 0 0", 0);
	assert_int_equal(d.major, 4294967295u);
	assert_true(d.counters.rd_ios == UINT64_MAX);
	/* A future kernel with more fields keeps the 20-field prefix. */
	d = parse_one("8 0 sdz 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", 1);
	assert_int_equal(d.counters.nfields, 20);
	assert_int_equal(d.counters.fl_ticks, 17);
	/* Field counts between the known layouts: the largest layout they contain,
	 * and 1 says fields were ignored. */
	d = parse_one("8 16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14", 1);      /* 17 */
	assert_int_equal(d.counters.nfields, 14);
	assert_int_equal(d.counters.time_in_queue, 11);
	assert_false(counters_have_discard(&d.counters));
	d = parse_one("8 32 sdc 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", 1);  /* 19 */
	assert_int_equal(d.counters.nfields, 18);
	assert_int_equal(d.counters.dc_ticks, 15);
	assert_false(counters_have_flush(&d.counters));
	d = parse_one("8 32 sdc 1 2 3 4 5 6 7 8 9 10 11 12", 1);              /* 15 */
	assert_int_equal(d.counters.nfields, 14);
	/* The kernel prints cciss disks with a '/' (sysfs spells them with '!'). */
	d = parse_one("104 1 cciss/c0d0p1 1 2 3 4 5 6 7 8 9 10 11", 0);
	assert_string_equal(d.name, "cciss/c0d0p1");
	/* Kernel names may hold '!' (cciss!c0d0). */
	d = parse_one("104 0 cciss!c0d0 1 2 3 4 5 6 7 8 9 10 11", 0);
	assert_string_equal(d.name, "cciss!c0d0");
}

static void test_nul_inside_line_rejected(void **state)
{
	const char line[] = "8 0 s\0a 1 2 3 4 5 6 7 8 9 10 11";
	struct device d;
	assert_int_equal(diskstats_parse_line(line, sizeof line - 1, &d), -1);
}

static void test_garbage_file_keeps_good_lines(void **state)
{
	size_t len;
	char *buf = slurp("text/diskstats-garbage.txt", &len);
	struct snapshot s;
	snapshot_init(&s);
	struct error err;
	assert_int_equal(diskstats_parse(buf, len, &s, &err), 9);
	const char *names[] = { "sda", "sda1", "sda2", "sda6", "vdb", "vdc", "sdq", "sdr", "last" };
	const int layouts[] = { 14, 14, 20, 14, 18, 20, 20, 14, 14 };
	assert_int_equal(s.ndevices, 9);
	for (size_t i = 0; i < 9; i++) {
		assert_string_equal(s.devices[i].name, names[i]);
		assert_int_equal(s.devices[i].counters.nfields, layouts[i]);
		/* Blank settings: what snapshot_add_device makes. */
		assert_int_equal(s.devices[i].settings.rotational, -1);
	}
	assert_int_equal(s.devices[7].counters.time_in_queue, 11);   /* "\r" ended the line */
	snapshot_free(&s);
}

static void test_fixture_trees(void **state)
{
	struct {
		const char *file;
		size_t ndev;
		int layout;
	} cases[] = {
		{ "layout14/1/proc/diskstats", 4, 14 },
		{ "layout18/2/proc/diskstats", 3, 18 },
		{ "layout20/1/proc/diskstats", 3, 20 },
		{ "root-live/1/proc/diskstats", 10, 20 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len;
		char *buf = slurp(cases[i].file, &len);
		struct snapshot s;
		snapshot_init(&s);
		assert_int_equal(diskstats_parse(buf, len, &s, NULL), (int)cases[i].ndev);
		for (size_t j = 0; j < s.ndevices; j++)
			assert_int_equal(s.devices[j].counters.nfields, cases[i].layout);
		snapshot_free(&s);
	}
}

static void test_empty_and_newline_only(void **state)
{
	struct snapshot s;
	snapshot_init(&s);
	assert_int_equal(diskstats_parse("", 0, &s, NULL), 0);
	assert_int_equal(diskstats_parse("\n\n\n", 3, &s, NULL), 0);
	assert_int_equal(s.ndevices, 0);
	snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout20_fields_in_order),
		cmocka_unit_test(test_layout14_has_no_discard_or_flush),
		cmocka_unit_test(test_layout18_has_discard_not_flush),
		cmocka_unit_test(test_malformed_lines_rejected),
		cmocka_unit_test(test_extremes_accepted),
		cmocka_unit_test(test_nul_inside_line_rejected),
		cmocka_unit_test(test_garbage_file_keeps_good_lines),
		cmocka_unit_test(test_fixture_trees),
		cmocka_unit_test(test_empty_and_newline_only),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
