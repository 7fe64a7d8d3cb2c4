/* theme.c - theme files: parsing, the built-in default, lookup (format in theme.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "grow.h"
#include "kvline.h"
#include "regular_file.h"
#include "theme.h"

#ifndef IOSCOPE_THEMES_DIR
#define IOSCOPE_THEMES_DIR "/usr/local/share/ioscope/themes"
#endif

#define THEME_FILE_MAX (64 * 1024)

static const char *const role_names[TR_COUNT] = {
	[TR_NORMAL] = "normal",           [TR_HEADER] = "header",
	[TR_HEADER_VALUE] = "header_value", [TR_BORDER] = "border",
	[TR_TITLE] = "title",             [TR_TABLE_HEADER] = "table_header",
	[TR_SORTED] = "sorted",           [TR_SELECTED] = "selected",
	[TR_PARTITION] = "partition",     [TR_LOAD_LOW] = "load_low",
	[TR_LOAD_MID] = "load_mid",       [TR_LOAD_HIGH] = "load_high",
	[TR_GRAPH_READ] = "graph_read",   [TR_GRAPH_WRITE] = "graph_write",
	[TR_AXIS] = "axis",               [TR_MARK] = "mark",
	[TR_MARK_USER] = "mark_user",     [TR_STATUS] = "status",
	[TR_WARNING] = "warning",         [TR_KEY] = "key",
	[TR_KEY_LABEL] = "key_label",     [TR_DIM] = "dim",
	[TR_RECORDING] = "recording",
};

/* The built-in default: the same text as themes/default.theme. */
static const char *const default_styles[TR_COUNT] = {
	[TR_NORMAL] = "default on default",
	[TR_HEADER] = "cyan",
	[TR_HEADER_VALUE] = "brightwhite bold",
	[TR_BORDER] = "blue",
	[TR_TITLE] = "brightcyan bold",
	[TR_TABLE_HEADER] = "black on green",
	[TR_SORTED] = "black on cyan bold",
	[TR_SELECTED] = "black on cyan",
	[TR_PARTITION] = "brightblack",
	[TR_LOAD_LOW] = "green",
	[TR_LOAD_MID] = "yellow",
	[TR_LOAD_HIGH] = "brightred bold",
	[TR_GRAPH_READ] = "#56b6c2",
	[TR_GRAPH_WRITE] = "#e6c84d",
	[TR_AXIS] = "brightblack",
	[TR_MARK] = "brightmagenta bold",
	[TR_MARK_USER] = "brightyellow bold",
	[TR_STATUS] = "brightwhite on blue",
	[TR_WARNING] = "brightred bold",
	[TR_KEY] = "default bold",
	[TR_KEY_LABEL] = "black on cyan",
	[TR_DIM] = "brightblack",
	[TR_RECORDING] = "brightred bold",
};

static const char *const color_names[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"brightblack", "brightred", "brightgreen", "brightyellow",
	"brightblue", "brightmagenta", "brightcyan", "brightwhite",
};

static const struct {
	const char *name;
	unsigned attr;
} attr_names[] = {
	{ "bold", THEME_ATTR_BOLD },           { "dim", THEME_ATTR_DIM },
	{ "italic", THEME_ATTR_ITALIC },       { "underline", THEME_ATTR_UNDERLINE },
	{ "reverse", THEME_ATTR_REVERSE },
};

const char *theme_role_name(enum theme_role role)
{
	return (unsigned)role < TR_COUNT ? role_names[role] : "?";
}

int theme_role_from_name(const char *name)
{
	for (int i = 0; i < TR_COUNT; i++)
		if (strcmp(role_names[i], name) == 0)
			return i;
	return -1;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int parse_rgb(const char *text, uint32_t *out)
{
	if (strlen(text) != 7)
		return -1;
	uint32_t v = 0;
	for (int i = 1; i < 7; i++) {
		int h = hexval(text[i]);
		if (h < 0)
			return -1;
		v = v << 4 | (uint32_t)h;
	}
	*out = v;
	return 0;
}

/* "bright-red", "bright_red" and "brightred" are one colour; "grey"/"gray" is brightblack. */
static void normalise_color_name(const char *text, char *out, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; text[i] && j + 1 < len; i++) {
		if (text[i] == '-' || text[i] == '_')
			continue;
		out[j++] = (char)tolower((unsigned char)text[i]);
	}
	out[j] = '\0';
	if (strcmp(out, "grey") == 0 || strcmp(out, "gray") == 0)
		snprintf(out, len, "brightblack");
}

int theme_parse_color(const char *text, struct theme_color *out, struct error *err)
{
	memset(out, 0, sizeof *out);
	if (text[0] == '#') {
		if (parse_rgb(text, &out->rgb) < 0)
			return error_set(err, "bad colour '%s': give #rrggbb", text);
		out->kind = THEME_COLOR_RGB;
		return 0;
	}
	char name[32];
	normalise_color_name(text, name, sizeof name);
	if (strcmp(name, "default") == 0) {
		out->kind = THEME_COLOR_DEFAULT;
		return 0;
	}
	for (int i = 0; i < 16; i++)
		if (strcmp(name, color_names[i]) == 0) {
			out->kind = THEME_COLOR_ANSI;
			out->ansi = i;
			return 0;
		}
	return error_set(err, "unknown colour '%s': give a colour name (black red green yellow "
			 "blue magenta cyan white, bright..., default) or #rrggbb", text);
}

static bool parse_attr(const char *word, unsigned *attrs)
{
	for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
		if (strcasecmp(word, attr_names[i].name) == 0) {
			*attrs |= attr_names[i].attr;
			return true;
		}
	return false;
}

int theme_parse_style(const char *text, struct theme_style *out, struct error *err)
{
	char buf[256];
	if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf)
		return error_set(err, "value too long");
	memset(out, 0, sizeof *out);
	bool have_fg = false, have_bg = false, want_bg = false;
	char *save = NULL;
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		size_t wl = strlen(w);
		if (wl >= 2 && (w[0] == '"' || w[0] == '\'') && w[wl - 1] == w[0]) {
			w[wl - 1] = '\0';   /* btop writes colours in quotes */
			w++;
		}
		if (strcasecmp(w, "on") == 0) {
			if (want_bg || have_bg)
				return error_set(err, "'on' given twice");
			want_bg = true;
			continue;
		}
		if (!want_bg && parse_attr(w, &out->attrs))
			continue;
		struct theme_color c;
		if (theme_parse_color(w, &c, err) < 0)
			return -1;
		if (want_bg) {
			out->bg = c;
			have_bg = true;
			want_bg = false;
		} else if (!have_fg && !have_bg) {
			out->fg = c;
			have_fg = true;
		} else {
			return error_set(err, "'%s': one foreground colour, then 'on' and the background", w);
		}
	}
	if (want_bg)
		return error_set(err, "'on' needs a background colour");
	if (!have_fg && !have_bg && !out->attrs)
		return error_set(err, "empty value");
	return 0;
}

void theme_default(struct theme *t)
{
	struct error err;
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "default");
	for (int i = 0; i < TR_COUNT; i++)
		if (theme_parse_style(default_styles[i], &t->styles[i], &err) < 0)
			abort();   /* the table above is wrong: a build defect */
}

static void warn_add(struct theme_warnings *w, const char *fmt, const char *path, unsigned line,
		     const char *what)
{
	if (!w)
		return;
	if (w->count++ == 0)
		snprintf(w->first, sizeof w->first, fmt, path, line, what);
}

static int parse_line(struct theme *t, char *line, const char *path, unsigned lineno,
		      struct theme_warnings *warn, struct error *err)
{
	char *key, *value;
	int kv = kvline_split(line, &key, &value);
	if (kv == 0)
		return 0;
	if (kv < 0)
		return error_set(err, "%s:%u: expected 'key = value'", path, lineno);
	if (!*key)
		return error_set(err, "%s:%u: missing key before '='", path, lineno);
	int role = theme_role_from_name(key);
	if (role < 0) {
		warn_add(warn, "%s:%u: unknown key '%s' ignored", path, lineno, key);
		return 0;
	}
	struct error e;
	if (theme_parse_style(value, &t->styles[role], &e) < 0)
		return error_set(err, "%s:%u: %s: %s", path, lineno, key, e.msg);
	return 0;
}

int theme_parse(struct theme *t, const char *text, const char *name, const char *path,
		struct theme_warnings *warn, struct error *err)
{
	theme_default(t);
	char *copy = strdup(text);
	if (!copy)
		return error_errno(err, path, ENOMEM);
	unsigned lineno = 0;
	int rc = 0;
	char *save = NULL;
	/* strtok_r would skip empty lines and so miscount them: split by hand. */
	for (char *line = copy; line && rc == 0; line = save) {
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		rc = parse_line(t, line, path, lineno, warn, err);
	}
	free(copy);
	if (rc < 0) {
		theme_default(t);
		return -1;
	}
	snprintf(t->name, sizeof t->name, "%s", name);
	snprintf(t->path, sizeof t->path, "%s", path);
	return 0;
}

static int read_text(const char *path, char **out, struct error *err)
{
	int fd = regular_file_openat(AT_FDCWD, path, O_RDONLY);
	if (fd < 0)
		return regular_file_error(err, path, errno);
	char *buf = malloc(THEME_FILE_MAX + 1);
	if (!buf) {
		close(fd);
		return error_errno(err, path, ENOMEM);
	}
	size_t used = 0;
	for (;;) {
		ssize_t n = read(fd, buf + used, THEME_FILE_MAX - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			close(fd);
			return error_errno(err, path, e);
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used == THEME_FILE_MAX) {
			free(buf);
			close(fd);
			return error_set(err, "%s: larger than %d bytes", path, THEME_FILE_MAX);
		}
	}
	close(fd);
	buf[used] = '\0';
	if (memchr(buf, '\0', used)) {
		free(buf);
		return error_set(err, "%s: not a text file", path);
	}
	*out = buf;
	return 0;
}

int theme_load_file(struct theme *t, const char *path, const char *name,
		    struct theme_warnings *warn, struct error *err)
{
	char *text;
	if (read_text(path, &text, err) < 0) {
		theme_default(t);
		return -1;
	}
	int rc = theme_parse(t, text, name, path, warn, err);
	free(text);
	return rc;
}

size_t theme_search_dirs(char dirs[][THEME_PATH_MAX], size_t max)
{
	size_t n = 0;
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");
	if (n < max && xdg && *xdg)
		snprintf(dirs[n++], THEME_PATH_MAX, "%s/ioscope/themes", xdg);
	else if (n < max && home && *home)
		snprintf(dirs[n++], THEME_PATH_MAX, "%s/.config/ioscope/themes", home);
	if (n < max)
		snprintf(dirs[n++], THEME_PATH_MAX, "%s", IOSCOPE_THEMES_DIR);
	if (n < max)
		snprintf(dirs[n++], THEME_PATH_MAX, "themes");
	return n;
}

static void name_of_path(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(name, len, "%s", base);
	char *dot = strstr(name, ".theme");
	if (dot && dot[6] == '\0')
		*dot = '\0';
}

int theme_load(struct theme *t, const char *name, struct theme_warnings *warn, struct error *err)
{
	char tname[THEME_NAME_MAX];
	if (strchr(name, '/')) {
		name_of_path(name, tname, sizeof tname);
		return theme_load_file(t, name, tname, warn, err);
	}
	char dirs[4][THEME_PATH_MAX];
	size_t nd = theme_search_dirs(dirs, 4);
	char path[THEME_PATH_MAX + THEME_NAME_MAX + 8];
	for (size_t i = 0; i < nd; i++) {
		snprintf(path, sizeof path, "%s/%s.theme", dirs[i], name);
		if (access(path, F_OK) == 0)
			return theme_load_file(t, path, name, warn, err);
		if (errno != ENOENT && errno != ENOTDIR) {   /* a symlink loop, no permission */
			int e = errno;
			theme_default(t);
			return error_errno(err, path, e);
		}
	}
	theme_default(t);
	if (strcmp(name, "default") == 0)
		return 0;
	return error_set(err, "theme '%s' not found in %s, %s or %s", name, dirs[0],
			 nd > 1 ? dirs[1] : "", nd > 2 ? dirs[2] : "");
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool names_add(char ***names, size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*names)[i], name) == 0)
			return true;
	if (grow_array(names, cap, *n + 1, sizeof **names, 16, NULL) < 0)
		return false;
	char *copy = strdup(name);
	if (!copy)
		return false;
	(*names)[(*n)++] = copy;
	return true;
}

size_t theme_names(char ***names)
{
	char dirs[4][THEME_PATH_MAX];
	size_t nd = theme_search_dirs(dirs, 4), n = 0, cap = 0;
	*names = NULL;
	names_add(names, &n, &cap, "default");
	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			if (len <= 6 || strcmp(e->d_name + len - 6, ".theme") != 0)
				continue;
			char name[THEME_NAME_MAX];
			name_of_path(e->d_name, name, sizeof name);
			names_add(names, &n, &cap, name);
		}
		closedir(d);
	}
	if (n)
		qsort(*names, n, sizeof **names, cmp_names);
	return n;
}

void theme_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
