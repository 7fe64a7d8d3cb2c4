/* test_heatmap.c - the latency heat map: shading on a log scale, the buckets shown and
 * how rows take them, the cells rendered from a grid (gaps where nothing was traced or
 * counted), bucket labels; and the trace history it reads from: numbered like the
 * history, "not traced" apart from "traced, nothing counted", bounded. */
#include "unit.h"

#include <string.h>

#include "heatmap.h"
#include "trace_history.h"

static void test_levels(void **state)
{
	(void)state;
	assert_int_equal(heat_level(0, 100), 0);
	assert_int_equal(heat_level(1, 100), 1);            /* one request is never blank */
	assert_int_equal(heat_level(100, 100), HEAT_LEVELS - 1);
	assert_int_equal(heat_level(1, 1), HEAT_LEVELS - 1);
	assert_int_equal(heat_level(31, 1000), 4);          /* log scale: about halfway */
	for (uint64_t c = 1; c < 1000; c++)
		assert_true(heat_level(c, 1000) <= heat_level(c + 1, 1000));
	assert_int_equal(strlen(HEAT_RAMP), HEAT_LEVELS);
}

#define W 4
static uint32_t counts[W * TRACE_LAT_BUCKETS];
static bool traced[W];

static void grid_reset(void)
{
	memset(counts, 0, sizeof counts);
	memset(traced, 0, sizeof traced);
}

static void test_range(void **state)
{
	(void)state;
	grid_reset();
	struct heat_grid g = { counts, traced, W };
	int lo, hi;
	bool over;
	heat_range(&g, 4, &lo, &hi, &over);
	assert_int_equal(lo, 4);   /* nothing counted: 16 µs .. 16 ms */
	assert_int_equal(hi, 14);
	traced[1] = true;
	counts[1 * TRACE_LAT_BUCKETS + 6] = 3;
	counts[1 * TRACE_LAT_BUCKETS + 7] = 1;
	heat_range(&g, 4, &lo, &hi, &over);   /* widened towards the slow end first */
	assert_int_equal(lo, 6);
	assert_int_equal(hi, 9);
	counts[2 * TRACE_LAT_BUCKETS + 31] = 1;   /* a column not traced does not count */
	heat_range(&g, 4, &lo, &hi, &over);
	assert_int_equal(hi, 9);
	traced[2] = true;
	heat_range(&g, 40, &lo, &hi, &over);   /* taller than all buckets: all of them */
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 31);
	assert_false(over);
}

/* Every bucket's label fits the graphs' Y label gutter. */
static void every_bucket_fits(void (*format)(uint64_t us, bool utf8, char *buf, size_t len))
{
	char buf[16];
	for (size_t i = 0; i < TRACE_LAT_BUCKETS; i++) {
		format(trace_bucket_low(i), false, buf, sizeof buf);
		assert_true(strlen(buf) <= 6);
	}
}

/* A few requests of seconds among thousands of milliseconds (issue 28: the range reached
 * 8.39 s while p99 was 7 ms): the rows fit the bulk, the slow ones share the top row. */
static void test_range_outliers(void **state)
{
	(void)state;
	grid_reset();
	struct heat_grid g = { counts, traced, W };
	int lo, hi, first, last;
	bool over;
	traced[0] = traced[1] = true;
	counts[0 * TRACE_LAT_BUCKETS + 10] = 2000;    /* 1-2 ms */
	counts[1 * TRACE_LAT_BUCKETS + 12] = 1000;    /* 4-8 ms: the 99th percentile */
	counts[1 * TRACE_LAT_BUCKETS + 23] = 3;       /* 8.39 s */
	counts[0 * TRACE_LAT_BUCKETS + 26] = 1;       /* 67 s */
	heat_range(&g, 8, &lo, &hi, &over);
	assert_true(over);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 16);                     /* 7 buckets and the outliers' row */
	heat_row_buckets(0, 8, lo, hi, over, &first, &last);
	assert_int_equal(first, 17);
	assert_int_equal(last, TRACE_LAT_BUCKETS - 1);
	heat_row_buckets(7, 8, lo, hi, over, &first, &last);   /* the bottom row: bucket 10 */
	assert_int_equal(first, 10);
	assert_int_equal(last, 10);
	heat_row_buckets(1, 8, lo, hi, over, &first, &last);
	assert_int_equal(first, 16);
	assert_int_equal(last, 16);
	struct graph_cell cells[8 * W];
	heat_render(&g, 8, lo, hi, over, cells);
	/* the outliers in the top row, each column's summed */
	assert_int_equal(heat_cell_level(&cells[0 * W + 1]), heat_level(3, 2000));
	assert_string_equal(cells[0 * W + 0].glyph, ".");
	heat_range(&g, 4, &lo, &hi, &over);           /* a short strip: rows share buckets */
	assert_true(over);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 12);
	heat_range(&g, 20, &lo, &hi, &over);          /* tall enough for every bucket counted */
	assert_false(over);
	assert_int_equal(hi, 29);
	assert_int_equal(lo, 10);
	char buf[16];
	heat_format_over(trace_bucket_low(17), true, buf, sizeof buf);
	assert_string_equal(buf, "≥131ms");
	heat_format_over(8192, false, buf, sizeof buf);
	assert_string_equal(buf, ">8.2ms");
	heat_format_over(512, false, buf, sizeof buf);
	assert_string_equal(buf, ">512us");
	every_bucket_fits(heat_format_over);
}

static void test_rows(void **state)
{
	(void)state;
	int first, last;
	heat_row_buckets(3, 4, 6, 9, false, &first, &last);   /* bottom row: the fastest bucket */
	assert_int_equal(first, 6);
	assert_int_equal(last, 6);
	heat_row_buckets(0, 4, 6, 9, false, &first, &last);
	assert_int_equal(first, 9);
	assert_int_equal(last, 9);
	heat_row_buckets(0, 2, 0, 31, false, &first, &last);   /* two rows: 16 buckets each */
	assert_int_equal(first, 16);
	assert_int_equal(last, 31);
	heat_row_buckets(1, 2, 0, 31, false, &first, &last);
	assert_int_equal(first, 0);
	assert_int_equal(last, 15);
}

static void test_render(void **state)
{
	(void)state;
	grid_reset();
	struct heat_grid g = { counts, traced, W };
	traced[1] = traced[2] = traced[3] = true;       /* column 0 not traced */
	counts[0 * TRACE_LAT_BUCKETS + 6] = 50;         /* ignored: not traced */
	counts[1 * TRACE_LAT_BUCKETS + 6] = 100;        /* the busiest cell */
	counts[2 * TRACE_LAT_BUCKETS + 7] = 1;
	counts[3 * TRACE_LAT_BUCKETS + 8] = 4;          /* two buckets in one row: 4 + 6 */
	counts[3 * TRACE_LAT_BUCKETS + 9] = 6;
	struct graph_cell cells[2 * W];
	int lo = 6, hi = 9;
	uint64_t max = heat_render(&g, 2, lo, hi, false, cells);
	assert_int_equal(max, 100);
	/* bottom row (buckets 6-7), top row (8-9) */
	assert_string_equal(cells[1 * W + 0].glyph, "");        /* gap */
	assert_string_equal(cells[1 * W + 1].glyph, "@");
	assert_string_equal(cells[1 * W + 2].glyph, ".");       /* 1 request: lightest */
	assert_string_equal(cells[1 * W + 3].glyph, "");        /* traced, nothing: blank */
	assert_int_equal(cells[0 * W + 3].glyph[0], HEAT_RAMP[heat_level(10, 100)]);
	assert_int_equal(cells[0 * W + 3].glyph[1], '\0');
	assert_string_equal(cells[0 * W + 1].glyph, "");
	assert_int_equal(heat_cell_level(&cells[1 * W + 1]), HEAT_LEVELS - 1);
	assert_int_equal(heat_cell_level(&cells[1 * W + 0]), 0);
	assert_int_equal(heat_cell_level(&cells[1 * W + 2]), 1);
}

static void test_labels(void **state)
{
	(void)state;
	char buf[16];
	heat_format_us(trace_bucket_low(0), false, buf, sizeof buf);
	assert_string_equal(buf, "0us");
	heat_format_us(512, true, buf, sizeof buf);
	assert_string_equal(buf, "512µs");
	heat_format_us(16384, false, buf, sizeof buf);
	assert_string_equal(buf, "16.4ms");
	heat_format_us(1u << 21, false, buf, sizeof buf);
	assert_string_equal(buf, "2.1s");
	every_bucket_fits(heat_format_us);
}

static void test_history(void **state)
{
	(void)state;
	struct trace_history *h = trace_history_new(1000000);
	assert_non_null(h);
	assert_int_equal(trace_history_capacity(h), TRACE_HISTORY_MAX_SAMPLES);
	struct trace_sample t = { NULL, 0 };
	struct trace_device *d = trace_get(&t, 7, 3);
	assert_non_null(d);
	d->d2c[TRACE_WRITE][5] = 9;
	d->d2c[TRACE_READ][2] = 4;
	assert_int_equal(trace_history_append(h, 0, NULL), 0);   /* not traced */
	assert_int_equal(trace_history_append(h, 1, &t), 0);
	struct trace_sample none = { NULL, 0 };
	assert_int_equal(trace_history_append(h, 2, &none), 0);  /* traced, no I/O */
	assert_null(trace_history_hist(h, 7, 3, TRACE_WRITE, 0));
	assert_false(trace_history_traced(h, 0));
	assert_true(trace_history_traced(h, 1));
	const uint32_t *w = trace_history_hist(h, 7, 3, TRACE_WRITE, 1);
	assert_non_null(w);
	assert_int_equal(w[5], 9);
	assert_int_equal(trace_history_hist(h, 7, 3, TRACE_READ, 1)[2], 4);
	assert_null(trace_history_hist(h, 7, 3, TRACE_FLUSH, 1));
	w = trace_history_hist(h, 7, 3, TRACE_WRITE, 2);
	assert_non_null(w);
	assert_int_equal(w[5], 0);
	assert_int_equal(trace_history_hist(h, 8, 0, TRACE_WRITE, 1)[5], 0);   /* another disk */
	/* the ring wraps: memory stays bounded, old samples are no longer held */
	for (uint64_t n = 3; n < 3 * TRACE_HISTORY_MAX_SAMPLES; n++)
		assert_int_equal(trace_history_append(h, n, n % 2 ? &t : NULL), 0);
	assert_null(trace_history_hist(h, 7, 3, TRACE_WRITE, 1));
	uint64_t last = 3 * TRACE_HISTORY_MAX_SAMPLES - 1;
	assert_int_equal(trace_history_hist(h, 7, 3, TRACE_WRITE, last)[5], 9);
	assert_null(trace_history_hist(h, 7, 3, TRACE_WRITE, last - 1));
	assert_true(trace_history_memory(h) < TRACE_HISTORY_MAX_SAMPLES * 300 + 100000);
	trace_history_free(h);
	free(t.devices);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_range_outliers),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_history),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
