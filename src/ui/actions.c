/* actions.c - what the keys do (the table is in keys.c).  Actions change the
 * view state only; samples keep arriving whatever they do. */
#include <ncurses.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "console.h"

void action_quit(struct console *c) { c->running = false; }

void action_help(struct console *c) { help_open(c); }

void action_up(struct console *c) { console_move_selection(c, -1); }

void action_down(struct console *c) { console_move_selection(c, 1); }

static int page(const struct console *c)
{
	int h = c->table_body.h;
	return h > 1 ? h - 1 : 1;
}

void action_page_up(struct console *c) { console_move_selection(c, -page(c)); }

void action_page_down(struct console *c) { console_move_selection(c, page(c)); }

void action_first(struct console *c)
{
	if (c->nrows)
		console_select(c, c->rows[0].dev->name, true);
}

void action_last(struct console *c)
{
	if (c->nrows)
		console_select(c, c->rows[c->nrows - 1].dev->name, true);
}

void action_pin(struct console *c)
{
	if (!c->selected[0])
		return;
	for (size_t i = 0; i < c->npins; i++) {
		if (strcmp(c->pins[i], c->selected) != 0)
			continue;
		memmove(&c->pins[i], &c->pins[i + 1], (c->npins - i - 1) * sizeof c->pins[0]);
		c->npins--;
		console_message(c, false, "%s unpinned from the graphs", c->selected);
		c->need_redraw = true;
		return;
	}
	if (c->npins == CONSOLE_PINS_MAX) {
		console_message(c, true, "at most %d devices can be pinned", CONSOLE_PINS_MAX);
		return;
	}
	snprintf(c->pins[c->npins++], sizeof c->pins[0], "%s", c->selected);
	console_message(c, false, "%s pinned on the graphs (Enter again to unpin)", c->selected);
	c->need_redraw = true;
}

void action_metric_next(struct console *c)
{
	c->graph_metric = (c->graph_metric + 1) % graph_metrics_count;
	c->need_redraw = true;
}

void action_metric_prev(struct console *c)
{
	c->graph_metric = (c->graph_metric + graph_metrics_count - 1) % graph_metrics_count;
	c->need_redraw = true;
}

static const double interval_steps[] = {
	0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600,
};
#define NSTEPS (sizeof interval_steps / sizeof interval_steps[0])

void action_slower(struct console *c)
{
	for (size_t i = 0; i < NSTEPS; i++)
		if (interval_steps[i] > c->interval * 1.0001) {
			console_set_interval(c, interval_steps[i]);
			return;
		}
	console_message(c, true, "the interval is at its longest, %g s", c->interval);
}

void action_faster(struct console *c)
{
	for (size_t i = NSTEPS; i > 0; i--)
		if (interval_steps[i - 1] < c->interval * 0.9999) {
			console_set_interval(c, interval_steps[i - 1]);
			return;
		}
	console_message(c, true, "the interval is at its shortest, %g s", c->interval);
}

void action_freeze(struct console *c)
{
	console_freeze(c, !c->frozen);
	console_message(c, false, c->frozen ? "view frozen; sampling goes on (Space to resume)"
					    : "view live again");
}

static void mark_done(struct console *c, const char *text, void *arg)
{
	(void)arg;
	if (!text[0])
		return;
	struct event ev;
	memset(&ev, 0, sizeof ev);
	clock_gettime(CLOCK_REALTIME, &ev.wall);
	clock_gettime(CLOCK_MONOTONIC, &ev.mono);
	ev.kind = EVENT_USER_MARK;
	snprintf(ev.object, sizeof ev.object, "user");
	snprintf(ev.key, sizeof ev.key, "mark");
	snprintf(ev.new_value, sizeof ev.new_value, "%s", text);
	snprintf(ev.by, sizeof ev.by, "ioscope");
	console_add_event(c, &ev);
}

void action_mark(struct console *c)
{
	console_prompt(c, "mark: ", "", mark_done, NULL);
}

static void filter_done(struct console *c, const char *text, void *arg)
{
	(void)arg;
	snprintf(c->filter, sizeof c->filter, "%s", text);
	/* with a filter typed, the DEVICE arguments no longer narrow the table */
	c->nonly = 0;
	c->table_top = 0;
	c->need_redraw = true;
}

void action_filter(struct console *c)
{
	console_prompt(c, "filter: ", c->filter, filter_done, NULL);
}

void action_partitions(struct console *c)
{
	c->show_partitions = !c->show_partitions;
	c->need_redraw = true;
}

static void sort_step(struct console *c, int delta)
{
	/* positions: -1 is the Device column (kernel order), then the shown columns */
	long n = (long)(c->ncolumns_shown ? c->ncolumns_shown : c->ncolumns);
	long at = -1;
	for (long i = 0; i < n; i++)
		if (c->columns[i] == c->sort)
			at = i;
	at += delta;
	if (at < -1)
		at = n - 1;
	if (at >= n)
		at = -1;
	c->sort = at < 0 ? NULL : c->columns[at];
	console_message(c, false, "sorted by %s", c->sort ? c->sort->name : "device (kernel order)");
	c->need_redraw = true;
}

void action_sort_next(struct console *c) { sort_step(c, 1); }

void action_sort_prev(struct console *c) { sort_step(c, -1); }

void action_sort_invert(struct console *c)
{
	c->sort_ascending = !c->sort_ascending;
	c->need_redraw = true;
}

void action_columns(struct console *c) { column_chooser_open(c); }

void action_theme_next(struct console *c)
{
	char **names;
	size_t n = theme_names(&names);
	if (n == 0)
		return;
	size_t next = 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], c->theme.name) == 0)
			next = (i + 1) % n;
	console_apply_theme(c, names[next]);
	theme_names_free(names, n);
}

void action_detail(struct console *c)
{
	c->detail_zoom = !c->detail_zoom;
	c->need_redraw = true;
}

void action_marks(struct console *c)
{
	c->show_marks = !c->show_marks;
	c->need_redraw = true;
}

/* The source reads processes only while the pane shows them (a recording has them
 * when it was made with them). */
void action_why(struct console *c)
{
	struct error err;
	c->show_why = !c->show_why;
	if (source_set_tasks(session_source(c->session), c->show_why, &err) < 0) {
		c->show_why = false;
		console_message(c, true, "why pane: %s", err.msg);
	}
	c->need_redraw = true;
}

/* A quarter of the graph's width per step. */
static uint64_t scroll_step(const struct console *c)
{
	int w = c->layout.graphs.w > 12 ? c->layout.graphs.w - 8 : 40;
	return (uint64_t)(w * graph_samples_per_cell(c->glyphs) / 4);
}

void action_scroll_back(struct console *c)
{
	uint64_t end = c->frozen ? c->frozen_end : history_count(console_hist(c));
	uint64_t held = end - history_oldest(console_hist(c));
	uint64_t max = held > 1 ? held - 1 : 0;
	c->scroll_back += scroll_step(c);
	if (c->scroll_back > max)
		c->scroll_back = max;
	c->need_redraw = true;
}

void action_scroll_forward(struct console *c)
{
	uint64_t step = scroll_step(c);
	c->scroll_back = c->scroll_back > step ? c->scroll_back - step : 0;
	c->need_redraw = true;
}

void action_live(struct console *c)
{
	c->scroll_back = 0;
	console_freeze(c, false);
	c->need_redraw = true;
}

void action_glyphs(struct console *c)
{
	if (!c->utf8) {
		console_message(c, true, "the terminal is not UTF-8: ASCII graphs only");
		return;
	}
	c->glyphs = c->glyphs == GLYPHS_BRAILLE ? GLYPHS_BLOCK
		  : c->glyphs == GLYPHS_BLOCK ? GLYPHS_ASCII : GLYPHS_BRAILLE;
	c->need_redraw = true;
}

void action_refresh(struct console *c)
{
	clearok(curscr, TRUE);
	c->need_redraw = true;
}
