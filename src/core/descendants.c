/* descendants.c - the processes of a watched command, wherever they went (descendants.h).
 * The process table is the caller's proc_reader's: core opens no /proc file. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "descendants.h"

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct proc_row *)a)->pid, y = ((const struct proc_row *)b)->pid;
	return (x > y) - (x < y);
}

static long index_of(const struct proc_row *sorted, size_t n, pid_t pid)
{
	struct proc_row key = { .pid = pid };
	const struct proc_row *r = bsearch(&key, sorted, n, sizeof key, by_pid);
	return r ? r - sorted : -1;
}

/* Adds to `in` every row whose parent is in it, until nothing changes (a parent may
 * have a higher pid than its child once pids wrapped). */
static void add_children(const struct proc_row *r, size_t n, bool *in)
{
	for (bool grew = true; grew;) {
		grew = false;
		for (size_t i = 0; i < n; i++) {
			long p = in[i] ? -1 : index_of(r, n, r[i].ppid);
			if (p >= 0 && in[p])
				in[i] = grew = true;
		}
	}
}

size_t descendants_select(const struct proc_row *rows, size_t nrows, pid_t self,
			  pid_t self_pgid, pid_t pgid, struct proc_row *out, size_t max)
{
	struct proc_row *r = malloc((nrows ? nrows : 1) * sizeof *r);
	bool *mine = calloc(nrows ? nrows : 1, 2 * sizeof *mine);
	size_t n = 0;
	if (!r || !mine)
		goto out;
	memcpy(r, rows, nrows * sizeof *r);
	qsort(r, nrows, sizeof *r, by_pid);
	bool *ours = mine + nrows;
	for (size_t i = 0; i < nrows; i++)
		mine[i] = r[i].ppid == self;
	add_children(r, nrows, mine);
	for (size_t i = 0; i < nrows; i++)
		ours[i] = mine[i] && (r[i].pgid == pgid ||
				      (r[i].ppid == self && r[i].pgid != self_pgid));
	add_children(r, nrows, ours);
	for (size_t i = 0; i < nrows && n < max; i++)
		if (ours[i] && !r[i].zombie)
			out[n++] = r[i];
out:
	free(r);
	free(mine);
	return n;
}

size_t descendants_find(const struct proc_reader *proc, pid_t pgid, struct proc_row *out,
			size_t max)
{
	size_t nrows = 0;
	struct proc_row *rows = proc->table(&nrows);
	size_t n = rows ? descendants_select(rows, nrows, getpid(), getpgrp(), pgid, out, max) : 0;
	free(rows);
	return n;
}

/* Still the process found: the same parent, or ioscope after that parent died. */
static bool still_it(const struct proc_reader *proc, const struct proc_row *was)
{
	struct proc_row now;
	return proc->row(was->pid, &now) && !now.zombie &&
	       (now.ppid == was->ppid || now.ppid == getpid());
}

void descendants_signal(const struct proc_reader *proc, const struct proc_row *rows, size_t n,
			pid_t skip_pgid, int sig)
{
	for (size_t i = 0; i < n; i++) {
		if (skip_pgid && rows[i].pgid == skip_pgid)
			continue;
		int pidfd = (int)syscall(SYS_pidfd_open, rows[i].pid, 0);
		if (pidfd < 0)
			continue;   /* gone */
		if (still_it(proc, &rows[i]))
			syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
		close(pidfd);
	}
}

void descendants_reap(pid_t keep)
{
	pid_t own = getpgrp();
	for (;;) {
		siginfo_t info;
		memset(&info, 0, sizeof info);
		if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 || info.si_pid == 0)
			return;
		pid_t pid = info.si_pid, pgid = getpgid(pid);
		/* the first in line is ioscope's own (the probe's program) or the command's
		 * exit still to be collected: the others wait for the next call */
		if (pid == keep || pgid < 0 || pgid == own || waitpid(pid, NULL, WNOHANG) <= 0)
			return;
	}
}
