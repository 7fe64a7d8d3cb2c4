/* proctasks.h - the tasks sub-sampler the live source owns: blocked tasks and
 * per-process I/O (tasks.h) from /proc, read only while asked for (--tasks, the why pane).
 *
 * Per sample it lists /proc once and reads each task's schedstat through a kept
 * descriptor, and a process's stat and io when one of its tasks' moved (or was not
 * asleep); a process with more than one thread then has its threads' stat and io read too
 * (a thread's state is its own).
 * Only tasks in D state have their wchan (and, with CAP_SYS_ADMIN, their stack) read,
 * and for user tasks the device of the file their system call's descriptor names.
 * What it keeps between samples: each process's counters (for the differences),
 * when each blocked task was first seen blocked, and the memory cgroups blocked tasks were
 * in during the last 10 s (read every sample meanwhile: their counters are rates).
 */
#ifndef IOSCOPE_PROCTASKS_H
#define IOSCOPE_PROCTASKS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "error.h"
#include "memcg.h"
#include "procfiles.h"
#include "procpid.h"
#include "tasks.h"

struct proctasks_proc;         /* a process's counters at the last read (proctasks.c) */
struct proctasks_seen;         /* a task blocked at the last read, and since when */
struct proctasks_user;         /* a passwd entry */

/* A memory cgroup a blocked task was in lately: read every sample for a while after, so
 * that its counters' rates have the reading before (proctasks.c, watch_memcgs). */
struct proctasks_memcg_watch {
	uint8_t version;
	char path[MEMCG_PATH_MAX];
	uint64_t blocked_ns;            /* the last sample with a blocked task in it */
};

struct proctasks {
	char *prefix;                   /* NULL: the live kernel; else a fixture tree */
	DIR *procdir;                   /* prefix/proc, rewound every sample */
	int procfd;                     /* its descriptor */
	bool stack_allowed;             /* CAP_SYS_ADMIN (or a fixture): read stacks */
	long clk_tck;
	bool have_baseline;
	uint64_t last_mono_ns;
	struct proctasks_proc *prev, *cur;   /* pid order */
	size_t nprev, ncur, capprev, capcur;
	struct proctasks_seen *seen;    /* tid order */
	size_t nseen, capseen;
	uint64_t *kept_runs;            /* this read's kept blocked tasks' schedstat runs */
	size_t capkept_runs;
	struct proctasks_user *users;   /* prefix/etc/passwd, read on first need */
	size_t nusers;
	bool users_loaded;
	struct procfiles files;         /* the devices of files tasks work on */
	struct memcg_roots memcg;       /* the memory controller's mounts, found on first need */
	struct proctasks_memcg_watch watched[TASKS_MEMCG_MAX];
	size_t nwatched;
	size_t ngates;                  /* schedstat descriptors kept open (proctasks.c) */
	uint64_t nofile;                /* the soft limit of descriptors, as last known */
	bool nofile_raised;             /* raised to the hard limit once already (or tried) */
	bool relaxed;                   /* read every other sample while none is blocked */
	bool held;                      /* the last sample was a copy of the read before */
	struct tasks_sample *last;      /* relaxed: a copy of the last read, owned */
	char buf[4096];
};

/* Open prefix/proc (NULL: /proc).  -1 with err when there is none. */
int proctasks_open(struct proctasks *p, const char *prefix, struct error *err);
/* Point at another tree (numbered --root trees), keeping what was seen so far. */
int proctasks_retarget(struct proctasks *p, const char *prefix, struct error *err);
/* One sample at monotonic time mono_ns into a new *out (the old one freed); mounts[0..n)
 * is the tree's mount table as the sampler read it this sample (procfiles_new_sample).
 * relaxed (source.h, SOURCE_TASKS_RELAXED): when the last read had figures and found no
 * task blocked, and the sample before was read, *out is a copy of that read instead.
 * A process or thread that vanishes while read is skipped.  -1 with err on ENOMEM or no
 * /proc. */
int proctasks_sample(struct proctasks *p, uint64_t mono_ns, const struct mount *mounts,
		     size_t nmounts, struct tasks_sample **out, struct error *err);
void proctasks_close(struct proctasks *p);

/* kernel.task_delayacct under prefix: absent (before 5.14, where it is on when built in)
 * counts as on. */
bool proctasks_delayacct(const char *prefix);

#endif
