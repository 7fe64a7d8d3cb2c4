/* matrix_output_ci.c - the uncertainty of the matrix's figures in its results
 * (matrix_uncertainty.c, docs/experiments.md "Uncertainty"): the text's tables of 95 %
 * confidence intervals and verdicts, the CSV's columns and the JSON's keys of them. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "matrix.h"
#include "text.h"

/* ---- text ---- */

static void fmt(char *buf, size_t len, double v, int decimals)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", v >= 1000 ? 0 : decimals, v);
}

/* "10.20±2.52"; "12.00" and room for "±0.00" when there is no interval, the means in
 * line */
static void fmt_ci(char *buf, size_t len, const struct matrix_ci *ci, int decimals)
{
	char mean[32], half[32];
	fmt(mean, sizeof mean, ci->mean, decimals);
	fmt(half, sizeof half, ci->half, decimals);
	if (isfinite(ci->mean) && isfinite(ci->half))
		snprintf(buf, len, "%s±%s", mean, half);
	else
		snprintf(buf, len, "%s%*s", mean, decimals + 3, "");
}

/* s right-aligned in width columns: "±" is two bytes and one column. */
static void put_right(FILE *out, const char *s, int width)
{
	int cols = 0;
	for (const char *p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	fprintf(out, " %*s%s", width > cols ? width - cols : 0, "", s);
}

/* A ratio's verdict, with the test's p where there is one. */
static void verdict_text(char *buf, size_t len, const struct matrix_ratio *q)
{
	if (isfinite(q->p) && (q->verdict == MATRIX_DIFFERS || q->verdict == MATRIX_WITHIN_NOISE))
		snprintf(buf, len, "%s, p %.3f", matrix_verdict_name(q->verdict), q->p);
	else
		snprintf(buf, len, "%s", matrix_verdict_name(q->verdict));
}

static void cell_head(FILE *out, const struct matrix_result *r, size_t i)
{
	const struct matrix_cell *c = &r->cells[i];
	char fs[16];
	text_escape(r->fs[c->fs < r->nfs ? c->fs : 0].name, fs, sizeof fs);
	fprintf(out, "%2zu %-7.7s", i + 1, fs);
}

/* Elapsed, MiB/s and write-back with their intervals, the ratio with its verdict. */
static void text_times(FILE *out, const struct matrix_result *r)
{
	fprintf(out, "\n%-10s %11s %10s %10s %5s  %s\n", "95% CI", "elapsed s", "MiB/s", "wb s",
		"ratio", "vs the baseline (Welch's t)");
	for (size_t i = 0; i < r->ncells; i++) {
		if (r->cells[i].refused[0] || !matrix_cell_good_runs(&r->cells[i]))
			continue;
		struct matrix_cell_figures f;
		matrix_cell_figures(r, i, &f);
		char el[48], mb[48], wb[48], ratio[16], verdict[64];
		fmt_ci(el, sizeof el, &f.elapsed, 2);
		fmt_ci(mb, sizeof mb, &f.mbps, 1);
		fmt_ci(wb, sizeof wb, &f.writeback, 2);
		fmt(ratio, sizeof ratio, f.ratio.value, 2);
		verdict_text(verdict, sizeof verdict, &f.ratio);
		cell_head(out, r, i);
		put_right(out, el, 11);
		put_right(out, mb, 10);
		put_right(out, wb, 10);
		fprintf(out, " %5s  %s\n", ratio, verdict);
	}
}

/* "0.090-0.120", "0.350-?" (no bound), in ms */
static void fmt_interval(char *buf, size_t len, double lo_us, double hi_us)
{
	char lo[32], hi[32];
	fmt(lo, sizeof lo, lo_us / 1000, 3);
	fmt(hi, sizeof hi, hi_us / 1000, 3);
	snprintf(buf, len, "%s-%s", isfinite(lo_us) ? lo : "?", isfinite(hi_us) ? hi : "?");
}

static void probe_line(FILE *out, const char *what, double p50, double p50_lo, double p50_hi,
		       double p99, double p99_lo, double p99_hi, size_t reads)
{
	char a[32], ai[64], b[32], bi[64];
	fmt(a, sizeof a, p50 / 1000, 3);
	fmt(b, sizeof b, p99 / 1000, 3);
	fmt_interval(ai, sizeof ai, p50_lo, p50_hi);
	fmt_interval(bi, sizeof bi, p99_lo, p99_hi);
	fprintf(out, " %-5s %7s %-15s %7s %-15s %6zu\n", what, a, ai, b, bi, reads);
}

/* Per cell its filesystem's idle reads, its runs' reads (pooled), and the ratios with
 * their verdicts; each figure with its 95 % interval and the count of reads it is of. */
static void text_probe(FILE *out, const struct matrix_result *r)
{
	fprintf(out, "\n%-16s %7s %-15s %7s %-15s %6s\n", "probe, 95% CI", "p50 ms", "",
		"p99 ms", "", "reads");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		const struct matrix_fs *fs = &r->fs[c->fs < r->nfs ? c->fs : 0];
		if (c->refused[0] || !c->probe_reads)
			continue;
		struct matrix_cell_figures f;
		matrix_cell_figures(r, i, &f);
		cell_head(out, r, i);
		probe_line(out, "idle", fs->idle_p50_us, fs->idle_p50_lo_us, fs->idle_p50_hi_us,
			   fs->idle_p99_us, fs->idle_p99_lo_us, fs->idle_p99_hi_us, fs->idle_reads);
		fprintf(out, "%10s", "");
		probe_line(out, "runs", c->probe_p50_us, c->probe_p50_lo_us, c->probe_p50_hi_us,
			   c->probe_p99_us, c->probe_p99_lo_us, c->probe_p99_hi_us, c->probe_reads);
		char x50[16], x99[16];
		fmt(x50, sizeof x50, f.p50x.value, 2);
		fmt(x99, sizeof x99, f.p99x.value, 2);
		fprintf(out, "%10s %-5s %7s %-15s %7s %s\n", "", "ratio", x50,
			matrix_verdict_name(f.p50x.verdict), x99, matrix_verdict_name(f.p99x.verdict));
	}
}

void matrix_text_uncertainty(FILE *out, const struct matrix_result *r)
{
	bool runs = false, reads = false;
	for (size_t i = 0; i < r->ncells; i++) {
		runs |= !r->cells[i].refused[0] && matrix_cell_good_runs(&r->cells[i]) > 0;
		reads |= !r->cells[i].refused[0] && r->cells[i].probe_reads > 0;
	}
	if (runs)
		text_times(out, r);
	if (reads)
		text_probe(out, r);
}

char matrix_verdict_mark(enum matrix_verdict v)
{
	return v == MATRIX_WITHIN_NOISE ? '~' : v == MATRIX_UNTESTED || v == MATRIX_TOO_FEW ? '?'
									      : ' ';
}

/* ---- CSV ---- */

static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6g", v);
	else
		fputs(",", out);
}

static void csv_ratio(FILE *out, const struct matrix_ratio *q)
{
	csv_num(out, q->value);
	csv_num(out, q->p);
	fprintf(out, ",%s", matrix_verdict_name(q->verdict));
}

void matrix_csv_uncertainty(FILE *out, const struct matrix_result *r, size_t i)
{
	const struct matrix_cell *c = &r->cells[i];
	const struct matrix_fs *fs = &r->fs[c->fs < r->nfs ? c->fs : 0];
	struct matrix_cell_figures f;
	matrix_cell_figures(r, i, &f);
	csv_num(out, f.elapsed.half);
	csv_num(out, f.mbps.mean);
	csv_num(out, f.mbps.half);
	csv_num(out, f.writeback.mean);
	csv_num(out, f.writeback.half);
	csv_ratio(out, &f.ratio);
	fprintf(out, ",%zu", c->probe_reads);
	csv_num(out, f.probe_p50_us);
	csv_num(out, c->probe_p50_lo_us);
	csv_num(out, c->probe_p50_hi_us);
	csv_num(out, f.probe_p99_us);
	csv_num(out, c->probe_p99_lo_us);
	csv_num(out, c->probe_p99_hi_us);
	fprintf(out, ",%zu", fs->idle_reads);
	csv_num(out, fs->idle_p50_lo_us);
	csv_num(out, fs->idle_p50_hi_us);
	csv_num(out, fs->idle_p99_lo_us);
	csv_num(out, fs->idle_p99_hi_us);
	csv_ratio(out, &f.p50x);
	csv_ratio(out, &f.p99x);
}

/* ---- JSON ---- */


/* Its p to four significant digits: 0.0001 is not 0. */
static json_object *jp(double p)
{
	if (!isfinite(p))
		return NULL;
	char text[32];
	snprintf(text, sizeof text, "%.4g", p);
	return json_object_new_double_s(p, text);
}

static json_object *json_ratio(const struct matrix_ratio *q, const char *test)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "value", matrix_json_num(q->value));
	json_object_object_add(o, "test", json_object_new_string(test));
	json_object_object_add(o, "p", jp(q->p));
	json_object_object_add(o, "verdict", json_object_new_string(matrix_verdict_name(q->verdict)));
	return o;
}

static json_object *json_bounds(double lo, double hi)
{
	json_object *a = json_object_new_array();
	json_object_array_add(a, matrix_json_num(lo));
	json_object_array_add(a, matrix_json_num(hi));
	return a;
}

void matrix_json_uncertainty(struct json_object *o, const struct matrix_result *r, size_t i)
{
	const struct matrix_cell *c = &r->cells[i];
	struct matrix_cell_figures f;
	matrix_cell_figures(r, i, &f);
	json_object_object_add(o, "elapsed_ci95_s", matrix_json_num(f.elapsed.half));
	json_object_object_add(o, "MBps_mean", matrix_json_num(f.mbps.mean));
	json_object_object_add(o, "MBps_ci95", matrix_json_num(f.mbps.half));
	json_object_object_add(o, "writeback_mean_s", matrix_json_num(f.writeback.mean));
	json_object_object_add(o, "writeback_ci95_s", matrix_json_num(f.writeback.half));
	json_object_object_add(o, "ratio", json_ratio(&f.ratio, "welch"));
	json_object *p = json_object_new_object();
	json_object_object_add(p, "reads", json_object_new_int64((int64_t)c->probe_reads));
	json_object_object_add(p, "p50_us", matrix_json_num(f.probe_p50_us));
	json_object_object_add(p, "p50_ci95_us", json_bounds(c->probe_p50_lo_us, c->probe_p50_hi_us));
	json_object_object_add(p, "p99_us", matrix_json_num(f.probe_p99_us));
	json_object_object_add(p, "p99_ci95_us", json_bounds(c->probe_p99_lo_us, c->probe_p99_hi_us));
	json_object_object_add(p, "p50x", json_ratio(&f.p50x, "mann-whitney"));
	json_object_object_add(p, "p99x", json_ratio(&f.p99x, "intervals"));
	json_object_object_add(o, "probe", p);
}

void matrix_json_idle_uncertainty(struct json_object *o, const struct matrix_fs *fs)
{
	json_object_object_add(o, "reads", json_object_new_int64((int64_t)fs->idle_reads));
	json_object_object_add(o, "p50_ci95_us", json_bounds(fs->idle_p50_lo_us, fs->idle_p50_hi_us));
	json_object_object_add(o, "p99_ci95_us", json_bounds(fs->idle_p99_lo_us, fs->idle_p99_hi_us));
}
