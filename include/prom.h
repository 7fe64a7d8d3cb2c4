/* prom.h - Prometheus / OpenMetrics exposition of what ioscope has and node_exporter
 * has not (docs/fleet.md).
 *
 * Every metric family is one row of one table (prom_families[]): its name, type, help
 * and the function that writes its samples.  The writer, `--help`'s promise and the
 * table in docs/fleet.md all follow that table.  The exporter keeps only what a
 * Prometheus counter needs across intervals: the changes seen per device, kind and
 * who made them, and when each kind last changed.
 */
#ifndef IOSCOPE_PROM_H
#define IOSCOPE_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "output.h"

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

struct prom_exporter {
	bool iostat;                 /* the ioscope_disk_* iostat gauges (--no-iostat: off) */
	struct prom_changes *changes;
	size_t nchanges, cap;
};

void prom_exporter_init(struct prom_exporter *x, bool iostat);
void prom_exporter_free(struct prom_exporter *x);
/* Counts the interval's events (v->events) and makes the counters of every shown
 * device exist.  prev: the snapshot before v->snap (for removed mounts), may be NULL.
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
	const char *iostat_key;    /* iostat gauges: the batch JSON key (switchable off) */
	double scale;              /* iostat gauges: to base units (kB -> bytes, ms -> s, % -> 0-1) */
};
extern const struct prom_family prom_families[];
extern const size_t prom_families_count;

/* Which format an HTTP Accept header asks for (NULL: none given): OpenMetrics 1.0.0
 * only when its q is at least text/plain's, as the scraper ranks them. */
enum prom_format prom_negotiate(const char *accept);

#endif
