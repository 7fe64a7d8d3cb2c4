/* probe.c - the responsiveness probe's thread (probe.h).
 *
 * The reads run on their own thread so that one blocked for seconds (a frozen or
 * saturated filesystem) cannot delay a sample: the sampling thread only takes what
 * the probe has measured, under a lock the probe never holds across I/O, and sees
 * a read still waiting as `stalled_us`.  A thread rather than a process: nothing
 * to pass the samples through, and the descriptors stay ours.  The price: a read
 * stuck in the kernel (uninterruptible) delays ioscope's exit until it returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"

#define EXEC_PROGRAM "/bin/true"

extern char **environ;

struct probe {
	pthread_t thread;
	bool started;
	int fd;                      /* the working set, O_DIRECT when it was accepted */
	bool direct;
	uint64_t size;               /* bytes of the working set */
	char exec_path[4096];        /* --probe-exec: the program started cold; "" off */
	char made_exec[4096];        /* a copy of it we made (removed at stop); "" none */
	char what[4200];
	struct timespec period;
	void *buf;
	uint64_t rng;
	pthread_mutex_t lock;        /* guards what follows, never held across I/O */
	pthread_cond_t wake;
	bool stop;
	bool inflight;
	struct timespec inflight_since;
	struct probe_samples pending;
};

static uint64_t ns_between(const struct timespec *a, const struct timespec *b)
{
	int64_t ns = (int64_t)(b->tv_sec - a->tv_sec) * 1000000000 + (b->tv_nsec - a->tv_nsec);
	return ns > 0 ? (uint64_t)ns : 0;
}

static uint64_t us_between(const struct timespec *a, const struct timespec *b)
{
	return (ns_between(a, b) + 500) / 1000;
}

static struct timespec add_period(struct timespec t, const struct timespec *p)
{
	t.tv_sec += p->tv_sec;
	t.tv_nsec += p->tv_nsec;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

/* xorshift64*: offsets need to be spread, not secret */
static uint64_t next_random(struct probe *p)
{
	p->rng ^= p->rng >> 12;
	p->rng ^= p->rng << 25;
	p->rng ^= p->rng >> 27;
	return p->rng * 2685821657736338717ULL;
}

static void record(struct probe *p, bool exec, bool ok, uint64_t us)
{
	pthread_mutex_lock(&p->lock);
	p->inflight = false;
	int rc = !ok ? -1 : exec ? probe_samples_add_exec(&p->pending, us)
				 : probe_samples_add_read(&p->pending, us);
	if (rc < 0)
		p->pending.errors++;
	pthread_mutex_unlock(&p->lock);
}

static void probe_read(struct probe *p)
{
	uint64_t blocks = p->size / PROBE_READ_SIZE;
	off_t off = (off_t)(next_random(p) % blocks) * PROBE_READ_SIZE;
	if (!p->direct)   /* so the read has to go to the device */
		posix_fadvise(p->fd, off, PROBE_READ_SIZE, POSIX_FADV_DONTNEED);
	struct timespec t0, t1;
	pthread_mutex_lock(&p->lock);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	p->inflight = true;
	p->inflight_since = t0;
	pthread_mutex_unlock(&p->lock);
	ssize_t n = pread(p->fd, p->buf, PROBE_READ_SIZE, off);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	record(p, false, n == PROBE_READ_SIZE, us_between(&t0, &t1));
}

/* The program's pages are dropped first, so that its start reads them again. */
static void probe_exec(struct probe *p)
{
	int fd = open(p->exec_path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		fdatasync(fd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
	char *argv[] = { p->exec_path, NULL };
	struct timespec t0, t1;
	pid_t pid;
	int status = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bool ok = posix_spawn(&pid, p->exec_path, NULL, NULL, argv, environ) == 0 &&
		  waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	record(p, true, ok, us_between(&t0, &t1));
}

/* false when asked to stop */
static bool wait_until(struct probe *p, const struct timespec *deadline)
{
	pthread_mutex_lock(&p->lock);
	while (!p->stop && pthread_cond_timedwait(&p->wake, &p->lock, deadline) != ETIMEDOUT)
		;
	bool go_on = !p->stop;
	pthread_mutex_unlock(&p->lock);
	return go_on;
}

static void *probe_main(void *arg)
{
	struct probe *p = arg;
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		next = add_period(next, &p->period);
		if (!wait_until(p, &next))
			return NULL;
		probe_read(p);
		if (p->exec_path[0])
			probe_exec(p);
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ns_between(&next, &now) > 0)   /* a slow read: no burst to catch up */
			next = now;
	}
}

/* ---- the working set ---- */

static int open_direct(struct probe *p, const char *path, struct error *err)
{
	p->fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	p->direct = p->fd >= 0;
	if (p->fd < 0 && errno == EINVAL)   /* tmpfs and others refuse O_DIRECT */
		p->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	return p->fd < 0 ? error_errno(err, path, errno) : 0;
}

static int fill(int fd, const char *path, struct error *err)
{
	char block[65536];
	for (size_t i = 0; i < sizeof block; i++)
		block[i] = (char)(i * 131 + (i >> 8));   /* not zeros: nothing may elide it */
	for (size_t done = 0; done < PROBE_WORKING_SET;) {
		ssize_t n = write(fd, block, sizeof block);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error_errno(err, path, n < 0 ? errno : ENOSPC);
		done += (size_t)n;
	}
	return fsync(fd) < 0 ? error_errno(err, path, errno) : 0;
}

/* A directory: a working-set file of our own, written once and removed at once (it
 * lives on while open, and nothing is left behind by a crash). */
static int make_working_set(struct probe *p, const char *dir, struct error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/.ioscope-probe-%ld", dir, (long)getpid());
	int wfd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (wfd < 0)
		return error_errno(err, path, errno);
	int rc = fill(wfd, path, err);
	if (rc == 0)
		rc = open_direct(p, path, err);
	unlink(path);
	close(wfd);
	p->size = PROBE_WORKING_SET;
	return rc;
}

static int copy_program(struct probe *p, const char *dir)
{
	snprintf(p->made_exec, sizeof p->made_exec, "%s/.ioscope-probe-%ld.exec", dir,
		 (long)getpid());
	int in = open(EXEC_PROGRAM, O_RDONLY | O_CLOEXEC);
	int out = open(p->made_exec, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
	char buf[65536];
	ssize_t n = 0;
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	bool ok = in >= 0 && out >= 0 && n == 0 && fsync(out) == 0;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (!ok) {
		if (out >= 0)
			unlink(p->made_exec);
		p->made_exec[0] = '\0';
		return -1;
	}
	snprintf(p->exec_path, sizeof p->exec_path, "%s", p->made_exec);
	return 0;
}

static int open_working_set(struct probe *p, const char *path, struct error *err)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return error_errno(err, path, errno);
	if (S_ISDIR(st.st_mode))
		return make_working_set(p, path, err);
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return error_set(err, "%s: not a file, a directory or a block device", path);
	if (open_direct(p, path, err) < 0)
		return -1;
	uint64_t size = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(p->fd, BLKGETSIZE64, &size) < 0)
		return error_errno(err, path, errno);
	p->size = size;
	if (p->size < PROBE_READ_SIZE)
		return error_set(err, "%s: smaller than one %d-byte read", path, PROBE_READ_SIZE);
	return 0;
}

static void free_probe(struct probe *p)
{
	if (p->fd >= 0)
		close(p->fd);
	if (p->made_exec[0])
		unlink(p->made_exec);
	probe_samples_free(&p->pending);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p->buf);
	free(p);
}

static int init_sync(struct probe *p)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	return rc || pthread_mutex_init(&p->lock, NULL) ? -1 : 0;
}

struct probe *probe_start(const char *path, double interval, bool exec, struct error *err)
{
	struct probe *p = calloc(1, sizeof *p);
	if (!p || init_sync(p) < 0 || posix_memalign(&p->buf, PROBE_READ_SIZE, PROBE_READ_SIZE)) {
		free(p);
		error_set(err, "out of memory");
		return NULL;
	}
	p->fd = -1;
	p->period.tv_sec = (time_t)interval;
	p->period.tv_nsec = (long)((interval - (double)p->period.tv_sec) * 1e9);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	p->rng = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid() ^ 1;
	if (open_working_set(p, path, err) < 0) {
		free_probe(p);
		return NULL;
	}
	struct stat st;
	if (exec && !(stat(path, &st) == 0 && S_ISDIR(st.st_mode) && copy_program(p, path) == 0))
		snprintf(p->exec_path, sizeof p->exec_path, "%s", EXEC_PROGRAM);
	snprintf(p->what, sizeof p->what, "%s (%s)", path, p->direct ? "O_DIRECT" : "fadvise");
	/* Made with every signal blocked, as the HTTP server's: SIGTERM and SIGINT must reach
	 * batch mode's signalfd, not kill the process from this thread. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&p->thread, NULL, probe_main, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		error_set(err, "cannot start the probe thread");
		free_probe(p);
		return NULL;
	}
	p->started = true;
	return p;
}

int probe_take(struct probe *p, struct probe_samples *out)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&p->lock);
	int rc = probe_samples_copy(out, &p->pending);
	out->stalled_us = p->inflight && ns_between(&p->inflight_since, &now) > ns_between(
		&(struct timespec){ 0 }, &p->period) ? us_between(&p->inflight_since, &now) : 0;
	probe_samples_clear(&p->pending);
	pthread_mutex_unlock(&p->lock);
	return rc;
}

const char *probe_describe(const struct probe *p)
{
	return p->what;
}

void probe_stop(struct probe *p)
{
	if (!p)
		return;
	if (p->started) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->wake);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
	}
	free_probe(p);
}
