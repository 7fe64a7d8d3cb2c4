/* dip.c - the dip detector and its reason providers (dip.h).
 *
 * Per tracked device a ring of the last samples' signals.  A sample below half the
 * median throughput of the DIP_WINDOW_S seconds before starts a streak (the median
 * and the other signals' medians are kept as "was"); DIP_MIN_SAMPLES such samples in
 * a row, each while the device still has work of its own, make one event.  The streak
 * ends when throughput is back above half the median; before its event, also at a sample
 * without work, and after it, after DIP_WINDOW_S without.  Only what is the device's counts:
 * its requests in flight and the blocked tasks attributed to it (attribution.h); a task
 * stuck on another disk is neither work nor a reason.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "dip.h"
#include "expect.h"
#include "grow.h"
#include "tasks.h"

/* Below this median a device is idle: no dip to explain. */
#define DIP_MIN_KBS 1024.0
/* The score of what holds up everything else the device shows (a frozen backing
 * filesystem): after the changes made before the dip (1000), before every signal (< 20). */
#define DIP_ROOT_CAUSE_SCORE 500.0
/* Spans of time are monotonic seconds as doubles, each half-open: the window a sample's
 * medians are over is [now - DIP_WINDOW_S, now) (the samples before it), the changes a dip
 * names as its causes are those of (start - DIP_WINDOW_S, start], and the ones made during
 * it those of (start, now].  The bound a span includes takes this much slack, as a time
 * within it of a sample's is that sample's moment: so a change stamped with the first
 * low sample's time is a cause, not one made during the dip. */
#define DIP_SAME_MOMENT_S 1e-6
/* The reasons the providers may give one dip, ranked before the best DIP_REASONS_MAX are
 * kept; the last place is kept for the changes made during it (during_reason). */
#define DIP_REASONS_SCRATCH 16

struct dip_entry {
	double t;
	struct dip_signals s;
};

struct dip_track {
	char name[DEV_NAME_MAX];
	size_t head, n;               /* head: where the next entry goes */
	int low;                      /* samples of the streak so far */
	bool reported;                /* the streak has its event */
	double last_work;             /* of a reported streak: its latest sample with work */
	double baseline;              /* median kB/s when the streak began */
	double start;                 /* the first low sample with work (monotonic s) */
	struct dip_signals was;
	bool seen;                    /* in the latest step */
	/* Last, and not cleared: an entry is read only once written (n), so a new track
	 * touches its first page, not all four (a page's first touch is a fault, ~7 µs on a
	 * VM: a one-shot run of 30 disks paid a hundred). */
	struct dip_entry ring[DIP_RING];
};

/* A change announced as about to be made: its time, what its event is matched by, and
 * what a dip names while it is still being made. */
struct dip_pending {
	double t;
	enum event_kind kind;
	bool open;                    /* neither made nor withdrawn */
	char key[SETTING_KEY_MAX];
	char object[256];             /* a longer one (a mount point) counts from its event */
	char device[DEV_NAME_MAX];
	char label[128];              /* "nr_requests →4 (being made)" */
};

struct dip_detector {
	struct dip_track **tracks;    /* each allocated apart: a new one copies no ring */
	size_t n, cap;
	struct dip_cause causes[DIP_CAUSES_KEPT];   /* a ring, the newest at head - 1 */
	size_t cause_head, ncauses;
	struct dip_pending pending[DIP_PENDING_KEPT];   /* a ring too */
	size_t pending_head, npending;
};

struct dip_detector *dip_detector_new(void)
{
	return calloc(1, sizeof(struct dip_detector));
}

void dip_detector_free(struct dip_detector *d)
{
	if (!d)
		return;
	dip_detector_clear(d);
	free(d->tracks);
	free(d);
}

void dip_detector_clear(struct dip_detector *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->tracks[i]);
	d->n = 0;
	d->ncauses = 0;
	d->npending = 0;
}

/* Changes of a device or its filesystems, and marks that concern every device. */
static bool can_cause(enum event_kind k)
{
	switch (k) {
	case EVENT_SCHEDULER: case EVENT_TUNABLE: case EVENT_WRITE_CACHE:
	case EVENT_MOUNT_OPTIONS: case EVENT_MOUNT_ADDED: case EVENT_MOUNT_REMOVED:
	case EVENT_USER_MARK: case EVENT_RUN:
		return true;
	default:
		return false;
	}
}

/* Changes a dip can have begun before, and go on because of: those of a setting. */
static bool is_setting(enum event_kind k)
{
	return k == EVENT_SCHEDULER || k == EVENT_TUNABLE || k == EVENT_WRITE_CACHE ||
	       k == EVENT_MOUNT_OPTIONS;
}

/* What a change being made is called: its new value only, the old one is in its event. */
static void pending_label(const struct event *ev, char *buf, size_t len)
{
	if (ev->kind == EVENT_SCHEDULER)
		snprintf(buf, len, "sched →%s (being made)", ev->new_value);
	else if (ev->kind == EVENT_MOUNT_OPTIONS)
		snprintf(buf, len, "remount (being made)");
	else
		snprintf(buf, len, "%s →%s (being made)", ev->key, ev->new_value);
}

void dip_detector_note_pending(struct dip_detector *d, const struct snapshot *at,
			       const struct event *pending)
{
	if (!can_cause(pending->kind) || strlen(pending->object) >= sizeof d->pending[0].object)
		return;
	struct dip_pending *p = &d->pending[d->pending_head];
	d->pending_head = (d->pending_head + 1) % DIP_PENDING_KEPT;
	if (d->npending < DIP_PENDING_KEPT)
		d->npending++;
	*p = (struct dip_pending){ .t = timespec_seconds(&pending->mono), .kind = pending->kind,
				   .open = true };
	snprintf(p->key, sizeof p->key, "%s", pending->key);
	snprintf(p->object, sizeof p->object, "%s", pending->object);
	selection_event_device(at, NULL, pending, p->device, sizeof p->device);
	pending_label(pending, p->label, sizeof p->label);
}

static struct dip_pending *pending_at(struct dip_detector *d, size_t i)
{
	return &d->pending[(d->pending_head + DIP_PENDING_KEPT - 1 - i) % DIP_PENDING_KEPT];
}

void dip_detector_withdraw(struct dip_detector *d, const struct event *pending)
{
	double t = timespec_seconds(&pending->mono);
	for (size_t i = 0; i < d->npending; i++) {
		struct dip_pending *p = pending_at(d, i);
		if (p->kind == pending->kind && p->t == t && strcmp(p->key, pending->key) == 0 &&
		    strcmp(p->object, pending->object) == 0)
			p->open = false;
	}
}

/* Whether p announced ev, and is still open. */
static bool announced(const struct dip_pending *p, const struct event *ev)
{
	return p->open && event_answers(ev, p->kind, p->object, p->key);
}

/* When the change of ev began: its announcement, the latest still open and at most
 * EXPECT_WAIT_SECONDS before (as long as a sample holds what it sees of it), else ev's own
 * time. */
static double begun_at(struct dip_detector *d, const struct event *ev)
{
	double t = timespec_seconds(&ev->mono);
	if (strcmp(ev->by, "ioscope") != 0)
		return t;
	for (size_t i = 0; i < d->npending; i++) {
		struct dip_pending *p = pending_at(d, i);
		if (announced(p, ev) && p->t <= t && t - p->t <= EXPECT_WAIT_SECONDS) {
			p->open = false;
			return p->t;
		}
	}
	return t;
}

void dip_detector_note(struct dip_detector *d, const struct snapshot *at, const struct event *ev)
{
	if (!can_cause(ev->kind))
		return;
	/* a refused change changed nothing: no cause, and its announcement is no change
	 * being made any more */
	if (event_refused(ev)) {
		begun_at(d, ev);
		return;
	}
	struct dip_cause *c = &d->causes[d->cause_head];
	d->cause_head = (d->cause_head + 1) % DIP_CAUSES_KEPT;
	if (d->ncauses < DIP_CAUSES_KEPT)
		d->ncauses++;
	memset(c, 0, sizeof *c);
	c->t = begun_at(d, ev);
	c->setting = is_setting(ev->kind);
	selection_event_device(at, NULL, ev, c->device, sizeof c->device);
	char label[sizeof c->label];
	event_label(ev, label, sizeof label);
	if (ev->kind == EVENT_USER_MARK)
		snprintf(c->label, sizeof c->label, "mark \"%.100s\"", label);
	else if (ev->kind == EVENT_RUN)
		snprintf(c->label, sizeof c->label, "run %s", label);
	else
		snprintf(c->label, sizeof c->label, "%s", label);
}

void dip_format_mbs(double kBs, char *buf, size_t len)
{
	double mbs = kBs / 1024.0;
	snprintf(buf, len, mbs >= 10 ? "%.0f" : "%.1f", mbs);
}

static void format_seconds(double s, char *buf, size_t len);

static void format_ms(double ms, char *buf, size_t len)
{
	if (ms >= 1000)
		snprintf(buf, len, "%.1f s", ms / 1000.0);
	else
		snprintf(buf, len, "%.0f ms", ms);
}

/* ---- reason providers ---- */

/* a moved up from b: how far, for ranking (b 0: a alone counts) */
static double rise(double now, double was)
{
	return was > 0 ? now / was : now > 0 ? 10 : 0;
}

static const char *journal_name(const struct dip_context *c)
{
	for (size_t i = 0; c->why && i < c->why->njournals; i++) {
		const struct journal_rates *j = &c->why->journals[i];
		const struct device *d = snapshot_find_device(c->snap, j->device);
		if (strcmp(j->device, c->device) == 0 || (d && strcmp(d->parent, c->device) == 0))
			return j->fs == JOURNAL_EXT4 ? "jbd2" : j->fs == JOURNAL_BTRFS ? "btrfs" : "xfs";
	}
	return "journal";
}

static bool on_device(const struct snapshot *snap, const char *jdev, const char *dev);

/* The journal of the device whose commit has been running longest, NULL: none for
 * DIP_COMMIT_RUNNING_S or more. */
static const struct journal_rates *commit_stuck(const struct dip_context *c)
{
	const struct journal_rates *best = NULL;
	for (size_t i = 0; c->why && i < c->why->njournals; i++) {
		const struct journal_rates *j = &c->why->journals[i];
		if (!(j->present & (1u << JF_COMMIT_RUNNING_S)) ||
		    j->f[JF_COMMIT_RUNNING_S] < DIP_COMMIT_RUNNING_S ||
		    !on_device(c->snap, j->device, c->device))
			continue;
		if (!best || j->f[JF_COMMIT_RUNNING_S] > best->f[JF_COMMIT_RUNNING_S])
			best = j;
	}
	return best;
}

static bool journal_has_work(const struct dip_context *c)
{
	return commit_stuck(c) != NULL;
}

static size_t journal_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	const struct dip_signals *n = c->now, *w = c->was;
	size_t k = 0;
	char a[32], b[32];
	const struct journal_rates *stuck = commit_stuck(c);
	if (k < max && stuck) {
		/* the commit the writers wait for: before their groups (tasks_reasons' 5) */
		double s = stuck->f[JF_COMMIT_RUNNING_S];
		format_seconds(s, a, sizeof a);
		snprintf(out[k].text, sizeof out[k].text, "journal commit running for %s on %s (%s)",
			 a, stuck->device, stuck->fs == JOURNAL_EXT4 ? "jbd2" : "xfs log");
		out[k++].score = 5.5 + fmin(s, 10) / 4;
	}
	if (k < max && n->have_commit && n->commit_ms >= 20 &&
	    (!w->have_commit || n->commit_ms > 1.5 * w->commit_ms)) {
		format_ms(n->commit_ms, a, sizeof a);
		if (w->have_commit) {
			format_ms(w->commit_ms, b, sizeof b);
			snprintf(out[k].text, sizeof out[k].text, "%s commit %s (was %s)",
				 journal_name(c), a, b);
		} else {
			snprintf(out[k].text, sizeof out[k].text, "%s commit %s", journal_name(c), a);
		}
		out[k++].score = 2 * rise(n->commit_ms, w->have_commit ? w->commit_ms : 0);
	}
	if (k < max && n->have_log && n->log_sleeps > 0 && n->log_sleeps > 2 * w->log_sleeps) {
		snprintf(out[k].text, sizeof out[k].text,
			 "xfs log: %.0f sleeps/s for log space or forces (was %.0f/s)", n->log_sleeps,
			 w->log_sleeps);
		out[k++].score = 2 * rise(n->log_sleeps, w->log_sleeps);
	}
	if (k < max && n->have_log && n->log_forces >= 10 && n->log_forces > 2 * w->log_forces) {
		snprintf(out[k].text, sizeof out[k].text, "xfs log forces %.0f/s (was %.0f/s)",
			 n->log_forces, w->log_forces);
		out[k++].score = rise(n->log_forces, w->log_forces);
	}
	if (k < max && n->have_log_used && n->log_used_pct >= 75) {
		snprintf(out[k].text, sizeof out[k].text, "xfs log %.0f%% full", n->log_used_pct);
		out[k++].score = n->log_used_pct / 25;
	}
	return k;
}

static size_t dirty_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	const struct why_rates *y = c->why;
	if (!max || !y || !y->have_dirty || !(y->threshold_kb > 0))
		return 0;
	double dirty = y->dirty_kb + y->writeback_kb;
	if (dirty >= 0.95 * y->threshold_kb)
		snprintf(out->text, sizeof out->text, "dirty at limit (%.0f of %.0f MB)", dirty / 1024,
			 y->threshold_kb / 1024);
	else if (y->throttled)
		snprintf(out->text, sizeof out->text, "writers throttled (dirty %.0f MB above "
			 "freerun %.0f MB)", dirty / 1024, y->freerun_kb / 1024);
	else if (dirty > y->freerun_kb)
		snprintf(out->text, sizeof out->text, "dirty %.0f MB above freerun %.0f MB",
			 dirty / 1024, y->freerun_kb / 1024);
	else
		return 0;
	out->score = 3 * dirty / y->threshold_kb;
	return 1;
}

/* Two significant digits below 10 ms: a loop device's 0.04 ms is not "0.0". */
static void format_await(double ms, char *buf, size_t len)
{
	snprintf(buf, len, ms >= 10 ? "%.0f" : ms >= 1 ? "%.1f" : "%.2f", ms);
}

/* "await 0.3→9.1 ms" (the window's median, then now), "await 9.1 ms" with none before. */
static void await_text(const struct dip_context *c, char *buf, size_t len)
{
	char now[32], was[32];
	buf[0] = '\0';
	if (!c->now->have_await)
		return;
	format_await(c->now->await, now, sizeof now);
	format_await(c->was->await, was, sizeof was);
	if (c->was->have_await)
		snprintf(buf, len, "await %s→%s ms", was, now);
	else
		snprintf(buf, len, "await %s ms", now);
}

/* The device worked in the interval, not only at its last instant: requests in flight at
 * the sample, or requests queued for at least a hundredth of the interval on average
 * (aqu-sz, from time_in_queue).  A writer held by its bdi's dirty limit sends write-back in
 * bursts that are over between two samples (in flight 0 at 14 samples of 14; aqu-sz
 * 0.12-0.41 under a 4 MiB limit, 0.02-0.05 under 1 MiB): that drop went unreported.  A
 * journal commit of an idle filesystem is ~0.003, a workload that ended 0 the interval
 * after. */
#define DIP_WORK_AQU 0.01

static bool queue_has_work(const struct dip_context *c)
{
	return c->dev->in_flight > 0 || c->dev->aqu_sz >= DIP_WORK_AQU;
}

/* "4 requests in flight (queue full: nr_requests 4), util 80%, await 0.3→9.1 ms" */
/* "requests queued 0.12 on average, none in flight at the sample, util 5%, await ...": the
 * queue's work of the interval when its instant shows none (a writer held by its bdi's
 * dirty limit), so that a dip whose only work is that still says what it saw. */
static size_t queue_interval_reason(const struct dip_context *c, struct dip_reason *out)
{
	const struct device_rates *d = c->dev;
	char await[64];
	await_text(c, await, sizeof await);
	snprintf(out->text, sizeof out->text,
		 "requests queued %.2f on average, none in flight at the sample, util %.0f%%%s%s",
		 d->aqu_sz, d->util, await[0] ? ", " : "", await);
	out->score = 0.5;
	return 1;
}

static size_t queue_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	const struct device_rates *d = c->dev;
	if (!max || !d->valid)
		return 0;
	if (d->in_flight == 0)
		return d->aqu_sz >= DIP_WORK_AQU ? queue_interval_reason(c, out) : 0;
	const struct device *dev = snapshot_find_device(c->snap, c->device);
	const char *nr = dev ? device_setting(dev, "nr_requests") : NULL;
	char full[64] = "", await[64];
	if (nr && strtoull(nr, NULL, 10) > 0 && d->in_flight >= strtoull(nr, NULL, 10))
		snprintf(full, sizeof full, " (queue full: nr_requests %s)", nr);
	await_text(c, await, sizeof await);
	snprintf(out->text, sizeof out->text, "%llu request%s in flight%s, util %.0f%%%s%s",
		 (unsigned long long)d->in_flight, d->in_flight == 1 ? "" : "s", full, d->util,
		 await[0] ? ", " : "", await);
	out->score = d->util >= 90 || full[0] ? 1.5 : 0.5;
	return 1;
}

/* ---- causes: a change or mark on the device in the window before the dip ---- */

static void format_seconds(double s, char *buf, size_t len)
{
	snprintf(buf, len, s < 0.95 ? "%.1f s" : "%.0f s", s < 0 ? 0 : s);
}

/* The causes of one moment (within a second before the latest, causes[from]) into text,
 * in the order they were made: "2 s after nr_requests 256→4, max_sectors_kb 512→4"; how
 * many there were. */
static size_t moment_text(const struct dip_context *c, size_t from, char *buf, size_t len)
{
	char ago[32];
	size_t k = from + 1;
	while (k < c->ncauses && c->causes[from].t - c->causes[k].t < 1.0)
		k++;
	format_seconds(c->start - c->causes[from].t, ago, sizeof ago);
	size_t used = (size_t)snprintf(buf, len, "%s after", ago);
	for (size_t i = k; i-- > from && used < len;)
		used += (size_t)snprintf(buf + used, len - used, "%s %s", i + 1 < k ? "," : "",
					 c->causes[i].label);
	return k - from;
}

/* First the latest moment with the figures before and after: "2 s after [change]: 118→12
 * MB/s, await 0.3→9.1 ms"; then an earlier one of the window, if any, by itself. */
static size_t cause_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	size_t k = 0, at = 0;
	while (k < max && k < 2 && at < c->ncauses) {
		char moment[160];
		size_t used = moment_text(c, at, moment, sizeof moment);
		if (k == 0) {
			char was[32], now[32], await[64];
			dip_format_mbs(c->baseline, was, sizeof was);
			dip_format_mbs(c->now->kBs, now, sizeof now);
			await_text(c, await, sizeof await);
			snprintf(out[k].text, sizeof out[k].text, "%s: %s→%s MB/s%s%s", moment, was, now,
				 await[0] ? ", " : "", await);
		} else {
			snprintf(out[k].text, sizeof out[k].text, "%s", moment);
		}
		out[k].score = 1000 - (double)k;   /* before every signal: the cause comes first */
		k++;
		at += used;
	}
	return k;
}

static size_t psi_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	const struct dip_signals *n = c->now, *w = c->was;
	if (!max || n->psi_some < 10 || n->psi_some <= 2 * w->psi_some)
		return 0;
	snprintf(out->text, sizeof out->text, "io pressure %.0f%% (was %.0f%%)", n->psi_some,
		 w->psi_some);
	out->score = rise(n->psi_some, w->psi_some) / 2;
	return 1;
}

static bool tasks_has_work(const struct dip_context *c)
{
	return c->nmine > 0;
}

/* "14 tasks in jbd2_log_wait_commit (tar, 13 kworker)": the groups by wait channel of
 * the tasks attributed to the device, most tasks first; first when more are blocked
 * than before. */
static size_t tasks_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	const struct tasks_sample *t = c->snap->tasks;
	if (!t || !c->nmine || !max)
		return 0;
	struct tasks_group g[3];
	size_t n = tasks_blocked_groups_of(t, tasks_mono_ns(&c->snap->mono), c->mine, g, 3);
	double score = c->nmine > c->was->blocked ? 5 : 1.5;
	size_t k = 0;
	for (; k < n && k < 3 && k < max; k++, score *= 0.8) {
		tasks_group_text(&g[k], out[k].text, sizeof out[k].text);
		out[k].score = score;
	}
	return k;
}

/* "memory cgroup /untar (v1): 380 of 384 MB used, dirty 40 MB, failcnt 4460/s; 2 blocked
 * (tar)": the memory cgroups of the device's blocked tasks that are at their limit or
 * reclaiming, before the blocked groups they explain. */
static size_t memcg_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	const struct tasks_sample *t = c->snap->tasks;
	size_t k = 0;
	for (size_t m = 0; t && c->why && m < c->why->nmemcgs && k < max; m++) {
		bool mine = false;
		for (size_t i = 0; i < t->nkept && !mine; i++)
			mine = c->mine[i] && t->blocked[i].memcg == m + 1;
		if (!mine || !memcg_pressed(&c->why->memcgs[m]))
			continue;
		memcg_rates_text(&c->why->memcgs[m], out[k].text, sizeof out[k].text);
		out[k++].score = 5.2;
	}
	return k;
}

/* ---- the root cause under a loop device: its backing filesystem frozen ---- */

/* A loop device's worker: a kernel thread whose stack or name says it (the work of a
 * kworker follows the '+' of its name, cut at 15 bytes: "kworker/u8:6+lo"). */
static bool loop_worker(const struct blocked_task *b)
{
	if (!b->kthread)
		return false;
	for (size_t i = 0; i < b->nframes && i < TASK_STACK_FRAMES; i++)
		if (strcmp(b->stack[i], "loop_process_work") == 0 ||
		    strncmp(b->stack[i], "lo_rw_aio", 9) == 0)
			return true;
	const char *plus = strchr(b->comm, '+');
	return plus && strncmp(plus + 1, "lo", 2) == 0;
}

/* The mount a loop device's backing file is on: of the mounts of its filesystem's device,
 * the one whose mount point is the longest prefix of the file's path. */
static const struct mount *backing_mount(const struct snapshot *s, const struct loop_backing *l)
{
	const struct mount *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; l->disk[0] && i < s->nmounts; i++) {
		const struct mount *m = &s->mounts[i];
		size_t n = strlen(m->mountpoint);
		bool under = strncmp(l->file, m->mountpoint, n) == 0 &&
			     (l->file[n] == '/' || (n == 1 && m->mountpoint[0] == '/'));
		if (strcmp(m->disk, l->disk) == 0 && under && n >= best_len) {
			best = m;
			best_len = n;
		}
	}
	return best;
}

/* "loop5's backing file is on a frozen filesystem (ext4 on loop4, /mnt/outer): its loop
 * worker waits, 2.0 s": first of the signals, for it is why the rest wait (a commit that
 * cannot end, writers behind it).  A loop worker of the device in percpu_rwsem_wait is in
 * sb_start_write of the backing file's filesystem: frozen. */
static size_t backing_reasons(const struct dip_context *c, struct dip_reason *out, size_t max)
{
	const struct tasks_sample *t = c->snap->tasks;
	const struct device *d = snapshot_find_device(c->snap, c->device);
	if (!t || !max || !d || !d->loop.present)
		return 0;
	double longest = -1;
	uint64_t now = tasks_mono_ns(&c->snap->mono);
	for (size_t i = 0; i < t->nkept; i++) {
		const struct blocked_task *b = &t->blocked[i];
		if (c->mine[i] && loop_worker(b) && strcmp(b->wchan, "percpu_rwsem_wait") == 0)
			longest = fmax(longest, now > b->since_ns ? (now - b->since_ns) / 1e9 : 0);
	}
	if (longest < 0)
		return 0;
	const struct mount *m = backing_mount(c->snap, &d->loop);
	if (m)
		snprintf(out->text, sizeof out->text,
			 "%.32s's backing file is on a frozen filesystem (%.16s on %.32s, %.80s): its "
			 "loop worker waits, %.1f s", c->device, m->fstype, m->disk, m->mountpoint, longest);
	else
		snprintf(out->text, sizeof out->text,
			 "%.32s's backing file is on a frozen filesystem (%.32s): its loop worker "
			 "waits, %.1f s", c->device, d->loop.disk[0] ? d->loop.disk : "?", longest);
	out->score = DIP_ROOT_CAUSE_SCORE;
	return 1;
}

/* One row per signal. */
const struct dip_provider dip_providers[] = {
	{ "cause", NULL, cause_reasons },
	{ "backing", NULL, backing_reasons },
	{ "tasks", tasks_has_work, tasks_reasons },
	{ "memcg", NULL, memcg_reasons },
	{ "journal", journal_has_work, journal_reasons },
	{ "dirty", NULL, dirty_reasons },
	{ "queue", queue_has_work, queue_reasons },
	{ "psi", NULL, psi_reasons },
};
const size_t dip_providers_count = sizeof dip_providers / sizeof dip_providers[0];

/* ---- signals ---- */

static bool on_device(const struct snapshot *snap, const char *jdev, const char *dev)
{
	const struct device *d = snapshot_find_device(snap, jdev);
	return strcmp(jdev, dev) == 0 || (d && d->is_partition && strcmp(d->parent, dev) == 0);
}

static void journal_signals(struct dip_signals *s, const struct why_rates *y,
			    const struct snapshot *snap, const char *dev)
{
	for (size_t i = 0; y && i < y->njournals; i++) {
		const struct journal_rates *j = &y->journals[i];
		if (!on_device(snap, j->device, dev))
			continue;
		if (j->present & (1u << JF_COMMIT_MS)) {
			s->commit_ms = s->have_commit ? fmax(s->commit_ms, j->f[JF_COMMIT_MS])
						      : j->f[JF_COMMIT_MS];
			s->have_commit = true;
		}
		if (j->present & (1u << JF_LOG_FORCES_S)) {
			s->have_log = true;
			s->log_forces += j->f[JF_LOG_FORCES_S];
			s->log_sleeps += j->f[JF_LOG_FORCE_SLEEPS_S] + j->f[JF_LOGSPACE_SLEEPS_S];
		}
		if (j->present & (1u << JF_LOG_USED_PCT)) {
			s->have_log_used = true;
			s->log_used_pct = fmax(s->log_used_pct, j->f[JF_LOG_USED_PCT]);
		}
	}
}

static void signals_of(struct dip_signals *s, const struct dip_input *in,
		       const struct device_rates *d, uint32_t nmine)
{
	memset(s, 0, sizeof *s);
	s->kBs = d->rkB_s + d->wkB_s;
	s->util = d->util;
	double ios = d->r_s + d->w_s;
	s->have_await = ios > 0;
	s->await = ios > 0 ? (d->r_await * d->r_s + d->w_await * d->w_s) / ios : 0;
	s->psi_some = in->rates->vm.have_psi ? in->rates->vm.psi_some_avg10 : 0;
	s->blocked = in->snap->tasks ? (double)nmine : -1;
	journal_signals(s, in->why, in->snap, d->name);
}

/* ---- the window ---- */

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, compare_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The entries of the DIP_WINDOW_S seconds before t, newest first into idx. */
static size_t window(const struct dip_track *t, double now, const struct dip_entry **out)
{
	size_t k = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct dip_entry *e = &t->ring[(t->head + DIP_RING - 1 - i) % DIP_RING];
		if (e->t < now - DIP_WINDOW_S - DIP_SAME_MOMENT_S)
			break;
		out[k++] = e;
	}
	return k;
}

#define FIELD_MEDIAN(field)                                                         \
	do {                                                                        \
		for (size_t i = 0; i < n; i++)                                      \
			v[i] = e[i]->s.field;                                       \
		was->field = median(v, n);                                          \
	} while (0)

/* The medians of the window: throughput and every signal's "was". */
static double window_medians(const struct dip_entry **e, size_t n, struct dip_signals *was)
{
	double v[DIP_RING];
	memset(was, 0, sizeof *was);
	FIELD_MEDIAN(kBs);
	FIELD_MEDIAN(util);
	FIELD_MEDIAN(log_forces);
	FIELD_MEDIAN(log_sleeps);
	FIELD_MEDIAN(psi_some);
	FIELD_MEDIAN(blocked);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (e[i]->s.have_commit)
			v[m++] = e[i]->s.commit_ms;
	was->have_commit = m > 0;
	was->commit_ms = m ? median(v, m) : 0;
	m = 0;
	for (size_t i = 0; i < n; i++)
		if (e[i]->s.have_await)
			v[m++] = e[i]->s.await;
	was->have_await = m > 0;
	was->await = m ? median(v, m) : 0;
	return was->kBs;
}

/* Below half the median needs below half the largest, and a median of DIP_MIN_KBS: one
 * pass that spares the sorting on every sample of a steady or idle device. */
static bool could_dip(const struct dip_entry **e, size_t n, double kBs)
{
	double max = 0;
	for (size_t i = 0; i < n; i++)
		max = fmax(max, e[i]->s.kBs);
	return max >= DIP_MIN_KBS && kBs < max / 2;
}

static double mean_util(const struct dip_entry **e, size_t n, double now_util)
{
	double sum = now_util;
	for (size_t i = 0; i < n; i++)
		sum += e[i]->s.util;
	return sum / (double)(n + 1);
}

static struct dip_track *track_of(struct dip_detector *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->tracks[i]->name, name) == 0)
			return d->tracks[i];
	if (grow_array(&d->tracks, &d->cap, d->n + 1, sizeof *d->tracks, 8, NULL) < 0)
		return NULL;
	struct dip_track *t = malloc(sizeof *t);
	if (!t)
		return NULL;
	memset(t, 0, offsetof(struct dip_track, ring));
	snprintf(t->name, sizeof t->name, "%s", name);
	d->tracks[d->n++] = t;
	return t;
}

static void push(struct dip_track *t, double now, const struct dip_signals *s)
{
	t->ring[t->head] = (struct dip_entry){ now, *s };
	t->head = (t->head + 1) % DIP_RING;
	if (t->n < DIP_RING)
		t->n++;
}

/* ---- the event ---- */

static int compare_reason(const void *a, const void *b)
{
	double x = ((const struct dip_reason *)a)->score, y = ((const struct dip_reason *)b)->score;
	return (x < y) - (x > y);
}

static bool has_work(const struct dip_context *c)
{
	for (size_t i = 0; i < dip_providers_count; i++)
		if (dip_providers[i].has_work && dip_providers[i].has_work(c))
			return true;
	return false;
}

/* Whether a change on `device` is one of the dip device's: the device, a filesystem on it
 * or on a partition of it, or a disk under it (a loop device's backing). */
static bool cause_on(const struct snapshot *s, const struct attribution *chain, const char *device)
{
	if (!device[0])
		return true;   /* a user mark, a watched command: every device's */
	for (size_t i = 0; i < chain->n; i++)
		if (snapshot_on_disk(s, device, chain->devices[i]))
			return true;
	return false;
}

/* t in the span (from, to], to taking DIP_SAME_MOMENT_S of slack. */
static bool in_span(double t, double from, double to)
{
	return t > from && t <= to + DIP_SAME_MOMENT_S;
}

/* The causes on the dip's device made (or announced) in (from, to], newest first. */
static size_t causes_between(const struct dip_detector *d, const struct snapshot *s,
			     const char *device, double from, double to, struct dip_cause *out)
{
	struct attribution chain;
	attribution_of_device(s, device, &chain);
	if (!chain.n)   /* a device the snapshot does not describe: itself */
		snprintf(chain.devices[chain.n++], sizeof chain.devices[0], "%s", device);
	size_t n = 0;
	for (size_t i = 0; i < d->ncauses; i++) {
		const struct dip_cause *c =
			&d->causes[(d->cause_head + DIP_CAUSES_KEPT - 1 - i) % DIP_CAUSES_KEPT];
		if (!in_span(c->t, from, to) || !cause_on(s, &chain, c->device))
			continue;
		out[n++] = *c;
	}
	/* and those still being made: the dip can be their doing before their writes return */
	for (size_t i = 0; i < d->npending && n < DIP_CAUSES_KEPT; i++) {
		const struct dip_pending *p = &d->pending[i];
		if (!p->open || !in_span(p->t, from, to) || !cause_on(s, &chain, p->device))
			continue;
		struct dip_cause *c = &out[n++];
		c->t = p->t;
		snprintf(c->device, sizeof c->device, "%s", p->device);
		snprintf(c->label, sizeof c->label, "%s", p->label);
		c->setting = is_setting(p->kind);
	}
	/* newest first by their times: announced changes can come in after a later one */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1].t < out[j].t; j--) {
			struct dip_cause tmp = out[j];
			out[j] = out[j - 1];
			out[j - 1] = tmp;
		}
	return n;
}

/* The settings changed since the dip's first low sample, oldest first: in (start, now],
 * what is start's moment (a cause, causes_between) left out. */
static size_t during_causes(const struct dip_detector *d, const struct snapshot *s,
			    const char *device, double start, double now, struct dip_cause *out)
{
	struct dip_cause newest[DIP_CAUSES_KEPT];
	size_t n = causes_between(d, s, device, start + DIP_SAME_MOMENT_S, now, newest), k = 0;
	for (size_t i = n; i-- > 0;)
		if (newest[i].setting)
			out[k++] = newest[i];
	return k;
}

/* "0.4 s into the dip, nr_requests 128→4, max_sectors_kb 1280→4": changes made after the
 * first low sample cannot have begun the dip, but it can go on because of them (or they
 * answer it); said beside the signals, second, never first. */
static bool during_reason(const struct dip_context *c, struct dip_reason *out)
{
	if (!c->nduring)
		return false;
	char into[32];
	format_seconds(c->during[0].t - c->start, into, sizeof into);
	size_t used = (size_t)snprintf(out->text, sizeof out->text, "%s into the dip", into);
	for (size_t i = 0; i < c->nduring && used < sizeof out->text; i++)
		used += (size_t)snprintf(out->text + used, sizeof out->text - used, ", %s",
					 c->during[i].label);
	return true;
}

static int make_event(const struct dip_context *c, struct event_list *out)
{
	struct dip_reason r[DIP_REASONS_SCRATCH];
	const size_t room = DIP_REASONS_SCRATCH - 1;   /* the last for during_reason's */
	size_t n = 0;
	for (size_t i = 0; i < dip_providers_count && n < room; i++)
		n += dip_providers[i].reasons(c, r + n, room - n);
	qsort(r, n, sizeof r[0], compare_reason);
	struct dip_reason during;
	if (during_reason(c, &during)) {
		size_t at = n ? 1 : 0;
		memmove(&r[at + 1], &r[at], (n - at) * sizeof r[0]);
		r[at] = during;
		n++;
	}
	struct event *ev = event_list_add(out);
	if (!ev)
		return -1;
	ev->kind = EVENT_DIP;
	ev->wall = c->snap->wall;
	ev->mono = c->snap->mono;
	snprintf(ev->key, sizeof ev->key, "throughput");
	snprintf(ev->by, sizeof ev->by, "observed");
	char was[EVENT_VALUE_MAX], now[EVENT_VALUE_MAX];
	dip_format_mbs(c->baseline, was, sizeof was);
	dip_format_mbs(c->now->kBs, now, sizeof now);
	/* out of memory: the step fails, as when the list cannot grow (the list frees ev) */
	if (event_set_object(ev, "%s", c->device) < 0 || event_set_old_value(ev, "%s", was) < 0 ||
	    event_set_new_value(ev, "%s", now) < 0)
		return -1;
	for (size_t i = 0; i < n && i < DIP_REASONS_MAX; i++)
		event_add_reason(ev, r[i].text);
	return 1;
}

static bool watched(const struct dip_input *in, const struct device_rates *d)
{
	if (selection_all(in->sel))
		return !d->is_partition;
	for (size_t i = 0; i < in->sel->n; i++)
		if (strcmp(in->sel->names[i], d->name) == 0)
			return true;
	return false;
}

/* The blocked tasks of a sample, attributed once per step for every device. */
struct dip_tasks {
	struct attribution *of;       /* per kept blocked task */
	bool *mine;                   /* scratch: those of the device at hand */
	size_t n;
};

/* mine[] for device; how many. */
static uint32_t tasks_of_device(struct dip_tasks *dt, const struct snapshot *s, const char *device)
{
	uint32_t n = 0;
	for (size_t i = 0; i < dt->n; i++) {
		dt->mine[i] = attribution_serves(&dt->of[i], s, device);
		n += dt->mine[i];
	}
	return n;
}

/* One device, one interval: 1 when a dip is complete, 0 not, -1 ENOMEM. */
static int step_device(struct dip_detector *det, const struct dip_input *in, struct dip_tasks *dt,
		       const struct device_rates *d, double now, struct event_list *out)
{
	struct dip_track *t = track_of(det, d->name);
	if (!t)
		return -1;
	t->seen = true;
	uint32_t nmine = tasks_of_device(dt, in->snap, d->name);
	struct dip_signals s;
	signals_of(&s, in, d, nmine);
	const struct dip_entry *e[DIP_RING];
	size_t n = window(t, now, e);
	int made = 0;
	if (t->low == 0 && n >= 3 && could_dip(e, n, s.kBs)) {
		struct dip_signals was;
		double base = window_medians(e, n, &was);
		bool busy = !selection_all(in->sel) || mean_util(e, n, s.util) > DIP_AUTO_UTIL;
		if (busy && base >= DIP_MIN_KBS && s.kBs < base / 2) {
			t->baseline = base;
			t->was = was;
			t->low = 0;   /* counted below, when it has work */
			t->reported = false;
		} else {
			t->baseline = 0;
		}
	}
	if (t->baseline > 0 && s.kBs < t->baseline / 2) {
		struct dip_context c = { .device = d->name, .snap = in->snap, .dev = d, .why = in->why,
					 .now = &s, .was = &t->was, .baseline = t->baseline,
					 .mine = dt->mine, .nmine = nmine };
		if (has_work(&c)) {
			t->last_work = now;
			if (t->low++ == 0)
				t->start = now;
			if (t->low >= DIP_MIN_SAMPLES && !t->reported) {
				struct dip_cause causes[DIP_CAUSES_KEPT], during[DIP_CAUSES_KEPT];
				c.start = t->start;
				c.causes = causes;
				c.ncauses = causes_between(det, in->snap, d->name,
							   t->start - DIP_WINDOW_S, t->start, causes);
				c.during = during;
				c.nduring = during_causes(det, in->snap, d->name, t->start, now, during);
				made = make_event(&c, out);
				t->reported = made > 0;
			}
		} else if (!t->reported || now - t->last_work >= DIP_WINDOW_S) {
			t->low = 0;   /* idle, not held up: no dip */
			t->baseline = 0;
			t->reported = false;
		}
		/* else a reported dip goes on: a moment with nothing in flight (4 tags that
		 * empty in microseconds) is not its end, and a fresh streak would report the
		 * same drop again against a window that still holds the level before it */
	} else {
		t->low = 0;
		t->baseline = 0;
		t->reported = false;
	}
	push(t, now, &s);
	return made;
}

/* Devices that went away leave no track behind. */
static void drop_unseen(struct dip_detector *d)
{
	size_t k = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (d->tracks[i]->seen)
			d->tracks[k++] = d->tracks[i];
		else
			free(d->tracks[i]);
	}
	d->n = k;
}

static int dip_tasks_attribute(struct dip_tasks *dt, const struct snapshot *s)
{
	const struct tasks_sample *t = s->tasks;
	dt->n = t ? t->nkept : 0;
	dt->of = calloc(dt->n ? dt->n : 1, sizeof *dt->of);
	dt->mine = calloc(dt->n ? dt->n : 1, sizeof *dt->mine);
	if (!dt->of || !dt->mine)
		return -1;
	for (size_t i = 0; i < dt->n; i++)
		attribution_of_blocked(s, &t->blocked[i], &dt->of[i]);
	return 0;
}

int dip_detector_step(struct dip_detector *d, const struct dip_input *in, struct event_list *out)
{
	if (!rates_have_interval(in->rates))
		return 0;
	double now = timespec_seconds(&in->snap->mono);
	struct dip_tasks dt = { NULL, NULL, 0 };
	int made = dip_tasks_attribute(&dt, in->snap);
	for (size_t i = 0; i < d->n; i++)
		d->tracks[i]->seen = false;
	for (size_t i = 0; made >= 0 && i < in->rates->ndevices; i++) {
		const struct device_rates *r = &in->rates->devices[i];
		if (!r->valid || !watched(in, r))
			continue;
		int rc = step_device(d, in, &dt, r, now, out);
		made = rc < 0 ? -1 : made + rc;
	}
	free(dt.of);
	free(dt.mine);
	if (made >= 0)
		drop_unseen(d);
	return made;
}
