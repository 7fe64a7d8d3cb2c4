/* matrix_output_quiet.c - in the results of `ioscope matrix`, what the device did that
 * the command did not (matrix_quiet.c, matrix_io.c): the wait for a quiet device before
 * each run, the runs that started on a busy one, and the device's MiB beside the
 * command's own and the rest ("other"). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "matrix.h"
#include "text.h"

static void fmt(char *buf, size_t len, double v, int decimals)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", v >= 1000 ? 0 : decimals, v);
}

static size_t busy_runs(const struct matrix_cell *c, const struct matrix_run **first)
{
	size_t n = 0;
	*first = NULL;
	for (size_t k = 0; k < c->nruns; k++)
		if (c->runs[k].busy_start && !n++)
			*first = &c->runs[k];
	return n;
}

void matrix_text_busy(FILE *out, const struct matrix_result *r, const struct matrix_cell *c)
{
	const struct matrix_run *first;
	size_t n = busy_runs(c, &first);
	if (!n)
		return;
	char who[MATRIX_WRITERS_MAX * 4], dev[DEV_NAME_MAX * 4];
	text_escape(first->writers[0] ? first->writers : "nobody seen", who, sizeof who);
	text_escape(r->device, dev, sizeof dev);
	fprintf(out, "%4s%zu of %zu runs started on a busy device: %.16s not quiet in %.0f s\n",
		"", n, c->nruns, dev, first->quiet_wait_s);
	fprintf(out, "%6sat work: %.64s\n", "", who);
}

static double mean_of(const struct matrix_cell *c, size_t off)
{
	return matrix_cell_mean(c, off);
}

void matrix_text_moved(FILE *out, const struct matrix_result *r)
{
	bool any = false;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		if (c->refused[0] || !matrix_cell_good_runs(c))
			continue;
		if (!any)
			fprintf(out, "\n%-10s %9s %9s %9s %9s\n", "moved, MiB", "device", "command",
				"other", "waited s");
		any = true;
		double dev = mean_of(c, offsetof(struct matrix_run, read_MB)) +
			     mean_of(c, offsetof(struct matrix_run, written_MB));
		double cmd = mean_of(c, offsetof(struct matrix_run, cmd_read_MB)) +
			     mean_of(c, offsetof(struct matrix_run, cmd_written_MB));
		char d[16], k[16], o[16], w[16], fs[16];
		fmt(d, sizeof d, dev, 1);
		fmt(k, sizeof k, cmd, 1);
		fmt(o, sizeof o, mean_of(c, offsetof(struct matrix_run, other_MB)), 1);
		fmt(w, sizeof w, mean_of(c, offsetof(struct matrix_run, quiet_wait_s)), 1);
		text_escape(r->fs[c->fs < r->nfs ? c->fs : 0].name, fs, sizeof fs);
		fprintf(out, "%2zu %-7.7s %9s %9s %9s %9s\n", i + 1, fs, d, k, o, w);
	}
	for (size_t f = 0; f < r->nfs; f++) {
		const struct matrix_fs *fs = &r->fs[f];
		if (!fs->idle_busy)
			continue;
		char name[16], who[MATRIX_WRITERS_MAX * 4];
		text_escape(fs->name, name, sizeof name);
		text_escape(fs->idle_writers[0] ? fs->idle_writers : "nobody seen", who, sizeof who);
		fprintf(out, "idle probe on %.7s taken on a busy device (at work: %.24s)\n", name,
			who);
	}
}

void matrix_csv_quiet(FILE *out, const struct matrix_run *run)
{
	if (isfinite(run->other_MB))
		fprintf(out, ",%.6g", run->other_MB);
	else
		fputc(',', out);
	if (isfinite(run->quiet_wait_s))
		fprintf(out, ",%.6g", run->quiet_wait_s);
	else
		fputc(',', out);
	fprintf(out, ",%d,", run->busy_start);
	csv_put(out, run->writers);
	fprintf(out, ",%zu", run->probe_reads);
}

void matrix_text_probe_load(FILE *out, const struct matrix_result *r)
{
	for (size_t f = 0; f < r->nfs; f++) {
		const struct matrix_fs *fs = &r->fs[f];
		if (!isfinite(fs->idle_busy_pct))
			continue;
		char name[16], dev[DEV_NAME_MAX * 4];
		text_escape(fs->name, name, sizeof name);
		text_escape(r->device, dev, sizeof dev);
		/* at most 80 columns: the names cut as the tables cut them */
		fprintf(out, "probe load idle on %.7s: %.2f%% of %.10s's time, %zu reads%s\n", name,
			fs->idle_busy_pct, dev, fs->idle_reads,
			fs->idle_busy_pct > MATRIX_PROBE_LOAD_MAX ? " (over 1%)" : "");
		if (fs->idle_busy_pct > MATRIX_PROBE_LOAD_MAX && isfinite(fs->run_probe_interval_s))
			fprintf(out, "  the runs after it probed every %.1f s\n",
				fs->run_probe_interval_s);
	}
}

static void json_wait(json_object *o, double waited, bool busy, const char *writers)
{
	json_object_object_add(o, "quiet_wait_s", matrix_json_num(waited));
	json_object_object_add(o, "busy_start", json_object_new_boolean(busy));
	json_object_object_add(o, "quiet_writers", writers[0] ? json_object_new_string(writers)
							       : NULL);
}

void matrix_json_quiet(json_object *o, const struct matrix_run *run)
{
	json_object_object_add(o, "other_MB", matrix_json_num(run->other_MB));
	json_object_object_add(o, "probe_reads", json_object_new_int64((int64_t)run->probe_reads));
	json_wait(o, run->quiet_wait_s, run->busy_start, run->writers);
}

void matrix_json_idle_quiet(json_object *o, const struct matrix_fs *fs)
{
	json_object_object_add(o, "device_busy_pct", matrix_json_num(fs->idle_busy_pct));
	json_object_object_add(o, "run_probe_interval_s", matrix_json_num(fs->run_probe_interval_s));
	json_wait(o, fs->idle_quiet_wait_s, fs->idle_busy, fs->idle_writers);
}
