/* journal_thread.h - the thread that commits an ext4 journal (jbd2/DEV-8), watched without
 * the tasks sub-sampler: found once among the kernel threads and kept by an open
 * /proc/PID/stat, whose state each sample says whether a commit is in progress
 * (docs/metrics.md, "A commit in progress"). */
#ifndef IOSCOPE_JOURNAL_THREAD_H
#define IOSCOPE_JOURNAL_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "procfile.h"
#include "why.h"

struct journal_thread {
	struct procfile stat;   /* the thread's /proc/PID/stat, kept open; closed: not found */
	uint64_t d_since_ns;    /* monotonic time first seen in D (consecutive samples); 0: not */
	unsigned wait;          /* samples before it is looked for again */
};

void journal_thread_init(struct journal_thread *t);
void journal_thread_close(struct journal_thread *t);
/* How long the committing thread of the ext4 journal on device has been in D at mono_ns
 * (ms, 0 when first seen there now); false when it is not in D, or not found (looked for
 * again when gone, and every JOURNAL_THREAD_RECHECK samples while not found).  went_on:
 * the journal ended a commit since the last call, so the thread, even if it was in D then
 * too, is at a later one: counted from now.  prefix: a tree's root, NULL for the live
 * kernel. */
bool journal_thread_blocked_ms(struct journal_thread *t, const char *prefix, const char *device,
			       bool went_on, uint64_t mono_ns, uint64_t *ms);

#endif
