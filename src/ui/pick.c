/* pick.c - choose one item of a list in a box (the control area's scheduler
 * picker and the like). */
#include <ncurses.h>
#include <stdlib.h>
#include <string.h>

#include "console.h"

struct pick {
	char title[128];
	char **items;
	size_t n, current, top;
	pick_done_fn done;
	void *arg;
};

static struct rect pick_box(const struct console *c, const struct pick *p)
{
	int w = ui_text_width(p->title) + 8;
	for (size_t i = 0; i < p->n; i++) {
		int iw = ui_text_width(p->items[i]) + 6;
		if (iw > w)
			w = iw;
	}
	int maxw = COLS - 4, maxh = LINES - 4;
	if (w > maxw)
		w = maxw;
	int h = (int)p->n + 2;
	if (h > maxh)
		h = maxh;
	(void)c;
	return (struct rect){ (LINES - h) / 2, (COLS - w) / 2, h, w };
}

static void pick_draw(const struct console *c, void *state)
{
	struct pick *p = state;
	if (c->layout.too_small)
		return;
	struct rect r = pick_box(c, p);
	ui_box(c, &r, p->title);
	int rows = r.h - 2;
	console_list_scroll(p->current, &p->top, rows);
	for (int i = 0; i < rows && p->top + (size_t)i < p->n; i++) {
		size_t idx = p->top + (size_t)i;
		unsigned long a = ui_attr(c, idx == p->current ? TR_SELECTED : TR_NORMAL);
		ui_fill(r.y + 1 + i, r.x + 1, r.w - 2, a);
		ui_put(r.y + 1 + i, r.x + 2, r.w - 4, a, p->items[idx]);
	}
}

static bool pick_key(struct console *c, void *state, int key)
{
	struct pick *p = state;
	switch (key) {
	case KEYC_ESC:
	case 'q':
		return false;
	case '\n':
	case '\r':
	case KC(KEY_ENTER):
		if (p->n)
			p->done(c, p->current, p->arg);
		return false;
	default:
		console_list_move(&p->current, p->n, key);
		return true;
	}
}

static void pick_free(void *state)
{
	struct pick *p = state;
	for (size_t i = 0; i < p->n; i++)
		free(p->items[i]);
	free(p->items);
	free(p);
}

static const struct modal_ops pick_ops = { .draw = pick_draw, .key = pick_key, .free = pick_free };

int console_pick(struct console *c, const char *title, const char *const *items, size_t n,
		 size_t current, pick_done_fn done, void *arg)
{
	struct pick *p = calloc(1, sizeof *p);
	if (!p)
		return -1;
	p->items = calloc(n ? n : 1, sizeof *p->items);
	if (!p->items) {
		free(p);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		p->items[i] = strdup(items[i]);
		if (!p->items[i]) {
			p->n = i;
			pick_free(p);
			return -1;
		}
	}
	snprintf(p->title, sizeof p->title, "%s", title);
	p->n = n;
	p->current = current < n ? current : 0;
	p->done = done;
	p->arg = arg;
	return console_modal_open(c, &pick_ops, p);
}
