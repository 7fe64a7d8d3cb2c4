/* test_recorder.c - snapshot -> session log -> snapshot is exact; what goes in the file. */
#include "unit.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "rates.h"
#include "record_fixture.h"
#include "recorder.h"
#include "replay.h"
#include "session_log.h"

#define NSAMPLES 6

static void record_run(const char *path, bool sync)
{
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, sync, &err);
	assert_non_null(rec);
	struct snapshot prev, cur;
	struct event_list events;
	snapshot_init(&prev);
	snapshot_init(&cur);
	event_list_init(&events);
	struct event mark = { .kind = EVENT_USER_MARK };
	event_set_object(&mark, "user");
	snprintf(mark.key, sizeof mark.key, "mark");
	event_set_new_value(&mark, "before the first sample");
	assert_int_equal(recorder_write_event(rec, &mark, &err), 0);
	for (unsigned k = 1; k <= NSAMPLES; k++) {
		fixture_snapshot(&cur, k);
		event_list_clear(&events);
		if (k > 1)
			assert_true(events_diff(&events, &prev, &cur) >= 0);
		assert_int_equal(recorder_write(rec, &cur, &events, &err), 0);
		if (k == 5) {
			event_set_new_value(&mark, "after sample 5");
			mark.wall = cur.wall;
			assert_int_equal(recorder_write_event(rec, &mark, &err), 0);
		}
		snapshot_swap(&prev, &cur);
	}
	recorder_close(rec);
	snapshot_free(&prev);
	snapshot_free(&cur);
	event_list_free(&events);
	event_free(&mark);
}

static void test_round_trip_is_exact(void **state)
{
	(void)state;
	const char *path = temp_log("roundtrip");
	record_run(path, false);
	struct error err = { "" };
	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	assert_int_equal(replay_count(r), NSAMPLES);
	assert_int_equal(replay_warning_count(r), 0);
	struct snapshot want, got, prev_want, prev_got;
	snapshot_init(&want);
	snapshot_init(&got);
	snapshot_init(&prev_want);
	snapshot_init(&prev_got);
	struct rates rw, rg;
	rates_init(&rw);
	rates_init(&rg);
	/* Read backwards too: random access must not depend on the order. */
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t n = 0; n < NSAMPLES; n++) {
			size_t i = pass ? NSAMPLES - 1 - n : n;
			fixture_snapshot(&want, (unsigned)i + 1);
			assert_int_equal(replay_read(r, i, &got, &err), 0);
			assert_true(snapshots_identical(&want, &got));
		}
	for (size_t i = 0; i < NSAMPLES; i++) {
		fixture_snapshot(&want, (unsigned)i + 1);
		assert_int_equal(replay_read(r, i, &got, &err), 0);
		if (i > 0) {
			assert_int_equal(rates_compute(&rw, &prev_want, &want), 0);
			assert_int_equal(rates_compute(&rg, &prev_got, &got), 0);
			assert_int_equal(rw.ndevices, rg.ndevices);
			assert_memory_equal(&rw.vm, &rg.vm, sizeof rw.vm);
			assert_memory_equal(rw.devices, rg.devices, rw.ndevices * sizeof *rw.devices);
		}
		snapshot_swap(&prev_want, &want);
		snapshot_swap(&prev_got, &got);
	}
	struct timespec wall = replay_sample_wall(r, 3);
	assert_int_equal(wall.tv_sec, 1732900004);
	assert_int_equal(wall.tv_nsec, 987654321 - 4);
	rates_free(&rw);
	rates_free(&rg);
	snapshot_free(&want);
	snapshot_free(&got);
	snapshot_free(&prev_want);
	snapshot_free(&prev_got);
	replay_close(r);
	unlink(path);
}

static void test_events_keep_their_sample(void **state)
{
	(void)state;
	const char *path = temp_log("events");
	record_run(path, true);
	struct error err = { "" };
	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	size_t n = replay_event_count(r);
	static struct replay_event ev[6];
	for (size_t i = 0; i < n && i < 6; i++)
		assert_int_equal(replay_event_get(r, i, &ev[i]), 0);
	assert_int_equal(replay_event_get(r, n, &ev[0]), -1);
	assert_int_equal(replay_event_sample(r, 1), 2);
	/* early mark, sched (nr_requests its reset) at 3, mount_opts + sdz added at 4, mark
	 * after 5, loop7's counters passing 2^64 at 6 (counters_reset) */
	assert_int_equal(n, 6);
	assert_int_equal(ev[0].sample, 0);
	assert_int_equal(ev[0].event.kind, EVENT_USER_MARK);
	assert_false(ev[0].derivable);
	assert_string_equal(ev[0].event.new_value, "before the first sample");
	assert_int_equal(ev[1].sample, 2);
	assert_int_equal(ev[1].event.kind, EVENT_SCHEDULER);
	assert_string_equal(ev[1].event.old_value, "mq-deadline");
	assert_string_equal(ev[1].event.new_value, "bfq");
	assert_true(ev[1].derivable);
	/* the resets are read back: nr_requests, and iosched.fifo_batch unchanged */
	assert_int_equal(ev[1].event.nresets, 1);
	assert_string_equal(ev[1].event.resets[0].key, "nr_requests");
	assert_string_equal(ev[1].event.resets[0].old_value, "256");
	assert_string_equal(ev[1].event.resets[0].new_value, "64");
	assert_true(ev[1].event.resets[0].had_old && ev[1].event.resets[0].has_new);
	assert_int_equal(ev[n - 2].sample, 4);
	assert_string_equal(ev[n - 2].event.new_value, "after sample 5");
	assert_int_equal(ev[n - 1].sample, 5);
	assert_int_equal(ev[n - 1].event.kind, EVENT_COUNTERS_RESET);
	assert_string_equal(ev[n - 1].event.object, "loop7");
	assert_true(ev[n - 1].derivable);
	assert_int_equal(replay_event_after(r, 3), 2);
	assert_int_equal(replay_event_before(r, 3), 1);
	assert_int_equal(replay_event_before(r, 0), SIZE_MAX);
	assert_int_equal(replay_event_after(r, 5), n - 1);
	replay_close(r);
	unlink(path);
}

/* The source hands out only what events_diff cannot find again. */
static void test_source_takes_only_underivable_events(void **state)
{
	(void)state;
	const char *path = temp_log("source");
	record_run(path, false);
	struct error err = { "" };
	struct source *src = source_replay_new(path, &err);
	assert_non_null(src);
	assert_false(src->live);
	assert_false(src->paced);
	assert_int_equal(src->ops->wait_fd(src), -1);
	assert_true(src->interval > 0.99 && src->interval < 1.01);
	struct snapshot s;
	struct event_list events;
	snapshot_init(&s);
	event_list_init(&events);
	size_t marks = 0;
	unsigned k = 0;
	while (source_read(src, &s, &err) == 1) {
		k++;
		assert_int_equal(s.seq, k);
		event_list_clear(&events);
		int n = source_take_events(src, &events);
		for (int i = 0; i < n; i++)
			assert_int_equal(events.items[i].kind, EVENT_USER_MARK);
		if (n)
			assert_true(k == 1 || k == 5);
		marks += (size_t)n;
	}
	assert_int_equal(k, NSAMPLES);
	assert_int_equal(marks, 2);
	assert_true(source_can_seek(src));
	assert_int_equal(src->ops->seek(src, 2, &err), 0);
	assert_int_equal(source_read(src, &s, &err), 1);
	assert_int_equal(s.seq, 3);
	snapshot_free(&s);
	event_list_free(&events);
	source_destroy(src);
	unlink(path);
}

static size_t count_type(const char *path, const char *type)
{
	char needle[64], line[65536];
	snprintf(needle, sizeof needle, "{\"type\":\"%s\"", type);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = 0;
	while (fgets(line, sizeof line, f))
		n += strncmp(line, needle, strlen(needle)) == 0;
	fclose(f);
	return n;
}

/* Settings and mounts are written only when they change. */
static void test_state_written_on_change_only(void **state)
{
	(void)state;
	const char *path = temp_log("state");
	record_run(path, false);
	assert_int_equal(count_type(path, "header"), 1);
	assert_int_equal(count_type(path, "sample"), NSAMPLES);
	assert_int_equal(count_type(path, "devices"), 2);   /* bfq at 3, sdz at 4 */
	assert_int_equal(count_type(path, "mounts"), 1);    /* noatime at 4 */
	unlink(path);
}

static void test_write_error_is_reported(void **state)
{
	(void)state;
	struct error err = { "" };
	assert_null(recorder_open("/nonexistent-dir/x.log", RECORDER_NEW, false, &err));
	assert_non_null(strstr(err.msg, "/nonexistent-dir/x.log"));
	struct recorder *rec = recorder_open("/dev/full", RECORDER_NEW, false, &err);
	if (!rec)
		skip();
	struct snapshot s;
	snapshot_init(&s);
	fixture_snapshot(&s, 1);
	assert_int_equal(recorder_write(rec, &s, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "/dev/full"));
	snapshot_free(&s);
	recorder_close(rec);
}

/* A write that fails (here: RLIMIT_FSIZE, as a full disk would) is reported by
 * recorder_failure() until one succeeds; the events it carried are written then,
 * with their own time, and the reader places them there: the change seen with the
 * lost sample in the interval that spans the gap, the mark after the last sample
 * before it (not at the sample that got through again). */
static void test_failed_writes_keep_events(void **state)
{
	(void)state;
	const char *path = temp_log("failed");
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct snapshot prev, cur;
	struct event_list events;
	snapshot_init(&prev);
	snapshot_init(&cur);
	event_list_init(&events);
	for (unsigned k = 1; k <= 3; k++) {
		fixture_snapshot(&cur, k);
		assert_int_equal(recorder_write(rec, &cur, NULL, &err), 0);
		snapshot_swap(&prev, &cur);
	}
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	struct rlimit old, full = { (rlim_t)st.st_size, RLIM_INFINITY };
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	full.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &full), 0);
	fixture_snapshot(&cur, 4);   /* mount options and sdz added: observed at 4 */
	assert_true(events_diff(&events, &prev, &cur) >= 0);
	size_t observed = events.count;
	assert_true(observed > 0);
	assert_int_equal(recorder_write(rec, &cur, &events, &err), -1);
	assert_non_null(recorder_failure(rec));
	assert_non_null(strstr(recorder_failure(rec), path));
	struct event mark = { .kind = EVENT_USER_MARK, .mono = cur.mono, .wall = cur.wall };
	mark.mono.tv_nsec += 1000;
	event_set_object(&mark, "user");
	snprintf(mark.key, sizeof mark.key, "mark");
	event_set_new_value(&mark, "while full");
	assert_int_equal(recorder_write_event(rec, &mark, &err), -1);
	event_free(&mark);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	fixture_snapshot(&cur, 5);
	assert_int_equal(recorder_write(rec, &cur, NULL, &err), 0);
	assert_null(recorder_failure(rec));
	recorder_close(rec);

	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	assert_int_equal(replay_count(r), 4);   /* samples 1, 2, 3, 5 */
	size_t n = replay_event_count(r);
	assert_int_equal(n, observed + 1);
	static struct replay_event ev;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(replay_event_get(r, i, &ev), 0);
		bool is_mark = ev.event.kind == EVENT_USER_MARK;
		assert_int_equal(ev.sample, is_mark ? 2 : 3);
		if (i)
			assert_true(replay_event_sample(r, i - 1) <= ev.sample);
	}
	replay_close(r);
	snapshot_free(&prev);
	snapshot_free(&cur);
	event_list_free(&events);
	unlink(path);
}

/* One session of one sample recorded to path (a new file). */
static void record_one(const char *path, struct snapshot *s)
{
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	assert_int_equal(recorder_write(rec, s, NULL, &err), 0);
	recorder_close(rec);
}

/* --record never truncates; --record-append adds a session after a torn line. */
static void test_existing_file_refused_or_appended(void **state)
{
	(void)state;
	const char *path = temp_log("existing");
	struct snapshot s;
	snapshot_init(&s);
	fixture_snapshot(&s, 1);
	record_one(path, &s);
	FILE *f = fopen(path, "a");
	assert_non_null(f);
	fputs("{\"torn", f);
	fclose(f);
	struct error err = { "" };
	assert_null(recorder_open(path, RECORDER_NEW, false, &err));
	assert_non_null(strstr(err.msg, "exists"));
	struct recorder *rec = recorder_open(path, RECORDER_APPEND, false, &err);
	assert_non_null(rec);
	/* a second recorder on the same file is refused while the first holds it */
	assert_null(recorder_open(path, RECORDER_APPEND, false, &err));
	assert_non_null(strstr(err.msg, "another ioscope is recording to it"));
	assert_int_equal(recorder_write(rec, &s, NULL, &err), 0);
	recorder_close(rec);
	snapshot_free(&s);
	char buf[32] = "";
	f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0 && strcmp(line, "{\"torn\n") != 0)
		;
	assert_string_equal(line, "{\"torn\n");
	assert_non_null(fgets(buf, sizeof buf, f));
	assert_memory_equal(buf, "{\"type\":\"header\"", 16);
	free(line);
	fclose(f);
	unlink(path);
}

/* --record-append onto what no replay reads (a torn header, a text file) is refused, the
 * file untouched: the session would never be read back. */
static void test_append_refused_onto_what_is_not_a_log(void **state)
{
	(void)state;
	static const char *const contents[] = { "{\"type\":\"hea", "notes\nmore notes\n",
						"\x28\xb5\x2f\xfd compressed" };
	static const char *const reasons[] = { "the header is incomplete",
					       "not an ioscope session log", "zstd-compressed" };
	const char *path = temp_log("not-a-log");
	for (size_t i = 0; i < sizeof contents / sizeof contents[0]; i++) {
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(contents[i], f);
		fclose(f);
		struct error err = { "" };
		assert_null(recorder_open(path, RECORDER_APPEND, false, &err));
		assert_non_null(strstr(err.msg, reasons[i]));
		assert_non_null(strstr(err.msg, "could never be read back"));
		char buf[64] = "";
		f = fopen(path, "r");
		assert_non_null(f);
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		assert_int_equal(n, strlen(contents[i]));
		assert_string_equal(buf, contents[i]);
	}
	unlink(path);
}

/* A switch's resets go through the log and back: gone and new sides are null. */
static void test_resets_round_trip(void **state)
{
	(void)state;
	struct event ev = { .kind = EVENT_SCHEDULER };
	event_set_object(&ev, "loop0");
	snprintf(ev.key, sizeof ev.key, "scheduler");
	snprintf(ev.by, sizeof ev.by, "observed");
	event_add_reset(&ev, "iosched.fifo_batch", "16", NULL);
	event_add_reset(&ev, "iosched.slice_idle", NULL, "8");
	event_add_reset(&ev, "nr_requests", "64", "256");
	json_object *o = session_log_event(&ev, 7);
	assert_non_null(o);
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_non_null(strstr(text, "\"resets\":{\"iosched.fifo_batch\":[\"16\",null],"
				     "\"iosched.slice_idle\":[null,\"8\"],\"nr_requests\":[\"64\",\"256\"]}"));
	struct event back;
	struct error err;
	assert_int_equal(session_log_parse_event(o, &back, &err), 0);
	assert_int_equal(back.nresets, 3);
	assert_true(back.resets[0].had_old && !back.resets[0].has_new);
	assert_true(!back.resets[1].had_old && back.resets[1].has_new);
	assert_string_equal(back.resets[1].new_value, "8");
	assert_string_equal(back.resets[2].old_value, "64");
	json_object_put(o);
	event_free(&ev);
	event_free(&back);
	/* damaged resets are an error, an unknown kind a skip */
	json_object *bad = json_tokener_parse("{\"type\":\"event\",\"kind\":\"scheduler\","
					      "\"resets\":{\"nr_requests\":[\"64\"]}}");
	assert_int_equal(session_log_parse_event(bad, &back, &err), -1);
	event_free(&back);
	json_object_put(bad);
	json_object *later = json_tokener_parse("{\"type\":\"event\",\"kind\":\"spike\"}");
	assert_int_equal(session_log_parse_event(later, &back, &err), 1);
	assert_string_equal(err.msg, "spike");
	event_free(&back);
	json_object_put(later);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_is_exact),
		cmocka_unit_test(test_events_keep_their_sample),
		cmocka_unit_test(test_source_takes_only_underivable_events),
		cmocka_unit_test(test_state_written_on_change_only),
		cmocka_unit_test(test_write_error_is_reported),
		cmocka_unit_test(test_failed_writes_keep_events),
		cmocka_unit_test(test_existing_file_refused_or_appended),
		cmocka_unit_test(test_append_refused_onto_what_is_not_a_log),
		cmocka_unit_test(test_resets_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
