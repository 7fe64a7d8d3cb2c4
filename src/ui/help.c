/* help.c - the help screen: every key of the key table by section, the mouse,
 * and where themes and the config file are looked for. */
#include <ncurses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console_state.h"

#define HELP_LINES_MAX 128

struct help {
	char *lines[HELP_LINES_MAX];
	bool heading[HELP_LINES_MAX];
	size_t n, top;
};

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
	int w = COLS - 4 > 100 ? 100 : COLS - 4, hh = LINES - 2;
	if (w < 20 || hh < 5)
		return;
	struct rect r = { 1, (COLS - w) / 2, hh, w };
	ui_box(&c->style, &r, "Help - Esc, q or ? closes, arrows scroll");
	int rows = r.h - 2;
	if (h->n > (size_t)rows && h->top > h->n - (size_t)rows)
		h->top = h->n - (size_t)rows;
	for (int i = 0; i < rows && h->top + (size_t)i < h->n; i++) {
		size_t idx = h->top + (size_t)i;
		ui_put_ellipsis(&c->style, r.y + 1 + i, r.x + 2, r.w - 4,
				ui_attr(&c->style, h->heading[idx] ? TR_TITLE : TR_NORMAL),
				h->lines[idx]);
	}
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
		h->top++;
		return true;
	case KC(KEY_PPAGE):
		h->top = h->top > 10 ? h->top - 10 : 0;
		return true;
	case KC(KEY_NPAGE):
	case ' ':
		h->top += 10;
		return true;
	case KC(KEY_HOME):
		h->top = 0;
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
