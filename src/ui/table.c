/* table.c - the device table: chosen columns, sorted rows, partitions folded under
 * their disk, the selected row, figures coloured by load. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pane.h"

#define DEVICE_W_MIN 6
#define DEVICE_W_MAX 20

static bool is_pinned(const struct frame *f, const char *name)
{
	for (size_t i = 0; i < f->npins; i++)
		if (strcmp(f->pins[i], name) == 0)
			return true;
	return false;
}

static int device_width(const struct frame *f)
{
	int w = DEVICE_W_MIN;
	for (size_t i = 0; i < f->nrows; i++) {
		int n = ui_text_width(f->rows[i].dev->name) + (f->rows[i].partition ? 1 : 0) + 1;
		if (n > w)
			w = n;
	}
	return w > DEVICE_W_MAX ? DEVICE_W_MAX : w;
}

/* Which columns fit: the device column shrinks first, then columns drop from the end. */
static void place_columns(struct frame *f, const struct rect *r)
{
	int dw = device_width(f), need = 0;
	for (size_t i = 0; i < f->ncolumns; i++)
		need += f->columns[i]->width + 1;
	if (dw + need > r->w)
		dw = dw - (dw + need - r->w) < DEVICE_W_MIN ? DEVICE_W_MIN : dw - (dw + need - r->w);
	f->table.column_x[0] = r->x;
	f->table.column_w[0] = dw;
	int x = r->x + dw;
	size_t n = 0;
	for (size_t i = 0; i < f->ncolumns; i++) {
		int w = f->columns[i]->width;
		if (x + 1 + w > r->x + r->w)
			break;
		f->table.column_x[n + 1] = x + 1;
		f->table.column_w[n + 1] = w;
		x += 1 + w;
		n++;
	}
	f->table.ncolumns_shown = n;
}

static bool left_aligned(const struct device_figure *col)
{
	return col->kind == FIGURE_SCHEDULER;
}

static void put_cell(int y, int x, int w, unsigned long attr, const char *text, bool left)
{
	int tw = ui_text_width(text);
	if (tw > w)
		tw = w;
	ui_put(y, left ? x : x + w - tw, w, attr, text);
}

/* The sorted column's header says which way: "▼w/s" largest first, "▲w/s" smallest
 * first ("v", "^" without UTF-8), the arrow before a right-aligned header (in the gap
 * before the column when the header fills it), after a left-aligned one. */
static void sort_arrow(const struct frame *f, const struct device_figure *col, int x, int w, int y,
		       unsigned long attr)
{
	const char *arrow = f->sort_ascending ? ui_sym(&f->style, "▲", "^") : ui_sym(&f->style, "▼", "v");
	int tw = ui_text_width(column_header(col));
	if (tw > w)
		tw = w;
	if (left_aligned(col))
		ui_put(y, tw < w ? x + tw : x + w - 1, 1, attr, arrow);
	else
		ui_put(y, x + w - tw - 1, 1, attr, arrow);
}

static void draw_header(const struct frame *f, const struct rect *r)
{
	const struct table_geometry *g = &f->table;
	unsigned long hdr = ui_attr(&f->style, TR_TABLE_HEADER);
	unsigned long sorted = ui_attr(&f->style, TR_SORTED);
	ui_fill(r->y, r->x, r->w, hdr);
	put_cell(r->y, g->column_x[0], g->column_w[0], f->sort ? hdr : sorted, "Device", true);
	for (size_t i = 0; i < g->ncolumns_shown; i++) {
		const struct device_figure *col = f->columns[i];
		unsigned long a = col == f->sort ? sorted : hdr;
		put_cell(r->y, g->column_x[i + 1], g->column_w[i + 1], a, column_header(col), left_aligned(col));
		if (col == f->sort)
			sort_arrow(f, col, g->column_x[i + 1], g->column_w[i + 1], r->y, a);
	}
}

static enum theme_role load_role(const struct frame *f, const struct device_figure *col, double v)
{
	if (col->load == FIGURE_LOAD_NONE || isnan(v) || v <= 0)
		return TR_NORMAL;
	double warn = col->load == FIGURE_LOAD_UTIL ? f->cfg->util_warn : f->cfg->await_warn;
	double crit = col->load == FIGURE_LOAD_UTIL ? f->cfg->util_crit : f->cfg->await_crit;
	return v >= crit ? TR_LOAD_HIGH : v >= warn ? TR_LOAD_MID : TR_LOAD_LOW;
}

static void draw_row(const struct frame *f, const struct table_row *row, int y, bool selected)
{
	const struct table_geometry *g = &f->table;
	unsigned long sel = ui_attr(&f->style, TR_SELECTED);
	const struct rect *body = &g->body;
	ui_fill(y, body->x, body->w, selected ? sel : ui_attr(&f->style, TR_NORMAL));
	char name[DEV_NAME_MAX + 8];
	snprintf(name, sizeof name, "%s%s%s", row->partition ? (f->style.utf8 ? "└" : "`") : "",
		 row->dev->name, is_pinned(f, row->dev->name) ? "*" : "");
	enum theme_role name_role = row->partition ? TR_PARTITION : TR_NORMAL;
	unsigned long name_attr = selected ? sel : ui_attr(&f->style, name_role);
	put_cell(y, g->column_x[0], g->column_w[0], name_attr, name, true);
	char buf[64];
	for (size_t i = 0; i < g->ncolumns_shown; i++) {
		const struct device_figure *col = f->columns[i];
		double v = NAN;
		if (col->kind == FIGURE_SCHEDULER) {
			const char *s = row->dev->settings.scheduler;
			snprintf(buf, sizeof buf, "%s", row->partition ? "" : s[0] ? s : "-");
		} else if (row->rates) {
			column_format(col, row->rates, buf, sizeof buf);
			v = column_value(col, row->rates);
		} else if (col->kind == FIGURE_IN_FLIGHT) {
			/* a gauge: known from the first sample on */
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)row->dev->counters.in_flight);
		} else {
			snprintf(buf, sizeof buf, "-");
		}
		unsigned long a = selected ? sel : ui_attr(&f->style, load_role(f, col, v));
		put_cell(y, g->column_x[i + 1], g->column_w[i + 1], a, buf, left_aligned(col));
	}
}

static int selected_row(const struct frame *f)
{
	for (size_t i = 0; i < f->nrows; i++)
		if (strcmp(f->rows[i].dev->name, f->selected) == 0)
			return (int)i;
	return -1;
}

static void table_place(struct frame *f, const struct rect *r)
{
	place_columns(f, r);
	f->table.header_y = r->y;
	f->table.body = (struct rect){ r->y + 1, r->x, r->h - 1, r->w };
	int visible = r->h - 1;
	int sel = selected_row(f);
	if (sel >= 0 && sel < f->table.top)
		f->table.top = sel;
	if (sel >= f->table.top + visible)
		f->table.top = sel - visible + 1;
	if (f->table.top > (int)f->nrows - visible)
		f->table.top = (int)f->nrows - visible;
	if (f->table.top < 0)
		f->table.top = 0;
}

static void table_draw(const struct frame *f, const struct rect *r)
{
	draw_header(f, r);
	int visible = r->h - 1;
	int sel = selected_row(f);
	for (int i = 0; i < visible; i++) {
		int idx = f->table.top + i;
		if (idx >= (int)f->nrows) {
			if (i == 0 && f->nrows == 0)
				ui_put(r->y + 1, r->x + 1, r->w - 2, ui_attr(&f->style, TR_DIM),
				       f->filter[0] ? "no device matches the filter (/ to change it)"
						    : "no devices");
			continue;
		}
		draw_row(f, &f->rows[idx], r->y + 1 + i, idx == sel);
	}
}

/* A click on a column's header sorts by it (again: the other way), on Device the
 * kernel's order; on a row selects its device. */
static struct ui_action table_click(const struct frame *f, const struct rect *r, int y, int x)
{
	struct ui_action a = { UA_NONE, 0, "" };
	const struct table_geometry *g = &f->table;
	if (y == g->header_y) {
		for (size_t i = 0; i < g->ncolumns_shown; i++)
			if (x >= g->column_x[i + 1] && x < g->column_x[i + 1] + g->column_w[i + 1])
				return (struct ui_action){ UA_SORT_BY, (int)i, "" };
		if (x < g->column_x[0] + g->column_w[0])
			a = (struct ui_action){ UA_SORT_BY, -1, "" };
		return a;
	}
	const struct rect *b = &g->body;
	if (y < b->y || y >= b->y + b->h || x < b->x || x >= b->x + b->w)
		return a;
	int idx = g->top + (y - b->y);
	if (idx < 0 || idx >= (int)f->nrows)
		return a;
	a.kind = UA_SELECT;
	snprintf(a.name, sizeof a.name, "%s", f->rows[idx].dev->name);
	return a;
}

const struct pane_def pane_table = {
	.name = "table",
	.slot = SLOT_TABLE,
	.place = table_place,
	.draw = table_draw,
	.click = table_click,
};
