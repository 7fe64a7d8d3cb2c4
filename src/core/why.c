/* why.c - the why figures' tables, ownership and per-interval rates (why.h).
 *
 * Formulas and sources: docs/metrics.md, "Why".  Called from the session only, like
 * rates_compute, so the console, batch, replay and reports cannot drift apart.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "rates.h"
#include "tasks.h"
#include "text.h"
#include "why.h"

const char *const why_dirty_keys[WD_COUNT] = {
	[WD_NR_DIRTY] = "nr_dirty", [WD_NR_WRITEBACK] = "nr_writeback",
	[WD_THRESHOLD] = "nr_dirty_threshold", [WD_BACKGROUND] = "nr_dirty_background_threshold",
	[WD_NR_DIRTIED] = "nr_dirtied", [WD_NR_WRITTEN] = "nr_written",
};

const struct journal_fs_def journal_fs_defs[JOURNAL_FS_COUNT] = {
	[JOURNAL_EXT4] = { "ext4", { "transactions", "wait_ms", "running_ms", "locked_ms",
				     "flushing_ms", "logging_ms", "commit_avg_us", "blocks",
				     "thread_d_ms" }, 9 },
	[JOURNAL_XFS] = { "xfs", { "log_writes", "log_blocks", "noiclogs", "forces",
				   "force_sleeps", "try_logspace", "sleep_logspace", "push_ail",
				   "log_used", "log_size" }, 10 },
	[JOURNAL_BTRFS] = { "btrfs", { "commits", "total_commit_ms", "last_commit_ms",
				       "max_commit_ms" }, 4 },
};

const char *const cgroup_io_state_names[] = {
	[CGROUP_IO_UNKNOWN] = "unknown", [CGROUP_IO_NO_V2] = "no-cgroup2",
	[CGROUP_IO_NO_CONTROLLER] = "no-io-controller", [CGROUP_IO_OK] = "ok",
};

#define FS_EXT4 (1u << JOURNAL_EXT4)
#define FS_XFS (1u << JOURNAL_XFS)
#define FS_BTRFS (1u << JOURNAL_BTRFS)
const struct journal_figure_def journal_figures[JF_COUNT] = {
	[JF_COMMITS_S] = { "commits/s", "commits", "/s", FS_EXT4 | FS_BTRFS, true },
	[JF_COMMIT_MS] = { "commit_ms", "commit", " ms", FS_EXT4 | FS_BTRFS, true },
	[JF_BLOCKS_PER_COMMIT] = { "blocks/commit", "blocks/commit", "", FS_EXT4, true },
	[JF_WAIT_MS] = { "wait_ms", "wait for transaction", " ms", FS_EXT4, true },
	[JF_LOG_WRITES_S] = { "log_writes/s", "log writes", "/s", FS_XFS, true },
	[JF_LOG_FORCES_S] = { "log_forces/s", "log forces", "/s", FS_XFS, true },
	[JF_LOG_FORCE_SLEEPS_S] = { "log_force_sleeps/s", "log forces that slept", "/s", FS_XFS, true },
	[JF_NOICLOGS_S] = { "noiclog_waits/s", "no-iclog waits", "/s", FS_XFS, false },
	[JF_LOGSPACE_SLEEPS_S] = { "logspace_sleeps/s", "log-space sleeps", "/s", FS_XFS, true },
	[JF_PUSH_AIL_S] = { "push_ail/s", "tail pushes", "/s", FS_XFS, true },
	[JF_LOG_USED_PCT] = { "log_used_pct", "log used", "%", FS_XFS, true },
	[JF_COMMIT_RUNNING_S] = { "commit_running_s", "commit running", " s", FS_EXT4 | FS_XFS,
				  true },
};

const struct journal_committer journal_committers[] = {
	{ JOURNAL_EXT4, "jbd2/", JF_COMMITS_S, "kjournald2, which commits the running transaction",
	  NULL, JF_COUNT },
	/* the push work hands the checkpoint to the in-core log and ends: a log write that
	 * does not complete leaves no kworker in D, only its fsync callers waiting */
	{ JOURNAL_XFS, "xfs-cil/", JF_LOG_WRITES_S,
	  "the CIL push work (a kworker), which writes a checkpoint to the log",
	  "xlog_wait_on_iclog", JF_LOG_FORCE_SLEEPS_S },
};
const size_t journal_committers_count = sizeof journal_committers / sizeof journal_committers[0];

struct why_sample *why_sample_new(void)
{
	return calloc(1, sizeof(struct why_sample));
}

int why_sample_copy(struct why_sample **dst, const struct why_sample *src)
{
	if (!src) {
		free(*dst);
		*dst = NULL;
		return 0;
	}
	if (!*dst && !(*dst = why_sample_new()))
		return -1;
	memcpy(*dst, src, sizeof *src);
	return 0;
}

int journal_fs_of(const char *fstype)
{
	for (int i = 0; i < JOURNAL_FS_COUNT; i++)
		if (strcmp(journal_fs_defs[i].fstype, fstype) == 0)
			return i;
	return -1;
}

/* ---- per interval ---- */

bool jbd2_interval_mean(uint64_t count0, uint64_t avg0, uint64_t count1, uint64_t avg1,
			double *mean)
{
	if (count1 <= count0)
		return false;
	/* The kernel prints floor(sum/count): count×average is the sum to within one
	 * count, so a mean that comes out below zero is that rounding. */
	double d = (double)count1 * (double)avg1 - (double)count0 * (double)avg0;
	*mean = d > 0 ? d / (double)(count1 - count0) : 0;
	return true;
}

bool why_writers_throttled(double dirty_kb, double freerun_kb, double dirtied, double written)
{
	if (!(dirty_kb > freerun_kb) || !(dirtied > 0))
		return false;
	double hi = fmax(dirtied, written), lo = fmin(dirtied, written);
	return lo >= 0.75 * hi;   /* balance_dirty_pages paces the dirtying to the writing */
}

static void set(struct journal_rates *r, enum journal_figure f, double v)
{
	r->f[f] = v;
	r->present |= 1u << f;
}

static bool have(const struct journal_raw *j, int field)
{
	return j->present & (1u << field);
}

/* Per second of a kernel counter (32-bit wrap tolerated); false when it went back. */
static bool per_second(const struct journal_raw *a, const struct journal_raw *b, int field,
		       double interval, double *out)
{
	uint64_t d;
	if (!have(a, field) || !have(b, field) || !counter_delta(a->v[field], b->v[field], &d))
		return false;
	*out = (double)d / interval;
	return true;
}

/* An average before: the kernel prints none until the first commit (the sum is 0). */
static bool avg_before(const struct journal_raw *a, int field, uint64_t *v)
{
	*v = have(a, field) ? a->v[field] : 0;
	return have(a, field) || a->v[J4_TRANSACTIONS] == 0;
}

/* Δ(count×average)/Δcount of one of jbd2's averages since mount. */
static bool ext4_mean(const struct journal_raw *a, const struct journal_raw *b, int field,
		      double *m)
{
	uint64_t before;
	return have(b, field) && avg_before(a, field, &before) &&
	       jbd2_interval_mean(a->v[J4_TRANSACTIONS], before, b->v[J4_TRANSACTIONS], b->v[field], m);
}

static void ext4_rates(struct journal_rates *r, const struct journal_raw *a,
		       const struct journal_raw *b, double interval)
{
	double v;
	if (per_second(a, b, J4_TRANSACTIONS, interval, &v))
		set(r, JF_COMMITS_S, v);
	if (!have(a, J4_TRANSACTIONS) || !have(b, J4_TRANSACTIONS))
		return;
	/* commit = the locked, flushing and logging phases: from the end of the running
	 * transaction until it is on disk */
	static const int phases[] = { J4_LOCKED_MS, J4_FLUSHING_MS, J4_LOGGING_MS };
	double sum = 0, m;
	bool any = false;
	for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
		if (ext4_mean(a, b, phases[i], &m)) {
			sum += m;
			any = true;
		}
	}
	if (any)
		set(r, JF_COMMIT_MS, sum);
	if (ext4_mean(a, b, J4_BLOCKS, &m))
		set(r, JF_BLOCKS_PER_COMMIT, m);
	if (ext4_mean(a, b, J4_WAIT_MS, &m))
		set(r, JF_WAIT_MS, m);
}

static void xfs_rates(struct journal_rates *r, const struct journal_raw *a,
		      const struct journal_raw *b, double interval)
{
	static const struct { int field; enum journal_figure fig; } map[] = {
		{ JX_LOG_WRITES, JF_LOG_WRITES_S }, { JX_FORCES, JF_LOG_FORCES_S },
		{ JX_FORCE_SLEEPS, JF_LOG_FORCE_SLEEPS_S }, { JX_NOICLOGS, JF_NOICLOGS_S },
		{ JX_SLEEP_LOGSPACE, JF_LOGSPACE_SLEEPS_S }, { JX_PUSH_AIL, JF_PUSH_AIL_S },
	};
	double v;
	for (size_t i = 0; a && i < sizeof map / sizeof map[0]; i++)
		if (per_second(a, b, map[i].field, interval, &v))
			set(r, map[i].fig, v);
	if (have(b, JX_LOG_USED) && have(b, JX_LOG_SIZE) && b->v[JX_LOG_SIZE])
		set(r, JF_LOG_USED_PCT, 100.0 * (double)b->v[JX_LOG_USED] / (double)b->v[JX_LOG_SIZE]);
}

static void btrfs_rates(struct journal_rates *r, const struct journal_raw *a,
			const struct journal_raw *b, double interval)
{
	double v;
	if (per_second(a, b, JB_COMMITS, interval, &v))
		set(r, JF_COMMITS_S, v);
	uint64_t dc, dt;
	if (have(a, JB_COMMITS) && have(b, JB_COMMITS) && have(a, JB_TOTAL_COMMIT_MS) &&
	    have(b, JB_TOTAL_COMMIT_MS) && counter_delta(a->v[JB_COMMITS], b->v[JB_COMMITS], &dc) &&
	    dc && counter_delta(a->v[JB_TOTAL_COMMIT_MS], b->v[JB_TOTAL_COMMIT_MS], &dt))
		set(r, JF_COMMIT_MS, (double)dt / (double)dc);
}

static const struct journal_raw *find_journal(const struct why_sample *s,
					      const struct journal_raw *j)
{
	for (size_t i = 0; s && i < s->njournals; i++)
		if (s->journals[i].fs == j->fs && strcmp(s->journals[i].mountpoint, j->mountpoint) == 0 &&
		    strcmp(s->journals[i].device, j->device) == 0)
			return &s->journals[i];
	return NULL;
}

/* The journal ended a commit or wrote its log in the interval: a committer in D is then
 * at its next commit, of which only "less than an interval" is known. */
static bool journal_went_on(const struct journal_rates *j)
{
	for (size_t i = 0; i < journal_committers_count; i++) {
		enum journal_figure p = journal_committers[i].progress;
		if (journal_committers[i].fs == j->fs && (j->present & (1u << p)) && j->f[p] > 0)
			return true;
	}
	return false;
}

/* ext4 without task data: how long jbd2 has been in D, as the sampler saw it
 * (J4_THREAD_D_MS); why_rates_add_tasks puts the blocked tasks' figure over it. */
static void ext4_thread_running(struct journal_rates *r, const struct journal_raw *b)
{
	if (have(b, J4_THREAD_D_MS) && !journal_went_on(r))
		set(r, JF_COMMIT_RUNNING_S, (double)b->v[J4_THREAD_D_MS] / 1000.0);
}

static void journal_rates(struct journal_rates *r, const struct journal_raw *a,
			  const struct journal_raw *b, double interval)
{
	memset(r, 0, sizeof *r);
	memcpy(r->mountpoint, b->mountpoint, sizeof r->mountpoint);
	memcpy(r->device, b->device, sizeof r->device);
	r->fs = b->fs;
	if (b->fs == JOURNAL_XFS) {   /* the log fill is a gauge: it needs no earlier sample */
		xfs_rates(r, interval > 0 ? a : NULL, b, interval);
		return;
	}
	if (a && interval > 0 && b->fs == JOURNAL_EXT4)
		ext4_rates(r, a, b, interval);
	else if (a && interval > 0)
		btrfs_rates(r, a, b, interval);
	if (b->fs == JOURNAL_EXT4)
		ext4_thread_running(r, b);
}

static void dirty_rates(struct why_rates *out, const struct why_dirty *a, const struct why_dirty *b,
			double interval)
{
	if (!b || !b->have)
		return;
	double kb = (double)b->page_kb;
	out->have_dirty = true;
	out->dirty_kb = (double)b->v[WD_NR_DIRTY] * kb;
	out->writeback_kb = (double)b->v[WD_NR_WRITEBACK] * kb;
	out->threshold_kb = (double)b->v[WD_THRESHOLD] * kb;
	out->background_kb = (double)b->v[WD_BACKGROUND] * kb;
	/* dirty_freerun_ceiling() in mm/page-writeback.c */
	out->freerun_kb = (double)((b->v[WD_THRESHOLD] + b->v[WD_BACKGROUND]) / 2) * kb;
	uint64_t dd, dw;
	if (!a || !a->have || !(interval > 0) ||
	    !counter_delta(a->v[WD_NR_DIRTIED], b->v[WD_NR_DIRTIED], &dd) ||
	    !counter_delta(a->v[WD_NR_WRITTEN], b->v[WD_NR_WRITTEN], &dw))
		return;
	out->have_dirty_rates = true;
	out->dirtied_kBs = (double)dd * kb / interval;
	out->written_kBs = (double)dw * kb / interval;
	out->throttled = why_writers_throttled(out->dirty_kb + out->writeback_kb, out->freerun_kb,
					       out->dirtied_kBs, out->written_kBs);
}

static const struct cgroup_io *find_cgroup(const struct why_sample *s, const char *path)
{
	for (size_t i = 0; s && i < s->ncgroups; i++)
		if (strcmp(s->cgroups[i].path, path) == 0)
			return &s->cgroups[i];
	return NULL;
}

static const struct cgroup_io_dev *find_dev(const struct cgroup_io *c, unsigned major,
					    unsigned minor)
{
	for (size_t i = 0; c && i < c->ndevs; i++)
		if (c->devs[i].major == major && c->devs[i].minor == minor)
			return &c->devs[i];
	return NULL;
}

static double delta_per_s(uint64_t a, uint64_t b, double interval)
{
	return b >= a ? (double)(b - a) / interval : 0;
}

static void cgroup_rates(struct cgroup_io_rates *r, const struct cgroup_io *a,
			 const struct cgroup_io *b, double interval)
{
	memset(r, 0, sizeof *r);
	memcpy(r->path, b->path, sizeof r->path);
	r->have_pressure = b->have_pressure;
	r->some_avg10 = (double)b->some_avg10_c / 100.0;
	r->full_avg10 = (double)b->full_avg10_c / 100.0;
	for (size_t i = 0; i < b->ndevs && interval > 0; i++) {
		const struct cgroup_io_dev *d1 = &b->devs[i], *d0 = find_dev(a, d1->major, d1->minor);
		if (!d0)
			continue;
		size_t k = r->ndevs++;
		r->devs[k].major = d1->major;
		r->devs[k].minor = d1->minor;
		r->devs[k].rkB_s = delta_per_s(d0->rbytes, d1->rbytes, interval) / 1024.0;
		r->devs[k].wkB_s = delta_per_s(d0->wbytes, d1->wbytes, interval) / 1024.0;
		r->devs[k].r_s = delta_per_s(d0->rios, d1->rios, interval);
		r->devs[k].w_s = delta_per_s(d0->wios, d1->wios, interval);
	}
}

/* The comm after prefix names device: then the end, jbd2's "-INODE", or the end of a comm
 * the kernel cut at 15 bytes (jbd2/nvme0n1p1 of jbd2/nvme0n1p12-8 is not nvme0n1p1's). */
static bool names_device(const char *comm, const char *prefix, const char *device)
{
	size_t np = strlen(prefix), nd = strlen(device);
	if (strncmp(comm, prefix, np) != 0 || strncmp(comm + np, device, nd) != 0)
		return false;
	char next = comm[np + nd];
	return next == '\0' || next == '-';
}

bool journal_committer_is(const char *comm, enum journal_fs fs, const char *device)
{
	if (!device[0])
		return false;
	/* a kworker says the work it runs after a '+': kworker/u8:2+xfs-cil/loop1 */
	const char *work = strchr(comm, '+');
	for (size_t i = 0; i < journal_committers_count; i++) {
		const struct journal_committer *c = &journal_committers[i];
		if (c->fs == fs && (names_device(comm, c->prefix, device) ||
				    (work && names_device(work + 1, c->prefix, device))))
			return true;
	}
	return false;
}

static const char *log_waiter_of(enum journal_fs fs)
{
	for (size_t i = 0; i < journal_committers_count; i++)
		if (journal_committers[i].fs == fs && journal_committers[i].log_waiter)
			return journal_committers[i].log_waiter;
	return NULL;
}

/* A committing thread of j's journal, or a task waiting for its log's write on a file of
 * j's filesystem (not of a filesystem above it: a loop device's file is another's). */
static bool waits_for_commit(const struct blocked_task *b, const struct journal_rates *j,
			     const struct snapshot *devs)
{
	if (b->kthread)
		return journal_committer_is(b->comm, j->fs, j->device);
	const char *waiter = log_waiter_of(j->fs);
	if (!devs || !waiter || strcmp(b->wchan, waiter) != 0)
		return false;
	struct attribution a;
	attribution_of_blocked(devs, b, &a);
	return a.n && strcmp(a.devices[0], j->device) == 0;
}

/* No log waiter began a sleep in the interval (the journal's waiter_sleeps figure read 0). */
static bool no_waiter_slept(const struct journal_rates *j)
{
	for (size_t i = 0; i < journal_committers_count; i++) {
		enum journal_figure w = journal_committers[i].waiter_sleeps;
		if (journal_committers[i].fs == j->fs && w < JF_COUNT &&
		    (j->present & (1u << w)) && j->f[w] == 0)
			return true;
	}
	return false;
}

/* The longest its committers (or log waiters) have been in D; false when none is, or when
 * the journal went on in the interval (a commit ended, the log was written): the thread
 * is then in D for its next commit, and how long that one has run is not known.  A log
 * waiter that slept through the interval shows its commit did not end, whatever the log
 * wrote (xfs's periodic work writes into a stuck log: the commit then read "missing" one
 * sample in thirty seconds) and whether a push worker waits beside it (the log write it
 * issued, counted, hangs too).  Slept through: in D since the sample before, not run
 * between (t->runs_read); without the run counts, none of the journal's waiters began a
 * sleep in the interval, a counter any log force moves (another task's touch and syncfs
 * made a frozen sample "missing" in test_why_journal_xfs; a matrix's sync(2) running
 * beside it, the likely cause of its one failure in CI). */
static bool commit_running(const struct journal_rates *j, const struct tasks_sample *t,
			   uint64_t mono_ns, const struct snapshot *devs, double *seconds)
{
	bool found = false, waiter = false, through = false;
	*seconds = 0;
	for (size_t i = 0; i < t->nkept; i++) {
		const struct blocked_task *b = &t->blocked[i];
		if (!waits_for_commit(b, j, devs))
			continue;
		*seconds = fmax(*seconds, blocked_task_seconds(b, mono_ns));
		found = true;
		waiter = waiter || !b->kthread;
		through = through || (!b->kthread && b->since_ns < mono_ns);
	}
	if (!found || !journal_went_on(j))
		return found;
	return t->runs_read ? through : waiter && no_waiter_slept(j);
}

static const struct task_memcg *find_memcg(const struct tasks_sample *t,
					   const struct task_memcg *m)
{
	for (size_t i = 0; t && i < t->nmemcgs; i++)
		if (t->memcgs[i].version == m->version && strcmp(t->memcgs[i].path, m->path) == 0)
			return &t->memcgs[i];
	return NULL;
}

/* "tar, dd": the distinct comms of its blocked tasks, first seen first */
static void memcg_add_comm(struct memcg_rates *r, const char *comm)
{
	size_t n = strlen(comm), len = strlen(r->comms);
	for (const char *p = r->comms; (p = strstr(p, comm)) != NULL; p += n)
		if ((p == r->comms || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return;
	if (len + n + 3 < sizeof r->comms)
		snprintf(r->comms + len, sizeof r->comms - len, "%s%s", len ? ", " : "", comm);
}

static void memcg_rates_of(struct memcg_rates *r, const struct task_memcg *a,
			   const struct task_memcg *b, uint64_t interval_ns)
{
	memset(r, 0, sizeof *r);
	memcpy(r->path, b->path, sizeof r->path);
	memcpy(r->limit_of, b->limit_of, sizeof r->limit_of);
	r->version = b->version;
	r->present = b->present;
	for (int f = 0; f < MEMCG_FIELDS; f++)
		r->v[f] = f <= MEMCG_WRITEBACK ? (double)b->v[f] / 1024.0 : (double)b->v[f];
	for (int f = MEMCG_FAILCNT; a && interval_ns && f < MEMCG_FIELDS; f++) {
		uint32_t bit = 1u << f;
		if (!(a->present & bit) || !(b->present & bit) || b->v[f] < a->v[f])
			continue;
		r->rated |= bit;
		r->per_s[f] = (double)(b->v[f] - a->v[f]) / ((double)interval_ns / 1e9);
	}
}

static void memcg_rates_add(struct why_rates *out, const struct tasks_sample *prev,
			    const struct tasks_sample *t)
{
	/* the cgroups the blocked tasks name come first; the source reads those it watches
	 * after them, for the next sample's rates (proctasks.c) */
	size_t named = 0;
	for (size_t i = 0; t && i < t->nkept; i++)
		if (t->blocked[i].memcg > named)
			named = t->blocked[i].memcg;
	out->nmemcgs = 0;
	for (size_t i = 0; t && i < named && i < t->nmemcgs && i < TASKS_MEMCG_MAX; i++)
		memcg_rates_of(&out->memcgs[out->nmemcgs++], find_memcg(prev, &t->memcgs[i]),
			       &t->memcgs[i], t->interval_ns);
	for (size_t i = 0; t && i < t->nkept; i++) {
		const struct blocked_task *b = &t->blocked[i];
		if (!b->memcg || b->memcg > out->nmemcgs)
			continue;
		out->memcgs[b->memcg - 1].blocked++;
		memcg_add_comm(&out->memcgs[b->memcg - 1], b->comm);
	}
}

bool memcg_pressed(const struct memcg_rates *m)
{
	bool sized = (m->present & (1u << MEMCG_LIMIT)) && (m->present & (1u << MEMCG_USAGE));
	if (sized && m->v[MEMCG_USAGE] >= 0.9 * m->v[MEMCG_LIMIT])
		return true;
	for (int f = MEMCG_FAILCNT; f < MEMCG_FIELDS; f++)
		if ((m->rated & (1u << f)) && m->per_s[f] > 0)
			return true;
	return false;
}

static size_t mb_piece(char *buf, size_t len, size_t used, const char *fmt, double kb)
{
	double mb = kb / 1024.0;
	return text_appendf(buf, len, used, fmt, mb >= 10 ? 0 : 1, mb);
}

void memcg_rates_text(const struct memcg_rates *m, char *buf, size_t len)
{
	static const char *const counter[MEMCG_FIELDS] = {
		[MEMCG_FAILCNT] = "failcnt", [MEMCG_PGSCAN] = "reclaim scans",
		[MEMCG_HIGH] = "over high", [MEMCG_MAX] = "at max",
	};
	size_t used = text_appendf(buf, len, 0, "memory cgroup %s (v%u):", m->path, m->version);
	const char *sep = " ";
	if (m->present & (1u << MEMCG_USAGE)) {
		used = mb_piece(buf, len, used, " %.*f", m->v[MEMCG_USAGE]);
		if (m->present & (1u << MEMCG_LIMIT))
			used = mb_piece(buf, len, used, " of %.*f MB used", m->v[MEMCG_LIMIT]);
		if ((m->present & (1u << MEMCG_LIMIT)) && m->limit_of[0])
			used = text_appendf(buf, len, used, " (limit of %s)", m->limit_of);
		else if (!(m->present & (1u << MEMCG_LIMIT)))
			used = text_appendf(buf, len, used, " MB used, no limit");
		sep = ", ";
	}
	static const struct { enum memcg_field f; const char *fmt; } sizes[] = {
		{ MEMCG_DIRTY, "dirty %.*f MB" }, { MEMCG_WRITEBACK, "writeback %.*f MB" },
	};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		if (!(m->present & (1u << sizes[i].f)))
			continue;
		used = text_appendf(buf, len, used, "%s", sep);
		used = mb_piece(buf, len, used, sizes[i].fmt, m->v[sizes[i].f]);
		sep = ", ";
	}
	for (int f = MEMCG_FAILCNT; f < MEMCG_FIELDS; f++) {
		if (!(m->rated & (1u << f)))
			continue;
		used = text_appendf(buf, len, used, "%s%s %.0f/s", sep, counter[f], m->per_s[f]);
		sep = ", ";
	}
	if (m->blocked)
		text_appendf(buf, len, used, "; %u blocked (%s)", m->blocked, m->comms);
}

void why_rates_add_tasks(struct why_rates *out, const struct tasks_sample *prev,
			 const struct tasks_sample *t, uint64_t mono_ns,
			 const struct snapshot *devs)
{
	memcg_rates_add(out, prev, t);
	out->throttled_tasks = 0;
	for (size_t i = 0; t && i < t->nkept; i++)
		out->throttled_tasks += strcmp(t->blocked[i].wchan, "balance_dirty_pages") == 0;
	for (size_t i = 0; t && i < out->njournals; i++) {
		struct journal_rates *j = &out->journals[i];
		double s;
		/* the journal's own thread figure, when there is one, knows when a commit ended */
		if (!(j->present & (1u << JF_COMMIT_RUNNING_S)) &&
		    commit_running(j, t, mono_ns, devs, &s))
			set(j, JF_COMMIT_RUNNING_S, s);
	}
}

void why_rates_compute(struct why_rates *out, const struct why_sample *prev,
		       const struct why_sample *cur, double interval)
{
	memset(out, 0, offsetof(struct why_rates, journals));
	out->njournals = out->ncgroups = out->nmemcgs = 0;
	out->cgroup_state = CGROUP_IO_UNKNOWN;
	if (!cur)
		return;
	dirty_rates(out, prev ? &prev->dirty : NULL, &cur->dirty, interval);
	for (size_t i = 0; i < cur->njournals; i++)
		journal_rates(&out->journals[out->njournals++], find_journal(prev, &cur->journals[i]),
			      &cur->journals[i], interval);
	out->cgroup_state = cur->cgroup_state;
	for (size_t i = 0; i < cur->ncgroups; i++)
		cgroup_rates(&out->cgroups[out->ncgroups++], find_cgroup(prev, cur->cgroups[i].path),
			     &cur->cgroups[i], interval);
}
