/* tasks.h - blocked tasks and per-process I/O of one sample (issue 10, signals 1 and 2).
 *
 * The tasks sub-sampler (proctasks.h) reads /proc/PID/stat, /proc/PID/io and, for tasks
 * in D state only, their wait channel and stack.  What it hands on is kept integral and
 * exact, so a replayed log gives the same figures: per-process counters are the
 * differences over the sub-sampler's own interval (`interval_ns`), a blocked task's time
 * is the monotonic time it was first seen blocked.  Rates and groups are computed from
 * that here, never stored.  A snapshot without tasks (not asked for) has tasks == NULL.
 */
#ifndef IOSCOPE_TASKS_H
#define IOSCOPE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define TASK_COMM_MAX 64        /* the kernel's comm is 15 bytes; kept wider for safety */
#define TASK_USER_MAX 32
#define TASK_WCHAN_MAX 64
#define TASK_FRAME_MAX 64
#define TASK_STACK_FRAMES 4     /* top frames kept, scheduler frames skipped */
#define TASKS_IO_TOP 20         /* processes kept in the I/O list, most bytes first */
#define TASKS_BLOCKED_MAX 512   /* blocked tasks kept; more are counted (blocked_more) */

/* What a kernel thread's I/O is: write_bytes is charged to whoever dirtied the pages, so
 * the disk writes of journals and writeback show up under these threads. */
enum task_role {
	TASK_ROLE_PROCESS = 0,  /* anything else */
	TASK_ROLE_JOURNAL,      /* kernel threads jbd2/..., xfsaild/..., xfs-log/... */
	TASK_ROLE_WRITEBACK,    /* kernel threads kworker/... (flush-MAJ:MIN), flush-... */
};

/* The device a file is on, as the tasks sub-sampler read it: numbers only.  Which disk
 * that is, through partitions and loop devices, is the attribution's (attribution.h). */
enum task_file_kind {
	TASK_FILE_NONE = 0,     /* not known: no descriptor, not readable, not on a device */
	TASK_FILE_ON_FS,        /* a file of the filesystem whose device number this is (st_dev) */
	TASK_FILE_BLOCKDEV,     /* the block device itself, opened directly (st_rdev) */
};
struct task_file {
	uint8_t kind;                      /* enum task_file_kind */
	uint32_t major, minor;
};
#define TASK_IO_FILES 4         /* distinct devices of a listed process's open files */

struct blocked_task {
	int32_t pid, tid;
	char comm[TASK_COMM_MAX];          /* the thread's comm */
	char wchan[TASK_WCHAN_MAX];        /* "" when unknown (not permitted, or "0") */
	bool kthread;                      /* PF_KTHREAD */
	uint64_t since_ns;                 /* monotonic time first seen in D (consecutive
					      samples, the same channel, not run between: see
					      runs_read); its snapshot's mono - since = seconds */
	uint8_t nframes;                   /* 0: no stack (not permitted, or not read) */
	char stack[TASK_STACK_FRAMES][TASK_FRAME_MAX];   /* "jbd2_log_wait_commit", ... */
	struct task_file waits;            /* the file of the descriptor its system call was
					      given (user tasks; kernel threads are known by
					      their names) */
	uint8_t memcg;                     /* its memory cgroup: memcgs[memcg - 1]; 0: the
					      root, a kernel thread, or not read */
};

/* The memory cgroup of blocked user tasks (issue 24): what holds a writer that reclaims or
 * is throttled inside its own limit.  Raw, as the files say (bytes, counts since the
 * cgroup was made); v1 memory.limit_in_bytes, usage_in_bytes, failcnt and memory.stat's
 * total_dirty/total_writeback; v2 memory.max, memory.current, memory.stat's file_dirty,
 * file_writeback and pgscan, memory.events' high and max (docs/metrics.md). */
enum memcg_field {
	MEMCG_LIMIT, MEMCG_USAGE, MEMCG_DIRTY, MEMCG_WRITEBACK,
	MEMCG_FAILCNT,          /* v1: times usage hit the limit */
	MEMCG_PGSCAN,           /* v2: pages scanned by reclaim */
	MEMCG_HIGH,             /* v2 memory.events: throttled over memory.high */
	MEMCG_MAX,              /* v2 memory.events: reclaim at memory.max */
	MEMCG_FIELDS
};
extern const char *const memcg_field_keys[MEMCG_FIELDS];   /* "limit", "usage", ... */
#define TASKS_MEMCG_MAX 8       /* memory cgroups kept per sample, first seen first */
#define MEMCG_PATH_MAX 256
struct task_memcg {
	char path[MEMCG_PATH_MAX];         /* as /proc/PID/cgroup says: "/untar" */
	char limit_of[MEMCG_PATH_MAX];     /* v2: the ancestor whose memory.max is the limit,
					      the lowest of them; "": its own, or none */
	uint8_t version;                   /* 1 or 2 */
	uint32_t present;                  /* bit per enum memcg_field: read */
	uint64_t v[MEMCG_FIELDS];
};

/* One process's I/O over the interval: differences of the sum of its live threads'
 * /proc/PID/task/TID/io (not /proc/PID/io, which adds the totals of every child it
 * reaped) and of stat field 42. */
struct task_io {
	int32_t pid;
	uint32_t uid;
	char comm[TASK_COMM_MAX];
	char user[TASK_USER_MAX];          /* passwd name, or the uid in decimal */
	bool kthread;
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
	uint64_t syscr, syscw;
	uint64_t blkio_ticks;              /* delayacct_blkio_ticks; meaningful if delayacct */
	uint8_t nfiles;                    /* the devices of its open files, distinct */
	struct task_file files[TASK_IO_FILES];
};

struct tasks_sample {
	uint64_t interval_ns;              /* between the two reads the io differences span;
					      0: a baseline, no I/O figures yet */
	uint32_t clk_tck;                  /* ticks per second of blkio_ticks */
	bool delayacct;                    /* kernel.task_delayacct on (iodelay is known) */
	bool stack_readable;               /* /proc/PID/stack could be read (CAP_SYS_ADMIN) */
	bool runs_read;                    /* every kept blocked task's run count was read
					      (schedstat): its since_ns is when the wait it is
					      in began, give or take a sample; false: it may be
					      the first of several on the same channel */
	uint32_t nprocs, nthreads;         /* processes and threads looked at */
	uint32_t nblocked;                 /* tasks in D state, all of them */
	uint32_t blocked_more;             /* of those, not kept in blocked[] */
	size_t nkept;                      /* entries of blocked[] */
	struct blocked_task *blocked;      /* pid order */
	size_t nio;
	struct task_io io[TASKS_IO_TOP];   /* most bytes first, then pid */
	size_t nmemcgs;                    /* the memory cgroups of the blocked user tasks */
	struct task_memcg memcgs[TASKS_MEMCG_MAX];
};

/* Figures of one io entry (NaN iodelay when delay accounting is off). */
struct task_io_rates {
	double rkB_s, wkB_s, cancelled_wkB_s, syscr_s, syscw_s, iodelay_pct;
};

/* What a wait channel means, in the users' words (one row per channel, docs/metrics.md
 * "Wait channels in words"): a row with frames applies only to a task whose stack was
 * read and has one of them (percpu_rwsem_wait is a frozen filesystem in sb_start_write,
 * which is inlined into the callers listed). */
#define WCHAN_WORDS_FRAMES 14
struct wchan_words {
	const char *wchan;
	const char *words;
	const char *frames[WCHAN_WORDS_FRAMES];   /* NULL ends; none: the channel alone */
};
extern const struct wchan_words tasks_wchan_words[];
extern const size_t tasks_wchan_words_count;
/* The words of a blocked task's wait ("filesystem frozen"), NULL for a channel not in
 * the table (said as it is). */
const char *blocked_task_words(const struct blocked_task *b);

/* The blocked tasks that wait on one wait channel. */
#define TASKS_COMMS_MAX 160
struct tasks_group {
	char wchan[TASK_WCHAN_MAX];        /* "" : unknown */
	const char *words;                 /* what every task of it waits for, NULL: not known
					      (blocked_task_words) */
	uint32_t count;
	double max_seconds;                /* the longest blocked of them */
	char comms[TASKS_COMMS_MAX];       /* "tar, 11 kworker": processes, then kernel
					      threads, each by count; count shown when > 1 */
};

struct tasks_sample *tasks_sample_new(void);        /* zeroed; NULL on ENOMEM */
void tasks_sample_free(struct tasks_sample *t);
/* A deep copy; NULL for NULL, NULL with errno ENOMEM. */
struct tasks_sample *tasks_sample_dup(const struct tasks_sample *t);
/* Append a blank blocked task (growing the array); NULL on ENOMEM. */
struct blocked_task *tasks_sample_add_blocked(struct tasks_sample *t);

/* Seconds a blocked task has been seen blocked, at the snapshot time mono_ns. */
double blocked_task_seconds(const struct blocked_task *b, uint64_t mono_ns);
void task_io_rates(const struct tasks_sample *t, const struct task_io *io,
		   struct task_io_rates *out);
/* The role of a task from its comm, kernel threads only. */
enum task_role task_role(const char *comm, bool kthread);
const char *task_role_name(enum task_role r);        /* "", "journal", "writeback" */

/* Blocked tasks grouped by wait channel, most tasks first (then wchan): at most max
 * groups into out, the number of groups there are returned.  mono_ns is the snapshot's. */
size_t tasks_blocked_groups(const struct tasks_sample *t, uint64_t mono_ns,
			    struct tasks_group *out, size_t max);
/* The same over the blocked tasks i with keep[i] (keep NULL: all of them). */
size_t tasks_blocked_groups_of(const struct tasks_sample *t, uint64_t mono_ns, const bool *keep,
			       struct tasks_group *out, size_t max);
/* How a task is named in a summary: a kernel thread by the part of its name before its
 * '/' (kworker/u8:2+flush-7:0 is a kworker), a process by its comm. */
void tasks_summary_name(const char *comm, bool kthread, char out[TASK_COMM_MAX]);
/* "12 tasks in jbd2_log_wait_commit, waiting for a journal commit (tar, 11 kworker)",
 * "1 task in ? (dd)". */
void tasks_group_text(const struct tasks_group *g, char *buf, size_t len);

/* A snapshot's mono time as blocked_task_seconds() and tasks_blocked_groups() take it. */
static inline uint64_t tasks_mono_ns(const struct timespec *mono)
{
	return mono->tv_sec < 0 ? 0 : (uint64_t)mono->tv_sec * 1000000000u + (uint64_t)mono->tv_nsec;
}

/* What every view says once when a figure is missing, and how to get it. */
extern const char tasks_delayacct_note[];    /* delay accounting off: no iodelay */
extern const char tasks_stack_note[];        /* no CAP_SYS_ADMIN: no stacks */
extern const char tasks_attribution_note[];  /* not root: others' tasks not attributed */

#endif
