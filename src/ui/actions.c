/* actions.c - what the keys do (the table is in keys.c).  Actions change the
 * view state only; samples keep arriving whatever they do. */
#include <math.h>
#include <ncurses.h>
#include <stdio.h>
#include <string.h>

#include "console_state.h"
#include "control_ui.h"
#include "text.h"

void action_quit(struct console *c) { c->running = false; }

void action_help(struct console *c) { help_open(c); }

static int page(const struct console *c)
{
	int h = c->table.body.h;
	return h > 1 ? h - 1 : 1;
}

static void select_first(struct console *c)
{
	if (c->nrows)
		console_select(c, c->rows[0].dev->name, true);
}

static void select_last(struct console *c)
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

static void metric_step(struct console *c, int dir)
{
	size_t n = graph_metrics_count;
	c->graph_metric = (c->graph_metric + (dir > 0 ? 1 : n - 1)) % n;
	c->need_redraw = true;
}

static const double interval_steps[] = {
	0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600,
};
#define NSTEPS (sizeof interval_steps / sizeof interval_steps[0])

static void interval_longer(struct console *c)
{
	for (size_t i = 0; i < NSTEPS; i++)
		if (interval_steps[i] > c->interval * 1.0001) {
			console_set_interval(c, interval_steps[i]);
			return;
		}
	console_message(c, true, "the interval is at its longest, %g s", c->interval);
}

static void interval_shorter(struct console *c)
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
	event_own(&ev, EVENT_USER_MARK, "user", "mark");
	event_set_new_value(&ev, "%s", text);
	console_add_event(c, &ev);
	event_free(&ev);
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
	/* the operator looked for a device: the selection (the first row the filter leaves,
	 * when it hid the one selected) no longer follows the busiest disk */
	if (text[0])
		c->user_selected = true;
	c->table.top = 0;
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
	long n = (long)(c->table.ncolumns_shown ? c->table.ncolumns_shown : c->ncolumns);
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
	console_message(c, false, "sorted by %s", c->sort ? c->sort->key : "device (kernel order)");
	c->need_redraw = true;
}

/* A click on a column's header: sort by it, a second click the other way round;
 * on Device (-1): the kernel's order. */
static void sort_by(struct console *c, int column)
{
	if (column < 0 || (size_t)column >= c->ncolumns) {
		c->sort = NULL;
	} else {
		if (c->sort == c->columns[column])
			c->sort_ascending = !c->sort_ascending;
		c->sort = c->columns[column];
	}
	c->need_redraw = true;
}

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

static uint64_t zoom_of(const struct console *c)
{
	return c->zoom > 1 ? (uint64_t)c->zoom : 1;
}

/* A quarter of the graph's width per step. */
static uint64_t scroll_step(const struct console *c)
{
	int w = c->layout.graphs.w > 12 ? c->layout.graphs.w - 8 : 40;
	return (uint64_t)(w * graph_samples_per_cell(c->glyphs) / 4) * zoom_of(c);
}

/* Dot columns of the graphs' plot (the pane less the Y labels' gutter). */
static uint64_t graph_dots(const struct console *c)
{
	int w = c->layout.graphs.w - 8;
	return (uint64_t)(w > 1 ? w : 1) * (uint64_t)graph_samples_per_cell(c->glyphs);
}

uint64_t console_graph_window(const struct console *c)
{
	return graph_dots(c) * zoom_of(c);
}

/* Samples per dot column the z key steps through. */
static const int zoom_levels[] = { 1, 2, 3, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600 };
#define NZOOM (sizeof zoom_levels / sizeof zoom_levels[0])

static uint64_t held_samples(const struct console *c)
{
	const struct history *h = console_hist(c);
	return (c->frozen ? c->frozen_end : history_count(h)) - history_oldest(h);
}

/* As far back as the graphs can go: the samples held (a replay: its log's, as far as
 * the history's ring holds them). */
static uint64_t zoom_reach(const struct console *c)
{
	const struct history *h = console_hist(c);
	uint64_t held = held_samples(c), log = replay_view_samples(c);
	uint64_t cap = history_capacity(h);
	uint64_t reach = log > held ? log : held;
	return reach < cap ? reach : cap;
}

/* The graphs' right edge stays where it was, as far as the oldest sample held allows. */
static void zoom_keep_in_history(struct console *c)
{
	uint64_t held = held_samples(c), window = console_graph_window(c);
	uint64_t max = held > window ? held - window : 0;
	if (c->scroll_back > max)
		c->scroll_back = max;
	c->need_redraw = true;
}

static void zoom_said(struct console *c)
{
	char span[24];
	text_duration(lround(c->interval * (double)console_graph_window(c)), span, sizeof span);
	console_message(c, false, "graphs: %d sample%s a column, %s across (z out, Z in)",
			(int)zoom_of(c), zoom_of(c) > 1 ? "s" : "", span);
}

/* More time across: the next zoom step, while the graphs do not yet hold all there is. */
void action_zoom_out(struct console *c)
{
	if (console_graph_window(c) >= zoom_reach(c)) {
		console_message(c, false, "the graphs show the whole history (Z zooms in)");
		return;
	}
	for (size_t i = 0; i < NZOOM; i++)
		if (zoom_levels[i] > c->zoom) {
			c->zoom = zoom_levels[i];
			break;
		}
	/* a replay reads the log again for the wider window, where it stands */
	if (held_samples(c) < console_graph_window(c) && !c->scroll_back)
		replay_view_refill(c);
	zoom_keep_in_history(c);
	zoom_said(c);
}

void action_zoom_in(struct console *c)
{
	if (zoom_of(c) == 1) {
		console_message(c, false, "the graphs show every sample (z zooms out)");
		return;
	}
	int to = 1;
	for (size_t i = 0; i < NZOOM; i++)
		if (zoom_levels[i] < c->zoom)
			to = zoom_levels[i];
	c->zoom = to;
	zoom_keep_in_history(c);
	zoom_said(c);
}

/* Back until the oldest sample held is at the left edge, no further: an empty graph
 * labelled with a time before the history says nothing.  A replay goes on from there
 * to the log's first sample (replay_view_scroll_back). */
static void scroll_back(struct console *c)
{
	uint64_t end = c->frozen ? c->frozen_end : history_count(console_hist(c));
	uint64_t held = end - history_oldest(console_hist(c));
	uint64_t window = console_graph_window(c);
	uint64_t max = held > window ? held - window : 0;
	if (c->scroll_back >= max) {
		/* a replay has the rest in its log: read it again further back */
		if (!replay_view_scroll_back(c, scroll_step(c), window))
			console_message(c, false, "the graphs show the oldest sample held");
		return;
	}
	c->scroll_back += scroll_step(c);
	if (c->scroll_back > max)
		c->scroll_back = max;
	c->need_redraw = true;
}

static void scroll_forward(struct console *c)
{
	uint64_t step = scroll_step(c);
	c->scroll_back = c->scroll_back > step ? c->scroll_back - step : 0;
	c->need_redraw = true;
}

void action_live(struct console *c)
{
	c->scroll_back = 0;
	mark_select_clear(c);
	console_freeze(c, false);
	c->need_redraw = true;
}

void action_glyphs(struct console *c)
{
	if (!c->style.utf8) {
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

/* A pane that starts hidden (pane.h) shown, or shown hidden again. */
/* The source reads processes only while a pane shows them (a recording has them
 * when it was made with them). */
static void pane_tasks(struct console *c, bool on)
{
	struct error err;
	enum source_tasks how = !on ? SOURCE_TASKS_OFF
			      : c->opts->tasks ? SOURCE_TASKS_EVERY_SAMPLE : SOURCE_TASKS_RELAXED;
	if (source_set_tasks(session_source(c->session), how, &err) < 0)
		console_message(c, true, "processes: %s", err.msg);
}

static void toggle_pane(struct console *c, const char *name)
{
	for (size_t i = 0; i < console_panes_count && i < 32; i++) {
		if (strcmp(console_panes[i]->name, name) != 0)
			continue;
		c->panes_toggled ^= 1u << i;
		c->need_redraw = true;
		if (console_panes[i]->reads_tasks)
			pane_tasks(c, console_pane_shown(c, i) || c->opts->tasks);
		return;
	}
}

/* ---- applying an action (a key's, a click's) ---- */

/* The actions without an argument. */
static void (*const plain[UA_COUNT])(struct console *c) = {
	[UA_QUIT] = action_quit,
	[UA_HELP] = action_help,
	[UA_FIRST] = select_first,
	[UA_LAST] = select_last,
	[UA_PIN] = action_pin,
	[UA_FREEZE] = action_freeze,
	[UA_MARK] = action_mark,
	[UA_FILTER] = action_filter,
	[UA_PARTITIONS] = action_partitions,
	[UA_SORT_INVERT] = action_sort_invert,
	[UA_COLUMNS] = action_columns,
	[UA_THEME_NEXT] = action_theme_next,
	[UA_DETAIL] = action_detail,
	[UA_MARKS] = action_marks,
	[UA_LIVE] = action_live,
	[UA_GLYPHS] = action_glyphs,
	[UA_REFRESH] = action_refresh,
	[UA_SCHEDULER] = action_scheduler,
	[UA_TUNABLES] = action_tunables,
	[UA_WRITE_CACHE] = action_write_cache,
	[UA_MOUNT_OPTIONS] = action_mount_options,
	[UA_REPLAY_PLAY] = action_replay_play,
	[UA_REPLAY_SEEK] = action_replay_seek,
	[UA_RECORD] = action_record,
	[UA_TRACE] = action_trace,
};

/* The actions with a direction: [0] for arg < 0, [1] for arg > 0. */
static void (*const directed[UA_COUNT][2])(struct console *c) = {
	[UA_INTERVAL] = { interval_shorter, interval_longer },
	[UA_SCROLL] = { scroll_forward, scroll_back },
	[UA_REPLAY_STEP] = { action_replay_step_back, action_replay_step_forward },
	[UA_REPLAY_MARK] = { action_replay_prev_mark, action_replay_next_mark },
	[UA_REPLAY_SPEED] = { action_replay_speed_down, action_replay_speed_up },
	[UA_MARK_STEP] = { mark_select_newer, mark_select_older },
	[UA_ZOOM] = { action_zoom_in, action_zoom_out },
};

void console_apply(struct console *c, const struct ui_action *a)
{
	if (a->kind <= UA_NONE || a->kind >= UA_COUNT)
		return;
	if (plain[a->kind]) {
		plain[a->kind](c);
		return;
	}
	if (directed[a->kind][0]) {
		directed[a->kind][a->arg > 0](c);
		return;
	}
	switch (a->kind) {
	case UA_MOVE: console_move_selection(c, a->arg); break;
	case UA_PAGE: console_move_selection(c, a->arg * page(c)); break;
	case UA_SELECT: console_select(c, a->name, true); break;
	case UA_METRIC: metric_step(c, a->arg); break;
	case UA_SORT_STEP: sort_step(c, a->arg); break;
	case UA_SORT_BY: sort_by(c, a->arg); break;
	case UA_TOGGLE_PANE: toggle_pane(c, a->name); break;
	case UA_MARK_SELECT: mark_select_number(c, a->arg > 0 ? (uint64_t)a->arg : 0); break;
	default: break;
	}
}

void console_dispatch_key(struct console *c, int key)
{
	if (console_modal_key(c, key))
		return;
	char why[128];
	struct ui_action a = console_key_action(key, console_controls_enabled(c), why, sizeof why);
	if (why[0])
		console_message(c, true, "%s", why);
	console_apply(c, &a);
}
