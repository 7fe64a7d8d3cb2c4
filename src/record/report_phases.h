/* report_phases.h - a report's phases (docs/reports.md, "Phases"): cut by setting
 * changes and by user and run marks, each beginning at its mark; per phase and
 * reported device the figures a comparison needs.  Shared by the text report and
 * `ioscope compare`.
 */
#ifndef IOSCOPE_REPORT_PHASES_H
#define IOSCOPE_REPORT_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "report.h"
#include "trace.h"

#define PHASE_BUSY_UTIL 5.0    /* %util above which an interval counts as busy */

/* One reported device over one phase. */
struct phase_device {
	double dt, busy_dt;            /* seconds of intervals with figures / busy ones */
	double active_dt;              /* seconds from the first to the last interval with I/O */
	double idle_since_active;      /* seconds of idle intervals since the last with I/O */
	double longest_dt;             /* the longest interval: how far one's placement moves */
	double rkb, wkb, ios, flushes, util_s;
	double edge_rkb, edge_wkb;     /* in the interval left out at its opening mark */
	double busy_rkb, busy_wkb, busy_ios;
	double rpeak, wpeak, iops_peak;
	bool have_flush;
	double *awaits;                /* per interval with requests: their mean await, ms */
	size_t nawaits, awaits_cap;
	char *state;                   /* settings at the phase's first interval: "k=v\n"... */
	/* the eBPF view (--trace) where the log has it: the phase's histograms summed */
	double trace_dt;
	uint64_t d2c[TRACE_SIZE_DIRS][TRACE_LAT_BUCKETS], q2c[TRACE_SIZE_DIRS][TRACE_LAT_BUCKETS];
	uint64_t seeks;
};

enum phase_left_out { LEFT_OUT_NONE, LEFT_OUT_OBSERVED, LEFT_OUT_MARK };

struct phase {
	struct timespec from, to;      /* its opening mark (the report's start) .. the next */
	size_t first, last;            /* its intervals (by end sample); first > last: none */
	size_t left_out;               /* the interval straddling its opening mark, 0: none */
	enum phase_left_out why_left_out;
	size_t *opens, nopens;         /* the marks that open it (rep->events indices) */
	size_t *listed, nlisted;       /* the other events within it */
	bool is_short;                 /* shorter than --min-phase: not compared */
	struct phase_device *dev;      /* one per reported device */
	struct probe_samples *probe;   /* the probe's samples in it; NULL: none */
};

/* One reported device over the whole report: what the phases hold plus what moved in
 * the intervals left out at their marks is what the device's counters moved. */
struct phase_total {
	double rkb, wkb;
	double between_rkb, between_wkb;
};

struct phase_plan {
	struct phase *phases;
	size_t n;
	struct phase_total *totals;    /* one per reported device */
	double min_phase;              /* seconds */
	size_t current;                /* the phase report_phases_add() fills */
};

/* True for the kinds that cut phases: setting changes, user marks, runs. */
bool report_event_cuts(const struct event *ev);

/* The phases of rep (its events chosen); figures are added by report_phases_add(). */
int report_phases_plan(struct report *rep, struct phase_plan *plan, struct error *err);
/* Adds one interval (in order) to its phase; -1 on ENOMEM. */
int report_phases_add(struct phase_plan *plan, const struct report *rep,
		      const struct report_interval *iv);
/* Plans and walks the whole report. */
int report_phases_build(struct report *rep, struct phase_plan *plan, struct error *err);
void report_phases_free(struct phase_plan *plan, const struct report *rep);

/* kB device k moved in the intervals left out at phase i's edges: the one its opening
 * mark falls in and the one the next phase's mark falls in. */
double report_phase_edge_kb(const struct phase_plan *plan, size_t i, size_t k);
/* Whether most of phase i's I/O on device k is in its left-out edges, not in it. */
bool report_phase_mostly_edges(const struct phase_plan *plan, size_t i, size_t k);

/* --min-phase's default: 10 s or 5 intervals, whichever is longer. */
double report_min_phase_default(const struct report *rep);
/* p-th percentile (nearest rank) of v[0..n) (sorted in place); NAN when n is 0. */
double report_percentile(double *v, size_t n, double p);

/* "sched mq-deadline→bfq, loop.dio 0→1": the settings whose values differ between two
 * setting states (phase_device.state; "-": absent), "" when none; malloc'ed, NULL on
 * ENOMEM. */
char *report_state_difference(const char *a, const char *b);
/* MiB/s over the active span: from the first interval with I/O to the last. */
double report_active_mbps(const struct phase_device *s);
/* The range a rate over t seconds of whole intervals can have when one interval more or
 * less of its span falls at its edges (a burst straddling a sample): [lo, hi]. */
void report_rate_range(double amount, double t, double one_interval, double *lo, double *hi);

/* The comparison table: one row per distinct setting state of each reported device. */
void report_comparison(const struct report *rep, const struct phase_plan *plan, FILE *out);

#endif
