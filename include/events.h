/* events.h - changes between two snapshots (and user marks, and our own changes).
 *
 * An event is what the console draws as a mark on the graphs and what the
 * recorder logs (docs/session-log.md, "event"): time, object, key, old and new
 * value, who made it, and for changes ioscope made itself, the result.
 *
 * It is a small fixed record (a head of short fields and pointers, checked to stay
 * at most 512 bytes) and a payload: its texts, and for a scheduler switch the
 * settings it reset, in one heap block the event owns (NULL when every text is
 * empty), so a list copies what an event holds, not every field at its largest.
 *
 * Ownership: an event filled by event_init(), event_own(), event_copy(), a setter,
 * events_diff() or a parser owns its payload; event_free() releases it.  A struct
 * assignment moves an event (forget the source, do not free it); event_copy()
 * duplicates one.  Functions that fill an event overwrite it without releasing
 * what it held.  An event handed out as a view (replay_event_get(): texts kept by
 * the replay) owns nothing: event_free() is harmless, event_copy() keeps it.
 */
#ifndef IOSCOPE_EVENTS_H
#define IOSCOPE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "snapshot.h"

enum event_kind {
	EVENT_SCHEDULER,      /* object: disk, key "scheduler"; resets: what the switch reset */
	EVENT_TUNABLE,        /* object: disk, key "nr_requests" / "iosched.NAME" ... */
	EVENT_WRITE_CACHE,    /* object: disk, key "write_cache" */
	EVENT_MOUNT_OPTIONS,  /* object: mount point, key "mount_opts" / "super_opts"; one
			         remount that changed both: "mount_opts", the fs options' change
			         in resets (super_opts [taken off, put on]) */
	EVENT_MOUNT_ADDED,    /* object: mount point, key "mount", new: "SOURCE TYPE OPTS" */
	EVENT_MOUNT_REMOVED,  /* object: mount point, key "mount", old: "SOURCE TYPE OPTS" */
	EVENT_DEVICE_ADDED,   /* object: device, key "device"; a loop device with a file: its
			         loop.* settings in resets (loop.backing_file [null, FILE]) */
	EVENT_DEVICE_REMOVED, /* the same; a loop device that had a file: [FILE, null] */
	EVENT_USER_MARK,      /* object "user", key "mark", new: the text */
	EVENT_COUNTERS_RESET, /* object: device, key "counters", new: why ("re-created") */
	EVENT_CLOCK_BACK,     /* object "system", key "clock", old/new: seconds, later < earlier */
	EVENT_DIP,            /* object: device, key "throughput", old/new: MB/s; reasons (dip.h) */
	EVENT_RUN,            /* a watched command (`ioscope run`): object "run", key "start" or
			         "exit", new: the command line / "exit N"; result: key=value figures.
			         A step of `ioscope matrix`: object "matrix", key the step, result
			         its progress (matrix_status.h) */
	EVENT_TRACE,          /* the eBPF view turned on or off live (the console's key): object
			         "trace", key "trace", old/new "off"/"on", by "ioscope" */
	EVENT_LOOP_BACKING,   /* a loop device attached, detached or given another file: object
			         the device, key "backing_file", old/new the file ("" none);
			         resets: its loop.* settings that came or went with it */
	EVENT_KIND_COUNT
};

/* A setting a scheduler switch reset (nr_requests, an iosched.* tunable).  A
 * tunable of the old scheduler is gone (has_new false), one of the new scheduler is
 * new (had_old false); the value strings are then "". */
#define EVENT_RESETS_MAX 24
#define EVENT_RESET_VAL_MAX 64
struct event_reset {
	char key[SETTING_KEY_MAX];
	char old_value[EVENT_RESET_VAL_MAX];
	char new_value[EVENT_RESET_VAL_MAX];
	bool had_old, has_new;
};

/* The longest texts, in bytes with the NUL: a longer one is cut (as it always was,
 * so that a log written with it replays the same). */
#define EVENT_OBJECT_MAX MOUNT_PATH_MAX
#define EVENT_VALUE_MAX MOUNT_OPTS_MAX
#define EVENT_RESULT_MAX 256
#define EVENT_BY_MAX 16
#define EVENT_REASONS_MAX 512

/* Every field has one meaning, whatever the kind (the enum above says what each kind
 * puts in them).  The texts are never NULL: "" is none. */
struct event {
	struct timespec wall;    /* CLOCK_REALTIME when it happened (observed: the sample that saw it) */
	struct timespec mono;    /* CLOCK_MONOTONIC then (a fixture's uptime) */
	enum event_kind kind;
	char key[SETTING_KEY_MAX];  /* what of the object: a setting's name, "mount", "mark"... */
	char by[EVENT_BY_MAX];   /* who: "observed" (found by comparing samples) or "ioscope" */
	/* Its number, the session's count of its events in the order its log has them (1 for
	 * the first; "n" in the log): the mark's "[3]" live, in the log, a replay and a report,
	 * whatever a view shows.  0: not numbered (yet; a log written before numbers). */
	uint64_t number;
	/* In the payload: */
	const char *object;      /* what it happened to: a device's kernel name, a mount point,
				    or "user", "system", "run", "matrix", "trace" */
	const char *old_value;   /* the value before, as text */
	const char *new_value;   /* the value after, as text (a mark's text, a command line) */
	const char *result;      /* what ioscope says came of it: the outcome of a change it made
				    ("ok", "accepted, not applied", a kernel message), a run's or a
				    matrix step's figures; "" when observed */
	const char *reasons;     /* EVENT_DIP: the signals that moved with it, ranked, one a line */
	const char *scope;       /* the kernel name of the device a watched command, a matrix step
				    or a mark concerns ("" every device's): another user's
				    experiment on its own disk is no event of a session watching
				    another (selection.h) */
	/* EVENT_SCHEDULER: the settings the switch reset, in key order (one change, one
	 * mark); a setting ioscope wrote: the others the kernel changed with it
	 * (read_ahead_kb reset by max_sectors_kb); a loop device attached or detached (or
	 * added or removed with its file): its loop.* settings that came or went with it.
	 * Past EVENT_RESETS_MAX they are only counted in resets_dropped. */
	const struct event_reset *resets;
	size_t nresets, resets_dropped;
	void *payload;           /* owned: the block the texts and resets above are in, or NULL */
};

/* Empty: every text "", no resets, owning nothing. */
void event_init(struct event *ev);
/* Release the payload; ev is then empty (event_init). */
void event_free(struct event *ev);
/* *dst (overwritten) becomes a copy of *src that owns its own payload.  -1 on
 * ENOMEM: dst has src's head and empty texts. */
int event_copy(struct event *dst, const struct event *src);
/* Set one text (printf format), cut to its maximum above.  -1 on ENOMEM: unchanged. */
int event_set_object(struct event *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int event_set_old_value(struct event *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int event_set_new_value(struct event *ev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int event_set_result(struct event *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int event_set_scope(struct event *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A list owns its events.  Clearing it frees them and keeps room for
 * EVENT_LIST_KEEP: the room a burst took is given back. */
#define EVENT_LIST_KEEP 64
struct event_list {
	struct event *items;
	size_t count, cap;
};

void event_list_init(struct event_list *l);
void event_list_free(struct event_list *l);
void event_list_clear(struct event_list *l);
struct event *event_list_add(struct event_list *l);   /* empty (event_init); NULL on ENOMEM */
/* *ev (overwritten) one of ioscope's own events (by "ioscope"), stamped now. */
void event_own(struct event *ev, enum event_kind kind, const char *object, const char *key);
/* ev's times made now (CLOCK_REALTIME, CLOCK_MONOTONIC): a change stamped when it took
 * effect, not when it was begun. */
void event_stamp(struct event *ev);

/* Append to *out every change from prev to cur, stamped with cur's times.
 * Returns the number added, -1 on ENOMEM. */
int events_diff(struct event_list *out, const struct snapshot *prev, const struct snapshot *cur);

/* True when events_diff finds ev again by comparing the snapshots around it (an observed
 * change), false for what only a log or ioscope itself knows (marks, dips, its changes). */
bool event_is_derivable(const struct event *ev);
/* True when `observed`, found by events_diff, is the same change as `own`, one that
 * ioscope made itself and logged when it made it, or a setting own lists as reset with
 * it: the diff of the next sample sees it again, and it must be marked once. */
bool event_echoes(const struct event *observed, const struct event *own);
/* True when `made`, an event of a change ioscope made, is the one announced as about to be
 * made as kind, object, key: the same setting, or for a remount the same mount point (its
 * events say which options changed: mount_opts, super_opts).  Not every change announced
 * on an object: `ioscope set loop0 nr_requests=4 max_sectors_kb=4` stamps each write's
 * event when that write returns. */
bool event_answers(const struct event *made, enum event_kind kind, const char *object,
		   const char *key);
/* Remove (and free) from *l every observed event that echoes one of own[0..nown). */
void events_drop_echoes(struct event_list *l, const struct event *own, size_t nown);

/* In the order they happened (CLOCK_MONOTONIC), those of the same time kept in order: a
 * sample's diff, a command's exit, a change announced from a shell each come their own
 * way. */
void events_sort_by_time(struct event_list *l);

/* ioscope's own changes of the last two samples, to drop their echoes: a change is
 * seen by the diff of the next sample, or of the one after when it landed just as a
 * sample was read. */
struct echo_filter {
	struct event_list own;
	size_t last;           /* of them, those of the latest sample */
	size_t fresh;          /* and those since */
};
void echo_filter_init(struct echo_filter *f);
void echo_filter_free(struct echo_filter *f);
void echo_filter_clear(struct echo_filter *f);
/* Remember ev if it is a change ioscope made (not observed, not a user mark). */
void echo_filter_remember(struct echo_filter *f, const struct event *ev);
/* For one sample's events: those from index `derived` on came with the sample (a
 * replay's own changes) and are remembered, the changes older than the sample before
 * forgotten, and echoes dropped.  What is left is this sample's and the one before's
 * (expect_sample: a replay gives a change's event with the sample before its stamp, and
 * its announcement with the sample after). */
void echo_filter_sample(struct echo_filter *f, struct event_list *events, size_t derived);

/* True for the settings a scheduler switch resets, the knob table's on_switch
 * (knobs.h): nr_requests, iosched.* and wbt_lat_usec (which bfq turns off). */
bool event_key_is_reset(const char *key);
/* Add one reset to a scheduler event (old / new NULL: absent).  Past
 * EVENT_RESETS_MAX (or out of memory) it is only counted. */
void event_add_reset(struct event *ev, const char *key, const char *old_value,
		     const char *new_value);
/* A remount's other column (key "super_opts"), changed with the one ev says, as a reset
 * of ev: the options it took off (old) and put on (new), a comma list each ("rw", "ro";
 * "commit=5", "commit=30"), whole options only within EVENT_RESET_VAL_MAX.  ev's label
 * says both columns' change, each option once. */
void event_add_options_reset(struct event *ev, const char *key, const char *old_opts,
			     const char *new_opts);
/* The resets of a switch from `before` to `after` (both sorted by key) into ev. */
void event_resets_between(struct event *ev, const struct disk_settings *before,
			  const struct disk_settings *after);
/* What else changed from `before` to `after` with ioscope's write of ev->key (the kernel's
 * side effects: read_ahead_kb reset by max_sectors_kb) into ev's resets. */
void event_side_effects_between(struct event *ev, const struct disk_settings *before,
				const struct disk_settings *after);
/* Add a reason to a dip event (ranked: in the order added); false when full (or
 * out of memory). */
bool event_add_reason(struct event *ev, const char *reason);
/* Reason i of a dip event into buf; false past the last. */
bool event_reason(const struct event *ev, size_t i, char *buf, size_t len);
/* "nr_requests 64→256, iosched.fifo_batch 16→-" ("-": absent); "" when none, or when the
 * label says them (event_label_has_resets). */
void event_resets_text(const struct event *ev, char *buf, size_t len);
/* The label says what the resets hold (a loop device's file and flags: "attached FILE
 * (dio 0, ro 0, 64 MiB)"): views list them apart only for scripts (JSON). */
bool event_label_has_resets(const struct event *ev);

/* An event of a session log and the sample it came with.  The event is a view: its
 * texts are the replay's (valid while it is open), its resets those below (so a
 * replay_event is not copied); event_copy() it to keep it. */
struct replay_event {
	size_t sample;            /* 0-based index of the sample it belongs to */
	bool derivable;           /* events_diff finds it again by comparing snapshots */
	struct event event;
	struct event_reset resets[EVENT_RESETS_MAX];
};

const char *event_kind_name(enum event_kind kind);
int event_kind_from_name(const char *name);   /* -1 if unknown */
/* A short label for graphs and logs: "sched mq-deadline→bfq", "remount +noatime -relatime",
 * "attached /var/tmp/a.img (dio 0, ro 0, 64 MiB)", "detached from /var/tmp/a.img",
 * "removed"; a refused change: what was tried and the refusal (event_refused). */
void event_label(const struct event *ev, char *buf, size_t len);
/* What changed, the object put in where it reads naturally, and nothing around it:
 * "sched loop0 mq-deadline→bfq", "loop0 nr_requests 64→128", "remount /home +barrier",
 * "loop7 detached from /var/tmp/a.img", "loop200 removed", "mark: text"; the rest as
 * event_label().  Every view's mark label starts here. */
void event_mark_label(const struct event *ev, char *buf, size_t len);
/* What ioscope says came of a change it made ("ok", "accepted, not applied ..."), without
 * the settings a scheduler switch reset (its resets carry them); "" when observed, and for
 * a refused change, whose label says what was tried and the refusal. */
void event_verdict(const struct event *ev, char *buf, size_t len);
/* A change ioscope made that the kernel (or its checks) refused: nothing changed, its
 * result is "refused: TRIED: WHY" ("refused: nr_requests=99999: Invalid argument",
 * "refused: +nobarrier: xfs: Unknown parameter 'nobarrier' ..."), and its label says
 * both: "nr_requests 64→99999: refused: Invalid argument", "remount +nobarrier: refused:
 * xfs: Unknown parameter 'nobarrier' ...". */
bool event_refused(const struct event *ev);

#endif
