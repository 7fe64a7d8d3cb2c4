/* trace.h - one interval of the eBPF block-layer view: latency and size histograms,
 * seeks and who queued the I/O, per whole disk (docs/metrics.md, "Tracing").
 *
 * Unlike the rest of a snapshot these are not running counters: the kernel side
 * counts into maps that the tracer reads and clears once per sample, so a snapshot's
 * trace holds what happened since the previous sample.  Filled by the live source
 * (src/sources/trace_source.c, which opens the tracer, ioscope-trace.so, on demand),
 * or by the replay from a session log's `trace` records.
 */
#ifndef IOSCOPE_TRACE_H
#define IOSCOPE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bucket i of a latency histogram holds [2^i, 2^(i+1)) microseconds, bucket 0 also
 * what took less than 1 µs; bucket i of a size histogram [2^i, 2^(i+1)) KiB, bucket 0
 * also what was under 1 KiB.  The last bucket takes everything above. */
#define TRACE_LAT_BUCKETS 32
#define TRACE_SIZE_BUCKETS 24
#define TRACE_TOP_MAX 5
#define TRACE_COMM_MAX 16
/* seekwatcher's seek: the request starts further than this from where the previous
 * one on the disk ended (at issue). */
#define TRACE_SEEK_SECTORS 128

enum trace_dir { TRACE_READ, TRACE_WRITE, TRACE_FLUSH, TRACE_DIRS };
#define TRACE_SIZE_DIRS 2 /* reads and writes: a flush carries no data */

/* The tasks that queued the most requests issued on a disk (the context of the request's
 * insert, or of its issue when it was issued at once: writeback shows as the flusher
 * thread, not the process that dirtied the pages). */
struct trace_top {
	uint32_t pid;
	char comm[TRACE_COMM_MAX];
	uint64_t ios, bytes;
};

struct trace_device {
	unsigned major, minor;                           /* the whole disk */
	uint64_t d2c[TRACE_DIRS][TRACE_LAT_BUCKETS];     /* issue to completion */
	uint64_t q2c[TRACE_DIRS][TRACE_LAT_BUCKETS];     /* rq->start_time_ns to completion */
	uint64_t size[TRACE_SIZE_DIRS][TRACE_SIZE_BUCKETS];
	uint64_t issued;       /* reads and writes issued (the seek figures' denominator) */
	uint64_t seeks;        /* issued more than TRACE_SEEK_SECTORS from the previous end */
	uint64_t sequential;   /* issued exactly at the previous end */
	struct trace_top top[TRACE_TOP_MAX];   /* by requests, then bytes */
	size_t ntop;
};

struct trace_sample {
	struct trace_device *devices;  /* sorted by major, minor */
	size_t ndevices;
};

/* The tracer's entry points (ioscope-trace.so, src/trace/tracer.c).  The .so is
 * linked with libbpf; ioscope opens it only when tracing is turned on. */
struct tracer;
#define TRACER_OPEN "ioscope_tracer_open"
#define TRACER_FLIP "ioscope_tracer_flip"
#define TRACER_COLLECT "ioscope_tracer_collect"
#define TRACER_CLOSE "ioscope_tracer_close"
/* Loads and attaches the BPF programs.  NULL with msg saying why. */
typedef struct tracer *tracer_open_fn(char *msg, size_t len);
/* Ends the interval: from now on the kernel side counts into the other set of map
 * entries.  Called right before /proc/diskstats is read, so that both cover the same
 * interval. */
typedef void tracer_flip_fn(struct tracer *t);
/* What was counted up to the last flip, into *out (replacing its contents; the arrays
 * are malloc'ed); those entries are cleared.  -1 with msg on error. */
typedef int tracer_collect_fn(struct tracer *t, struct trace_sample *out, char *msg, size_t len);
typedef void tracer_close_fn(struct tracer *t);

void trace_sample_free(struct trace_sample *t);
/* Deep copy into a new sample (NULL src gives NULL); -1 on ENOMEM. */
int trace_sample_dup(struct trace_sample **dst, const struct trace_sample *src);
const struct trace_device *trace_find(const struct trace_sample *t, unsigned major,
				      unsigned minor);
/* The trace_device for major:minor, added (zeroed, order kept) when missing; NULL ENOMEM. */
struct trace_device *trace_get(struct trace_sample *t, unsigned major, unsigned minor);

/* The lowest value a bucket holds, as the session log and JSON name it. */
uint64_t trace_bucket_low(size_t i);
uint64_t trace_hist_total(const uint64_t *hist, size_t n);
/* The q-quantile (0..1) of a latency histogram in µs, interpolated inside its bucket;
 * q = 1 gives the top of the highest non-empty bucket (the most it can have been).
 * Negative when the histogram is empty. */
double trace_quantile(const uint64_t *hist, size_t n, double q);
/* The latency buckets a heat map of hist (TRACE_LAT_BUCKETS, the sum of its columns) shows
 * in `rows` rows, *lo..*hi: from the fastest that counted to the one holding the 99th
 * percentile, and slower ones while there are rows for them; what is slower still is
 * the outliers' bucket, one top row whatever it spans (*outliers), so that a few requests
 * of seconds do not squash milliseconds into one row.  Widened to `rows` buckets (the
 * slow end first) while there are that many.  hist empty: *lo..*hi as given, widened. */
void trace_heat_fit(const uint64_t *hist, int rows, int *lo, int *hi, bool *outliers);
/* The share of reads and writes issued exactly where the previous one ended. */
double trace_seq_pct(const struct trace_device *d);   /* negative: nothing issued */

#endif
