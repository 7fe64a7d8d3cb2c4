/* matrix_output.c - the results of `ioscope matrix`: PREFIX.txt (80 columns, for an
 * email), PREFIX.csv and PREFIX.json with every run (docs/experiments.md). */
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_text.h"
#include "csv.h"
#include "matrix.h"
#include "outfile.h"
#include "text.h"

/* ---- shared figures ---- */

#define CELL_MEAN(c, field) MATRIX_CELL_MEAN(c, field)

static const struct matrix_fs *cell_fs(const struct matrix_result *r, const struct matrix_cell *c)
{
	return &r->fs[c->fs < r->nfs ? c->fs : 0];
}

/* The labels of the phases the runs were cut into, in order of first appearance. */
#define PHASE_COLUMNS 5
static void add_labels(const struct matrix_run *run, const char *labels[PHASE_COLUMNS], size_t *n)
{
	for (size_t p = 0; p < run->nphases; p++) {
		size_t j = 0;
		while (j < *n && strcmp(labels[j], run->phases[p].label) != 0)
			j++;
		if (j == *n && *n < PHASE_COLUMNS)
			labels[(*n)++] = run->phases[p].label;
	}
}

static size_t phase_labels(const struct matrix_result *r, const char *labels[PHASE_COLUMNS])
{
	size_t n = 0;
	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; k < r->cells[i].nruns; k++)
			add_labels(&r->cells[i].runs[k], labels, &n);
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

/* A ratio right-aligned in width columns, then the mark of its verdict
 * (matrix_verdict_mark): a space at the end of a line left out. */
static void put_ratio(FILE *out, const struct matrix_ratio *q, int width, bool last)
{
	char v[16];
	fmt_num(v, sizeof v, q->value, 2);
	char mark = isfinite(q->value) ? matrix_verdict_mark(q->verdict) : ' ';
	fprintf(out, " %*s", width, v);
	if (mark != ' ' || !last)
		fputc(mark, out);
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

/* One line per filesystem: how it was made, or that it was found mounted. */
static void text_filesystems(FILE *out, const struct matrix_result *r)
{
	for (size_t i = 0; i < r->nfs; i++) {
		const struct matrix_fs *fs = &r->fs[i];
		char line[512];
		if (fs->mkfs[0])
			snprintf(line, sizeof line, "%s: %s", fs->name[0] ? fs->name : "?", fs->mkfs);
		else
			snprintf(line, sizeof line, "%s: mounted at the start, remounted per cell",
				 fs->name[0] ? fs->name : "?");
		text_wrapped(out, i ? "          " : "fs:       ", line);
	}
}

static void text_header(FILE *out, const struct matrix_result *r)
{
	const struct replay_machine *mc = &r->machine;
	text_printf(out, "ioscope matrix on %s, Linux %s %s, %ld CPUs, %.1f GiB\n", mc->host,
		    mc->kernel, mc->arch, mc->cpus, (double)mc->mem_total_kb / 1048576.0);
	if (mc->cpu_model[0])
		text_printf(out, "cpu:      %.68s\n", mc->cpu_model);
	text_printf(out, "device:   %s on %.60s\n", r->device, r->mount);
	text_filesystems(out, r);
	text_wrapped(out, "tunables: ", r->tunables);
	text_wrapped(out, "command:  ", r->command);
	if (r->probe[0]) {
		char line[512];
		snprintf(line, sizeof line, "%s, idle on each filesystem (table below)", r->probe);
		text_wrapped(out, "probe:    ", line);
	} else {
		text_printf(out, "probe:    none\n");
	}
	if (r->ncells) {
		char name[MOUNT_OPTS_MAX + 128];
		matrix_cell_name(r, &r->cells[r->baseline], name, sizeof name);
		char line[MOUNT_OPTS_MAX + 160];
		snprintf(line, sizeof line, "cell %zu (%s)", r->baseline + 1, name);
		text_wrapped(out, "baseline: ", line);
	}
	if (r->status[0])
		text_printf(out, "PARTIAL:  %.68s\n", r->status);
	fputs("\n # fs      scheduler   options      cache  n  elapsed s   MiB/s  wb s ratio\n", out);
}

/* A refusal, wrapped under its cell. */
static void text_refused(FILE *out, const char *msg)
{
	wrap(out, "             refused: ", "                      ", msg);
}

/* Under a cell: the runs left out, and why. */
static void text_left_out(FILE *out, const struct matrix_cell *c)
{
	size_t good = matrix_cell_good_runs(c), stopped = matrix_cell_interrupted_runs(c);
	size_t failed = c->nruns - good - stopped;
	int sig = 0;
	for (size_t i = 0; i < c->nruns && !sig; i++)
		sig = c->runs[i].exit != 0 ? c->runs[i].interrupted : 0;
	if (failed)
		fprintf(out, "%4s%zu of %zu runs failed (exit status not 0; left out)\n", "", failed,
			c->nruns);
	if (stopped)
		fprintf(out, "%4s%zu of %zu runs interrupted by signal %d (left out)\n", "", stopped,
			c->nruns, sig);
}

static void text_cell(FILE *out, const struct matrix_result *r, size_t i)
{
	const struct matrix_cell *c = &r->cells[i];
	char fs[16], sched[16], opts[32];
	text_escape(cell_fs(r, c)->name, fs, sizeof fs);
	text_escape(c->sched, sched, sizeof sched);
	text_escape(c->options, opts, sizeof opts);
	bool long_opts = strlen(c->options) > 12;
	fprintf(out, "%2zu %-7.7s %-11.11s %-12.12s %-4s", i + 1, fs, sched,
		long_opts ? "(below)" : opts, matrix_cache_name(c->cache));
	if (c->refused[0]) {
		fputs("\n", out);
		text_refused(out, c->refused);
	} else {
		char el[24], mean[16], half[16], mbs[16], wb[16];
		struct matrix_cell_figures f;
		matrix_cell_figures(r, i, &f);
		/* the mean ± half its 95 % interval, as every ± of the result */
		fmt_num(mean, sizeof mean, c->elapsed_mean_s, 2);
		fmt_num(half, sizeof half, f.elapsed.half, 2);
		bool ci = isfinite(f.elapsed.half);
		if (ci)
			snprintf(el, sizeof el, "%s±%s", mean, half);
		else   /* one run: no interval; the mean in line with the others' */
			snprintf(el, sizeof el, "%s%5s", mean, "");   /* as wide as "±0.00" */
		fmt_num(mbs, sizeof mbs, f.mbps.mean, 1);
		fmt_num(wb, sizeof wb, CELL_MEAN(c, writeback_s), 2);
		/* "±" is two bytes and one column */
		fprintf(out, " %2zu%c %*s %6s %5s", matrix_cell_good_runs(c),
			c->noisy ? '!' : ' ', ci ? 12 : 11, el, mbs, wb);
		put_ratio(out, &f.ratio, 5, true);
		fputc('\n', out);
	}
	if (long_opts) {
		char full[MOUNT_OPTS_MAX];
		fprintf(out, "%4s%.76s\n", "", text_escape(c->options, full, sizeof full));
	}
	text_left_out(out, c);
	matrix_text_busy(out, r, c);
}

static void text_cell_head(FILE *out, const struct matrix_result *r, size_t i)
{
	char fs[16];
	text_escape(cell_fs(r, &r->cells[i])->name, fs, sizeof fs);
	fprintf(out, "%2zu %-7.7s", i + 1, fs);
}

/* The probe in milliseconds, idle (on the cell's filesystem) and during the runs, then
 * as a ratio to idle. */
static void text_probe(FILE *out, const struct matrix_result *r)
{
	if (!r->probe[0])
		return;
	fprintf(out, "\n%-10s %9s %7s %5s %9s %7s %5s %6s  %6s\n", "probe, ms", "idle p50",
		"p99", "n", "run p50", "p99", "n", "p50x", "p99x");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		const struct matrix_fs *fs = cell_fs(r, c);
		if (c->refused[0])
			continue;
		struct matrix_cell_figures f;
		matrix_cell_figures(r, i, &f);
		char ip50[16], ip99[16], rp50[16], rp99[16];
		fmt_num(ip50, sizeof ip50, fs->idle_p50_us / 1000, 3);
		fmt_num(ip99, sizeof ip99, fs->idle_p99_us / 1000, 3);
		fmt_num(rp50, sizeof rp50, f.probe_p50_us / 1000, 3);
		fmt_num(rp99, sizeof rp99, f.probe_p99_us / 1000, 3);
		text_cell_head(out, r, i);
		/* every figure with the count of reads it is of */
		fprintf(out, " %9s %7s %5zu %9s %7s %5zu", ip50, ip99, fs->idle_reads, rp50, rp99,
			c->probe_reads);
		put_ratio(out, &f.p50x, 6, false);
		put_ratio(out, &f.p99x, 6, true);
		fputc('\n', out);
	}
	matrix_text_probe_load(out, r);
}

/* The phases the command's marks cut its runs into, mean seconds each. */
static void text_phases(FILE *out, const struct matrix_result *r)
{
	const char *labels[PHASE_COLUMNS];
	size_t n = phase_labels(r, labels);
	if (!n)
		return;
	fprintf(out, "\n%-10s", "phases, s");
	for (size_t k = 0; k < n; k++) {
		char l[MATRIX_PHASE_LABEL_MAX * 4];
		text_escape(labels[k], l, sizeof l);
		fprintf(out, " %9.9s", l);
	}
	fputs("\n", out);
	for (size_t i = 0; i < r->ncells; i++) {
		if (r->cells[i].refused[0])
			continue;
		text_cell_head(out, r, i);
		for (size_t k = 0; k < n; k++) {
			char v[16];
			fmt_num(v, sizeof v, matrix_cell_phase_mean(&r->cells[i], labels[k]), 2);
			fprintf(out, " %9s", v);
		}
		fputs("\n", out);
	}
}

static void text_fio(FILE *out, const struct matrix_result *r)
{
	bool any = false;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		if (!c->nruns || !c->runs[0].fio)
			continue;
		if (!any)
			fputs("\nfio            MiB/s       IOPS  clat p99 us\n", out);
		any = true;
		text_cell_head(out, r, i);
		fprintf(out, " %9.1f %10.0f %12.0f\n", CELL_MEAN(c, fio_bw_MBps),
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
	text_probe(out, r);
	matrix_text_uncertainty(out, r);
	text_phases(out, r);
	matrix_text_moved(out, r);
	text_fio(out, r);
	fputs("\nn: runs measured; elapsed: of the command, mean ± half its 95% confidence\n"
	      "interval over the runs (Student's t; none with 1 run), as every ±; MiB/s: read\n"
	      "+ written on the device (its diskstats from the start to the exit) per second,\n"
	      "the runs' mean; wb s: sync after it exited; ratio: elapsed / the baseline's.\n"
	      "MiB: 2^20 bytes, as in report and compare (the CSV's and JSON's _MB and MBps\n"
	      "too).  A ratio differs only when a test across the runs says so at 5%: ~\n"
	      "within noise, ? untested (a side with 1 run, or too few reads).\n", out);
	if (r->probe[0])
		fputs("probe: 4 KiB reads timed, p50 and p99 in ms idle on the cell's filesystem and\n"
		      "during its runs (all its reads), then as a ratio to idle: p50x by the\n"
		      "Mann-Whitney U test of the reads, p99x by whether the 95% intervals of the\n"
		      "two p99 are apart (? under ~370 reads a p99 has no upper bound).  probe load:\n"
		      "the device's busy time during the idle probe, its own reads; over 1%, the\n"
		      "runs after it read less often, to bring it to 0.8%.\n", out);
	const char *labels[PHASE_COLUMNS];
	if (phase_labels(r, labels))
		fputs("phases: the command's own marks (ioscope mark) cut each run; mean seconds.\n",
		      out);
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

#define CSV_HEADER "cell,fs,scheduler,options,cache,refused,run,elapsed_s,writeback_s,read_MB," \
		   "written_MB,MBps,command_read_MB,command_written_MB,cpu_s,probe_p50_us," \
		   "probe_p99_us,idle_probe_p50_us,idle_probe_p99_us,exit,interrupted,log," \
		   "fio_bw_MBps,fio_iops,fio_clat_p99_us,elapsed_mean_s,elapsed_sd_s,noisy,phases," \
		   MATRIX_CSV_CI_HEADER "," MATRIX_CSV_QUIET_HEADER
#define CSV_CELL_FIELDS 6   /* cell .. refused: the fields a refused cell's row has */

/* "untar=12.3;rmtree=3.4" */
static void csv_phases(FILE *out, const struct matrix_run *run)
{
	char text[MATRIX_MAX_PHASES * (MATRIX_PHASE_LABEL_MAX + 24)] = "";
	size_t used = 0;
	for (size_t p = 0; p < run->nphases; p++)
		used = text_appendf(text, sizeof text, used, "%s%s=%.6g", p ? ";" : "",
				    run->phases[p].label, run->phases[p].seconds);
	fputc(',', out);
	csv_put(out, text);
}

static void csv_run(FILE *out, const struct matrix_result *r, size_t i, const struct matrix_run *run,
		    size_t k)
{
	const struct matrix_cell *c = &r->cells[i];
	const struct matrix_fs *fs = cell_fs(r, c);
	fprintf(out, "%zu,", i + 1);
	csv_put(out, fs->name);
	fputc(',', out);
	csv_put(out, c->sched);
	fputc(',', out);
	csv_put(out, c->options);
	fprintf(out, ",%s,", matrix_cache_name(c->cache));
	csv_put(out, c->refused);
	if (!run) {
		size_t fields = 1;
		for (const char *h = CSV_HEADER; *h; h++)
			fields += *h == ',';
		for (size_t f = CSV_CELL_FIELDS; f < fields; f++)
			fputc(',', out);
		fputc('\n', out);
		return;
	}
	fprintf(out, ",%zu", k + 1);
	csv_num(out, run->elapsed_s);
	csv_num(out, run->writeback_s);
	csv_num(out, run->read_MB);
	csv_num(out, run->written_MB);
	csv_num(out, matrix_run_MBps(run));
	csv_num(out, run->cmd_read_MB);
	csv_num(out, run->cmd_written_MB);
	csv_num(out, run->cpu_s);
	csv_num(out, run->probe_p50_us);
	csv_num(out, run->probe_p99_us);
	csv_num(out, fs->idle_p50_us);
	csv_num(out, fs->idle_p99_us);
	fprintf(out, ",%d,", run->exit);
	if (run->interrupted)
		fprintf(out, "%d", run->interrupted);
	fputc(',', out);
	csv_put(out, run->log);
	csv_num(out, run->fio ? run->fio_bw_MBps : NAN);
	csv_num(out, run->fio ? run->fio_iops : NAN);
	csv_num(out, run->fio ? run->fio_clat_p99_us : NAN);
	csv_num(out, c->elapsed_mean_s);
	csv_num(out, c->elapsed_sd_s);
	fprintf(out, ",%d", c->noisy);
	csv_phases(out, run);
	matrix_csv_uncertainty(out, r, i);
	matrix_csv_quiet(out, run);
	fputc('\n', out);
}

int matrix_write_csv(FILE *out, const struct matrix_result *r)
{
	fputs(CSV_HEADER "\n", out);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		if (!c->nruns)
			csv_run(out, r, i, NULL, 0);
		for (size_t k = 0; k < c->nruns; k++)
			csv_run(out, r, i, &c->runs[k], k);
	}
	return ferror(out) ? -1 : 0;
}

/* ---- JSON: the shape docs/experiments.md gives ---- */

json_object *matrix_json_num(double v)
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
	json_object_object_add(o, "elapsed_s", matrix_json_num(run->elapsed_s));
	json_object_object_add(o, "writeback_s", matrix_json_num(run->writeback_s));
	json_object_object_add(o, "read_MB", matrix_json_num(run->read_MB));
	json_object_object_add(o, "written_MB", matrix_json_num(run->written_MB));
	json_object_object_add(o, "probe_p50_us", matrix_json_num(run->probe_p50_us));
	json_object_object_add(o, "probe_p99_us", matrix_json_num(run->probe_p99_us));
	json_object_object_add(o, "exit", json_object_new_int(run->exit));
	json_object *stopped = run->interrupted ? json_object_new_int(run->interrupted) : NULL;
	json_object_object_add(o, "interrupted", stopped);
	json_object_object_add(o, "log", json_object_new_string(run->log));
	json_object_object_add(o, "cpu_s", matrix_json_num(run->cpu_s));
	json_object_object_add(o, "MBps", matrix_json_num(matrix_run_MBps(run)));
	json_object_object_add(o, "command_read_MB", matrix_json_num(run->cmd_read_MB));
	json_object_object_add(o, "command_written_MB", matrix_json_num(run->cmd_written_MB));
	json_object *phases = json_object_new_array();
	for (size_t i = 0; i < run->nphases; i++) {
		json_object *p = json_object_new_object();
		json_object_object_add(p, "mark", json_object_new_string(run->phases[i].label));
		json_object_object_add(p, "elapsed_s", matrix_json_num(run->phases[i].seconds));
		json_object_array_add(phases, p);
	}
	json_object_object_add(o, "phases", phases);
	if (run->fio) {
		json_object *f = json_object_new_object();
		json_object_object_add(f, "bw_MBps", matrix_json_num(run->fio_bw_MBps));
		json_object_object_add(f, "iops", matrix_json_num(run->fio_iops));
		json_object_object_add(f, "clat_p99_us", matrix_json_num(run->fio_clat_p99_us));
		json_object_object_add(o, "fio", f);
	}
	matrix_json_quiet(o, run);
	return o;
}

static json_object *json_idle(const struct matrix_fs *fs)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "p50_us", matrix_json_num(fs->idle_p50_us));
	json_object_object_add(o, "p99_us", matrix_json_num(fs->idle_p99_us));
	matrix_json_idle_uncertainty(o, fs);
	matrix_json_idle_quiet(o, fs);
	return o;
}

static json_object *json_cell(const struct matrix_result *r, size_t cell)
{
	const struct matrix_cell *c = &r->cells[cell];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "fs", json_object_new_string(cell_fs(r, c)->name));
	json_object_object_add(o, "scheduler", json_object_new_string(c->sched));
	json_object_object_add(o, "options", json_object_new_string(c->options));
	json_object_object_add(o, "cache", json_object_new_string(matrix_cache_name(c->cache)));
	json_object_object_add(o, "refused", c->refused[0] ? json_object_new_string(c->refused) : NULL);
	json_object *runs = json_object_new_array();
	for (size_t i = 0; i < c->nruns; i++)
		json_object_array_add(runs, json_run(&c->runs[i]));
	json_object_object_add(o, "runs", runs);
	json_object_object_add(o, "elapsed_mean_s", matrix_json_num(c->elapsed_mean_s));
	json_object_object_add(o, "elapsed_sd_s", matrix_json_num(c->elapsed_sd_s));
	json_object_object_add(o, "noisy", json_object_new_boolean(c->noisy));
	json_object_object_add(o, "idle_probe", json_idle(cell_fs(r, c)));
	matrix_json_uncertainty(o, r, cell);
	return o;
}

static json_object *json_filesystems(const struct matrix_result *r)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < r->nfs; i++) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(r->fs[i].name));
		const char *mkfs = r->fs[i].mkfs;
		json_object_object_add(o, "mkfs", mkfs[0] ? json_object_new_string(mkfs) : NULL);
		json_object_object_add(o, "fstype", json_object_new_string(r->fs[i].fstype));
		json_object_object_add(o, "idle_probe", json_idle(&r->fs[i]));
		json_object_array_add(a, o);
	}
	return a;
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
	/* the bytes of the MB of every _MB and MBps key: MiB, as in report and compare */
	json_object *units = json_object_new_object();
	json_object_object_add(units, "MB", json_object_new_int64((int64_t)MATRIX_MB));
	json_object_object_add(o, "units", units);
	json_object_object_add(o, "device", json_object_new_string(r->device));
	json_object_object_add(o, "fstype", json_object_new_string(r->nfs ? r->fs[0].fstype : ""));
	json_object_object_add(o, "filesystems", json_filesystems(r));
	json_object_object_add(o, "mount", json_object_new_string(r->mount));
	json_object_object_add(o, "probe", r->probe[0] ? json_object_new_string(r->probe) : NULL);
	json_object_object_add(o, "tunables", json_object_new_string(r->tunables));
	json_object_object_add(o, "command", json_object_new_string(r->command));
	json_object *cells = json_object_new_array();
	for (size_t i = 0; i < r->ncells; i++)
		json_object_array_add(cells, json_cell(r, i));
	json_object_object_add(o, "cells", cells);
	json_object *b = json_object_new_object();
	json_object_object_add(b, "cell", json_object_new_int((int)r->baseline));
	if (r->ncells) {
		const struct matrix_cell *c = &r->cells[r->baseline];
		json_object_object_add(b, "fs", json_object_new_string(cell_fs(r, c)->name));
		json_object_object_add(b, "scheduler", json_object_new_string(c->sched));
		json_object_object_add(b, "options", json_object_new_string(c->options));
		json_object_object_add(b, "idle_probe_p50_us", matrix_json_num(cell_fs(r, c)->idle_p50_us));
		json_object_object_add(b, "idle_probe_p99_us", matrix_json_num(cell_fs(r, c)->idle_p99_us));
	}
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

/* PREFIX.ext, made in the directory opened at the start as base.ext. */
static int write_one(int dirfd, const char *base, const char *prefix, const char *ext,
		     int (*fn)(FILE *, const struct matrix_result *),
		     const struct matrix_result *r, struct error *err)
{
	char path[4096], name[NAME_MAX + 8];
	struct outfile of;
	snprintf(path, sizeof path, "%s.%s", prefix, ext);
	snprintf(name, sizeof name, "%s.%s", base, ext);
	if (outfile_open_in(&of, dirfd, name, path, NULL, err) < 0)
		return -1;
	if (fn(of.fp, r) < 0) {
		outfile_abort(&of);
		return error_set(err, "%s: could not be written", path);
	}
	return outfile_commit(&of, err);
}

int matrix_write_outputs(int dirfd, const char *base, const char *prefix,
			 const struct matrix_result *r, struct error *err)
{
	struct error e = { "" };
	int rc = 0;
	if (write_one(dirfd, base, prefix, "txt", matrix_write_text, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	if (write_one(dirfd, base, prefix, "csv", matrix_write_csv, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	if (write_one(dirfd, base, prefix, "json", matrix_write_json, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	char png[4096], name[NAME_MAX + 8];
	snprintf(png, sizeof png, "%s.png", prefix);
	snprintf(name, sizeof name, "%s.png", base);
	if (matrix_write_png(dirfd, name, png, r, &e) < 0 && rc == 0)
		rc = -1, *err = e;
	return rc;
}
