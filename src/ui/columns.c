/* columns.c - the device table's columns (rows of the device figure table, figures.h):
 * finding, reading and formatting a cell (columns.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "numfmt.h"

const struct device_figure *column_find(const char *name)
{
	for (size_t i = 0; i < device_figures_count; i++)
		if (strcmp(device_figures[i].key, name) == 0 ||
		    strcmp(column_header(&device_figures[i]), name) == 0)
			return &device_figures[i];
	return NULL;
}

int columns_parse(const char *text, const struct device_figure **out, size_t max, size_t *n,
		  struct error *err)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", text);
	size_t count = 0;
	char *save = NULL;
	for (char *w = strtok_r(buf, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save)) {
		const struct device_figure *c = column_find(w);
		if (!c)
			return error_set(err, "unknown column '%s'", w);
		bool dup = false;
		for (size_t i = 0; i < count; i++)
			dup = dup || out[i] == c;
		if (dup)
			continue;
		if (count == max)
			return error_set(err, "more than %zu columns", max);
		out[count++] = c;
	}
	if (count == 0)
		return error_set(err, "no columns given");
	*n = count;
	return 0;
}

double column_value(const struct device_figure *c, const struct device_rates *r)
{
	/* a discard or flush figure this kernel does not count shows its 0 here (the batch
	 * outputs call it missing: device_figure_missing) */
	if (c->kind == FIGURE_RATE && !r->valid)
		return NAN;
	return device_figure_value(r, c);
}

void column_format(const struct device_figure *c, const struct device_rates *r, char *buf,
		   size_t len)
{
	if (c->kind == FIGURE_SCHEDULER) {
		snprintf(buf, len, "%s", r->scheduler[0] ? r->scheduler : "-");
		return;
	}
	if (c->kind == FIGURE_IN_FLIGHT) {
		int n = snprintf(buf, len, "%llu", (unsigned long long)r->in_flight);
		if (n > c->width)
			numfmt_fit((double)r->in_flight, c->width, buf, len);
		return;
	}
	numfmt_fit(column_value(c, r), c->width, buf, len);
}
