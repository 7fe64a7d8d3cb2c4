/* batch_format.h - batch mode's output formats (--format NAME), one row each in
 * batch_formats[] (batch_formats.c): what `--format` accepts, what --help and its error
 * list, and how batch prints an interval all come from the table.
 *
 * A format's output is a sink of the session (sink.h), added after the recording: the
 * session feeds it every sample, and batch, once an interval's notes are said on
 * standard error, asks it to print that interval on standard output.  A format printed
 * from batch's view of a sample (text, JSON, CSV: batch_view.h) has a render function
 * and the shared printer (batch_printer.c) as its sink; one with outputs of its own (the
 * Prometheus exporter: a file, an HTTP server) brings its own sink.
 */
#ifndef IOSCOPE_BATCH_FORMAT_H
#define IOSCOPE_BATCH_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "jsonw.h"
#include "output.h"
#include "sink.h"

struct options;

struct batch_format {
	const char *name;    /* --format NAME */
	/* What --textfile and --listen write, the format --no-iostat shapes: the one row
	 * that batch runs when exporting without --format. */
	bool exporter;
	/* Once, before the first interval (CSV's header line).  NULL: nothing. */
	void (*header)(FILE *out);
	/* One interval as batch shows it (w: a reused buffer).  -1: out of memory or a write
	 * error.  Used by the printer sink (batch_printer_open); NULL for a row that brings
	 * its own sink. */
	int (*render)(FILE *out, struct jsonw *w, const struct interval_view *v);
	/* The format's output, opened before the first sample, nothing written yet (replay:
	 * the source is not live, a recording: batch shows the tasks its log holds, without
	 * --tasks).  NULL with err: exit status 1.  sink_close frees it. */
	struct sink *(*open)(const struct batch_format *f, const struct options *opts,
			     bool replay, struct error *err);
	/* The latest interval (never the baseline) on out.  -1 with err. */
	int (*print)(struct sink *sink, FILE *out, struct error *err);
	/* What the last sample's writing has to say once on standard error, into note, then
	 * forgotten; false when nothing.  NULL: never anything. */
	bool (*take_note)(struct sink *sink, struct error *note);
};

extern const struct batch_format batch_formats[];
extern const size_t batch_format_count;

/* The row named name; NULL: none. */
const struct batch_format *batch_format_find(const char *name);
/* The row --textfile and --listen run (exporter). */
const struct batch_format *batch_format_exporter(void);
/* "text, json, csv or prometheus": the names in the table's order, for --help and errors. */
void batch_format_names(char *buf, size_t len);

/* The printer: the sink of a format with a render function.  It keeps batch's view of
 * each sample (the tasks with --tasks, and in a replay those its log holds) and renders
 * it when asked to print. */
struct sink *batch_printer_open(const struct batch_format *f, const struct options *opts,
				bool replay, struct error *err);
int batch_printer_print(struct sink *sink, FILE *out, struct error *err);

/* The Prometheus exporter's row (prom_output.c, prom_sink.h): to standard output too
 * when neither --textfile nor --listen is given. */
struct sink *prom_output_open_sink(const struct batch_format *f, const struct options *opts,
				   bool replay, struct error *err);
int prom_output_sink_print(struct sink *sink, FILE *out, struct error *err);
bool prom_output_sink_note(struct sink *sink, struct error *note);

#endif
