/* draw.c - putting text on the screen: clipped to a width in cells (UTF-8 aware),
 * fills, pane titles. */
#include <limits.h>
#include <ncurses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "ui_draw.h"

#define UI_TEXT_MAX 1024

unsigned long ui_attr(const struct ui_style *s, enum theme_role role)
{
	return s->attrs.attr[role];
}

/* Decode text into wide characters that fit in w cells; unprintable ones become '?'. */
static int decode(const char *text, int w, wchar_t *out, int max, int *cells)
{
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t left = strlen(text);
	int n = 0, used = 0;
	while (left && n < max) {
		wchar_t wc;
		unsigned char b = (unsigned char)*text;
		if (b >= 0x20 && b < 0x7f) {
			/* printable ASCII, most of what is drawn: no conversion needed */
			if (used + 1 > w)
				break;
			out[n++] = (wchar_t)b;
			used++;
			text++;
			left--;
			continue;
		}
		size_t k = mbrtowc(&wc, text, left, &st);
		if (k == 0)
			break;
		if (k == (size_t)-1 || k == (size_t)-2) {
			wc = L'?';
			k = 1;
			memset(&st, 0, sizeof st);
		}
		int cw = wcwidth(wc);
		if (cw < 0 || wc == 0xfffd) {   /* U+FFFD: a replayed invalid byte (text.h) */
			wc = L'?';
			cw = 1;
		}
		if (used + cw > w)
			break;
		out[n++] = wc;
		used += cw;
		text += k;
		left -= k;
	}
	*cells = used;
	return n;
}

int ui_text_width(const char *text)
{
	wchar_t buf[UI_TEXT_MAX];
	int cells;
	decode(text, UI_TEXT_MAX * 2, buf, UI_TEXT_MAX, &cells);
	return cells;
}

int ui_put(int y, int x, int w, unsigned long attr, const char *text)
{
	if (w <= 0)
		return 0;
	wchar_t buf[UI_TEXT_MAX];
	int cells;
	int n = decode(text, w, buf, UI_TEXT_MAX, &cells);
	attrset((attr_t)attr);
	mvaddnwstr(y, x, buf, n);
	attrset(A_NORMAL);
	return cells;
}

int ui_put_ellipsis(const struct ui_style *s, int y, int x, int w, unsigned long attr, const char *text)
{
	if (w <= 0)
		return 0;
	if (ui_text_width(text) <= w)
		return ui_put(y, x, w, attr, text);
	int used = ui_put(y, x, w - 1, attr, text);
	return used + ui_put(y, x + used, 1, attr, ui_sym(s, "…", "~"));
}

int ui_putf(int y, int x, int w, unsigned long attr, const char *fmt, ...)
{
	char buf[UI_TEXT_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ui_put(y, x, w, attr, buf);
}

void ui_fill(int y, int x, int w, unsigned long attr)
{
	if (w <= 0)
		return;
	attrset((attr_t)attr);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void ui_title(const struct ui_style *s, const struct rect *r, const char *title, const char *right)
{
	unsigned long border = ui_attr(s, TR_BORDER);
	attrset((attr_t)border);
	mvhline(r->y, r->x, ACS_HLINE, r->w);
	attrset(A_NORMAL);
	int x = r->x + 1;
	if (title && *title) {
		x += ui_put(r->y, x, r->w - 2, ui_attr(s, TR_NORMAL), " ");
		x += ui_put(r->y, x, r->x + r->w - x - 1, ui_attr(s, TR_TITLE), title);
		x += ui_put(r->y, x, r->x + r->w - x, ui_attr(s, TR_NORMAL), " ");
	}
	if (right && *right) {
		int w = ui_text_width(right) + 2;
		int rx = r->x + r->w - w - 1;
		if (rx > x) {
			ui_put(r->y, rx, 1, ui_attr(s, TR_NORMAL), " ");
			ui_put(r->y, rx + 1, w - 2, ui_attr(s, TR_DIM), right);
			ui_put(r->y, rx + w - 1, 1, ui_attr(s, TR_NORMAL), " ");
		}
	}
}

void ui_box(const struct ui_style *s, const struct rect *r, const char *title)
{
	unsigned long border = ui_attr(s, TR_BORDER);
	for (int y = r->y; y < r->y + r->h; y++)
		ui_fill(y, r->x, r->w, ui_attr(s, TR_NORMAL));
	attrset((attr_t)border);
	mvhline(r->y, r->x + 1, ACS_HLINE, r->w - 2);
	mvhline(r->y + r->h - 1, r->x + 1, ACS_HLINE, r->w - 2);
	mvvline(r->y + 1, r->x, ACS_VLINE, r->h - 2);
	mvvline(r->y + 1, r->x + r->w - 1, ACS_VLINE, r->h - 2);
	mvaddch(r->y, r->x, ACS_ULCORNER);
	mvaddch(r->y, r->x + r->w - 1, ACS_URCORNER);
	mvaddch(r->y + r->h - 1, r->x, ACS_LLCORNER);
	mvaddch(r->y + r->h - 1, r->x + r->w - 1, ACS_LRCORNER);
	attrset(A_NORMAL);
	if (title && *title) {
		ui_put(r->y, r->x + 2, r->w - 4, ui_attr(s, TR_TITLE), " ");
		int w = ui_put(r->y, r->x + 3, r->w - 6, ui_attr(s, TR_TITLE), title);
		ui_put(r->y, r->x + 3 + w, 1, ui_attr(s, TR_TITLE), " ");
	}
}

const char *ui_sym(const struct ui_style *s, const char *utf8, const char *ascii)
{
	return s->utf8 ? utf8 : ascii;
}

void ui_text_for_terminal(const struct ui_style *s, const char *in, char *out, size_t len)
{
	static const char arrow[] = "→";
	size_t o = 0;
	if (!len)
		return;
	for (size_t i = 0; in[i] && o + 1 < len;) {
		if (!s->utf8 && strncmp(in + i, arrow, sizeof arrow - 1) == 0) {
			if (o + 2 >= len)
				break;
			out[o++] = '-';
			out[o++] = '>';
			i += sizeof arrow - 1;
			continue;
		}
		out[o++] = in[i++];
	}
	out[o] = '\0';
}

/* Byte length of the longest prefix of text that fits in w cells. */
static size_t prefix_fitting(const char *text, int w)
{
	wchar_t buf[UI_TEXT_MAX];
	int cells;
	int n = decode(text, w, buf, UI_TEXT_MAX, &cells);
	mbstate_t st;
	memset(&st, 0, sizeof st);
	char tmp[MB_LEN_MAX];
	size_t bytes = 0;
	for (int i = 0; i < n; i++) {
		size_t k = wcrtomb(tmp, buf[i], &st);
		bytes += k == (size_t)-1 ? 1 : k;
	}
	return bytes;
}

void ui_ellipsize_middle(const struct ui_style *s, const char *in, int w, char *out, size_t len)
{
	int tw = ui_text_width(in);
	if (tw <= w || w < 5) {
		snprintf(out, len, "%s", in);
		return;
	}
	const char *dots = ui_sym(s, "…", "...");
	int dw = s->utf8 ? 1 : 3;
	int head = (w - dw) / 2, tail = w - dw - head;
	size_t hb = prefix_fitting(in, head);
	/* the tail: skip characters from the start until the rest fits */
	const char *t = in;
	while (*t && ui_text_width(t) > tail)
		t += prefix_fitting(t, 1) ? prefix_fitting(t, 1) : 1;
	snprintf(out, len, "%.*s%s%s", (int)hb, in, dots, t);
}
