/* descendants.h - the processes a watched command started, wherever they went.
 *
 * A command (`ioscope run`, a matrix run) starts in a process group of its own
 * (child.h), and ioscope is the child subreaper of everything under it
 * (PR_SET_CHILD_SUBREAPER): a background job whose shell exited, or a daemon that
 * double-forked and left the group with setsid(), is re-parented to ioscope, not to
 * init, so it stays in ioscope's tree and is found here.  The tree is read from
 * /proc/PID/stat (/proc/PID/task/TID/children is not in every kernel), by the caller's
 * proc_reader (proc_reader.h: src/sources reads it).
 *
 * The command's processes are ioscope's descendants that are in the command's group,
 * or that hang from a child of ioscope outside ioscope's own group (every command
 * has a group of its own; what ioscope starts for itself, such as the probe's
 * program, stays in ioscope's), and all their descendants.
 */
#ifndef IOSCOPE_DESCENDANTS_H
#define IOSCOPE_DESCENDANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "proc_reader.h"

#define DESCENDANTS_MAX 4096

/* From rows (any order), the live processes of the command whose group is pgid, for a
 * watcher `self` in group self_pgid, into out (at most max); their count.  0 < pgid. */
size_t descendants_select(const struct proc_row *rows, size_t nrows, pid_t self,
			  pid_t self_pgid, pid_t pgid, struct proc_row *out, size_t max);
/* The same from the process table proc reads, for this process; 0 also when it cannot
 * be read. */
size_t descendants_find(const struct proc_reader *proc, pid_t pgid, struct proc_row *out,
			size_t max);
/* sig to each of them (not those in skip_pgid, signalled as a group; 0: none), each
 * through a pidfd opened and then checked (by proc) to be the process found, not a pid
 * reused. */
void descendants_signal(const struct proc_reader *proc, const struct proc_row *rows, size_t n,
			pid_t skip_pgid, int sig);
/* Reaps the children of this process that exited and are a command's (outside its own
 * group), but not keep (a command whose exit is still to be collected): the orphans it
 * adopted as their subreaper would stay zombies till it ends. */
void descendants_reap(pid_t keep);

#endif
