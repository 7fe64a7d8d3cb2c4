/* console_config.h - the console's config file, $XDG_CONFIG_HOME/ioscope/config.
 *
 * Lines of `key = value`, `#` comments (docs/console.md lists the keys).  A bad
 * line gives a message naming file and line and is skipped; the other lines still
 * apply.  Unknown keys are ignored with a warning.  The command line beats the file.
 */
#ifndef IOSCOPE_CONSOLE_CONFIG_H
#define IOSCOPE_CONSOLE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

enum graph_style { GRAPH_STYLE_AUTO, GRAPH_STYLE_BRAILLE, GRAPH_STYLE_BLOCK, GRAPH_STYLE_ASCII };

struct console_config {
	double interval;            /* seconds */
	bool interval_set;          /* the file gave one */
	char theme[64];
	char columns[512];          /* column names, comma or space separated */
	char graph[16];             /* graph metric name: MB/s IOPS await %util f/s in-flight dirty */
	char sort[32];              /* column to sort by, "" for kernel order */
	bool sort_reverse;          /* ascending instead of descending */
	bool partitions;            /* show partitions under their disk */
	double history;             /* seconds of history kept */
	enum graph_style graph_style;
	double util_warn, util_crit;    /* %util thresholds for colour */
	double await_warn, await_crit;  /* ms */
	bool mouse;
};

void console_config_default(struct console_config *c);
/* Parse text over *c; path names it in messages.  Returns the number of bad lines
 * (err describes the first), 0 when all were good.  warn gets the first unknown
 * key remark, *nwarn how many (either may be NULL). */
int console_config_parse(struct console_config *c, const char *text, const char *path,
			 struct error *err, char *warn, size_t warn_len, unsigned *nwarn);
/* The file's path: $XDG_CONFIG_HOME/ioscope/config or ~/.config/ioscope/config. */
void console_config_path(char *buf, size_t len);
/* Load the file if there is one (absent: 0, defaults).  Same returns as _parse, -1
 * when it cannot be read. */
int console_config_load(struct console_config *c, const char *path, struct error *err,
			char *warn, size_t warn_len, unsigned *nwarn);

#endif
