/* test_history_capacity.c - how many samples the history keeps: chosen from the span
 * and the interval within a memory bound, changed when the interval changes (the
 * newest samples and every mark kept), and a history numbered from a replay's sample. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "history.h"

/* one device writing n MB/s at sample n: the figure says which sample it was */
static void append_n(struct history *h, uint64_t n)
{
	struct device_rates d;
	struct rates r;
	memset(&d, 0, sizeof d);
	memset(&r, 0, sizeof r);
	snprintf(d.name, sizeof d.name, "loop0");
	d.valid = true;
	d.wkB_s = (double)n * 1024;
	r.devices = &d;
	r.ndevices = 1;
	r.interval = 1.0;
	r.wall.tv_sec = (time_t)(1000000 + n);
	assert_int_equal(history_append(h, &r), 0);
}

static float figure(const struct history *h, uint64_t n)
{
	return history_value(h, (size_t)history_device_find(h, "loop0"), HM_WRITE_MBS, n);
}

static void test_capacity_for_a_span(void **state)
{
	(void)state;
	/* a day at 1 s is a day of samples; at 10 s the floor of 3600 samples */
	assert_int_equal(history_capacity_for(86400, 1), 86400);
	assert_int_equal(history_capacity_for(3600, 10), HISTORY_MIN_CAPACITY);
	assert_int_equal(history_capacity_for(86400, 10), 8640);
	/* a day at 10 ms would be 8.6 million samples: the memory bound decides */
	size_t c = history_capacity_for(86400, 0.01);
	assert_true(c >= HISTORY_MIN_CAPACITY && c < 8640000);
	size_t per_sample = 4 * sizeof(double) + HISTORY_BUSY_DEVICES * HM_COUNT * sizeof(float);
	assert_true((double)c * (double)per_sample <= 1.25 * HISTORY_BUDGET_BYTES);
	assert_true((double)c * (double)per_sample >= 0.5 * HISTORY_BUDGET_BYTES);
	assert_int_equal(history_capacity_for(86400 * 30, 0.01), c);
}

/* A full ring wraps in place: the rings grow by doubling up to the capacity, then are
 * never reallocated again, however many samples follow. */
static void test_full_ring_is_not_reallocated(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	for (uint64_t n = 0; n < HISTORY_MIN_CAPACITY; n++)
		append_n(h, n);
	uint64_t grows = history_grows(h);
	assert_true(grows > 0 && grows <= 8);
	for (uint64_t n = HISTORY_MIN_CAPACITY; n < 3 * HISTORY_MIN_CAPACITY; n++)
		append_n(h, n);
	assert_int_equal(history_grows(h), grows);
	assert_float_equal(figure(h, 3 * HISTORY_MIN_CAPACITY - 1), 3 * HISTORY_MIN_CAPACITY - 1, 1e-3);
	history_free(h);
}

/* The interval shortened then lengthened: the history follows, keeping what fits. */
static void test_resize_keeps_the_newest(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	struct event ev;
	event_init(&ev);
	ev.kind = EVENT_USER_MARK;
	event_set_new_value(&ev, "start");
	for (uint64_t n = 0; n < 5000; n++) {
		append_n(h, n);
		if (n == 10)
			assert_int_equal(history_add_event(h, &ev), 0);
	}
	event_free(&ev);
	assert_int_equal(history_oldest(h), 5000 - 3600);
	/* longer: nothing comes back, and the ring has room for more */
	assert_int_equal(history_resize(h, 7200), 0);
	assert_int_equal(history_capacity(h), 7200);
	assert_int_equal(history_oldest(h), 1400);
	assert_int_equal(history_count(h), 5000);
	assert_float_equal(figure(h, 1400), 1400, 1e-3);
	assert_float_equal(figure(h, 4999), 4999, 1e-3);
	assert_true(isnan(figure(h, 1399)));
	for (uint64_t n = 5000; n < 9000; n++)
		append_n(h, n);
	assert_int_equal(history_oldest(h), 9000 - 7200);
	for (uint64_t n = 1800; n < 9000; n += 37)
		assert_float_equal(figure(h, n), (float)n, 1e-3);
	/* shorter: the newest that fit */
	assert_int_equal(history_resize(h, 4000), 0);
	assert_int_equal(history_oldest(h), 5000);
	assert_float_equal(figure(h, 5000), 5000, 1e-3);
	assert_float_equal(figure(h, 8999), 8999, 1e-3);
	for (uint64_t n = 9000; n < 13500; n++)
		append_n(h, n);
	assert_int_equal(history_oldest(h), 13500 - 4000);
	for (uint64_t n = 9500; n < 13500; n += 41)
		assert_float_equal(figure(h, n), (float)n, 1e-3);
	/* the mark of sample 10 is still listed, long after its sample left */
	assert_int_equal(history_mark_count(h), 1);
	assert_int_equal(history_mark_get(h, 0)->n, 10);
	assert_int_equal(history_mark_number(h, 0), 1);
	history_free(h);
}

/* A replay seeked to sample 500: the history numbers its samples as the log does, and
 * takes the log's earlier marks at their own samples. */
static void test_start_at(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	history_start_at(h, 500);
	assert_int_equal(history_count(h), 500);
	struct event ev;
	event_init(&ev);
	ev.kind = EVENT_USER_MARK;
	event_set_new_value(&ev, "early");
	assert_int_equal(history_add_event_at(h, &ev, 20), 0);
	assert_int_equal(history_add_event(h, &ev), 0);   /* before any sample: the first to come */
	event_free(&ev);
	for (uint64_t n = 500; n < 4500; n++)
		append_n(h, n);
	assert_int_equal(history_oldest(h), 4500 - 3600);
	assert_false(history_has(h, 899));
	assert_float_equal(figure(h, 900), 900, 1e-3);
	assert_float_equal(figure(h, 4499), 4499, 1e-3);
	assert_int_equal(history_mark_count(h), 2);
	assert_int_equal(history_mark_get(h, 0)->n, 20);
	assert_int_equal(history_mark_get(h, 1)->n, 500);
	history_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capacity_for_a_span),
		cmocka_unit_test(test_full_ring_is_not_reallocated),
		cmocka_unit_test(test_resize_keeps_the_newest),
		cmocka_unit_test(test_start_at),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
