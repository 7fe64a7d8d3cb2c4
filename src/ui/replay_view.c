/* replay_view.c - moving about a replayed session in the console: play/pause, step
 * one sample, jump to the previous/next mark, seek to a time, speed x1/x10/x100.
 *
 * The console reads a replay like any source, one sample per tick of its own clock;
 * this file only decides whether the tick reads (paused or not), how fast the clock
 * ticks, and where the replay stands.  A jump backwards (or further than one step)
 * rebuilds the history from the samples before the target, read through the same
 * path as live samples (session_seek), so the graphs, rates and marks are what they
 * were live at that moment.  The replay is reached only through the source's
 * seek and position operations.  Every jump pauses: the operator jumped there to look.
 */
#include <ncurses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console_state.h"
#include "replay_view.h"
#include "report.h"

bool replay_view_paused(const struct console *c)
{
	return c->replay.paused;
}

double replay_view_timer_period(const struct console *c, double interval)
{
	return replay_timer_period(interval, c->replay.speed);
}

/* Where the recording stands; false for a source that is not one. */
static bool position_of(const struct console *c, struct source_position *p)
{
	if (!source_can_seek(c->src))
		return false;
	c->src->ops->position(c->src, p);
	return true;
}

/* The sample on screen, 0-based (the source has read it and stands after it). */
static size_t shown_sample(const struct console *c)
{
	struct source_position p;
	return position_of(c, &p) && p.next ? p.next - 1 : 0;
}

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return timespec_seconds(b) - timespec_seconds(a);
}

void replay_view_position(const struct console *c, char *buf, size_t len)
{
	struct source_position p;
	if (!position_of(c, &p)) {
		buf[0] = '\0';
		return;
	}
	size_t at = p.next ? p.next - 1 : 0;
	double offset = 0, total = 0;
	if (p.count) {
		offset = seconds_between(&p.first_mono, &p.last_read_mono);
		total = seconds_between(&p.first_mono, &p.last_mono);
	}
	if (offset < 0)
		offset = 0;
	const char *state = console_ended(c) ? NULL : c->replay.paused ? "PAUSED" : "PLAYING";
	replay_format_position(buf, len, p.count ? at + 1 : 0, p.count, offset, total, c->replay.speed,
			       state);
}

/* Enough samples to fill the widest graph the terminal can show, at the zoom. */
static size_t graph_window(const struct console *c)
{
	int cols = COLS > c->layout.graphs.w ? COLS : c->layout.graphs.w;
	size_t spc = (size_t)graph_samples_per_cell(c->glyphs);
	size_t zoom = c->zoom > 1 ? (size_t)c->zoom : 1;
	return (size_t)(cols > 0 ? cols : CONSOLE_MIN_COLS) * spc * zoom + 1;
}

size_t replay_view_samples(const struct console *c)
{
	struct source_position p;
	return position_of(c, &p) ? p.next : 0;
}

void replay_view_refill(struct console *c)
{
	struct source_position p;
	if (position_of(c, &p) && p.count && !c->frozen)
		replay_view_seek(c, shown_sample(c));
}

static void fatal(struct console *c)
{
	c->have_fatal = true;
	c->exit_status = 1;
	c->running = false;
}

int replay_view_seek(struct console *c, size_t target)
{
	struct source_position p;
	if (!position_of(c, &p) || !p.count)
		return 0;
	/* the view settings stay; what was shown of the samples goes */
	console_freeze(c, false);
	c->scroll_back = 0;
	if (session_seek(c->session, target, graph_window(c), &c->fatal) < 0) {
		fatal(c);
		return -1;
	}
	console_build_rows(c);
	console_select_busiest(c);
	c->need_redraw = true;
	return 0;
}

/* The log's sample that history sample n is: the newest held is the one shown. */
static size_t log_sample_of(const struct console *c, uint64_t n)
{
	uint64_t newest = history_count(console_hist(c)) - 1;
	size_t shown = shown_sample(c);
	return newest - n > shown ? 0 : shown - (size_t)(newest - n);
}

bool replay_view_scroll_back(struct console *c, uint64_t step, uint64_t plot)
{
	struct source_position p;
	const struct history *h = console_hist(c);
	if (!position_of(c, &p) || !p.count || !history_count(h))
		return false;
	/* sample 0 only opens the log: the first figures are sample 1's */
	if (log_sample_of(c, history_oldest(h)) <= 1) {
		console_message(c, false, "the graphs show the first sample of the log");
		return true;
	}
	size_t right = log_sample_of(c, console_view_end(c) - 1);
	size_t target = right > step ? right - (size_t)step : 0;
	if (target < plot)   /* the first sample at the left edge, the graph full */
		target = plot < p.count ? (size_t)plot : p.count - 1;
	c->replay.paused = true;
	if (replay_view_seek(c, target) < 0)
		return true;
	console_message(c, false, "read back from the log: sample %zu/%zu (P plays on from here)",
			shown_sample(c) + 1, p.count);
	return true;
}

void action_replay_play(struct console *c)
{
	if (!c->replay.paused) {
		c->replay.paused = true;
		console_message(c, false, "paused (P plays, [ ] step)");
		return;
	}
	if (console_ended(c)) {
		console_message(c, true, "at the end of the data: [, { or G go back");
		return;
	}
	c->replay.paused = false;
	console_message(c, false, "playing at x%u", c->replay.speed ? c->replay.speed : 1);
}

void action_replay_step_back(struct console *c)
{
	c->replay.paused = true;
	size_t at = shown_sample(c);
	if (at == 0) {
		console_message(c, true, "at the first sample");
		return;
	}
	replay_view_seek(c, at - 1);
}

void action_replay_step_forward(struct console *c)
{
	c->replay.paused = true;
	if (console_ended(c)) {
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
	struct replay_event *ev = malloc(sizeof *ev);   /* a decoded event: 4 KB */
	if (!ev || c->src->ops->logged_event(c->src, i, ev) < 0) {
		free(ev);
		return;
	}
	size_t rank, total;
	c->replay.paused = true;
	session_mark_rank(c->session, i, &rank, &total);
	if (replay_view_seek(c, ev->sample) == 0)
		announce_mark(c, rank, total, ev);
	free(ev);
}

/* Marks of the devices shown (the selection) and user marks: the session filters. */
void action_replay_next_mark(struct console *c)
{
	size_t i = session_mark_after(c->session, shown_sample(c) + 1);
	if (i == SIZE_MAX) {
		console_message(c, true, "no mark after this point");
		return;
	}
	jump_to_event(c, i);
}

void action_replay_prev_mark(struct console *c)
{
	size_t i = session_mark_before(c->session, shown_sample(c));
	if (i == SIZE_MAX) {
		console_message(c, true, "no mark before this point");
		return;
	}
	jump_to_event(c, i);
}

static void seek_done(struct console *c, const char *text, void *arg)
{
	(void)arg;
	struct source_position p;
	if (!text[0] || !position_of(c, &p) || !p.count)
		return;
	struct timespec start = p.first_wall, t;
	struct error err;
	if (report_parse_time(text, &start, &t, &err) < 0) {
		console_message(c, true, "%s", err.msg);
		return;
	}
	size_t n = p.count, i = c->src->ops->find_wall(c->src, &t);
	bool after_end = i >= n;
	c->replay.paused = true;
	if (replay_view_seek(c, after_end ? n - 1 : i) < 0)
		return;
	char when[32];
	position_of(c, &p);
	report_local_time(&p.last_read_wall, false, when, sizeof when);
	console_message(c, after_end, "%s: sample %zu/%zu at %s",
			after_end ? "after the end" : "seeked", shown_sample(c) + 1, n, when);
}

void action_replay_seek(struct console *c)
{
	/* every form report_parse_time takes, short enough to leave room for a date at 80 */
	console_prompt(c, "seek to (HH:MM[:SS], YYYY-MM-DD HH:MM[:SS], @EPOCH, +5m): ", "", seek_done,
		       NULL);
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
