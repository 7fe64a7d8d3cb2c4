/* marks.c - the marks panel: the graphs' legend.  Every event, newest first, with its
 * number, time, object and old -> new value (and what a scheduler switch reset); a row
 * that does not fit ends with an ellipsis.  It scrolls to keep the selected mark
 * (mark_select.c) in view. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pane.h"

#define SPANS_MAX 12

/* A row as pieces of text in their colours, cut as a whole: what does not fit is
 * replaced by "…" ("..." without UTF-8), never dropped silently. */
struct row_text {
	struct {
		unsigned long attr;
		const char *text;
	} span[SPANS_MAX];
	int n;
};

static void add(struct row_text *t, unsigned long attr, const char *text)
{
	if (t->n < SPANS_MAX)
		t->span[t->n++] = (typeof(t->span[0])){ attr, text };
}

static void put_row(const struct frame *f, const struct row_text *t, int y, int x, int w)
{
	const char *dots = ui_sym(&f->style, "…", "...");
	int total = 0, limit = w;
	for (int i = 0; i < t->n; i++)
		total += ui_text_width(t->span[i].text);
	if (total > w)
		limit = w - ui_text_width(dots);
	int used = 0;
	for (int i = 0; i < t->n && used < limit; i++)
		used += ui_put(y, x + used, limit - used, t->span[i].attr, t->span[i].text);
	if (total > w && limit >= 0)
		ui_put(y, x + used, w - used, t->n ? t->span[t->n - 1].attr : 0, dots);
}

/* A change's key as the rest of the console says it: the detail pane's "mount flags" and
 * "fs options" for a mount's options; "" when it only repeats the object ("trace  trace
 * off → on" reads "trace  off → on"). */
static const char *key_text(const struct history_mark *m)
{
	if (strcmp(m->key, "mount_opts") == 0)
		return "mount flags";
	if (strcmp(m->key, "super_opts") == 0)
		return "fs options";
	return strcmp(m->key, m->object) == 0 ? "" : m->key;
}

/* The object in what the row leaves it, `rest` cells being the others': a long mount
 * point keeps its start and end around "…" (as the detail pane says it), so that the
 * change after it stays in view. */
static void object_text(const struct frame *f, const struct history_mark *m, int width, int rest,
			char *out, size_t len)
{
	int room = width - rest;
	ui_ellipsize_middle(&f->style, m->object, room > 10 ? room : 10, out, len);
}

/* The selected mark's row is drawn in the selection's colours. */
static unsigned long span_attr(const struct frame *f, bool selected, enum theme_role role)
{
	return ui_attr(&f->style, selected ? TR_SELECTED : role);
}

/* A dip says its first reason on its line, not only once selected: "throughput 5180 → 261
 * MB/s: 2 s after nr_requests 256→4" (its label is "dip 5180→261 MB/s: REASON; REASON"). */
static void append_dip_reason(const char *label, char *change, size_t len)
{
	const char *reasons = strstr(label, " MB/s: ");
	size_t used = strlen(change);
	if (reasons)
		snprintf(change + used, len - used, " MB/s: %.*s", (int)strcspn(reasons + 7, ";"),
			 reasons + 7);
}

/* A mark whose label says it better than its old and new values: a refused change (what
 * was tried, and the kernel's words), a loop device's file (attached, with its flags),
 * a device added or removed, a remount of both the mount flags and the fs options
 * ("remount +ro -rw": each option once, not both columns' lists). */
static bool says_itself(const struct history_mark *m)
{
	return m->refused || m->both_columns || m->kind == EVENT_LOOP_BACKING ||
	       m->kind == EVENT_DEVICE_ADDED || m->kind == EVENT_DEVICE_REMOVED;
}

static void draw_mark(const struct frame *f, size_t i, int y, const struct rect *r)
{
	const struct history_mark *m = history_mark_get(f->hist, i);
	uint64_t number = history_mark_number(f->hist, i);
	bool selected = number == f->mark_selected;
	char num[32], when[16], change[MOUNT_OPTS_MAX * 2 + 16], object[MOUNT_PATH_MAX];
	struct tm tm;
	time_t t = m->wall.tv_sec;
	if (!localtime_r(&t, &tm) || !strftime(when, sizeof when, "%H:%M:%S", &tm))
		snprintf(when, sizeof when, "--:--:--");
	snprintf(num, sizeof num, "[%llu] ", (unsigned long long)number);
	enum theme_role role = m->kind == EVENT_USER_MARK ? TR_MARK_USER : TR_MARK;
	if (selected)
		ui_fill(y, r->x, r->w, span_attr(f, true, TR_NORMAL));
	struct row_text row = { .n = 0 };
	/* the number the graphs show beside the mark's line: this panel is their legend */
	add(&row, span_attr(f, selected, role), num);
	add(&row, span_attr(f, selected, TR_DIM), when);
	add(&row, span_attr(f, selected, TR_NORMAL), "  ");
	if (m->kind == EVENT_USER_MARK) {
		add(&row, span_attr(f, selected, role), "mark  ");
		add(&row, span_attr(f, selected, TR_HEADER_VALUE), m->new_value);
	} else if (says_itself(m)) {
		/* "loop0  nr_requests 64→99999: refused: Invalid argument", "/mnt  remount
		 * +nobarrier: refused: xfs: ...", "loop7  attached /a.img (dio 0, ro 0, 64 MiB)" */
		ui_text_for_terminal(&f->style, m->label, change, sizeof change);
		int rest = ui_text_width(num) + ui_text_width(when) + 4 + ui_text_width(change) +
			   (strcmp(m->by, "ioscope") == 0 ? 14 : 0);   /* "  (by ioscope)" */
		object_text(f, m, r->w - 2, rest, object, sizeof object);
		add(&row, span_attr(f, selected, TR_HEADER_VALUE), object);
		add(&row, span_attr(f, selected, TR_NORMAL), "  ");
		add(&row, span_attr(f, selected, role), change);
		if (strcmp(m->by, "ioscope") == 0)
			add(&row, span_attr(f, selected, TR_DIM), "  (by ioscope)");
	} else {
		snprintf(change, sizeof change, "%s %s %s", m->old_value[0] ? m->old_value : "-",
			 ui_sym(&f->style, "→", "->"), m->new_value[0] ? m->new_value : "-");
		if (m->kind == EVENT_DIP)
			append_dip_reason(m->label, change, sizeof change);
		const char *key = key_text(m);
		int rest = ui_text_width(num) + ui_text_width(when) + 4 + ui_text_width(key) +
			   (key[0] ? 2 : 0) + ui_text_width(change) +
			   (strcmp(m->by, "ioscope") == 0 ? 14 : 0);   /* "  (by ioscope)" */
		object_text(f, m, r->w - 2, rest, object, sizeof object);
		add(&row, span_attr(f, selected, TR_HEADER_VALUE), object);
		add(&row, span_attr(f, selected, TR_NORMAL), "  ");
		if (key[0]) {
			add(&row, span_attr(f, selected, role), key);
			add(&row, span_attr(f, selected, TR_NORMAL), "  ");
		}
		add(&row, span_attr(f, selected, TR_NORMAL), change);
		if (strcmp(m->by, "ioscope") == 0)
			add(&row, span_attr(f, selected, TR_DIM), "  (by ioscope)");
		/* the graphs' label says what changed; what a switch reset is said here */
		if (m->resets[0]) {
			add(&row, span_attr(f, selected, TR_DIM), "  reset ");
			add(&row, span_attr(f, selected, TR_DIM), m->resets);
		}
	}
	put_row(f, &row, y, r->x + 1, r->w - 2);
}

/* The shown mark on row `row` of the list (0: the newest), -1 when none. */
static long mark_at_row(const struct frame *f, size_t row)
{
	for (size_t i = history_mark_count(f->hist); i > 0; i--) {
		if (!frame_mark_shown(f, history_mark_get(f->hist, i - 1)))
			continue;
		if (row-- == 0)
			return (long)(i - 1);
	}
	return -1;
}

/* Scrolled so that the selected mark is on screen, and no further than the last mark. */
static void marks_place(struct frame *f, const struct rect *r)
{
	int rows = r->h - 1, shown = (int)frame_marks_shown(f);
	long sel = frame_mark_index(f, f->mark_selected);
	if (sel >= 0) {
		int row = (int)frame_mark_row(f, (size_t)sel);
		if (row < f->marks_top)
			f->marks_top = row;
		if (row >= f->marks_top + rows)
			f->marks_top = row - rows + 1;
	}
	if (f->marks_top > shown - rows)
		f->marks_top = shown - rows;
	if (f->marks_top < 0)
		f->marks_top = 0;
}

static void marks_title(const struct frame *f, const struct rect *r, size_t shown)
{
	size_t n = history_mark_count(f->hist);
	int rows = r->h - 1;
	char title[96], range[48] = "";
	if (shown > (size_t)rows && rows > 0)
		snprintf(range, sizeof range, ", rows %d-%zu", f->marks_top + 1,
			 (size_t)f->marks_top + (size_t)rows < shown ? (size_t)(f->marks_top + rows) : shown);
	if (shown == n)
		snprintf(title, sizeof title, "Marks (%zu%s)", n, range);
	else
		snprintf(title, sizeof title, "Marks (%zu of %zu: the devices shown%s)", shown, n, range);
	ui_title(&f->style, r, title, "( ) select  m add  e hide");
}

static void marks_draw(const struct frame *f, const struct rect *r)
{
	size_t shown = frame_marks_shown(f);
	for (int y = r->y; y < r->y + r->h; y++)
		ui_fill(y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	marks_title(f, r, shown);
	if (shown == 0) {
		ui_put_ellipsis(&f->style, r->y + 1, r->x + 1, r->w - 2, ui_attr(&f->style, TR_DIM),
				"no events yet: scheduler, tunable, write cache, mount changes and marks show here");
		return;
	}
	/* one walk down the list: a day's session may hold thousands of marks */
	int row = -f->marks_top;
	for (size_t i = history_mark_count(f->hist); i > 0 && row < r->h - 1; i--) {
		if (!frame_mark_shown(f, history_mark_get(f->hist, i - 1)))
			continue;
		if (row >= 0)
			draw_mark(f, i - 1, r->y + 1 + row, r);
		row++;
	}
}

/* A click on a mark's row selects it. */
static struct ui_action marks_click(const struct frame *f, const struct rect *r, int y, int x)
{
	(void)x;
	struct ui_action a = { UA_NONE, 0, "" };
	long i = y > r->y ? mark_at_row(f, (size_t)(f->marks_top + y - r->y - 1)) : -1;
	uint64_t number = i >= 0 ? history_mark_number(f->hist, (size_t)i) : 0;
	if (i >= 0 && number <= INT32_MAX)
		a = (struct ui_action){ UA_MARK_SELECT, (int)number, "" };
	return a;
}

/* The wheel walks the selection down (older) and up (newer) the list. */
static struct ui_action marks_wheel(const struct frame *f, const struct rect *r, int dir)
{
	(void)f;
	(void)r;
	return (struct ui_action){ UA_MARK_STEP, dir, "" };
}

const struct pane_def pane_marks = {
	.name = "marks",
	.slot = SLOT_MARKS,
	.place = marks_place,
	.draw = marks_draw,
	.click = marks_click,
	.wheel = marks_wheel,
};
