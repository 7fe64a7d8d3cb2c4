/* column_chooser.c - F2: tick the device table's columns.  Columns already shown
 * keep their order; a newly ticked one goes to its place in the figure table's order
 * (device_figures, include/figures.h), before the first shown column that comes after
 * it there: taken off and ticked again, a column is back where it was. */
#include <ncurses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console_state.h"

struct chooser {
	bool on[COLUMNS_MAX];
	size_t current, top;
};

static void chooser_draw(const struct console *c, void *state)
{
	struct chooser *ch = state;
	int w = COLS - 4 > 76 ? 76 : COLS - 4, h = LINES - 4;
	if ((int)device_figures_count + 2 < h)
		h = (int)device_figures_count + 2;
	if (w < 20 || h < 4)
		return;
	struct rect r = { (LINES - h) / 2, (COLS - w) / 2, h, w };
	ui_box(&c->style, &r, "Columns - Space ticks, Enter applies, Esc cancels");
	int rows = r.h - 2;
	console_list_scroll(ch->current, &ch->top, rows);
	for (int i = 0; i < rows && ch->top + (size_t)i < device_figures_count; i++) {
		size_t idx = ch->top + (size_t)i;
		unsigned long a = ui_attr(&c->style, idx == ch->current ? TR_SELECTED : TR_NORMAL);
		ui_fill(r.y + 1 + i, r.x + 1, r.w - 2, a);
		ui_putf(r.y + 1 + i, r.x + 2, r.w - 4, a, "[%c] %-10s %s", ch->on[idx] ? 'x' : ' ',
			device_figures[idx].key, device_figures[idx].help);
	}
}

static size_t def_index(const struct device_figure *d)
{
	return (size_t)(d - device_figures);
}

static void chooser_apply(struct console *c, const struct chooser *ch)
{
	const struct device_figure *cols[COLUMNS_MAX];
	size_t n = 0;
	bool taken[COLUMNS_MAX] = { false };
	for (size_t i = 0; i < c->ncolumns; i++) {
		size_t d = def_index(c->columns[i]);
		if (ch->on[d]) {
			cols[n++] = c->columns[i];
			taken[d] = true;
		}
	}
	for (size_t d = 0; d < device_figures_count && n < COLUMNS_MAX; d++) {
		if (!ch->on[d] || taken[d])
			continue;
		size_t at = 0;
		while (at < n && def_index(cols[at]) < d)
			at++;
		memmove(&cols[at + 1], &cols[at], (n - at) * sizeof *cols);
		cols[at] = &device_figures[d];
		n++;
	}
	if (n == 0) {
		console_message(c, true, "at least one column, please");
		return;
	}
	memcpy(c->columns, cols, n * sizeof *cols);
	c->ncolumns = n;
	c->need_redraw = true;
}

static bool chooser_key(struct console *c, void *state, int key)
{
	struct chooser *ch = state;
	switch (key) {
	case KEYC_ESC:
	case 'q':
		return false;
	case '\n':
	case '\r':
	case KC(KEY_ENTER):
		chooser_apply(c, ch);
		return false;
	case ' ':
		ch->on[ch->current] = !ch->on[ch->current];
		return true;
	default:
		console_list_move(&ch->current, device_figures_count, key);
		return true;
	}
}

static const struct modal_ops chooser_ops = { .draw = chooser_draw, .key = chooser_key, .free = free };

int column_chooser_open(struct console *c)
{
	struct chooser *ch = calloc(1, sizeof *ch);
	if (!ch)
		return -1;
	for (size_t i = 0; i < c->ncolumns; i++)
		ch->on[def_index(c->columns[i])] = true;
	return console_modal_open(c, &chooser_ops, ch);
}
