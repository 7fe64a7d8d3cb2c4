/* prompt.c - a one-line text prompt in the footer (user marks, the filter, and
 * any dialog that needs a value typed). */
#include <limits.h>
#include <ncurses.h>
#include <stdlib.h>
#include <wchar.h>

#include "console_state.h"
#include "line_edit.h"

#define PROMPT_MAX 200

struct prompt {
	char label[96];
	struct line_edit edit;
	bool selected;          /* the text is a suggestion: typing replaces it, as a GUI's
				   selected default does; a move keeps it for editing */
	prompt_done_fn done;
	void *arg;
};

static void prompt_draw(const struct console *c, void *state)
{
	const struct prompt *p = state;
	const struct line_edit *e = &p->edit;
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
	for (size_t i = e->cursor; i > 0; i--) {
		int cw = wcwidth(e->text[i - 1]);
		width += cw > 0 ? cw : 1;
		if (width > room - 1) {
			from = i;
			break;
		}
	}
	attrset((attr_t)a);
	for (size_t i = from; i <= e->len && x < r->x + r->w; i++) {
		wchar_t ch[2] = { i < e->len ? e->text[i] : L' ', 0 };
		bool reverse = i == e->cursor || (p->selected && i < e->len);
		attrset((attr_t)(reverse ? (a ^ A_REVERSE) : a));
		mvaddnwstr(r->y, x, ch, 1);
		int cw = wcwidth(ch[0]);
		x += cw > 0 ? cw : 1;
	}
	attrset(A_NORMAL);
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
		if (is_deletion(key) || typed)
			line_edit_set(&p->edit, "", PROMPT_MAX, false);
		if (is_deletion(key))
			return true;
	}
	switch (line_edit_key(&p->edit, key)) {
	case LINE_EDIT_CANCEL:
		return false;
	case LINE_EDIT_ACCEPT: {
		char out[PROMPT_MAX * MB_LEN_MAX + 1];
		line_edit_text(&p->edit, out, sizeof out);
		p->done(c, out, p->arg);
		return false;
	}
	case LINE_EDIT_EDITING:
		break;
	}
	return true;
}

static const struct modal_ops prompt_ops = { .draw = prompt_draw, .key = prompt_key, .free = free };

static int prompt_open(struct console *c, const char *label, const char *initial,
		       bool selected, prompt_done_fn done, void *arg)
{
	struct prompt *p = calloc(1, sizeof *p);
	if (!p)
		return -1;
	snprintf(p->label, sizeof p->label, "%s", label);
	line_edit_set(&p->edit, initial, PROMPT_MAX, false);
	p->selected = selected && p->edit.len;
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
