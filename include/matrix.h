/* matrix.h - `ioscope matrix`: one command run under every filesystem x scheduler x
 * mount-option set x cache state of a device, repeated, watched and recorded
 * (docs/experiments.md).
 *
 *   matrix_options.c  the command line, checked before anything is touched
 *   matrix.c          the experiment: cells, repeats, restoring the device, outputs
 *   matrix_device.c   the device's state before (to put back) and the per-run steps
 *   matrix_exec.c     the runner: one command as a child, sampled and recorded meanwhile
 *   matrix_stats.c    mean, sd, noise, ratios, fio's JSON
 *   matrix_output.c   PREFIX.txt, .csv, .json;  matrix_plot.c  PREFIX.png
 */
#ifndef IOSCOPE_MATRIX_H
#define IOSCOPE_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "replay.h"
#include "snapshot.h"

#define MATRIX_MAX_FS 6
#define MATRIX_FS_NAME_MAX 16
#define MATRIX_MAX_SCHEDS 8
#define MATRIX_MAX_OPTSETS 16
/* The cells of one matrix, every dimension multiplied (checked when parsed). */
#define MATRIX_MAX_CELLS (MATRIX_MAX_SCHEDS * MATRIX_MAX_OPTSETS * 2)
#define MATRIX_MAX_PHASES 6      /* a run cut by the command's own marks */
#define MATRIX_PHASE_LABEL_MAX 32
#define MATRIX_MAX_REPEAT 100
/* The bytes of every MB of the matrix (MB/s, read_MB, command_written_MB, fio's bandwidth):
 * MiB, as report and compare count them, so that one log's figures read the same in all
 * three (docs/experiments.md, "Units"). */
#define MATRIX_MB 1048576.0
#define MATRIX_SCHED_MAX 32
#define MATRIX_NOISY_COV 0.035   /* the Phoronix Test Suite's rule */
/* The probe's reads: 10 a second, so that a 10 s idle baseline is 100 reads and a 1 s run
 * has 10; its own reads keep the device busy well under 1 % of the time at that rate
 * (measured: docs/experiments.md, "The probe's own load"). */
#define MATRIX_PROBE_INTERVAL 0.1
#define MATRIX_PROBE_INTERVAL_MIN 0.1
#define MATRIX_PROBE_INTERVAL_MAX 10.0
/* Where the idle probe finds its own reads over MATRIX_PROBE_LOAD_MAX % of the device's
 * time (a slow device: the load is about the rate times a read's latency), the runs after
 * it probe at the interval that brings it to MATRIX_PROBE_LOAD_AIM %. */
#define MATRIX_PROBE_LOAD_MAX 1.0
#define MATRIX_PROBE_LOAD_AIM 0.8
/* The interval, in tenths of a second up to MATRIX_PROBE_INTERVAL_MAX, that brings a load
 * of load_pct % at interval to MATRIX_PROBE_LOAD_AIM; interval itself when the load is not
 * over MATRIX_PROBE_LOAD_MAX (or unknown). */
double matrix_probe_widened(double interval, double load_pct);
/* Before the idle probe and each run: the device is quiet once it has had no I/O (but the
 * probe's own reads) for MATRIX_QUIET_SECONDS, waited for at most --quiet-timeout. */
#define MATRIX_QUIET_SECONDS 1.0
/* ... and for longer than ext4lazyinit's random start delay (5 s) while it lives */
#define MATRIX_QUIET_LAZY_SECONDS 6.0
#define MATRIX_QUIET_TIMEOUT 30.0
#define MATRIX_QUIET_TIMEOUT_MAX 600.0
#define MATRIX_WRITERS_MAX 96

enum matrix_cache { MATRIX_COLD = 1, MATRIX_HOT = 2, MATRIX_BOTH = 3 };

/* A filesystem of the matrix: --fs NAME=CMD, or --mkfs CMD (its name then the type
 * found on the device), or in remount mode the one mounted. */
struct matrix_fs_opt {
	char name[MATRIX_FS_NAME_MAX];  /* "" until found (--mkfs, remount mode) */
	const char *mkfs;               /* NULL: remount mode */
};

struct matrix_opts {
	const char *device;             /* --device, as given */
	const char *mount;              /* --mount DIR */
	const char *mkfs;               /* --mkfs CMD; NULL: remount the existing filesystem */
	const char *destroy_data_on;    /* --destroy-data-on DEV */
	struct matrix_fs_opt fs[MATRIX_MAX_FS];   /* --fs, or the one --mkfs / remount */
	size_t nfs;                     /* at least 1 once parsed */
	bool fs_given;                  /* --fs (the outer dimension named) */
	char scheds[MATRIX_MAX_SCHEDS][MATRIX_SCHED_MAX];
	size_t nscheds;                 /* 0: the device's current scheduler */
	char optsets[MATRIX_MAX_OPTSETS][MOUNT_OPTS_MAX];   /* without a NAME: prefix */
	char optset_fs[MATRIX_MAX_OPTSETS][MATRIX_FS_NAME_MAX];   /* "": every filesystem */
	size_t noptsets;                /* at least 1: "defaults" */
	enum matrix_cache cache;
	int repeat, max_repeat;
	const char *probe;              /* --probe PATH */
	double probe_interval;          /* --probe-interval SEC */
	double quiet_timeout;           /* --quiet-timeout SEC; 0: no wait */
	const char *out;                /* --out PREFIX */
	bool has_baseline;              /* --baseline [FS:]SCHED:OPTS */
	const char *baseline_arg;
	char baseline_fs[MATRIX_FS_NAME_MAX];   /* "": the first filesystem */
	char baseline_sched[MATRIX_SCHED_MAX];
	char baseline_opts[MOUNT_OPTS_MAX];
	char **command;                 /* after --, NULL-terminated */
	int ncommand;
};

/* 0: parsed; 1: --help printed; -1: bad usage (err). */
int matrix_options_parse(struct matrix_opts *o, int argc, char **argv, struct error *err);
void matrix_usage(FILE *out);

/* A part of a run: from a mark the command made (`ioscope mark TEXT`) to the next
 * one or its exit. */
struct matrix_phase {
	char label[MATRIX_PHASE_LABEL_MAX];
	double seconds;
};

struct matrix_run {
	double elapsed_s;       /* start to exit */
	double writeback_s;     /* syncfs of the mount right after the exit */
	double read_MB, written_MB;   /* the device's diskstats from the start to the exit */
	double cmd_read_MB, cmd_written_MB;   /* /proc/PID/io of the command and its children */
	/* The device's bytes the command's own do not account for: I/O by threads outside
	 * it (read_MB + written_MB - the command's, each direction at least 0); NAN */
	double other_MB;
	/* The wait for a quiet device before the start (matrix_quiet.c): how long (NAN: no
	 * wait), whether it never came (the run started on a busy device), and what was seen
	 * doing I/O on the device meanwhile ("ext4lazyinit, jbd2/loop3-8"; "" nothing) */
	double quiet_wait_s;
	bool busy_start;
	char writers[MATRIX_WRITERS_MAX];
	double cpu_s;           /* user + system, rusage */
	double probe_p50_us, probe_p99_us;   /* NAN: no probe */
	size_t probe_reads;     /* the reads they are of */
	int exit;               /* exit status, 128 + N for signal N, -1 not run */
	int interrupted;        /* the signal that stopped the matrix during the run; 0: none */
	struct matrix_phase phases[MATRIX_MAX_PHASES];
	size_t nphases;
	char log[512];          /* the session log of this run */
	bool fio;               /* fio's JSON found on the command's output */
	double fio_bw_MBps, fio_iops, fio_clat_p99_us;
};

struct matrix_cell {
	size_t fs;                    /* index into matrix_result.fs */
	char sched[MATRIX_SCHED_MAX];
	char options[MOUNT_OPTS_MAX];
	enum matrix_cache cache;      /* MATRIX_COLD or MATRIX_HOT */
	char refused[256];            /* "" or the kernel's message */
	struct matrix_run runs[MATRIX_MAX_REPEAT];
	size_t nruns;
	double elapsed_mean_s, elapsed_sd_s;   /* NAN without runs */
	bool noisy;                   /* CoV still above MATRIX_NOISY_COV after max-repeat */
	/* The probe's reads of its runs that exited 0, pooled (matrix_probe_run_reads): how
	 * many, their p50 and p99 with 95 % intervals (NAN: no bound), and the rank test of
	 * them against the idle reads of the cell's filesystem (NAN: untested). */
	size_t probe_reads;
	double probe_p50_us, probe_p50_lo_us, probe_p50_hi_us;
	double probe_p99_us, probe_p99_lo_us, probe_p99_hi_us;
	double probe_idle_p;
};

/* A filesystem as the matrix ran it, with the probe's latency on it with no load. */
struct matrix_fs {
	char name[MATRIX_FS_NAME_MAX];
	char mkfs[256];               /* "" remount mode */
	char fstype[32];              /* what the kernel mounted; "" not yet */
	double idle_p50_us, idle_p99_us;   /* NAN: none */
	size_t idle_reads;            /* the reads they are of */
	double idle_quiet_wait_s;     /* the wait before them (as a run's); NAN: none */
	/* the device's busy time (diskstats io_ticks) over the idle probe's time, %: the
	 * probe's own load, nothing else running; NAN: not measured */
	double idle_busy_pct;
	bool idle_busy;               /* taken on a device that never went quiet */
	/* the probe's interval in the runs after this idle probe: --probe-interval, or longer
	 * when its load was over MATRIX_PROBE_LOAD_MAX; NAN: no idle probe */
	double run_probe_interval_s;
	char idle_writers[MATRIX_WRITERS_MAX];
	double idle_p50_lo_us, idle_p50_hi_us, idle_p99_lo_us, idle_p99_hi_us;   /* 95 %; NAN */
};

struct matrix_result {
	struct replay_machine machine;
	char device[DEV_NAME_MAX];
	char mount[MOUNT_PATH_MAX];
	struct matrix_fs fs[MATRIX_MAX_FS];
	size_t nfs;
	char command[1024];
	char tunables[512];           /* the device's queue settings, "nr_requests=64 ..." */
	struct matrix_cell cells[MATRIX_MAX_CELLS];
	size_t ncells;
	size_t baseline;              /* index of the baseline cell */
	char probe[256];              /* --probe as given; "" none */
	char status[256];             /* "" complete, else why it stopped */
};

/* Cells in order: filesystem, scheduler, option set (those of every filesystem and the
 * filesystem's own, as given), cold before hot.  r->fs from o->fs. */
void matrix_cells_plan(struct matrix_result *r, const struct matrix_opts *o,
		       const char *current_sched);
/* How many cells o makes (the options' check). */
size_t matrix_cells_count(const struct matrix_opts *o);
/* Whether option set i applies to filesystem fs. */
bool matrix_optset_applies(const struct matrix_opts *o, size_t i, const char *fs);

/* matrix_stats.c */
void matrix_cell_stats(struct matrix_cell *c);
bool matrix_cell_is_noisy(const struct matrix_cell *c);
double matrix_run_MBps(const struct matrix_run *run);
/* The device's MiB read and written during the run beyond the command's own (each
 * direction at least 0; the command's unknown counts as 0); NAN without the device's. */
double matrix_other_MB(const struct matrix_run *run);
/* Mean over the runs that exited 0 of the double at offset off of struct matrix_run
 * (NAN values left out); NAN when none. */
double matrix_cell_mean(const struct matrix_cell *c, size_t off);
#define MATRIX_CELL_MEAN(c, field) matrix_cell_mean(c, offsetof(struct matrix_run, field))
/* Runs that exited 0 / that a signal to the matrix interrupted. */
size_t matrix_cell_good_runs(const struct matrix_cell *c);
size_t matrix_cell_interrupted_runs(const struct matrix_cell *c);
/* The mean seconds of the phase labelled `label` over the good runs; NAN when none. */
double matrix_cell_phase_mean(const struct matrix_cell *c, const char *label);
/* "ext4 bfq noatime cold" */
void matrix_cell_name(const struct matrix_result *r, const struct matrix_cell *c, char *buf,
		      size_t len);
/* p-th percentile (0..100) of v[0..n) (sorted in place), NAN when n == 0. */
double matrix_percentile(double *v, size_t n, double p);
/* fio's --output-format=json at path (anything before the first '{' skipped): summed
 * bandwidth and IOPS, the worst clat p99.  0 when found, -1 when not fio JSON. */
int matrix_fio_parse(const char *path, struct matrix_run *run);
/* "cold"/"hot" */
const char *matrix_cache_name(enum matrix_cache c);

/* matrix_uncertainty.c: what a cell's figures are worth (docs/experiments.md,
 * "Uncertainty"). */
/* A figure over the runs of a cell that exited 0: its mean and half the width of its 95 %
 * confidence interval (Student's t; NAN under 2 runs), of n runs. */
struct matrix_ci {
	double mean, half;
	size_t n;
};
enum matrix_verdict {
	MATRIX_BASELINE,        /* the cell the ratios are to */
	MATRIX_DIFFERS,         /* the test says so at 5 % */
	MATRIX_WITHIN_NOISE,    /* it does not */
	MATRIX_UNTESTED,        /* fewer than 2 runs (reads) on a side, or no figure */
	MATRIX_TOO_FEW,         /* the intervals have no bound to compare: too few reads */
};
struct matrix_ratio {
	double value;           /* NAN: none */
	double p;               /* the test's two-sided p; NAN: none */
	enum matrix_verdict verdict;
};
struct matrix_cell_figures {
	struct matrix_ci elapsed, mbps, writeback;
	/* elapsed mean over the baseline cell's: Welch's t over both cells' runs */
	struct matrix_ratio ratio;
	/* the probe: the cell's p50 and p99 (of its pooled reads, else the runs' mean), and
	 * over the idle ones of its filesystem: p50x by the Mann-Whitney U test of the reads,
	 * p99x by whether the two 95 % intervals of the p99 are apart */
	double probe_p50_us, probe_p99_us;
	struct matrix_ratio p50x, p99x;
};
void matrix_cell_figures(const struct matrix_result *r, size_t i, struct matrix_cell_figures *f);
/* "differs", "within noise", "untested", "too few reads", "baseline" */
const char *matrix_verdict_name(enum matrix_verdict v);
/* The percentiles, their intervals and the rank test of a cell from its pooled reads
 * (sorted in place) and its filesystem's idle reads (NULL, 0: none). */
void matrix_cell_probe(struct matrix_cell *c, double *reads, size_t n, const double *idle,
		       size_t nidle);
/* The idle percentiles and their intervals of a filesystem from its reads (sorted in
 * place). */
void matrix_fs_idle(struct matrix_fs *fs, double *reads, size_t n);

/* matrix_output_ci.c: the intervals and verdicts in the results.  The text's tables of
 * them (after the cells'); a ratio's mark in the other tables (' ' differs or baseline,
 * '~' within noise, '?' untested); the CSV's columns of cell i (MATRIX_CSV_CI_HEADER);
 * the JSON's keys of cell i and of a filesystem's idle reads. */
struct json_object;
void matrix_text_uncertainty(FILE *out, const struct matrix_result *r);
char matrix_verdict_mark(enum matrix_verdict v);
#define MATRIX_CSV_CI_HEADER "elapsed_ci95_s,MBps_mean,MBps_ci95,writeback_mean_s," \
	"writeback_ci95_s,ratio,ratio_p,ratio_verdict,probe_reads,probe_cell_p50_us," \
	"probe_cell_p50_lo_us,probe_cell_p50_hi_us,probe_cell_p99_us,probe_cell_p99_lo_us," \
	"probe_cell_p99_hi_us,idle_probe_reads,idle_probe_p50_lo_us,idle_probe_p50_hi_us," \
	"idle_probe_p99_lo_us,idle_probe_p99_hi_us,p50x,p50x_p,p50x_verdict,p99x,p99x_p," \
	"p99x_verdict"
void matrix_csv_uncertainty(FILE *out, const struct matrix_result *r, size_t i);
void matrix_json_uncertainty(struct json_object *o, const struct matrix_result *r, size_t i);
void matrix_json_idle_uncertainty(struct json_object *o, const struct matrix_fs *fs);

/* matrix_output_quiet.c: the wait for a quiet device and the I/O of others.  Under a
 * cell, its runs that started on a busy device; the table of the device's MiB, the
 * command's and the rest ("other") per cell; the CSV's columns of a run
 * (MATRIX_CSV_QUIET_HEADER); the JSON's keys of a run and of a filesystem's idle probe. */
void matrix_text_busy(FILE *out, const struct matrix_result *r, const struct matrix_cell *c);
void matrix_text_moved(FILE *out, const struct matrix_result *r);
#define MATRIX_CSV_QUIET_HEADER "other_MB,quiet_wait_s,busy_start,quiet_writers,probe_run_reads"
void matrix_csv_quiet(FILE *out, const struct matrix_run *run);
void matrix_json_quiet(struct json_object *o, const struct matrix_run *run);
void matrix_json_idle_quiet(struct json_object *o, const struct matrix_fs *fs);
/* Under the probe's table: each filesystem's idle probe load ("ext4 0.4 % of loop3's
 * time, 100 reads"), flagged above 1 %. */
void matrix_text_probe_load(FILE *out, const struct matrix_result *r);

/* matrix_output.c: a figure of the JSON, three decimals as batch JSON writes them ("10.2",
 * not 10.199999999999999); NULL (null) when not finite. */
struct json_object *matrix_json_num(double v);
/* matrix_output.c: each 0 or -1 with err. */
int matrix_write_text(FILE *out, const struct matrix_result *r);
int matrix_write_csv(FILE *out, const struct matrix_result *r);
int matrix_write_json(FILE *out, const struct matrix_result *r);
/* matrix_plot.c: PREFIX.png, made as name in dirfd (path: for messages); -1 with err
 * (cairo missing says so). */
int matrix_write_png(int dirfd, const char *name, const char *path,
		     const struct matrix_result *r, struct error *err);
/* Every output of PREFIX, made in dirfd (PREFIX's directory, opened once) as base.txt,
 * base.csv...; the first failure in err, the others still tried. */
int matrix_write_outputs(int dirfd, const char *base, const char *prefix,
			 const struct matrix_result *r, struct error *err);

/* `ioscope matrix ...`; the exit status. */
int cmd_matrix(int argc, char **argv);

#endif
