/* events.h - changes between two snapshots (and user marks, and our own changes).
 *
 * An event is what the console draws as a mark on the graphs and what the
 * recorder logs: time, object, key, old and new value, and for changes ioscope
 * made itself, the result.
 */
#ifndef IOSCOPE_EVENTS_H
#define IOSCOPE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "snapshot.h"

enum event_kind {
	EVENT_SCHEDULER,      /* object: disk, key "scheduler" */
	EVENT_TUNABLE,        /* object: disk, key "nr_requests" / "iosched.NAME" ... */
	EVENT_WRITE_CACHE,    /* object: disk, key "write_cache" */
	EVENT_MOUNT_OPTIONS,  /* object: mount point, key "mount_opts" / "super_opts" */
	EVENT_MOUNT_ADDED,    /* object: mount point, key "mount", new: "SOURCE TYPE OPTS" */
	EVENT_MOUNT_REMOVED,
	EVENT_DEVICE_ADDED,   /* object: device, key "device" */
	EVENT_DEVICE_REMOVED,
	EVENT_USER_MARK,      /* object "user", key "mark", new: the text */
	EVENT_COUNTERS_RESET, /* object: device, key "counters", new: why ("re-created") */
	EVENT_CLOCK_BACK,     /* object "system", key "clock", old/new: seconds, later < earlier */
	EVENT_KIND_COUNT
};

struct event {
	struct timespec wall;
	struct timespec mono;
	enum event_kind kind;
	char object[MOUNT_PATH_MAX];
	char key[SETTING_KEY_MAX];
	char old_value[MOUNT_OPTS_MAX];
	char new_value[MOUNT_OPTS_MAX];
	char result[256];     /* for changes made by ioscope: "ok", "accepted, not applied", kernel message; "" when observed */
	char by[16];          /* "observed" or "ioscope" */
};

struct event_list {
	struct event *items;
	size_t count, cap;
};

void event_list_init(struct event_list *l);
void event_list_free(struct event_list *l);
void event_list_clear(struct event_list *l);
struct event *event_list_add(struct event_list *l);   /* zeroed; NULL on ENOMEM */

/* Append to *out every change from prev to cur, stamped with cur's times.
 * Returns the number added, -1 on ENOMEM. */
int events_diff(struct event_list *out, const struct snapshot *prev, const struct snapshot *cur);

/* True when `observed`, found by events_diff, is the same change as `own`, one that
 * ioscope made itself and logged when it made it: the diff of the next sample sees
 * it again, and it must be marked once. */
bool event_echoes(const struct event *observed, const struct event *own);
/* Remove from *l every observed event that echoes one of own[0..nown). */
void events_drop_echoes(struct event_list *l, const struct event *own, size_t nown);

/* ioscope's own changes of the last two samples, to drop their echoes: a change is
 * seen by the diff of the next sample, or of the one after when it landed just as a
 * sample was read. */
struct echo_filter {
	struct event_list own;
	size_t fresh;          /* of them, those since the latest sample */
};
void echo_filter_init(struct echo_filter *f);
void echo_filter_free(struct echo_filter *f);
void echo_filter_clear(struct echo_filter *f);
/* Remember ev if it is a change ioscope made (not observed, not a user mark). */
void echo_filter_remember(struct echo_filter *f, const struct event *ev);
/* For one sample's events: those from index `derived` on came with the sample (a
 * replay's own changes) and are remembered; then echoes are dropped and the
 * changes older than the sample before last forgotten. */
void echo_filter_sample(struct echo_filter *f, struct event_list *events, size_t derived);

const char *event_kind_name(enum event_kind kind);
int event_kind_from_name(const char *name);   /* -1 if unknown */
/* A short label for graphs and logs: "sched mq-deadline→bfq", "remount +noatime -relatime". */
void event_label(const struct event *ev, char *buf, size_t len);

#endif
