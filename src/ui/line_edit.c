/* line_edit.c - one line of text being typed: keys that edit it, whatever draws it. */
#include <ncurses.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "line_edit.h"

void line_edit_set(struct line_edit *e, const char *initial, size_t max, bool ascii)
{
	e->max = max < LINE_EDIT_MAX ? max : LINE_EDIT_MAX;
	e->ascii = ascii;
	size_t n = mbstowcs(e->text, initial, e->max);
	e->len = e->cursor = n == (size_t)-1 ? 0 : n;
	e->text[e->len] = 0;
}

static void insert(struct line_edit *e, wchar_t ch)
{
	if (e->len >= e->max || ch < 32 || ch == 127 || (e->ascii && ch > 126) || wcwidth(ch) < 0)
		return;
	memmove(&e->text[e->cursor + 1], &e->text[e->cursor], (e->len - e->cursor) * sizeof(wchar_t));
	e->text[e->cursor++] = ch;
	e->text[++e->len] = 0;
}

static void delete_at(struct line_edit *e, size_t at)
{
	if (at >= e->len)
		return;
	memmove(&e->text[at], &e->text[at + 1], (e->len - at) * sizeof(wchar_t));
	e->len--;
}

enum line_edit_outcome line_edit_key(struct line_edit *e, int key)
{
	switch (key) {
	case KEYC_ESC:
	case KEYC_CTRL('g'):
		return LINE_EDIT_CANCEL;
	case '\n':
	case '\r':
	case KC(KEY_ENTER):
		return LINE_EDIT_ACCEPT;
	case KC(KEY_BACKSPACE):
	case 127:
	case KEYC_CTRL('h'):
		if (e->cursor)
			delete_at(e, --e->cursor);
		break;
	case KC(KEY_DC):
	case KEYC_CTRL('d'):
		delete_at(e, e->cursor);
		break;
	case KC(KEY_LEFT):
		e->cursor -= e->cursor > 0;
		break;
	case KC(KEY_RIGHT):
		e->cursor += e->cursor < e->len;
		break;
	case KC(KEY_HOME):
	case KEYC_CTRL('a'):
		e->cursor = 0;
		break;
	case KC(KEY_END):
	case KEYC_CTRL('e'):
		e->cursor = e->len;
		break;
	case KEYC_CTRL('u'):
		e->len = e->cursor = 0;
		e->text[0] = 0;
		break;
	default:
		if (!(key & KEYC_FN))
			insert(e, (wchar_t)key);
		break;
	}
	return LINE_EDIT_EDITING;
}

size_t line_edit_text(const struct line_edit *e, char *out, size_t size)
{
	wchar_t head[LINE_EDIT_MAX + 1];
	wmemcpy(head, e->text, e->cursor);
	head[e->cursor] = 0;
	size_t at = wcstombs(NULL, head, 0);
	size_t n = wcstombs(out, e->text, size);
	if (n == (size_t)-1 || n >= size || at == (size_t)-1) {
		if (size)
			out[0] = '\0';
		return 0;
	}
	return at;
}
