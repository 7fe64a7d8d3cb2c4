/* history.h - what the console remembers: recent figures and events, in a ring.
 *
 * One slot per sample, addressed by its absolute sample number n (0 for the first
 * rates appended, counting on forever).  The ring holds the last `capacity` slots,
 * whatever the screen width, so graphs can scroll back and reports can reuse it.
 *
 * Memory is what matters here: per device only the handful of graphable figures
 * are kept, as floats, and a device's ring is allocated only once it has shown
 * any activity (an idle loop device costs a name).  Rings grow with the samples
 * taken, up to the capacity, so a short session stays small.
 */
#ifndef IOSCOPE_HISTORY_H
#define IOSCOPE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "events.h"
#include "rates.h"

/* Per-device figures kept (units as stored). */
enum history_metric {
	HM_READ_MBS,     /* rkB/s / 1024 */
	HM_WRITE_MBS,    /* wkB/s / 1024 */
	HM_READ_IOPS,    /* r/s */
	HM_WRITE_IOPS,   /* w/s */
	HM_READ_AWAIT,   /* r_await, ms */
	HM_WRITE_AWAIT,  /* w_await, ms */
	HM_UTIL,         /* %util */
	HM_FLUSH_S,      /* f/s */
	HM_DISCARD_S,    /* d/s */
	HM_IN_FLIGHT,    /* in-flight gauge */
	/* from history_add_signals(): NaN where the sample did not have them */
	HM_SEEKS_S,      /* --trace: seeks/s (whole disks) */
	HM_JOURNAL_COMMIT_MS,  /* its filesystems' journals: ext4/btrfs commit ms (the longest) */
	HM_JOURNAL_FORCES_S,   /* xfs log forces/s (summed) */
	HM_COUNT
};

/* System figures kept. */
enum history_sys_metric {
	HSM_DIRTY_MB,     /* meminfo Dirty, MiB */
	HSM_WRITEBACK_MB, /* meminfo Writeback, MiB */
	HSM_BI,           /* vmstat bi */
	HSM_BO,           /* vmstat bo */
	HSM_WA,           /* vmstat wa, % */
	HSM_PSI_SOME,     /* io some avg10, NaN when the kernel has no PSI */
	HSM_PSI_FULL,
	HSM_PROBE_P50_MS, /* the probe's reads (--probe): median, ms; NaN without */
	HSM_PROBE_MAX_MS, /* and the slowest */
	/* from history_add_signals(): NaN where the sample did not have them */
	HSM_DIRTY_BG_MB,       /* nr_dirty_background_threshold, MiB */
	HSM_DIRTY_FREERUN_MB,  /* (threshold + background) / 2, MiB */
	HSM_DIRTY_LIMIT_MB,    /* nr_dirty_threshold, MiB */
	HSM_D_TASKS,      /* tasks in D state (--tasks or the why pane) */
	HSM_TRACED,       /* 1: the sample was traced (--trace) */
	HSM_COUNT
};

/* An event as the history keeps it: the sample it belongs to and its texts. */
struct history_mark {
	uint64_t n;              /* sample number it is drawn at */
	uint64_t number;         /* the event's number (struct event), 0: none */
	struct timespec wall;
	enum event_kind kind;
	const char *object, *key, *old_value, *new_value, *by;
	const char *result;      /* "" for most; a matrix step's progress (matrix_status.h) */
	const char *label;       /* event_label(): "sched mq-deadline→bfq" */
	const char *resets;      /* event_resets_text() of a switch: "nr_requests 64→256, ..." */
	const char *scope;       /* the device a run, matrix step or mark is for ("" all) */
	bool refused;            /* a change ioscope made that was refused (event_refused):
				    its label says what was tried and why not */
	bool both_columns;       /* a remount that changed the mount flags and the fs options:
				    its label says both ("remount +ro -rw"), old and new one */
};

struct history;

#define HISTORY_MIN_CAPACITY 3600u
#define HISTORY_MAX_CAPACITY 1000000u
/* The memory bound of a capacity chosen for a time span: this many bytes for the ring
 * of a machine with HISTORY_BUSY_DEVICES devices doing I/O. */
#define HISTORY_BUDGET_BYTES (64u << 20)
#define HISTORY_BUSY_DEVICES 4u

/* capacity in samples, clamped to HISTORY_MIN/MAX_CAPACITY.  NULL on ENOMEM. */
struct history *history_new(size_t capacity);
void history_free(struct history *h);
/* Samples to keep `seconds` of history at `interval`, no more than HISTORY_BUDGET_BYTES
 * allow, clamped like history_new. */
size_t history_capacity_for(double seconds, double interval);
/* A new capacity (the interval changed): the newest samples that fit are kept, and
 * every mark.  -1 on ENOMEM, the history unchanged. */
int history_resize(struct history *h, size_t capacity);
/* An empty history numbers its first sample n (a replay seeked to sample n). */
void history_start_at(struct history *h, uint64_t n);

/* Add one sample.  Devices absent from r read as missing (NaN) for it.  -1 ENOMEM. */
int history_append(struct history *h, const struct rates *r);
/* The newest sample's figures that rates do not carry: the dirty limits (why), the D tasks
 * (cur->tasks), seeks/s (cur->trace) and the journals of each device's filesystems (why).
 * Call right after history_append with the same sample.  -1 ENOMEM. */
struct why_rates;
int history_add_signals(struct history *h, const struct snapshot *cur, const struct why_rates *why);
/* Keep an event, drawn at the newest sample (or the first to come before any).  -1 ENOMEM. */
int history_add_event(struct history *h, const struct event *ev);
/* Keep an event of sample n, older than every mark held after it (a replay's marks
 * before the samples it re-read).  -1 ENOMEM. */
int history_add_event_at(struct history *h, const struct event *ev, uint64_t n);

size_t history_capacity(const struct history *h);
/* How often the rings were reallocated: a handful (doubling up to the capacity), never
 * once per sample; a figure for the tests. */
uint64_t history_grows(const struct history *h);
/* One past the newest sample's n: the samples appended so far (history_start_at: plus its n). */
uint64_t history_count(const struct history *h);
uint64_t history_oldest(const struct history *h);  /* first n still held */
bool history_has(const struct history *h, uint64_t n);
/* Monotonic time of sample n (seconds), NaN when it is not held. */
double history_mono(const struct history *h, uint64_t n);

int history_device_find(const struct history *h, const char *name);  /* -1: never seen */
/* NaN when there is no figure (device absent, no rate that interval, n not held). */
float history_value(const struct history *h, size_t dev, enum history_metric m, uint64_t n);
float history_sys_value(const struct history *h, enum history_sys_metric m, uint64_t n);

/* Events held, oldest first: also those older than the oldest sample (the marks panel
 * lists them), up to 100,000, the oldest dropped first. */
size_t history_mark_count(const struct history *h);
const struct history_mark *history_mark_get(const struct history *h, size_t i);
/* The number the console shows for mark i ("[3]" on the graphs and in the marks panel):
 * its event's number, the session's count of its events as its log has them (struct
 * event), the same live, in the log, a replay and a report, whatever the view shows; an
 * event without one (kept by a caller that numbers none): its place among the marks the
 * history held, from 1. */
uint64_t history_mark_number(const struct history *h, size_t i);

/* Bytes of memory the history holds (for docs/performance.md and tests). */
size_t history_memory(const struct history *h);

#endif
