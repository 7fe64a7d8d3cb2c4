/* test_graph.c - graph scaling (round tops with a floor per unit), value and age
 * labels, and rendering into braille, block and ASCII cells. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "graph.h"

static void test_nice_top(void **state)
{
	(void)state;
	assert_float_equal(graph_nice_top(0, GRAPH_UNIT_MBS), 1, 0);      /* idle: the floor */
	assert_float_equal(graph_nice_top(0.3, GRAPH_UNIT_MBS), 1, 0);
	assert_float_equal(graph_nice_top(1.2, GRAPH_UNIT_MBS), 2, 0);
	assert_float_equal(graph_nice_top(87, GRAPH_UNIT_MBS), 100, 0);
	assert_float_equal(graph_nice_top(100, GRAPH_UNIT_MBS), 100, 0);
	assert_float_equal(graph_nice_top(101, GRAPH_UNIT_MBS), 200, 0);
	assert_float_equal(graph_nice_top(201, GRAPH_UNIT_MBS), 500, 0);
	/* from 1000 MiB on, round numbers of GiB */
	assert_float_equal(graph_nice_top(1010, GRAPH_UNIT_MBS), 1024, 0);
	assert_float_equal(graph_nice_top(2062, GRAPH_UNIT_MBS), 5 * 1024, 0);
	assert_float_equal(graph_nice_top(3, GRAPH_UNIT_PER_S), 10, 0);
	assert_float_equal(graph_nice_top(16032, GRAPH_UNIT_PER_S), 20000, 0);
	assert_float_equal(graph_nice_top(1500, GRAPH_UNIT_MS), 2000, 0);
	assert_float_equal(graph_nice_top(0.2, GRAPH_UNIT_MS), 1, 0);
	assert_float_equal(graph_nice_top(3, GRAPH_UNIT_COUNT), 4, 0);
	assert_float_equal(graph_nice_top(7, GRAPH_UNIT_PERCENT), 100, 0);   /* always 100 */
	assert_float_equal(graph_nice_top(NAN, GRAPH_UNIT_MBS), 1, 0);
	assert_float_equal(graph_nice_top(INFINITY, GRAPH_UNIT_MBS), 1, 0);
	/* top is never below max */
	for (double v = 0.5; v < 1e7; v *= 1.37)
		assert_true(graph_nice_top(v, GRAPH_UNIT_PER_S) >= v);
}

static void check_value(double v, enum graph_unit u, const char *want)
{
	char buf[32];
	graph_format_value(v, u, buf, sizeof buf);
	assert_string_equal(buf, want);
	assert_true(strlen(buf) <= 6);
}

static void test_value_labels(void **state)
{
	(void)state;
	check_value(0, GRAPH_UNIT_MBS, "0");
	check_value(0.5, GRAPH_UNIT_MBS, "512k");
	check_value(1, GRAPH_UNIT_MBS, "1M");
	check_value(12.5, GRAPH_UNIT_MBS, "12.5M");
	check_value(250, GRAPH_UNIT_MBS, "250M");
	check_value(1000, GRAPH_UNIT_MBS, "1000M");
	check_value(1024, GRAPH_UNIT_MBS, "1G");
	check_value(5120, GRAPH_UNIT_MBS, "5G");
	check_value(2000, GRAPH_UNIT_PER_S, "2k");
	check_value(250, GRAPH_UNIT_PER_S, "250");
	check_value(40, GRAPH_UNIT_MS, "40ms");
	check_value(1500, GRAPH_UNIT_MS, "1.5s");
	check_value(100, GRAPH_UNIT_PERCENT, "100%");
	check_value(NAN, GRAPH_UNIT_MBS, "-");
}

static void check_age(double s, const char *want)
{
	char buf[32];
	graph_format_age(s, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_age_labels(void **state)
{
	(void)state;
	check_age(0, "now");
	check_age(0.3, "now");
	check_age(30, "-30s");
	check_age(60, "-1m");
	check_age(150, "-2m30s");
	check_age(3900, "-1h05m");
}

static void test_metrics(void **state)
{
	(void)state;
	assert_non_null(graph_metric_find("MB/s"));
	assert_non_null(graph_metric_find("iops"));
	assert_non_null(graph_metric_find("dirty/writeback"));
	assert_non_null(graph_metric_find("probe"));
	assert_null(graph_metric_find("sparkles"));
	assert_non_null(graph_metric_find("heatmap"));
	const char *cycle[] = { "MB/s", "IOPS", "await", "%util", "f/s", "in-flight", "dirty", "probe",
				"journal", "D-tasks", "PSI", "seeks/s", "latency" };
	assert_int_equal(graph_metrics_count, 13);
	for (size_t i = 0; i < 13; i++)
		assert_string_equal(graph_metrics[i].name, cycle[i]);
}

static void test_render_braille(void **state)
{
	(void)state;
	/* 2 cells wide, 1 row: four samples, right-aligned; top 4 = one dot per unit */
	float v[5] = { 9, 1, 4, 0, NAN };
	struct graph_cell cells[2];
	graph_render(v, 5, 4.0, 2, 1, GLYPHS_BRAILLE, cells);
	/* cell 0: samples 1 (1 dot) and 4 (full column); cell 1: 0 and a gap */
	assert_string_equal(cells[0].glyph, "\xe2\xa3\xb8");   /* U+28F8: dot 7 + dots 4 5 6 8 */
	assert_string_equal(cells[1].glyph, "");
	/* two rows: a half-height value fills the bottom row only */
	float h[2] = { 4, 8 };
	struct graph_cell two[2];
	graph_render(h, 2, 8.0, 1, 2, GLYPHS_BRAILLE, two);
	assert_string_equal(two[0].glyph, "\xe2\xa2\xb8");   /* top row: right column only (U+28B8) */
	assert_string_equal(two[1].glyph, "\xe2\xa3\xbf");   /* bottom row: full (U+28FF) */
	/* a tiny non-zero value still shows one dot; above the top is clipped */
	float t[2] = { 0.0001f, 100 };
	graph_render(t, 2, 8.0, 1, 2, GLYPHS_BRAILLE, two);
	assert_string_equal(two[1].glyph, "\xe2\xa3\xb8");   /* one dot left, full right */
	assert_string_equal(two[0].glyph, "\xe2\xa2\xb8");   /* clipped at the top */
}

static void test_render_block_ascii(void **state)
{
	(void)state;
	float v[3] = { 8, 4, 1 };
	struct graph_cell cells[3];
	graph_render(v, 3, 8.0, 3, 1, GLYPHS_BLOCK, cells);
	assert_string_equal(cells[0].glyph, "\xe2\x96\x88");   /* full block */
	assert_string_equal(cells[1].glyph, "\xe2\x96\x84");   /* lower half */
	assert_string_equal(cells[2].glyph, "\xe2\x96\x81");   /* lower eighth */
	struct graph_cell a[6];
	float w[3] = { 4, 2, 0 };
	graph_render(w, 3, 4.0, 3, 2, GLYPHS_ASCII, a);
	assert_string_equal(a[0].glyph, "#");
	assert_string_equal(a[3].glyph, "#");
	assert_string_equal(a[1].glyph, "");
	assert_string_equal(a[4].glyph, "#");
	assert_string_equal(a[2].glyph, "");
	assert_string_equal(a[5].glyph, "");
	assert_int_equal(graph_samples_per_cell(GLYPHS_BRAILLE), 2);
	assert_int_equal(graph_samples_per_cell(GLYPHS_ASCII), 1);
}

static void test_max(void **state)
{
	(void)state;
	float v[4] = { NAN, 3, 7, NAN };
	assert_float_equal(graph_max(v, 4), 7, 0);
	assert_float_equal(graph_max(v, 1), 0, 0);
}

/* X labels at round times: the step from the time a cell spans, labels 10 cells apart. */
static void test_tick_step(void **state)
{
	(void)state;
	assert_float_equal(graph_tick_step(2, 10), 20, 0);        /* braille at 1 s */
	assert_float_equal(graph_tick_step(1, 10), 10, 0);
	assert_float_equal(graph_tick_step(2.1, 10), 30, 0);      /* a loaded machine's 1.05 s */
	assert_float_equal(graph_tick_step(20, 10), 300, 0);      /* zoomed out: 10 samples a dot */
	assert_float_equal(graph_tick_step(0.02, 10), 0.2, 1e-12);
	assert_float_equal(graph_tick_step(600, 10), 7200, 0);
	assert_float_equal(graph_tick_step(100000, 10), 12 * 86400, 0);
	assert_float_equal(graph_tick_step(0, 10), 0, 0);
	assert_float_equal(graph_tick_step(NAN, 10), 0, 0);
	char buf[24];
	graph_format_tick(0, 0.5, buf, sizeof buf);
	assert_string_equal(buf, "now");
	graph_format_tick(1.5, 0.5, buf, sizeof buf);
	assert_string_equal(buf, "-1.5s");
	graph_format_tick(90, 30, buf, sizeof buf);
	assert_string_equal(buf, "-1m30s");
	graph_format_tick(600, 300, buf, sizeof buf);
	assert_string_equal(buf, "-10m");
}

static void check_numbers(const uint64_t *in, size_t n, int room, bool utf8, const char *want)
{
	uint64_t nums[64];
	char out[128];
	memcpy(nums, in, n * sizeof *nums);
	int w = graph_mark_numbers(nums, n, room, utf8, out, sizeof out);
	assert_string_equal(out, want);
	assert_true(w <= room);
}

/* A crowd of marks' numbers: ascending whatever order they come in, runs of three a
 * range, and what does not fit shortened in the middle with an ellipsis, never cut. */
static void test_mark_numbers(void **state)
{
	(void)state;
	const uint64_t mixed[] = { 2, 5, 1, 4, 26, 24, 25, 31, 4 };
	check_numbers(mixed, 9, 100, true, "[1,2,4,5,24-26,31]");
	check_numbers(mixed, 9, 15, true, "[1,2,4,5,…,31]");
	check_numbers(mixed, 9, 12, true, "[1,2,4,…,31]");
	check_numbers(mixed, 9, 11, true, "[1,2,…,31]");
	check_numbers(mixed, 9, 8, true, "[1,…,31]");
	check_numbers(mixed, 9, 5, true, "[1…]");
	check_numbers(mixed, 9, 3, true, "[…]");
	check_numbers(mixed, 9, 2, true, "…");
	check_numbers(mixed, 9, 0, true, "");
	check_numbers(mixed, 9, 10, false, "[1,...,31]");
	check_numbers(mixed, 9, 2, false, "");
	const uint64_t run[] = { 9, 8, 7, 3, 2 };
	check_numbers(run, 5, 100, true, "[2,3,7-9]");
	check_numbers(run, 1, 100, true, "[9]");
	char out[9];
	uint64_t many[] = { 100, 200, 300 };
	/* the buffer is a limit too: shortened to fit it, not cut */
	graph_mark_numbers(many, 3, 100, true, out, sizeof out);
	assert_string_equal(out, "[100…]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_top),
		cmocka_unit_test(test_value_labels),
		cmocka_unit_test(test_age_labels),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_render_braille),
		cmocka_unit_test(test_render_block_ascii),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_mark_numbers),
		cmocka_unit_test(test_tick_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
