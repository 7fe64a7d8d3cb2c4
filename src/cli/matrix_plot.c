/* matrix_plot.c - PREFIX.png of `ioscope matrix`, readable without the table: one bar
 * group per cell (elapsed mean with its sd, write-back time) on a seconds axis with
 * ticks, and below it the probe's p50..p99 per cell against the idle p50 of the cell's
 * filesystem, on a logarithmic milliseconds axis (a loaded disk's latency is tens or
 * hundreds of times the idle one); every cell named under the axis, a legend on top.
 * cairo is opened here, when the picture is made (include/cairo_lib.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cairo_lib.h"
#include "matrix.h"
#include "outfile.h"
#include "text.h"

#define W 1000
#define H 720
#define LEFT 80
#define RIGHT 20          /* at least: the last cell's name may need more */
#define NAME_SLANT (M_PI / 5)
#define TIMES_TOP 100
#define TIMES_BOTTOM 330
#define PROBE_TOP 390
#define PROBE_BOTTOM 560
#define NAMES_TOP 572

struct rgb {
	double r, g, b;
};
static const struct rgb ELAPSED = { 0.2, 0.4, 0.8 }, WRITEBACK = { 0.9, 0.5, 0.1 },
			PROBE = { 0.1, 0.6, 0.3 }, IDLE = { 0.3, 0.3, 0.3 },
			GRID = { 0.88, 0.88, 0.88 }, INK = { 0, 0, 0 }, REFUSED = { 0.6, 0, 0 };

struct mplot {
	struct cairo_lib c;
	cairo_t *cr;
	double gw;            /* width of one cell's group */
	double right;         /* x of the axes' right end */
	double name_size;     /* font size of the cells' names */
};

static void colour(struct mplot *p, struct rgb c)
{
	p->c.set_source_rgb(p->cr, c.r, c.g, c.b);
}

static void label(struct mplot *p, double x, double y, double size, const char *s)
{
	char clean[256];
	text_escape(s, clean, sizeof clean);
	p->c.set_font_size(p->cr, size);
	p->c.move_to(p->cr, x, y);
	p->c.show_text(p->cr, clean);
}

/* Right-aligned at x (the axis labels). */
static void label_right(struct mplot *p, double x, double y, double size, const char *s)
{
	cairo_text_extents_t e;
	p->c.set_font_size(p->cr, size);
	p->c.text_extents(p->cr, s, &e);
	label(p, x - e.x_advance, y, size, s);
}

static void line(struct mplot *p, double x0, double y0, double x1, double y1, double width)
{
	p->c.set_line_width(p->cr, width);
	p->c.move_to(p->cr, x0, y0);
	p->c.line_to(p->cr, x1, y1);
	p->c.stroke(p->cr);
}

static void bar(struct mplot *p, double x, double w, double y0, double y1, struct rgb c)
{
	colour(p, c);
	p->c.rectangle(p->cr, x, y1, w, y0 - y1);
	p->c.fill(p->cr);
}

static double cell_x(const struct mplot *p, size_t i)
{
	return LEFT + p->gw * (double)i;
}

/* A tick step of 1, 2 or 5 times a power of ten giving about five ticks up to max. */
static double nice_step(double max)
{
	double raw = max / 5, mag = pow(10, floor(log10(raw))), norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

static void legend(struct mplot *p, bool probe)
{
	const struct { struct rgb c; const char *text; bool dashed; } keys[] = {
		{ ELAPSED, "elapsed, mean (whisker: 95% CI)", false },
		{ WRITEBACK, "write-back after exit (sync)", false },
		{ PROBE, "probe read p50 (square) to p99", false },
		{ IDLE, "probe p50 idle on the filesystem", true },
	};
	double x = LEFT;
	for (size_t i = 0; i < (probe ? 4u : 2u); i++) {
		colour(p, keys[i].c);
		if (keys[i].dashed) {
			double dash[] = { 4, 3 };
			p->c.set_dash(p->cr, dash, 2, 0);
			line(p, x, 55, x + 14, 55, 1.5);
			p->c.set_dash(p->cr, NULL, 0, 0);
		} else {
			p->c.rectangle(p->cr, x, 49, 14, 12);
			p->c.fill(p->cr);
		}
		colour(p, INK);
		label(p, x + 20, 60, 12, keys[i].text);
		x += 225;
	}
}

/* Horizontal grid lines and labels at each tick of a linear axis. */
static void linear_axis(struct mplot *p, double top, double bottom, double max, const char *unit)
{
	double step = nice_step(max), scale = (bottom - top) / max;
	for (double v = 0; v <= max * 1.0001; v += step) {
		double y = bottom - v * scale;
		char t[32];
		snprintf(t, sizeof t, "%g %s", v, unit);
		colour(p, GRID);
		line(p, LEFT, y, p->right, y, 1);
		colour(p, INK);
		label_right(p, LEFT - 6, y + 4, 11, t);
	}
}

static double times_max(const struct matrix_result *r)
{
	double max = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		struct matrix_cell_figures f;
		matrix_cell_figures(r, i, &f);
		double e = c->elapsed_mean_s + (isfinite(f.elapsed.half) ? f.elapsed.half : 0);
		double wb = MATRIX_CELL_MEAN(c, writeback_s);
		max = fmax(max, isfinite(e) ? e : 0);
		max = fmax(max, isfinite(wb) ? wb : 0);
	}
	if (max <= 0)
		return 1;
	double step = nice_step(max);
	return ceil(max / step) * step;
}

/* The top panel: seconds. */
static void draw_times(struct mplot *p, const struct matrix_result *r)
{
	double max = times_max(r), scale = (TIMES_BOTTOM - TIMES_TOP) / max;
	colour(p, INK);
	label(p, LEFT, TIMES_TOP - 12, 13,
	      "seconds per cell: the command, and the write-back after it");
	linear_axis(p, TIMES_TOP, TIMES_BOTTOM, max, "s");
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_cell *c = &r->cells[i];
		double x = cell_x(p, i) + p->gw * 0.15, bw = p->gw * 0.35;
		if (c->refused[0]) {
			colour(p, REFUSED);
			label(p, x, TIMES_BOTTOM - 4, fmin(10, p->gw * 0.25), "refused");
			continue;
		}
		if (!isfinite(c->elapsed_mean_s))
			continue;
		bar(p, x, bw, TIMES_BOTTOM, TIMES_BOTTOM - c->elapsed_mean_s * scale, ELAPSED);
		struct matrix_cell_figures f;
		matrix_cell_figures(r, i, &f);
		/* the 95 % interval of the mean (none with one run), down to 0 at most */
		double half = isfinite(f.elapsed.half) ? f.elapsed.half : 0;
		colour(p, INK);
		line(p, x + bw / 2, TIMES_BOTTOM - fmax(0, c->elapsed_mean_s - half) * scale,
		     x + bw / 2, TIMES_BOTTOM - (c->elapsed_mean_s + half) * scale, 1);
		double wb = MATRIX_CELL_MEAN(c, writeback_s);
		if (isfinite(wb))
			bar(p, x + bw, bw, TIMES_BOTTOM, TIMES_BOTTOM - wb * scale, WRITEBACK);
	}
	colour(p, INK);
	line(p, LEFT, TIMES_BOTTOM, p->right, TIMES_BOTTOM, 1);
}

/* The probe's range in ms over the cells and the idle figures; false when none. */
static bool probe_range(const struct matrix_result *r, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		double v[] = { MATRIX_CELL_MEAN(&r->cells[i], probe_p50_us),
			       MATRIX_CELL_MEAN(&r->cells[i], probe_p99_us) };
		for (size_t k = 0; k < 2; k++)
			if (isfinite(v[k]) && v[k] > 0)
				*lo = fmin(*lo, v[k] / 1000), *hi = fmax(*hi, v[k] / 1000);
	}
	for (size_t f = 0; f < r->nfs; f++)
		if (isfinite(r->fs[f].idle_p50_us) && r->fs[f].idle_p50_us > 0)
			*lo = fmin(*lo, r->fs[f].idle_p50_us / 1000),
			*hi = fmax(*hi, r->fs[f].idle_p99_us / 1000);
	if (!(*hi > 0))
		return false;
	*lo = pow(10, floor(log10(*lo)));
	*hi = pow(10, ceil(log10(*hi)));
	if (*hi <= *lo)
		*hi = *lo * 10;
	return true;
}

struct log_axis {
	double lo, hi, top, bottom;
};

static double log_y(const struct log_axis *a, double ms)
{
	return a->bottom - (log10(ms) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) *
				   (a->bottom - a->top);
}

/* Each filesystem's idle p50, dashed over its cells. */
static void draw_idle(struct mplot *p, const struct matrix_result *r, const struct log_axis *a)
{
	double dash[] = { 4, 3 };
	colour(p, IDLE);
	p->c.set_dash(p->cr, dash, 2, 0);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct matrix_fs *fs = &r->fs[r->cells[i].fs < r->nfs ? r->cells[i].fs : 0];
		if (!(fs->idle_p50_us > 0))
			continue;
		double y = log_y(a, fs->idle_p50_us / 1000);
		line(p, cell_x(p, i), y, cell_x(p, i + 1), y, 1.5);
	}
	p->c.set_dash(p->cr, NULL, 0, 0);
}

/* The bottom panel: the probe's p50..p99 of each cell, log scale. */
static void draw_probe(struct mplot *p, const struct matrix_result *r)
{
	struct log_axis a = { .top = PROBE_TOP, .bottom = PROBE_BOTTOM };
	colour(p, INK);
	if (!probe_range(r, &a.lo, &a.hi)) {
		label(p, LEFT, PROBE_TOP + 20, 13, "probe: none (give --probe PATH)");
		return;
	}
	label(p, LEFT, PROBE_TOP - 12, 13, "probe read latency per cell, ms (log scale)");
	for (double v = a.lo; v <= a.hi * 1.0001; v *= 10) {
		char t[32];
		snprintf(t, sizeof t, "%g ms", v);
		colour(p, GRID);
		line(p, LEFT, log_y(&a, v), p->right, log_y(&a, v), 1);
		colour(p, INK);
		label_right(p, LEFT - 6, log_y(&a, v) + 4, 11, t);
	}
	draw_idle(p, r, &a);
	for (size_t i = 0; i < r->ncells; i++) {
		double p50 = MATRIX_CELL_MEAN(&r->cells[i], probe_p50_us) / 1000;
		double p99 = MATRIX_CELL_MEAN(&r->cells[i], probe_p99_us) / 1000;
		double x = cell_x(p, i) + p->gw * 0.5;
		if (!(p50 > 0) || !(p99 > 0))
			continue;
		colour(p, PROBE);
		line(p, x, log_y(&a, p50), x, log_y(&a, p99), 3);
		p->c.rectangle(p->cr, x - 4, log_y(&a, p50) - 4, 8, 8);
		p->c.fill(p->cr);
	}
}

/* "3 xfs mq-deadline defaults cold  x2.01 differs": the cell and its ratio to the
 * baseline with the verdict (matrix_uncertainty.c). */
static void cell_label(const struct matrix_result *r, size_t i, char *text, size_t len)
{
	char name[MOUNT_OPTS_MAX + 160], clean[MOUNT_OPTS_MAX + 200], ratio[64] = "";
	matrix_cell_name(r, &r->cells[i], name, sizeof name);
	struct matrix_cell_figures f;
	matrix_cell_figures(r, i, &f);
	if (!r->cells[i].refused[0] && isfinite(f.ratio.value))
		snprintf(ratio, sizeof ratio, "  x%.2f %s", f.ratio.value,
			 matrix_verdict_name(f.ratio.verdict));
	snprintf(text, len, "%zu%s %.60s%s", i + 1, r->cells[i].noisy ? "!" : "",
		 text_escape(name, clean, sizeof clean), ratio);
}

/* The axes end where the last cell's slanted name still fits in the picture. */
static void layout(struct mplot *p, const struct matrix_result *r)
{
	double n = (double)(r->ncells ? r->ncells : 1);
	p->right = W - RIGHT;
	p->gw = (p->right - LEFT) / n;
	p->name_size = fmax(6, fmin(11, p->gw * 0.6));
	if (!r->ncells)
		return;
	char text[MOUNT_OPTS_MAX + 200];
	cairo_text_extents_t e;
	cell_label(r, r->ncells - 1, text, sizeof text);
	p->c.set_font_size(p->cr, p->name_size);
	p->c.text_extents(p->cr, text, &e);
	double overhang = e.x_advance * cos(NAME_SLANT);
	for (int k = 0; k < 3 && LEFT + p->gw * (n - 0.5) + overhang > W - 4; k++) {
		p->right = fmax(LEFT + 100, W - 4 - overhang + p->gw * 0.5);
		p->gw = (p->right - LEFT) / n;
	}
}

/* Under the axes: each cell's number and name, slanted so that long names fit. */
static void draw_names(struct mplot *p, const struct matrix_result *r)
{
	double size = p->name_size;
	colour(p, INK);
	for (size_t i = 0; i < r->ncells; i++) {
		char text[MOUNT_OPTS_MAX + 200];
		cell_label(r, i, text, sizeof text);
		double x = cell_x(p, i) + p->gw * 0.5;
		line(p, x, PROBE_BOTTOM, x, PROBE_BOTTOM + 4, 1);
		p->c.save(p->cr);
		p->c.translate(p->cr, x - size * 0.3, NAMES_TOP);
		p->c.rotate(p->cr, NAME_SLANT);
		label(p, 0, 0, size, text);
		p->c.restore(p->cr);
	}
}

/* "ioscope matrix: DEV on HOST, Linux K: COMMAND", the command cut to fit the width. */
static void title(struct mplot *p, const struct matrix_result *r)
{
	char clean[sizeof r->command], text[sizeof r->command + 512];
	text_escape(r->command, clean, sizeof clean);
	cairo_text_extents_t e;
	p->c.set_font_size(p->cr, 15);
	for (size_t n = strlen(clean);; n = n > 8 ? n - 8 : 0) {
		snprintf(text, sizeof text, "ioscope matrix: %s on %s, Linux %s: %.*s%s", r->device,
			 r->machine.host, r->machine.kernel, (int)n, clean,
			 n < strlen(clean) ? "..." : "");
		p->c.text_extents(p->cr, text, &e);
		if (e.x_advance <= W - LEFT - 8 || n == 0)
			break;
	}
	label(p, LEFT, 26, 15, text);
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static bool any_probe(const struct matrix_result *r)
{
	return r->probe[0] != '\0';
}

static int draw(struct mplot *p, const struct matrix_result *r, FILE *out, struct error *err)
{
	cairo_surface_t *s = p->c.image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	p->cr = p->c.create(s);
	colour(p, (struct rgb){ 1, 1, 1 });
	p->c.paint(p->cr);
	p->c.select_font_face(p->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	layout(p, r);
	colour(p, INK);
	title(p, r);
	legend(p, any_probe(r));
	draw_times(p, r);
	draw_probe(p, r);
	draw_names(p, r);
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

int matrix_write_png(int dirfd, const char *name, const char *path,
		     const struct matrix_result *r, struct error *err)
{
	struct mplot p;
	memset(&p, 0, sizeof p);
	if (cairo_lib_load(&p.c, err) < 0)
		return -1;
	struct outfile of;
	if (outfile_open_in(&of, dirfd, name, path, NULL, err) < 0)
		return -1;
	if (draw(&p, r, of.fp, err) < 0) {
		outfile_abort(&of);
		return -1;
	}
	return outfile_commit(&of, err);
}
