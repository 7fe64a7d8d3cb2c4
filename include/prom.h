/* prom.h - Prometheus / OpenMetrics exposition of what ioscope has and node_exporter
 * has not (docs/fleet.md).
 *
 * Every metric family is one row of one table (prom_families[]): its name, type, help
 * and the function that writes its samples; the per-device figures' gauges (iostat's)
 * are rows of the device figure table (include/figures.h) instead.  The writer,
 * `--help`'s promise and the table in docs/fleet.md all follow those tables.  The
 * exporter keeps only what a Prometheus counter needs across intervals: the changes seen
 * per device, kind and who made them, and when each kind last changed.
 */
#ifndef IOSCOPE_PROM_H
#define IOSCOPE_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "output.h"
#include "tasks.h"
#include "trace.h"

/* The two text formats a scraper can be given. */
enum prom_format {
	PROM_TEXT,          /* Prometheus text 0.0.4 */
	PROM_OPENMETRICS,   /* OpenMetrics 1.0.0, ends with "# EOF" */
};
#define PROM_CONTENT_TYPE_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define PROM_CONTENT_TYPE_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* A growing text buffer, reused from one exposition to the next. */
struct prom_buf {
	char *buf;
	size_t len, cap;
	bool failed;     /* ENOMEM: the text is unusable */
};
void prom_buf_init(struct prom_buf *b);
void prom_buf_reset(struct prom_buf *b);
void prom_buf_free(struct prom_buf *b);

/* Who made a change: the label `by`. */
enum prom_by { PROM_BY_OBSERVED, PROM_BY_IOSCOPE, PROM_BY_COUNT };

/* Changes of one device (or, name "", of the whole system: marks, the clock). */
struct prom_changes {
	char device[DEV_NAME_MAX];
	uint64_t count[EVENT_KIND_COUNT][PROM_BY_COUNT];
	struct timespec last[EVENT_KIND_COUNT];    /* wall time; 0: never */
};

#define PROM_DEVICES_MAX 4096    /* change counters kept; past it new devices are not counted */

/* A Prometheus histogram accumulated since start: bucket[i] counts the values up to
 * bounds[i] and above bounds[i-1] (not cumulative; the writer sums them), bucket[nbounds]
 * the values above every bound (le="+Inf").  The bounds are the family's, in seconds. */
#define PROM_HIST_BUCKETS 32
struct prom_hist {
	uint64_t bucket[PROM_HIST_BUCKETS];
	uint64_t count;
	double sum;                  /* seconds */
};
/* One value (seconds) into h, on nbounds ascending bounds (< PROM_HIST_BUCKETS). */
void prom_hist_observe(struct prom_hist *h, const double *bounds, size_t nbounds, double v);
/* A log2 latency histogram of the tracer (trace.h: bucket i holds [2^i, 2^(i+1)) us, the
 * last one everything above) added bucket for bucket: its bounds are prom_log2_bounds'.
 * The tracer keeps no sum: each request adds the middle of its bucket to the sum (the
 * low end for the last, open one). */
void prom_hist_add_log2(struct prom_hist *h, const uint64_t *counts, size_t n);
/* The upper bounds of the log2 buckets but the last (2^(i+1) us, in seconds): n - 1
 * of them into out.  Returns n - 1. */
size_t prom_log2_bounds(size_t n, double *out);
/* What le="bounds[i]" says: the values up to bound i (i = nbounds: every value). */
uint64_t prom_hist_cumulative(const struct prom_hist *h, size_t i);

/* The probe's reads and program starts since start (--probe). */
struct prom_probe {
	bool seen;                   /* a snapshot had probe samples: the families have series */
	struct prom_hist read, exec;
	uint64_t errors;
};
extern const double prom_probe_bounds[];
extern const size_t prom_probe_nbounds;

/* The traced latencies of one whole disk since start (--trace). */
struct prom_trace_disk {
	char device[DEV_NAME_MAX];
	unsigned major, minor;
	struct prom_hist d2c[TRACE_DIRS], q2c[TRACE_DIRS];
};

/* Blocked tasks of one wait channel, its name as the label gives it (escaped). */
#define PROM_WCHAN_TOP 20
struct prom_wchan {
	char name[TASK_WCHAN_MAX];
	uint32_t count;
};
/* The blocked tasks grouped by wait channel, escaped first (two names that escape alike
 * are one group; an unknown one is "?"): the PROM_WCHAN_TOP largest groups into out,
 * most tasks first, then by name; every other blocked task (smaller groups, a channel
 * named "other", tasks not kept in t->blocked) counted in *other.  Returns how many
 * groups are in out; -1 on ENOMEM. */
int prom_wchan_top(const struct tasks_sample *t, struct prom_wchan out[PROM_WCHAN_TOP],
		   uint32_t *other);

struct prom_exporter {
	bool iostat;                 /* the ioscope_disk_* iostat gauges (--no-iostat: off) */
	struct prom_changes *changes;
	size_t nchanges, cap;
	struct prom_probe probe;
	struct prom_trace_disk *trace;
	size_t ntrace, trace_cap;
};

void prom_exporter_init(struct prom_exporter *x, bool iostat);
void prom_exporter_free(struct prom_exporter *x);
/* Counts the interval's events (v->events), adds the probe's and the tracer's samples
 * of v->snap to the histograms, and makes the counters of every shown device exist.
 * prev: the snapshot before v->snap (for removed mounts), may be NULL.
 * -1 on ENOMEM. */
int prom_exporter_update(struct prom_exporter *x, const struct interval_view *v,
			 const struct snapshot *prev);
/* The exposition of the latest update into b (emptied first).  -1 on ENOMEM. */
int prom_render(const struct prom_exporter *x, const struct interval_view *v, enum prom_format f,
		struct prom_buf *b);

/* The metric families, for the docs test and the unit tests. */
enum prom_type { PROM_GAUGE, PROM_COUNTER, PROM_INFO, PROM_HISTOGRAM };
struct prom_ctx;
struct prom_family {
	const char *name;          /* as scraped: counters end in _total, infos in _info */
	enum prom_type type;
	const char *help;
	void (*emit)(struct prom_ctx *c);
	const struct device_figure *figure;  /* a per-device figure's gauge (--no-iostat: off) */
	double scale;              /* to base units (kB -> bytes, ms -> s, % -> 0-1) */
	size_t which;              /* which figure a shared writer writes (prom_writer.h) */
};
extern const struct prom_family prom_families[];
extern const size_t prom_families_count;
/* The family of a row of the device figure table (include/figures.h), into *out; false
 * when the row names none.  These follow prom_families[], in the figure table's order. */
struct device_figure;
bool prom_figure_family(const struct device_figure *fig, struct prom_family *out);

/* Which format an HTTP Accept header asks for (NULL: none given): OpenMetrics 1.0.0
 * only when its q is at least text/plain's, as the scraper ranks them. */
enum prom_format prom_negotiate(const char *accept);

#endif
