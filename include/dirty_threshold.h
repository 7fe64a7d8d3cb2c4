/* dirty_threshold.h - the kernel's background writeback threshold, for `ioscope run`'s
 * linger: the writeback after a command exits is watched until it is done. */
#ifndef IOSCOPE_DIRTY_THRESHOLD_H
#define IOSCOPE_DIRTY_THRESHOLD_H

#include <stdint.h>

/* nr_dirty_background_threshold of /proc/vmstat, in kB: above it the flusher writes
 * back without waiting for dirty pages to expire.  -1 when it cannot be read. */
int dirty_background_threshold_kb(uint64_t *kb);

#endif
