/* matrix.c - `ioscope matrix`: the experiment (docs/experiments.md).
 *
 * Per run: the run's session log is opened, then every step is a mark in it, in order
 * (mkfs, mount with the cell's options or remount, scheduler, drop caches, the command's
 * start and exit, sync, umount), with the samples taken meanwhile.  A refused mount or
 * option makes the cell "refused: <kernel message>" and the matrix goes on; a signal or
 * a failed step stops it, and then as always the device is put back (scheduler, queue
 * tunables, options) and the results so far are written.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "announce.h"
#include "commands.h"
#include "control.h"
#include "dirpath.h"
#include "machine.h"
#include "matrix_ctx.h"
#include "session_log.h"
#include "text.h"



static void plan_fs(struct matrix_result *r, const struct matrix_opts *o)
{
	r->nfs = o->nfs;
	for (size_t f = 0; f < o->nfs; f++) {
		struct matrix_fs *fs = &r->fs[f];
		memset(fs, 0, sizeof *fs);
		snprintf(fs->name, sizeof fs->name, "%s", o->fs[f].name);
		snprintf(fs->mkfs, sizeof fs->mkfs, "%s", o->fs[f].mkfs ? o->fs[f].mkfs : "");
		fs->idle_p50_us = fs->idle_p99_us = NAN;
		fs->idle_p50_lo_us = fs->idle_p50_hi_us = NAN;
		fs->idle_p99_lo_us = fs->idle_p99_hi_us = NAN;
		fs->idle_quiet_wait_s = fs->idle_busy_pct = fs->run_probe_interval_s = NAN;
	}
}

static bool is_baseline(const struct matrix_opts *o, const struct matrix_cell *c,
			const char *fs)
{
	return o->has_baseline && strcmp(c->sched, o->baseline_sched) == 0 &&
	       strcmp(c->options, o->baseline_opts) == 0 &&
	       (!o->baseline_fs[0] || strcmp(fs, o->baseline_fs) == 0);
}

/* The cells of filesystem f under one scheduler: its option sets, cold before hot. */
static void plan_sets(struct matrix_result *r, const struct matrix_opts *o, size_t f,
		      const char *sched, bool *found)
{
	for (size_t i = 0; i < o->noptsets; i++)
		for (int cache = MATRIX_COLD; cache <= MATRIX_HOT; cache++) {
			if (!(o->cache & cache) || !matrix_optset_applies(o, i, o->fs[f].name))
				continue;
			struct matrix_cell *c = &r->cells[r->ncells];
			memset(c, 0, sizeof *c);
			c->fs = f;
			snprintf(c->sched, sizeof c->sched, "%s", sched);
			snprintf(c->options, sizeof c->options, "%s", o->optsets[i]);
			c->cache = (enum matrix_cache)cache;
			c->elapsed_mean_s = c->elapsed_sd_s = NAN;
			matrix_cell_probe(c, NULL, 0, NULL, 0);   /* no reads yet */
			if (!*found && is_baseline(o, c, o->fs[f].name)) {
				r->baseline = r->ncells;
				*found = true;
			}
			r->ncells++;
		}
}

void matrix_cells_plan(struct matrix_result *r, const struct matrix_opts *o,
		       const char *current_sched)
{
	size_t nscheds = o->nscheds ? o->nscheds : 1;
	bool found = false;
	plan_fs(r, o);
	r->ncells = 0;
	r->baseline = 0;
	for (size_t f = 0; f < o->nfs; f++)
		for (size_t s = 0; s < nscheds; s++)
			plan_sets(r, o, f, o->nscheds ? o->scheds[s] : current_sched, &found);
}

static int open_log(struct matrix_ctx *m, struct matrix_run *run)
{
	struct error err = { "" };
	char name[NAME_MAX + 32];
	snprintf(run->log, sizeof run->log, "%s-c%02zu-r%zu.log", m->prefix, m->cell + 1,
		 m->repeat + 1);
	snprintf(name, sizeof name, "%s-c%02zu-r%zu.log", m->out_name, m->cell + 1, m->repeat + 1);
	struct recorder *rec = recorder_open_in(m->out_dir, name, run->log, RECORDER_NEW, false,
						&err);
	if (!rec || session_add_sink(m->session, recorder_sink(rec), &err) < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		session_remove_sink(m->session, recorder_sink(rec));
		recorder_close(rec);
		run->log[0] = '\0';
		return m->failed = true, -1;
	}
	m->log = recorder_sink(rec);
	return 0;
}

/* The run's log closed; a write that failed since the last sample is said as a sample's. */
static void close_log(struct matrix_ctx *m)
{
	struct error err;
	if (!m->log)
		return;
	if (session_sink_error(m->session, m->log, &err)) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		m->failed = true;
	}
	session_remove_sink(m->session, m->log);
	sink_close(m->log);
	m->log = NULL;
}

/* The steps before the command; 0, 1 refused, -1 failed.  The probe's idle baseline
 * is taken on the filesystem under test: in remount mode before the first cell's
 * options, else once the first fresh one of its kind is mounted (matrix_probe.c). */
static int prepare(struct matrix_ctx *m, struct matrix_cell *c)
{
	char name[MOUNT_OPTS_MAX + 128];
	matrix_cell_name(m->r, c, name, sizeof name);
	matrix_mark(m, "cell", "cell %zu/%zu repeat %zu: %s", m->cell + 1, m->r->ncells,
		    m->repeat + 1, name);
	bool fresh = m->o->fs[c->fs].mkfs != NULL;
	if (!fresh)
		matrix_probe_baseline(m, c);
	int rc = matrix_step_filesystem(m, c);
	if (rc == 0 && fresh) {
		matrix_probe_mounted(m);
		matrix_probe_baseline(m, c);
	}
	if (rc == 0 && m->stop_signal)
		rc = -1;
	setenv("IOSCOPE_FS", m->r->fs[c->fs].name, 1);   /* --mkfs: known once made */
	if (rc == 0)
		rc = matrix_step_scheduler(m, c);
	if (rc == 0)
		rc = matrix_step_cache(m, c);
	if (rc > 0)
		matrix_mark(m, "refused", "%s", c->refused);
	return rc;
}

/* The command, bracketed by samples: the device's counters at its start and exit. */
static int run_command(struct matrix_ctx *m, struct matrix_cell *c, struct matrix_run *run)
{
	struct matrix_quiet q;
	const char *fstype = m->r->fs[c->fs].fstype;
	if (matrix_quiet_wait(m, fstype[0] ? fstype : NULL, &q) < 0)
		return -1;
	run->quiet_wait_s = q.waited_s;
	run->busy_start = q.busy;
	snprintf(run->writers, sizeof run->writers, "%s", q.writers);
	matrix_io_begin(m);
	int rc = matrix_exec_run(m, c, run);
	if (run->exit >= 0) {
		matrix_io_end(m, run);
		run->interrupted = m->stop_signal;
	}
	if (run->exit == 0)
		matrix_probe_run_reads(m, c);   /* the runs measured: those that exited 0 */
	return rc;
}

/* 0 run done, 1 refused, -1 stop. */
static int one_run(struct matrix_ctx *m, struct matrix_cell *c)
{
	struct matrix_run *run = &c->runs[c->nruns];
	memset(run, 0, sizeof *run);
	run->exit = -1;
	run->probe_p50_us = run->probe_p99_us = NAN;
	run->other_MB = run->quiet_wait_s = NAN;
	if (open_log(m, run) < 0)
		return -1;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = prepare(m, c);
	if (rc == 0 && run_command(m, c, run) == 0)
		rc = matrix_exec_sync(m, run);
	else if (rc == 0)
		rc = -1;
	if (rc == 0 || run->exit >= 0)
		c->nruns++;
	matrix_probe_unmounting(m);
	if (matrix_step_unmount(m) < 0)
		rc = -1;
	close_log(m);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	m->runs_done++;
	m->run_seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return rc;
}

static bool more_repeats(const struct matrix_ctx *m, struct matrix_cell *c)
{
	if (c->nruns < (size_t)m->o->repeat)
		return true;
	matrix_cell_stats(c);
	if (!matrix_cell_is_noisy(c))
		return false;
	return c->nruns < (size_t)m->o->max_repeat;
}

/* 0 go on; -1 stop. */
static int run_cell(struct matrix_ctx *m, struct matrix_cell *c)
{
	int rc = 0;
	matrix_probe_cell_start(m);
	for (m->repeat = 0; rc == 0 && more_repeats(m, c); m->repeat++) {
		if (m->repeat >= (size_t)m->o->repeat)
			m->runs_planned++;   /* a noisy cell's extra run */
		if (!m->tty)
			matrix_progress(m, false);
		rc = one_run(m, c);
	}
	if (rc > 0) {
		/* the runs this cell will not make */
		m->runs_planned -= (size_t)m->o->repeat - (m->repeat < (size_t)m->o->repeat ? m->repeat : (size_t)m->o->repeat);
		rc = 0;
	}
	matrix_cell_stats(c);
	c->noisy = matrix_cell_is_noisy(c);
	matrix_options_undo(m);
	return rc;
}

static void run_cells(struct matrix_ctx *m)
{
	for (m->cell = 0; m->cell < m->r->ncells && !m->stop_signal && !m->failed; m->cell++)
		if (run_cell(m, &m->r->cells[m->cell]) < 0)
			break;
	if (m->stop_signal)
		snprintf(m->r->status, sizeof m->r->status, "interrupted by signal %d in cell %zu",
			 m->stop_signal, m->cell + 1);
	else if (m->failed && !m->r->status[0])   /* a step may have said why itself */
		snprintf(m->r->status, sizeof m->r->status, "stopped by a failure in cell %zu (see "
			 "its log)", m->cell + 1);
}

/* The command finds this ioscope in $IOSCOPE_BIN, to mark its phases (`$IOSCOPE_BIN mark
 * rmtree`) with the binary that runs the matrix, wherever PATH leads. */
static void export_self(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		setenv("IOSCOPE_BIN", self, 1);
	}
}

/* The prefix made absolute, and its directory opened once (through no symlink but
 * root's): the logs, outputs and results of hours of runs are all made in it, never by
 * their path, so a directory swapped for a symlink meanwhile is never written through. */
static int absolute_prefix(struct matrix_ctx *m, struct error *err)
{
	const char *p = m->o->out ? m->o->out : "ioscope-matrix";
	char cwd[PATH_MAX];
	if (p[0] == '/')
		snprintf(m->prefix, sizeof m->prefix, "%s", p);
	else if (!getcwd(cwd, sizeof cwd))
		return error_errno(err, ".", errno);
	else
		snprintf(m->prefix, sizeof m->prefix, "%s/%s", cwd, p);
	m->out_dir = dirpath_open_parent(m->prefix, m->out_name, sizeof m->out_name, err);
	return m->out_dir < 0 ? -1 : 0;
}

static void describe(struct matrix_ctx *m)
{
	struct matrix_result *r = m->r;
	machine_describe(&r->machine);
	snprintf(r->device, sizeof r->device, "%s", m->name);
	snprintf(r->mount, sizeof r->mount, "%s", m->mount.path);
	snprintf(r->probe, sizeof r->probe, "%s", m->o->probe ? m->o->probe : "");
	size_t used = 0;
	for (int i = 0; i < m->o->ncommand; i++)
		used = text_appendf(r->command, sizeof r->command, used, "%s%s", i ? " " : "",
				    m->o->command[i]);
}

/* Everything that can be refused before the device is touched.  Exit status or 0. */
static int setup(struct matrix_ctx *m, struct error *err)
{
	if (matrix_device_resolve(m->o->device, true, m->name, sizeof m->name, err) < 0)
		return 2;
	if (m->o->destroy_data_on &&
	    matrix_device_resolve(m->o->destroy_data_on, false, m->destroy_data_on,
				  sizeof m->destroy_data_on, err) < 0)
		return 2;
	if (control_mountpoint_open(&m->mount, m->o->mount, err) < 0)
		return 2;
	if (matrix_probe_check(m, err) < 0)
		return 2;
	if (absolute_prefix(m, err) < 0)
		return 2;
	if (geteuid() != 0)
		return error_set(err, "a matrix makes filesystems, mounts, switches schedulers and "
				 "drops caches: run it as root"), 1;
	if (matrix_claim_open(m, err) < 0)
		return 1;
	if (matrix_device_checks(m, err) < 0)
		return strstr(err->msg, "in use") ? 1 : 2;
	if (matrix_device_save(m, err) < 0 || matrix_claim_take(m, err) < 0)
		return 1;
	matrix_cells_plan(m->r, m->o, m->before.sched);
	if (m->before.mounted)   /* remount mode: the filesystem found there */
		matrix_fs_found(&m->r->fs[0], m->before.mount.fstype);
	describe(m);
	m->runs_planned = m->r->ncells * (size_t)m->o->repeat;
	return 0;
}

static int open_session(struct matrix_ctx *m, struct error *err)
{
	m->src = source_live_new(NULL, 1.0, err);
	if (!m->src)
		return -1;
	m->session = session_open(m->src, &(struct session_opts){ 0 }, err);
	if (!m->session || session_step(m->session, err) < 0)
		return -1;
	char *names[] = { m->name };
	if (session_select(m->session, names, 1, err) < 0)
		return -1;
	matrix_probe_open(m);
	struct error ignored;
	m->announce = announce_listen(&session_log_announce_codec, &ignored);   /* without it, the command's marks are lost */
	return 0;
}

static int finish(struct matrix_ctx *m)
{
	struct error err = { "" };
	int status = 0;
	if (matrix_write_outputs(m->out_dir, m->out_name, m->prefix, m->r, &err) < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		status = 1;
	}
	if (m->r->status[0])
		text_printf(stderr, "ioscope matrix: %s; the results so far are in %s.txt\n",
			    m->r->status, m->prefix);
	if (m->stop_signal)
		return 128 + m->stop_signal;
	return m->failed ? 1 : status;
}

static int matrix_main(struct matrix_ctx *m)
{
	struct error err = { "" };
	int status = setup(m, &err);
	if (status) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		matrix_claim_advise(m);
		return status;
	}
	if (open_session(m, &err) < 0 || matrix_exec_signals(m) < 0) {
		matrix_claim_release(m);   /* nothing was changed yet */
		text_printf(stderr, "ioscope matrix: %s\n", err.msg[0] ? err.msg : "signalfd failed");
		return 1;
	}
	setenv("IOSCOPE_MOUNT", m->mount.path, 1);
	export_self();
	m->tty = isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &m->started);
	run_cells(m);
	matrix_device_restore(m);
	if (!m->mounted_by_us)
		matrix_claim_release(m);   /* else kept: the next matrix says how to unmount it */
	matrix_mark_end(m);   /* after the device is put back: a console stops showing progress */
	if (m->tty)
		matrix_progress(m, true);
	return finish(m);
}

int cmd_matrix(int argc, char **argv)
{
	struct matrix_opts o;
	struct error err = { "" };
	int r = matrix_options_parse(&o, argc, argv, &err);
	if (r > 0)
		return 0;
	if (r < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		return 2;
	}
	struct matrix_ctx m = { .o = &o, .sigfd = -1, .out_dir = -1,
				.probe_interval = o.probe_interval,
				.mount = { .dir = -1, .root = -1, .mnt_id = -1 } };
	m.r = calloc(1, sizeof *m.r);
	if (!m.r)
		return fprintf(stderr, "ioscope matrix: out of memory\n"), 1;
	int status = matrix_main(&m);
	if (m.session)
		close_log(&m);
	session_close(m.session);
	if (m.src)
		source_destroy(m.src);
	if (m.sigfd >= 0)
		close(m.sigfd);
	if (m.out_dir >= 0)
		close(m.out_dir);
	announce_close(m.announce);
	control_mountpoint_close(&m.mount);
	matrix_claim_free(&m);
	matrix_probe_free(&m);
	free(m.r);
	return status;
}
