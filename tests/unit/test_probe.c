/* The probe's data: percentiles, copies, the session-log record written and read back
 * value for value, two records on consecutive lines, and the run events' labels. */
#include "unit.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "jsonw.h"
#include "probe.h"
#include "session_log.h"
#include "snapshot.h"

static void test_percentiles(void **state)
{
	(void)state;
	uint64_t v[] = { 50, 10, 40, 20, 30, 1000, 60, 70, 80, 90 };
	assert_int_equal(probe_percentile(v, 10, 50), 50);
	assert_int_equal(probe_percentile(v, 10, 99), 1000);
	assert_int_equal(probe_percentile(v, 10, 100), 1000);
	assert_int_equal(probe_percentile(v, 10, 0), 10);
	assert_int_equal(probe_percentile(v, 1, 50), 50);
	assert_int_equal(probe_percentile(v, 0, 50), 0);
	assert_int_equal(v[0], 50);   /* the caller's order is kept */
}

static void fill(struct probe_samples *p)
{
	for (uint64_t i = 0; i < 40; i++)
		assert_int_equal(probe_samples_add_read(p, i * 977 + 3), 0);
	assert_int_equal(probe_samples_add_exec(p, 30112), 0);
	p->errors = 2;
	p->stalled_us = 4100000;
	p->reading_us = 4100007;
}

static void test_copy_and_equal(void **state)
{
	(void)state;
	struct probe_samples a = { 0 }, b = { 0 };
	fill(&a);
	assert_int_equal(probe_samples_copy(&b, &a), 0);
	assert_true(probe_samples_equal(&a, &b));
	b.read_us[7]++;
	assert_false(probe_samples_equal(&a, &b));
	probe_samples_clear(&b);
	assert_int_equal(b.nread, 0);
	probe_samples_free(&a);
	probe_samples_free(&b);
}

static void test_snapshot_copy_keeps_probe(void **state)
{
	(void)state;
	struct snapshot s, t;
	snapshot_init(&s);
	snapshot_init(&t);
	s.probe = calloc(1, sizeof *s.probe);
	fill(s.probe);
	assert_int_equal(snapshot_copy(&t, &s), 0);
	assert_non_null(t.probe);
	assert_ptr_not_equal(t.probe, s.probe);
	assert_true(probe_samples_equal(t.probe, s.probe));
	snapshot_free(&s);
	snapshot_free(&t);
	assert_null(t.probe);
}

static void test_log_record_round_trip(void **state)
{
	(void)state;
	struct snapshot s;
	snapshot_init(&s);
	s.seq = 12;
	s.probe = calloc(1, sizeof *s.probe);
	fill(s.probe);
	struct jsonw w;
	jsonw_init(&w);
	/* two records in one buffer: each a line of its own, no comma between */
	assert_int_equal(session_log_format_probe(&s, &w), 0);
	size_t first = w.len;
	assert_int_equal(session_log_format_probe(&s, &w), 0);
	assert_memory_equal(w.buf, w.buf + first, first);
	assert_int_equal(w.buf[first - 1], '\n');
	json_object *o = json_tokener_parse(w.buf + first);
	assert_non_null(o);
	assert_int_equal(session_record_type(o), RECORD_PROBE);
	struct probe_samples back = { 0 };
	struct error err;
	assert_int_equal(session_log_parse_probe(o, &back, &err), 0);
	assert_true(probe_samples_equal(&back, s.probe));
	json_object_put(o);
	o = json_tokener_parse("{\"type\":\"probe\",\"seq\":1,\"read_us\":[1,-2]}");
	assert_int_equal(session_log_parse_probe(o, &back, &err), -1);
	json_object_put(o);
	probe_samples_free(&back);
	jsonw_free(&w);
	snapshot_free(&s);
}

static void test_run_events(void **state)
{
	(void)state;
	struct event ev = { .kind = EVENT_RUN };
	char label[256];
	snprintf(ev.by, sizeof ev.by, "ioscope");
	snprintf(ev.key, sizeof ev.key, "start");
	event_set_new_value(&ev, "tar xf linux.tar");
	event_label(&ev, label, sizeof label);
	assert_string_equal(label, "start tar xf linux.tar");
	assert_string_equal(event_kind_name(EVENT_RUN), "run");
	/* no diff ever sees a run again: nothing to drop an echo of */
	struct echo_filter f;
	echo_filter_init(&f);
	echo_filter_remember(&f, &ev);
	assert_int_equal(f.own.count, 0);
	echo_filter_free(&f);
	event_free(&ev);
}

/* A probe's interval widened while it runs (a matrix whose probe's own load is over 1 %)
 * holds from its next read: at 0.1 s it would take ~15 reads in 1.5 s, at 10 s at most the
 * one it was already waiting for.  (A load can only make it read less.) */
static void test_set_interval(void **state)
{
	(void)state;
	char dir[] = "/tmp/ioscope-probe.XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct error err = { "" };
	struct probe *p = probe_start(dir, 0.1, false, &err);
	assert_non_null(p);
	probe_set_interval(p, 10);
	struct timespec pause = { 1, 500000000 };
	nanosleep(&pause, NULL);
	struct probe_samples got = { 0 };
	assert_int_equal(probe_take(p, &got), 0);
	assert_true(got.nread <= 1);
	probe_samples_free(&got);
	probe_stop(p);
	assert_int_equal(rmdir(dir), 0);   /* the working set removed with the probe */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_copy_and_equal),
		cmocka_unit_test(test_snapshot_copy_keeps_probe),
		cmocka_unit_test(test_log_record_round_trip),
		cmocka_unit_test(test_run_events),
		cmocka_unit_test(test_set_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
