/* prompt.c - a one-line text prompt in the footer (user marks, the filter, and
 * any dialog that needs a value typed). */
#include <limits.h>
#include <ncurses.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "console_state.h"

#define PROMPT_MAX 200

struct prompt {
	char label[64];
	wchar_t text[PROMPT_MAX + 1];
	size_t len, cursor;
	bool selected;          /* the text is a suggestion: typing replaces it, as a GUI's
				   selected default does; a move keeps it for editing */
	prompt_done_fn done;
	void *arg;
};

static void prompt_draw(const struct console *c, void *state)
{
	struct prompt *p = state;
	const struct rect *r = &c->layout.footer;
	if (c->layout.too_small)
		return;
	unsigned long a = ui_attr(&c->style, TR_STATUS);
	ui_fill(r->y, r->x, r->w, a);
	int x = r->x + ui_put(r->y, r->x, r->w, a, p->label);
	/* keep the cursor in view: show the tail when the text is longer than the line */
	int room = r->x + r->w - x - 1;
	size_t from = 0;
	int width = 0;
	for (size_t i = p->cursor; i > 0; i--) {
		int cw = wcwidth(p->text[i - 1]);
		width += cw > 0 ? cw : 1;
		if (width > room - 1) {
			from = i;
			break;
		}
	}
	attrset((attr_t)a);
	for (size_t i = from; i <= p->len && x < r->x + r->w; i++) {
		wchar_t ch[2] = { i < p->len ? p->text[i] : L' ', 0 };
		bool reverse = i == p->cursor || (p->selected && i < p->len);
		attrset((attr_t)(reverse ? (a ^ A_REVERSE) : a));
		mvaddnwstr(r->y, x, ch, 1);
		int cw = wcwidth(ch[0]);
		x += cw > 0 ? cw : 1;
	}
	attrset(A_NORMAL);
}

static void prompt_insert(struct prompt *p, wchar_t ch)
{
	if (p->len >= PROMPT_MAX || ch < 32 || ch == 127 || wcwidth(ch) < 0)
		return;
	memmove(&p->text[p->cursor + 1], &p->text[p->cursor], (p->len - p->cursor) * sizeof(wchar_t));
	p->text[p->cursor++] = ch;
	p->text[++p->len] = 0;
}

static void prompt_delete(struct prompt *p, size_t at)
{
	if (at >= p->len)
		return;
	memmove(&p->text[at], &p->text[at + 1], (p->len - at) * sizeof(wchar_t));
	p->len--;
}

static void prompt_finish(struct console *c, struct prompt *p)
{
	char out[PROMPT_MAX * MB_LEN_MAX + 1];
	size_t n = wcstombs(out, p->text, sizeof out);
	if (n == (size_t)-1)
		out[0] = '\0';
	p->done(c, out, p->arg);
}

static void prompt_clear(struct prompt *p)
{
	p->len = p->cursor = 0;
	p->text[0] = 0;
}

static bool is_deletion(int key)
{
	return key == KC(KEY_BACKSPACE) || key == 127 || key == KEYC_CTRL('h') ||
	       key == KC(KEY_DC) || key == KEYC_CTRL('d') || key == KEYC_CTRL('u');
}

static bool is_move(int key)
{
	return key == KC(KEY_LEFT) || key == KC(KEY_RIGHT) || key == KC(KEY_HOME) ||
	       key == KC(KEY_END) || key == KEYC_CTRL('a') || key == KEYC_CTRL('e');
}

static bool prompt_key(struct console *c, void *state, int key)
{
	struct prompt *p = state;
	/* a selected suggestion: a deletion takes it all, a character replaces it, a move
	 * keeps it to edit (Enter takes it as it is) */
	bool typed = !(key & KEYC_FN) && key >= 32 && key != 127;
	if (p->selected && (is_deletion(key) || typed || is_move(key))) {
		p->selected = false;
		if (is_deletion(key)) {
			prompt_clear(p);
			return true;
		}
		if (typed)
			prompt_clear(p);
	}
	switch (key) {
	case KEYC_ESC:
	case KEYC_CTRL('g'):
		return false;
	case '\n':
	case '\r':
	case KC(KEY_ENTER):
		prompt_finish(c, p);
		return false;
	case KC(KEY_BACKSPACE):
	case 127:
	case KEYC_CTRL('h'):
		if (p->cursor)
			prompt_delete(p, --p->cursor);
		return true;
	case KC(KEY_DC):
	case KEYC_CTRL('d'):
		prompt_delete(p, p->cursor);
		return true;
	case KC(KEY_LEFT):
		if (p->cursor)
			p->cursor--;
		return true;
	case KC(KEY_RIGHT):
		if (p->cursor < p->len)
			p->cursor++;
		return true;
	case KC(KEY_HOME):
	case KEYC_CTRL('a'):
		p->cursor = 0;
		return true;
	case KC(KEY_END):
	case KEYC_CTRL('e'):
		p->cursor = p->len;
		return true;
	case KEYC_CTRL('u'):
		prompt_clear(p);
		return true;
	default:
		if (!(key & KEYC_FN))
			prompt_insert(p, (wchar_t)key);
		return true;
	}
}

static const struct modal_ops prompt_ops = { .draw = prompt_draw, .key = prompt_key, .free = free };

static int prompt_open(struct console *c, const char *label, const char *initial,
		       bool selected, prompt_done_fn done, void *arg)
{
	struct prompt *p = calloc(1, sizeof *p);
	if (!p)
		return -1;
	snprintf(p->label, sizeof p->label, "%s", label);
	size_t n = mbstowcs(p->text, initial, PROMPT_MAX);
	p->len = p->cursor = n == (size_t)-1 ? 0 : n;
	p->text[p->len] = 0;
	p->selected = selected && p->len;
	p->done = done;
	p->arg = arg;
	return console_modal_open(c, &prompt_ops, p);
}

int console_prompt(struct console *c, const char *label, const char *initial,
		   prompt_done_fn done, void *arg)
{
	return prompt_open(c, label, initial, false, done, arg);
}

int console_prompt_suggest(struct console *c, const char *label, const char *suggestion,
			   prompt_done_fn done, void *arg)
{
	return prompt_open(c, label, suggestion, true, done, arg);
}
