/* batch_formats.c - the table of batch mode's output formats (batch_format.h): one row
 * per --format name.  A new format is a row here and, printed from batch's view, its
 * render function in a file of its own (docs/design.md, "Adding an output"). */
#include <stdio.h>
#include <string.h>

#include "batch_format.h"
#include "text.h"

static int render_text(FILE *out, struct jsonw *w, const struct interval_view *v)
{
	(void)w;
	output_text(out, v);
	return 0;
}

static int render_csv(FILE *out, struct jsonw *w, const struct interval_view *v)
{
	(void)w;
	output_csv(out, v);
	return 0;
}

/* the formats printed from batch's view of a sample */
#define PRINTED .open = batch_printer_open, .print = batch_printer_print

const struct batch_format batch_formats[] = {
	{ .name = "text", .render = render_text, PRINTED },     /* the default: the first row */
	{ .name = "json", .render = output_json, PRINTED },
	{ .name = "csv", .render = render_csv, .header = output_csv_header, PRINTED },
	{ .name = "prometheus", .exporter = true, .open = prom_output_open_sink,
	  .print = prom_output_sink_print, .take_note = prom_output_sink_note },
};
const size_t batch_format_count = sizeof batch_formats / sizeof batch_formats[0];

const struct batch_format *batch_format_find(const char *name)
{
	for (size_t i = 0; i < batch_format_count; i++)
		if (strcmp(batch_formats[i].name, name) == 0)
			return &batch_formats[i];
	return NULL;
}

const struct batch_format *batch_format_exporter(void)
{
	for (size_t i = 0; i < batch_format_count; i++)
		if (batch_formats[i].exporter)
			return &batch_formats[i];
	return NULL;
}

void batch_format_names(char *buf, size_t len)
{
	const char *names[sizeof batch_formats / sizeof batch_formats[0]];
	for (size_t i = 0; i < batch_format_count; i++)
		names[i] = batch_formats[i].name;
	text_join(buf, len, names, batch_format_count, ", ", " or ");
}
