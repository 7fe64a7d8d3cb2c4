/* http_deadline.c - shutting down HTTP connections past their deadline
 * (src/cli/http_deadline.h). */
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
	struct timespec due;          /* CLOCK_MONOTONIC */
};

struct http_deadlines {
	pthread_mutex_t lock;
	pthread_cond_t wake;          /* on CLOCK_MONOTONIC */
	pthread_t thread;
	bool stopping;
	unsigned ms;
	size_t max;
	struct http_deadline_slot slots[];
};

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static struct timespec due_from_now(unsigned ms)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += ms / 1000;
	t.tv_nsec += (long)(ms % 1000) * 1000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

/* Shuts down the connections due by now; *next: the earliest deadline left.  Returns
 * whether there is one.  Called with the lock held. */
static bool shut_overdue(struct http_deadlines *d, struct timespec *next)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	bool any = false;
	for (size_t i = 0; i < d->max; i++) {
		struct http_deadline_slot *s = &d->slots[i];
		if (s->fd < 0 || s->shut)
			continue;
		if (!before(&now, &s->due)) {
			shutdown(s->fd, SHUT_RDWR);
			s->shut = true;
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

struct http_deadlines *http_deadlines_start(size_t max, unsigned ms, struct error *err)
{
	struct http_deadlines *d = calloc(1, sizeof *d + max * sizeof d->slots[0]);
	if (!d) {
		error_set(err, "out of memory");
		return NULL;
	}
	d->ms = ms;
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

struct http_deadline_slot *http_deadlines_add(struct http_deadlines *d, int fd)
{
	struct http_deadline_slot *s = NULL;
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; !s && i < d->max; i++)
		if (d->slots[i].fd < 0)
			s = &d->slots[i];
	if (s) {
		*s = (struct http_deadline_slot){ .fd = fd, .due = due_from_now(d->ms) };
		pthread_cond_signal(&d->wake);   /* it may be waiting for no deadline at all */
	}
	pthread_mutex_unlock(&d->lock);
	return s;
}

/* Deadlines only move later: the thread, woken at an earlier one, finds the new one. */
void http_deadlines_renew(struct http_deadlines *d, struct http_deadline_slot *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&d->lock);
	if (!s->shut)
		s->due = due_from_now(d->ms);
	pthread_mutex_unlock(&d->lock);
}

void http_deadlines_remove(struct http_deadlines *d, struct http_deadline_slot *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&d->lock);
	s->fd = -1;
	s->shut = false;
	pthread_mutex_unlock(&d->lock);
}
