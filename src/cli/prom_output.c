/* prom_output.c - batch mode's exposition to standard output, a textfile and the HTTP
 * server (src/cli/prom_sink.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "prom_sink.h"

bool prom_output_wanted(const struct options *opts)
{
	return opts->format == FORMAT_PROMETHEUS || opts->textfile || opts->listen;
}

int prom_output_open(struct prom_output *o, const struct options *opts, struct error *err)
{
	memset(o, 0, sizeof *o);
	prom_exporter_init(&o->x, !opts->no_iostat);
	prom_buf_init(&o->text);
	prom_buf_init(&o->om);
	o->to_stdout = opts->format == FORMAT_PROMETHEUS && !opts->textfile && !opts->listen;
	if (opts->textfile) {
		if (prom_textfile_open(&o->file, opts->textfile, err) < 0)
			return -1;
		o->have_file = true;
	}
	if (opts->listen && !(o->http = prom_http_start(opts->listen, err)))
		return -1;
	return 0;
}

static int to_stdout(const struct prom_buf *b, struct error *err)
{
	errno = 0;
	if (fwrite(b->buf, 1, b->len, stdout) == b->len && fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	return error_set(err, "standard output: %s", strerror(errno ? errno : EIO));
}

int prom_output_emit(struct prom_output *o, const struct interval_view *v,
		     const struct snapshot *prev, bool baseline, struct error *err)
{
	if (prom_exporter_update(&o->x, v, prev) < 0 ||
	    prom_render(&o->x, v, PROM_TEXT, &o->text) < 0)
		return error_set(err, "out of memory");
	if (o->to_stdout && !baseline && to_stdout(&o->text, err) < 0)
		return -1;
	if (o->have_file && prom_textfile_write(&o->file, o->text.buf, o->text.len, err) < 0)
		return -1;
	if (!o->http)
		return 0;
	if (prom_render(&o->x, v, PROM_OPENMETRICS, &o->om) < 0 ||
	    prom_http_publish(o->http, &o->text, &o->om) < 0)
		return error_set(err, "out of memory");
	return 0;
}

void prom_output_close(struct prom_output *o)
{
	prom_http_stop(o->http);
	if (o->have_file)
		prom_textfile_close(&o->file);
	prom_buf_free(&o->text);
	prom_buf_free(&o->om);
	prom_exporter_free(&o->x);
	o->http = NULL;
	o->have_file = false;
}
