/* expect.c - changes announced as about to be made: what a sample observes of their
 * objects is held until their own events come (expect.h). */
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "grow.h"
#include "snapshot.h"

void expect_init(struct expect *x)
{
	event_list_init(&x->pending);
	event_list_init(&x->held);
	x->came_after = NULL;
	x->came_after_cap = 0;
	x->last = (struct timespec){ 0, 0 };
}

void expect_free(struct expect *x)
{
	event_list_free(&x->pending);
	event_list_free(&x->held);
	free(x->came_after);
	x->came_after = NULL;
	x->came_after_cap = 0;
}

void expect_clear(struct expect *x)
{
	event_list_clear(&x->pending);
	event_list_clear(&x->held);
	x->last = (struct timespec){ 0, 0 };   /* a seek: the samples start again */
}

int expect_add(struct expect *x, const struct event *pending)
{
	if (grow_array(&x->came_after, &x->came_after_cap, x->pending.count + 1,
		       sizeof x->came_after[0], 8, NULL) < 0)
		return -1;
	struct event *kept = event_list_add(&x->pending);
	if (!kept)
		return -1;
	x->came_after[x->pending.count - 1] = x->last;
	return event_copy(kept, pending);
}

/* Keeps the pending changes keep() says, each with its came_after. */
static void keep_pending(struct expect *x, bool (*keep)(const struct event *, const void *),
			 const void *arg)
{
	size_t kept = 0;
	for (size_t i = 0; i < x->pending.count; i++) {
		struct event *e = &x->pending.items[i];
		if (!keep(e, arg)) {
			event_free(e);
			continue;
		}
		x->came_after[kept] = x->came_after[i];
		x->pending.items[kept++] = *e;   /* moved */
	}
	x->pending.count = kept;
}

static bool same_announcement(const struct event *a, const struct event *b)
{
	return a->kind == b->kind && strcmp(a->object, b->object) == 0 &&
	       strcmp(a->key, b->key) == 0 && a->mono.tv_sec == b->mono.tv_sec &&
	       a->mono.tv_nsec == b->mono.tv_nsec;
}

static bool not_that_announcement(const struct event *e, const void *pending)
{
	return !same_announcement(e, pending);
}

void expect_withdraw(struct expect *x, const struct event *pending)
{
	keep_pending(x, not_that_announcement, pending);
}

/* What a change of ioscope's writes: a disk's settings, a mount's options. */
static bool is_setting_change(enum event_kind kind)
{
	return kind == EVENT_SCHEDULER || kind == EVENT_TUNABLE || kind == EVENT_WRITE_CACHE ||
	       kind == EVENT_MOUNT_OPTIONS;
}

static bool is_pending(const struct expect *x, const char *object)
{
	for (size_t i = 0; i < x->pending.count; i++)
		if (strcmp(x->pending.items[i].object, object) == 0)
			return true;
	return false;
}

static bool is_answer(const struct event *own, const struct event *pending)
{
	return event_answers(own, pending->kind, pending->object, pending->key) &&
	       timespec_diff(&own->mono, &pending->mono) >= 0;
}

/* Its event came (stamped when its write returned: at or after the announcement), or it
 * is not coming.  Its own event, not any of its object: a replay gives each of a command's
 * events with the sample before its stamp, and the first write's can come samples before
 * the second's (held by a queue draining).  What a command announced and did not make it
 * withdraws. */
static bool is_done(const struct event *pending, const struct event_list *own,
		    const struct timespec *now)
{
	if (timespec_diff(now, &pending->mono) > EXPECT_WAIT_SECONDS)
		return true;
	for (size_t i = 0; i < own->count; i++)
		if (is_answer(&own->items[i], pending))
			return true;
	return false;
}

/* The pending change an own event is the result of: the latest it answers; -1: none. */
static ptrdiff_t result_of(const struct expect *x, const struct event *own)
{
	ptrdiff_t latest = -1;
	for (size_t i = 0; i < x->pending.count; i++) {
		const struct event *p = &x->pending.items[i];
		if (is_answer(own, p) &&
		    (latest < 0 || timespec_diff(&p->mono, &x->pending.items[latest].mono) > 0))
			latest = (ptrdiff_t)i;
	}
	return latest;
}

/* Whether own event o drops the held observation: it echoes it, and is the result of a
 * change taken before the sample that saw it (held->mono is that sample's time). */
static bool drops(const struct expect *x, const struct event *held, const struct event *o)
{
	if (!event_echoes(held, o))
		return false;
	ptrdiff_t p = result_of(x, o);
	return p >= 0 && timespec_diff(&held->mono, &x->came_after[p]) > 0;
}

/* Move l's events for which keep() is false to *to (NULL: freed); -1 on ENOMEM (then
 * they stay in l). */
static int move_out(struct event_list *l, struct event_list *to,
		    bool (*keep)(const struct event *, const void *), const void *arg)
{
	size_t kept = 0;
	int rc = 0;
	for (size_t i = 0; i < l->count; i++) {
		struct event *e = &l->items[i];
		if (keep(e, arg)) {
			l->items[kept++] = *e;   /* moved */
			continue;
		}
		if (!to) {
			event_free(e);
			continue;
		}
		struct event *slot = event_list_add(to);
		if (slot) {
			*slot = *e;   /* moved */
			continue;
		}
		rc = -1;
		l->items[kept++] = *e;
	}
	l->count = kept;
	return rc;
}

struct sample_args {
	const struct expect *x;
	const struct event_list *own;
	const struct timespec *now;
};

static bool still_pending(const struct event *pending, const void *arg)
{
	const struct sample_args *a = arg;
	return !is_done(pending, a->own, a->now);
}

static bool not_dropped(const struct event *held, const void *arg)
{
	const struct sample_args *a = arg;
	for (size_t i = 0; i < a->own->count; i++)
		if (drops(a->x, held, &a->own->items[i]))
			return false;
	return true;
}

static bool on_pending_object(const struct event *held, const void *arg)
{
	const struct sample_args *a = arg;
	return is_pending(a->x, held->object);
}

static bool not_held(const struct event *ev, const void *arg)
{
	const struct sample_args *a = arg;
	return strcmp(ev->by, "observed") != 0 || !is_setting_change(ev->kind) ||
	       !is_pending(a->x, ev->object);
}

int expect_sample(struct expect *x, struct event_list *events, const struct event_list *own,
		  const struct timespec *now)
{
	struct sample_args a = { x, own, now };
	int rc = 0;
	if (x->pending.count || x->held.count) {
		/* while the changes their echoes answer are still known */
		move_out(&x->held, NULL, not_dropped, &a);
		keep_pending(x, still_pending, &a);
		/* what is handed back comes before what is held: it is older */
		rc = move_out(&x->held, events, on_pending_object, &a);
		if (move_out(events, &x->held, not_held, &a) < 0)
			rc = -1;
	}
	x->last = *now;
	return rc;
}
