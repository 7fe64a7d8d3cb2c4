/* columns.h - the device table's columns: every iostat -x figure (plus the MB/s
 * forms of iostat -m, the in-flight gauge and the scheduler), their widths, and
 * how a cell is formatted and coloured. */
#ifndef IOSCOPE_COLUMNS_H
#define IOSCOPE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "rates.h"

enum column_kind { COLUMN_METRIC, COLUMN_IN_FLIGHT, COLUMN_SCHEDULER };
/* Which threshold pair colours a cell (console_config util_* / await_*). */
enum column_load { LOAD_NONE, LOAD_UTIL, LOAD_AWAIT };

struct column_def {
	const char *name;      /* iostat -x name, e.g. "w_await" (config file, chooser) */
	const char *header;    /* as the table header shows it */
	enum column_kind kind;
	size_t offset;         /* of the double in struct device_rates (COLUMN_METRIC) */
	double scale;          /* shown value = figure * scale (kB -> MB) */
	int width;             /* cells, without the separating space */
	enum column_load load;
	const char *help;      /* one line for the column chooser */
};

#define COLUMNS_MAX 40
#define COLUMNS_DEFAULT "r/s rMB/s r_await w/s wMB/s w_await aqu-sz %util in_flight scheduler"

extern const struct column_def column_defs[];
extern const size_t column_defs_count;
const struct column_def *column_find(const char *name);
/* "r/s, rMB/s ..." (commas or spaces) into out; -1 names the first unknown one. */
int columns_parse(const char *text, const struct column_def **out, size_t max, size_t *n,
		  struct error *err);
/* The figure a cell shows (NaN when the interval had no rate). */
double column_value(const struct column_def *c, const struct device_rates *r);
void column_format(const struct column_def *c, const struct device_rates *r, char *buf, size_t len);

#endif
