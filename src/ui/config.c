/* config.c - the console's config file (console_config.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "columns.h"
#include "console_config.h"
#include "graph.h"
#include "kvline.h"
#include "regular_file.h"
#include "source.h"

#define CONFIG_FILE_MAX (64 * 1024)

void console_config_default(struct console_config *c)
{
	memset(c, 0, sizeof *c);
	c->interval = 1.0;
	snprintf(c->theme, sizeof c->theme, "default");
	snprintf(c->columns, sizeof c->columns, "%s", COLUMNS_DEFAULT);
	snprintf(c->graph, sizeof c->graph, "MB/s");
	c->history = 3600;
	c->graph_style = GRAPH_STYLE_AUTO;
	c->util_warn = 60;
	c->util_crit = 90;
	c->await_warn = 20;
	c->await_crit = 100;
	c->mouse = true;
}

void console_config_path(char *buf, size_t len)
{
	const char *xdg = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");
	if (xdg && *xdg)
		snprintf(buf, len, "%s/ioscope/config", xdg);
	else
		snprintf(buf, len, "%s/.config/ioscope/config", home && *home ? home : ".");
}


static int parse_number(const char *v, double lo, double hi, double *out, struct error *err)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (errno || end == v || *end || !isfinite(d) || d < lo || d > hi)
		return error_set(err, "'%s': give a number from %g to %g", v, lo, hi);
	*out = d;
	return 0;
}

static int parse_bool(const char *v, bool *out, struct error *err)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return error_set(err, "'%s': give yes or no", v);
}

static int parse_string(const char *v, char *out, size_t len, struct error *err)
{
	if (!*v)
		return error_set(err, "empty value");
	if (strlen(v) >= len)
		return error_set(err, "'%s': longer than %zu characters", v, len - 1);
	snprintf(out, len, "%s", v);
	return 0;
}

static int parse_graph_style(const char *v, enum graph_style *out, struct error *err)
{
	static const char *const names[] = { "auto", "braille", "block", "ascii" };
	for (size_t i = 0; i < 4; i++)
		if (strcasecmp(v, names[i]) == 0) {
			*out = (enum graph_style)i;
			return 0;
		}
	return error_set(err, "'%s': give auto, braille, block or ascii", v);
}

static int set_key(struct console_config *c, const char *key, const char *v, bool *unknown,
		   struct error *err)
{
	const struct device_figure *cols[COLUMNS_MAX];
	size_t n;
	*unknown = false;
	if (strcmp(key, "interval") == 0) {
		if (parse_number(v, INTERVAL_MIN, INTERVAL_MAX, &c->interval, err) < 0)
			return -1;
		c->interval_set = true;
		return 0;
	}
	if (strcmp(key, "theme") == 0)
		return parse_string(v, c->theme, sizeof c->theme, err);
	if (strcmp(key, "columns") == 0) {
		if (columns_parse(v, cols, COLUMNS_MAX, &n, err) < 0)
			return -1;
		return parse_string(v, c->columns, sizeof c->columns, err);
	}
	if (strcmp(key, "graph") == 0) {
		if (!graph_metric_find(v))
			return error_set(err, "unknown graph metric '%s'", v);
		return parse_string(v, c->graph, sizeof c->graph, err);
	}
	if (strcmp(key, "sort") == 0) {
		if (strcmp(v, "device") == 0) {
			c->sort[0] = '\0';   /* the kernel's order */
			return 0;
		}
		if (!column_find(v))
			return error_set(err, "unknown column '%s'", v);
		return parse_string(v, c->sort, sizeof c->sort, err);
	}
	if (strcmp(key, "sort_reverse") == 0)
		return parse_bool(v, &c->sort_reverse, err);
	if (strcmp(key, "partitions") == 0)
		return parse_bool(v, &c->partitions, err);
	if (strcmp(key, "mouse") == 0)
		return parse_bool(v, &c->mouse, err);
	if (strcmp(key, "history") == 0)
		return parse_number(v, 60, 30 * 86400, &c->history, err);
	if (strcmp(key, "graph_style") == 0)
		return parse_graph_style(v, &c->graph_style, err);
	if (strcmp(key, "util_warn") == 0)
		return parse_number(v, 0, 100, &c->util_warn, err);
	if (strcmp(key, "util_crit") == 0)
		return parse_number(v, 0, 100, &c->util_crit, err);
	if (strcmp(key, "await_warn") == 0)
		return parse_number(v, 0, 1e7, &c->await_warn, err);
	if (strcmp(key, "await_crit") == 0)
		return parse_number(v, 0, 1e7, &c->await_crit, err);
	*unknown = true;
	return 0;
}

static int parse_line(struct console_config *c, char *line, const char *path, unsigned lineno,
		      struct error *err, char *warn, size_t warn_len, unsigned *nwarn)
{
	char *key, *value;
	int kv = kvline_split(line, &key, &value);
	if (kv == 0)
		return 0;
	if (kv < 0)
		return error_set(err, "%s:%u: expected 'key = value'", path, lineno);
	struct error e;
	bool unknown;
	if (set_key(c, key, value, &unknown, &e) < 0)
		return error_set(err, "%s:%u: %s: %s", path, lineno, key, e.msg);
	if (unknown) {
		if (warn && warn_len && (!nwarn || *nwarn == 0))
			snprintf(warn, warn_len, "%s:%u: unknown key '%s' ignored", path, lineno, key);
		if (nwarn)
			(*nwarn)++;
	}
	return 0;
}

int console_config_parse(struct console_config *c, const char *text, const char *path,
			 struct error *err, char *warn, size_t warn_len, unsigned *nwarn)
{
	int bad = 0;
	unsigned lineno = 0;
	const char *p = text;
	char line[2048];
	struct error e;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		if (len >= sizeof line) {
			if (bad++ == 0)
				error_set(err, "%s:%u: line too long", path, lineno);
		} else {
			memcpy(line, p, len);
			line[len] = '\0';
			if (parse_line(c, line, path, lineno, &e, warn, warn_len, nwarn) < 0 && bad++ == 0)
				*err = e;
		}
		p += len + (nl ? 1 : 0);
	}
	return bad;
}

/* What the parser could only misread: a file cut at 64 KB would lose its end (and its
 * last line read half), a NUL byte would end the text where it stands. */
static int config_text_usable(const char *text, size_t n, const char *path, struct error *err)
{
	if (n > CONFIG_FILE_MAX)
		return error_set(err, "%s: larger than %d KB: too large for a config file, not read",
				 path, CONFIG_FILE_MAX / 1024);
	const char *nul = memchr(text, '\0', n);
	if (!nul)
		return 0;
	size_t line = 1;
	for (const char *p = text; p < nul; p++)
		line += *p == '\n';
	return error_set(err, "%s:%zu: a NUL byte: not a text file, not read", path, line);
}

int console_config_load(struct console_config *c, const char *path, struct error *err,
			char *warn, size_t warn_len, unsigned *nwarn)
{
	int fd = regular_file_openat(AT_FDCWD, path, O_RDONLY);
	if (fd < 0)
		return errno == ENOENT ? 0 : regular_file_error(err, path, errno);
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return error_errno(err, path, errno);
	}
	char *text = malloc(CONFIG_FILE_MAX + 2);
	if (!text) {
		fclose(f);
		return error_errno(err, path, ENOMEM);
	}
	size_t n = fread(text, 1, CONFIG_FILE_MAX + 1, f);   /* one more: was there more? */
	int rerr = ferror(f) ? errno : 0;
	fclose(f);
	text[n] = '\0';
	int bad = rerr ? error_errno(err, path, rerr) : config_text_usable(text, n, path, err);
	if (bad == 0)
		bad = console_config_parse(c, text, path, err, warn, warn_len, nwarn);
	free(text);
	return bad;
}
