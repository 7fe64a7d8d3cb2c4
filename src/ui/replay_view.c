/* replay_view.c - moving about a replayed session in the console: play/pause, step
 * one sample, jump to the previous/next mark, seek to a time, speed x1/x10/x100.
 *
 * The console reads a replay like any source, one sample per tick of its own clock;
 * this file only decides whether the tick reads (paused or not), how fast the clock
 * ticks, and where the replay stands.  A jump backwards (or further than one step)
 * rebuilds the history from the samples before the target, read through the same
 * path as live samples, so the graphs, rates and marks are what they were live at
 * that moment.  Every jump pauses: the operator jumped there to look.
 */
#include <ncurses.h>
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "replay.h"
#include "replay_view.h"
#include "report.h"

static struct replay *replay_of(const struct console *c)
{
	return c->src->live ? NULL : source_replay_get(c->src);
}

bool replay_view_paused(const struct console *c)
{
	return c->replay.paused;
}

double replay_view_timer_period(const struct console *c, double interval)
{
	return replay_timer_period(interval, c->replay.speed);
}

/* The sample on screen, 0-based (the source has read it and stands after it). */
static size_t shown_sample(const struct console *c, const struct replay *r)
{
	size_t tell = replay_tell(r);
	return tell ? tell - 1 : 0;
}

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return timespec_seconds(b) - timespec_seconds(a);
}

void replay_view_position(const struct console *c, char *buf, size_t len)
{
	struct replay *r = replay_of(c);
	if (!r) {
		buf[0] = '\0';
		return;
	}
	size_t n = replay_count(r), at = shown_sample(c, r);
	double offset = 0, total = 0;
	if (n) {
		struct timespec t0 = replay_sample_mono(r, 0), ta = replay_sample_mono(r, at),
				tn = replay_sample_mono(r, n - 1);
		offset = seconds_between(&t0, &ta);
		total = seconds_between(&t0, &tn);
	}
	const char *state = c->source_ended ? NULL : c->replay.paused ? "PAUSED" : "PLAYING";
	replay_format_position(buf, len, n ? at + 1 : 0, n, offset, total, c->replay.speed, state);
}

/* Enough samples to fill the widest graph the terminal can show. */
static size_t graph_window(const struct console *c)
{
	int cols = COLS > c->layout.graphs.w ? COLS : c->layout.graphs.w;
	size_t spc = (size_t)graph_samples_per_cell(c->glyphs);
	return (size_t)(cols > 0 ? cols : CONSOLE_MIN_COLS) * spc + 1;
}

static void fatal(struct console *c)
{
	c->have_fatal = true;
	c->exit_status = 1;
	c->running = false;
}

/* The console as it was before its first sample, the view settings kept. */
static int forget_samples(struct console *c)
{
	struct history *h = history_new(history_capacity(c->hist));
	if (!h) {
		console_message(c, true, "out of memory: cannot seek");
		return -1;
	}
	history_free(c->hist);
	c->hist = h;
	console_freeze(c, false);
	c->scroll_back = 0;
	c->have_snap = false;
	c->have_rates = false;
	c->source_ended = false;
	event_list_clear(&c->events);
	echo_filter_clear(&c->echoes);   /* ioscope's changes belong to the samples forgotten */
	return 0;
}

int replay_view_seek(struct console *c, size_t target)
{
	struct replay *r = replay_of(c);
	size_t n = r ? replay_count(r) : 0;
	if (!n)
		return 0;
	if (target >= n)
		target = n - 1;
	if (forget_samples(c) < 0)
		return 0;
	size_t first = replay_window_start(target, graph_window(c));
	struct error err;
	/* The sample before the window gives the first one its rates and its events. */
	if (first > 0) {
		replay_seek(r, first - 1);
		if (source_read(c->src, &c->snap, &err) == 1)
			c->have_snap = true;
	} else {
		replay_seek(r, 0);
	}
	while (replay_tell(r) <= target) {
		int got = console_take_sample(c);
		if (got < 0) {
			fatal(c);
			return -1;
		}
		if (got == 0)
			break;
	}
	c->need_redraw = true;
	return 0;
}

void action_replay_play(struct console *c)
{
	if (!c->replay.paused) {
		c->replay.paused = true;
		console_message(c, false, "paused (P plays, [ ] step)");
		return;
	}
	if (c->source_ended) {
		console_message(c, true, "at the end of the data: [, { or G go back");
		return;
	}
	c->replay.paused = false;
	console_message(c, false, "playing at x%u", c->replay.speed ? c->replay.speed : 1);
}

void action_replay_step_back(struct console *c)
{
	struct replay *r = replay_of(c);
	c->replay.paused = true;
	size_t at = shown_sample(c, r);
	if (at == 0) {
		console_message(c, true, "at the first sample");
		return;
	}
	replay_view_seek(c, at - 1);
}

void action_replay_step_forward(struct console *c)
{
	c->replay.paused = true;
	if (c->source_ended) {
		console_message(c, true, "at the last sample");
		return;
	}
	console_freeze(c, false);
	c->scroll_back = 0;
	if (console_take_sample(c) < 0)
		fatal(c);
}

static void announce_mark(struct console *c, size_t index, size_t count,
			  const struct replay_event *e)
{
	char label[256], when[32];
	event_label(&e->event, label, sizeof label);
	report_local_time(&e->event.wall, false, when, sizeof when);
	bool named = e->event.kind != EVENT_USER_MARK && e->event.object[0];
	console_message(c, false, "mark %zu/%zu at %s: %s%s%s", index + 1, count, when,
			named ? e->event.object : "", named ? " " : "", label);
}

static void jump_to_event(struct console *c, size_t i)
{
	struct replay *r = replay_of(c);
	struct replay_event ev;
	if (replay_event_get(r, i, &ev) < 0)
		return;
	c->replay.paused = true;
	if (replay_view_seek(c, ev.sample) == 0)
		announce_mark(c, i, replay_event_count(r), &ev);
}

void action_replay_next_mark(struct console *c)
{
	struct replay *r = replay_of(c);
	size_t i = replay_event_after(r, shown_sample(c, r) + 1);
	if (i >= replay_event_count(r)) {
		console_message(c, true, "no mark after this point");
		return;
	}
	jump_to_event(c, i);
}

void action_replay_prev_mark(struct console *c)
{
	struct replay *r = replay_of(c);
	size_t i = replay_event_before(r, shown_sample(c, r));
	if (i == SIZE_MAX) {
		console_message(c, true, "no mark before this point");
		return;
	}
	jump_to_event(c, i);
}

static void seek_done(struct console *c, const char *text, void *arg)
{
	(void)arg;
	struct replay *r = replay_of(c);
	if (!text[0] || !r || !replay_count(r))
		return;
	struct timespec start = replay_sample_wall(r, 0), t;
	struct error err;
	if (report_parse_time(text, &start, &t, &err) < 0) {
		console_message(c, true, "%s", err.msg);
		return;
	}
	size_t n = replay_count(r), i = replay_find_wall(r, &t);
	bool after_end = i >= n;
	c->replay.paused = true;
	if (replay_view_seek(c, after_end ? n - 1 : i) < 0)
		return;
	char when[32];
	struct timespec w = replay_sample_wall(r, shown_sample(c, r));
	report_local_time(&w, false, when, sizeof when);
	console_message(c, after_end, "%s: sample %zu/%zu at %s",
			after_end ? "after the end" : "seeked", shown_sample(c, r) + 1, n, when);
}

void action_replay_seek(struct console *c)
{
	console_prompt(c, "seek to (HH:MM[:SS], +OFFSET like +90s or +5m): ", "", seek_done, NULL);
}

static void speed_step(struct console *c, int dir)
{
	c->replay.speed = replay_speed_step(c->replay.speed ? c->replay.speed : 1, dir);
	console_set_interval(c, c->interval);   /* re-arms the clock at interval / speed */
	console_message(c, false, "speed x%u%s", c->replay.speed,
			c->replay.paused ? " (paused: P plays)" : "");
}

void action_replay_speed_up(struct console *c) { speed_step(c, 1); }

void action_replay_speed_down(struct console *c) { speed_step(c, -1); }
