/* theme_colors.c - a theme on the terminal there is: truecolor, 256, 16, 8 or none. */
#include <ncurses.h>
#include <stdlib.h>

#include "theme.h"

/* xterm's default palette, to bring named colours to RGB and back. */
static const uint32_t ansi_rgb[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

/* Without colour, roles that colour alone tells apart get an attribute. */
static const unsigned long mono_fallback[TR_COUNT] = {
	[TR_HEADER_VALUE] = A_BOLD,   [TR_TITLE] = A_BOLD,
	[TR_TABLE_HEADER] = A_UNDERLINE, [TR_SORTED] = A_REVERSE | A_BOLD,
	[TR_SELECTED] = A_REVERSE,    [TR_LOAD_HIGH] = A_BOLD,
	[TR_MARK] = A_BOLD,           [TR_MARK_USER] = A_BOLD,
	[TR_STATUS] = A_REVERSE,      [TR_WARNING] = A_BOLD,
	[TR_KEY] = A_BOLD,            [TR_KEY_LABEL] = A_REVERSE,
	[TR_RECORDING] = A_BOLD,
};

enum theme_depth theme_terminal_depth(void)
{
	const char *nc = getenv("NO_COLOR");
	if ((nc && *nc) || !has_colors() || start_color() == ERR)   /* COLORS is set by start_color */
		return THEME_DEPTH_NONE;
	if (COLORS >= 0x1000000)
		return THEME_DEPTH_TRUE;
	if (COLORS >= 256)
		return THEME_DEPTH_256;
	if (COLORS >= 16)
		return THEME_DEPTH_16;
	if (COLORS >= 8)
		return THEME_DEPTH_8;
	return THEME_DEPTH_NONE;
}

static int sq(int v) { return v * v; }

static int rgb_distance(uint32_t a, uint32_t b)
{
	return sq((int)(a >> 16 & 0xff) - (int)(b >> 16 & 0xff)) +
	       sq((int)(a >> 8 & 0xff) - (int)(b >> 8 & 0xff)) +
	       sq((int)(a & 0xff) - (int)(b & 0xff));
}

static const int cube_levels[6] = { 0, 95, 135, 175, 215, 255 };

static int nearest_level(int v)
{
	int best = 0;
	for (int i = 1; i < 6; i++)
		if (abs(cube_levels[i] - v) < abs(cube_levels[best] - v))
			best = i;
	return best;
}

int theme_rgb_to_256(uint32_t rgb)
{
	int r = (int)(rgb >> 16 & 0xff), g = (int)(rgb >> 8 & 0xff), b = (int)(rgb & 0xff);
	int ri = nearest_level(r), gi = nearest_level(g), bi = nearest_level(b);
	int cube = 16 + 36 * ri + 6 * gi + bi;
	uint32_t cube_rgb = (uint32_t)cube_levels[ri] << 16 | (uint32_t)cube_levels[gi] << 8 |
			    (uint32_t)cube_levels[bi];
	int avg = (r + g + b) / 3;
	int gi2 = avg < 8 ? 0 : avg > 238 ? 23 : (avg - 8 + 5) / 10;
	if (gi2 > 23)
		gi2 = 23;
	int grey_v = 8 + 10 * gi2;
	uint32_t grey_rgb = (uint32_t)grey_v << 16 | (uint32_t)grey_v << 8 | (uint32_t)grey_v;
	return rgb_distance(rgb, grey_rgb) < rgb_distance(rgb, cube_rgb) ? 232 + gi2 : cube;
}

int theme_rgb_to_ansi(uint32_t rgb, int ncolors)
{
	int best = 0;
	for (int i = 1; i < ncolors && i < 16; i++)
		if (rgb_distance(rgb, ansi_rgb[i]) < rgb_distance(rgb, ansi_rgb[best]))
			best = i;
	return best;
}

/* The terminal's number for a colour at a depth; -1 is the terminal default.
 * *bold is set when an 8-colour terminal shows a bright colour as bold. */
static int color_number(const struct theme_color *c, enum theme_depth depth, bool *bold)
{
	int ansi;
	switch (c->kind) {
	case THEME_COLOR_DEFAULT:
		return -1;
	case THEME_COLOR_RGB:
		if (depth == THEME_DEPTH_TRUE)
			return (int)c->rgb;
		if (depth == THEME_DEPTH_256)
			return theme_rgb_to_256(c->rgb);
		ansi = theme_rgb_to_ansi(c->rgb, depth == THEME_DEPTH_16 ? 16 : 8);
		break;
	case THEME_COLOR_ANSI:
	default:
		ansi = c->ansi;
		/* direct-colour terminfo treats only 0..7 as palette entries */
		if (depth == THEME_DEPTH_TRUE && ansi >= 8)
			return (int)ansi_rgb[ansi];
		break;
	}
	if (depth == THEME_DEPTH_8 && ansi >= 8) {
		*bold = true;
		ansi -= 8;
	}
	return ansi;
}

static unsigned long curses_attrs(unsigned attrs)
{
	unsigned long a = 0;
	if (attrs & THEME_ATTR_BOLD)
		a |= A_BOLD;
	if (attrs & THEME_ATTR_DIM)
		a |= A_DIM;
	if (attrs & THEME_ATTR_ITALIC)
		a |= A_ITALIC;
	if (attrs & THEME_ATTR_UNDERLINE)
		a |= A_UNDERLINE;
	if (attrs & THEME_ATTR_REVERSE)
		a |= A_REVERSE;
	return a;
}

void theme_apply(const struct theme *t, enum theme_depth depth, struct theme_attrs *out)
{
	out->depth = depth;
	if (depth != THEME_DEPTH_NONE)
		use_default_colors();
	const struct theme_style *normal = &t->styles[TR_NORMAL];
	for (int role = 0; role < TR_COUNT; role++) {
		const struct theme_style *s = &t->styles[role];
		unsigned long a = curses_attrs(s->attrs);
		if (depth == THEME_DEPTH_NONE) {
			out->attr[role] = a | mono_fallback[role];
			continue;
		}
		/* "default" inside a theme means the theme's normal colours, so that a
		 * light theme paints every pane and not only the text. */
		const struct theme_color *fg = s->fg.kind == THEME_COLOR_DEFAULT ? &normal->fg : &s->fg;
		const struct theme_color *bg = s->bg.kind == THEME_COLOR_DEFAULT ? &normal->bg : &s->bg;
		bool bold = false, ignored = false;
		int f = color_number(fg, depth, &bold);
		int b = color_number(bg, depth, &ignored);
		init_extended_pair(role + 1, f, b);
		out->attr[role] = a | (bold ? A_BOLD : 0) | COLOR_PAIR(role + 1);
	}
}
