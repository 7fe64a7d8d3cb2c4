/* run_watch.h - `ioscope run`: the watched command from its start to the end of the
 * linger after it, for the console and batch alike.  The caller polls run_watch_fd
 * in its main loop, puts the events it hands out through the session, and asks
 * run_watch_done after each sample.
 */
#ifndef IOSCOPE_RUN_WATCH_H
#define IOSCOPE_RUN_WATCH_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "child.h"
#include "error.h"
#include "events.h"
#include "snapshot.h"

#define RUN_LINGER_BATCH 10.0          /* seconds, and longer while writeback goes on */
#define RUN_LINGER_WRITEBACK_MAX 600.0 /* but not forever on a machine always dirty */

struct run_watch {
	struct child *child;
	char output[PATH_MAX];       /* where its stdout/stderr go; "" inherited */
	double linger;               /* seconds after exit; < 0: until the user quits */
	bool linger_writeback;       /* and until dirty+writeback are under the threshold */
	int (*dirty_threshold_kb)(uint64_t *kb);   /* as run_watch_opts */
	bool exited, stopping;
	struct timespec exited_at;   /* CLOCK_MONOTONIC */
	struct child_exit exit;
	struct child_stop stopped;   /* what run_watch_close found still running */
};

struct run_watch_opts {
	char **command;
	const char *output_path;     /* NULL: inherit, or a new temporary file with to_file */
	bool to_file;                /* the console: never onto the screen */
	double linger;               /* < 0: the default */
	bool console;
	/* Reads the writeback threshold (src/sources: dirty_background_threshold_kb), so
	 * core reads no /proc/sys itself; NULL: the linger does not wait for writeback. */
	int (*dirty_threshold_kb)(uint64_t *kb);
	/* Reads the command's processes and its I/O (src/sources: &procpid_reader), so core
	 * reads no /proc/PID file itself.  Required. */
	const struct proc_reader *proc;
};

/* Spawn the command; *start is its start event.  -1 with err (nothing runs: the
 * command could not be started, exit 127 as a shell says it), or RUN_WATCH_REFUSED when
 * its output file could not be made (ioscope's own refusal, exit 1) or its start event
 * could not (out of memory: it was stopped). */
#define RUN_WATCH_REFUSED (-2)
int run_watch_start(struct run_watch *w, const struct run_watch_opts *o, struct event *start,
		    struct error *err);
/* The pidfd while the command runs, else -1. */
int run_watch_fd(const struct run_watch *w);
/* When run_watch_fd is readable: 1 it exited (*exit_ev is the event), 0 not yet, -1 error
 * (err; out of memory for the event: it exited all the same, unmarked). */
int run_watch_collect(struct run_watch *w, struct event *exit_ev, struct error *err);
/* ioscope is asked to stop (a signal): passed on to the command's process group, no
 * linger after it.
 * false when the command is no longer running (stop now). */
bool run_watch_stop(struct run_watch *w, int sig);
/* After a sample: true once the command has exited and the linger is over. */
bool run_watch_done(const struct run_watch *w, const struct snapshot *cur);
/* The exit status ioscope returns: the command's (128+N for a signal). */
int run_watch_status(const struct run_watch *w);
/* After a sample: the command's orphans that exited are reaped (child_reap_orphans). */
void run_watch_reap(struct run_watch *w);
/* Stops whatever of the command still runs (child_stop: its whole tree), and frees it. */
void run_watch_close(struct run_watch *w);

#endif
