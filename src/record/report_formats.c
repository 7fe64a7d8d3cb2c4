/* report_formats.c - the table of `ioscope report --format` (report.h): one row per
 * format.  A new format is a row here and its renderer in a file of its own
 * (docs/design.md, "Adding an output"). */
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "text.h"

const struct report_format report_formats[] = {
	{ .name = "text", .render = report_text },   /* the default: the first row */
	{ .name = "csv", .render = report_csv },
	{ .name = "json", .render = report_json },
	{ .name = "svg", .render = report_svg, .available = report_plot_available },
	{ .name = "png", .render = report_png, .available = report_plot_available,
	  .binary = true },
};
const size_t report_format_count = sizeof report_formats / sizeof report_formats[0];

const struct report_format *report_format_find(const char *name)
{
	for (size_t i = 0; i < report_format_count; i++)
		if (strcmp(report_formats[i].name, name) == 0)
			return &report_formats[i];
	return NULL;
}

void report_format_names(char *buf, size_t len, const char *sep, const char *last,
			 bool always_only)
{
	const char *names[sizeof report_formats / sizeof report_formats[0]];
	size_t n = 0;
	for (size_t i = 0; i < report_format_count; i++)
		if (!always_only || !report_formats[i].available)
			names[n++] = report_formats[i].name;
	text_join(buf, len, names, n, sep, last);
}
