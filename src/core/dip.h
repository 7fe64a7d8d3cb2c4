/* dip.h - the dip explanation (issue 10, 24): when a watched device's throughput falls
 * below half its median over the previous 10 s for two samples or more while it still
 * has work of its own (requests in flight, blocked tasks attributed to it), an event of
 * kind `dip` whose reasons name first a change or mark on the device made in the 10 s
 * before, then rank the signals of that device that moved with it.
 *
 * One place for every view: the session runs the detector on live samples and logs
 * the event when it is made; a replay hands the logged one back and the session never
 * computes a second (docs/metrics.md, "Dips").
 */
#ifndef IOSCOPE_DIP_H
#define IOSCOPE_DIP_H

#include <stdbool.h>
#include <stddef.h>

#include "events.h"
#include "rates.h"
#include "selection.h"
#include "snapshot.h"
#include "why.h"

#define DIP_WINDOW_S 10.0      /* the median is over this many seconds before */
#define DIP_MIN_SAMPLES 2      /* consecutive samples below half the median */
#define DIP_AUTO_UTIL 5.0      /* none named: whole disks busier than this, % */
#define DIP_RING 128           /* samples kept per device (10 s at 0.08 s and slower) */
#define DIP_REASONS_MAX 4      /* reasons listed, best first */
#define DIP_COMMIT_RUNNING_S 0.5  /* a journal commit running this long is work and a reason */
#define DIP_CAUSES_KEPT 32     /* changes and marks remembered (those of the window count) */
#define DIP_PENDING_KEPT 16    /* changes announced, remembered until they are made */

/* What one interval shows about one device (and the system), for now and for "was". */
struct dip_signals {
	double kBs, util;
	double await;                  /* ms, reads and writes together; have_await: any done */
	bool have_await;
	double commit_ms;              /* largest journal commit time of its filesystems */
	double log_forces, log_sleeps; /* xfs: log forces/s, forces that slept + log-space sleeps/s */
	double log_used_pct;
	double psi_some;               /* PSI io some avg10 */
	double blocked;                /* tasks in D attributed to the device, -1: not read */
	bool have_commit, have_log, have_log_used;
};

/* A change or mark the detector was told of (dip_detector_note): a dip that starts in the
 * DIP_WINDOW_S seconds after it, on its device, names it first. */
struct dip_cause {
	double t;                       /* monotonic seconds: made, or announced as about to be */
	char device[DEV_NAME_MAX];      /* "": every device (a user mark, a watched command) */
	char label[128];                /* "nr_requests 256→4", "mark \"backup\"" */
	bool setting;                   /* a setting's change: not a mark, a mount or a run */
};

/* What the reason providers look at: the device, its figures now and before. */
struct dip_context {
	const char *device;
	const struct snapshot *snap;
	const struct device_rates *dev;
	const struct why_rates *why;
	const struct dip_signals *now, *was;    /* was: medians of the window before */
	double baseline;                /* the median kB/s the dip fell from */
	double start;                   /* monotonic seconds of the dip's first low sample */
	const bool *mine;               /* per kept blocked task: attributed to the device */
	uint32_t nmine;
	const struct dip_cause *causes; /* the window's, newest first */
	size_t ncauses;
	/* settings changed after the first low sample, by the time the dip is reported
	 * (oldest first): named as such, never as its cause */
	const struct dip_cause *during;
	size_t nduring;
};

struct dip_reason {
	double score;                   /* ranks the reasons: how far the signal moved */
	char text[200];
};

/* A source of reasons: one row per signal (changes, blocked tasks, journals, dirty, PSI). */
struct dip_provider {
	const char *name;
	/* the device still has work by this signal (NULL: never says so) */
	bool (*has_work)(const struct dip_context *c);
	/* up to max reasons into out; how many */
	size_t (*reasons)(const struct dip_context *c, struct dip_reason *out, size_t max);
};
extern const struct dip_provider dip_providers[];
extern const size_t dip_providers_count;

struct dip_detector;
struct dip_detector *dip_detector_new(void);
void dip_detector_free(struct dip_detector *d);
/* Forget every device (a replay's seek). */
void dip_detector_clear(struct dip_detector *d);
/* A change or mark of the session (any kind; those that can cause a dip are kept): at is
 * the snapshot it came with, to find the device of a mount event. */
void dip_detector_note(struct dip_detector *d, const struct snapshot *at, const struct event *ev);
/* A change of ioscope's announced as about to be made (session_expect_event), at the
 * snapshot it came with.  What a write does to a disk can begin before the write returns
 * and its event is stamped (a queue frozen and drained by an nr_requests or scheduler
 * switch under load), and so can the dip it causes: a dip that starts while the change is
 * being made names it so ("nr_requests →4 (being made)"), and its event, when it comes,
 * counts from the announcement. */
void dip_detector_note_pending(struct dip_detector *d, const struct snapshot *at,
			       const struct event *pending);
/* The announced change is not coming (its job ended without it): no cause. */
void dip_detector_withdraw(struct dip_detector *d, const struct event *pending);

struct dip_input {
	const struct snapshot *snap;        /* the later snapshot */
	const struct rates *rates;
	const struct why_rates *why;        /* may be NULL */
	const struct selection *sel;        /* the named devices; none: busy whole disks */
};
/* One interval: the dips it completes, appended to out (stamped with snap's times).
 * Returns how many, -1 on ENOMEM. */
int dip_detector_step(struct dip_detector *d, const struct dip_input *in, struct event_list *out);

/* "212" / "3.5": the MB/s of a dip's old and new values. */
void dip_format_mbs(double kBs, char *buf, size_t len);

#endif
