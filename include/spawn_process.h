/* spawn_process.h - the one way ioscope starts a program: the watched command (`ioscope
 * run`, child.h), the probe's cold start (`--probe-exec`) and the matrix's mkfs. */
#ifndef IOSCOPE_SPAWN_PROCESS_H
#define IOSCOPE_SPAWN_PROCESS_H

#include <stdbool.h>
#include <sys/types.h>

#include "error.h"

struct spawn {
	char *const *argv;
	/* >= 0: the program is the file open on this descriptor, run as /proc/self/fd/N, never
	 * by a name another user could change (trusted_file.h); -1: argv[0] searched in PATH */
	int exec_fd;
	int out_fd;             /* standard output and error; -1: ioscope's own */
	bool stdin_null;        /* standard input /dev/null; else ioscope's own */
	bool own_group;         /* a process group of its own (its pid), for signals to reach all
				 * it starts */
	bool default_signals;   /* no signal blocked, SIGPIPE/INT/TERM/HUP at their default */
	/* SIGTERM when ioscope dies without a word (kill -9), and none started when ioscope
	 * died first; the signal follows the calling thread, so call it from the main one */
	bool parent_death;
};

/* Starts s: the pid, to be waited for, or -1 with err naming the program that could not
 * be executed (as a shell says it), and errno set.  posix_spawn, whose start is what
 * --probe-exec times (docs/metrics.md); a parent-death signal is something only a fork
 * can ask for, so with parent_death it forks and reports a failed exec through a pipe. */
pid_t spawn_start(const struct spawn *s, struct error *err);

#endif
