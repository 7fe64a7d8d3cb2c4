/* probe.h - the responsiveness probe (docs/metrics.md, "Responsiveness probe").
 *
 * What a user feels while the disk is busy: every interval one 4 KiB read at a
 * random offset of a working set, made to reach the device (O_DIRECT, else the page
 * dropped with posix_fadvise first), timed with CLOCK_MONOTONIC around pread; and
 * optionally the cold start of a small program.  The reads run on a thread of their
 * own: a read that blocks for seconds (a frozen filesystem) never stalls sampling,
 * it shows up as `stalled_us` until it returns.
 */
#ifndef IOSCOPE_PROBE_H
#define IOSCOPE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define PROBE_READ_SIZE 4096
#define PROBE_WORKING_SET (16u << 20)   /* the file made in a directory */

/* The probe's samples of one sampling interval, every one kept (snapshot.probe). */
struct probe_samples {
	uint64_t *read_us;        /* each read, microseconds, in the order taken */
	size_t nread, read_cap;
	uint64_t *exec_us;        /* each cold program start (--probe-exec) */
	size_t nexec, exec_cap;
	uint64_t errors;          /* reads or starts that failed in the interval */
	uint64_t stalled_us;      /* a read still waiting at the sample, for this long; 0: none */
	uint64_t reading_us;      /* a read in progress at the sample, however short, for this
				     long (stalled_us is it once it outlasts a probe interval);
				     0: none */
};

void probe_samples_clear(struct probe_samples *s);
void probe_samples_free(struct probe_samples *s);   /* the arrays, not s */
/* Append one value; -1 on ENOMEM. */
int probe_samples_add_read(struct probe_samples *s, uint64_t us);
int probe_samples_add_exec(struct probe_samples *s, uint64_t us);
/* Deep copy into *dst (whose arrays are reused); -1 on ENOMEM. */
int probe_samples_copy(struct probe_samples *dst, const struct probe_samples *src);
bool probe_samples_equal(const struct probe_samples *a, const struct probe_samples *b);
/* The keys "read_us": [...], "exec_us": [...], and "errors", "stalled_us", "reading_us"
 * when not 0, into an object being written: the session log's probe record and batch JSON. */
struct jsonw;
void probe_samples_put_json(struct jsonw *w, const struct probe_samples *s);

struct probe;

/* Start probing path (a regular file, a directory: a working-set file made and
 * removed there, or a block device) every interval seconds.  NULL with err. */
struct probe *probe_start(const char *path, double interval, bool exec, struct error *err);
/* Move the samples taken since the last call into *out (replacing its contents).
 * Never waits for a read.  -1 on ENOMEM. */
int probe_take(struct probe *p, struct probe_samples *out);
/* What the probe reads: "/dev/loop0 (O_DIRECT)"; for messages. */
const char *probe_describe(const struct probe *p);
/* What the user should hear about how it runs, "" nothing: --probe-exec starts
 * /bin/true, not a copy in the probed directory, and why. */
const char *probe_notice(const struct probe *p);
void probe_stop(struct probe *p);
/* Read every `interval` seconds from the next read on (a matrix widening it when the
 * probe's own load is over its bound). */
void probe_set_interval(struct probe *p, double interval);

/* p-th percentile (0..100) of v[0..n) by nearest rank, after sorting a copy; 0 when n
 * is 0.  For reports: p50 / p99 / max of a phase. */
uint64_t probe_percentile(const uint64_t *v, size_t n, double p);

#endif
