/* announce.h - changes made from a shell, told to the instances that watch
 * (docs/runtime.md).
 *
 * Each running console or batch on the live kernel listens on a datagram socket
 * in the runtime directory (include/runtime_dir.h); `ioscope set` / `remount`
 * send each event they made to every such socket, so that the watchers log the
 * change as ioscope's (by = "ioscope", with its result) and drop its echo from the
 * next sample's diff.  Before making the changes they announce them as pending: a
 * sample read while the change is being made sees it before its event arrives, and
 * the watcher holds what it observes of that object until then (expect.h).  One datagram is one event as the caller's codec writes it (a
 * session-log event record: session_log_announce_codec), so src/core knows no log format.
 * Nothing here
 * is an error for the caller: an instance that cannot be reached, or no runtime
 * directory at all, only means nobody hears.
 */
#ifndef IOSCOPE_ANNOUNCE_H
#define IOSCOPE_ANNOUNCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"
#include "events.h"

/* The largest announcement: one event record with every field escaped. */
#define ANNOUNCE_MSG_MAX 65536
/* The most announcements taken in one interval (between two samples).  The rest are
 * read and counted, not kept: a burst (a script marking in a loop) costs neither
 * memory nor a poll() that never sleeps, and is said once the interval ends. */
#define ANNOUNCE_TAKE_MAX 256

struct announce_listener;
struct json_object;   /* json-c */

/* What an announcement says of its event. */
enum announce_phase {
	ANNOUNCE_MADE,          /* the change was made (or refused): its outcome */
	ANNOUNCE_PENDING,       /* it is about to be made: hold what a sample sees of it */
	ANNOUNCE_WITHDRAWN,     /* a pending change that will not be made after all */
};

/* How an event travels in one datagram. */
struct announce_codec {
	/* The event, in that phase, as a JSON object (the caller's to put), NULL on ENOMEM. */
	struct json_object *(*encode)(const struct event *ev, enum announce_phase phase);
	/* A message's object -> *ev (event_init'ed) and its phase; false when it is no event
	 * record. */
	bool (*decode)(struct json_object *o, struct event *ev, enum announce_phase *phase);
};

/* Where announce_take_events puts what it takes: the changes made, those about to be
 * made, those withdrawn (each NULL: dropped). */
struct announce_lists {
	struct event_list *made, *pending, *withdrawn;
};

/* Create the runtime directory if needed, remove sockets of instances that are gone,
 * and listen on this process's own.  NULL with err set when that is impossible. */
struct announce_listener *announce_listen(const struct announce_codec *codec, struct error *err);
/* Readable (POLLIN) when announcements wait; for the caller's poll() set. */
int announce_fd(const struct announce_listener *l);
/* Append every waiting announcement (by = "ioscope") to the list of its phase, up to
 * ANNOUNCE_TAKE_MAX in the interval; past it they are dropped and counted.  Malformed
 * ones and those from another user (root excepted) are dropped.  Returns how many were
 * added, -1 on ENOMEM. */
int announce_take_events(struct announce_listener *l, const struct announce_lists *to);
/* A sample was taken: the interval's count starts again.  True when announcements
 * were dropped in the interval that ended, with note saying how many.  NULL: false. */
bool announce_interval_end(struct announce_listener *l, char *note, size_t len);
/* Stop listening and remove the socket; NULL is fine. */
void announce_close(struct announce_listener *l);

/* Send events[0..n) to every listening instance but this process.  Returns how many
 * instances were reached. */
int announce_events(const struct announce_codec *codec, const struct event *events, size_t n);
/* The same, with the pids of the instances reached in pids[0..max) (the count may be
 * more than max). */
int announce_events_to(const struct announce_codec *codec, const struct event *events, size_t n,
		       pid_t *pids, size_t max);
/* The same for changes about to be made (sent before making them, so that no sample
 * can see one before the instances know it is coming). */
int announce_pending(const struct announce_codec *codec, const struct event *events, size_t n);
/* Pending changes announced before that will not be made (a console job that could not
 * start): the instances stop holding what they see of them at once, not after
 * EXPECT_WAIT_SECONDS. */
int announce_withdrawn(const struct announce_codec *codec, const struct event *events, size_t n);

#endif
