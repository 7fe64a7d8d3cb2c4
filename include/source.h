/* source.h - where snapshots come from: the live kernel, a fixture tree, or a session log.
 *
 * Everything that consumes snapshots (batch, console, recorder) talks to this
 * interface only, so it never knows whether it is fed live or from a replay.
 */
#ifndef IOSCOPE_SOURCE_H
#define IOSCOPE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "error.h"
#include "events.h"
#include "snapshot.h"

struct source;
struct selection;   /* selection.h */

/* Where a recording's source stands. */
struct source_position {
	size_t next;                       /* the sample read() yields next */
	size_t count;                      /* samples in the recording */
	struct timespec first_mono, last_mono, first_wall;
	struct timespec last_read_mono, last_read_wall;   /* the sample read last */
};

#define SOURCE_SELECTION_MAX 32

/* What a source says about itself: the machine, damage met, the devices a
 * recording was made for. */
struct source_info {
	char host[256];
	char kernel[256];                  /* "Linux 6.1.0", "" unknown */
	size_t warnings;                   /* damaged records skipped */
	char first_warning[512];
	bool has_selection;                /* the recording names its devices */
	char selection[SOURCE_SELECTION_MAX][DEV_NAME_MAX];   /* none: all of them */
	size_t nselection;
};

/* How a source reads processes (set_tasks).  RELAXED is the why pane's own: while the
 * last read found no task blocked, the list is read every other sample and the sample
 * between hands on a copy of the last read (a live machine's only; docs/design.md, "The
 * process list's gate").  --tasks reads it every sample. */
enum source_tasks {
	SOURCE_TASKS_OFF,
	SOURCE_TASKS_EVERY_SAMPLE,
	SOURCE_TASKS_RELAXED,
};

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
	/* Optional (NULL: none; a live session hears them from the runtime directory).  The
	 * changes announced as about to be made, and withdrawn, before the last sample, as a
	 * replayed log holds them: appended.  -1 (err). */
	int (*take_announced)(struct source *src, struct event_list *pending,
			      struct event_list *withdrawn, struct error *err);

	/* Optional, sources that hold a whole recording (a replay); NULL: "not
	 * supported" (live).  Samples are numbered from 0. */
	/* The next read() yields sample i (count: at the end). */
	int (*seek)(struct source *src, size_t i, struct error *err);
	void (*position)(struct source *src, struct source_position *out);
	/* Sample i into *out without moving the position. */
	int (*read_at)(struct source *src, size_t i, struct snapshot *out, struct error *err);
	/* First sample at or after wall time t (count when none). */
	size_t (*find_wall)(struct source *src, const struct timespec *t);
	/* The events the recording holds, samples ascending, kept compact: how many, and
	 * event i decoded into *out (-1: i out of range). */
	size_t (*logged_event_count)(struct source *src);
	int (*logged_event)(struct source *src, size_t i, struct replay_event *out);
	/* The number of the first event the recording holds for the sample read last: its
	 * "n" (struct event's number), or in a log written before numbers its place among
	 * the logged events, from 1.  False when it holds none for that sample. */
	bool (*first_event_number)(struct source *src, uint64_t *number);
	/* Optional (NULL: reads everything): the devices watched, so that only their
	 * filesystems' journal files are read (sel->n 0: all). */
	void (*watch)(struct source *src, const struct selection *sel);
	/* Optional (NULL: nothing to do): the disk a view follows besides the selection (the
	 * console's selected row), "" none.  A live source reads the settings of the watched
	 * and the followed disks every sample, the rest's knobs every few seconds. */
	void (*follow)(struct source *src, const char *disk);
	/* Optional (NULL: the source cannot trace; a replay yields what its log holds).
	 * Turns the eBPF block-layer view on or off (include/trace_source.h): from the next
	 * read on, each snapshot's trace holds the interval since the previous read. */
	int (*trace)(struct source *src, bool on, struct error *err);
	/* Optional for every source: where the samples come from (NULL: this machine). */
	void (*describe)(struct source *src, struct source_info *out);
	/* Optional (NULL: a recording, whose samples have tasks when they were recorded
	 * with them): sample blocked tasks and per-process I/O (snapshot.tasks) from the
	 * next read on, or stop (--tasks, the console's why pane). */
	int (*set_tasks)(struct source *src, enum source_tasks how, struct error *err);
	/* Optional (NULL: every read reads every setting): ioscope just changed a setting of
	 * this disk, so the next read reads all of them (a live source reads some only every
	 * few seconds, docs/sources.md), and the diff sees the change while the echo filter
	 * still knows it. */
	void (*settings_changed)(struct source *src, const char *disk);
};

struct source {
	const struct source_ops *ops;
	double interval;     /* nominal seconds between samples */
	bool live;           /* samples the running kernel (controls may act) */
	bool paced;          /* wait_fd paces samples; false: as fast as read() */
	bool quiet;          /* warnings only through describe(), not stderr (curses is on) */
	/* /proc/diskstats lines read only in part (more fields than a known layout: the
	 * largest known layout taken) and lines skipped (fewer than 14 fields), so far */
	uint64_t diskstats_extra_lines, diskstats_malformed_lines;
};

/* What is worth saying once about the lines counted above: a malformed line always, a
 * longer one with `verbose`.  Fills msg and returns true when there is something new
 * since *said (which it updates); false otherwise. */
bool source_diskstats_notice(const struct source *src, bool verbose, uint64_t said[2],
			     char *msg, size_t len);

#define INTERVAL_MIN 0.01
#define INTERVAL_MAX 3600.0

/* The live kernel, or when root is non-NULL a fixture tree under root: either one
 * tree re-read every interval, or numbered trees root/1, root/2, ... consumed one
 * per read without sleeping (elapsed time from their proc/uptime). */
struct source *source_live_new(const char *root, double interval, struct error *err);
/* A live source's responsiveness probe (include/probe.h): every `interval` seconds one
 * 4 KiB read of `path` that reaches the device, timed; with exec, a cold program start
 * too.  Its samples come with each snapshot (snapshot.probe).  path NULL: the probe
 * stopped (a matrix unmounting the filesystem it reads).  -1 with err. */
int source_live_probe(struct source *src, const char *path, double interval, bool exec,
		      struct error *err);
/* The running probe reads every `interval` seconds from now on; nothing without one. */
void source_live_probe_interval(struct source *src, double interval);
/* What the probe has to tell the user, "" nothing (probe_notice). */
const char *source_live_probe_notice(const struct source *src);

/* Block until the next sample is due (uses wait_fd). -1 on error (EINTR included:
 * the caller checks its signal flags). */
int source_wait(struct source *src, struct error *err);

static inline int source_read(struct source *s, struct snapshot *o, struct error *e) { return s->ops->read(s, o, e); }
static inline int source_take_events(struct source *s, struct event_list *o) { return s->ops->take_events ? s->ops->take_events(s, o) : 0; }
static inline int source_take_announced(struct source *s, struct event_list *pending,
					struct event_list *withdrawn, struct error *err)
{
	return s->ops->take_announced ? s->ops->take_announced(s, pending, withdrawn, err) : 0;
}
static inline void source_watch(struct source *s, const struct selection *sel) { if (s->ops->watch) s->ops->watch(s, sel); }
static inline void source_follow(struct source *s, const char *disk) { if (s->ops->follow) s->ops->follow(s, disk); }
static inline void source_settings_changed(struct source *s, const char *disk)
{
	if (s->ops->settings_changed)
		s->ops->settings_changed(s, disk);
}
static inline void source_destroy(struct source *s) { if (s) s->ops->destroy(s); }
static inline int source_set_tasks(struct source *s, enum source_tasks how, struct error *e) { return s->ops->set_tasks ? s->ops->set_tasks(s, how, e) : 0; }
int source_trace(struct source *s, bool on, struct error *err);
/* A recording's source: seek and position work (a live source says no). */
static inline bool source_can_seek(const struct source *s) { return s->ops->seek && s->ops->position; }

#endif
