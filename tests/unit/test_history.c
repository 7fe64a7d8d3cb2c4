/* test_history.c - the console's history ring: capacity, wrap, lazy device rings,
 * missing figures, events. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "history.h"

/* rates with n devices named dev0.., each writing w MB/s (0 = idle) */
static void make_rates(struct rates *r, struct device_rates *d, size_t n, const double *w, double t)
{
	memset(r, 0, sizeof *r);
	memset(d, 0, n * sizeof *d);
	for (size_t i = 0; i < n; i++) {
		snprintf(d[i].name, sizeof d[i].name, "dev%zu", i);
		d[i].valid = true;
		d[i].have_flush = d[i].have_discard = true;
		d[i].wkB_s = w[i] * 1024;
		d[i].w_s = w[i] * 10;
		d[i].util = w[i] > 0 ? 50 : 0;
	}
	r->devices = d;
	r->ndevices = n;
	r->interval = 1.0;
	r->wall.tv_sec = (time_t)t;
	r->vm.valid = true;
	r->vm.dirty = 2048;
	r->vm.bo = 100;
}

static void test_capacity_clamped(void **state)
{
	(void)state;
	struct history *h = history_new(10);
	assert_int_equal(history_capacity(h), HISTORY_MIN_CAPACITY);
	history_free(h);
	assert_int_equal(history_capacity_for(3600, 1), 3600);
	assert_int_equal(history_capacity_for(7200, 1), 7200);
	assert_int_equal(history_capacity_for(3600, 0.1), 36000);
	assert_int_equal(history_capacity_for(60, 1), HISTORY_MIN_CAPACITY);
	/* a month at 10 ms: what the memory bound allows, not HISTORY_MAX_CAPACITY */
	assert_true(history_capacity_for(1e9, 0.01) < HISTORY_MAX_CAPACITY);
}

static void test_values_and_missing(void **state)
{
	(void)state;
	struct history *h = history_new(3600);
	struct rates r;
	struct device_rates d[2];
	double w[2] = { 5, 0 };
	make_rates(&r, d, 2, w, 1000);
	assert_int_equal(history_append(h, &r), 0);
	assert_int_equal(history_count(h), 1);
	int d0 = history_device_find(h, "dev0"), d1 = history_device_find(h, "dev1");
	assert_true(d0 >= 0 && d1 >= 0);
	assert_float_equal(history_value(h, (size_t)d0, HM_WRITE_MBS, 0), 5.0, 1e-6);
	assert_float_equal(history_value(h, (size_t)d0, HM_WRITE_IOPS, 0), 50.0, 1e-6);
	/* an idle device reads as 0 where it was present, without a ring of its own */
	assert_float_equal(history_value(h, (size_t)d1, HM_WRITE_MBS, 0), 0.0, 1e-6);
	assert_true(isnan(history_value(h, (size_t)d0, HM_WRITE_MBS, 1)));   /* not yet sampled */
	assert_float_equal(history_sys_value(h, HSM_DIRTY_MB, 0), 2.0, 1e-6);
	assert_true(isnan(history_sys_value(h, HSM_PSI_SOME, 0)));         /* no PSI: missing */

	/* dev1 wakes up: its earlier samples read 0, not missing */
	w[1] = 3;
	make_rates(&r, d, 2, w, 1001);
	assert_int_equal(history_append(h, &r), 0);
	assert_float_equal(history_value(h, (size_t)d1, HM_WRITE_MBS, 0), 0.0, 1e-6);
	assert_float_equal(history_value(h, (size_t)d1, HM_WRITE_MBS, 1), 3.0, 1e-6);

	/* an interval with no rate for dev0 is a gap; in-flight is still a gauge */
	make_rates(&r, d, 2, w, 1002);
	d[0].valid = false;
	d[0].in_flight = 7;
	assert_int_equal(history_append(h, &r), 0);
	assert_true(isnan(history_value(h, (size_t)d0, HM_WRITE_MBS, 2)));
	assert_float_equal(history_value(h, (size_t)d0, HM_IN_FLIGHT, 2), 7.0, 1e-6);

	/* dev0 vanishes: missing while absent */
	make_rates(&r, d, 2, w, 1003);
	r.devices = &d[1];
	r.ndevices = 1;
	assert_int_equal(history_append(h, &r), 0);
	assert_true(isnan(history_value(h, (size_t)d0, HM_WRITE_MBS, 3)));
	assert_float_equal(history_value(h, (size_t)d1, HM_WRITE_MBS, 3), 3.0, 1e-6);
	/* mono time is the sum of measured intervals */
	assert_float_equal(history_mono(h, 3), 4.0, 1e-9);
	history_free(h);
}

static void test_wraps_after_capacity(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	struct rates r;
	struct device_rates d[1];
	size_t total = HISTORY_MIN_CAPACITY * 2 + 17;
	for (size_t i = 0; i < total; i++) {
		double w[1] = { (double)(i % 1000) + 1 };
		make_rates(&r, d, 1, w, 1000 + (double)i);
		assert_int_equal(history_append(h, &r), 0);
	}
	assert_int_equal(history_count(h), total);
	assert_int_equal(history_oldest(h), total - HISTORY_MIN_CAPACITY);
	assert_false(history_has(h, total - HISTORY_MIN_CAPACITY - 1));
	assert_true(history_has(h, total - 1));
	for (uint64_t n = history_oldest(h); n < total; n += 97)
		assert_float_equal(history_value(h, 0, HM_WRITE_MBS, n), (double)(n % 1000) + 1, 1e-3);
	assert_float_equal(history_value(h, 0, HM_WRITE_MBS, total - 2), (double)((total - 2) % 1000) + 1, 1e-3);
	assert_true(isnan(history_value(h, 0, HM_WRITE_MBS, total)));   /* not yet taken */
	/* memory: one device ring of floats plus the slots, nothing per screen column */
	assert_true(history_memory(h) < HISTORY_MIN_CAPACITY * (HM_COUNT * 4 + 96) + 4096);
	history_free(h);
}

static void test_idle_devices_cost_no_ring(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	struct rates r;
	struct device_rates d[50];
	double w[50] = { 0 };
	w[3] = 1;
	for (int i = 0; i < 100; i++) {
		make_rates(&r, d, 50, w, 1000 + i);
		assert_int_equal(history_append(h, &r), 0);
	}
	struct history *one = history_new(HISTORY_MIN_CAPACITY);
	for (int i = 0; i < 100; i++) {
		make_rates(&r, d, 4, w, 1000 + i);
		assert_int_equal(history_append(one, &r), 0);
	}
	/* 46 more idle devices cost their names, not rings */
	assert_true(history_memory(h) - history_memory(one) < 46 * 200);
	history_free(h);
	history_free(one);
}

static void test_events_kept(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	struct rates r;
	struct device_rates d[1];
	double w[1] = { 1 };
	struct event ev;
	event_init(&ev);
	ev.kind = EVENT_SCHEDULER;
	event_set_object(&ev, "loop0");
	snprintf(ev.key, sizeof ev.key, "scheduler");
	event_set_old_value(&ev, "mq-deadline");
	event_set_new_value(&ev, "bfq");
	snprintf(ev.by, sizeof ev.by, "observed");
	assert_int_equal(history_add_event(h, &ev), 0);   /* before any sample: at 0 */
	make_rates(&r, d, 1, w, 1000);
	history_append(h, &r);
	make_rates(&r, d, 1, w, 1001);
	history_append(h, &r);
	event_add_reset(&ev, "nr_requests", "256", "64");   /* the marks panel says it */
	assert_int_equal(history_add_event(h, &ev), 0);
	assert_int_equal(history_mark_count(h), 2);
	assert_string_equal(history_mark_get(h, 0)->resets, "");
	const struct history_mark *m = history_mark_get(h, 1);
	assert_int_equal(m->n, 1);
	assert_string_equal(m->object, "loop0");
	assert_string_equal(m->old_value, "mq-deadline");
	assert_string_equal(m->new_value, "bfq");
	assert_string_equal(m->label, "sched mq-deadline→bfq");
	assert_string_equal(m->resets, "nr_requests 256→64");
	/* once its sample leaves the ring, the event stays listed (the marks panel of a
	 * day-long session), with its number */
	for (size_t i = 0; i < HISTORY_MIN_CAPACITY; i++) {
		make_rates(&r, d, 1, w, 1002 + (double)i);
		history_append(h, &r);
	}
	assert_true(history_oldest(h) > 1);
	assert_int_equal(history_mark_count(h), 2);
	assert_int_equal(history_mark_get(h, 0)->n, 0);
	assert_int_equal(history_mark_number(h, 1), 2);
	history_free(h);
	event_free(&ev);
}

/* Issue 41 item 5: a mark's number is its event's, the session's count as the log has it,
 * not its place among the marks held (a replay seeked, a view of some devices). */
static void test_mark_number_is_the_events(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	assert_non_null(h);
	struct event ev;
	event_init(&ev);
	ev.kind = EVENT_USER_MARK;
	event_set_object(&ev, "user");
	snprintf(ev.key, sizeof ev.key, "mark");
	ev.number = 267;
	assert_int_equal(history_add_event(h, &ev), 0);
	ev.number = 300;
	assert_int_equal(history_add_event(h, &ev), 0);
	assert_int_equal(history_mark_number(h, 0), 267);
	assert_int_equal(history_mark_number(h, 1), 300);
	assert_int_equal(history_mark_get(h, 1)->number, 300);
	history_free(h);
	event_free(&ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capacity_clamped),
		cmocka_unit_test(test_values_and_missing),
		cmocka_unit_test(test_wraps_after_capacity),
		cmocka_unit_test(test_idle_devices_cost_no_ring),
		cmocka_unit_test(test_events_kept),
		cmocka_unit_test(test_mark_number_is_the_events),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
