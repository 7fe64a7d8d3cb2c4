/* columns.h - the device table's columns: a column is a row of the device figure table
 * (include/figures.h: every iostat -x figure, the MB/s forms of iostat -m, the in-flight
 * gauge and the scheduler, with their headings, widths and load colours); here, how a
 * cell is found, read and formatted. */
#ifndef IOSCOPE_COLUMNS_H
#define IOSCOPE_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "figures.h"
#include "rates.h"

#define COLUMNS_MAX 40
#define COLUMNS_DEFAULT "r/s rMB/s r_await w/s wMB/s w_await aqu-sz %util in_flight scheduler"

/* By key or heading ("in_flight" or "infl"). */
const struct device_figure *column_find(const char *name);
/* The heading: the key unless the row gives another. */
static inline const char *column_header(const struct device_figure *c)
{
	return c->header ? c->header : c->key;
}
/* "r/s, rMB/s ..." (commas or spaces) into out; -1 names the first unknown one. */
int columns_parse(const char *text, const struct device_figure **out, size_t max, size_t *n,
		  struct error *err);
/* The figure a cell shows (NaN when the interval had no rate). */
double column_value(const struct device_figure *c, const struct device_rates *r);
void column_format(const struct device_figure *c, const struct device_rates *r, char *buf,
		   size_t len);

#endif
