/* matrix_exec.c - the runner of `ioscope matrix`: one command as a child (child.h, as
 * `ioscope run` starts it), waited for through its pidfd while the session samples on
 * its timer, so the run's log has every sample and every mark in order.  A signal
 * (Ctrl-C) is passed on to the command's process group, and the matrix stops after it;
 * whatever the command left running is stopped before the sync and the unmount. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "announce.h"
#include "grow.h"
#include "child.h"
#include "probe.h"
#include "procpid.h"
#include "matrix_ctx.h"
#include "session_log.h"
#include "text.h"
#include "stop_signals.h"

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Rounded, and bounded as matrix_status.h takes them. */
static long whole_seconds(double s)
{
	if (!(s > 0))
		return 0;
	return s < (double)MATRIX_STATUS_NUMBER_MAX ? (long)(s + 0.5) : MATRIX_STATUS_NUMBER_MAX;
}

static void clock_text(long t, char *buf, size_t len)
{
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* Where the matrix stands: the one computation behind the progress line and the
 * progress its marks carry (matrix_status.h).  The estimate is the mean time of the runs
 * so far times the runs left, unknown before the first run has finished. */
void matrix_status_of(const struct matrix_ctx *m, enum matrix_state state, struct matrix_status *s)
{
	long cells = m->r->ncells ? (long)m->r->ncells : 1;
	/* at the end the repeat loop has counted one past the last run it made */
	size_t repeat = state == MATRIX_RUNNING || !m->repeat ? m->repeat : m->repeat - 1;
	long runs = repeat < (size_t)m->o->repeat ? m->o->repeat : m->o->max_repeat;
	memset(s, 0, sizeof *s);
	s->state = state;
	s->cells = cells;
	s->cell = state == MATRIX_DONE || m->cell >= (size_t)cells ? cells : (long)m->cell + 1;
	s->runs = runs > 0 ? runs : 1;
	s->run = repeat < (size_t)s->runs ? (long)repeat + 1 : s->runs;
	double elapsed = m->started.tv_sec ? seconds_since(&m->started) : 0;
	s->elapsed_s = whole_seconds(elapsed);
	s->eta_s = MATRIX_ETA_UNKNOWN;
	if (m->runs_done) {
		size_t rest = m->runs_planned > m->runs_done ? m->runs_planned - m->runs_done : 0;
		s->eta_s = whole_seconds(m->run_seconds / (double)m->runs_done * (double)rest);
	}
}

/* "cell 2/4 repeat 1/3  elapsed 0:42  left ~1:24  ext4 mq-deadline noatime cold": the
 * cell's name last, where a terminal's 79 columns may cut it */
void matrix_progress(struct matrix_ctx *m, bool done)
{
	struct matrix_status s;
	char el[32], left[32] = "?";
	matrix_status_of(m, done ? MATRIX_DONE : MATRIX_RUNNING, &s);
	clock_text(s.elapsed_s, el, sizeof el);
	if (s.eta_s >= 0)
		clock_text(s.eta_s, left, sizeof left);
	char name[MOUNT_OPTS_MAX + 128];
	matrix_cell_name(m->r, &m->r->cells[s.cell - 1], name, sizeof name);
	char line[MOUNT_OPTS_MAX + 256];
	if (done)
		snprintf(line, sizeof line, "matrix: %zu run%s done in %s", m->runs_done,
			 m->runs_done == 1 ? "" : "s", el);
	else
		snprintf(line, sizeof line, "matrix: cell %ld/%ld repeat %ld/%ld  elapsed %s  left ~%s"
			 "  %s", s.cell, s.cells, s.run, s.runs, el, left, name);
	if (m->tty) {
		/* the line's text escaped; the carriage return and erase-to-end are ours */
		fputc('\r', stderr);
		text_printf(stderr, "%.79s", line);
		fputs(done ? "\033[K\n" : "\033[K", stderr);
		fflush(stderr);
	} else
		text_printf(stderr, "%s\n", line);
}

/* The probe's reads of the latest sample (snapshot.probe), kept for the run's
 * percentiles: the same figures its log has. */
static void probe_collect(struct matrix_ctx *m)
{
	const struct snapshot *snap = session_snapshot(m->session);
	const struct probe_samples *p = snap ? snap->probe : NULL;
	if (!p || !p->nread)
		return;
	m->probe_taken += p->nread;
	if (grow_array(&m->probe_us, &m->probe_cap, m->nprobe + p->nread, sizeof *m->probe_us,
		       1024, NULL) < 0)
		return;   /* without memory the run's figures are of the reads kept so far */
	for (size_t i = 0; i < p->nread; i++)
		m->probe_us[m->nprobe++] = (double)p->read_us[i];
}

/* What each sample gives the run: the probe's reads, and during the wait for a quiet
 * device what the device and its tasks did. */
static void collect(struct matrix_ctx *m)
{
	probe_collect(m);
	matrix_quiet_observe(m);
}

/* 1: sampled; 0: not due; -1: failed. */
static int sample(struct matrix_ctx *m, int timerfd)
{
	uint64_t expirations;
	if (read(timerfd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
		return 0;
	struct error err = { "" };
	if (session_step(m->session, &err) < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		return m->failed = true, -1;
	}
	if (session_sink_error(m->session, m->log, &err)) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		return m->failed = true, -1;
	}
	collect(m);
	if (m->tty)
		matrix_progress(m, false);
	return 1;
}

/* A sample at a step that ends a phase (the exit, the end of the write-back), so that
 * the log brackets even a run shorter than the interval. */
void matrix_exec_sample(struct matrix_ctx *m)
{
	struct error err = { "" };
	if (session_step(m->session, &err) < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		m->failed = true;
	}
	collect(m);
}

/* Announcements (`ioscope mark` from the command, `ioscope set` from a shell) logged as
 * they come; the command's marks kept to cut its run into phases. */
static void take_announcements(struct matrix_ctx *m)
{
	struct event_list got;
	event_list_init(&got);
	announce_take_events(m->announce, &(struct announce_lists){ .made = &got });   /* out of memory: those are lost */
	for (size_t i = 0; i < got.count; i++) {
		const struct event *ev = &got.items[i];
		struct error err = { "" };
		if (session_add_own_event(m->session, ev, &err) < 0)
			text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		if (ev->kind != EVENT_USER_MARK || !m->running || m->nmarks == MATRIX_MAX_PHASES)
			continue;
		struct matrix_mark *k = &m->marks[m->nmarks++];
		snprintf(k->label, sizeof k->label, "%s", ev->new_value);
		k->mono = ev->mono;
	}
	event_list_free(&got);
}

static void take_signal(struct matrix_ctx *m, struct child *c)
{
	struct signalfd_siginfo si;
	if (read(m->sigfd, &si, sizeof si) != (ssize_t)sizeof si)
		return;
	if (!m->stop_signal)
		m->stop_signal = (int)si.ssi_signo;
	if (c)
		child_signal(c, (int)si.ssi_signo);
}

/* Samples until the child exits (c) or until the deadline (c NULL), or a signal
 * comes while idle.  0 done; -1 failed. */
static int wait_sampling(struct matrix_ctx *m, struct child *c, double until,
			 struct child_exit *x)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd fds[4] = { { .fd = m->sigfd, .events = POLLIN },
					 { .fd = m->src->ops->wait_fd(m->src), .events = POLLIN },
					 { .fd = child_fd(c), .events = POLLIN },
					 { .fd = announce_fd(m->announce), .events = POLLIN } };
		int timeout = c ? -1 : (int)fmax(0, (until - seconds_since(&t0)) * 1000);
		int n = poll(fds, 4, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return m->failed = true, -1;
		if (fds[0].revents & POLLIN)
			take_signal(m, c);
		if (fds[3].revents & POLLIN)
			take_announcements(m);
		if (!c && (m->stop_signal || seconds_since(&t0) >= until))
			return 0;
		if ((fds[1].revents & POLLIN) && sample(m, fds[1].fd) < 0)
			return -1;
		if (c && (fds[1].revents & POLLIN))
			child_reap_orphans(c);
		struct error err = { "" };
		if (c && (fds[2].revents & POLLIN)) {
			int r = child_reap(c, x, &err);
			if (r < 0) {
				text_printf(stderr, "ioscope matrix: %s\n", err.msg);
				return m->failed = true, -1;
			}
			if (r > 0)
				return 0;
		}
	}
}

static int open_output(struct matrix_ctx *m, char *path, size_t len)
{
	char name[NAME_MAX + 32];
	snprintf(path, len, "%s-c%02zu-r%zu.out", m->prefix, m->cell + 1, m->repeat + 1);
	snprintf(name, sizeof name, "%s-c%02zu-r%zu.out", m->out_name, m->cell + 1, m->repeat + 1);
	int fd = openat(m->out_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		text_printf(stderr, "ioscope matrix: %s: %s\n", path, strerror(errno));
	return fd;
}

/* argv started in the mount point (its descriptor: the path is not looked up again);
 * keep_stdin as child_spawn's (the command keeps ioscope's input, sync has none). */
static struct child *spawn_in_mount(struct matrix_ctx *m, char *const argv[], int out,
				    bool keep_stdin, struct error *err)
{
	int here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || fchdir(control_mountpoint_cwd(&m->mount)) < 0) {
		error_errno(err, here < 0 ? "." : m->mount.path, errno);
		if (here >= 0)
			close(here);
		return NULL;
	}
	struct child *ch = child_spawn(argv, out, keep_stdin, &procpid_reader, err);
	if (fchdir(here) < 0 && ch) {
		error_errno(err, "the working directory", errno);
		child_free(ch);
		ch = NULL;
	}
	close(here);
	return ch;
}

/* The command, with the cell in its environment. */
static struct child *spawn_command(struct matrix_ctx *m, const struct matrix_cell *c, int out,
				   struct error *err)
{
	char cell[MOUNT_OPTS_MAX + 64];
	snprintf(cell, sizeof cell, "%s:%s:%s", c->sched, c->options, matrix_cache_name(c->cache));
	setenv("IOSCOPE_CELL", cell, 1);
	return spawn_in_mount(m, m->o->command, out, true, err);
}

static void run_figures(struct matrix_run *run, const struct child_exit *x)
{
	run->exit = x->exit_code;
	run->elapsed_s = x->elapsed;
	run->cpu_s = (double)x->ru.ru_utime.tv_sec + x->ru.ru_utime.tv_usec / 1e6 +
		     (double)x->ru.ru_stime.tv_sec + x->ru.ru_stime.tv_usec / 1e6;
	run->cmd_read_MB = x->have_io ? (double)x->read_bytes / MATRIX_MB : NAN;
	run->cmd_written_MB = x->have_io ? (double)x->write_bytes / MATRIX_MB : NAN;
}

/* What the command left running (or all of it, when the matrix stops) is stopped, so
 * that the unmount finds the filesystem free; marked when there was any. */
static void stop_the_rest(struct matrix_ctx *m, struct child *ch)
{
	struct child_stop st;
	char note[256];
	child_stop(ch, &st);
	child_free(ch);
	if (!child_stop_note(&st, note, sizeof note))
		return;
	text_printf(stderr, "ioscope matrix: %s\n", note);
	if (st.left_behind)
		matrix_mark(m, "stopped", "%s", note);
}

int matrix_exec_run(struct matrix_ctx *m, const struct matrix_cell *c, struct matrix_run *run)
{
	char outpath[PATH_MAX];
	struct error err = { "" };
	int out = open_output(m, outpath, sizeof outpath);
	if (out < 0)
		return m->failed = true, -1;
	m->nprobe = 0;
	struct child *ch = spawn_command(m, c, out, &err);
	close(out);
	if (!ch) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		matrix_mark(m, "failed", "%s", err.msg);
		return m->failed = true, -1;
	}
	struct event ev;
	if (child_start_event(ch, m->o->command, outpath, &ev) < 0 ||
	    event_set_scope(&ev, "%s", m->name) < 0) {
		event_free(&ev);
		text_printf(stderr, "ioscope matrix: out of memory: the run's start is not marked\n");
		stop_the_rest(m, ch);
		return m->failed = true, -1;
	}
	m->nmarks = 0;
	m->running = true;
	if (session_add_own_event(m->session, &ev, &err) < 0)
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
	announce_events(&session_log_announce_codec, &ev, 1);
	event_free(&ev);
	struct child_exit x;
	memset(&x, 0, sizeof x);
	int rc = wait_sampling(m, ch, 0, &x);
	if (rc == 0 && (child_exit_event(&x, &ev) < 0 || event_set_scope(&ev, "%s", m->name) < 0)) {
		event_free(&ev);
		text_printf(stderr, "ioscope matrix: out of memory: the run's exit is not marked\n");
		m->failed = true;
		rc = -1;
	}
	if (rc == 0) {
		m->run_exited = ev.mono;
		session_add_own_event(m->session, &ev, &err);
		announce_events(&session_log_announce_codec, &ev, 1);
		event_free(&ev);
		matrix_exec_sample(m);
		run_figures(run, &x);
		run->probe_reads = m->nprobe;
		run->probe_p50_us = matrix_percentile(m->probe_us, m->nprobe, 50);
		run->probe_p99_us = matrix_percentile(m->probe_us, m->nprobe, 99);
		matrix_fio_parse(outpath, run);
	}
	m->running = false;
	stop_the_rest(m, ch);
	return rc == 0 && !m->stop_signal ? 0 : -1;
}

int matrix_exec_sync(struct matrix_ctx *m, struct matrix_run *run)
{
	char *argv[] = { "sync", "-f", ".", NULL };   /* in the mount point */
	struct error err = { "" };
	matrix_mark(m, "sync", "sync -f %s", m->mount.path);
	struct child *ch = spawn_in_mount(m, argv, -1, false, &err);
	if (!ch) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		return m->failed = true, -1;
	}
	struct child_exit x;
	int rc = wait_sampling(m, ch, 0, &x);
	child_free(ch);
	if (rc < 0)
		return -1;
	run->writeback_s = x.elapsed;
	matrix_mark(m, "synced", "%.3f s", x.elapsed);
	matrix_exec_sample(m);
	return x.exit_code == 0 ? 0 : (m->failed = true, -1);
}

int matrix_exec_idle(struct matrix_ctx *m, double seconds)
{
	return wait_sampling(m, NULL, seconds, NULL);
}


int matrix_exec_signals(struct matrix_ctx *m)
{
	m->sigfd = stop_signals_open();
	return m->sigfd;
}
