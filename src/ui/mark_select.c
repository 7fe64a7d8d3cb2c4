/* mark_select.c - the marks panel's selection: `(` and `)` walk it through the marks
 * the panel lists (newest first), a click or the wheel over the panel too.  The graphs
 * go to the selected mark's time, where its line is highlighted, and the footer says
 * its whole text (the panel may have to cut it). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "console_state.h"

/* Sample n on the graphs: left as they are when it is in view already, else in the
 * middle of the plot, as far as the oldest sample held and the live edge allow. */
static void graphs_to_sample(struct console *c, uint64_t n)
{
	const struct history *h = console_hist(c);
	uint64_t end = c->frozen ? c->frozen_end : history_count(h);
	uint64_t window = console_graph_window(c);
	uint64_t view_end = console_view_end(c);
	if (n < view_end && n + window >= view_end)
		return;
	uint64_t held = end - history_oldest(h);
	uint64_t max = held > window ? held - window : 0;
	uint64_t want_end = n + window / 2 + 1;
	uint64_t back = want_end < end ? end - want_end : 0;
	c->scroll_back = back < max ? back : max;
}

/* "mark [3] at 20:59:27: loop1 sched mq-deadline→bfq (by ioscope); reset nr_requests
 * 64→256, ..." */
static void announce(struct console *c, const struct history_mark *m, uint64_t number)
{
	char when[16], text[MOUNT_OPTS_MAX * 2 + 2048], shown[sizeof text];
	struct tm tm;
	time_t t = m->wall.tv_sec;
	if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%H:%M:%S", &tm))
		snprintf(when, sizeof when, "--:--:--");
	bool user = m->kind == EVENT_USER_MARK;
	snprintf(text, sizeof text, "mark [%llu] at %s: %s%s%s%s%s%s", (unsigned long long)number,
		 when, user ? "" : m->object, user ? "" : " ", m->label,
		 !user && strcmp(m->by, "ioscope") == 0 ? " (by ioscope)" : "",
		 m->resets[0] ? "; reset " : "", m->resets);
	ui_text_for_terminal(&c->style, text, shown, sizeof shown);
	console_message(c, false, "%s", shown);
}

static void select_index(struct console *c, const struct frame *f, size_t i)
{
	const struct history_mark *m = history_mark_get(f->hist, i);
	c->mark_selected = history_mark_number(f->hist, i);
	graphs_to_sample(c, m->n);
	announce(c, m, c->mark_selected);
	c->need_redraw = true;
}

void mark_select_number(struct console *c, uint64_t number)
{
	struct frame f;
	frame_build(c, &f);
	long i = frame_mark_index(&f, number);
	if (i >= 0)
		select_index(c, &f, (size_t)i);
}

/* dir +1: down the panel (an older mark), -1: up (a newer one).  With none selected
 * (or the selected one gone from the history) the newest mark is the first. */
static void select_step(struct console *c, int dir)
{
	struct frame f;
	frame_build(c, &f);
	long n = (long)history_mark_count(f.hist);
	long at = frame_mark_index(&f, c->mark_selected);
	if (at < 0) {
		dir = 1;
		at = n;
	}
	for (long i = at + (dir > 0 ? -1 : 1); i >= 0 && i < n; i += dir > 0 ? -1 : 1) {
		if (frame_mark_shown(&f, history_mark_get(f.hist, (size_t)i))) {
			select_index(c, &f, (size_t)i);
			return;
		}
	}
	if (at == n)
		console_message(c, false, "no marks yet");
	else if (dir > 0)
		console_message(c, false, "the oldest mark held is selected");
	else
		console_message(c, false, "the newest mark is selected (l: graphs back to live)");
}

void mark_select_older(struct console *c) { select_step(c, 1); }

void mark_select_newer(struct console *c) { select_step(c, -1); }

void mark_select_clear(struct console *c)
{
	c->mark_selected = 0;
	c->marks_top = 0;
	c->need_redraw = true;
}
