/* batch.c - the headless face: one report per interval on standard output.
 *
 * Like `iostat -y`, the first report covers the first interval, not the time since
 * boot.  SIGINT/SIGTERM end the run cleanly (the recording is complete).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "announce.h"
#include "batch_format.h"
#include "commands.h"
#include "dirty_threshold.h"
#include "procpid.h"
#include "rates.h"
#include "run_watch.h"
#include "session.h"
#include "session_log.h"
#include "stop_signals.h"
#include "text.h"

struct batch {
	const struct options *opts;
	struct source *src;
	struct recorder *rec;
	struct session *session;
	const struct batch_format *format;    /* --format's row (batch_format.h) */
	struct sink *out;                     /* its output, a sink of the session */
	int sigfd;
	uint64_t diskstats_said[2];           /* odd /proc/diskstats lines said once */
	struct announce_listener *announce;   /* changes `ioscope set` made from a shell */
	bool said_delayacct, said_stack;      /* --tasks notes, said once */
	struct run_watch run;                 /* `ioscope run`: the command watched */
	bool running;                         /* run is in use */
};

/* What the tasks figures lack on this machine, said once on standard error. */
static void say_tasks_notes(struct batch *b, const struct snapshot *snap)
{
	const struct tasks_sample *t = snap->tasks;
	if (!b->opts->tasks || !t)
		return;
	if (!t->delayacct && !b->said_delayacct)
		fprintf(stderr, "ioscope: %s\n", tasks_delayacct_note);
	if (!t->stack_readable && !b->said_stack) {
		fprintf(stderr, "ioscope: %s\n", tasks_stack_note);
		fprintf(stderr, "ioscope: %s\n", tasks_attribution_note);
	}
	b->said_delayacct |= !t->delayacct;
	b->said_stack |= !t->stack_readable;
}

/* The format's output had the sample from the session: what it has to say, on stderr,
 * then the interval on standard output (the exporter's: for --format prometheus only). */
static int emit(struct batch *b)
{
	struct error err = { "" };
	say_tasks_notes(b, session_snapshot(b->session));
	if (b->format->take_note && b->format->take_note(b->out, &err))
		text_printf(stderr, "ioscope: %s\n", err.msg);
	const char *failure = sink_failure(b->out);
	if (failure) {
		text_printf(stderr, "ioscope: %s\n", failure);
		return -1;
	}
	if (b->format->print(b->out, stdout, &err) == 0)
		return 0;
	text_printf(stderr, "ioscope: %s\n", err.msg);
	return -1;
}

/* The output gets the first sample at once: the exporter's exposition (settings, change
 * counters at 0, no figures) is what a scrape gets until the first interval ends. */
static int output_start(struct batch *b)
{
	struct error err = { "" };
	if (session_add_sink(b->session, b->out, &err) == 0)
		return 0;
	text_printf(stderr, "ioscope: %s\n", err.msg);
	return -1;
}

/* ---- announcements: changes made by `ioscope set` / `remount`, logged as ours ---- */

static void announce_open(struct batch *b)
{
	struct error err;
	if (b->src->live)
		b->announce = announce_listen(&session_log_announce_codec, &err);   /* without it, such changes are "observed" */
}

/* After a sample: say what a burst of announcements cost (announce.h). */
static void announce_interval_note(struct batch *b)
{
	char note[160];
	if (announce_interval_end(b->announce, note, sizeof note))
		fprintf(stderr, "ioscope: %s\n", note);
}

/* `ioscope run`: the command's start and exit go with the next sample, like an
 * announcement, so the interval that saw them prints them. */
static int run_start(struct batch *b)
{
	struct error err = { "" };
	struct event start;
	struct run_watch_opts o = { .command = b->opts->command, .output_path = b->opts->output_path,
				    .linger = b->opts->linger,
				    .dirty_threshold_kb = dirty_background_threshold_kb,
				    .proc = &procpid_reader };
	int rc = run_watch_start(&b->run, &o, &start, &err);
	if (rc < 0) {
		text_printf(stderr, "ioscope: run: %s\n", err.msg);
		recorder_discard(b->rec);
		return rc == RUN_WATCH_REFUSED ? 1 : 127;
	}
	b->running = true;
	rc = session_queue_event(b->session, &start) < 0 ? 1 : 0;
	event_free(&start);
	return rc;
}

static void run_collect(struct batch *b)
{
	struct error err = { "" };
	struct event ev;
	int r = run_watch_collect(&b->run, &ev, &err);
	if (r < 0)
		text_printf(stderr, "ioscope: run: %s\n", err.msg);
	if (r > 0 && session_queue_event(b->session, &ev) < 0)
		fprintf(stderr, "ioscope: out of memory: the exit is not marked\n");
	if (r > 0)
		event_free(&ev);
}

/* Whatever of the command still runs is stopped, and said. */
static void run_close(struct run_watch *w)
{
	char note[256];
	run_watch_close(w);
	if (child_stop_note(&w->stopped, note, sizeof note))
		fprintf(stderr, "ioscope: run: %s\n", note);
}

/* A signal ends the run, or with a command still running, is passed on to it and
 * the run ends when it exits.  0: stop now. */
static int on_signal(struct batch *b)
{
	struct signalfd_siginfo si;
	if (read(b->sigfd, &si, sizeof si) != (ssize_t)sizeof si)
		si.ssi_signo = SIGTERM;
	return b->running && run_watch_stop(&b->run, (int)si.ssi_signo);
}

/* Wait for the next deadline or a signal.  1: sample now; 0: stop. */
static int wait_next(struct batch *b)
{
	struct pollfd fds[4] = { { .fd = b->sigfd, .events = POLLIN }, { .fd = b->src->ops->wait_fd(b->src), .events = POLLIN },
				 { .fd = announce_fd(b->announce), .events = POLLIN },
				 { .fd = b->running ? run_watch_fd(&b->run) : -1, .events = POLLIN } };
	for (;;) {
		int n = poll(fds, 4, fds[1].fd >= 0 ? -1 : 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || ((fds[0].revents & POLLIN) && !on_signal(b)))
			return 0;
		if (fds[2].revents & POLLIN)
			session_take_announced(b->session, &(struct error){ "" });   /* out of memory: that change is "observed" */
		if (fds[3].revents & (POLLIN | POLLHUP)) {
			run_collect(b);
			fds[3].fd = run_watch_fd(&b->run);
		}
		if (fds[1].fd < 0)
			return 1;
		if (fds[1].revents & POLLIN) {
			uint64_t expirations;
			if (read(fds[1].fd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
				return 0;
			return 1;
		}
	}
}

/* 1: a sample; 0: no more; -1: failed (said on stderr). */
static int step(struct batch *b)
{
	struct error err = { "" };
	int r = session_step(b->session, &err);
	if (r < 0)
		text_printf(stderr, "ioscope: %s\n", err.msg);
	char note[160];
	while (source_diskstats_notice(b->src, b->opts->verbose, b->diskstats_said, note, sizeof note))
		fprintf(stderr, "ioscope: %s\n", note);
	return r;
}

static int record_check(struct batch *b)
{
	struct error err;
	if (!session_sink_error(b->session, recorder_sink(b->rec), &err))
		return 0;
	text_printf(stderr, "ioscope: %s\n", err.msg);
	return -1;
}

static int run_loop(struct batch *b)
{
	for (long n = 0; b->opts->count == 0 || n < b->opts->count; n++) {
		if (!wait_next(b))
			return 0;
		int r = step(b);
		if (r <= 0)
			return r < 0 ? 1 : 0;
		announce_interval_note(b);
		if (emit(b) < 0 || record_check(b) < 0)
			return 1;
		if (b->running)
			run_watch_reap(&b->run);
		if (b->running && run_watch_done(&b->run, session_snapshot(b->session)))
			return 0;
	}
	return 0;
}

static int open_signals(struct batch *b)
{
	b->sigfd = stop_signals_open();
	signal(SIGPIPE, SIG_IGN);   /* a closed pipe shows up as a write error */
	return b->sigfd;
}

/* The baseline sample, the selection, the recording.  Exit status. */
static int start(struct batch *b)
{
	struct error err = { "" };
	int r = step(b);
	if (r <= 0) {
		if (r == 0)
			fprintf(stderr, "ioscope: no samples\n");
		return 1;
	}
	if (session_select(b->session, b->opts->devices, b->opts->ndevices, &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 2;
	}
	if (b->rec && session_add_sink(b->session, recorder_sink(b->rec), &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 1;
	}
	return 0;
}

int batch_run(const struct options *opts, struct source *src, struct recorder *rec)
{
	struct batch b = { .opts = opts, .src = src, .rec = rec, .format = opts->format, .sigfd = -1 };
	struct error err = { "" };
	int status = 1;
	if (opts->tasks && source_set_tasks(src, SOURCE_TASKS_EVERY_SAMPLE, &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		goto out;
	}
	b.out = b.format->open(b.format, opts, !src->live, &err);
	if (!b.out) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		goto out;
	}
	b.session = session_open(src, &(struct session_opts){ 0 }, &err);
	if (!b.session) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		goto out;
	}
	status = start(&b);
	if (!status && output_start(&b) < 0)
		status = 1;
	if (status)
		goto out;
	announce_open(&b);
	session_listen(b.session, b.announce, false);   /* with the next sample's events */
	if (opts->command && (status = run_start(&b)))
		goto out;
	if (b.format->header)
		b.format->header(stdout);
	/* Blocked only now that the loop polls the signalfd: until here Ctrl-C and
	 * `timeout` end ioscope the ordinary way, whatever the start-up waits for. */
	if (open_signals(&b) < 0) {
		perror("ioscope: signalfd");
		status = 1;
		goto out;
	}
	status = run_loop(&b);
	if (b.running && status == 0)
		status = run_watch_status(&b.run);
out:
	if (b.running)
		run_close(&b.run);
	if (b.sigfd >= 0)
		close(b.sigfd);
	announce_close(b.announce);
	session_close(b.session);   /* main closes the recorder */
	sink_close(b.out);
	return status;
}
