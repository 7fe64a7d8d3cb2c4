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
	struct heat_rect *r;
	long n = report_heat_layout(&s, &box, &lo, &hi, &r);
	assert_int_equal(n, 2);   /* only cells that counted something */
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
	struct heat_rect *r;
	assert_int_equal(report_heat_layout(&s, &box, &lo, &hi, &r), 0);   /* no trace records */
	assert_null(r);
	assert_int_equal(hi - lo + 1, REPORT_HEAT_MIN_BUCKETS);
	/* the slowest bucket: widened downwards; an interval before the start is clipped */
	struct trace_device d = dev(TRACE_LAT_BUCKETS - 1, 1, 0);
	assert_int_equal(report_heat_add(&s, -1, 1, &d), 0);
	assert_int_equal(report_heat_layout(&s, &box, &lo, &hi, &r), 1);
	assert_int_equal(hi, TRACE_LAT_BUCKETS - 1);
	assert_int_equal(lo, TRACE_LAT_BUCKETS - REPORT_HEAT_MIN_BUCKETS);
	assert_float_equal(r[0].x0, 0, 1e-9);
	assert_float_equal(r[0].y0, box.top, 1e-9);
	assert_float_equal(r[0].shade, 1, 1e-9);
	free(r);
	report_heat_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
