/* http_deadline.c - shutting down HTTP connections past their deadline, and the one
 * idle the longest when too many are open (src/cli/http_deadline.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "http_deadline.h"

struct http_deadline_slot {
	int fd;                       /* -1: free */
	bool shut;                    /* shut down: the server will close it */
	bool idle;                    /* waiting for a request */
	struct timespec since;        /* the step began; CLOCK_MONOTONIC */
	struct timespec due;          /* CLOCK_MONOTONIC */
};

struct http_deadlines {
	pthread_mutex_t lock;
	pthread_cond_t wake;          /* on CLOCK_MONOTONIC */
	pthread_t thread;
	bool stopping;
	unsigned ms;
	size_t open_max, open;        /* open: tracked and not shut down */
	size_t max;
	struct http_deadline_slot slots[];
};

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static struct timespec now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

static struct timespec due_from(struct timespec t, unsigned ms)
{
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

/* Called with the lock held. */
static void shut(struct http_deadlines *d, struct http_deadline_slot *s)
{
	shutdown(s->fd, SHUT_RDWR);
	s->shut = true;
	d->open--;
}

/* Shuts down the connections due by now; *next: the earliest deadline left.  Returns
 * whether there is one.  Called with the lock held. */
static bool shut_overdue(struct http_deadlines *d, struct timespec *next)
{
	struct timespec t = now();
	bool any = false;
	for (size_t i = 0; i < d->max; i++) {
		struct http_deadline_slot *s = &d->slots[i];
		if (s->fd < 0 || s->shut)
			continue;
		if (!before(&t, &s->due)) {
			shut(d, s);
		} else if (!any || before(&s->due, next)) {
			*next = s->due;
			any = true;
		}
	}
	return any;
}

static void *sweep(void *arg)
{
	struct http_deadlines *d = arg;
	pthread_mutex_lock(&d->lock);
	while (!d->stopping) {
		struct timespec next;
		if (shut_overdue(d, &next))
			pthread_cond_timedwait(&d->wake, &d->lock, &next);
		else
			pthread_cond_wait(&d->wake, &d->lock);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

struct http_deadlines *http_deadlines_start(size_t open_max, size_t tracked_max, unsigned ms,
					    struct error *err)
{
	size_t max = tracked_max > open_max ? tracked_max : open_max;
	struct http_deadlines *d = calloc(1, sizeof *d + max * sizeof d->slots[0]);
	if (!d) {
		error_set(err, "out of memory");
		return NULL;
	}
	d->ms = ms;
	d->open_max = open_max;
	d->max = max;
	for (size_t i = 0; i < max; i++)
		d->slots[i].fd = -1;
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&d->wake, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_init(&d->lock, NULL);
	int e = pthread_create(&d->thread, NULL, sweep, d);
	if (e) {
		pthread_cond_destroy(&d->wake);
		pthread_mutex_destroy(&d->lock);
		free(d);
		error_set(err, "--listen: cannot start a thread: %s", strerror(e));
		return NULL;
	}
	return d;
}

void http_deadlines_stop(struct http_deadlines *d)
{
	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	d->stopping = true;
	pthread_cond_signal(&d->wake);
	pthread_mutex_unlock(&d->lock);
	pthread_join(d->thread, NULL);
	pthread_cond_destroy(&d->wake);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

/* The open connection to shut down to make room for a new one (not it): the one idle
 * the longest, else the one whose step began first.  Called with the lock held. */
static struct http_deadline_slot *to_make_room(struct http_deadlines *d,
					       const struct http_deadline_slot *new)
{
	struct http_deadline_slot *pick = NULL;
	for (size_t i = 0; i < d->max; i++) {
		struct http_deadline_slot *s = &d->slots[i];
		if (s == new || s->fd < 0 || s->shut)
			continue;
		if (!pick || (s->idle && !pick->idle) ||
		    (s->idle == pick->idle && before(&s->since, &pick->since)))
			pick = s;
	}
	return pick;
}

struct http_deadline_slot *http_deadlines_add(struct http_deadlines *d, int fd)
{
	struct http_deadline_slot *s = NULL;
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; !s && i < d->max; i++)
		if (d->slots[i].fd < 0)
			s = &d->slots[i];
	if (!s) {
		pthread_mutex_unlock(&d->lock);
		shutdown(fd, SHUT_RDWR);
		return NULL;
	}
	struct timespec t = now();
	*s = (struct http_deadline_slot){ .fd = fd, .idle = true, .since = t,
					  .due = due_from(t, d->ms) };
	d->open++;
	while (d->open > d->open_max) {
		struct http_deadline_slot *old = to_make_room(d, s);
		if (!old)
			break;
		shut(d, old);
	}
	pthread_cond_signal(&d->wake);   /* it may be waiting for no deadline at all */
	pthread_mutex_unlock(&d->lock);
	return s;
}

/* Deadlines only move later: the thread, woken at an earlier one, finds the new one. */
void http_deadlines_step(struct http_deadlines *d, struct http_deadline_slot *s, bool idle)
{
	if (!s)
		return;
	pthread_mutex_lock(&d->lock);
	if (!s->shut) {
		s->idle = idle;
		s->since = now();
		s->due = due_from(s->since, d->ms);
	}
	pthread_mutex_unlock(&d->lock);
}

void http_deadlines_remove(struct http_deadlines *d, struct http_deadline_slot *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&d->lock);
	if (!s->shut)
		d->open--;
	s->fd = -1;
	s->shut = false;
	pthread_mutex_unlock(&d->lock);
}
