/* matrix_stats.c - what a cell's runs add up to, and fio's own figures. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

const char *matrix_cache_name(enum matrix_cache c)
{
	return c == MATRIX_HOT ? "hot" : c == MATRIX_BOTH ? "both" : "cold";
}

/* Runs that ended with status 0 are the ones measured. */
static size_t good_elapsed(const struct matrix_cell *c, double *v)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].exit == 0)
			v[n++] = c->runs[i].elapsed_s;
	return n;
}

void matrix_cell_stats(struct matrix_cell *c)
{
	double v[MATRIX_MAX_REPEAT];
	size_t n = good_elapsed(c, v);
	c->elapsed_mean_s = c->elapsed_sd_s = NAN;
	if (n == 0)
		return;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	double mean = sum / (double)n, sq = 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	c->elapsed_mean_s = mean;
	c->elapsed_sd_s = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;   /* sample sd */
}

bool matrix_cell_is_noisy(const struct matrix_cell *c)
{
	return isfinite(c->elapsed_mean_s) && c->elapsed_mean_s > 0 &&
	       c->elapsed_sd_s / c->elapsed_mean_s > MATRIX_NOISY_COV;
}

double matrix_run_MBps(const struct matrix_run *run)
{
	if (!(run->elapsed_s > 0))
		return NAN;
	return (run->read_MB + run->written_MB) / run->elapsed_s;
}

double matrix_cell_mean(const struct matrix_cell *c, size_t off)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		double v = *(const double *)((const char *)&c->runs[i] + off);
		if (c->runs[i].exit == 0 && isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

size_t matrix_cell_good_runs(const struct matrix_cell *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		n += c->runs[i].exit == 0;
	return n;
}

size_t matrix_cell_interrupted_runs(const struct matrix_cell *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		n += c->runs[i].exit != 0 && c->runs[i].interrupted;
	return n;
}

double matrix_cell_phase_mean(const struct matrix_cell *c, const char *label)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; c->runs[i].exit == 0 && k < c->runs[i].nphases; k++)
			if (strcmp(c->runs[i].phases[k].label, label) == 0) {
				sum += c->runs[i].phases[k].seconds;
				n++;
				break;
			}
	return n ? sum / (double)n : NAN;
}

void matrix_cell_name(const struct matrix_result *r, const struct matrix_cell *c, char *buf,
		      size_t len)
{
	const char *fs = c->fs < r->nfs ? r->fs[c->fs].name : "";
	snprintf(buf, len, "%s%s%s %s %s", fs, fs[0] ? " " : "", c->sched, c->options,
		 matrix_cache_name(c->cache));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Nearest rank: a value that was measured, never an interpolation. */
/* Each direction apart: a command's reads from another disk (its tarball) do not hide
 * writes by others on this one. */
double matrix_other_MB(const struct matrix_run *run)
{
	if (!isfinite(run->read_MB) || !isfinite(run->written_MB))
		return NAN;
	double r = isfinite(run->cmd_read_MB) ? run->cmd_read_MB : 0;
	double w = isfinite(run->cmd_written_MB) ? run->cmd_written_MB : 0;
	return fmax(0, run->read_MB - r) + fmax(0, run->written_MB - w);
}

double matrix_percentile(double *v, size_t n, double p)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof *v, cmp_double);
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	return v[rank ? rank - 1 : 0];
}

static double num(json_object *o, const char *key)
{
	json_object *v;
	return o && json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

static void add_direction(json_object *job, const char *dir, struct matrix_run *run)
{
	json_object *d, *clat, *pct, *p99;
	if (!json_object_object_get_ex(job, dir, &d))
		return;
	run->fio_bw_MBps += num(d, "bw_bytes") / MATRIX_MB;
	run->fio_iops += num(d, "iops");
	if (json_object_object_get_ex(d, "clat_ns", &clat) &&
	    json_object_object_get_ex(clat, "percentile", &pct) &&
	    json_object_object_get_ex(pct, "99.000000", &p99)) {
		double us = json_object_get_double(p99) / 1000.0;
		if (us > run->fio_clat_p99_us)
			run->fio_clat_p99_us = us;
	}
}

/* The command's whole output, bounded: fio's JSON of a few jobs is a few kB. */
static char *read_output(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	size_t cap = 1 << 22, n;
	char *buf = malloc(cap + 1);
	if (buf) {
		n = fread(buf, 1, cap, f);
		buf[n] = '\0';
	}
	fclose(f);
	return buf;
}

int matrix_fio_parse(const char *path, struct matrix_run *run)
{
	char *text = read_output(path);
	if (!text)
		return -1;
	char *start = strchr(text, '{');
	json_object *root = start ? json_tokener_parse(start) : NULL;
	free(text);
	json_object *jobs, *ver;
	if (!root || !json_object_object_get_ex(root, "fio version", &ver) ||
	    !json_object_object_get_ex(root, "jobs", &jobs) || !json_object_is_type(jobs, json_type_array)) {
		json_object_put(root);
		return -1;
	}
	run->fio = true;
	run->fio_bw_MBps = run->fio_iops = run->fio_clat_p99_us = 0;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *job = json_object_array_get_idx(jobs, i);
		add_direction(job, "read", run);
		add_direction(job, "write", run);
	}
	json_object_put(root);
	return 0;
}
