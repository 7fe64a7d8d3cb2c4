/* table.c - the device table: chosen columns, sorted rows, partitions folded under
 * their disk, the selected row, figures coloured by load. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "console.h"

#define DEVICE_W_MIN 6
#define DEVICE_W_MAX 20

static bool is_pinned(const struct console *c, const char *name)
{
	for (size_t i = 0; i < c->npins; i++)
		if (strcmp(c->pins[i], name) == 0)
			return true;
	return false;
}

static int device_width(const struct console *c)
{
	int w = DEVICE_W_MIN;
	for (size_t i = 0; i < c->nrows; i++) {
		int n = ui_text_width(c->rows[i].dev->name) + (c->rows[i].partition ? 1 : 0) + 1;
		if (n > w)
			w = n;
	}
	return w > DEVICE_W_MAX ? DEVICE_W_MAX : w;
}

/* Which columns fit: the device column shrinks first, then columns drop from the end. */
static void place_columns(struct console *c, const struct rect *r)
{
	int dw = device_width(c), need = 0;
	for (size_t i = 0; i < c->ncolumns; i++)
		need += c->columns[i]->width + 1;
	if (dw + need > r->w)
		dw = dw - (dw + need - r->w) < DEVICE_W_MIN ? DEVICE_W_MIN : dw - (dw + need - r->w);
	c->column_x[0] = r->x;
	c->column_w[0] = dw;
	int x = r->x + dw;
	size_t n = 0;
	for (size_t i = 0; i < c->ncolumns; i++) {
		int w = c->columns[i]->width;
		if (x + 1 + w > r->x + r->w)
			break;
		c->column_x[n + 1] = x + 1;
		c->column_w[n + 1] = w;
		x += 1 + w;
		n++;
	}
	c->ncolumns_shown = n;
}

static bool left_aligned(const struct column_def *col)
{
	return col->kind == COLUMN_SCHEDULER;
}

static void put_cell(int y, int x, int w, unsigned long attr, const char *text, bool left)
{
	int tw = ui_text_width(text);
	if (tw > w)
		tw = w;
	ui_put(y, left ? x : x + w - tw, w, attr, text);
}

static void draw_header(const struct console *c, const struct rect *r)
{
	unsigned long hdr = ui_attr(c, TR_TABLE_HEADER);
	ui_fill(r->y, r->x, r->w, hdr);
	put_cell(r->y, c->column_x[0], c->column_w[0], c->sort ? hdr : ui_attr(c, TR_SORTED), "Device", true);
	for (size_t i = 0; i < c->ncolumns_shown; i++) {
		const struct column_def *col = c->columns[i];
		unsigned long a = col == c->sort ? ui_attr(c, TR_SORTED) : hdr;
		put_cell(r->y, c->column_x[i + 1], c->column_w[i + 1], a, col->header, left_aligned(col));
	}
}

static enum theme_role load_role(const struct console *c, const struct column_def *col, double v)
{
	if (col->load == LOAD_NONE || isnan(v) || v <= 0)
		return TR_NORMAL;
	double warn = col->load == LOAD_UTIL ? c->cfg.util_warn : c->cfg.await_warn;
	double crit = col->load == LOAD_UTIL ? c->cfg.util_crit : c->cfg.await_crit;
	return v >= crit ? TR_LOAD_HIGH : v >= warn ? TR_LOAD_MID : TR_LOAD_LOW;
}

static void draw_row(const struct console *c, const struct table_row *row, int y, bool selected)
{
	unsigned long sel = ui_attr(c, TR_SELECTED);
	const struct rect *body = &c->table_body;
	ui_fill(y, body->x, body->w, selected ? sel : ui_attr(c, TR_NORMAL));
	char name[DEV_NAME_MAX + 8];
	snprintf(name, sizeof name, "%s%s%s", row->partition ? (c->utf8 ? "└" : "`") : "",
		 row->dev->name, is_pinned(c, row->dev->name) ? "*" : "");
	unsigned long name_attr = selected ? sel : ui_attr(c, row->partition ? TR_PARTITION : TR_NORMAL);
	put_cell(y, c->column_x[0], c->column_w[0], name_attr, name, true);
	char buf[64];
	for (size_t i = 0; i < c->ncolumns_shown; i++) {
		const struct column_def *col = c->columns[i];
		double v = NAN;
		if (col->kind == COLUMN_SCHEDULER) {
			const char *s = row->dev->settings.scheduler;
			snprintf(buf, sizeof buf, "%s", row->partition ? "" : s[0] ? s : "-");
		} else if (row->rates) {
			column_format(col, row->rates, buf, sizeof buf);
			v = column_value(col, row->rates);
		} else if (col->kind == COLUMN_IN_FLIGHT) {
			/* a gauge: known from the first sample on */
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)row->dev->counters.in_flight);
		} else {
			snprintf(buf, sizeof buf, "-");
		}
		unsigned long a = selected ? sel : ui_attr(c, load_role(c, col, v));
		put_cell(y, c->column_x[i + 1], c->column_w[i + 1], a, buf, left_aligned(col));
	}
}

static int selected_row(const struct console *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].dev->name, c->selected) == 0)
			return (int)i;
	return -1;
}

void table_place(struct console *c, const struct rect *r)
{
	place_columns(c, r);
	c->table_header_y = r->y;
	c->table_body = (struct rect){ r->y + 1, r->x, r->h - 1, r->w };
	int visible = r->h - 1;
	int sel = selected_row(c);
	if (sel >= 0 && sel < c->table_top)
		c->table_top = sel;
	if (sel >= c->table_top + visible)
		c->table_top = sel - visible + 1;
	if (c->table_top > (int)c->nrows - visible)
		c->table_top = (int)c->nrows - visible;
	if (c->table_top < 0)
		c->table_top = 0;
}

void table_draw(const struct console *c, const struct rect *r)
{
	draw_header(c, r);
	int visible = r->h - 1;
	int sel = selected_row(c);
	for (int i = 0; i < visible; i++) {
		int idx = c->table_top + i;
		if (idx >= (int)c->nrows) {
			if (i == 0 && c->nrows == 0)
				ui_put(r->y + 1, r->x + 1, r->w - 2, ui_attr(c, TR_DIM),
				       c->filter[0] ? "no device matches the filter (/ to change it)"
						    : "no devices");
			continue;
		}
		draw_row(c, &c->rows[idx], r->y + 1 + i, idx == sel);
	}
}

bool table_click(struct console *c, int y, int x)
{
	if (y == c->table_header_y && c->layout.table.h) {
		for (size_t i = 0; i < c->ncolumns_shown; i++) {
			if (x < c->column_x[i + 1] || x >= c->column_x[i + 1] + c->column_w[i + 1])
				continue;
			if (c->sort == c->columns[i])
				c->sort_ascending = !c->sort_ascending;
			c->sort = c->columns[i];
			c->need_redraw = true;
			return true;
		}
		if (x < c->column_x[0] + c->column_w[0]) {
			c->sort = NULL;
			c->need_redraw = true;
			return true;
		}
		return false;
	}
	const struct rect *b = &c->table_body;
	if (y < b->y || y >= b->y + b->h || x < b->x || x >= b->x + b->w)
		return false;
	int idx = c->table_top + (y - b->y);
	if (idx < 0 || idx >= (int)c->nrows)
		return false;
	console_select(c, c->rows[idx].dev->name, true);
	return true;
}
