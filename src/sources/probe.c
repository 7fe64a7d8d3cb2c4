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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"
#include "spawn_process.h"
#include "trusted_file.h"

#define EXEC_PROGRAM "/bin/true"

struct probe {
	pthread_t thread;
	bool started;
	int fd;                      /* the working set, O_DIRECT when it was accepted */
	bool direct;
	uint64_t size;               /* bytes of the working set */
	int exec_fd;                 /* --probe-exec: the program started cold; -1 off */
	struct error exec_notice;    /* why it is not a copy in the probed directory; "" */
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

/* Started through the descriptor opened at start, never by a name (which another user
 * could have changed since: trusted_file.h); its pages are dropped first, so that its
 * start reads them again. */
static void probe_exec(struct probe *p)
{
	posix_fadvise(p->exec_fd, 0, 0, POSIX_FADV_DONTNEED);
	char *argv[] = { "true", NULL };
	const struct spawn start = { .argv = argv, .exec_fd = p->exec_fd, .out_fd = -1 };
	struct timespec t0, t1;
	pid_t pid;
	int status = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bool ok = (pid = spawn_start(&start, NULL)) > 0 && waitpid(pid, &status, 0) == pid &&
		  WIFEXITED(status) && WEXITSTATUS(status) == 0;
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

static struct timespec period_of(struct probe *p)
{
	pthread_mutex_lock(&p->lock);
	struct timespec period = p->period;
	pthread_mutex_unlock(&p->lock);
	return period;
}

static void *probe_main(void *arg)
{
	struct probe *p = arg;
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		struct timespec period = period_of(p);
		next = add_period(next, &period);
		if (!wait_until(p, &next))
			return NULL;
		probe_read(p);
		if (p->exec_fd >= 0)
			probe_exec(p);
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ns_between(&next, &now) > 0)   /* a slow read: no burst to catch up */
			next = now;
	}
}

/* ---- the working set ---- */

/* The working set opened again through fd, never by its name: in a directory another user
 * can write, the name may be theirs by now (a FIFO hangs the open, a symlink points
 * anywhere). */
static int open_direct(struct probe *p, int fd, const char *path, struct error *err)
{
	p->fd = trusted_fd_reopen(fd, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	p->direct = p->fd >= 0;
	if (p->fd < 0 && errno == EINVAL)   /* tmpfs and others refuse O_DIRECT */
		p->fd = trusted_fd_reopen(fd, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	return p->fd < 0 ? error_errno(err, path, errno) : 0;
}

static int write_all(int fd, const char *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : ENOSPC;
		done += (size_t)n;
	}
	return 0;
}

static int fill(int fd, const char *path, struct error *err)
{
	char block[65536];
	for (size_t i = 0; i < sizeof block; i++)
		block[i] = (char)(i * 131 + (i >> 8));   /* not zeros: nothing may elide it */
	for (size_t done = 0; done < PROBE_WORKING_SET; done += sizeof block) {
		int errnum = write_all(fd, block, sizeof block);
		if (errnum)
			return error_errno(err, path, errnum);
	}
	return fsync(fd) < 0 ? error_errno(err, path, errno) : 0;
}

/* A file of ours in a directory: written, opened again through its descriptor, and
 * unlinked at once.  It lives on while open, nothing is left behind by a crash, and
 * nobody can put something else in its place. */
struct own_file {
	int dirfd;
	char name[64];
	char path[4200];
	int fd;              /* write-only */
};

/* Made new, never through a symlink. */
static int own_file_create(struct own_file *f, int dirfd, const char *dir, const char *suffix,
			   mode_t mode, struct error *err)
{
	f->dirfd = dirfd;
	snprintf(f->name, sizeof f->name, ".ioscope-probe-%ld%s", (long)getpid(), suffix);
	snprintf(f->path, sizeof f->path, "%s/%s", dir, f->name);
	f->fd = openat(dirfd, f->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	return f->fd < 0 ? error_errno(err, f->path, errno) : 0;
}

static void own_file_unlink(struct own_file *f)
{
	unlinkat(f->dirfd, f->name, 0);
	close(f->fd);
}

/* A directory: a 16 MiB working set of our own. */
static int make_working_set(struct probe *p, int dirfd, const char *dir, struct error *err)
{
	struct own_file f;
	if (own_file_create(&f, dirfd, dir, "", 0600, err) < 0)
		return -1;
	int rc = fill(f.fd, f.path, err);
	if (rc == 0)
		rc = open_direct(p, f.fd, f.path, err);
	own_file_unlink(&f);
	p->size = PROBE_WORKING_SET;
	return rc;
}

/* fd: path opened O_PATH, st: its fstat */
static int open_working_set(struct probe *p, int fd, const struct stat *st, const char *path,
			    struct error *err)
{
	if (S_ISDIR(st->st_mode))
		return make_working_set(p, fd, path, err);
	if (!S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode))
		return error_set(err, "%s: not a file, a directory or a block device", path);
	if (open_direct(p, fd, path, err) < 0)
		return -1;
	uint64_t size = (uint64_t)st->st_size;
	if (S_ISBLK(st->st_mode) && ioctl(p->fd, BLKGETSIZE64, &size) < 0)
		return error_errno(err, path, errno);
	p->size = size;
	if (p->size < PROBE_READ_SIZE)
		return error_set(err, "%s: smaller than one %d-byte read", path, PROBE_READ_SIZE);
	return 0;
}

/* ---- the program started cold (--probe-exec) ---- */

static int copy_bytes(int in, int out, const char *path, struct error *err)
{
	char buf[65536];
	ssize_t n;
	off_t off = 0;
	while ((n = pread(in, buf, sizeof buf, off)) > 0) {
		int errnum = write_all(out, buf, (size_t)n);
		if (errnum)
			return error_errno(err, path, errnum);
		off += n;
	}
	if (n < 0)
		return error_errno(err, EXEC_PROGRAM, errno);
	return fsync(out) < 0 ? error_errno(err, path, errno) : 0;
}

/* A copy of the program in the probed directory, so that its start reads that disk.  Its
 * read-only descriptor (a program open for writing cannot be started), or -1 with err. */
static int copy_program(int prog, int dirfd, const char *dir, struct error *err)
{
	struct own_file f;
	if (own_file_create(&f, dirfd, dir, ".exec", 0700, err) < 0)
		return -1;
	int ro = -1;
	if (copy_bytes(prog, f.fd, f.path, err) == 0 &&
	    (ro = trusted_fd_reopen(f.fd, O_RDONLY | O_CLOEXEC)) < 0)
		error_errno(err, f.path, errno);
	own_file_unlink(&f);
	return ro;
}

/* The program, opened once: a copy in the probed directory (dirfd; -1: the probe reads a
 * file or a device) when nobody but root and us can change that directory, else
 * /bin/true itself, and exec_notice says why.  Whoever can write the directory (its
 * owner, anyone when it is shared and not sticky) must have no say in what root runs. */
static int open_program(struct probe *p, int dirfd, const char *dir, struct error *err)
{
	p->exec_fd = trusted_file_open(EXEC_PROGRAM, err);
	if (p->exec_fd < 0 || dirfd < 0)
		return p->exec_fd < 0 ? -1 : 0;
	struct error why;
	int copy = trusted_dir_check(dirfd, dir, &why) < 0 ? -1
		 : copy_program(p->exec_fd, dirfd, dir, &why);
	if (copy < 0) {
		error_set(&p->exec_notice, "--probe-exec: %s: no program is run from there; %s "
			  "is timed instead (from its own disk)", why.msg, EXEC_PROGRAM);
		return 0;
	}
	close(p->exec_fd);
	p->exec_fd = copy;
	return 0;
}

static void free_probe(struct probe *p)
{
	if (p->fd >= 0)
		close(p->fd);
	if (p->exec_fd >= 0)
		close(p->exec_fd);
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

static struct timespec seconds_period(double interval)
{
	time_t s = (time_t)interval;
	return (struct timespec){ s, (long)((interval - (double)s) * 1e9) };
}

void probe_set_interval(struct probe *p, double interval)
{
	pthread_mutex_lock(&p->lock);
	p->period = seconds_period(interval);
	pthread_mutex_unlock(&p->lock);
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
	p->exec_fd = -1;
	p->period = seconds_period(interval);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	p->rng = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15ULL ^ (uint64_t)getpid() ^ 1;
	/* path is looked up once: what follows goes through this descriptor */
	int at = open(path, O_PATH | O_CLOEXEC);
	struct stat st;
	int ok = at >= 0 && fstat(at, &st) == 0 ? 0 : error_errno(err, path, errno);
	if (ok == 0)
		ok = open_working_set(p, at, &st, path, err);
	if (ok == 0 && exec)
		ok = open_program(p, S_ISDIR(st.st_mode) ? at : -1, path, err);
	if (at >= 0)
		close(at);
	if (ok < 0) {
		free_probe(p);
		return NULL;
	}
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
	uint64_t reading = p->inflight ? us_between(&p->inflight_since, &now) : 0;
	out->reading_us = p->inflight && reading == 0 ? 1 : reading;
	probe_samples_clear(&p->pending);
	pthread_mutex_unlock(&p->lock);
	return rc;
}

const char *probe_describe(const struct probe *p)
{
	return p->what;
}

const char *probe_notice(const struct probe *p)
{
	return p->exec_notice.msg;
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
