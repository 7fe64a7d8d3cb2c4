/* procpid.h - parsers of one task's /proc files: stat, io, wchan, stack, syscall and
 * fdinfo; and their readers for the layers above src/sources.
 *
 * The parsers are pure functions on the text read, so they are tested on fixtures; the
 * sampler's walk over /proc that reads the files is proctasks.c.  A comm may hold anything
 * but NUL (spaces and parentheses included): stat is split at the last ')'.
 *
 * The readers (procpid_read.c) are the one place outside the sampler that opens a
 * process's stat, io or fdinfo: core gets them through procpid_reader, handed by its
 * caller; control, record and cli call them (tests/e2e/test_kernel_readers.sh).
 */
#ifndef IOSCOPE_PROCPID_H
#define IOSCOPE_PROCPID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

#include "proc_reader.h"
#include "tasks.h"

#define PROCPID_PF_KTHREAD 0x00200000u   /* include/linux/sched.h */

struct procpid_stat {
	int32_t pid;
	char comm[TASK_COMM_MAX];
	char state;                 /* R S D Z T t X I ... */
	int32_t ppid, pgrp;         /* fields 4 and 5 */
	uint32_t flags;             /* field 9 */
	uint32_t num_threads;       /* field 20 */
	uint64_t starttime;         /* field 22, clock ticks after boot */
	bool has_blkio;             /* the line has field 42 */
	uint64_t blkio_ticks;       /* field 42, delayacct_blkio_ticks */
};

struct procpid_io {
	uint64_t syscr, syscw, read_bytes, write_bytes, cancelled_write_bytes;
	bool has_chars;             /* rchar and wchar were there too */
	uint64_t rchar, wchar;
};

/* 0, or -1 when the text is not a stat line (fewer than 22 fields, bad numbers). */
int procpid_parse_stat(const char *text, size_t len, struct procpid_stat *out);
/* 0, or -1 when a field is missing (rchar and wchar may be: has_chars). */
int procpid_parse_io(const char *text, size_t len, struct procpid_io *out);
/* /proc/PID/task/TID/schedstat, "RUNTIME_NS RUNQUEUE_NS RUNS": how many times the thread
 * was given a CPU; 0 when not known (not three numbers, or "0 0 0": sched_info off). */
uint64_t procpid_parse_schedstat_runs(const char *text, size_t len);
/* The wait channel's symbol into out ("" for "0" or anything that is not a symbol). */
void procpid_parse_wchan(const char *text, size_t len, char *out, size_t outlen);
/* The top frames below the scheduler's own ("[<0>] jbd2_log_wait_commit+0xb5/0x130" ->
 * "jbd2_log_wait_commit"), at most max; how many. */
size_t procpid_parse_stack(const char *text, size_t len, char (*frames)[TASK_FRAME_MAX],
			   size_t max);

#define PROCPID_SYSCALL_ARGS 6
/* /proc/PID/task/TID/syscall, "NR ARG0 .. ARG5 SP PC" with the arguments in hex: the
 * number and the arguments.  false for "running", "-1 SP PC" (not in a system call:
 * a page fault, a kernel thread) or anything else. */
bool procpid_parse_syscall(const char *text, size_t len, long *nr,
			   uint64_t args[PROCPID_SYSCALL_ARGS]);
/* The mnt_id line of /proc/PID/fdinfo/N: the mount the file was opened through. */
bool procpid_parse_fdinfo_mnt(const char *text, size_t len, uint32_t *mnt_id);
/* The flags line of /proc/PID/fdinfo/N (octal: O_ACCMODE and the open flags). */
bool procpid_parse_fdinfo_flags(const char *text, size_t len, unsigned *flags);

/* ---- readers of the live /proc (procpid_read.c) ---- */

/* Process pid's stat: 0, or -1 when it is gone or the line is not one. */
int procpid_read_stat(pid_t pid, struct procpid_stat *out);
/* Whether a kernel thread named comm runs ("ext4lazyinit": a fresh ext4's inode tables
 * still to be zeroed). */
bool procpid_kthread_alive(const char *comm);
/* Process pid's io (a zombie's too, until it is reaped): 0, or -1 when it cannot be read
 * (another user's process, a kernel without task I/O accounting) or a field is missing. */
int procpid_read_io(pid_t pid, struct procpid_io *out);
/* The regular files open for writing on the filesystem whose st_dev is dev, in every
 * process's descriptors (root sees them all): their count, and "pid N" of the first into
 * example (untouched when none). */
size_t procpid_count_writers(dev_t dev, char *example, size_t len);
/* The process table as core's proc_reader (proc_reader.h): every process's row, one
 * process's, one's io. */
extern const struct proc_reader procpid_reader;

#endif
