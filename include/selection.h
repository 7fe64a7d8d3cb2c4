/* selection.h - the devices the user named (DEVICE arguments, --devices, a
 * recording's "selection"): what views show and which events concern them.
 * The session log keeps every event; views filter through this. */
#ifndef IOSCOPE_SELECTION_H
#define IOSCOPE_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include "events.h"
#include "snapshot.h"
#include "source.h"

struct selection {
	char names[SOURCE_SELECTION_MAX][DEV_NAME_MAX];   /* kernel names */
	size_t n;                                          /* 0: every device */
};

static inline bool selection_all(const struct selection *s) { return s->n == 0; }
/* Add a kernel name (once).  -1 when the selection is full. */
int selection_add(struct selection *s, const char *name);
/* The device is named, or is a partition of a named disk, or the disk of a named
 * partition (partitions looked up in snap). */
bool selection_covers_device(const struct selection *s, const struct snapshot *snap, const char *name);
/* Events of this kind concern every device, whoever made them: user marks, a watched
 * command's start and exit (and a matrix's steps), the clock going back (why every figure
 * of its interval is missing), tracing turned on or off (every disk's) -- unless the event
 * names its device (event.scope: a matrix's steps and command, `ioscope mark --device`),
 * which it then concerns alone. */
bool selection_kind_concerns_all(enum event_kind k);
/* The device an event concerns ("" for marks and the clock): its scope where it has one,
 * its object, or for a mount event the device of the filesystem (in `at`, else `before`,
 * else its source). */
void selection_event_device(const struct snapshot *at, const struct snapshot *before,
			    const struct event *ev, char *out, size_t len);
/* The event concerns the selection: user marks and the clock going back always; device events by their
 * object; mount events by the device the filesystem is on in `at` (for one removed,
 * in `before`, which may be NULL). */
bool selection_covers_event(const struct selection *s, const struct snapshot *at,
			    const struct snapshot *before, const struct event *ev);

/* The same for an event a recording holds (src: its source, read_at needed), the
 * mounts as they stood at its sample and the one before. */
bool selection_covers_logged(const struct selection *s, struct source *src, const struct replay_event *ev);

#endif
