/* sink.h - where a session's samples and events go: the outputs' ops table, as source.h is
 * the inputs'.
 *
 * The session (session.h) hands every step's sample and events, and every event of ioscope's
 * own, to each sink registered on it: the recording (recorder_sink), batch mode's --format
 * output and Prometheus exporter (src/cli/batch_format.h).  So src/core knows no consumer
 * and depends on no layer above it (docs/design.md).
 *
 * A write that fails (-1 from on_sample, on_event, on_announced) is never fatal and keeps
 * nothing from the other sinks; the sink says why by failure(), the session returns it
 * from the call that made the write and keeps its first for session_sink_error
 * (docs/design.md, "A sink failed").
 */
#ifndef IOSCOPE_SINK_H
#define IOSCOPE_SINK_H

#include <stddef.h>

#include "error.h"
#include "events.h"
#include "selection.h"
#include "snapshot.h"

struct rates;       /* rates.h */
struct why_rates;   /* why.h */

/* One step as the session derived it.  The baseline (the first sample) has no prev,
 * rates nor why. */
struct sink_sample {
	const struct snapshot *snap;        /* the latest */
	const struct snapshot *prev;        /* the one before; NULL: the baseline */
	const struct rates *rates;          /* of prev -> snap; NULL: the baseline */
	const struct why_rates *why;        /* of the same interval; NULL: the baseline */
	const struct event_list *events;    /* the step's, echoes of ioscope's changes dropped */
	const struct selection *sel;        /* the devices named (none: all) */
};

struct sink;

struct sink_ops {
	/* Before the first sample: the devices the output is made for.  NULL: nothing to do. */
	void (*on_start)(struct sink *sink, const struct selection *sel);
	/* One sample and the events derived with it.  -1: not written (err). */
	int (*on_sample)(struct sink *sink, const struct sink_sample *sample, struct error *err);
	/* An event between samples (a user mark, a change ioscope made).  -1 (err).  NULL:
	 * the output has no use for them (it counts the events of the samples). */
	int (*on_event)(struct sink *sink, const struct event *ev, struct error *err);
	/* A change announced as about to be made, or withdrawn (session_expect_event): what
	 * samples hold their observations for.  -1 (err).  NULL: of no use to the output. */
	int (*on_announced)(struct sink *sink, const struct event *ev, bool withdrawn,
			    struct error *err);
	/* Why the last write failed, NULL while writes succeed. */
	const char *(*failure)(const struct sink *sink);
	void (*close)(struct sink *sink);
};

struct sink {
	const struct sink_ops *ops;
};

/* NULL: no sink, no failure. */
static inline const char *sink_failure(const struct sink *sink)
{
	return sink ? sink->ops->failure(sink) : NULL;
}

/* NULL: nothing to close. */
static inline void sink_close(struct sink *sink)
{
	if (sink)
		sink->ops->close(sink);
}

#endif
