/* matrix_plot.c - PREFIX.png of `ioscope matrix`: one bar group per cell (elapsed mean
 * with its sd, write-back time) and the probe's p50..p99 per cell against idle.  cairo
 * is opened here, when the picture is made (include/cairo_lib.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cairo_lib.h"
#include "matrix.h"
#include "outfile.h"
#include "text.h"

#define W 960
#define H 540
#define MARGIN 60

struct mplot {
	struct cairo_lib c;
	cairo_t *cr;
};

static double mean_of(const struct matrix_cell *c, size_t off)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < c->nruns; i++) {
		double v = *(const double *)((const char *)&c->runs[i] + off);
		if (c->runs[i].exit == 0 && isfinite(v))
			sum += v, n++;
	}
	return n ? sum / (double)n : NAN;
}
#define MEAN(c, f) mean_of(c, offsetof(struct matrix_run, f))

static void label(struct mplot *p, double x, double y, double size, const char *s)
{
	char clean[256];
	text_escape(s, clean, sizeof clean);
	p->c.set_font_size(p->cr, size);
	p->c.move_to(p->cr, x, y);
	p->c.show_text(p->cr, clean);
}

static void bar(struct mplot *p, double x, double w, double y0, double y1, double r, double g,
		double b)
{
	p->c.set_source_rgb(p->cr, r, g, b);
	p->c.rectangle(p->cr, x, y1, w, y0 - y1);
	p->c.fill(p->cr);
}

/* The top half: seconds. */
static void draw_times(struct mplot *p, const struct matrix_result *r, double top, double bottom)
{
	double max = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		double e = c->elapsed_mean_s + (isfinite(c->elapsed_sd_s) ? c->elapsed_sd_s : 0);
		if (isfinite(e) && e > max)
			max = e;
		double wb = MEAN(c, writeback_s);
		if (isfinite(wb) && wb > max)
			max = wb;
	}
	if (max <= 0)
		max = 1;
	double gw = (double)(W - 2 * MARGIN) / (double)(r->ncells ? r->ncells : 1);
	p->c.set_source_rgb(p->cr, 0, 0, 0);
	label(p, MARGIN, top - 8, 13, "seconds: elapsed (mean, sd) and write-back after exit");
	char t[32];
	snprintf(t, sizeof t, "%.3g s", max);
	label(p, 4, top + 10, 10, t);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		double x = MARGIN + gw * (double)i + gw * 0.15, bw = gw * 0.3;
		double scale = (bottom - top) / max;
		if (c->refused[0]) {
			p->c.set_source_rgb(p->cr, 0.6, 0, 0);
			label(p, x, bottom - 4, 10, "refused");
		} else if (isfinite(c->elapsed_mean_s)) {
			bar(p, x, bw, bottom, bottom - c->elapsed_mean_s * scale, 0.2, 0.4, 0.8);
			double sd = isfinite(c->elapsed_sd_s) ? c->elapsed_sd_s : 0;
			p->c.set_source_rgb(p->cr, 0, 0, 0);
			p->c.set_line_width(p->cr, 1);
			p->c.move_to(p->cr, x + bw / 2, bottom - (c->elapsed_mean_s - sd) * scale);
			p->c.line_to(p->cr, x + bw / 2, bottom - (c->elapsed_mean_s + sd) * scale);
			p->c.stroke(p->cr);
			double wb = MEAN(c, writeback_s);
			if (isfinite(wb))
				bar(p, x + bw, bw, bottom, bottom - wb * scale, 0.9, 0.5, 0.1);
		}
		p->c.set_source_rgb(p->cr, 0, 0, 0);
		snprintf(t, sizeof t, "%zu%s", i + 1, c->noisy ? "!" : "");
		label(p, x + bw * 0.8, bottom + 14, 11, t);
	}
}

/* The bottom half: the probe's p50..p99 of each cell, idle dashed. */
static void draw_probe(struct mplot *p, const struct matrix_result *r, double top, double bottom)
{
	double max = isfinite(r->idle_p99_us) ? r->idle_p99_us : 0;
	for (size_t i = 0; i < r->ncells; i++) {
		double v = MEAN(&r->cells[i], probe_p99_us);
		if (isfinite(v) && v > max)
			max = v;
	}
	p->c.set_source_rgb(p->cr, 0, 0, 0);
	if (max <= 0) {
		label(p, MARGIN, top + 20, 13, "probe: none (give --probe PATH)");
		return;
	}
	label(p, MARGIN, top - 8, 13, "probe read latency, us: p50 (dot) to p99 per cell; idle dashed");
	char t[32];
	snprintf(t, sizeof t, "%.3g us", max);
	label(p, 4, top + 10, 10, t);
	double scale = (bottom - top) / max;
	double gw = (double)(W - 2 * MARGIN) / (double)(r->ncells ? r->ncells : 1);
	if (isfinite(r->idle_p50_us)) {
		double dash[] = { 4, 4 };
		p->c.set_dash(p->cr, dash, 2, 0);
		p->c.move_to(p->cr, MARGIN, bottom - r->idle_p50_us * scale);
		p->c.line_to(p->cr, W - MARGIN, bottom - r->idle_p50_us * scale);
		p->c.stroke(p->cr);
		p->c.set_dash(p->cr, NULL, 0, 0);
	}
	for (size_t i = 0; i < r->ncells; i++) {
		double p50 = MEAN(&r->cells[i], probe_p50_us), p99 = MEAN(&r->cells[i], probe_p99_us);
		double x = MARGIN + gw * (double)i + gw * 0.45;
		if (!isfinite(p50) || !isfinite(p99))
			continue;
		p->c.set_source_rgb(p->cr, 0.1, 0.6, 0.3);
		p->c.set_line_width(p->cr, 3);
		p->c.move_to(p->cr, x, bottom - p50 * scale);
		p->c.line_to(p->cr, x, bottom - p99 * scale);
		p->c.stroke(p->cr);
		p->c.rectangle(p->cr, x - 4, bottom - p50 * scale - 4, 8, 8);
		p->c.fill(p->cr);
	}
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int draw(struct mplot *p, const struct matrix_result *r, FILE *out, struct error *err)
{
	cairo_surface_t *s = p->c.image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	p->cr = p->c.create(s);
	p->c.set_source_rgb(p->cr, 1, 1, 1);
	p->c.paint(p->cr);
	p->c.select_font_face(p->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	char title[256];
	snprintf(title, sizeof title, "ioscope matrix: %s (%s) on %s, Linux %s", r->device,
		 r->fstype, r->machine.host, r->machine.kernel);
	p->c.set_source_rgb(p->cr, 0, 0, 0);
	label(p, MARGIN, 24, 15, title);
	draw_times(p, r, 70, H / 2 + 10);
	draw_probe(p, r, H / 2 + 70, H - 30);
	cairo_status_t st = p->c.status(p->cr);
	p->c.destroy(p->cr);
	if (st == CAIRO_STATUS_SUCCESS)
		st = p->c.surface_write_to_png_stream(s, to_file, out);
	p->c.surface_finish(s);
	p->c.surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS)
		return error_set(err, "drawing failed: %s", p->c.status_to_string(st));
	return 0;
}

int matrix_write_png(const char *path, const struct matrix_result *r, struct error *err)
{
	struct mplot p;
	memset(&p, 0, sizeof p);
	if (cairo_lib_load(&p.c, err) < 0)
		return -1;
	struct outfile of;
	if (outfile_open(&of, path, NULL, err) < 0)
		return -1;
	if (draw(&p, r, of.fp, err) < 0) {
		outfile_abort(&of);
		return -1;
	}
	return outfile_commit(&of, err);
}
