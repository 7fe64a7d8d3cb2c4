/* matrix_probe.c - the responsiveness probe of `ioscope matrix`, where it may read and
 * what its runs are compared to.
 *
 * The idle baseline is what a run's probe figures are divided by, so it must be taken
 * where the runs' are: on the filesystem under test, mounted.  Taken before the cells,
 * with --mkfs it read the filesystem the mount point sits on (the root filesystem, its
 * 16 MiB working set written there) and made ratios of 0.1 that meant nothing.  So:
 *
 *   - with --mkfs or --fs, a probe path under --mount is a directory made on each
 *     fresh filesystem after it is mounted (through the mount's root descriptor), the
 *     probe started on it then and stopped before the unmount (its working set keeps
 *     the mount busy); the device itself is probed from start to end; any other path
 *     is refused: it would not read the device under test;
 *   - the baseline is taken once per filesystem, on the first mount of it, with nothing
 *     else running (10 s, marked `idle` in that run's log); in remount mode once, on
 *     the filesystem at --mount, before the first cell changes anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "matrix_ctx.h"
#include "text.h"

#define MATRIX_IDLE_SECONDS 10.0

/* path made absolute (to the working directory) with "//", "/./" and a trailing '/'
 * dropped; false when it has a ".." component or does not fit. */
static bool normalized(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX] = "";
	if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
		return false;
	char joined[2 * PATH_MAX];
	snprintf(joined, sizeof joined, "%s/%s", cwd, path);
	size_t used = 0;
	for (const char *p = joined; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && strncmp(p, "..", 2) == 0)
			return false;
		if (n && !(n == 1 && p[0] == '.')) {
			if (used + n + 2 > len)
				return false;
			out[used++] = '/';
			memcpy(out + used, p, n);
			used += n;
		}
		p += n + (p[n] == '/');
	}
	if (!used)
		out[used++] = '/';
	out[used] = '\0';
	return true;
}

/* rel: path below dir ("" for dir itself); false when path is not under dir. */
static bool below(const char *dir, const char *path, char *rel, size_t len)
{
	char d[PATH_MAX], p[PATH_MAX];
	if (!normalized(dir, d, sizeof d) || !normalized(path, p, sizeof p))
		return false;
	size_t n = strcmp(d, "/") == 0 ? 0 : strlen(d);
	if (strncmp(p, d, n) != 0 || (p[n] && p[n] != '/'))
		return false;
	snprintf(rel, len, "%s", p[n] ? p + n + 1 : "");
	return true;
}

static bool is_the_device(const struct matrix_ctx *m, const char *path)
{
	struct stat st;
	char name[DEV_NAME_MAX];
	struct error ignored;
	return stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
	       control_device_resolve(NULL, path, name, sizeof name, &ignored) == 0 &&
	       strcmp(name, m->name) == 0;
}

int matrix_probe_check(struct matrix_ctx *m, struct error *err)
{
	const char *probe = m->o->probe;
	m->probe_place = !probe ? MATRIX_PROBE_NONE : MATRIX_PROBE_FIXED;
	if (!probe || !m->o->fs[0].mkfs || is_the_device(m, probe))
		return 0;
	if (below(m->o->mount, probe, m->probe_rel, sizeof m->probe_rel) ||
	    below(m->mount.path, probe, m->probe_rel, sizeof m->probe_rel)) {
		m->probe_place = MATRIX_PROBE_IN_MOUNT;
		return 0;
	}
	return error_set(err, "--probe %s: with %s the probe reads the filesystem under test "
			 "(a directory under --mount %s, made after each mount) or the device "
			 "itself (/dev/%s); elsewhere it measures another disk", probe,
			 m->o->fs_given ? "--fs" : "--mkfs", m->o->mount, m->name);
}

static void start(struct matrix_ctx *m, const char *path, const char *shown)
{
	struct error why = { "" };
	m->probe_on = source_live_probe(m->src, path, m->probe_interval, false, &why) == 0;
	if (!m->probe_on) {
		text_printf(stderr, "ioscope matrix: no probe on %s: %s\n", shown, why.msg);
		matrix_mark(m, "failed", "probe %s: %s", shown, why.msg);
	}
}

void matrix_probe_open(struct matrix_ctx *m)
{
	if (m->probe_place == MATRIX_PROBE_FIXED)
		start(m, m->o->probe, m->o->probe);
}

/* The directory rel under the mount's root, made one component at a time, never
 * through a symlink (the filesystem is fresh, but nothing is taken on trust). */
static int make_below(int root, const char *rel, struct error *err)
{
	int dir = openat(root, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	for (const char *p = rel; dir >= 0 && *p;) {
		char name[NAME_MAX + 1];
		size_t n = strcspn(p, "/");
		snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
		if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST) {
			error_errno(err, name, errno);
			close(dir);
			return -1;
		}
		int next = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			error_errno(err, name, errno);
		close(dir);
		dir = next;
		p += n + (p[n] == '/');
	}
	return dir;
}

void matrix_probe_mounted(struct matrix_ctx *m)
{
	if (m->probe_place != MATRIX_PROBE_IN_MOUNT || m->mount.root < 0)
		return;
	struct error err = { "" };
	int dir = make_below(m->mount.root, m->probe_rel, &err);
	if (dir < 0) {
		text_printf(stderr, "ioscope matrix: no probe on %s: %s\n", m->o->probe, err.msg);
		matrix_mark(m, "failed", "probe %s: %s", m->o->probe, err.msg);
		m->probe_on = false;
		return;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", dir);
	start(m, path, m->o->probe);
	close(dir);   /* the probe holds its working set open, not the directory */
}

void matrix_probe_unmounting(struct matrix_ctx *m)
{
	if (m->probe_place != MATRIX_PROBE_IN_MOUNT || !m->probe_on)
		return;
	struct error ignored;
	source_live_probe(m->src, NULL, 0, false, &ignored);
	m->probe_on = false;
}

/* The device's busy milliseconds so far (diskstats io_ticks), as the latest sample read
 * them: over the idle baseline, the probe's own load. */
static bool io_ticks(struct matrix_ctx *m, uint64_t *out)
{
	const struct snapshot *s = session_snapshot(m->session);
	const struct device *d = s ? snapshot_find_device(s, m->name) : NULL;
	if (d)
		*out = d->counters.io_ticks;
	return d != NULL;
}

/* The probe's own load over its bound: the runs probe less often, so that the device's
 * time they measure is not the probe's (docs/experiments.md, "The probe's own load"). */
double matrix_probe_widened(double interval, double load_pct)
{
	if (!isfinite(load_pct) || load_pct <= MATRIX_PROBE_LOAD_MAX)
		return interval;
	double wider = ceil(interval * load_pct / MATRIX_PROBE_LOAD_AIM * 10) / 10;   /* tenths */
	wider = wider > MATRIX_PROBE_INTERVAL_MAX ? MATRIX_PROBE_INTERVAL_MAX : wider;
	return wider > interval ? wider : interval;
}

static void widen_for_load(struct matrix_ctx *m, struct matrix_fs *fs)
{
	double wider = matrix_probe_widened(m->probe_interval, fs->idle_busy_pct);
	if (wider > m->probe_interval) {
		matrix_mark(m, "probe", "probe every %.1f s: its own load was %.2f%% at %g s", wider,
			    fs->idle_busy_pct, m->probe_interval);
		m->probe_interval = wider;
		source_live_probe_interval(m->src, wider);
	}
	fs->run_probe_interval_s = m->probe_interval;
}

void matrix_probe_baseline(struct matrix_ctx *m, const struct matrix_cell *c)
{
	struct matrix_fs *fs = &m->r->fs[c->fs];
	if (!m->probe_on || isfinite(fs->idle_p50_us))
		return;
	struct matrix_quiet q;
	if (matrix_quiet_wait(m, fs->fstype[0] ? fs->fstype : NULL, &q) < 0)
		return;
	fs->idle_quiet_wait_s = q.waited_s;
	fs->idle_busy = q.busy;
	snprintf(fs->idle_writers, sizeof fs->idle_writers, "%s", q.writers);
	m->nprobe = 0;
	matrix_mark(m, "idle", "probe with no load on %s for %.0f s", fs->name,
		    MATRIX_IDLE_SECONDS);
	struct timespec t0, t1;
	uint64_t ticks0 = 0, ticks1 = 0;
	bool ticked = io_ticks(m, &ticks0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (matrix_exec_idle(m, MATRIX_IDLE_SECONDS) < 0 || m->stop_signal || !m->nprobe)
		return;
	matrix_exec_sample(m);   /* the counters at the end of it */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (ticked && io_ticks(m, &ticks1) && ticks1 >= ticks0 && ms > 0)
		fs->idle_busy_pct = 100.0 * (double)(ticks1 - ticks0) / ms;
	widen_for_load(m, fs);
	fs->idle_p50_us = matrix_percentile(m->probe_us, m->nprobe, 50);
	fs->idle_p99_us = matrix_percentile(m->probe_us, m->nprobe, 99);
	matrix_fs_idle(fs, m->probe_us, m->nprobe);
	/* kept: each run's reads are tested against them */
	free(m->idle_reads[c->fs]);
	m->idle_reads[c->fs] = malloc(m->nprobe * sizeof m->probe_us[0]);
	m->nidle_reads[c->fs] = m->idle_reads[c->fs] ? m->nprobe : 0;
	if (m->idle_reads[c->fs])
		memcpy(m->idle_reads[c->fs], m->probe_us, m->nprobe * sizeof m->probe_us[0]);
}

void matrix_probe_cell_start(struct matrix_ctx *m)
{
	m->ncell_reads = 0;
}

void matrix_probe_run_reads(struct matrix_ctx *m, struct matrix_cell *c)
{
	if (!m->nprobe || grow_array(&m->cell_reads, &m->cell_reads_cap,
				     m->ncell_reads + m->nprobe, sizeof *m->cell_reads, 4096,
				     NULL) < 0)
		return;   /* without memory the cell keeps the figures of its earlier runs */
	memcpy(m->cell_reads + m->ncell_reads, m->probe_us, m->nprobe * sizeof m->probe_us[0]);
	m->ncell_reads += m->nprobe;
	matrix_cell_probe(c, m->cell_reads, m->ncell_reads, m->idle_reads[c->fs],
			  m->nidle_reads[c->fs]);
}

void matrix_probe_free(struct matrix_ctx *m)
{
	for (size_t i = 0; i < MATRIX_MAX_FS; i++)
		free(m->idle_reads[i]);
	free(m->cell_reads);
	free(m->probe_us);
}
