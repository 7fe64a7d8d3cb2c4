/* rates.h - figures derived from two snapshots, with iostat -x and vmstat definitions. */
#ifndef IOSCOPE_RATES_H
#define IOSCOPE_RATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* Why a device present in the later snapshot has, or has no, figures. */
enum counters_break {
	COUNTERS_CONTINUE,     /* figures (or the interval itself is not positive) */
	COUNTERS_NEW,          /* not in the earlier snapshot */
	COUNTERS_WENT_BACK,    /* a counter went back, not by a 32-bit wrap: cleared */
	COUNTERS_RECREATED,    /* deleted and created again under the same name */
};

/* Per device, exactly sysstat 12.6 iostat -x (see docs/metrics.md).  What the outputs
 * show of it, and how, is the figure table (include/figures.h). */
struct device_rates {
	char name[DEV_NAME_MAX];
	bool valid;          /* false: no rate this interval (new, reset, zero interval) */
	enum counters_break why;
	bool is_partition;
	bool have_discard, have_flush;
	double r_s, rkB_s, rrqm_s, rrqm_pct, r_await, rareq_sz;
	double w_s, wkB_s, wrqm_s, wrqm_pct, w_await, wareq_sz;
	double d_s, dkB_s, drqm_s, drqm_pct, d_await, dareq_sz;
	double f_s, f_await;
	double aqu_sz, util;
	uint64_t in_flight;  /* gauge from diskstats, valid even when !valid */
	char scheduler[32];
};

/* System, exactly procps-ng 4 vmstat (see docs/metrics.md). */
struct vm_rates {
	bool valid;
	double r, b;                      /* procs_running (minus ourselves), procs_blocked */
	double swpd, free, buff, cache;   /* kB gauges */
	double si, so, bi, bo, in, cs;    /* per second */
	double us, sy, id, wa, st;        /* percent */
	double dirty, writeback;          /* kB gauges */
	bool have_psi;
	double psi_some_avg10, psi_full_avg10;
	double psi_some_us, psi_full_us;  /* stall microseconds during the interval */
	/* the responsiveness probe's reads of the interval (--probe), ms: median and
	 * slowest (a read still waiting counts with its wait so far); NaN: none */
	double probe_p50_ms, probe_max_ms;
};

struct rates {
	double interval;          /* measured seconds between the two snapshots */
	struct timespec wall;     /* of the later snapshot */
	uint64_t seq;
	struct device_rates *devices;
	size_t ndevices;
	struct vm_rates vm;
};

struct vm_metric_def {
	const char *name;       /* vmstat column name */
	size_t offset;          /* of the double in struct vm_rates */
};
extern const struct vm_metric_def vm_metrics[];
extern const size_t vm_metrics_count;

void rates_init(struct rates *r);
void rates_free(struct rates *r);
/* Fill *out from prev -> cur; devices follow cur's order.  -1 on ENOMEM. */
int rates_compute(struct rates *out, const struct snapshot *prev, const struct snapshot *cur);

/* The interval is a real one: not zero, not negative (a clock that went back). */
static inline bool rates_have_interval(const struct rates *r)
{
	return r->interval > 0;
}

/* Walking cur's devices in order, whether each one's counters continue from
 * prev.  A device re-created under the same name is told by a counter that went
 * back, by its line having moved after devices that came after it in prev
 * (the kernel lists a new disk last), or by a new `instance` from the source. */
struct counters_walk {
	size_t max_prev;       /* highest prev index of the devices walked so far */
	bool any;
};
void counters_walk_init(struct counters_walk *w);
/* For cur's device at index (call in index order); *prevd gets prev's device of
 * that name, or NULL. */
enum counters_break counters_walk_next(struct counters_walk *w, const struct snapshot *prev,
				       size_t index, const struct device *cur,
				       const struct device **prevd);
/* "counters went back", "re-created"; "" for the others. */
const char *counters_break_reason(enum counters_break b);

/* The increase of a kernel counter, tolerant of 32-bit wrap.  Returns false when
 * the counter went backwards in a way that is not a wrap (device re-created). */
bool counter_delta(uint64_t prev, uint64_t cur, uint64_t *delta);

#endif
