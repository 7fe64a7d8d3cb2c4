/* ui_draw.h - putting text on the screen (src/ui/draw.c): clipped to a width in
 * cells (UTF-8 aware), fills, pane titles and boxes, in a theme's attributes.
 * Panes and dialogs both use it; it knows nothing of either. */
#ifndef IOSCOPE_UI_DRAW_H
#define IOSCOPE_UI_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "theme.h"

struct rect {
	int y, x, h, w;
};

/* How things look on this terminal: the theme's attributes and whether it speaks UTF-8. */
struct ui_style {
	struct theme_attrs attrs;
	bool utf8;
};

unsigned long ui_attr(const struct ui_style *s, enum theme_role role);
/* Text clipped to w cells at (y, x); returns the cells used. */
int ui_put(int y, int x, int w, unsigned long attr, const char *text);
/* The same, ending with "…" ("~" without UTF-8) when the text is cut. */
int ui_put_ellipsis(const struct ui_style *s, int y, int x, int w, unsigned long attr, const char *text);
int ui_putf(int y, int x, int w, unsigned long attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void ui_fill(int y, int x, int w, unsigned long attr);
int ui_text_width(const char *text);
/* A pane title line: "─ Title ───" across the rect's first row. */
void ui_title(const struct ui_style *s, const struct rect *r, const char *title, const char *right);
void ui_box(const struct ui_style *s, const struct rect *r, const char *title);
/* A symbol in UTF-8 when the terminal speaks it, else its ASCII stand-in. */
const char *ui_sym(const struct ui_style *s, const char *utf8, const char *ascii);
/* Text that fits in w cells: long paths keep their start and end around "…". */
void ui_ellipsize_middle(const struct ui_style *s, const char *in, int w, char *out, size_t len);
/* Copy text, replacing "→" by "->" when the terminal is not UTF-8. */
void ui_text_for_terminal(const struct ui_style *s, const char *in, char *out, size_t len);

#endif
