/* test_report_heat.c - the layout of the plot's latency heat map (report --metrics
 * latency), without pixels: which buckets become rows, where each interval's cells go,
 * how they are shaded, and that an interval not traced leaves a gap. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "report_heat.h"

static struct trace_device dev(int bucket, uint64_t reads, uint64_t writes)
{
	struct trace_device d;
	memset(&d, 0, sizeof d);
	d.d2c[TRACE_READ][bucket] = reads;
	d.d2c[TRACE_WRITE][bucket] = writes;
	return d;
}

static void test_layout(void **state)
{
	(void)state;
	struct heat_series s = { NULL, 0, 0 };
	struct trace_device a = dev(6, 3, 1), b = dev(9, 0, 100);
	assert_int_equal(report_heat_add(&s, 0, 1, &a), 0);   /* 64 µs: 4 requests */
	assert_int_equal(report_heat_add(&s, 1, 2, NULL), 0);  /* traced, nothing */
	/* 2..3 not traced: no column */
	assert_int_equal(report_heat_add(&s, 3, 4, &b), 0);   /* 512 µs: 100 requests */
	struct heat_box box = { 100, 500, 10, 90, 4 };
	int lo, hi;
	bool over;
	struct heat_rect *r;
	long n = report_heat_layout(&s, &box, &lo, &hi, &over, &r);
	assert_int_equal(n, 2);   /* only cells that counted something */
	assert_false(over);
	assert_int_equal(lo, 6);
	assert_int_equal(hi, 6 + REPORT_HEAT_MIN_BUCKETS - 1);   /* widened towards slower */
	double row = (box.bottom - box.top) / REPORT_HEAT_MIN_BUCKETS;
	/* the first interval: reads and writes summed, the fastest bucket at the bottom */
	assert_int_equal(r[0].count, 4);
	assert_float_equal(r[0].x0, 100, 1e-9);
	assert_float_equal(r[0].x1, 200, 1e-9);
	assert_float_equal(r[0].y1, box.bottom, 1e-9);
	assert_float_equal(r[0].y0, box.bottom - row, 1e-9);
	/* the third: 3 buckets up, the busiest cell, the darkest shade */
	assert_int_equal(r[1].count, 100);
	assert_float_equal(r[1].x0, 400, 1e-9);
	assert_float_equal(r[1].x1, 500, 1e-9);
	assert_float_equal(r[1].y1, box.bottom - 3 * row, 1e-9);
	assert_float_equal(r[1].shade, 1, 1e-9);
	assert_true(r[0].shade > 0 && r[0].shade < 0.5);   /* log scale: 4 of 100 */
	free(r);
	report_heat_free(&s);
}

static void test_edges(void **state)
{
	(void)state;
	struct heat_series s = { NULL, 0, 0 };
	struct heat_box box = { 0, 100, 0, 80, 10 };
	int lo, hi;
	bool over;
	struct heat_rect *r;
	assert_int_equal(report_heat_layout(&s, &box, &lo, &hi, &over, &r), 0);   /* no trace records */
	assert_null(r);
	assert_int_equal(hi - lo + 1, REPORT_HEAT_MIN_BUCKETS);
	/* the slowest bucket: widened downwards; an interval before the start is clipped */
	struct trace_device d = dev(TRACE_LAT_BUCKETS - 1, 1, 0);
	assert_int_equal(report_heat_add(&s, -1, 1, &d), 0);
	assert_int_equal(report_heat_layout(&s, &box, &lo, &hi, &over, &r), 1);
	assert_int_equal(hi, TRACE_LAT_BUCKETS - 1);
	assert_int_equal(lo, TRACE_LAT_BUCKETS - REPORT_HEAT_MIN_BUCKETS);
	assert_float_equal(r[0].x0, 0, 1e-9);
	assert_float_equal(r[0].y0, box.top, 1e-9);
	assert_float_equal(r[0].shade, 1, 1e-9);
	free(r);
	report_heat_free(&s);
}

/* A few requests of seconds among thousands of milliseconds (issue 28: the plot's scale
 * reached 67 s while p99 was 7 ms): the rows fit the bulk, and the top one is the
 * outliers' row, each interval's slow requests summed in it. */
static void test_outliers(void **state)
{
	(void)state;
	struct heat_series s = { NULL, 0, 0 };
	struct trace_device a = dev(10, 1500, 500), b = dev(12, 0, 1000), c = dev(23, 3, 0);
	b.d2c[TRACE_WRITE][26] = 1;
	assert_int_equal(report_heat_add(&s, 0, 1, &a), 0);
	assert_int_equal(report_heat_add(&s, 1, 2, &b), 0);
	assert_int_equal(report_heat_add(&s, 2, 3, &c), 0);
	struct heat_box box = { 0, 300, 0, 80, 3 };
	int lo, hi;
	bool over;
	struct heat_rect *r;
	long n = report_heat_layout(&s, &box, &lo, &hi, &over, &r);
	assert_true(over);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 10 + REPORT_HEAT_MIN_BUCKETS - 1);   /* the last row: 17 and up */
	assert_int_equal(n, 4);
	double row = (box.bottom - box.top) / REPORT_HEAT_MIN_BUCKETS;
	assert_int_equal(r[2].count, 1);   /* 67 s, in the second interval's top row */
	assert_float_equal(r[2].y0, box.top, 1e-9);
	assert_float_equal(r[2].y1, box.top + row, 1e-9);
	assert_int_equal(r[3].count, 3);   /* 8.39 s, in the third's */
	assert_float_equal(r[3].y0, box.top, 1e-9);
	free(r);
	report_heat_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_outliers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
