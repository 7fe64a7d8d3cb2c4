/* sink.h - where a session's samples and events go: the outputs' ops table, as source.h is
 * the inputs'.
 *
 * The session (session.h) hands every step's sample and events, and every event of ioscope's
 * own, to the sink registered by whoever opened it (the recorder: recorder_sink), so src/core
 * knows no consumer and depends on no layer above it (docs/design.md).
 */
#ifndef IOSCOPE_SINK_H
#define IOSCOPE_SINK_H

#include <stddef.h>

#include "error.h"
#include "events.h"
#include "selection.h"
#include "snapshot.h"

struct sink;

struct sink_ops {
	/* Before the first sample: the devices the output is made for. */
	void (*on_start)(struct sink *sink, const struct selection *sel);
	/* One sample and the events derived with it.  -1: not written (err). */
	int (*on_sample)(struct sink *sink, const struct snapshot *snap,
			 const struct event_list *events, struct error *err);
	/* An event between samples (a user mark, a change ioscope made).  -1 (err). */
	int (*on_event)(struct sink *sink, const struct event *ev, struct error *err);
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
