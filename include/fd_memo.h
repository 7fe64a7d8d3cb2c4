/* fd_memo.h - the devices of processes' open files, kept from one sample to the next.
 *
 * A descriptor's file keeps the mount it was opened on for as long as it is open, and a
 * mount keeps its device: what procfiles found for a file stays true while the descriptor
 * holds that file.  The memo knows a file by its device and inode (a stat through the
 * /proc/PID/fd link), not by the link's text: one path leads to another disk's file once a
 * disk is mounted over a directory (or bind-mounted, in a namespace of one's own), and a
 * writer that reopens it then holds another file under the same text, at any sample after
 * the mount.  A --root tree's links lead nowhere: there the link's text stands for the
 * file.  A new mount table forgets everything (for those trees); only what was looked up
 * in a sample is kept for the next.
 */
#ifndef IOSCOPE_FD_MEMO_H
#define IOSCOPE_FD_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"
#include "tasks.h"

struct fd_memo_key {
	int32_t pid, fd;
	uint64_t starttime;             /* the process's, in clock ticks since boot (a pid
					   taken again is another process) */
	uint64_t dev, ino;              /* the file's st_dev and st_ino (a --root tree's: 0
					   and fd_memo_hash of the descriptor's link) */
};

struct fd_memo_entry {
	struct fd_memo_key key;
	struct task_file file;
};

struct fd_memo {
	struct fd_memo_entry *last, *next;   /* last sample's, sorted; this sample's */
	size_t nlast, caplast, nnext, capnext;
	uint64_t mounts;                     /* fd_memo_mounts of last sample's table */
};

void fd_memo_free(struct fd_memo *m);
/* Another sample, whose mount table is mounts[0..n): what the last one kept is what finds
 * find now, and nothing when the table is not the last one's. */
void fd_memo_new_sample(struct fd_memo *m, const struct mount *mounts, size_t n);
bool fd_memo_find(const struct fd_memo *m, const struct fd_memo_key *key, struct task_file *out);
/* Keep key's file for the next sample (forgotten when out of memory: read again then). */
void fd_memo_keep(struct fd_memo *m, const struct fd_memo_key *key, const struct task_file *file);
uint64_t fd_memo_hash(const void *data, size_t n, uint64_t h);
/* What a mount table that leads paths to mounts and mounts to devices hashes to. */
uint64_t fd_memo_mounts(const struct mount *mounts, size_t n);

#endif
