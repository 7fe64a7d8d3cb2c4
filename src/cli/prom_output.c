/* prom_output.c - batch mode's exporter, a sink of its session: the exposition to a
 * textfile and the HTTP server, and to standard output when batch asks
 * (src/cli/prom_sink.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_format.h"
#include "options.h"
#include "prom_sink.h"

int prom_output_open(struct prom_output *o, const struct options *opts, struct error *err)
{
	memset(o, 0, sizeof *o);
	prom_exporter_init(&o->x, !opts->no_iostat);
	prom_buf_init(&o->text);
	prom_buf_init(&o->om);
	batch_view_init(&o->view);
	o->with_tasks = opts->tasks;
	o->to_stdout = !opts->textfile && !opts->listen;
	if (opts->textfile) {
		if (prom_textfile_open(&o->file, opts->textfile, err) < 0)
			return -1;
		o->have_file = true;
	}
	if (opts->listen && !(o->http = prom_http_start(opts->listen, err)))
		return -1;
	return 0;
}

int prom_output_print(struct prom_output *o, FILE *out, struct error *err)
{
	const struct prom_buf *b = &o->text;
	errno = 0;
	if (fwrite(b->buf, 1, b->len, out) == b->len && fflush(out) == 0 && !ferror(out))
		return 0;
	return error_set(err, "standard output: %s", strerror(errno ? errno : EIO));
}

/* Counted, rendered, to the file and the server. */
static int emit(struct prom_output *o, const struct sink_sample *sample, struct error *err)
{
	struct interval_view v;
	if (batch_view_of(&o->view, sample, o->with_tasks, &v) < 0 ||
	    prom_exporter_update(&o->x, &v, sample->prev) < 0 ||
	    prom_render(&o->x, &v, PROM_TEXT, &o->text) < 0)
		return error_set(err, "out of memory");
	if (o->have_file &&
	    prom_textfile_write(&o->file, o->text.buf, o->text.len, &o->note, err) < 0)
		return -1;
	if (!o->http)
		return 0;
	if (prom_render(&o->x, &v, PROM_OPENMETRICS, &o->om) < 0 ||
	    prom_http_publish(o->http, &o->text, &o->om) < 0)
		return error_set(err, "out of memory");
	return 0;
}

bool prom_output_take_note(struct prom_output *o, struct error *note)
{
	if (!o->note.msg[0])
		return false;
	*note = o->note;
	o->note.msg[0] = '\0';
	return true;
}

void prom_output_close(struct prom_output *o)
{
	prom_http_stop(o->http);
	if (o->have_file)
		prom_textfile_close(&o->file);
	prom_buf_free(&o->text);
	prom_buf_free(&o->om);
	prom_exporter_free(&o->x);
	batch_view_free(&o->view);
	o->http = NULL;
	o->have_file = false;
}

/* ---- the exporter as a session's sink (sink.h) ---- */

static struct prom_output *of_sink(const struct sink *sink)
{
	return (struct prom_output *)sink;   /* the first member */
}

static int sink_sample(struct sink *sink, const struct sink_sample *sample, struct error *err)
{
	struct prom_output *o = of_sink(sink);
	o->failed = emit(o, sample, &o->failure) < 0;
	if (o->failed)
		*err = o->failure;
	return o->failed ? -1 : 0;
}

static const char *sink_failed(const struct sink *sink)
{
	const struct prom_output *o = of_sink(sink);
	return o->failed ? o->failure.msg : NULL;
}

static void sink_closed(struct sink *sink)
{
	prom_output_close(of_sink(sink));
	free(of_sink(sink));
}

static const struct sink_ops prom_output_sink_ops = {
	.on_sample = sink_sample,
	.failure = sink_failed,
	.close = sink_closed,
};

struct sink *prom_output_sink(struct prom_output *o)
{
	o->sink.ops = &prom_output_sink_ops;
	return &o->sink;
}

/* ---- the exporter as batch's --format prometheus (batch_format.h) ---- */

struct sink *prom_output_open_sink(const struct batch_format *f, const struct options *opts,
				   bool replay, struct error *err)
{
	(void)f;
	(void)replay;   /* the exposition has the tasks of --tasks only */
	struct prom_output *o = malloc(sizeof *o);
	if (!o) {
		error_set(err, "out of memory");
		return NULL;
	}
	if (prom_output_open(o, opts, err) == 0)
		return prom_output_sink(o);
	prom_output_close(o);
	free(o);
	return NULL;
}

/* --format prometheus prints the exposition; --textfile and --listen nothing */
int prom_output_sink_print(struct sink *sink, FILE *out, struct error *err)
{
	struct prom_output *o = of_sink(sink);
	return o->to_stdout ? prom_output_print(o, out, err) : 0;
}

bool prom_output_sink_note(struct sink *sink, struct error *note)
{
	return prom_output_take_note(of_sink(sink), note);
}
