/* marks.c - the marks panel: every event, newest first, with its time, object,
 * and old -> new value. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pane.h"

static void draw_mark(const struct frame *f, size_t i, int y, const struct rect *r)
{
	const struct history_mark *m = history_mark_get(f->hist, i);
	char when[16], buf[MOUNT_OPTS_MAX * 2 + 16];
	struct tm tm;
	time_t t = m->wall.tv_sec;
	if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%H:%M:%S", &tm))
		snprintf(when, sizeof when, "--:--:--");
	int x = r->x + 1, end = r->x + r->w - 1;
	enum theme_role role = m->kind == EVENT_USER_MARK ? TR_MARK_USER : TR_MARK;
	/* the number the graphs show beside the mark's line: this panel is their legend */
	x += ui_putf(y, x, end - x, ui_attr(&f->style, role), "[%llu] ",
		     (unsigned long long)history_mark_number(f->hist, i));
	x += ui_put(y, x, end - x, ui_attr(&f->style, TR_DIM), when);
	x += ui_put(y, x, end - x, ui_attr(&f->style, TR_NORMAL), "  ");
	if (m->kind == EVENT_USER_MARK) {
		x += ui_put(y, x, end - x, ui_attr(&f->style, role), "mark  ");
		ui_put(y, x, end - x, ui_attr(&f->style, TR_HEADER_VALUE), m->new_value);
		return;
	}
	x += ui_put(y, x, end - x, ui_attr(&f->style, TR_HEADER_VALUE), m->object);
	x += ui_put(y, x, end - x, ui_attr(&f->style, TR_NORMAL), "  ");
	x += ui_put(y, x, end - x, ui_attr(&f->style, role), m->key);
	x += ui_put(y, x, end - x, ui_attr(&f->style, TR_NORMAL), "  ");
	snprintf(buf, sizeof buf, "%s %s %s", m->old_value[0] ? m->old_value : "-",
		 ui_sym(&f->style, "→", "->"), m->new_value[0] ? m->new_value : "-");
	x += ui_put(y, x, end - x, ui_attr(&f->style, TR_NORMAL), buf);
	if (strcmp(m->by, "ioscope") == 0)
		ui_put(y, x, end - x, ui_attr(&f->style, TR_DIM), "  (by ioscope)");
}

static void marks_draw(const struct frame *f, const struct rect *r)
{
	size_t n = history_mark_count(f->hist), shown = 0;
	for (size_t i = 0; i < n; i++)
		shown += frame_mark_shown(f, history_mark_get(f->hist, i));
	char title[64];
	if (shown == n)
		snprintf(title, sizeof title, "Marks (%zu)", n);
	else
		snprintf(title, sizeof title, "Marks (%zu of %zu: the devices shown)", shown, n);
	for (int y = r->y; y < r->y + r->h; y++)
		ui_fill(y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	ui_title(&f->style, r, title, "m add  e hide");
	int rows = r->h - 1;
	if (shown == 0) {
		ui_put(r->y + 1, r->x + 1, r->w - 2, ui_attr(&f->style, TR_DIM),
		       "no events yet: scheduler, tunable, write cache, mount changes and marks show here");
		return;
	}
	int y = r->y + 1;
	for (size_t i = n; i > 0 && y < r->y + 1 + rows; i--) {
		const struct history_mark *m = history_mark_get(f->hist, i - 1);
		if (frame_mark_shown(f, m))
			draw_mark(f, i - 1, y++, r);
	}
}

const struct pane_def pane_marks = {
	.name = "marks",
	.slot = SLOT_MARKS,
	.draw = marks_draw,
};
