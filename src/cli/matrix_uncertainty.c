/* matrix_uncertainty.c - what a cell's figures are worth (docs/experiments.md,
 * "Uncertainty").  "ratio 1.29" between two cells said nothing of whether that is more
 * than their runs' spread: each figure over the runs gets its 95 % confidence interval,
 * and each ratio a verdict from a test across the runs (Welch's t for times, the
 * Mann-Whitney U test for the probe's reads, whose tails are long). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "stats.h"

const char *matrix_verdict_name(enum matrix_verdict v)
{
	switch (v) {
	case MATRIX_BASELINE: return "baseline";
	case MATRIX_DIFFERS: return "differs";
	case MATRIX_WITHIN_NOISE: return "within noise";
	case MATRIX_TOO_FEW: return "too few reads";
	case MATRIX_UNTESTED: break;
	}
	return "untested";
}

/* The runs that exited 0: the figure of each (what() of the run), in v; their count. */
static size_t good_values(const struct matrix_cell *c, double (*what)(const struct matrix_run *),
			  double *v)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].exit == 0 && isfinite(what(&c->runs[i])))
			v[n++] = what(&c->runs[i]);
	return n;
}

static double run_elapsed(const struct matrix_run *run)
{
	return run->elapsed_s;
}

static double run_writeback(const struct matrix_run *run)
{
	return run->writeback_s;
}

static struct matrix_ci ci_of(const struct matrix_cell *c, double (*what)(const struct matrix_run *))
{
	double v[MATRIX_MAX_REPEAT];
	struct matrix_ci ci = { .n = good_values(c, what, v) };
	stats_mean_ci(v, ci.n, &ci.mean, &ci.half);
	return ci;
}

static enum matrix_verdict verdict_of(double p)
{
	return isnan(p) ? MATRIX_UNTESTED : p < STATS_ALPHA ? MATRIX_DIFFERS : MATRIX_WITHIN_NOISE;
}

/* The cell's elapsed mean over the baseline's, by Welch's t over both cells' runs. */
static struct matrix_ratio elapsed_ratio(const struct matrix_result *r, size_t i,
					 const struct matrix_ci *elapsed)
{
	const struct matrix_cell *c = &r->cells[i], *b = &r->cells[r->baseline];
	double mean_b = b->elapsed_mean_s;
	struct matrix_ratio q = { NAN, NAN, MATRIX_UNTESTED };
	if (elapsed->mean > 0 && mean_b > 0)
		q.value = elapsed->mean / mean_b;
	if (i == r->baseline) {
		q.verdict = MATRIX_BASELINE;
		return q;
	}
	double x[MATRIX_MAX_REPEAT], y[MATRIX_MAX_REPEAT];
	size_t nx = good_values(c, run_elapsed, x), ny = good_values(b, run_elapsed, y);
	q.p = stats_welch_p(x, nx, y, ny);
	q.verdict = isnan(q.value) ? MATRIX_UNTESTED : verdict_of(q.p);
	return q;
}

/* Whether two 95 % intervals are apart (their facing bounds known), overlap (every bound
 * known), or cannot be told apart for want of bounds. */
static enum matrix_verdict intervals(double lo_a, double hi_a, double lo_b, double hi_b)
{
	if ((hi_a < lo_b) || (hi_b < lo_a))   /* NAN compares false */
		return MATRIX_DIFFERS;
	if (isfinite(lo_a) && isfinite(hi_a) && isfinite(lo_b) && isfinite(hi_b))
		return MATRIX_WITHIN_NOISE;
	return MATRIX_TOO_FEW;
}

static void probe_ratios(const struct matrix_result *r, const struct matrix_cell *c,
			 struct matrix_cell_figures *f)
{
	const struct matrix_fs *fs = &r->fs[c->fs < r->nfs ? c->fs : 0];
	bool pooled = c->probe_reads > 0;
	f->probe_p50_us = pooled ? c->probe_p50_us : MATRIX_CELL_MEAN(c, probe_p50_us);
	f->probe_p99_us = pooled ? c->probe_p99_us : MATRIX_CELL_MEAN(c, probe_p99_us);
	f->p50x = f->p99x = (struct matrix_ratio){ NAN, NAN, MATRIX_UNTESTED };
	if (f->probe_p50_us > 0 && fs->idle_p50_us > 0)
		f->p50x.value = f->probe_p50_us / fs->idle_p50_us;
	if (f->probe_p99_us > 0 && fs->idle_p99_us > 0)
		f->p99x.value = f->probe_p99_us / fs->idle_p99_us;
	if (!pooled || !fs->idle_reads)
		return;   /* no reads kept (a result read back, not measured): untested */
	f->p50x.p = c->probe_idle_p;
	if (isfinite(f->p50x.value))
		f->p50x.verdict = verdict_of(c->probe_idle_p);
	if (isfinite(f->p99x.value))
		f->p99x.verdict = intervals(c->probe_p99_lo_us, c->probe_p99_hi_us,
					    fs->idle_p99_lo_us, fs->idle_p99_hi_us);
}

static double run_MBps(const struct matrix_run *run)
{
	return matrix_run_MBps(run);
}

void matrix_cell_figures(const struct matrix_result *r, size_t i, struct matrix_cell_figures *f)
{
	const struct matrix_cell *c = &r->cells[i];
	f->elapsed = ci_of(c, run_elapsed);
	f->mbps = ci_of(c, run_MBps);
	f->writeback = ci_of(c, run_writeback);
	f->ratio = elapsed_ratio(r, i, &f->elapsed);
	probe_ratios(r, c, f);
}

void matrix_cell_probe(struct matrix_cell *c, double *reads, size_t n, const double *idle,
		       size_t nidle)
{
	c->probe_reads = n;
	stats_percentile_ci(reads, n, 50, &c->probe_p50_us, &c->probe_p50_lo_us,
			    &c->probe_p50_hi_us);
	stats_percentile_ci(reads, n, 99, &c->probe_p99_us, &c->probe_p99_lo_us,
			    &c->probe_p99_hi_us);
	c->probe_idle_p = idle ? stats_mann_whitney_p(reads, n, idle, nidle) : NAN;
}

void matrix_fs_idle(struct matrix_fs *fs, double *reads, size_t n)
{
	double p50, p99;
	fs->idle_reads = n;
	stats_percentile_ci(reads, n, 50, &p50, &fs->idle_p50_lo_us, &fs->idle_p50_hi_us);
	stats_percentile_ci(reads, n, 99, &p99, &fs->idle_p99_lo_us, &fs->idle_p99_hi_us);
}
