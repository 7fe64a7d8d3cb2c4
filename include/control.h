/* control.h - the one audited module that changes kernel settings (docs/control.md).
 *
 * Every change goes  plan -> privilege check -> confirmation of the risks -> apply:
 *   control_plan_device / control_plan_remount validate every argument against what
 *     the kernel allows and read the current values; nothing is written yet, and an
 *     invalid argument anywhere leaves everything untouched;
 *   control_check_privilege says what is missing when the caller cannot change it;
 *   plan->risks lists the reasons a change needs a confirmation (the caller asks);
 *   control_apply writes, reads every value back and describes each change as a
 *     struct event (by "ioscope") plus human-readable lines (before -> after, the
 *     kernel's own messages).
 * control_job_* run control_apply on a worker thread: a scheduler switch freezes the
 * queue and can take seconds under load, the console's loop must not wait for it.
 */
#ifndef IOSCOPE_CONTROL_H
#define IOSCOPE_CONTROL_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"
#include "events.h"
#include "snapshot.h"

#define CONTROL_MAX_ITEMS 16 /* KEY=VALUE assignments, or mount options, per change */
#define CONTROL_MAX_RISKS 8
#define CONTROL_MAX_LINES 48
#define CONTROL_LINE_MAX 512
#define CONTROL_SCHED_MAX 8 /* schedulers a queue may list */
#define CONTROL_SCHED_NAME 32

enum control_target { CONTROL_DEVICE, CONTROL_MOUNT };

/* One validated write to a file below /sys/block/NAME (or LOOP_SET_DIRECT_IO). */
struct control_assign {
	char key[SETTING_KEY_MAX];   /* "scheduler", "nr_requests", "iosched.fifo_batch", ... */
	char value[SETTING_VAL_MAX]; /* exactly what will be written */
	char old[SETTING_VAL_MAX];   /* when planned; "" when the file does not exist yet */
	/* The setting the sampler sees change, whose event this is: key itself, but for a
	 * bdi limit the ratio the kernel keeps (bdi.max_bytes and bdi.max_ratio are
	 * bdi.max_ratio_fine where the kernel has it: docs/sources.md). */
	char watch[SETTING_KEY_MAX];
};

enum control_opt_scope {
	CONTROL_OPT_MOUNT, /* per-mount flag: mount_setattr */
	CONTROL_OPT_SUPER, /* filesystem option: fsconfig on the superblock */
	CONTROL_OPT_BOTH,  /* ro / rw: the superblock and the mount, as mount(8) does */
};

/* One token of a remount OPTIONS list, resolved to what is sent to the kernel. */
struct control_mount_opt {
	char text[128];  /* as given: "+noatime", "-nosuid", "commit=30" */
	char key[64];    /* sent or checked: "noatime", "suid", "commit" */
	char value[256]; /* for key=value */
	bool has_value;
	enum control_opt_scope scope;
	unsigned attr_set, attr_clr; /* MOUNT_ATTR_* bits, per-mount scope */
};

/* A mount as /proc/self/mountinfo describes it, with the id that pins it. */
struct control_mount {
	int id;
	unsigned major, minor;
	char mountpoint[MOUNT_PATH_MAX];
	char fstype[32];
	char source[MOUNT_PATH_MAX];
	char mount_opts[MOUNT_OPTS_MAX];
	char super_opts[MOUNT_OPTS_MAX];
};

struct control_plan {
	enum control_target target;
	char root[256]; /* --root fixture tree, "" for the live system */
	/* CONTROL_DEVICE */
	char device[DEV_NAME_MAX];                      /* validated kernel name of a whole disk */
	struct control_assign items[CONTROL_MAX_ITEMS]; /* in the order they are written */
	size_t nitems;
	/* CONTROL_MOUNT */
	struct control_mount mount; /* as planned (before) */
	struct control_mount_opt opts[CONTROL_MAX_ITEMS];
	size_t nopts;
	/* both: why a confirmation is needed; empty when none is */
	char risks[CONTROL_MAX_RISKS][256];
	size_t nrisks;
};

struct control_result {
	int status; /* 0: every change applied; 1: refused or not applied (see lines) */
	struct event events[CONTROL_MAX_ITEMS + 2];
	size_t nevents;
	char lines[CONTROL_MAX_LINES][CONTROL_LINE_MAX];
	size_t nlines;
};

/* ---- The API the CLI and the console call. ---- */

/* device: a kernel name (loop0) or a /dev path (/dev/loop0) of a whole disk;
 * assignments: "KEY=VALUE" strings.  root: NULL or "" for the live system.
 * 0: planned; -1: invalid (bad usage, err says why; nothing was written). */
int control_plan_device(struct control_plan *p, const char *root, const char *device,
			char *const *assignments, size_t n, struct error *err);
/* options: comma list of `opt`, `+opt`, `-opt`, `opt=value`. */
int control_plan_remount(struct control_plan *p, const char *mountpoint, const char *options,
			 struct error *err);
/* 0 when the caller may make the change, else -1 and err says what is needed. */
int control_check_privilege(const struct control_plan *p, struct error *err);
/* Performs the plan synchronously; fills *r (events stamped now) and returns r->status.
 * Stops at the first write the kernel refuses; everything before it stays applied and
 * is reported.  Takes seconds when a busy queue switches its scheduler. */
int control_apply(const struct control_plan *p, struct control_result *r);
/* The changes a plan is about to make, as ioscope's events without a result (stamped
 * now), for announce_pending and session_expect_event: sent before control_apply, so
 * that a sample read while it writes holds what it sees of them (expect.h). */
struct control_pending {
	struct event events[CONTROL_MAX_ITEMS];
	size_t n;
};
void control_pending_of(const struct control_plan *p, struct control_pending *out);
void control_pending_free(struct control_pending *pending);
/* Leave in *pending only what r made no event of (event_answers): what the sender
 * withdraws once it has announced r's events. */
void control_pending_unanswered(struct control_pending *pending, const struct control_result *r);
/* "loop0: scheduler=bfq nr_requests=64", "remount /mnt: noatime,commit=30" */
void control_plan_describe(const struct control_plan *p, char *buf, size_t len);

/* Off the main loop: control_job_start copies the plan and runs control_apply on a
 * worker thread.  control_job_fd becomes readable when it is done; then
 * control_job_finish joins the thread, frees the job and returns the result (the
 * caller frees it with free(); NULL only on ENOMEM).  A job must be finished even
 * when its result is not wanted. */
struct control_job;
struct control_job *control_job_start(const struct control_plan *p, struct error *err);
int control_job_fd(const struct control_job *job);
const struct control_plan *control_job_plan(const struct control_job *job);
struct control_result *control_job_finish(struct control_job *job);

/* For pickers: the names in a queue/scheduler line ("none [mq-deadline] kyber bfq");
 * *current gets the bracketed one's index (-1 if none).  Returns how many. */
size_t control_scheduler_names(const char *line, char names[][CONTROL_SCHED_NAME], size_t max,
			       int *current);
/* "scheduler, nr_requests, ..., iosched.NAME, ..., loop.dio": the keys set accepts, the
 * writable rows of the knob table (knobs.h), in its order. */
void control_keys_list(char *buf, size_t len);
/* Options known to be accepted on remount by fstype ("" or unknown: the generic
 * ones), NULL-terminated; for completion only - any option may be tried. */
const char *const *control_mount_option_names(const char *fstype);

/* `ioscope show DEVICE|MOUNTPOINT` to out; returns the exit status. */
int control_cli_show(FILE *out, const char *root, const char *arg);

/* ---- Building blocks, shared by the files of src/control and the unit tests. ---- */

/* Kernel block names: [A-Za-z0-9_-], starting with a letter or digit, < 32 bytes. */
bool control_name_valid(const char *name);
/* The whole disk a kernel name belongs to: itself for a disk, the parent for a
 * partition (*is_partition set true); -1 when neither exists under ROOT/sys/block. */
int control_disk_of(const char *root, const char *name, char *disk, size_t len, bool *is_partition);
/* The validated kernel name of the block device numbered rdev (/sys/dev/block/MAJ:MIN). */
int control_block_name(dev_t rdev, char *name, size_t len, struct error *err);
/* A device argument (name or /dev path) to the validated kernel name of a disk or a
 * partition (*is_partition). */
int control_block_resolve(const char *root, const char *arg, char *name, size_t len,
			  bool *is_partition, struct error *err);
/* A device argument (name or /dev path) to a validated whole-disk kernel name. */
int control_device_resolve(const char *root, const char *arg, char *name, size_t len,
			   struct error *err);

/* An open /sys/block/NAME: every file below it is opened without following symlinks. */
struct control_dev {
	int dirfd;
	int bdifd;                 /* its bdi/ (the kernel's link, followed once); -1: none */
	char name[DEV_NAME_MAX];
	char path[MOUNT_PATH_MAX]; /* ROOT/sys/block/NAME, for messages */
};
int control_dev_open(struct control_dev *d, const char *root, const char *name, struct error *err);
void control_dev_close(struct control_dev *d);
/* rel below the device dir, e.g. "queue/scheduler"; trailing newline removed. */
int control_dev_read(const struct control_dev *d, const char *rel, char *buf, size_t len,
		     struct error *err);
/* One write(2) of value.  -1 with errno preserved and err = "PATH: strerror". */
int control_dev_write(const struct control_dev *d, const char *rel, const char *value,
		      struct error *err);
bool control_dev_exists(const struct control_dev *d, const char *rel);
/* The caller may write rel (faccessat W_OK with the effective ids). */
bool control_dev_writable(const struct control_dev *d, const char *rel);

/* What the kernel allows for the queue tunables of one device. */
struct control_limits {
	char schedulers[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME];
	size_t nschedulers;
	char scheduler[CONTROL_SCHED_NAME];        /* current */
	char target_scheduler[CONTROL_SCHED_NAME]; /* after this change */
	long queue_depth;       /* tag set depth: nr_requests max with none; -1 unknown */
	long max_hw_sectors_kb; /* -1 unknown */
	long page_kb;
	/* The bdi's dirty limits in millionths of the dirty limit (the *_ratio_fine files, or
	 * the whole percent x 10000 where the kernel has only those); -1: no such file. */
	bool bdi_fine;          /* the kernel has the fine ratios, bdi/max_ratio_fine (6.2+) */
	long bdi_min, bdi_max;
	long bdi_min_others;    /* every other bdi's minimum added up; -1 unknown */
};

/* A disk's own dirty limits (src/control/bdi_limits.c). */
/* Its limits now and the other devices' minimums into lim (root: a --root tree). */
void control_bdi_limits_read(const struct control_dev *d, const char *root,
			     struct control_limits *lim);
/* The setting the sampler sees change when key is written: the ratio the kernel keeps
 * for a bdi limit (docs/sources.md), else key itself. */
void control_bdi_watch(const struct control_limits *lim, const char *key, char *watch,
		       size_t len);
/* The plan's limits together: the minimum not above the maximum, all devices'
 * minimums under 100 %.  -1 with the reason. */
int control_bdi_check(const struct control_plan *p, const struct control_limits *lim,
		      struct error *err);
/* Orders the plan's minimum and maximum so that no write meets a state the kernel
 * refuses (the minimum first when the new maximum is below the minimum now). */
void control_bdi_order(struct control_plan *p, const struct control_limits *lim);

/* Parse "KEY=VALUE" into key and value; -1 on syntax errors and unknown keys. */
int control_assignment_split(const char *arg, char *key, size_t klen, char *value, size_t vlen,
			     struct error *err);
/* Validate value for key under lim, by the kind of value its row of the knob table says,
 * and write the exact text to send into out (write_cache spellings are normalised).  -1
 * with a message naming the allowed range. */
int control_value_check(const struct control_limits *lim, const char *key, const char *value,
			char *out, size_t outlen, struct error *err);

/* LOOP_SET_DIRECT_IO with value "1" or "0" on the verified /dev/NAME
 * (src/control/loop_dio.c).  -1 with errno preserved and err. */
int control_loop_set_dio(const struct control_dev *d, const char *root, const char *value,
			 struct error *err);

/* control_apply for each target. */
enum event_kind control_key_kind(const char *key);   /* of a queue setting's change */
int control_apply_device(const struct control_plan *p, struct control_result *r);
int control_apply_remount(const struct control_plan *p, struct control_result *r);

/* Remount option lists (pure string logic). */
int control_mount_opts_parse(struct control_mount_opt *opts, size_t max, size_t *n,
			     const char *text, const char *super_opts, struct error *err);
/* Completion for an options editor: see src/control/mountopts.c. */
size_t control_mount_opts_complete(char *text, size_t len, const char *const *names,
				   char *candidates, size_t clen);
/* Find option key in a comma list: returns true and copies its value ("" for a flag). */
bool control_opts_find(const char *list, const char *key, char *value, size_t len);

enum control_verdict {
	CONTROL_APPLIED,     /* mountinfo shows it now */
	CONTROL_ALREADY,     /* it was already so */
	CONTROL_HIDDEN,      /* mountinfo shows neither before nor after: a default it omits */
	CONTROL_NOT_APPLIED, /* accepted, but mountinfo shows the old state */
};
enum control_verdict control_mount_opt_verdict(const struct control_mount_opt *o,
					       const char *fstype,
					       const struct control_mount *before,
					       const struct control_mount *after);
const char *control_verdict_text(enum control_verdict v);

/* /proc/self/mountinfo (or ROOT/proc/self/mountinfo): the mount with this id, or the
 * top mount at this mount point (id < 0). */
int control_mount_find(const char *root, int id, const char *mountpoint, struct control_mount *out,
		       struct error *err);
/* The id of the mount whose root fd is (statx STATX_MNT_ID); -1 with err ("PATH: not a
 * mount point") when fd is not a mount's root. */
int control_mount_root_id(int fd, const char *path, int *id, struct error *err);
/* Every mount, in mountinfo order; *out is malloc'ed (free it). */
int control_mounts_read(const char *root, struct control_mount **out, size_t *n, struct error *err);
/* The kernel name of the device behind a mount (by device number, else its /dev
 * source); false when it has none (tmpfs, nfs...). */
bool control_mount_device(const char *root, const struct control_mount *m, char *name, size_t len);
/* Parse one mountinfo line; -1 when malformed. */
int control_mountinfo_parse_line(const char *line, struct control_mount *m);

/* Risk checks; each appends reasons to p->risks. */
void control_risks_device(struct control_plan *p);
void control_risks_mount(struct control_plan *p);
void control_add_risk(struct control_plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Capture of what the kernel log gained during a call. */
struct control_kmsg {
	int fd; /* -1 when /dev/kmsg cannot be read (not fatal) */
};
void control_kmsg_begin(struct control_kmsg *k);
/* Appends the messages about device (or about fstype without a device) to r->lines,
 * prefixed "kernel: ", and the most severe one to msg (may be NULL). Closes k. */
void control_kmsg_end(struct control_kmsg *k, const char *device, const char *fstype,
		      struct control_result *r, char *msg, size_t len);

/* Result helpers. */
void control_result_init(struct control_result *r);
/* Release an allocated result and what its events own; NULL is fine. */
void control_result_free(struct control_result *r);
void control_result_line(struct control_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The kernel's messages of a filesystem context (fsopen/fsconfig), "e ext4: Unknown
 * parameter 'x'", into r as "kernel: ..." lines; the first error also into msg. */
void control_fs_context_log(int fsfd, struct control_result *r, char *msg, size_t len);
/* Move lines [from, to) after the ones that follow them. */
void control_result_lines_to_end(struct control_result *r, size_t from, size_t to);
struct event *control_result_event(struct control_result *r, enum event_kind kind,
				   const char *object, const char *key);

#endif
