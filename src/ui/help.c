/* help.c - the help screen: every key of the key table by section, the mouse,
 * and where themes and the config file are looked for.  The box takes the terminal's
 * width (up to HELP_COLS_MAX); a line wider than it goes on under its text, indented. */
#include <ncurses.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console_state.h"

#define HELP_LINES_MAX 128
#define HELP_COLS_MAX 160
#define HELP_INDENT 17   /* "  " and the key names' 14 columns and a space */

struct help {
	char *lines[HELP_LINES_MAX];
	bool heading[HELP_LINES_MAX];
	size_t n;
	size_t top;     /* the first screen row shown, of the wrapped lines */
	int rows;       /* rows the box showed last: a page */
};

/* Bytes of s that fill at most w cells, cut after a space when the rest does not fit. */
static size_t wrap_at(const char *s, int w)
{
	size_t i = 0, space = 0;
	int cells = 0;
	while (s[i]) {
		if (((unsigned char)s[i] & 0xC0) != 0x80) {   /* a character starts */
			if (cells == w)
				return space ? space : i;
			cells++;
			if (s[i] == ' ')
				space = i + 1;
		}
		i++;
	}
	return i;
}

/* The screen rows of line i at a text width of w: its pieces' offsets into offs (up to
 * max); how many. */
static size_t line_rows(const struct help *h, size_t i, int w, size_t *offs, size_t max)
{
	const char *s = h->lines[i];
	size_t n = 0, at = 0, len = strlen(s);
	do {
		int room = n ? w - HELP_INDENT : w;
		if (room < 8)
			room = w;   /* too narrow to indent */
		if (n < max)
			offs[n] = at;
		n++;
		size_t k = wrap_at(s + at, room);
		at += k ? k : len - at;
	} while (at < len);
	return n;
}

static void add(struct help *h, bool heading, const char *fmt, const char *a, const char *b)
{
	if (h->n == HELP_LINES_MAX)
		return;
	char buf[512];
	snprintf(buf, sizeof buf, fmt, a, b);
	h->lines[h->n] = strdup(buf);
	if (h->lines[h->n])
		h->heading[h->n++] = heading;
}

static void help_fill(const struct console *c, struct help *h)
{
	size_t nsections;
	const char *const *sections = console_binding_sections(&nsections);
	for (size_t s = 0; s < nsections; s++) {
		add(h, true, "%s%s", sections[s], "");
		for (size_t i = 0; i < console_bindings_count; i++) {
			const struct console_binding *b = &console_bindings[i];
			if (strcmp(b->section, sections[s]) != 0)
				continue;
			if ((b->flags & KEYF_CONTROL) && !console_controls_enabled(c))
				add(h, false, "  %-14s %s (disabled in a replay)", b->names, b->help);
			else
				add(h, false, "  %-14s %s", b->names, b->help);
		}
		add(h, false, "%s%s", "", "");
	}
	add(h, true, "%s%s", "Mouse", "");
	add(h, false, "  %-14s %s", "click", "a device row selects it; a column header sorts by it; "
	    "a mark's line in the marks panel selects it");
	add(h, false, "  %-14s %s", "wheel", "moves the selection (over the marks panel: the mark's)");
	add(h, false, "%s%s", "", "");
	char path[4096];
	console_config_path(path, sizeof path);
	add(h, true, "%s%s", "Files", "");
	add(h, false, "  config         %s%s", path, "");
	char dirs[4][THEME_PATH_MAX];
	size_t nd = theme_search_dirs(dirs, 4);
	for (size_t i = 0; i < nd; i++)
		add(h, false, "  %-14s %s", i == 0 ? "themes" : "", dirs[i]);
	add(h, false, "  %-14s %s", "", "(see ioscope(1), CONSOLE and THEMES)");
}

static void help_draw(const struct console *c, void *state)
{
	struct help *h = state;
	int w = COLS - 4 > HELP_COLS_MAX ? HELP_COLS_MAX : COLS - 4, hh = LINES - 2;
	if (w < 20 || hh < 5)
		return;
	struct rect r = { 1, (COLS - w) / 2, hh, w };
	ui_box(&c->style, &r, "Help - Esc, q or ? closes; arrows, PgUp/PgDn, Home/End scroll");
	int rows = r.h - 2, tw = r.w - 4;
	h->rows = rows;
	size_t total = 0, offs[32];
	for (size_t i = 0; i < h->n; i++)
		total += line_rows(h, i, tw, offs, 32);
	if (h->top + (size_t)rows > total)
		h->top = total > (size_t)rows ? total - (size_t)rows : 0;
	size_t row = 0;
	for (size_t i = 0; i < h->n && row < h->top + (size_t)rows; i++) {
		size_t k = line_rows(h, i, tw, offs, 32);
		unsigned long a = ui_attr(&c->style, h->heading[i] ? TR_TITLE : TR_NORMAL);
		for (size_t j = 0; j < k; j++, row++) {
			if (row < h->top || row >= h->top + (size_t)rows)
				continue;
			const char *piece = h->lines[i] + (j < 32 ? offs[j] : strlen(h->lines[i]));
			size_t len = j + 1 < k && j + 1 < 32 ? offs[j + 1] - offs[j] : strlen(piece);
			char buf[512];
			snprintf(buf, sizeof buf, "%.*s", (int)len, piece);
			int indent = j && tw - HELP_INDENT >= 8 ? HELP_INDENT : 0;
			ui_put_ellipsis(&c->style, r.y + 1 + (int)(row - h->top), r.x + 2 + indent,
					tw - indent, a, buf);
		}
	}
}

static int page(const struct help *h)
{
	return h->rows > 2 ? h->rows - 1 : 1;
}

static bool help_key(struct console *c, void *state, int key)
{
	struct help *h = state;
	(void)c;
	switch (key) {
	case KC(KEY_UP):
	case 'k':
		if (h->top)
			h->top--;
		return true;
	case KC(KEY_DOWN):
	case 'j':
		h->top++;   /* drawing stops at the last page */
		return true;
	case KC(KEY_PPAGE):
		h->top = h->top > (size_t)page(h) ? h->top - (size_t)page(h) : 0;
		return true;
	case KC(KEY_NPAGE):
	case ' ':
		h->top += (size_t)page(h);
		return true;
	case KC(KEY_HOME):
		h->top = 0;
		return true;
	case KC(KEY_END):
		h->top = SIZE_MAX / 2;   /* drawing stops at the last page */
		return true;
	default:
		return false;   /* Esc, q, ? and anything else close it */
	}
}

static void help_free(void *state)
{
	struct help *h = state;
	for (size_t i = 0; i < h->n; i++)
		free(h->lines[i]);
	free(h);
}

static const struct modal_ops help_ops = { .draw = help_draw, .key = help_key, .free = help_free };

int help_open(struct console *c)
{
	struct help *h = calloc(1, sizeof *h);
	if (!h)
		return -1;
	help_fill(c, h);
	return console_modal_open(c, &help_ops, h);
}
