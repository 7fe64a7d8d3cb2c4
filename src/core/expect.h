/* expect.h - changes announced as about to be made, and what a sample observes of them
 * meanwhile.
 *
 * `ioscope set` (and a console's own dialog) says what it is about to change before it
 * writes, and gives the change's events, with their results, once the writes are done:
 * tens of milliseconds later, seconds for a busy queue's scheduler switch.  A sample read
 * in between sees the change first.  Its observed events on the object being changed (a
 * disk's settings, a mount's options) are held until the change's own events come, then
 * dropped when they echo them (event_echoes) and handed back otherwise, so the change is
 * logged once, by ioscope, with its result.  What a sender announced and did not make (a
 * write not attempted after one was refused) it withdraws.  A pending change whose events
 * never come (the sender killed) is forgotten after EXPECT_WAIT_SECONDS, and what it held
 * is handed back.
 *
 * A held observation is dropped only for the change that held it: an own event is the
 * result of the latest pending change it answers (event_answers, stamped at or before
 * it), and it drops only what was held while that change was pending (taken before the
 * sample that saw it).  A change announced and never made (a forged announcement: any
 * process of the same user may send one) otherwise took the next `set` of the same
 * setting for its answer, and a shell's change it had held vanished when that set echoed
 * its value.  Not by value: the kernel may show another value than the one asked
 * (read_ahead_kb in pages, a default for -1, a bdi limit in bytes seen as its ratio).
 */
#ifndef IOSCOPE_EXPECT_H
#define IOSCOPE_EXPECT_H

#include <stddef.h>
#include <time.h>

#include "events.h"

#define EXPECT_WAIT_SECONDS 10

struct expect {
	struct event_list pending;   /* announced, their events not come yet */
	struct timespec *came_after; /* pending.items[i] came after the sample at came_after[i] */
	size_t came_after_cap;
	struct event_list held;      /* observed changes of their objects */
	struct timespec last;        /* the last sample's time (expect_sample's now) */
};

void expect_init(struct expect *x);
void expect_free(struct expect *x);
void expect_clear(struct expect *x);
/* A change about to be made (its kind, object, key; stamped when announced), taken
 * between two samples.  -1 on ENOMEM (the change may then be logged twice, as before). */
int expect_add(struct expect *x, const struct event *pending);
/* The change announced as `pending` (the same kind, object, key and stamp) will not be
 * made after all: its job could not start, or ended without an event of that object.  It
 * is no longer pending, so the next sample hands back what was held of its object and
 * holds nothing more of it: a change someone else makes meanwhile is logged as observed
 * at once, not EXPECT_WAIT_SECONDS later. */
void expect_withdraw(struct expect *x, const struct event *pending);
/* One sample's events, echoes of `own` (ioscope's changes of this sample and the one
 * before: echo_filter) already dropped; `now` (CLOCK_MONOTONIC) is the sample's time, the
 * time of its observed events, later at each call.  Held events that echo an own event
 * are dropped when that event is the result of a change pending when they were held
 * (above); a pending change answered by an own event (event_answers, stamped at or after
 * it) or older than the wait is done; held events of objects no longer pending are
 * appended to *events; the events' observed setting changes of objects still pending are
 * held.  -1 on ENOMEM: what could not be moved stays where it was. */
int expect_sample(struct expect *x, struct event_list *events, const struct event_list *own,
		  const struct timespec *now);

#endif
