/* sysfs.h - a whole disk's I/O settings from /sys/block/NAME, re-read through
 * descriptors kept open between samples (pread at offset 0 re-reads a sysfs file):
 * the files of the knob table (knobs.h), on its cadences, and queue/iosched/.
 */
#ifndef IOSCOPE_SYSFS_H
#define IOSCOPE_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "snapshot.h"

#define SYSFS_ELEVATORS_SEEN 8

struct sysfs_file {
	int fd;
	char key[SETTING_KEY_MAX];   /* "nr_requests", "iosched.fifo_batch" ... */
	bool iosched;                /* a file of queue/iosched/: gone with its elevator */
	bool knob;                   /* read on the knob cadence (KNOB_CADENCE_KNOB) */
};

/* One disk's open settings files.  files[] is in key order, the order the snapshot
 * wants, so a sample never sorts. */
struct sysfs_disk {
	char *dir;                   /* ROOT/sys/block/NAME */
	bool kernel;                 /* the live sysfs: one openat a file, no check */
	bool opened;                 /* its files are open (after the first read with a medium) */
	bool skip_empty;             /* sysfs_disk_skip_empty */
	int scheduler_fd, rotational_fd, inflight_fd, size_fd;
	struct disk_settings last;   /* the last full read, for a disk with no medium */
	bool have_last;
	uint64_t *generations;       /* shared counter for disk_settings.generation; NULL: 0 */
	struct sysfs_file *files;
	size_t nfiles;
	char iosched_of[32];         /* scheduler whose queue/iosched files are open */
	struct {                     /* per elevator: tunables of its whole listing */
		char elevator[32];
		size_t ntunables;
	} seen[SYSFS_ELEVATORS_SEEN];
	size_t nseen;
	uint32_t recreations;        /* times the disk was found re-created (ENODEV) */
	/* The knob cadence: KNOB_CADENCE_KNOB files are read when knobs_due_ns (CLOCK_MONOTONIC)
	 * has passed, then every knob_period_ns; 0: every read.  Given between reads
	 * from the last full read's values. */
	uint64_t knob_period_ns, knob_first_ns, knobs_due_ns;
	bool reading_knobs;          /* this read reads them (due, or forced) */
	bool no_medium;              /* the last read found size 0 */
	bool known_empty;            /* sysfs_disk_known_empty: no medium, size unread */
};
/* True when ROOT/sys/block/NAME exists (whole disks; partitions have none). */
bool sysfs_is_disk(const char *root, const char *name);

/* The disk ROOT/sys/block/NAME (root NULL or "": the live sysfs).  Nothing is opened yet:
 * the first read opens what exists of its files; missing or unreadable ones are absent,
 * never an error.  -1 only on ENOMEM. */
int sysfs_disk_open(struct sysfs_disk *d, const char *root, const char *name, struct error *err);
/* The sampler's: a disk with no medium at its first read (size 0: a loop device with no
 * file, an unused zram) opens only its size and has no settings (has_settings false)
 * until it has a medium; its knobs are never read before.  One-off readers (show, set)
 * read every disk whole. */
void sysfs_disk_skip_empty(struct sysfs_disk *d);
/* The next read's: the caller knows the disk has no medium (a loop device
 * /proc/partitions leaves out, include/partitions.h), so its size is not read.  Given
 * before every read; false: read the size. */
static inline void sysfs_disk_known_empty(struct sysfs_disk *d, bool empty)
{
	d->known_empty = empty;
}
/* Fill *out (items array reused when its size fits).  Re-lists queue/iosched
 * when the active scheduler changed; re-opens everything when the disk was
 * re-created under the same name.  A disk whose size is 0 (a loop device with
 * nothing attached, an unused zram) can do no I/O: only its size is read, and
 * the settings of the last full read are given (none with sysfs_disk_skip_empty when
 * there was none), until it has a medium again.  -1 only on ENOMEM. */
int sysfs_disk_read(struct sysfs_disk *d, struct disk_settings *out, struct error *err);
void sysfs_disk_close(struct sysfs_disk *d);
/* Read the KNOB_CADENCE_KNOB files every period_ns, the first time first_ns after the first
 * read (spreading disks over the period); period 0: every read (the default). */
void sysfs_disk_knob_cadence(struct sysfs_disk *d, uint64_t period_ns, uint64_t first_ns);
/* The next read reads the knobs too (ioscope changed one). */
void sysfs_disk_knobs_now(struct sysfs_disk *d);
/* The next read lists the files again and reads them all: the device changed in a way
 * that may add or remove some (a loop device attached to another file). */
void sysfs_disk_read_all_next(struct sysfs_disk *d);

/* Pure value parsers (tests, fuzzing). */
/* Copy a value as the kernel printed it, trailing whitespace removed, control
 * bytes replaced by '?', truncated to outlen - 1.  Returns the length. */
size_t sysfs_parse_value(const char *buf, size_t len, char *out, size_t outlen);
/* "none [mq-deadline] kyber bfq" -> "mq-deadline"; a lone "none" -> "none".
 * 0, or -1 when no active scheduler can be told (active set to ""). */
int sysfs_parse_scheduler(const char *line, char *active, size_t len);
/* "       3        1\n" -> 3, 1.  0, or -1 when malformed. */
int sysfs_parse_inflight(const char *line, long *reads, long *writes);
/* "0" / "1" -> 0 / 1; -1 when malformed. */
int sysfs_parse_bool(const char *line);

#endif
