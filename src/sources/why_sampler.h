/* why_sampler.h - reads the why figures (why.h) of one tree, the live kernel or a
 * fixture root: the dirty limits out of the /proc/vmstat text the vm reader already
 * read, the journal files of the watched filesystems (kept open), cgroup v2 io. */
#ifndef IOSCOPE_WHY_SAMPLER_H
#define IOSCOPE_WHY_SAMPLER_H

#include "journal_thread.h"
#include "procfile.h"
#include "selection.h"
#include "snapshot.h"
#include "why.h"

struct why_journal_files {
	struct journal_raw id;            /* mountpoint, device, fs: what it was opened for */
	struct procfile stats;            /* jbd2 info, xfs stats/stats, btrfs commit_stats */
	struct procfile head, tail, grant; /* xfs log/ */
	bool grant_bytes;                 /* log/reserve_grant_head_bytes (6.11+) */
	uint64_t log_size;                /* xfs log bytes (geometry), 0: unknown */
	bool log_size_tried;              /* asked once, at a sample its device was idle */
	struct journal_thread thread;     /* ext4: jbd2/DEV-8 */
	bool have_transactions;           /* ext4: transactions, as read last */
	uint64_t transactions;
};

struct why_sampler {
	const char *prefix;               /* the sampler's; NULL: the live kernel */
	uint64_t page_kb;
	/* WHY_JOURNALS_MAX of them, allocated when a journal is first watched: 340 KiB that a
	 * one-shot run without journals never touches (a first touch is a page fault) */
	struct why_journal_files *journals;
	size_t njournals;
	struct selection watch;           /* none: every device */
	enum cgroup_io_state cgroup_state; /* found last (UNKNOWN: look again) */
	unsigned cgroup_age;              /* samples since it was looked at */
};

void why_sampler_init(struct why_sampler *w, const char *prefix);
void why_sampler_close(struct why_sampler *w);
/* The devices whose filesystems' journals are read (none: all). */
void why_sampler_watch(struct why_sampler *w, const struct selection *sel);
/* Fill *out (allocated when NULL) from the vmstat text, out's mounts and every mount
 * of the tree (mtab: the cgroup2 mount is found there).  -1 on ENOMEM. */
int why_sampler_sample(struct why_sampler *w, const char *vmstat, size_t vmstat_len,
		       const struct snapshot *mtab, struct snapshot *out);

#endif
