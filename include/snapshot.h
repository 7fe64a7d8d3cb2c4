/* snapshot.h - one sample of everything ioscope watches: raw counters and settings.
 *
 * A snapshot holds only what the kernel said (counters, strings); nothing here is
 * derived.  Rates come from two snapshots (rates.h), events from comparing their
 * settings (events.h).  Live sampling, fixture trees and replayed session logs all
 * produce this same structure, so everything downstream is blind to the origin.
 */
#ifndef IOSCOPE_SNAPSHOT_H
#define IOSCOPE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tasks.h"
struct trace_sample;

#define DEV_NAME_MAX 64      /* kernel block names are at most 32; dm names longer */
#define SETTING_KEY_MAX 64
#define SETTING_VAL_MAX 160
#define SCHED_LINE_MAX 160
#define MOUNT_PATH_MAX 512
#define MOUNT_OPTS_MAX 1024

/* The fields of one /proc/diskstats line.  nfields tells which kernel layout
 * produced it: 14 (before 4.18), 18 (+discard, 4.18+), 20 (+flush, 5.5+).  Fields
 * a layout lacks stay 0 and the has_* flags say they are absent. */
struct disk_counters {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue;
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks;
	uint64_t fl_ios, fl_ticks;
	int nfields;
};

#define DISKSTATS_LAYOUT_DISCARD 18
#define DISKSTATS_LAYOUT_FLUSH   20
static inline bool counters_have_discard(const struct disk_counters *c)
{
	return c->nfields >= DISKSTATS_LAYOUT_DISCARD;
}
static inline bool counters_have_flush(const struct disk_counters *c)
{
	return c->nfields >= DISKSTATS_LAYOUT_FLUSH;
}

struct setting {
	char key[SETTING_KEY_MAX];    /* e.g. "nr_requests", "iosched.fifo_batch" */
	char value[SETTING_VAL_MAX];  /* as the kernel printed it, trailing newline removed */
};

/* Settings of a whole disk, from /sys/block/NAME/queue and friends.  Partitions
 * have none (has_settings false). */
struct disk_settings {
	bool has_settings;
	char scheduler_line[SCHED_LINE_MAX]; /* "none [mq-deadline] kyber bfq" */
	char scheduler[32];                  /* "mq-deadline", or "none" */
	int rotational;                      /* -1 when unknown */
	long inflight_read, inflight_write;  /* /sys/block/NAME/inflight; -1 unknown */
	struct setting *items;               /* nr_requests, read_ahead_kb, max_sectors_kb,
					        write_cache, iosched.* - sorted by key */
	size_t nitems;
	/* Equal non-zero generations mean equal scheduler, rotational and items (the
	 * gauges aside): the live source gives each new content a new number, so a
	 * sample's diff and copies skip what did not change.  0: unknown, compare. */
	uint64_t generation;
};

/* What a loop device reads and writes: /sys/block/loopN/loop/ and the backing file's
 * st_dev (docs/sources.md).  present false: not a loop device, or nothing attached. */
struct loop_backing {
	bool present;
	char file[MOUNT_PATH_MAX];     /* backing_file, as the kernel prints it */
	unsigned major, minor;         /* st_dev of the file (btrfs: anonymous 0:N); 0:0 unknown */
	char disk[DEV_NAME_MAX];       /* kernel name of the block device st_dev is, "" if none */
	int dio;                       /* loop/dio: 1 direct I/O, 0 through the page cache, -1 ? */
	uint64_t offset, sizelimit;    /* bytes; sizelimit 0: the whole file */
};

struct device {
	char name[DEV_NAME_MAX];       /* kernel name: loop0, vda1, dm-0 */
	unsigned major, minor;
	bool is_partition;
	char parent[DEV_NAME_MAX];     /* whole disk of a partition, "" for disks */
	char dm_name[DEV_NAME_MAX];    /* /sys/block/dm-N/dm/name, "" otherwise */
	char model[64], serial[64];    /* when known (udev or sysfs), else "" */
	struct disk_counters counters;
	struct disk_settings settings;
	/* Bumped by the live source when it finds the disk re-created under the same
	 * name (its sysfs files gone): a change between two snapshots means the
	 * counters start again.  0 in fixtures and replays. */
	uint32_t instance;
	struct loop_backing loop;      /* loop devices: the backing chain */
};

struct mount {
	unsigned id;                    /* mountinfo's mount id, as fdinfo's mnt_id names it
					   (0 in a replay: session logs do not keep it) */
	unsigned major, minor;          /* as mountinfo says (btrfs: anonymous 0:N) */
	char disk[DEV_NAME_MAX];        /* the block device's kernel name, "" if none */
	char source[MOUNT_PATH_MAX];
	char mountpoint[MOUNT_PATH_MAX];
	char fstype[32];
	char mount_opts[MOUNT_OPTS_MAX];  /* per-mount: rw,nosuid,relatime */
	char super_opts[MOUNT_OPTS_MAX];  /* superblock: rw,commit=5,data=ordered */
	bool cut;                       /* source or options longer than their field, cut
					   there: only the attribution of files may use it */
};

/* System-wide figures, raw, as the kernel counts them. */
struct vm_counters {
	/* /proc/stat */
	uint64_t cpu_user, cpu_nice, cpu_system, cpu_idle, cpu_iowait;
	uint64_t cpu_irq, cpu_softirq, cpu_steal, cpu_guest, cpu_guest_nice;
	uint64_t intr, ctxt;
	uint64_t procs_running, procs_blocked;
	/* /proc/vmstat */
	uint64_t pgpgin, pgpgout, pswpin, pswpout;
	/* /proc/meminfo, kB */
	uint64_t mem_free, buffers, cached, sreclaimable, swap_total, swap_free;
	uint64_t dirty, writeback;
	bool have_stat, have_vmstat, have_meminfo;
	/* /proc/pressure/io */
	bool have_psi;
	double psi_some_avg10, psi_full_avg10;
	uint64_t psi_some_total, psi_full_total; /* microseconds */
};

struct why_sample;   /* why.h */
struct probe_samples;

struct snapshot {
	struct timespec mono;     /* CLOCK_MONOTONIC when sampled (or fixture uptime) */
	struct timespec wall;     /* CLOCK_REALTIME when sampled */
	uint64_t seq;             /* 1-based sample number within the run */
	struct device *devices;   /* in /proc/diskstats order */
	size_t ndevices;
	struct mount *mounts;
	size_t nmounts;
	struct vm_counters vm;
	struct tasks_sample *tasks; /* blocked tasks, per-process I/O (tasks.h); NULL: not
				       sampled (no --tasks, why pane off) */
	struct why_sample *why;   /* dirty limits, journals, cgroup io (why.h); NULL: none */
	/* the responsiveness probe's samples of the interval (include/probe.h); NULL: no probe */
	struct probe_samples *probe;
	struct trace_sample *trace;  /* the eBPF view's interval (trace.h); NULL: not traced */
};

void snapshot_init(struct snapshot *s);
void snapshot_free(struct snapshot *s);           /* frees contents, leaves s empty */
int snapshot_copy(struct snapshot *dst, const struct snapshot *src); /* deep; -1 ENOMEM */
void snapshot_swap(struct snapshot *a, struct snapshot *b);
/* Replaces the trace (freeing the old one); t (malloc'ed, or NULL) is owned from now on. */
void snapshot_set_trace(struct snapshot *s, struct trace_sample *t);

/* Append a blank device / mount, growing the arrays; NULL on ENOMEM.  The arrays'
 * capacity is implied by their count: snapshot_capacity(n) elements, which is what
 * anyone who allocates them directly must allocate. */
size_t snapshot_capacity(size_t count);
struct device *snapshot_add_device(struct snapshot *s);
struct mount *snapshot_add_mount(struct snapshot *s);

const struct device *snapshot_find_device(const struct snapshot *s, const char *name);
/* name is disk itself or one of its partitions. */
bool snapshot_on_disk(const struct snapshot *s, const char *name, const char *disk);
/* Value of a setting, or NULL. */
const char *device_setting(const struct device *d, const char *key);
/* Where a setting comes from, to group settings where people read them: the queue's
 * (no prefix), its scheduler's, the bdi's dirty limits, a loop device's. */
enum setting_group { SETTING_QUEUE, SETTING_IOSCHED, SETTING_BDI, SETTING_LOOP, SETTING_GROUPS };
enum setting_group setting_group_of(const char *key);
const char *setting_group_prefix(enum setting_group g);   /* "", "iosched.", "bdi.", "loop." */
/* Same scheduler, rotational and items (the in-flight gauges aside). */
bool disk_settings_equal(const struct disk_settings *a, const struct disk_settings *b);
/* Replace the settings list (deep copy); -1 on ENOMEM. */
int device_set_settings(struct device *d, const struct setting *items, size_t n);

double timespec_seconds(const struct timespec *t);
double timespec_diff(const struct timespec *later, const struct timespec *earlier);

#endif
