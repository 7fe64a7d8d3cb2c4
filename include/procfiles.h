/* procfiles.h - the device numbers of the files a task works on, read from /proc: the file
 * a blocked task's system call names (by descriptor or by path) and the open files of a
 * process.  Numbers only (tasks.h, struct task_file); which disk that is, is the
 * attribution's (attribution.h).
 *
 * A file's device is found without asking the file's filesystem (a hung NFS server or a
 * FUSE daemon would hang the sampler with it): a descriptor's mount is fdinfo's mnt_id or
 * statx's (of the inode in memory, AT_STATX_DONT_SYNC), a path's the longest mount point
 * it starts with, and the mount table the sampler read this sample (mountinfo, once)
 * gives the mount's device number.  A stat through a /proc/PID/fd link tells a block
 * device opened directly (dd of=/dev/loop0), and a process's open file from the file its
 * descriptor held at the last sample (fd_memo.h).
 */
#ifndef IOSCOPE_PROCFILES_H
#define IOSCOPE_PROCFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fd_memo.h"
#include "procpid.h"
#include "snapshot.h"
#include "tasks.h"

struct procfiles {
	int procfd;                     /* prefix/proc */
	bool fixture;                   /* a --root tree: nothing is stat()ed or read from
					   another process's memory */
	const struct mount *mounts;     /* the sampler's table of every mount, this sample's */
	size_t nmounts;
	bool ns_loaded;
	char self_ns[64];               /* our mount namespace ("mnt:[4026531841]") */
	char *buf;                      /* another namespace's mountinfo, read whole */
	size_t cap;
	char small[4096];
	struct fd_memo memo;            /* the listed processes' files, from the last sample */
};

void procfiles_init(struct procfiles *f, int procfd, bool fixture);
void procfiles_close(struct procfiles *f);
/* Another sample, whose mount table (prefix/proc/self/mountinfo as the sampler read and
 * parsed it: every mount, tmpfs and devtmpfs too) is mounts[0..n), borrowed until the
 * next. */
void procfiles_new_sample(struct procfiles *f, const struct mount *mounts, size_t n);

/* The file blocked task tid (of process pid) waits on: the one its system call names.
 * False when the task was running again (its syscall reads "running", twice). */
bool procfiles_waited(struct procfiles *f, int32_t pid, int32_t tid, struct task_file *out);
/* The distinct devices of the open files of process pid, started at starttime (clock
 * ticks since boot; the first 64 descriptors looked at), at most max into out; how many. */
uint8_t procfiles_open(struct procfiles *f, int32_t pid, uint64_t starttime,
		       struct task_file *out, uint8_t max);

/* Lexically: "/a//b/./c/../d" -> "/a/b/d" (no symbolic link is followed). */
void procfiles_normalize(char *path);
/* The mount of v[0..n) whose mount point is the longest leading directory of path. */
const struct mount *procfiles_mount_of_path(const struct mount *v, size_t n, const char *path);

#endif
