/* source.h - where snapshots come from: the live kernel, a fixture tree, or a session log.
 *
 * Everything that consumes snapshots (batch, console, recorder) talks to this
 * interface only, so it never knows whether it is fed live or from a replay.
 */
#ifndef IOSCOPE_SOURCE_H
#define IOSCOPE_SOURCE_H

#include <stdbool.h>

#include "error.h"
#include "events.h"
#include "snapshot.h"

struct source;

struct source_ops {
	/* Take the next sample into *out (whose old contents are replaced).
	 * 1: a sample; 0: no more samples (end of fixture or log); -1: error. */
	int (*read)(struct source *src, struct snapshot *out, struct error *err);
	/* A descriptor that becomes readable when the next sample is due (a timerfd
	 * on absolute deadlines), or -1 when the next sample can be taken at once. */
	int (*wait_fd)(struct source *src);
	/* Change the interval; the next deadline is one new interval from now. */
	int (*set_interval)(struct source *src, double seconds, struct error *err);
	void (*destroy)(struct source *src);
	/* Optional (NULL: none).  Events that came with the last sample but cannot be
	 * derived by comparing snapshots: user marks and changes ioscope made, as a
	 * replayed log holds them.  Appended to *out; returns how many, -1 on ENOMEM. */
	int (*take_events)(struct source *src, struct event_list *out);
};

struct source {
	const struct source_ops *ops;
	double interval;     /* nominal seconds between samples */
	bool live;           /* samples the running kernel (controls may act) */
	bool paced;          /* wait_fd paces samples; false: as fast as read() */
};

#define INTERVAL_MIN 0.01
#define INTERVAL_MAX 3600.0

/* The live kernel, or when root is non-NULL a fixture tree under root: either one
 * tree re-read every interval, or numbered trees root/1, root/2, ... consumed one
 * per read without sleeping (elapsed time from their proc/uptime). */
struct source *source_live_new(const char *root, double interval, struct error *err);

/* Block until the next sample is due (uses wait_fd). -1 on error (EINTR included:
 * the caller checks its signal flags). */
int source_wait(struct source *src, struct error *err);

static inline int source_read(struct source *s, struct snapshot *o, struct error *e) { return s->ops->read(s, o, e); }
static inline int source_take_events(struct source *s, struct event_list *o) { return s->ops->take_events ? s->ops->take_events(s, o) : 0; }
static inline void source_destroy(struct source *s) { if (s) s->ops->destroy(s); }

#endif
