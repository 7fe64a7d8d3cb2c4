/* layout.c - where the panes go for a terminal size.
 *
 * Header and vmstat strip on top, key bar at the bottom.  Wide terminals get a
 * side column (detail over marks) beside the table and graphs; narrow ones stack
 * table, detail (only when there is room, or when zoomed in place of the graphs),
 * graphs, marks.  Below 80x24 nothing but a message.
 */
#include <string.h>

#include "layout.h"

#define WIDE_COLS 130

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static struct rect rect(int y, int x, int h, int w)
{
	struct rect r = { y, x, h, w };
	return r;
}

static int table_height(const struct layout_want *w, int body, int share)
{
	int want = w->table_rows + 1;
	int cap = body * share / 100;
	if (cap < 4)
		cap = 4;
	return clamp(want, 2, cap);
}

static void layout_wide(struct layout *l, const struct layout_want *w, int top, int body)
{
	int side_w = clamp(w->cols * 36 / 100, 48, 72);
	int main_w = w->cols - side_w - 1;
	int side_x = main_w + 1;
	int th = table_height(w, body, 40);
	l->table = rect(top, 0, th, main_w);
	if (w->detail_zoom) {
		/* the detail pane takes the graphs' place; the marks get the side column */
		l->detail = rect(top + th, 0, body - th, main_w);
		l->marks = rect(top, side_x, body, side_w);
		return;
	}
	l->graphs = rect(top + th, 0, body - th, main_w);
	int dh = w->show_marks ? body * 55 / 100 : body;
	l->detail = rect(top, side_x, dh, side_w);
	if (dh < body)
		l->marks = rect(top + dh, side_x, body - dh, side_w);
}

static void layout_narrow(struct layout *l, const struct layout_want *w, int top, int body)
{
	int th = table_height(w, body, 30);
	int mh = w->show_marks ? (body >= 36 ? 7 : 4) : 0;
	int rest = body - th - mh;
	int y = top;
	l->table = rect(y, 0, th, w->cols);
	y += th;
	if (w->detail_zoom) {
		l->detail = rect(y, 0, rest, w->cols);
	} else if (rest >= 26) {
		/* as many rows as it fills (11 when not known), the graphs keeping 16 */
		int dh = clamp(w->detail_rows > 0 ? w->detail_rows : 11, 6, rest - 16);
		l->detail = rect(y, 0, dh, w->cols);
		l->graphs = rect(y + dh, 0, rest - dh, w->cols);
	} else {
		l->graphs = rect(y, 0, rest, w->cols);
	}
	y += rest;
	if (mh)
		l->marks = rect(y, 0, mh, w->cols);
}

void layout_compute(struct layout *l, const struct layout_want *w)
{
	memset(l, 0, sizeof *l);
	if (w->lines < CONSOLE_MIN_LINES || w->cols < CONSOLE_MIN_COLS) {
		l->too_small = true;
		return;
	}
	l->header = rect(0, 0, 1, w->cols);
	l->strip = rect(1, 0, 1, w->cols);
	l->footer = rect(w->lines - 1, 0, 1, w->cols);
	int top = 2, body = w->lines - 3;
	if (w->cols >= WIDE_COLS)
		layout_wide(l, w, top, body);
	else
		layout_narrow(l, w, top, body);
}

const struct rect *layout_slot(const struct layout *l, enum layout_slot slot)
{
	const struct rect *const slots[SLOT_COUNT] = {
		[SLOT_HEADER] = &l->header, [SLOT_STRIP] = &l->strip, [SLOT_TABLE] = &l->table,
		[SLOT_DETAIL] = &l->detail, [SLOT_GRAPHS] = &l->graphs, [SLOT_MARKS] = &l->marks,
		[SLOT_FOOTER] = &l->footer,
	};
	return slots[slot];
}
