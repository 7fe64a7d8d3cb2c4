/* sampler.h - everything read from one tree (the live kernel or a fixture
 * root): descriptors kept open between samples, device descriptions cached
 * until the set of diskstats names changes.  The live source (live.c) adds
 * clocks and pacing on top.
 */
#ifndef IOSCOPE_SAMPLER_H
#define IOSCOPE_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>

#include "devices.h"
#include "error.h"
#include "partitions.h"
#include "procfile.h"
#include "snapshot.h"
#include "sysfs.h"
#include "vmsource.h"
#include "why_sampler.h"

struct tracked_device {
	struct device_info info;
	bool has_sysfs;
	struct sysfs_disk sysfs;
};

/* Live, a disk's knobs (KNOB_CADENCE_KNOB: docs/sources.md) are read every 5 s, and at once
 * after a scheduler switch or a uevent of a loop device: they change rarely, and
 * reading them every sample would double its cost (docs/performance.md). */
#define SAMPLER_KNOB_PERIOD_NS 5000000000ull
/* The named devices that read their knobs every sample (a selection's size). */
#define SAMPLER_WATCHED_MAX 32

struct sampler {
	char *prefix;                  /* NULL: the live kernel */
	struct procfile diskstats, mountinfo;
	char *mount_text;              /* the table last parsed (re-read every sample) */
	size_t mount_text_len;
	struct vm_reader vm;
	struct why_sampler why;
	struct device_catalog catalog;
	struct partition_list media;   /* live: opened and read only where there are loop
					  devices (sampler.c, read_media) */
	struct tracked_device *tracked;
	size_t ntracked;
	bool rescan;                   /* describe devices again before the next fill */
	bool mounts_stale;             /* parse mountinfo / resolve disks again */
	struct snapshot mtab;          /* every mount (only the mounts array is used; the tasks
					  sampler attributes files with it too) */
	struct mount *kept;            /* mounts on block devices, disk resolved */
	size_t nkept;
	uint64_t rescans;              /* how many times devices were described (tests) */
	uint64_t generations;          /* last disk_settings.generation handed out */
	/* /proc/diskstats lines read with fewer fields than they had (a newer
	 * kernel), and lines skipped as malformed, over all samples: for a
	 * diagnostic (--verbose), never fatal. */
	uint64_t diskstats_extra_lines, diskstats_malformed_lines;
	/* The disks a session shows or follows: their knobs are read every sample, so that a
	 * change made by hand is an event of the sample that first sees it (a dip's cause, not
	 * a setting changed "into the dip").  The 5 s cadence stays for the rest. */
	char watched[SAMPLER_WATCHED_MAX][DEV_NAME_MAX];
	size_t nwatched;
	char followed[DEV_NAME_MAX];
};

/* Open what the tree has.  /proc/diskstats is required; everything else may
 * be absent (its figures are then missing).  On error the sampler is closed. */
int sampler_open(struct sampler *s, const char *prefix, struct error *err);
/* Fill devices, mounts and vm of *out (times and seq are the caller's). */
int sampler_sample(struct sampler *s, struct snapshot *out, struct error *err);
void sampler_close(struct sampler *s);
/* The next sample reads every setting of disk (knobs included: ioscope changed one). */
void sampler_settings_changed(struct sampler *s, const char *disk);
/* The devices the session shows (names[0..n), kernel names; a named partition stands for
 * its disk) and the one it follows ("" none): their disks read every knob every sample
 * from the next on, the others every SAMPLER_KNOB_PERIOD_NS.  Names past
 * SAMPLER_WATCHED_MAX are left on the cadence. */
void sampler_watch(struct sampler *s, const char (*names)[DEV_NAME_MAX], size_t n);
void sampler_follow(struct sampler *s, const char *disk);

#endif
