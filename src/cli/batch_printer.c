/* batch_printer.c - the sink of a batch format printed from batch's view of a sample
 * (text, JSON, CSV: batch_format.h).  The session feeds it; it keeps the view of the
 * latest sample, which points into the session's sample, and renders it when batch asks,
 * after the interval's notes on standard error. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "batch_format.h"
#include "batch_view.h"
#include "options.h"

struct batch_printer {
	struct sink sink;                /* first: the session's view of it */
	const struct batch_format *f;
	struct batch_view view;          /* what batch shows of the sample (batch_view.h) */
	struct interval_view v;          /* of the latest sample */
	struct jsonw json;
	bool with_tasks;                 /* --tasks */
	bool logged_tasks;               /* a replay: the tasks of a recording made with --tasks */
	bool failed;
	struct error failure;            /* the last sample's, while failed */
};

static struct batch_printer *of_sink(const struct sink *sink)
{
	return (struct batch_printer *)sink;   /* the first member */
}

static int sink_sample(struct sink *sink, const struct sink_sample *sample, struct error *err)
{
	struct batch_printer *p = of_sink(sink);
	bool tasks = p->with_tasks || (p->logged_tasks && sample->snap->tasks);
	p->failed = batch_view_of(&p->view, sample, tasks, &p->v) < 0;
	if (!p->failed)
		return 0;
	error_set(&p->failure, "out of memory");
	*err = p->failure;
	return -1;
}

static const char *sink_failed(const struct sink *sink)
{
	const struct batch_printer *p = of_sink(sink);
	return p->failed ? p->failure.msg : NULL;
}

static void sink_closed(struct sink *sink)
{
	struct batch_printer *p = of_sink(sink);
	batch_view_free(&p->view);
	jsonw_free(&p->json);
	free(p);
}

static const struct sink_ops batch_printer_ops = {
	.on_sample = sink_sample,
	.failure = sink_failed,
	.close = sink_closed,
};

struct sink *batch_printer_open(const struct batch_format *f, const struct options *opts,
				bool replay, struct error *err)
{
	struct batch_printer *p = calloc(1, sizeof *p);
	if (!p) {
		error_set(err, "out of memory");
		return NULL;
	}
	p->sink.ops = &batch_printer_ops;
	p->f = f;
	batch_view_init(&p->view);
	jsonw_init(&p->json);
	p->with_tasks = opts->tasks;
	p->logged_tasks = replay;
	return &p->sink;
}

int batch_printer_print(struct sink *sink, FILE *out, struct error *err)
{
	struct batch_printer *p = of_sink(sink);
	if (p->f->render(out, &p->json, &p->v) < 0)
		return error_set(err, "out of memory");
	/* a full disk or a closed pipe ends the run, and says so */
	errno = 0;
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	return error_set(err, "standard output: %s", strerror(errno ? errno : EIO));
}
