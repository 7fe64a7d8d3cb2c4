/* matrix.h - `ioscope matrix`: one command run under every scheduler x mount-option set
 * x cache state of a device, repeated, watched and recorded (docs/experiments.md).
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

#define MATRIX_MAX_SCHEDS 8
#define MATRIX_MAX_OPTSETS 16
#define MATRIX_MAX_CELLS (MATRIX_MAX_SCHEDS * MATRIX_MAX_OPTSETS * 2)
#define MATRIX_MAX_REPEAT 100
#define MATRIX_SCHED_MAX 32
#define MATRIX_NOISY_COV 0.035   /* the Phoronix Test Suite's rule */

enum matrix_cache { MATRIX_COLD = 1, MATRIX_HOT = 2, MATRIX_BOTH = 3 };

struct matrix_opts {
	const char *device;             /* --device, as given */
	const char *mount;              /* --mount DIR */
	const char *mkfs;               /* --mkfs CMD; NULL: remount the existing filesystem */
	const char *destroy_data_on;    /* --destroy-data-on DEV */
	char scheds[MATRIX_MAX_SCHEDS][MATRIX_SCHED_MAX];
	size_t nscheds;                 /* 0: the device's current scheduler */
	char optsets[MATRIX_MAX_OPTSETS][MOUNT_OPTS_MAX];
	size_t noptsets;                /* at least 1: "defaults" */
	enum matrix_cache cache;
	int repeat, max_repeat;
	const char *probe;              /* --probe PATH */
	const char *out;                /* --out PREFIX */
	bool has_baseline;              /* --baseline SCHED:OPTS */
	char baseline_sched[MATRIX_SCHED_MAX];
	char baseline_opts[MOUNT_OPTS_MAX];
	char **command;                 /* after --, NULL-terminated */
	int ncommand;
};

/* 0: parsed; 1: --help printed; -1: bad usage (err). */
int matrix_options_parse(struct matrix_opts *o, int argc, char **argv, struct error *err);
void matrix_usage(FILE *out);

struct matrix_run {
	double elapsed_s;       /* start to exit */
	double writeback_s;     /* syncfs of the mount right after the exit */
	double read_MB, written_MB;   /* /proc/PID/io of the command and its children */
	double cpu_s;           /* user + system, rusage */
	double probe_p50_us, probe_p99_us;   /* NAN: no probe */
	int exit;               /* exit status, 128 + N for signal N, -1 not run */
	char log[512];          /* the session log of this run */
	bool fio;               /* fio's JSON found on the command's output */
	double fio_bw_MBps, fio_iops, fio_clat_p99_us;
};

struct matrix_cell {
	char sched[MATRIX_SCHED_MAX];
	char options[MOUNT_OPTS_MAX];
	enum matrix_cache cache;      /* MATRIX_COLD or MATRIX_HOT */
	char refused[256];            /* "" or the kernel's message */
	struct matrix_run runs[MATRIX_MAX_REPEAT];
	size_t nruns;
	double elapsed_mean_s, elapsed_sd_s;   /* NAN without runs */
	bool noisy;                   /* CoV still above MATRIX_NOISY_COV after max-repeat */
};

struct matrix_result {
	struct replay_machine machine;
	char device[DEV_NAME_MAX];
	char fstype[32];
	char mount[MOUNT_PATH_MAX];
	char command[1024];
	char tunables[512];           /* the device's queue settings, "nr_requests=64 ..." */
	struct matrix_cell cells[MATRIX_MAX_CELLS];
	size_t ncells;
	size_t baseline;              /* index of the baseline cell */
	double idle_p50_us, idle_p99_us;   /* probe with no load; NAN: none */
	char status[256];             /* "" complete, else why it stopped */
};

/* Cells in order: scheduler, then option set, then cold before hot. */
void matrix_cells_plan(struct matrix_result *r, const struct matrix_opts *o,
		       const char *current_sched);

/* matrix_stats.c */
void matrix_cell_stats(struct matrix_cell *c);
bool matrix_cell_is_noisy(const struct matrix_cell *c);
double matrix_run_MBps(const struct matrix_run *run);
/* p-th percentile (0..100) of v[0..n) (sorted in place), NAN when n == 0. */
double matrix_percentile(double *v, size_t n, double p);
/* fio's --output-format=json at path (anything before the first '{' skipped): summed
 * bandwidth and IOPS, the worst clat p99.  0 when found, -1 when not fio JSON. */
int matrix_fio_parse(const char *path, struct matrix_run *run);
/* "cold"/"hot" */
const char *matrix_cache_name(enum matrix_cache c);

/* matrix_output.c: each 0 or -1 with err. */
int matrix_write_text(FILE *out, const struct matrix_result *r);
int matrix_write_csv(FILE *out, const struct matrix_result *r);
int matrix_write_json(FILE *out, const struct matrix_result *r);
/* matrix_plot.c: PREFIX.png; -1 with err (cairo missing says so). */
int matrix_write_png(const char *path, const struct matrix_result *r, struct error *err);
/* Every output of PREFIX; the first failure in err, the others still tried. */
int matrix_write_outputs(const char *prefix, const struct matrix_result *r, struct error *err);

/* `ioscope matrix ...`; the exit status. */
int cmd_matrix(int argc, char **argv);

#endif
