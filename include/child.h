/* child.h - a watched command (`ioscope run`): spawned, waited for through a pidfd in
 * the caller's poll set, its exit and its cost (rusage, /proc/PID/io) as events.
 */
#ifndef IOSCOPE_CHILD_H
#define IOSCOPE_CHILD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

#include "error.h"
#include "events.h"
#include "proc_reader.h"

struct child;

/* What the command cost, when it exited. */
struct child_exit {
	int exit_code;            /* as a shell shows it: the code, or 128+signal */
	int signal;               /* killed by this signal; 0: exited */
	double elapsed;           /* seconds from spawn to exit (CLOCK_MONOTONIC) */
	struct rusage ru;         /* of the command and the descendants it waited for */
	bool have_io;             /* /proc/PID/io could be read (same user or root) */
	uint64_t rchar, wchar, read_bytes, write_bytes, cancelled_write_bytes;
};

/* Start argv[0] (searched in PATH) with standard output and error on out_fd (-1:
 * ioscope's own), default signal dispositions and mask, in a process group of its own
 * (its pid), with ioscope as the subreaper of all it starts (descendants.h) and SIGTERM
 * as its parent-death signal, so that a kill -9 of ioscope does not leave it running;
 * call it from the main thread, whose end that signal follows.  Standard input is
 * /dev/null unless keep_stdin, and also then when it is a terminal: the command is
 * not the terminal's foreground job, and a read would stop it (SIGTTIN).  A command
 * that cannot be executed is an error (err names it), as a shell says it.  One
 * command at a time: another's orphans would be taken for this one's.  Its processes and
 * its I/O at exit are read by proc (src/sources' procpid_reader), which outlives it. */
struct child *child_spawn(char *const argv[], int out_fd, bool keep_stdin,
			  const struct proc_reader *proc, struct error *err);
/* The pidfd: readable once the command has exited.  -1 after child_reap. */
int child_fd(const struct child *c);
pid_t child_pid(const struct child *c);
bool child_running(const struct child *c);
/* Collect the exit once child_fd is readable: 1 reaped (*out filled), 0 still
 * running, -1 error (err). */
int child_reap(struct child *c, struct child_exit *out, struct error *err);
/* Pass a signal on (SIGINT, SIGTERM while ioscope is asked to stop) to the command's
 * process group, while the command has not been reaped. */
void child_signal(struct child *c, int sig);
/* Reap the command's orphans (adopted by ioscope) that exited, so that none stays a
 * zombie while the watch goes on; call it after each sample. */
void child_reap_orphans(struct child *c);

/* What stopping the command's processes found. */
struct child_stop {
	size_t left_behind;       /* still running after the command itself had exited */
	size_t unstoppable;       /* still running after SIGKILL (uninterruptible sleep) */
	pid_t first_unstoppable;
};
/* Stop every process of the command still running, the command included, whatever
 * group or session it moved to: SIGTERM (and SIGCONT, for a stopped one), a second
 * to end, then SIGKILL until none is left (3 s at most); the command is reaped. */
void child_stop(struct child *c, struct child_stop *st);
/* What to tell after child_stop: that the command left processes running (stopped), or
 * that some would not die; false when there is nothing to tell. */
bool child_stop_note(const struct child_stop *st, char *buf, size_t len);
/* child_stop, then free. */
void child_free(struct child *c);

/* The events that mark it (kind run, by ioscope): the start carries the command
 * line and where its output goes ("" inherited), the exit what it cost.  -1 on ENOMEM:
 * *ev is incomplete, and still the caller's to free (event_free). */
int child_start_event(const struct child *c, char *const argv[], const char *output,
		      struct event *ev);
int child_exit_event(const struct child_exit *x, struct event *ev);

/* Open the file a command's output goes to: `path`, or with NULL a new
 * $TMPDIR/ioscope-run-XXXXXX.out (its name into name).  -1 with err set. */
int child_output_open(const char *path, char *name, size_t len, struct error *err);

#endif
