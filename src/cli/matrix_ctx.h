/* matrix_ctx.h - what the files of `ioscope matrix` share while it runs (matrix.h). */
#ifndef IOSCOPE_MATRIX_CTX_H
#define IOSCOPE_MATRIX_CTX_H

#include <limits.h>
#include <stdbool.h>
#include <time.h>

#include "control.h"
#include "control_experiment.h"
#include "matrix.h"
#include "matrix_status.h"
#include "session.h"

#define MATRIX_IOSCHED_MAX 14

/* Where --probe reads (matrix_probe.c). */
enum matrix_probe_place {
	MATRIX_PROBE_NONE,
	MATRIX_PROBE_FIXED,      /* started once: the device itself, or any path in remount mode */
	MATRIX_PROBE_IN_MOUNT,   /* under --mount with --mkfs/--fs: made after every mount */
};

/* A mark the command made during its run (`ioscope mark`), to cut the run into phases. */
struct matrix_mark {
	char label[MATRIX_PHASE_LABEL_MAX];
	struct timespec mono;
};

/* The device as the matrix found it, to put back. */
struct matrix_device_state {
	bool no_scheduler;              /* bio-based (zram, dm, md): no queue/scheduler at all */
	char sched[CONTROL_SCHED_NAME]; /* "none" when no_scheduler */
	char nr_requests[32];
	char iosched_keys[MATRIX_IOSCHED_MAX][SETTING_KEY_MAX];
	char iosched_values[MATRIX_IOSCHED_MAX][32];
	size_t niosched;
	bool mounted;                   /* remount mode: the filesystem at --mount */
	struct control_mount mount;     /* its options then */
};

/* The wait for a quiet device (matrix_quiet.c): what every sample taken meanwhile saw. */
struct matrix_quiet_watch {
	bool active;
	bool have_base;
	struct disk_counters base;      /* the device's counters at the last I/O seen */
	size_t base_probe;              /* m->probe_taken then: the probe's own reads since */
	struct timespec since;          /* that I/O's time (at first the wait's start) */
	bool moved, wrote;              /* I/O seen during the wait; some of it writes */
	char writers[MATRIX_WRITERS_MAX];   /* who was seen at it, ", " between */
};

struct matrix_ctx {
	const struct matrix_opts *o;
	struct matrix_result *r;
	char name[DEV_NAME_MAX];        /* the device's kernel name */
	char destroy_data_on[DEV_NAME_MAX];   /* --destroy-data-on's kernel name; "": none */
	struct control_mountpoint mount;   /* --mount, opened (include/control_experiment.h) */
	char prefix[PATH_MAX];          /* --out, absolute, for messages and the results */
	int out_dir;                    /* its directory, opened once: every file is made in it */
	char out_name[NAME_MAX + 1];    /* its last component: the files' names begin with it */
	struct matrix_device_state before;
	struct source *src;
	struct session *session;
	struct sink *log;               /* the run's recording, a sink of the session; NULL between runs */
	int sigfd;
	int stop_signal;                /* the signal that stops the matrix; 0: none */
	bool failed;                    /* a step failed: stop, restore, write what there is */
	bool mounted_by_us;             /* mkfs mode: our mount is on ctx->mount */
	const char *remounted;          /* remount mode: the option set applied now, or NULL */
	bool tty;                       /* progress as one updating line */
	struct timespec started;
	size_t runs_done, runs_planned;
	double run_seconds;             /* of the runs done, for the estimate */
	size_t cell, repeat;            /* where it is, 0-based */
	bool probe_on;
	double probe_interval;          /* now: --probe-interval, widened by a high load */
	enum matrix_probe_place probe_place;
	char probe_rel[PATH_MAX];       /* MATRIX_PROBE_IN_MOUNT: the directory under the mount */
	double *probe_us;               /* the probe's samples during the current run */
	size_t nprobe, probe_cap;
	size_t probe_taken;             /* every read the probe handed over, all along */
	struct matrix_quiet_watch quiet;
	/* the reads the verdicts are made of (matrix_probe.c): each filesystem's idle ones,
	 * and those of the runs of the current cell, pooled */
	double *idle_reads[MATRIX_MAX_FS];
	size_t nidle_reads[MATRIX_MAX_FS];
	double *cell_reads;
	size_t ncell_reads, cell_reads_cap;
	struct matrix_claim *claim;     /* its claim on the device (matrix_claim.c) */
	struct announce_listener *announce;   /* `ioscope mark` from the command, `set` */
	bool running;                   /* the command runs: its marks are kept */
	struct timespec run_exited;     /* the exit's time: the last phase ends there */
	struct matrix_mark marks[MATRIX_MAX_PHASES];
	size_t nmarks;
	uint64_t io_read_sectors, io_written_sectors;   /* the device's, at the start */
	bool io_started;
};

/* matrix_device.c */
/* The type the kernel mounted; it names a filesystem made by --mkfs or found mounted. */
void matrix_fs_found(struct matrix_fs *fs, const char *fstype);
/* A device argument (a kernel name, or a path reached as --mount is: a symlink root does
 * not own on the way refused) to its kernel name: a whole disk when whole, else a disk or
 * a partition (control_device_resolve, control_block_resolve).  0, or -1 with err. */
int matrix_device_resolve(const char *arg, bool whole, char *name, size_t len, struct error *err);
int matrix_device_save(struct matrix_ctx *m, struct error *err);
/* What the start refuses; with --mkfs made again before every mkfs and every mount. */
int matrix_device_checks(struct matrix_ctx *m, struct error *err);
void matrix_device_restore(struct matrix_ctx *m);
/* The steps of one run; 0 done, 1 the cell is refused (cell->refused), -1 failed. */
int matrix_step_filesystem(struct matrix_ctx *m, struct matrix_cell *c);
int matrix_step_scheduler(struct matrix_ctx *m, struct matrix_cell *c);
int matrix_step_cache(struct matrix_ctx *m, struct matrix_cell *c);
int matrix_step_unmount(struct matrix_ctx *m);
/* Remount mode, after a cell: its options undone. */
void matrix_options_undo(struct matrix_ctx *m);
/* A step as a mark (kind run, object "matrix") into the session and the run's log, and
 * to the consoles watching; its result is the progress (matrix_status.h). */
void matrix_mark(struct matrix_ctx *m, const char *step, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* After the last cell, or when the matrix stopped: the mark "end" (no run's log is open
 * then) that tells the consoles watching the matrix is done or interrupted. */
void matrix_mark_end(struct matrix_ctx *m);
/* A plan about to be applied: its changes expected by the session and announced
 * pending (control_pending_of). */
void matrix_control_pending(struct matrix_ctx *m, const struct control_plan *p);
/* A control result's events into the session; its lines on stderr when it failed. */
void matrix_control_events(struct matrix_ctx *m, const struct control_result *r);

/* matrix_claim.c: the file in the runtime directory that names the device's state while
 * a matrix changes it, so that the next matrix after a kill -9 says how to put it back. */
/* Reads an earlier matrix's claim on the device; -1 (err) when that matrix still runs. */
int matrix_claim_open(struct matrix_ctx *m, struct error *err);
/* After matrix_device_save: -1 (err) when an earlier matrix was killed and the device is
 * not as it found it; else the claim is ours (written when the directory allows). */
int matrix_claim_take(struct matrix_ctx *m, struct error *err);
/* After a refusal: how to put the device back as an earlier, killed matrix found it. */
void matrix_claim_advise(const struct matrix_ctx *m);
/* After the device is put back: our claim removed. */
void matrix_claim_release(struct matrix_ctx *m);
void matrix_claim_free(struct matrix_ctx *m);
/* matrix_probe.c: the probe, where it may be, and the idle baseline per filesystem. */
/* --probe checked against the mode (setup); 0, or -1 with err (bad usage). */
int matrix_probe_check(struct matrix_ctx *m, struct error *err);
/* A probe not on the filesystem under test: started once (open_session). */
void matrix_probe_open(struct matrix_ctx *m);
/* After a mount the matrix made: a probe under --mount started on it. */
void matrix_probe_mounted(struct matrix_ctx *m);
/* Before the unmount: that probe stopped (its working set keeps the mount busy). */
void matrix_probe_unmounting(struct matrix_ctx *m);
/* The probe's latency with no load on filesystem c->fs, once per filesystem. */
void matrix_probe_baseline(struct matrix_ctx *m, const struct matrix_cell *c);
/* The reads behind the probe's intervals and verdicts.  A cell begins
 * with none; each run that exited 0 adds its own and the cell's figures are made again
 * (matrix_cell_probe); freed at the end. */
void matrix_probe_cell_start(struct matrix_ctx *m);
void matrix_probe_run_reads(struct matrix_ctx *m, struct matrix_cell *c);
void matrix_probe_free(struct matrix_ctx *m);

/* matrix_io.c: what a run moved on the device, and the phases its marks cut. */
/* A sample right before the command starts, its counters kept. */
void matrix_io_begin(struct matrix_ctx *m);
/* After the exit's sample: run's read_MB, written_MB and phases. */
void matrix_io_end(struct matrix_ctx *m, struct matrix_run *run);

/* matrix_quiet.c: a quiet device before each measurement. */
/* What one wait found. */
struct matrix_quiet {
	double waited_s;                /* NAN: no wait (--quiet-timeout 0) */
	bool busy;                      /* never quiet for MATRIX_QUIET_SECONDS in the time */
	char writers[MATRIX_WRITERS_MAX];
};
/* Waits, sampling with the tasks on, until the device has had no I/O but the probe's for
 * MATRIX_QUIET_SECONDS, and no kernel thread that works for filesystems of fstype (the
 * type mounted; NULL: none known) without naming them is left, or --quiet-timeout has passed; marks the step "quiet" and says on
 * stderr what was waited for.  0, or -1 when a signal or a failure stops the matrix. */
int matrix_quiet_wait(struct matrix_ctx *m, const char *fstype, struct matrix_quiet *q);
/* After each sample: what it saw of the device and of the tasks at work on it. */
void matrix_quiet_observe(struct matrix_ctx *m);

/* matrix_exec.c: the runner. */
/* One run of the command, sampled and recorded meanwhile; run filled.  0 done (any
 * exit status), -1 stopped (signal) or failed (m->failed). */
int matrix_exec_run(struct matrix_ctx *m, const struct matrix_cell *c, struct matrix_run *run);
/* The write-back after the run: syncfs of the mount, timed. */
int matrix_exec_sync(struct matrix_ctx *m, struct matrix_run *run);
/* Keep sampling for `seconds` (the idle probe). */
int matrix_exec_idle(struct matrix_ctx *m, double seconds);
/* One sample now (the step that ends or begins a phase), outside the timer. */
void matrix_exec_sample(struct matrix_ctx *m);
/* Where it stands (cell, repeat, elapsed, the estimate of the time left). */
void matrix_status_of(const struct matrix_ctx *m, enum matrix_state state, struct matrix_status *s);
/* That as the progress line on stderr (one updating line on a terminal). */
void matrix_progress(struct matrix_ctx *m, bool done);
/* SIGINT, SIGTERM, SIGHUP blocked and read from m->sigfd; -1 on failure. */
int matrix_exec_signals(struct matrix_ctx *m);

#endif
