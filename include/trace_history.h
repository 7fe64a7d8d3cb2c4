/* trace_history.h - the eBPF view's latency histograms of recent samples, for the
 * console's heat map (docs/console.md, "Latency heat map").
 *
 * A ring beside the history (history.h), numbered like it: slot n holds what the
 * snapshot of history sample n traced, or "not traced".  Per whole disk only the D2C
 * histograms of reads and writes are kept, as 32-bit counts, for at most
 * TRACE_HISTORY_MAX_SAMPLES samples and TRACE_HISTORY_MAX_DEVICES disks: 256 bytes a
 * sample and disk, so the memory has a bound whatever the history's length.  A disk's
 * ring is allocated when it first shows traced I/O and grows with the samples taken.
 */
#ifndef IOSCOPE_TRACE_HISTORY_H
#define IOSCOPE_TRACE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

#define TRACE_HISTORY_MAX_SAMPLES 4096u
#define TRACE_HISTORY_MAX_DEVICES 64u
#define TRACE_HISTORY_DIRS 2   /* TRACE_READ, TRACE_WRITE */

struct trace_history;

/* Keeps the last min(capacity, TRACE_HISTORY_MAX_SAMPLES) samples.  NULL on ENOMEM. */
struct trace_history *trace_history_new(size_t capacity);
void trace_history_free(struct trace_history *h);
size_t trace_history_capacity(const struct trace_history *h);

/* Sample n (numbers go up by one, as the history's) and what it traced (NULL: tracing
 * was off).  -1 ENOMEM (the sample then reads as not traced). */
int trace_history_append(struct trace_history *h, uint64_t n, const struct trace_sample *t);

/* Whether sample n is held and was traced. */
bool trace_history_traced(const struct trace_history *h, uint64_t n);
/* The D2C histogram (TRACE_LAT_BUCKETS counts) of direction dir (TRACE_READ or
 * TRACE_WRITE) of disk major:minor at sample n; NULL when n was not traced or is not
 * held.  A traced sample where the disk did nothing (or one past the disks kept) gives
 * all zeros. */
const uint32_t *trace_history_hist(const struct trace_history *h, unsigned major, unsigned minor,
				   enum trace_dir dir, uint64_t n);

/* Bytes held (docs/performance.md, tests). */
size_t trace_history_memory(const struct trace_history *h);

#endif
