/* matrix_output.c - the results of `ioscope matrix`: PREFIX.txt (80 columns, for an
 * email), PREFIX.csv and PREFIX.json with every run (docs/experiments.md). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_text.h"
#include "csv.h"
#include "matrix.h"
#include "outfile.h"
#include "text.h"

/* ---- shared figures ---- */

static double run_mean(const struct matrix_cell *c, size_t off)
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
#define CELL_MEAN(c, field) run_mean(c, offsetof(struct matrix_run, field))

static double cell_MBps(const struct matrix_cell *c)
{
	double moved = CELL_MEAN(c, read_MB) + CELL_MEAN(c, written_MB);
	return c->elapsed_mean_s > 0 ? moved / c->elapsed_mean_s : NAN;
}

static size_t good_runs(const struct matrix_cell *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++)
		n += c->runs[i].exit == 0;
	return n;
}

/* ---- text ---- */

static void fmt_num(char *buf, size_t len, double v, int decimals)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", v >= 1000 ? 0 : decimals, v);
}

static void fmt_ratio(char *buf, size_t len, double a, double b)
{
	fmt_num(buf, len, a > 0 && b > 0 ? a / b : NAN, 2);
}

/* head and value, the value wrapped at 80 columns at spaces, later lines after indent. */
static void wrap(FILE *out, const char *head, const char *indent, const char *value)
{
	char clean[1024];
	text_escape(value, clean, sizeof clean);
	size_t width = 80 - strlen(head), len = strlen(clean), at = 0;
	do {
		size_t n = len - at;
		if (n > width) {
			n = width;
			while (n > width / 2 && clean[at + n] != ' ')
				n--;
			if (n == width / 2)
				n = width;
		}
		fprintf(out, "%s%.*s\n", at ? indent : head, (int)n, clean + at);
		at += n;
		while (clean[at] == ' ')
			at++;
	} while (at < len);
}

static void text_wrapped(FILE *out, const char *head, const char *value)
{
	wrap(out, head, "          ", value);
}

static void text_header(FILE *out, const struct matrix_result *r)
{
	const struct replay_machine *mc = &r->machine;
	text_printf(out, "ioscope matrix on %s, Linux %s %s, %ld CPUs, %.1f GiB\n", mc->host,
		    mc->kernel, mc->arch, mc->cpus, (double)mc->mem_total_kb / 1048576.0);
	if (mc->cpu_model[0])
		text_printf(out, "cpu:      %.68s\n", mc->cpu_model);
	text_printf(out, "device:   %s, %s on %.52s\n", r->device, r->fstype[0] ? r->fstype : "?",
		    r->mount);
	text_wrapped(out, "tunables: ", r->tunables);
	text_wrapped(out, "command:  ", r->command);
	char p50[16], p99[16];
	fmt_num(p50, sizeof p50, r->idle_p50_us, 0);
	fmt_num(p99, sizeof p99, r->idle_p99_us, 0);
	if (isfinite(r->idle_p50_us))
		text_printf(out, "probe:    idle p50 %s us, p99 %s us (columns: x idle)\n", p50, p99);
	else
		text_printf(out, "probe:    none\n");
	if (r->ncells)
		text_printf(out, "baseline: cell %zu (%s %s %s)\n", r->baseline + 1,
			    r->cells[r->baseline].sched, r->cells[r->baseline].options,
			    matrix_cache_name(r->cells[r->baseline].cache));
	if (r->status[0])
		text_printf(out, "PARTIAL:  %.68s\n", r->status);
	fputs("\n # scheduler   options      cache  n  elapsed s    MB/s  wb s  p50x  p99x ratio\n",
	      out);
}

/* A refusal, wrapped under its cell. */
static void text_refused(FILE *out, const char *msg)
{
	wrap(out, "             refused: ", "                      ", msg);
}

static void text_cell(FILE *out, const struct matrix_result *r, size_t i)
{
	const struct matrix_cell *c = &r->cells[i];
	char sched[16], opts[32];
	text_escape(c->sched, sched, sizeof sched);
	text_escape(c->options, opts, sizeof opts);
	bool long_opts = strlen(c->options) > 12;
	fprintf(out, "%2zu %-11.11s %-12.12s %-4s", i + 1, sched, long_opts ? "(below)" : opts,
		matrix_cache_name(c->cache));
	if (c->refused[0]) {
		fputs("\n", out);
		text_refused(out, c->refused);
	} else {
		char el[24], mean[16], sd[16], mbs[16], wb[16], p50[16], p99[16], ratio[16];
		fmt_num(mean, sizeof mean, c->elapsed_mean_s, 2);
		fmt_num(sd, sizeof sd, c->elapsed_sd_s, 2);
		snprintf(el, sizeof el, "%s±%s", mean, sd);
		fmt_num(mbs, sizeof mbs, cell_MBps(c), 1);
		fmt_num(wb, sizeof wb, CELL_MEAN(c, writeback_s), 2);
		fmt_ratio(p50, sizeof p50, CELL_MEAN(c, probe_p50_us), r->idle_p50_us);
		fmt_ratio(p99, sizeof p99, CELL_MEAN(c, probe_p99_us), r->idle_p99_us);
		fmt_ratio(ratio, sizeof ratio, c->elapsed_mean_s, r->cells[r->baseline].elapsed_mean_s);
		/* "±" is two bytes and one column */
		fprintf(out, " %2zu%c %12s %6s %5s %5s %5s %5s\n", good_runs(c), c->noisy ? '!' : ' ',
			el, mbs, wb, p50, p99, ratio);
	}
	if (long_opts) {
		char full[MOUNT_OPTS_MAX];
		fprintf(out, "%4s%.76s\n", "", text_escape(c->options, full, sizeof full));
	}
	if (good_runs(c) < c->nruns)
		fprintf(out, "%4s%zu of %zu runs failed (exit status not 0; left out)\n", "",
			c->nruns - good_runs(c), c->nruns);
}

static void text_fio(FILE *out, const struct matrix_result *r)
{
	bool any = false;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		if (!c->nruns || !c->runs[0].fio)
			continue;
		if (!any)
			fputs("\nfio      MB/s       IOPS  clat p99 us\n", out);
		any = true;
		fprintf(out, "%2zu %9.1f %10.0f %12.0f\n", i + 1, CELL_MEAN(c, fio_bw_MBps),
			CELL_MEAN(c, fio_iops), CELL_MEAN(c, fio_clat_p99_us));
	}
}

int matrix_write_text(FILE *out, const struct matrix_result *r)
{
	text_header(out, r);
	bool noisy = false;
	for (size_t i = 0; i < r->ncells; i++) {
		text_cell(out, r, i);
		noisy |= r->cells[i].noisy;
	}
	text_fio(out, r);
	fputs("\nn: runs measured; elapsed: mean ± sd of the command; MB/s: its reads and writes\n"
	      "per second; wb s: sync after it exited; p50x, p99x: probe latency / idle;\n"
	      "ratio: elapsed / the baseline's.\n", out);
	if (noisy)
		fputs("!: still noisy (elapsed varies more than 3.5%) after --max-repeat runs.\n", out);
	return ferror(out) ? -1 : 0;
}

/* ---- CSV: one row per run (a refused cell: one row with the refusal) ---- */

static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6g", v);
	else
		fputs(",", out);
}

static void csv_run(FILE *out, const struct matrix_cell *c, size_t i, const struct matrix_run *run,
		    size_t k)
{
	fprintf(out, "%zu,", i + 1);
	csv_put(out, c->sched);
	fputc(',', out);
	csv_put(out, c->options);
	fprintf(out, ",%s,", matrix_cache_name(c->cache));
	csv_put(out, c->refused);
	if (!run) {
		fputs(",,,,,,,,,,,,,,,,,\n", out);
		return;
	}
	fprintf(out, ",%zu", k + 1);
	csv_num(out, run->elapsed_s);
	csv_num(out, run->writeback_s);
	csv_num(out, run->read_MB);
	csv_num(out, run->written_MB);
	csv_num(out, matrix_run_MBps(run));
	csv_num(out, run->cpu_s);
	csv_num(out, run->probe_p50_us);
	csv_num(out, run->probe_p99_us);
	fprintf(out, ",%d,", run->exit);
	csv_put(out, run->log);
	csv_num(out, run->fio ? run->fio_bw_MBps : NAN);
	csv_num(out, run->fio ? run->fio_iops : NAN);
	csv_num(out, run->fio ? run->fio_clat_p99_us : NAN);
	csv_num(out, c->elapsed_mean_s);
	csv_num(out, c->elapsed_sd_s);
	fprintf(out, ",%d\n", c->noisy);
}

int matrix_write_csv(FILE *out, const struct matrix_result *r)
{
	fputs("cell,scheduler,options,cache,refused,run,elapsed_s,writeback_s,read_MB,written_MB,"
	      "MBps,cpu_s,probe_p50_us,probe_p99_us,exit,log,fio_bw_MBps,fio_iops,"
	      "fio_clat_p99_us,elapsed_mean_s,elapsed_sd_s,noisy\n", out);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		if (!c->nruns)
			csv_run(out, c, i, NULL, 0);
		for (size_t k = 0; k < c->nruns; k++)
			csv_run(out, c, i, &c->runs[k], k);
	}
	return ferror(out) ? -1 : 0;
}

/* ---- JSON: the shape docs/experiments.md gives ---- */

/* Three decimals, as batch JSON writes them ("10.2", not 10.199999999999999). */
static json_object *jnum(double v)
{
	if (!isfinite(v))
		return NULL;
	char text[64];
	snprintf(text, sizeof text, "%.3f", v);
	char *end = text + strlen(text);
	while (end > text && end[-1] == '0')
		*--end = '\0';
	if (end > text && end[-1] == '.')
		end[-1] = '\0';
	return json_object_new_double_s(v, text);
}

static json_object *json_run(const struct matrix_run *run)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "elapsed_s", jnum(run->elapsed_s));
	json_object_object_add(o, "writeback_s", jnum(run->writeback_s));
	json_object_object_add(o, "read_MB", jnum(run->read_MB));
	json_object_object_add(o, "written_MB", jnum(run->written_MB));
	json_object_object_add(o, "probe_p50_us", jnum(run->probe_p50_us));
	json_object_object_add(o, "probe_p99_us", jnum(run->probe_p99_us));
	json_object_object_add(o, "exit", json_object_new_int(run->exit));
	json_object_object_add(o, "log", json_object_new_string(run->log));
	json_object_object_add(o, "cpu_s", jnum(run->cpu_s));
	if (run->fio) {
		json_object *f = json_object_new_object();
		json_object_object_add(f, "bw_MBps", jnum(run->fio_bw_MBps));
		json_object_object_add(f, "iops", jnum(run->fio_iops));
		json_object_object_add(f, "clat_p99_us", jnum(run->fio_clat_p99_us));
		json_object_object_add(o, "fio", f);
	}
	return o;
}

static json_object *json_cell(const struct matrix_cell *c)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "scheduler", json_object_new_string(c->sched));
	json_object_object_add(o, "options", json_object_new_string(c->options));
	json_object_object_add(o, "cache", json_object_new_string(matrix_cache_name(c->cache)));
	json_object_object_add(o, "refused", c->refused[0] ? json_object_new_string(c->refused) : NULL);
	json_object *runs = json_object_new_array();
	for (size_t i = 0; i < c->nruns; i++)
		json_object_array_add(runs, json_run(&c->runs[i]));
	json_object_object_add(o, "runs", runs);
	json_object_object_add(o, "elapsed_mean_s", jnum(c->elapsed_mean_s));
	json_object_object_add(o, "elapsed_sd_s", jnum(c->elapsed_sd_s));
	json_object_object_add(o, "noisy", json_object_new_boolean(c->noisy));
	return o;
}

static json_object *json_machine(const struct replay_machine *m)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "host", json_object_new_string(m->host));
	json_object_object_add(o, "kernel", json_object_new_string(m->kernel));
	json_object_object_add(o, "arch", json_object_new_string(m->arch));
	json_object_object_add(o, "cpu_model", json_object_new_string(m->cpu_model));
	json_object_object_add(o, "cpus", json_object_new_int64(m->cpus));
	json_object_object_add(o, "mem_total_kb", json_object_new_int64((int64_t)m->mem_total_kb));
	return o;
}

int matrix_write_json(FILE *out, const struct matrix_result *r)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "machine", json_machine(&r->machine));
	json_object_object_add(o, "device", json_object_new_string(r->device));
	json_object_object_add(o, "fstype", json_object_new_string(r->fstype));
	json_object_object_add(o, "mount", json_object_new_string(r->mount));
	json_object_object_add(o, "tunables", json_object_new_string(r->tunables));
	json_object_object_add(o, "command", json_object_new_string(r->command));
	json_object *cells = json_object_new_array();
	for (size_t i = 0; i < r->ncells; i++)
		json_object_array_add(cells, json_cell(&r->cells[i]));
	json_object_object_add(o, "cells", cells);
	json_object *b = json_object_new_object();
	json_object_object_add(b, "cell", json_object_new_int((int)r->baseline));
	if (r->ncells) {
		json_object_object_add(b, "scheduler", json_object_new_string(r->cells[r->baseline].sched));
		json_object_object_add(b, "options", json_object_new_string(r->cells[r->baseline].options));
	}
	json_object_object_add(b, "idle_probe_p50_us", jnum(r->idle_p50_us));
	json_object_object_add(b, "idle_probe_p99_us", jnum(r->idle_p99_us));
	json_object_object_add(o, "baseline", b);
	json_object_object_add(o, "complete", json_object_new_boolean(!r->status[0]));
	if (r->status[0])
		json_object_object_add(o, "status", json_object_new_string(r->status));
	int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE;
	struct json_text t = json_text_of(o, flags);
	int rc = t.text ? fprintf(out, "%s\n", t.text) : -1;
	json_text_free(&t);
	json_object_put(o);
	return rc < 0 || ferror(out) ? -1 : 0;
}

/* ---- PREFIX.* ---- */

static int write_one(const char *prefix, const char *ext, int (*fn)(FILE *, const struct matrix_result *),
		     const struct matrix_result *r, struct error *err)
{
	char path[4096];
	struct outfile of;
	snprintf(path, sizeof path, "%s.%s", prefix, ext);
	if (outfile_open(&of, path, NULL, err) < 0)
		return -1;
	if (fn(of.fp, r) < 0) {
		outfile_abort(&of);
		return error_set(err, "%s: could not be written", path);
	}
	return outfile_commit(&of, err);
}

int matrix_write_outputs(const char *prefix, const struct matrix_result *r, struct error *err)
{
	struct error e = { "" };
	int rc = 0;
	if (write_one(prefix, "txt", matrix_write_text, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	if (write_one(prefix, "csv", matrix_write_csv, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	if (write_one(prefix, "json", matrix_write_json, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	char png[4096];
	snprintf(png, sizeof png, "%s.png", prefix);
	if (matrix_write_png(png, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	return rc;
}
