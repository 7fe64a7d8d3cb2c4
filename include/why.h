/* why.h - the signals that say why throughput changed (issue 10): dirty memory against
 * the kernel's own limits, the journals of the watched filesystems, cgroup v2 io.
 *
 * struct why_sample is what one sample read, raw (snapshot.h's `why`): recorded as
 * the session log's `why` record and read back into the same field, so a replay has
 * it bit for bit.  struct why_rates is what two samples give (docs/metrics.md,
 * "Why"); only the session computes it (why_rates_compute).
 */
#ifndef IOSCOPE_WHY_H
#define IOSCOPE_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"
#include "tasks.h"

/* /proc/vmstat, in pages as the kernel counts them (read, never recomputed). */
enum why_dirty_field {
	WD_NR_DIRTY, WD_NR_WRITEBACK, WD_THRESHOLD, WD_BACKGROUND, WD_NR_DIRTIED, WD_NR_WRITTEN,
	WD_COUNT
};
extern const char *const why_dirty_keys[WD_COUNT];   /* the /proc/vmstat names */

struct why_dirty {
	bool have;                  /* every key was there */
	uint64_t page_kb;           /* kB per page, to turn pages into kB */
	uint64_t v[WD_COUNT];
};

/* The raw figures of a journal, by filesystem (JOURNAL_*_FIELDS name them). */
enum journal_fs { JOURNAL_EXT4, JOURNAL_XFS, JOURNAL_BTRFS, JOURNAL_FS_COUNT };
#define JOURNAL_RAW_MAX 12
struct journal_fs_def {
	const char *fstype;                      /* as mountinfo says: "ext4", "xfs", "btrfs" */
	const char *fields[JOURNAL_RAW_MAX];     /* names of the raw figures, NULL ends */
	size_t nfields;
};
extern const struct journal_fs_def journal_fs_defs[JOURNAL_FS_COUNT];
/* ext4 (jbd2 info: the count, then the averages since mount it prints; then how long the
 * journal's thread jbd2/DEV-8 has been in D, present only while it is: journal_thread.h) */
enum { J4_TRANSACTIONS, J4_WAIT_MS, J4_RUNNING_MS, J4_LOCKED_MS, J4_FLUSHING_MS, J4_LOGGING_MS,
       J4_COMMIT_AVG_US, J4_BLOCKS, J4_THREAD_D_MS };
/* xfs (stats/stats "log" and "push_ail" lines, log/ for the fill) */
enum { JX_LOG_WRITES, JX_LOG_BLOCKS, JX_NOICLOGS, JX_FORCES, JX_FORCE_SLEEPS, JX_TRY_LOGSPACE,
       JX_SLEEP_LOGSPACE, JX_PUSH_AIL, JX_LOG_USED, JX_LOG_SIZE };
/* btrfs (commit_stats) */
enum { JB_COMMITS, JB_TOTAL_COMMIT_MS, JB_LAST_COMMIT_MS, JB_MAX_COMMIT_MS };

struct journal_raw {
	char mountpoint[MOUNT_PATH_MAX];
	char device[DEV_NAME_MAX];      /* the kernel name of the disk it is on */
	enum journal_fs fs;
	uint32_t present;               /* bit i: v[i] was read */
	uint64_t v[JOURNAL_RAW_MAX];
};

/* cgroup v2 io: whether it can be read at all. */
enum cgroup_io_state {
	CGROUP_IO_UNKNOWN,              /* not looked at */
	CGROUP_IO_NO_V2,                /* no cgroup2 mount */
	CGROUP_IO_NO_CONTROLLER,        /* cgroup2 without the io controller (hybrid) */
	CGROUP_IO_OK,
};
extern const char *const cgroup_io_state_names[];   /* "unknown", "no-cgroup2", ... */

#define CGROUP_DEVS_MAX 8
#define CGROUP_PATH_MAX 256
struct cgroup_io_dev {
	unsigned major, minor;
	uint64_t rbytes, wbytes, rios, wios;
};
struct cgroup_io {
	char path[CGROUP_PATH_MAX];     /* relative to the cgroup2 root, "/" for the root */
	bool have_pressure;
	uint64_t some_avg10_c, full_avg10_c;   /* io.pressure avg10 in hundredths */
	uint64_t some_total, full_total;       /* µs */
	size_t ndevs;
	struct cgroup_io_dev devs[CGROUP_DEVS_MAX];
};

#define WHY_JOURNALS_MAX 16
#define WHY_CGROUPS_MAX 32
struct why_sample {
	struct why_dirty dirty;
	size_t njournals;
	struct journal_raw journals[WHY_JOURNALS_MAX];
	enum cgroup_io_state cgroup_state;
	size_t ncgroups;
	struct cgroup_io cgroups[WHY_CGROUPS_MAX];
};

struct why_sample *why_sample_new(void);              /* zeroed; NULL on ENOMEM */
int why_sample_copy(struct why_sample **dst, const struct why_sample *src);  /* -1 ENOMEM */
int journal_fs_of(const char *fstype);                /* enum journal_fs, -1 none */

/* ---- parsers (pure: unit-tested on text) ---- */
/* nr_dirty & co. out of the text of /proc/vmstat. */
void why_parse_vmstat(const char *buf, size_t len, struct why_dirty *out);
/* /proc/fs/jbd2/DEV-8/info, /sys/fs/xfs/DEV/stats/stats, /sys/fs/btrfs/UUID/commit_stats */
void journal_parse_jbd2(const char *buf, size_t len, struct journal_raw *j);
void journal_parse_xfs_stats(const char *buf, size_t len, struct journal_raw *j);
void journal_parse_btrfs(const char *buf, size_t len, struct journal_raw *j);
/* One xfs log/ file ("cycle:block" or a byte count): false when it is neither. */
bool journal_parse_xfs_lsn(const char *buf, size_t len, uint64_t *cycle, uint64_t *block);
/* io.stat / io.pressure of one cgroup. */
void cgroup_parse_io_stat(const char *buf, size_t len, struct cgroup_io *c);
void cgroup_parse_io_pressure(const char *buf, size_t len, struct cgroup_io *c);

/* ---- per interval ---- */
enum journal_figure {
	JF_COMMITS_S, JF_COMMIT_MS, JF_BLOCKS_PER_COMMIT, JF_WAIT_MS,
	JF_LOG_WRITES_S, JF_LOG_FORCES_S, JF_LOG_FORCE_SLEEPS_S, JF_NOICLOGS_S,
	JF_LOGSPACE_SLEEPS_S, JF_PUSH_AIL_S, JF_LOG_USED_PCT,
	JF_COMMIT_RUNNING_S,      /* the commit in progress, from its thread (J4_THREAD_D_MS, or
				     why_rates_add_tasks) */
	JF_COUNT
};
struct journal_figure_def {
	const char *key;          /* the JSON key: "commits/s" */
	const char *label;        /* for people: "commit time" */
	const char *unit;         /* "/s", "ms", "%", "" */
	uint32_t fs;              /* bit per enum journal_fs that has it */
	bool json;                /* one of the JSON keys (noiclogs is not) */
};
extern const struct journal_figure_def journal_figures[JF_COUNT];

struct journal_rates {
	char mountpoint[MOUNT_PATH_MAX];
	char device[DEV_NAME_MAX];
	enum journal_fs fs;
	uint32_t present;             /* bit per enum journal_figure */
	double f[JF_COUNT];
};

struct cgroup_io_rates {
	char path[CGROUP_PATH_MAX];
	bool have_pressure;
	double some_avg10, full_avg10;
	size_t ndevs;
	struct {
		unsigned major, minor;
		double rkB_s, wkB_s, r_s, w_s;
	} devs[CGROUP_DEVS_MAX];
};

/* A memory cgroup of blocked user tasks (tasks.h, struct task_memcg): sizes in kB, the
 * counters per second over the tasks sub-sampler's interval. */
#define MEMCG_COMMS_MAX 96
struct memcg_rates {
	char path[MEMCG_PATH_MAX];
	char limit_of[MEMCG_PATH_MAX];  /* the ancestor whose limit it is, "": its own */
	uint8_t version;
	uint32_t present;               /* bit per enum memcg_field: v[] read */
	double v[MEMCG_FIELDS];         /* LIMIT..WRITEBACK in kB; the counters as read */
	uint32_t rated;                 /* bit per counter: per_s[] known (read twice) */
	double per_s[MEMCG_FIELDS];
	uint32_t blocked;               /* blocked tasks in it */
	char comms[MEMCG_COMMS_MAX];    /* "tar, dd" */
};

struct why_rates {
	bool have_dirty;                        /* the limits are known */
	double dirty_kb, writeback_kb;          /* nr_dirty, nr_writeback as kB */
	double threshold_kb, background_kb, freerun_kb;
	bool have_dirty_rates;                  /* two samples with the counters */
	double dirtied_kBs, written_kBs;
	bool throttled;                         /* writers throttled (docs/metrics.md) */
	uint32_t throttled_tasks;               /* blocked in balance_dirty_pages (tasks) */
	size_t njournals;
	struct journal_rates journals[WHY_JOURNALS_MAX];
	enum cgroup_io_state cgroup_state;
	size_t ncgroups;
	struct cgroup_io_rates cgroups[WHY_CGROUPS_MAX];
	size_t nmemcgs;                         /* the tasks sample's memcgs[], in its order */
	struct memcg_rates memcgs[TASKS_MEMCG_MAX];
};

/* Rates between prev and cur (either may be NULL: what needs both is missing) over
 * `interval` seconds (<= 0: no rates). */
void why_rates_compute(struct why_rates *out, const struct why_sample *prev,
		       const struct why_sample *cur, double interval);
/* What the blocked tasks of the snapshot at mono_ns show: the writers held in
 * balance_dirty_pages (a per-device limit, strict_limit, throttles them with the system
 * far below freerun), and each journal's commit in progress: how long its committing
 * thread (journal_committers[]) has been in D, or a task attributed to its filesystem in
 * its log_waiter, when the journal made no progress in the interval (docs/metrics.md, "A
 * commit in progress").  devs: the snapshot the tasks' files are attributed by
 * (attribution.h); NULL: only the committing threads count. */
struct snapshot;
void why_rates_add_tasks(struct why_rates *out, const struct tasks_sample *prev,
			 const struct tasks_sample *t, uint64_t mono_ns,
			 const struct snapshot *devs);
/* The memory cgroup is at its limit or reclaiming: usage at 90% of the limit or more, or
 * a reclaim or throttle counter that went up. */
bool memcg_pressed(const struct memcg_rates *m);
/* "memory cgroup /untar (v1): 380 of 384 MB used, dirty 40 MB, writeback 12 MB, failcnt
 * 4460/s; 2 blocked (tar)"; a parent's limit is named: "... 20 of 384 MB used (limit of
 * /build), ..." */
void memcg_rates_text(const struct memcg_rates *m, char *buf, size_t len);
/* The kernel threads that commit a journal: the thread (or kworker work, after its '+')
 * named prefix + the journal's device (ext4: jbd2/loop0-8). */
struct journal_committer {
	enum journal_fs fs;
	const char *prefix;
	enum journal_figure progress;   /* above 0: the journal went on in the interval */
	const char *what;               /* for docs/metrics.md */
	/* the wait channel of a task waiting for the log's own write, once the committer
	 * handed it over and no thread of the journal is in D (xfs); NULL: none */
	const char *log_waiter;
	/* the log waiters' sleeps begun in the interval (xfs: the log forces that slept, counted
	 * as each begins); none while only log waiters are in D: each was there all through the
	 * interval, whatever the log wrote (a stuck xfs log still takes a write from the
	 * periodic log work every 30 s).  JF_COUNT: none */
	enum journal_figure waiter_sleeps;
};
extern const struct journal_committer journal_committers[];
extern const size_t journal_committers_count;
/* Whether a kernel thread's comm names the committer of the journal of fs on device. */
bool journal_committer_is(const char *comm, enum journal_fs fs, const char *device);
/* The jbd2 per-interval mean of a figure the kernel prints as an average since
 * mount: Δ(count×average)/Δcount.  false when no transaction ended. */
bool jbd2_interval_mean(uint64_t count0, uint64_t avg0, uint64_t count1, uint64_t avg1,
			double *mean);
/* Writers are throttled: dirty (+ writeback) above the freerun point and the
 * dirtied rate matched to the written one. */
bool why_writers_throttled(double dirty_kb, double freerun_kb, double dirtied, double written);

#endif
