/* view.c - what the console shows: the rows of the table in order, the selected
 * device (the operator's choice, else the busiest disk), the frozen view. */
#include <math.h>
#include <ncurses.h>
#include <stdlib.h>
#include <string.h>

#include "console_state.h"
#include "grow.h"

bool console_have_rates(const struct console *c)
{
	return c->frozen || session_rates(c->session);
}

const struct rates *console_view_rates(const struct console *c)
{
	static const struct rates none;   /* before the second sample: no figures */
	const struct rates *r = c->frozen ? &c->frozen_rates : session_rates(c->session);
	return r ? r : &none;
}

const struct snapshot *console_view_snap(const struct console *c)
{
	return c->frozen ? &c->frozen_snap : console_latest(c);
}

const struct why_rates *console_view_why(const struct console *c)
{
	if (c->frozen)
		return c->frozen_have_why ? c->frozen_why : NULL;
	return session_why(c->session);
}

/* The why figures go with the frozen rates: the why pane shows the same interval. */
static int freeze_why(struct console *c)
{
	const struct why_rates *y = session_why(c->session);
	c->frozen_have_why = false;
	if (!y)
		return 0;
	if (!c->frozen_why && !(c->frozen_why = malloc(sizeof *c->frozen_why)))
		return -1;
	*c->frozen_why = *y;
	c->frozen_have_why = true;
	return 0;
}

uint64_t console_view_end(const struct console *c)
{
	uint64_t end = c->frozen ? c->frozen_end : history_count(console_hist(c));
	uint64_t oldest = history_oldest(console_hist(c));
	uint64_t back = c->scroll_back;
	if (end < oldest + back)
		return end > oldest ? oldest + 1 : end;
	return end - back;
}

const struct device_rates *console_rates_of(const struct console *c, const char *name)
{
	const struct rates *r = console_view_rates(c);
	if (!console_have_rates(c))
		return NULL;
	for (size_t i = 0; i < r->ndevices; i++)
		if (strcmp(r->devices[i].name, name) == 0)
			return &r->devices[i];
	return NULL;
}

/* Rates follow the snapshot's device order; check the name before trusting it. */
static const struct device_rates *rates_at(const struct console *c, size_t i, const char *name)
{
	const struct rates *r = console_view_rates(c);
	if (!console_have_rates(c))
		return NULL;
	if (i < r->ndevices && strcmp(r->devices[i].name, name) == 0)
		return &r->devices[i];
	return console_rates_of(c, name);
}

static bool wanted_by_args(const struct console *c, const struct snapshot *s, const struct device *d)
{
	if (c->nonly == 0)
		return true;
	for (size_t i = 0; i < c->nonly; i++) {
		if (strcmp(c->only[i], d->name) == 0)
			return true;
		if (d->is_partition && strcmp(c->only[i], d->parent) == 0)
			return true;
		if (!d->is_partition && snapshot_on_disk(s, c->only[i], d->name))
			return true;
	}
	return false;
}

static bool matches_filter(const struct console *c, const struct device *d)
{
	if (!c->filter[0])
		return true;
	return strcasestr(d->name, c->filter) || (d->dm_name[0] && strcasestr(d->dm_name, c->filter)) ||
	       (d->model[0] && strcasestr(d->model, c->filter));
}

static bool disk_matches(const struct console *c, const struct snapshot *s, const struct device *disk)
{
	if (matches_filter(c, disk))
		return true;
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct device *p = &s->devices[i];
		if (p->is_partition && strcmp(p->parent, disk->name) == 0 && matches_filter(c, p))
			return true;
	}
	return false;
}

static int push_row(struct console *c, const struct device *d, const struct device_rates *r, bool part)
{
	if (grow_array(&c->rows, &c->rows_cap, c->nrows + 1, sizeof *c->rows, 32, NULL) < 0)
		return -1;
	c->rows[c->nrows++] = (struct table_row){ d, r, part };
	return 0;
}

static double sort_value(const struct console *c, const struct table_row *row)
{
	if (!row->rates)
		return NAN;
	return column_value(c->sort, row->rates);
}

static int compare_rows(const void *a, const void *b, void *arg)
{
	const struct console *c = arg;
	const struct table_row *x = a, *y = b;
	int by_name = strcmp(x->dev->name, y->dev->name);
	if (c->sort->kind == FIGURE_SCHEDULER) {
		const char *sx = x->dev->settings.scheduler, *sy = y->dev->settings.scheduler;
		int r = strcmp(sx, sy);
		return r ? (c->sort_ascending ? r : -r) : by_name;
	}
	double vx = sort_value(c, x), vy = sort_value(c, y);
	if (isnan(vx) != isnan(vy))
		return isnan(vx) ? 1 : -1;   /* no figure: always last */
	if (isnan(vx) || vx == vy)
		return by_name;
	int r = vx < vy ? -1 : 1;
	return c->sort_ascending ? r : -r;
}

static void add_partitions(struct console *c, const struct snapshot *s, const struct device *disk)
{
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct device *p = &s->devices[i];
		if (!p->is_partition || strcmp(p->parent, disk->name) != 0)
			continue;
		if (!wanted_by_args(c, s, p))
			continue;
		push_row(c, p, rates_at(c, i, p->name), true);
	}
}

static void fold_partitions(struct console *c, const struct snapshot *s);

static int row_of(const struct console *c, const char *name)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].dev->name, name) == 0)
			return (int)i;
	return -1;
}

/* The selection is always a row on screen (a filter may have hidden it). */
static void keep_selection_visible(struct console *c)
{
	if (c->nrows && row_of(c, c->selected) < 0)
		console_select(c, c->rows[0].dev->name, false);
}

void console_build_rows(struct console *c)
{
	const struct snapshot *s = console_view_snap(c);
	c->nrows = 0;
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct device *d = &s->devices[i];
		/* a partition whose disk is not in the snapshot stands alone */
		if (d->is_partition && snapshot_find_device(s, d->parent))
			continue;
		if (!wanted_by_args(c, s, d) || !disk_matches(c, s, d))
			continue;
		push_row(c, d, rates_at(c, i, d->name), false);
	}
	if (c->sort && c->nrows > 1)
		qsort_r(c->rows, c->nrows, sizeof *c->rows, compare_rows, c);
	if (c->show_partitions)
		fold_partitions(c, s);
	keep_selection_visible(c);
}

/* Partitions fold under their disk: rebuild with each disk followed by its own. */
static void fold_partitions(struct console *c, const struct snapshot *s)
{
	size_t ndisks = c->nrows;
	struct table_row *disks = malloc(ndisks * sizeof *disks);
	if (!disks)
		return;
	memcpy(disks, c->rows, ndisks * sizeof *disks);
	c->nrows = 0;
	for (size_t i = 0; i < ndisks; i++) {
		push_row(c, disks[i].dev, disks[i].rates, false);
		if (!disks[i].dev->is_partition)
			add_partitions(c, s, disks[i].dev);
	}
	free(disks);
}


const struct device *console_selected_device(const struct console *c)
{
	return c->selected[0] ? snapshot_find_device(console_view_snap(c), c->selected) : NULL;
}

void console_select(struct console *c, const char *name, bool by_user)
{
	snprintf(c->selected, sizeof c->selected, "%s", name);
	session_follow(c->session, name);
	if (by_user)
		c->user_selected = true;
	c->need_redraw = true;
}

#define BUSIEST_SAMPLES 5

static double recent_throughput(const struct console *c, const char *name)
{
	int dev = history_device_find(console_hist(c), name);
	if (dev < 0)
		return 0;
	uint64_t end = history_count(console_hist(c)), sum_from = end > BUSIEST_SAMPLES ? end - BUSIEST_SAMPLES : 0;
	double sum = 0;
	for (uint64_t n = sum_from; n < end; n++) {
		float r = history_value(console_hist(c), (size_t)dev, HM_READ_MBS, n);
		float w = history_value(console_hist(c), (size_t)dev, HM_WRITE_MBS, n);
		sum += (isnan(r) ? 0 : r) + (isnan(w) ? 0 : w);
	}
	return sum;
}

/* Until the operator picks one, follow the disk that moved the most data lately. */
void console_select_busiest(struct console *c)
{
	if (c->user_selected)
		return;
	const char *best = NULL;
	double best_v = 0;
	for (size_t i = 0; i < c->nrows; i++) {
		if (c->rows[i].partition)
			continue;
		double v = recent_throughput(c, c->rows[i].dev->name);
		if (v > best_v) {
			best_v = v;
			best = c->rows[i].dev->name;
		}
	}
	if (best && strcmp(best, c->selected) != 0)
		console_select(c, best, false);
	else if (!best && row_of(c, c->selected) < 0 && c->nrows)
		console_select(c, c->rows[0].dev->name, false);
}

void console_move_selection(struct console *c, int delta)
{
	if (c->nrows == 0)
		return;
	int i = row_of(c, c->selected);
	long to = i < 0 ? 0 : (long)i + delta;
	if (to < 0)
		to = 0;
	if (to >= (long)c->nrows)
		to = (long)c->nrows - 1;
	console_select(c, c->rows[to].dev->name, true);
}

static int rates_copy(struct rates *dst, const struct rates *src)
{
	struct device_rates *d = NULL;
	if (src->ndevices) {
		d = malloc(src->ndevices * sizeof *d);
		if (!d)
			return -1;
		memcpy(d, src->devices, src->ndevices * sizeof *d);
	}
	free(dst->devices);
	*dst = *src;
	dst->devices = d;
	return 0;
}

void console_freeze(struct console *c, bool on)
{
	if (on == c->frozen)
		return;
	if (on) {
		if (rates_copy(&c->frozen_rates, console_view_rates(c)) < 0 ||
		    snapshot_copy(&c->frozen_snap, console_latest(c)) < 0 || freeze_why(c) < 0) {
			console_message(c, true, "out of memory: cannot freeze the view");
			return;
		}
		c->frozen_end = history_count(console_hist(c));
	} else {
		/* the graphs keep the place the operator scrolled to */
		uint64_t now = history_count(console_hist(c));
		c->scroll_back = c->scroll_back ? c->scroll_back + (now - c->frozen_end) : 0;
	}
	c->frozen = on;
	c->need_redraw = true;
}

int console_apply_columns(struct console *c, const char *text, struct error *err)
{
	const struct device_figure *cols[COLUMNS_MAX];
	size_t n;
	if (columns_parse(text, cols, COLUMNS_MAX, &n, err) < 0)
		return -1;
	memcpy(c->columns, cols, n * sizeof *cols);
	c->ncolumns = n;
	c->need_redraw = true;
	return 0;
}

int console_apply_theme(struct console *c, const char *name)
{
	struct theme_warnings warn = { "", 0 };
	struct error err;
	int rc = theme_load(&c->theme, name, &warn, &err);
	if (rc < 0)
		console_message(c, true, "%s; using the default theme", err.msg);
	else if (warn.count)
		console_message(c, true, "%s%s", warn.first, warn.count > 1 ? " (and more)" : "");
	else
		console_message(c, false, "theme %s", c->theme.name);
	theme_apply(&c->theme, c->depth, &c->style.attrs);
	bkgdset((chtype)' ' | (chtype)ui_attr(&c->style, TR_NORMAL));
	clearok(curscr, TRUE);
	c->need_redraw = true;
	return rc;
}
