/* child.c - the command `ioscope run` watches (child.h).
 *
 * The child is waited for through a pidfd, so its exit is one more descriptor in
 * the main loop's poll set (no SIGCHLD handler, no drawing code that reaps).
 * /proc/PID/io is read while it is a zombie, before wait4 reaps it: the kernel
 * has by then added the I/O of every descendant it waited for, and wait4 gives
 * the rusage of the same set.
 *
 * (The file is read by the caller's proc_reader, src/sources': core opens no /proc file.)
 *
 * The command starts in a process group of its own, with ioscope as the subreaper of
 * its tree, so that stopping it stops everything it started (descendants.h): a signal
 * passed on goes to the group, and what is left when ioscope ends is stopped whatever
 * group or session it moved to.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "descendants.h"
#include "dirpath.h"
#include "spawn_process.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

struct child {
	pid_t pid;
	int pidfd;
	struct timespec started;
	const struct proc_reader *proc;   /* the caller's: its process table and I/O */
};

static double since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

struct child *child_spawn(char *const argv[], int out_fd, bool keep_stdin,
			  const struct proc_reader *proc, struct error *err)
{
	struct child *c = calloc(1, sizeof *c);
	if (!c) {
		error_set(err, "out of memory");
		return NULL;
	}
	c->pidfd = -1;
	c->proc = proc;
	/* a group of its own is not the terminal's foreground job: a read of the
	 * terminal would stop it (SIGTTIN) */
	const struct spawn s = {
		.argv = argv, .exec_fd = -1, .out_fd = out_fd,
		.stdin_null = !keep_stdin || isatty(STDIN_FILENO),
		.own_group = true, .default_signals = true, .parent_death = true,
	};
	/* orphans of the command come to ioscope, not to init: found when it ends */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	clock_gettime(CLOCK_MONOTONIC, &c->started);
	c->pid = spawn_start(&s, err);
	if (c->pid < 0) {
		free(c);
		return NULL;
	}
	c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	if (c->pidfd < 0) {
		error_errno(err, argv[0], errno);
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		free(c);
		return NULL;
	}
	return c;
}

int child_fd(const struct child *c) { return c ? c->pidfd : -1; }
pid_t child_pid(const struct child *c) { return c ? c->pid : 0; }
bool child_running(const struct child *c) { return c && c->pidfd >= 0; }

/* /proc/PID/io (a zombie's, before it is reaped), as the caller's reader reads it. */
static void read_io(const struct child *c, struct child_exit *x)
{
	struct proc_io io;
	x->have_io = c->proc->io(c->pid, &io);
	if (!x->have_io)
		return;
	x->rchar = io.rchar;
	x->wchar = io.wchar;
	x->read_bytes = io.read_bytes;
	x->write_bytes = io.write_bytes;
	x->cancelled_write_bytes = io.cancelled_write_bytes;
}

int child_reap(struct child *c, struct child_exit *out, struct error *err)
{
	siginfo_t info = { 0 };
	if (!child_running(c))
		return error_set(err, "no command is running");
	if (waitid((idtype_t)P_PIDFD, (id_t)c->pidfd, &info, WEXITED | WNOHANG | WNOWAIT) < 0)
		return error_errno(err, "waitid", errno);
	if (info.si_pid == 0)
		return 0;
	memset(out, 0, sizeof *out);
	out->elapsed = since(&c->started);
	read_io(c, out);
	int status;
	pid_t r;
	do
		r = wait4(c->pid, &status, 0, &out->ru);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return error_errno(err, "wait4", errno);
	close(c->pidfd);
	c->pidfd = -1;
	out->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	out->exit_code = out->signal ? 128 + out->signal : WEXITSTATUS(status);
	return 1;
}

void child_signal(struct child *c, int sig)
{
	/* the group id cannot be taken by another process while its leader is not reaped */
	if (child_running(c))
		killpg(c->pid, sig);
}

void child_reap_orphans(struct child *c)
{
	descendants_reap(child_running(c) ? c->pid : 0);
}

#define STOP_GRACE_MS 1000   /* from SIGTERM to SIGKILL */
#define STOP_KILL_MS 3000    /* then SIGKILL again while any is left, so long at most */
#define STOP_POLL_MS 20

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000L };
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

/* The command, once it has exited, reaped: its figures are not wanted any more. */
static void collect_quietly(struct child *c)
{
	siginfo_t info;
	memset(&info, 0, sizeof info);
	if (child_running(c) &&
	    waitid((idtype_t)P_PIDFD, (id_t)c->pidfd, &info, WEXITED | WNOHANG) == 0 &&
	    info.si_pid != 0) {
		close(c->pidfd);
		c->pidfd = -1;
	}
}

/* The command's processes still running, the command itself included. */
static size_t still_running(struct child *c, struct proc_row *rows)
{
	collect_quietly(c);
	descendants_reap(child_running(c) ? c->pid : 0);   /* it is collected above only */
	return descendants_find(c->proc, c->pid, rows, DESCENDANTS_MAX);
}

/* The group while its leader is not reaped (a fork in flight gets it too), and each
 * process found outside it. */
static void signal_all(struct child *c, const struct proc_row *rows, size_t n, int sig)
{
	bool group = child_running(c);
	if (group)
		killpg(c->pid, sig);
	descendants_signal(c->proc, rows, n, group ? c->pid : 0, sig);
}

void child_stop(struct child *c, struct child_stop *st)
{
	memset(st, 0, sizeof *st);
	struct proc_row *rows = c ? malloc(DESCENDANTS_MAX * sizeof *rows) : NULL;
	if (!rows) {
		if (c && child_running(c))   /* out of memory: the group at least */
			killpg(c->pid, SIGKILL);
		return;
	}
	bool exited = !child_running(c);
	size_t n = still_running(c, rows);
	st->left_behind = exited ? n : 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (n) {
		signal_all(c, rows, n, SIGTERM);
		signal_all(c, rows, n, SIGCONT);   /* a stopped one gets it too */
	}
	while (n && since(&t0) * 1000 < STOP_GRACE_MS) {
		sleep_ms(STOP_POLL_MS);
		n = still_running(c, rows);
	}
	while (n && since(&t0) * 1000 < STOP_GRACE_MS + STOP_KILL_MS) {
		signal_all(c, rows, n, SIGKILL);
		sleep_ms(STOP_POLL_MS);
		n = still_running(c, rows);
	}
	st->unstoppable = n;
	st->first_unstoppable = n ? rows[0].pid : 0;
	free(rows);
}

bool child_stop_note(const struct child_stop *st, char *buf, size_t len)
{
	if (st->unstoppable)
		snprintf(buf, len, "%zu process%s of the command still run%s after SIGKILL (pid "
			 "%ld first; in uninterruptible sleep?)", st->unstoppable,
			 st->unstoppable > 1 ? "es" : "", st->unstoppable > 1 ? "" : "s",
			 (long)st->first_unstoppable);
	else if (st->left_behind)
		snprintf(buf, len, "the command left %zu process%s running: stopped them",
			 st->left_behind, st->left_behind > 1 ? "es" : "");
	return st->unstoppable || st->left_behind;
}

void child_free(struct child *c)
{
	if (!c)
		return;
	struct child_stop st;
	child_stop(c, &st);
	if (child_running(c))
		close(c->pidfd);   /* it would not die: init reaps it once ioscope is gone */
	free(c);
}

/* ---- events ---- */

static void stamp(struct event *ev)
{
	event_own(ev, EVENT_RUN, "run", "");
}

static void join_argv(char *const argv[], char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; argv[i] && used + 1 < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

int child_start_event(const struct child *c, char *const argv[], const char *output,
		      struct event *ev)
{
	stamp(ev);
	snprintf(ev->key, sizeof ev->key, "start");
	char command[EVENT_VALUE_MAX];
	join_argv(argv, command, sizeof command);
	if (event_set_new_value(ev, "%s", command) < 0)
		return -1;
	return event_set_result(ev, "pid=%ld%s%s", (long)c->pid, output && output[0] ? " output=" : "",
				output ? output : "");
}

static double tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + tv->tv_usec / 1e6;
}

int child_exit_event(const struct child_exit *x, struct event *ev)
{
	stamp(ev);
	snprintf(ev->key, sizeof ev->key, "exit");
	int rc = x->signal ? event_set_new_value(ev, "signal %d (%.2f s)", x->signal, x->elapsed)
			   : event_set_new_value(ev, "%d (%.2f s)", x->exit_code, x->elapsed);
	if (rc < 0)
		return -1;
	char result[EVENT_RESULT_MAX];
	int n = snprintf(result, sizeof result,
			 "status=%d elapsed_s=%.3f user_s=%.3f sys_s=%.3f maxrss_kb=%ld",
			 x->exit_code, x->elapsed, tv_seconds(&x->ru.ru_utime),
			 tv_seconds(&x->ru.ru_stime), x->ru.ru_maxrss);
	if (x->have_io && n > 0 && (size_t)n < sizeof result)
		snprintf(result + n, sizeof result - (size_t)n,
			 " read_bytes=%" PRIu64 " write_bytes=%" PRIu64
			 " cancelled_write_bytes=%" PRIu64 " rchar=%" PRIu64 " wchar=%" PRIu64,
			 x->read_bytes, x->write_bytes, x->cancelled_write_bytes, x->rchar,
			 x->wchar);
	return event_set_result(ev, "%s", result);
}

int child_output_open(const char *path, char *name, size_t len, struct error *err)
{
	if (path) {
		/* like --record: a file that is there may be something the user keeps, and its
		 * directory is reached through no symlink but root's or the user's own */
		char base[NAME_MAX + 1];
		int dir = dirpath_open_parent(path, base, sizeof base, err);
		if (dir < 0)
			return -1;
		int fd = openat(dir, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY |
				O_CLOEXEC, 0666);
		int e = errno;
		close(dir);
		errno = e;
		if (fd < 0 && errno == EEXIST)
			return error_set(err, "%s: exists; --output makes a new file, never overwrites",
					 path);
		if (fd < 0)
			return error_errno(err, path, errno);
		snprintf(name, len, "%s", path);
		return fd;
	}
	const char *dir = secure_getenv("TMPDIR");
	if (!dir || dir[0] != '/')
		dir = "/tmp";
	if (snprintf(name, len, "%s/ioscope-run-XXXXXX.out", dir) >= (int)len)
		return error_set(err, "%s: path too long", dir);
	int fd = mkostemps(name, 4, O_CLOEXEC);
	if (fd < 0)
		return error_errno(err, name, errno);
	return fd;
}
