/* The block-layer view's figures from its histograms (trace.h), its ownership, and
 * the `trace` record written and read back (session_log.h). */
#include "unit.h"

#include <string.h>

#include "session_log.h"
#include "trace.h"

static void test_buckets(void **state)
{
	(void)state;
	assert_int_equal(trace_bucket_low(0), 0);
	assert_int_equal(trace_bucket_low(1), 2);
	assert_int_equal(trace_bucket_low(10), 1024);
}

static void test_quantiles(void **state)
{
	(void)state;
	uint64_t h[TRACE_LAT_BUCKETS] = { 0 };
	assert_true(trace_quantile(h, TRACE_LAT_BUCKETS, 0.5) < 0);   /* empty */
	h[6] = 99;      /* 99 requests in [64, 128) µs */
	h[20] = 1;      /* one in [1, 2) s */
	double p50 = trace_quantile(h, TRACE_LAT_BUCKETS, 0.50);
	assert_true(p50 >= 64 && p50 < 128);
	double p99 = trace_quantile(h, TRACE_LAT_BUCKETS, 0.99);
	assert_true(p99 >= 64 && p99 <= 128);
	double p999 = trace_quantile(h, TRACE_LAT_BUCKETS, 0.999);
	assert_true(p999 >= 1048576 && p999 < 2097152);
	/* max: the top of the highest non-empty bucket */
	assert_true(trace_quantile(h, TRACE_LAT_BUCKETS, 1) == 2097152.0);
	h[20] = 0;
	h[6] = 0;
	h[0] = 4;
	assert_true(trace_quantile(h, TRACE_LAT_BUCKETS, 0.5) >= 0 &&
		    trace_quantile(h, TRACE_LAT_BUCKETS, 0.5) < 2);
}

static void test_devices_sorted(void **state)
{
	(void)state;
	struct trace_sample t = { 0 };
	assert_non_null(trace_get(&t, 259, 0));
	assert_non_null(trace_get(&t, 7, 3));
	assert_non_null(trace_get(&t, 7, 1));
	trace_get(&t, 7, 3)->seeks = 5;
	assert_int_equal(t.ndevices, 3);
	assert_int_equal(t.devices[0].minor, 1);
	assert_int_equal(t.devices[1].minor, 3);
	assert_int_equal(t.devices[2].major, 259);
	assert_int_equal(trace_find(&t, 7, 3)->seeks, 5);
	assert_null(trace_find(&t, 8, 0));
	struct trace_sample *copy;
	assert_int_equal(trace_sample_dup(&copy, &t), 0);
	assert_int_equal(copy->ndevices, 3);
	assert_int_equal(trace_find(copy, 7, 3)->seeks, 5);
	trace_sample_free(copy);
	free(copy);
	trace_sample_free(&t);
}

static void test_seq_pct(void **state)
{
	(void)state;
	struct trace_device d = { .issued = 200, .sequential = 50, .seeks = 120 };
	assert_true(trace_seq_pct(&d) == 25.0);
	d.issued = 0;
	assert_true(trace_seq_pct(&d) < 0);
}

/* Written and read back, the snapshot's trace is the same, bucket for bucket. */
static void test_record_round_trip(void **state)
{
	(void)state;
	struct snapshot s;
	snapshot_init(&s);
	s.seq = 7;
	struct trace_sample *t = calloc(1, sizeof *t);
	assert_non_null(t);
	assert_non_null(trace_get(t, 8, 0));   /* nothing happened there: not written */
	struct trace_device *d = trace_get(t, 7, 0);
	d->d2c[TRACE_READ][0] = 3;
	d->d2c[TRACE_WRITE][31] = UINT64_MAX;
	d->q2c[TRACE_FLUSH][12] = 9;
	d->size[TRACE_WRITE][23] = 1;
	d->issued = 10, d->seeks = 4, d->sequential = 5;
	d->ntop = 1;
	d->top[0] = (struct trace_top){ .pid = 42, .comm = "kworker/u4:1", .ios = 8, .bytes = 32768 };
	struct trace_device want = *d;
	snapshot_set_trace(&s, t);

	struct jsonw w;
	jsonw_init(&w);
	assert_int_equal(session_log_format_trace(&s, &w), 0);
	json_object *o = json_tokener_parse(w.buf);
	assert_non_null(o);
	assert_int_equal(session_record_type(o), RECORD_TRACE);
	struct snapshot back;
	snapshot_init(&back);
	struct error err;
	assert_int_equal(session_log_parse_trace(o, &back, &err), 0);
	assert_non_null(back.trace);
	assert_int_equal(back.trace->ndevices, 1);
	assert_memory_equal(&back.trace->devices[0], &want, sizeof want);
	json_object_put(o);
	jsonw_free(&w);
	snapshot_free(&back);
	snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_devices_sorted),
		cmocka_unit_test(test_seq_pct),
		cmocka_unit_test(test_record_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
