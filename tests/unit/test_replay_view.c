/* test_replay_view.c - the console's replay view without a terminal: speed cycling,
 * the clock and position texts, the window a seek re-reads, and a seek on a real
 * session log rebuilding the same history as playing there; steps and mark jumps; the record
 * key's default name; "+0" seeks to the first sample exactly. */
#include "unit.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "console_state.h"
#include "record_fixture.h"
#include "recorder.h"
#include "replay.h"
#include "replay_view.h"
#include "report.h"

static void test_speed_cycle(void **state)
{
	(void)state;
	assert_int_equal(replay_speed_step(1, 1), 10);
	assert_int_equal(replay_speed_step(10, 1), 100);
	assert_int_equal(replay_speed_step(100, 1), 1);
	assert_int_equal(replay_speed_step(1, -1), 100);
	assert_int_equal(replay_speed_step(100, -1), 10);
	assert_int_equal(replay_speed_step(0, 1), 10);   /* a zeroed console plays at x1 */
	assert_float_equal(replay_timer_period(1, 10), 0.1, 1e-12);
	assert_float_equal(replay_timer_period(0.25, 0), 0.25, 1e-12);
	assert_float_equal(replay_timer_period(0.01, 100), 0.001, 1e-12);   /* the floor */
}

static void test_position_text(void **state)
{
	(void)state;
	char buf[128];
	replay_format_clock(0, buf, sizeof buf);
	assert_string_equal(buf, "0:00");
	replay_format_clock(65.9, buf, sizeof buf);
	assert_string_equal(buf, "1:05");
	replay_format_clock(3723, buf, sizeof buf);
	assert_string_equal(buf, "1:02:03");
	replay_format_clock(NAN, buf, sizeof buf);
	assert_string_equal(buf, "0:00");
	replay_format_position(buf, sizeof buf, 13, 120, 12.4, 119, 10, "PAUSED");
	assert_string_equal(buf, "REPLAY 13/120 0:12/1:59 x10 PAUSED");
	replay_format_position(buf, sizeof buf, 120, 120, 119, 119, 0, NULL);
	assert_string_equal(buf, "REPLAY 120/120 1:59/1:59 x1");
}

static void test_window_start(void **state)
{
	(void)state;
	assert_int_equal(replay_window_start(0, 161), 0);
	assert_int_equal(replay_window_start(160, 161), 0);
	assert_int_equal(replay_window_start(161, 161), 0);
	assert_int_equal(replay_window_start(250, 161), 89);
}

static void test_default_record_name(void **state)
{
	(void)state;
	char buf[64];
	struct timespec t = { 1732900000, 0 };
	record_default_name(&t, buf, sizeof buf);
	assert_int_equal(strlen(buf), strlen("ioscope-20241129-171000.log"));
	assert_true(strncmp(buf, "ioscope-20241129-", 17) == 0 ||   /* whatever the time zone */
		    strncmp(buf, "ioscope-20241130-", 17) == 0);
	assert_string_equal(buf + strlen(buf) - 4, ".log");
}

/* "+0" is the first sample itself, not the next one (no double round trip). */
static void test_offset_zero_is_the_start(void **state)
{
	(void)state;
	struct timespec start = { 1795983329, 679972417 }, out;
	struct error err;
	assert_int_equal(report_parse_time("+0", &start, &out, &err), 0);
	assert_int_equal(out.tv_sec, start.tv_sec);
	assert_int_equal(out.tv_nsec, start.tv_nsec);
	assert_int_equal(report_parse_time("+1.5", &start, &out, &err), 0);
	assert_int_equal(out.tv_sec, start.tv_sec + 2);
	assert_int_equal(out.tv_nsec, 179972417);
}

#define NSAMPLES 300
#define MARK_AT 200   /* 0-based sample the user mark belongs to */

static const char *session_log(void)
{
	const char *path = temp_log("replay-view");
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct snapshot s;
	struct event_list evs;
	snapshot_init(&s);
	event_list_init(&evs);
	for (unsigned k = 1; k <= NSAMPLES; k++) {
		fixture_snapshot(&s, k);
		/* growing counters, so that every interval has rates */
		s.devices[0].counters.wr_sectors = 16000ull * k * k;
		event_list_clear(&evs);
		if (k == MARK_AT + 1) {
			struct event *e = event_list_add(&evs);
			e->kind = EVENT_USER_MARK;
			e->wall = s.wall;
			e->mono = s.mono;
			event_set_object(e, "user");
			snprintf(e->key, sizeof e->key, "mark");
			event_set_new_value(e, "started rm -rf");
			snprintf(e->by, sizeof e->by, "ioscope");
		}
		assert_int_equal(recorder_write(rec, &s, &evs, &err), 0);
	}
	snapshot_free(&s);
	event_list_free(&evs);
	recorder_close(rec);
	static char copy[256];
	snprintf(copy, sizeof copy, "%s", path);
	return copy;
}

static struct console *console_on(const char *path, struct options *opts)
{
	struct error err = { "" };
	struct console *c = calloc(1, sizeof *c);   /* every _init of its parts is a memset */
	assert_non_null(c);
	memset(opts, 0, sizeof *opts);
	c->opts = opts;
	c->src = source_replay_new(path, &err);
	assert_non_null(c->src);
	c->session = session_open(c->src, &(struct session_opts){ HISTORY_MIN_CAPACITY }, &err);
	assert_non_null(c->session);
	c->interval = c->src->interval;
	c->glyphs = GLYPHS_BRAILLE;
	c->running = true;
	return c;
}

static void console_gone(struct console *c)
{
	console_samples_free(c);
	source_destroy(c->src);
	free(c);
}

static size_t tell(struct source *src)
{
	struct source_position p;
	src->ops->position(src, &p);
	return p.next;
}

static size_t count_of(struct source *src)
{
	struct source_position p;
	src->ops->position(src, &p);
	return p.count;
}

static bool has_mark(const struct history *h, const char *text)
{
	for (size_t i = 0; i < history_mark_count(h); i++)
		if (strstr(history_mark_get(h, i)->label, text))
			return true;
	return false;
}

/* Seeking to a sample shows what playing up to it showed: same newest figures, the
 * same marks in the window, the replay standing after the target. */
static void test_seek_rebuilds_what_playing_showed(void **state)
{
	(void)state;
	const char *path = session_log();
	struct options o1, o2;
	struct console *played = console_on(path, &o1), *seeked = console_on(path, &o2);
	struct source *r = seeked->src;
	assert_int_equal(count_of(r), NSAMPLES);
	for (size_t i = 0; i <= 250; i++)
		assert_int_equal(console_take_sample(played), 1);

	assert_int_equal(replay_view_seek(seeked, 250), 0);
	assert_int_equal(tell(r), 251);
	/* COLS is 0 without a terminal: an 80-column window of braille, 161 samples */
	size_t first = replay_window_start(250, 80 * 2 + 1);
	/* the window's samples, numbered as the log's (the newest is 250) */
	const struct history *hs = console_hist(seeked);
	assert_int_equal(history_count(hs) - history_oldest(hs), 250 - first + 1);
	assert_int_equal(history_count(hs), 251);
	assert_true(console_have_rates(seeked));
	int dp = history_device_find(console_hist(played), "vda");
	int ds = history_device_find(console_hist(seeked), "vda");
	assert_true(dp >= 0 && ds >= 0);
	uint64_t np = history_count(console_hist(played)) - 1, ns = history_count(console_hist(seeked)) - 1;
	for (uint64_t back = 0; back <= 250 - first; back++)
		assert_float_equal(history_value(console_hist(seeked), (size_t)ds, HM_WRITE_MBS, ns - back),
				   history_value(console_hist(played), (size_t)dp, HM_WRITE_MBS, np - back),
				   1e-3);
	assert_true(has_mark(console_hist(seeked), "started rm -rf"));

	/* back to the start: the scheduler switch at sample 2 is found again by the diff */
	assert_int_equal(replay_view_seek(seeked, 2), 0);
	assert_int_equal(tell(r), 3);
	assert_int_equal(history_count(console_hist(seeked)), 2);
	assert_true(has_mark(console_hist(seeked), "mq-deadline"));
	assert_false(has_mark(console_hist(seeked), "started rm -rf"));

	/* past the end: the last sample */
	assert_int_equal(replay_view_seek(seeked, NSAMPLES + 5), 0);
	assert_int_equal(tell(r), NSAMPLES);
	console_gone(played);
	console_gone(seeked);
	unlink(path);
}

/* Left past the oldest sample held reads the log again further back, a step at a
 * time, down to the first sample; the marks listed are those up to the position. */
static void test_scroll_back_reads_the_log_again(void **state)
{
	(void)state;
	const char *path = session_log();
	struct options o;
	struct console *c = console_on(path, &o);
	struct source *r = c->src;
	assert_int_equal(replay_view_seek(c, NSAMPLES - 1), 0);
	assert_true(has_mark(console_hist(c), "started rm -rf"));
	/* the right edge 40 samples back each time, the window 161 samples wide */
	size_t expect[] = { 259, 219, 179, 139 };
	for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
		assert_true(replay_view_scroll_back(c, 40, 100));
		assert_int_equal(tell(r) - 1, expect[i]);
		assert_true(c->replay.paused);
		assert_non_null(strstr(c->status.text, "read back from the log"));
		assert_true(has_mark(console_hist(c), "started rm -rf") == (expect[i] >= MARK_AT));
	}
	/* 139 - 161 < 0: the history holds the log from its first sample with figures */
	assert_true(replay_view_scroll_back(c, 40, 100));
	assert_int_equal(tell(r) - 1, 139);
	assert_non_null(strstr(c->status.text, "the first sample of the log"));
	console_gone(c);
	unlink(path);
}

static void test_step_and_mark_jumps(void **state)
{
	(void)state;
	const char *path = session_log();
	struct options o;
	struct console *c = console_on(path, &o);
	struct source *r = c->src;
	assert_int_equal(console_take_sample(c), 1);   /* sample 0 on screen, as at start */

	/* only what the log holds is a mark to jump to: this log has just the user mark */
	action_replay_next_mark(c);
	assert_true(c->replay.paused);
	assert_int_equal(tell(r) - 1, MARK_AT);
	assert_non_null(strstr(c->status.text, "started rm -rf"));
	assert_true(has_mark(console_hist(c), "started rm -rf"));
	action_replay_next_mark(c);
	assert_int_equal(tell(r) - 1, MARK_AT);
	assert_non_null(strstr(c->status.text, "no mark after"));
	action_replay_prev_mark(c);
	assert_int_equal(tell(r) - 1, MARK_AT);
	assert_non_null(strstr(c->status.text, "no mark before"));
	action_replay_step_forward(c);
	action_replay_step_forward(c);
	action_replay_prev_mark(c);
	assert_int_equal(tell(r) - 1, MARK_AT);
	assert_non_null(strstr(c->status.text, "mark 1/1"));
	replay_view_seek(c, 3);

	action_replay_step_forward(c);
	assert_int_equal(tell(r) - 1, 4);
	action_replay_step_back(c);
	action_replay_step_back(c);
	assert_int_equal(tell(r) - 1, 2);
	assert_true(c->replay.paused);
	assert_true(replay_view_paused(c));
	action_replay_play(c);
	assert_false(replay_view_paused(c));
	console_gone(c);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed_cycle),
		cmocka_unit_test(test_position_text),
		cmocka_unit_test(test_window_start),
		cmocka_unit_test(test_default_record_name),
		cmocka_unit_test(test_offset_zero_is_the_start),
		cmocka_unit_test(test_seek_rebuilds_what_playing_showed),
		cmocka_unit_test(test_scroll_back_reads_the_log_again),
		cmocka_unit_test(test_step_and_mark_jumps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
