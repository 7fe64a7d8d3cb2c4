/* theme.h - console colour themes: the file format, lookup, and the mapping to
 * what the terminal can show (truecolor, 256, 16 or 8 colours, or none).
 *
 * A theme file is lines of `key = value` (docs/console.md, ioscope(1) THEMES):
 *     selected = black on #5fafd7 bold
 * A value is an optional foreground colour, optionally `on` and a background
 * colour, and attributes (bold dim italic underline reverse).  Colours are the
 * sixteen names (black red green yellow blue magenta cyan white, bright...),
 * `default` (the terminal's own) or #rrggbb.  Keys a file leaves out keep the
 * built-in default; unknown keys are ignored with a warning; any other mistake
 * rejects the file with a message naming the file and line.
 */
#ifndef IOSCOPE_THEME_H
#define IOSCOPE_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* What each themed thing on screen is; the file keys are theme_role_name(). */
enum theme_role {
	TR_NORMAL,        /* text and background of every pane */
	TR_HEADER,        /* header line labels */
	TR_HEADER_VALUE,  /* header and vmstat strip figures */
	TR_BORDER,        /* pane borders and separators */
	TR_TITLE,         /* pane titles */
	TR_TABLE_HEADER,  /* device table column names */
	TR_SORTED,        /* the column the table is sorted by */
	TR_SELECTED,      /* the selected device row */
	TR_PARTITION,     /* partition rows */
	TR_LOAD_LOW,      /* figures under the warn threshold */
	TR_LOAD_MID,      /* between warn and crit */
	TR_LOAD_HIGH,     /* above crit */
	TR_GRAPH_READ,    /* read series (and single series) */
	TR_GRAPH_WRITE,   /* write series (and the second series) */
	TR_AXIS,          /* graph axes and labels */
	TR_MARK,          /* transition marks */
	TR_MARK_USER,     /* user marks */
	TR_STATUS,        /* footer status messages */
	TR_WARNING,       /* warnings, "terminal too small", errors */
	TR_KEY,           /* footer key names */
	TR_KEY_LABEL,     /* footer key labels */
	TR_DIM,           /* secondary text */
	TR_RECORDING,     /* the recording indicator */
	TR_COUNT
};

enum theme_color_kind { THEME_COLOR_DEFAULT, THEME_COLOR_ANSI, THEME_COLOR_RGB };

struct theme_color {
	enum theme_color_kind kind;
	int ansi;              /* 0..15 for THEME_COLOR_ANSI */
	uint32_t rgb;          /* 0xRRGGBB for THEME_COLOR_RGB */
};

#define THEME_ATTR_BOLD      0x01u
#define THEME_ATTR_DIM       0x02u
#define THEME_ATTR_ITALIC    0x04u
#define THEME_ATTR_UNDERLINE 0x08u
#define THEME_ATTR_REVERSE   0x10u

struct theme_style {
	struct theme_color fg, bg;
	unsigned attrs;
};

#define THEME_NAME_MAX 64
#define THEME_PATH_MAX 4096

struct theme {
	char name[THEME_NAME_MAX];
	char path[THEME_PATH_MAX];   /* "" for the built-in default */
	struct theme_style styles[TR_COUNT];
};

/* Non-fatal remarks while loading (unknown keys): the first one, and how many. */
struct theme_warnings {
	char first[512];
	unsigned count;
};

const char *theme_role_name(enum theme_role role);
int theme_role_from_name(const char *name);   /* -1 if unknown */

/* The built-in default (dark) theme. */
void theme_default(struct theme *t);

/* Parse one colour / one style value; -1 with a message on a bad one. */
int theme_parse_color(const char *text, struct theme_color *out, struct error *err);
int theme_parse_style(const char *text, struct theme_style *out, struct error *err);

/* Parse a theme file's text over the default; `path` names it in messages.  On a
 * mistake: -1, err = "PATH:LINE: what", and *t is the default. */
int theme_parse(struct theme *t, const char *text, const char *name, const char *path,
		struct theme_warnings *warn, struct error *err);
/* Read and parse a file. */
int theme_load_file(struct theme *t, const char *path, const char *name,
		    struct theme_warnings *warn, struct error *err);

/* Directories searched for NAME.theme, in order: $XDG_CONFIG_HOME/ioscope/themes
 * (or ~/.config/...), IOSCOPE_THEMES_DIR, ./themes.  Fills up to max entries. */
size_t theme_search_dirs(char dirs[][THEME_PATH_MAX], size_t max);
/* Find and load NAME (or a path when it contains '/').  "default" without a
 * file is the built-in one.  -1: not found or broken (err says which), *t default. */
int theme_load(struct theme *t, const char *name, struct theme_warnings *warn, struct error *err);
/* Names of the themes there are (sorted, unique, "default" always among them).
 * Returns how many; names is malloc'd, free with theme_names_free. */
size_t theme_names(char ***names);
void theme_names_free(char **names, size_t n);

/* ---- terminal side (theme_colors.c) ---- */
enum theme_depth { THEME_DEPTH_NONE, THEME_DEPTH_8, THEME_DEPTH_16, THEME_DEPTH_256, THEME_DEPTH_TRUE };

/* What the terminal supports: colours (and COLORS), NO_COLOR. Call after initscr. */
enum theme_depth theme_terminal_depth(void);
/* Nearest xterm-256 index to an RGB colour, and nearest of the first n ANSI colours. */
int theme_rgb_to_256(uint32_t rgb);
int theme_rgb_to_ansi(uint32_t rgb, int ncolors);

/* ncurses attributes (colour pair included) for each role. */
struct theme_attrs {
	enum theme_depth depth;
	unsigned long attr[TR_COUNT];   /* attr_t */
};
/* Set up colour pairs for t at the given depth and fill out. */
void theme_apply(const struct theme *t, enum theme_depth depth, struct theme_attrs *out);

#endif
