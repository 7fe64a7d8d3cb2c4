/* report_plot.c - the throughput graph of a recorded session as SVG or PNG, drawn
 * with cairo: one panel per device (read and write MB/s over time), every mark a
 * labelled vertical line, axes with units, a title naming host, devices and span.
 *
 * cairo draws SVG text as glyph outlines, which no one can search or copy; the
 * title and every label are therefore also added as an invisible text layer
 * (no fill, no stroke, opacity 0, at the same places), the way scanned PDFs carry
 * their text.
 *
 * cairo is opened only here, when a plot is made (cairo_lib.h): ioscope is not
 * linked with it, so no other command pays for loading it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairo_lib.h"
#include "grow.h"
#include "plot_labels.h"
#include "report.h"
#include "report_heat.h"
#include "text.h"

#define DEFAULT_WIDTH 1200
#define TITLE_H 60
#define PANEL_H 260
#define MARGIN_L 80
#define MARGIN_R 24
#define LANES 3             /* label lanes between a panel's title and its plot */
#define LANE_H 14
#define PANEL_TOP (34 + LANES * LANE_H + 4)
#define STRIP_Y(a) ((a)->top - 4 - LANES * LANE_H)   /* the label lanes, above the plot */
#define HEADING_Y(a) (STRIP_Y(a) - 6)                 /* panel title and legend, above them */
#define LEGEND_LINE 14
#define LEGEND_LINES_MAX 40
#define PANEL_BOTTOM 44
#define LABEL_MAX 64

struct series {
	double *t, *r, *w;          /* seconds since t0; MB/s, NAN: no figure */
	size_t n, cap;
	double max;
};

/* What a panel shows (--metrics): one or two lines of one unit. */
static const struct metric_look {
	const char *title, *unit, *a, *b;
	bool system;                /* one panel for the machine, not one per device */
} metric_looks[METRIC_COUNT] = {
	[METRIC_MBPS] = { "read and write throughput, MiB/s", "MiB/s", "read", "write", false },
	[METRIC_IOPS] = { "read and write requests per second", "IO/s", "r/s", "w/s", false },
	[METRIC_AWAIT] = { "read and write await, ms", "ms", "r_await", "w_await", false },
	[METRIC_UTIL] = { "utilisation, %", "%util", "%util", NULL, false },
	[METRIC_FS] = { "flushes per second", "f/s", "f/s", NULL, false },
	[METRIC_DIRTY] = { "dirty and writeback memory, MiB", "MiB", "dirty", "writeback", true },
	[METRIC_BLOCKED] = { "blocked tasks (D state)", "tasks", "D tasks", "throttled",
			     true },
	[METRIC_JOURNAL] = { "journal commit time, ms", "ms", "commit", "wait", false },
	[METRIC_LATENCY] = { "latency heat map, issue to completion, reads and writes "
			     "(shade: requests, log scale)", "latency", NULL, NULL, false },
};
/* The journal panel of a device with xfs on it: the log forces stand for the commits. */
static const struct metric_look journal_xfs_look = {
	"xfs log forces per second", "/s", "forces", "slept", false,
};

/* The dirty panel's limit lines: the kernel's thresholds, MB, dashed (docs/metrics.md). */
enum { LIMIT_BACKGROUND, LIMIT_FREERUN, LIMIT_THRESHOLD, LIMITS };
static const struct {
	const char *name;
	double r, g, b;
} limit_looks[LIMITS] = {
	[LIMIT_BACKGROUND] = { "background", 0.17, 0.63, 0.17 },
	[LIMIT_FREERUN] = { "freerun", 1.0, 0.5, 0.05 },
	[LIMIT_THRESHOLD] = { "threshold", 0.58, 0.4, 0.74 },
};
struct limit_lines {
	double *v[LIMITS];
	size_t n, cap;
	double max;
};

struct plot_panel {
	enum report_metric metric;
	int device;                 /* index in rep->devices, -1: the system */
	int journal_fs;             /* METRIC_JOURNAL: the kind of the device's journal, -1 none */
};

struct text_item {
	double x, y, size;
	char *text;
};

/* One mark line: the events on one pixel column, with their numbers (struct event's: the
 * log's, the console's) in time order. */
#define MARK_NUMBERS_MAX 64
struct plot_mark {
	double t;                   /* seconds since t0 */
	char *shown, *whole;        /* "[N] label" cut at LABEL_MAX, and in full */
	char when[32];
	uint64_t numbers[MARK_NUMBERS_MAX];   /* of its events, the first MARK_NUMBERS_MAX */
	size_t nnumbers;
};

struct plot {
	struct cairo_lib cairo;     /* the functions, loaded for this plot */
	struct plot_mark *marks;
	struct label_place *places; /* laid out once: every panel has the same x axis */
	size_t nmarks;
	bool legend;                /* some label is not shown in full: list them under */
	double legend_h;
	struct report *rep;
	int width, height;
	double t0, t1;              /* wall seconds of the first and last sample */
	struct series *series;      /* one per panel */
	struct heat_series *heat;   /* one per panel: the latency panels' trace histograms */
	struct plot_panel *panels;  /* a metric of a device, or of the system */
	size_t npanels;
	struct limit_lines limits;  /* the dirty panel's, in step with its series */
	struct text_item *texts;    /* the SVG's text layer */
	size_t ntexts, texts_cap;
	bool svg;
};

/* ---- text: valid UTF-8 for cairo, escaped for XML ---- */

static size_t utf8_sequence(const unsigned char *s)
{
	if (s[0] < 0x80)
		return s[0] >= 0x20 || s[0] == '\t' ? 1 : 0;
	size_t n = (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (n == 0 || (n == 2 && s[0] < 0xc2))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Copies s into buf as valid, printable UTF-8 of at most max characters. */
static void clean_text(const char *s, char *buf, size_t len, size_t max)
{
	size_t o = 0, chars = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && o + 5 < len) {
		if (chars == max) {
			memcpy(buf + o, "\xe2\x80\xa6", 3);   /* … */
			o += 3;
			break;
		}
		size_t n = utf8_sequence(p);
		if (n == 0) {
			buf[o++] = '?';
			p++;
		} else {
			memcpy(buf + o, p, n);
			o += n;
			p += n;
		}
		chars++;
	}
	buf[o] = '\0';
}

static void xml_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out); break;
		}
	}
}

/* Draws text; for SVG, layer (the whole text when what is drawn is shortened)
 * goes into the text layer at the same place. */
static void show_text_as(struct plot *p, cairo_t *cr, double x, double y, double size,
			 const char *text, const char *layer)
{
	p->cairo.set_font_size(cr, size);
	p->cairo.move_to(cr, x, y);
	p->cairo.show_text(cr, text);
	if (!p->svg)
		return;
	if (grow_array(&p->texts, &p->texts_cap, p->ntexts + 1, sizeof *p->texts, 32, NULL) < 0)
		return;
	char *copy = strdup(layer);
	if (copy)
		p->texts[p->ntexts++] = (struct text_item){ x, y, size, copy };
}

static void set_font(struct plot *p, cairo_t *cr, cairo_font_weight_t weight)
{
	p->cairo.select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, weight);
}

static void show_text(struct plot *p, cairo_t *cr, double x, double y, double size, const char *text)
{
	show_text_as(p, cr, x, y, size, text, text);
}

/* ---- collecting the series ---- */

static int series_add(struct series *s, double t, double r, double w)
{
	if (s->n == s->cap) {
		/* three arrays of one length: each grows from the common room to the same */
		size_t cap_t = s->cap, cap_r = s->cap, cap_w = s->cap;
		if (grow_array(&s->t, &cap_t, s->n + 1, sizeof *s->t, 256, NULL) < 0 ||
		    grow_array(&s->r, &cap_r, s->n + 1, sizeof *s->r, 256, NULL) < 0 ||
		    grow_array(&s->w, &cap_w, s->n + 1, sizeof *s->w, 256, NULL) < 0)
			return -1;
		s->cap = cap_w;
	}
	s->t[s->n] = t;
	s->r[s->n] = r;
	s->w[s->n] = w;
	s->n++;
	if (isfinite(r) && r > s->max)
		s->max = r;
	if (isfinite(w) && w > s->max)
		s->max = w;
	return 0;
}

static const struct device_rates *rates_of(const struct report_interval *iv, const char *name)
{
	for (size_t i = 0; i < iv->rates->ndevices; i++)
		if (strcmp(iv->rates->devices[i].name, name) == 0)
			return &iv->rates->devices[i];
	return NULL;
}

/* A journal on the device or one of its partitions (the first, and only of the kind seen
 * first: one panel, one unit). */
static const struct journal_rates *journal_of(const struct report_interval *iv, const char *dev,
					      int *fs)
{
	for (size_t i = 0; iv->why && i < iv->why->njournals; i++) {
		const struct journal_rates *j = &iv->why->journals[i];
		const struct device *d = snapshot_find_device(iv->cur, j->device);
		bool on = strcmp(j->device, dev) == 0 ||
			  (d && d->is_partition && strcmp(d->parent, dev) == 0);
		if (!on || (*fs >= 0 && (int)j->fs != *fs))
			continue;
		*fs = (int)j->fs;
		return j;
	}
	return NULL;
}

static double journal_figure(const struct journal_rates *j, enum journal_figure f)
{
	return j && (j->present & (1u << f)) ? j->f[f] : NAN;
}

/* The blocked tasks (only in a log with tasks) and the journals (issue 10). */
static void why_panel_values(struct plot *p, struct plot_panel *pp,
			     const struct report_interval *iv, double *a, double *b)
{
	if (pp->metric == METRIC_BLOCKED) {
		if (iv->cur->tasks) {
			*a = iv->cur->tasks->nblocked;
			*b = iv->why ? iv->why->throttled_tasks : NAN;
		}
		return;
	}
	const struct journal_rates *j = journal_of(iv, p->rep->devices[pp->device], &pp->journal_fs);
	bool xfs = pp->journal_fs == JOURNAL_XFS;
	*a = journal_figure(j, xfs ? JF_LOG_FORCES_S : JF_COMMIT_MS);
	*b = journal_figure(j, xfs ? JF_LOG_FORCE_SLEEPS_S : JF_WAIT_MS);
}

static int limits_add(struct limit_lines *l, const struct why_rates *y)
{
	if (l->n == l->cap) {
		size_t cap = l->cap;
		for (int k = 0; k < LIMITS; k++) {
			cap = l->cap;   /* LIMITS arrays of one length grow alike */
			if (grow_array(&l->v[k], &cap, l->n + 1, sizeof *l->v[k], 256, NULL) < 0)
				return -1;
		}
		l->cap = cap;
	}
	bool have = y && y->have_dirty;
	const double mb[LIMITS] = { y ? y->background_kb / 1024 : 0, y ? y->freerun_kb / 1024 : 0,
				    y ? y->threshold_kb / 1024 : 0 };
	for (int k = 0; k < LIMITS; k++) {
		l->v[k][l->n] = have ? mb[k] : NAN;
		if (have && mb[k] > l->max)
			l->max = mb[k];
	}
	l->n++;
	return 0;
}

/* The panel's two values in this interval (NAN: none). */
static void panel_values(struct plot *p, struct plot_panel *pp,
			 const struct report_interval *iv, double *a, double *b)
{
	*a = *b = NAN;
	if (pp->metric == METRIC_BLOCKED || pp->metric == METRIC_JOURNAL) {
		why_panel_values(p, pp, iv, a, b);
		return;
	}
	if (pp->metric == METRIC_LATENCY)
		return;   /* heat_collect */
	if (pp->metric == METRIC_DIRTY) {
		if (iv->rates->vm.valid) {
			*a = iv->rates->vm.dirty / 1024;
			*b = iv->rates->vm.writeback / 1024;
		}
		return;
	}
	const struct device_rates *r = rates_of(iv, p->rep->devices[pp->device]);
	if (!r || !r->valid)
		return;
	switch (pp->metric) {
	case METRIC_IOPS: *a = r->r_s; *b = r->w_s; break;
	case METRIC_AWAIT: *a = r->r_await; *b = r->w_await; break;
	case METRIC_UTIL: *a = r->util; break;
	case METRIC_FS: *a = r->have_flush ? r->f_s : NAN; break;
	default: *a = r->rkB_s / 1024; *b = r->wkB_s / 1024; break;
	}
}

/* A latency panel's interval: the device's histograms, when the interval was traced. */
static int heat_collect(const struct plot *p, size_t k, const struct report_interval *iv, double t)
{
	const struct snapshot *s = iv->cur;
	const struct device *d = snapshot_find_device(s, p->rep->devices[p->panels[k].device]);
	if (d && d->is_partition)
		d = snapshot_find_device(s, d->parent);
	if (!s->trace || !d)
		return 0;   /* not traced: a gap */
	double from = t - (iv->rates->interval > 0 ? iv->rates->interval : 0);
	return report_heat_add(&p->heat[k], from, t, trace_find(s->trace, d->major, d->minor));
}

static int collect(void *ctx, const struct report_interval *iv)
{
	struct plot *p = ctx;
	double t = timespec_seconds(&iv->cur->wall) - p->t0;
	for (size_t k = 0; k < p->npanels; k++) {
		double a, b;
		panel_values(p, &p->panels[k], iv, &a, &b);
		if (series_add(&p->series[k], t, a, b) < 0)
			return -1;
		if (p->panels[k].metric == METRIC_DIRTY && limits_add(&p->limits, iv->why) < 0)
			return -1;
		if (p->panels[k].metric == METRIC_LATENCY && heat_collect(p, k, iv, t) < 0)
			return -1;
	}
	return 0;
}

/* A blocked or journal panel with no figure in the whole log (recorded without --tasks,
 * no journal on the device) is left out rather than drawn empty; the panels after it
 * move up with their series and heat maps (a dropped panel has no heat map). */
static void drop_empty_why_panels(struct plot *p)
{
	size_t kept = 0;
	for (size_t k = 0; k < p->npanels; k++) {
		const struct plot_panel *pp = &p->panels[k];
		struct series *s = &p->series[k];
		bool any = false;
		for (size_t i = 0; i < s->n && !any; i++)
			any = isfinite(s->r[i]) || isfinite(s->w[i]);
		if (!any && (pp->metric == METRIC_BLOCKED || pp->metric == METRIC_JOURNAL)) {
			free(s->t);
			free(s->r);
			free(s->w);
			continue;
		}
		p->panels[kept] = *pp;
		p->heat[kept] = p->heat[k];
		p->series[kept++] = *s;
	}
	p->npanels = kept;
}

/* Per device its metrics in the order asked, then the system's. */
static int plan_panels(struct plot *p)
{
	const struct report *rep = p->rep;
	enum report_metric mbps = METRIC_MBPS;
	const enum report_metric *m = rep->nmetrics ? rep->metrics : &mbps;
	size_t nm = rep->nmetrics ? rep->nmetrics : 1;
	p->panels = calloc(nm * (rep->ndevices + 1), sizeof *p->panels);
	if (!p->panels)
		return -1;
	for (size_t d = 0; d < rep->ndevices; d++)
		for (size_t i = 0; i < nm; i++)
			if (!metric_looks[m[i]].system)
				p->panels[p->npanels++] = (struct plot_panel){ m[i], (int)d, -1 };
	for (size_t i = 0; i < nm; i++)
		if (metric_looks[m[i]].system)
			p->panels[p->npanels++] = (struct plot_panel){ m[i], -1, -1 };
	p->series = calloc(p->npanels + 1, sizeof *p->series);
	p->heat = calloc(p->npanels + 1, sizeof *p->heat);
	return p->series && p->heat ? 0 : -1;
}

/* ---- scales ---- */

static double nice_step(double range, int ticks)
{
	double raw = range / ticks, mag = pow(10, floor(log10(raw))), f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static double time_step(double span)
{
	static const double steps[] = { 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
					7200, 10800, 21600, 43200, 86400 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (span / steps[i] <= 8)
			return steps[i];
	return nice_step(span, 8);
}

struct panel {
	double left, right, top, bottom;   /* the plot area */
	double ymax;
};

static double px_x(const struct plot *p, const struct panel *a, double t)
{
	double span = p->t1 - p->t0 > 0 ? p->t1 - p->t0 : 1;
	return a->left + (a->right - a->left) * t / span;
}

static double px_y(const struct panel *a, double v)
{
	return a->bottom - (a->bottom - a->top) * (v / a->ymax);
}

/* ---- drawing ---- */

static void draw_axes(struct plot *p, cairo_t *cr, const struct panel *a, const char *unit)
{
	char buf[32];
	double step = nice_step(a->ymax, 5);
	p->cairo.set_line_width(cr, 1);
	for (double v = 0; v <= a->ymax * 1.0001; v += step) {
		double y = round(px_y(a, v)) + 0.5;
		p->cairo.set_source_rgb(cr, 0.88, 0.88, 0.88);
		p->cairo.move_to(cr, a->left, y);
		p->cairo.line_to(cr, a->right, y);
		p->cairo.stroke(cr);
		snprintf(buf, sizeof buf, "%g", v);
		cairo_text_extents_t e;
		p->cairo.set_font_size(cr, 11);
		p->cairo.text_extents(cr, buf, &e);
		p->cairo.set_source_rgb(cr, 0.2, 0.2, 0.2);
		show_text(p, cr, a->left - 6 - e.x_advance, y + 4, 11, buf);
	}
	double span = p->t1 - p->t0, tstep = time_step(span > 0 ? span : 1);
	double first = ceil(p->t0 / tstep) * tstep - p->t0;   /* ticks on round clock times */
	for (double t = first; t <= span + 1e-9; t += tstep) {
		double x = round(px_x(p, a, t)) + 0.5;
		p->cairo.set_source_rgb(cr, 0.88, 0.88, 0.88);
		p->cairo.move_to(cr, x, a->top);
		p->cairo.line_to(cr, x, a->bottom);
		p->cairo.stroke(cr);
		struct timespec ts = { (time_t)(p->t0 + t), 0 };
		report_local_time(&ts, false, buf, sizeof buf);
		p->cairo.set_source_rgb(cr, 0.2, 0.2, 0.2);
		show_text(p, cr, x - 24, a->bottom + 16, 11, buf);
	}
	p->cairo.set_source_rgb(cr, 0.2, 0.2, 0.2);
	p->cairo.rectangle(cr, a->left + 0.5, a->top + 0.5, a->right - a->left, a->bottom - a->top);
	p->cairo.stroke(cr);
	show_text(p, cr, a->right - 90, a->bottom + 34, 11, "time (local)");
	p->cairo.save(cr);
	p->cairo.translate(cr, a->left - 56, (a->top + a->bottom) / 2 + 14);
	p->cairo.rotate(cr, -M_PI / 2);
	p->cairo.set_font_size(cr, 12);
	p->cairo.move_to(cr, 0, 0);
	p->cairo.show_text(cr, unit);   /* rotated: left out of the text layer */
	p->cairo.restore(cr);
}

/* A line through the points; with more points than pixels, per pixel column the
 * mean as the line and the min..max range as a light band. */
static void draw_series(struct plot *p, cairo_t *cr, const struct panel *a, const struct series *s,
			const double *v, double red, double green, double blue)
{
	size_t cols = (size_t)(a->right - a->left) + 1;
	bool bucket = s->n > cols * 2;
	bool pen = false;
	p->cairo.set_line_width(cr, 1.5);
	p->cairo.set_source_rgb(cr, red, green, blue);
	for (size_t i = 0; i < s->n;) {
		double x = px_x(p, a, s->t[i]), sum = 0, lo = INFINITY, hi = -INFINITY;
		size_t n = 0, j = i;
		for (; j < s->n && (j == i || (bucket && floor(px_x(p, a, s->t[j])) == floor(x))); j++) {
			if (!isfinite(v[j]))
				continue;
			sum += v[j];
			lo = fmin(lo, v[j]);
			hi = fmax(hi, v[j]);
			n++;
		}
		i = j;
		if (n == 0) {
			if (pen)
				p->cairo.stroke(cr);
			pen = false;
			continue;
		}
		if (bucket && hi > lo) {
			p->cairo.stroke(cr);
			p->cairo.set_source_rgba(cr, red, green, blue, 0.25);
			p->cairo.move_to(cr, x, px_y(a, lo));
			p->cairo.line_to(cr, x, px_y(a, hi));
			p->cairo.stroke(cr);
			p->cairo.set_source_rgb(cr, red, green, blue);
			pen = false;
		}
		double y = px_y(a, sum / (double)n);
		if (pen)
			p->cairo.line_to(cr, x, y);
		else
			p->cairo.move_to(cr, x, y);
		pen = true;
	}
	if (pen)
		p->cairo.stroke(cr);
}

static void draw_legend(struct plot *p, cairo_t *cr, const struct panel *a,
			const struct metric_look *look)
{
	const struct { const char *name; double r, g, b; } items[] = {
		{ look->a, 0.12, 0.47, 0.71 }, { look->b, 0.84, 0.15, 0.16 },
	};
	double x = a->right - 180;
	for (size_t i = 0; i < 2 && items[i].name; i++, x += 90) {
		p->cairo.set_source_rgb(cr, items[i].r, items[i].g, items[i].b);
		p->cairo.set_line_width(cr, 3);
		p->cairo.move_to(cr, x, HEADING_Y(a) - 4);
		p->cairo.line_to(cr, x + 22, HEADING_Y(a) - 4);
		p->cairo.stroke(cr);
		p->cairo.set_source_rgb(cr, 0.1, 0.1, 0.1);
		show_text(p, cr, x + 27, HEADING_Y(a), 12, items[i].name);
	}
}

/* "[3]", "[3,4]", "[24-26,31]": marks' numbers ascending, a run of three or more as a
 * range; past 24 characters the first and the last around an ellipsis, "[3…41]". */
static void numbers_text(const uint64_t *numbers, size_t n, char *buf, size_t len)
{
	uint64_t v[MARK_NUMBERS_MAX * 4];
	n = n < sizeof v / sizeof *v ? n : sizeof v / sizeof *v;
	memcpy(v, numbers, n * sizeof *v);
	for (size_t i = 1; i < n; i++)   /* insertion sort: they come nearly sorted */
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	char list[512] = "";
	size_t used = 0;
	for (size_t i = 0; i < n;) {
		size_t k = i;
		while (k + 1 < n && v[k + 1] <= v[k] + 1)
			k++;
		if (k >= i + 2)
			used = text_appendf(list, sizeof list, used, "%s%llu-%llu", used ? "," : "",
					    (unsigned long long)v[i], (unsigned long long)v[k]);
		else
			for (size_t j = i; j <= k; j++)
				if (j == i || v[j] != v[j - 1])
					used = text_appendf(list, sizeof list, used, "%s%llu",
							    used ? "," : "",
							    (unsigned long long)v[j]);
		i = k + 1;
	}
	if (n && strlen(list) > 24)
		snprintf(buf, len, "[%llu…%llu]", (unsigned long long)v[0],
			 (unsigned long long)v[n - 1]);
	else
		snprintf(buf, len, "[%s]", list);
}

/* Events that fall on the same pixel column share one line and one label; *t is
 * the time of the first, their numbers go to numbers[] (*nnumbers of them). */
static size_t mark_group(struct plot *p, const struct panel *a, struct replay_event *ev,
			 size_t n, size_t i, char *label, size_t len, double *t, uint64_t *numbers,
			 size_t *nnumbers)
{
	report_event(p->rep, i, ev);
	*t = timespec_seconds(&ev->event.wall) - p->t0;
	double x = round(px_x(p, a, *t));
	size_t j = i;
	label[0] = '\0';
	*nnumbers = 0;
	for (; j < n; j++) {
		report_event(p->rep, j, ev);
		if (round(px_x(p, a, timespec_seconds(&ev->event.wall) - p->t0)) != x)
			break;
		if (*nnumbers < MARK_NUMBERS_MAX)
			numbers[(*nnumbers)++] = ev->event.number;
		size_t used = strlen(label);
		if (used + 4 >= len)
			continue;
		if (j > i)
			used = text_appendf(label, len, used, "; ");
		report_mark_label(&ev->event, label + used, len - used);
	}
	return j;
}

static double label_width(struct plot *p, cairo_t *cr, const char *text)
{
	cairo_text_extents_t e;
	p->cairo.text_extents(cr, text, &e);
	return e.x_advance + 2;
}

static int add_mark(struct plot *p, double t, const char *label, const struct timespec *wall,
		    const uint64_t *numbers, size_t nnumbers)
{
	struct plot_mark *m = realloc(p->marks, (p->nmarks + 1) * sizeof *m);
	if (!m)
		return -1;
	p->marks = m;
	m = &p->marks[p->nmarks++];
	char numbered[4096 + 160], shown[LABEL_MAX * 4 + 8], whole[8192 + 64], list[64];
	numbers_text(numbers, nnumbers, list, sizeof list);
	snprintf(numbered, sizeof numbered, "%s %s", list, label);
	clean_text(numbered, shown, sizeof shown, LABEL_MAX);
	clean_text(numbered, whole, sizeof whole, sizeof whole / 4 - 2);
	*m = (struct plot_mark){ .t = t, .shown = strdup(shown), .whole = strdup(whole),
				 .nnumbers = nnumbers };
	memcpy(m->numbers, numbers, nnumbers * sizeof *numbers);
	report_local_time(wall, false, m->when, sizeof m->when);
	return m->shown && m->whole ? 0 : -1;
}

/* The marks, numbered, and where their labels go (plot_labels.c), measured on a
 * scratch surface before the image is made: a legend changes its height. */
static int plan_marks(struct plot *p, const struct panel *a)
{
	struct replay_event *ev = malloc(sizeof *ev);
	char label[4096];
	int rc = ev ? 0 : -1;
	uint64_t numbers[MARK_NUMBERS_MAX];
	for (size_t i = 0, next, n = p->rep->nevents; rc == 0 && i < n; i = next) {
		double t;
		size_t nnumbers;
		next = mark_group(p, a, ev, n, i, label, sizeof label, &t, numbers, &nnumbers);
		report_event(p->rep, i, ev);
		if (t >= 0 && t <= p->t1 - p->t0)
			rc = add_mark(p, t, label, &ev->event.wall, numbers, nnumbers);
	}
	free(ev);
	struct label_mark *lm = calloc(p->nmarks + 1, sizeof *lm);
	p->places = calloc(p->nmarks + 1, sizeof *p->places);
	if (rc < 0 || !lm || !p->places) {
		free(lm);
		return -1;
	}
	cairo_surface_t *scratch = p->cairo.image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *cr = p->cairo.create(scratch);
	set_font(p, cr, CAIRO_FONT_WEIGHT_NORMAL);
	p->cairo.set_font_size(cr, 11);
	for (size_t i = 0; i < p->nmarks; i++) {
		char number[64];
		numbers_text(p->marks[i].numbers, p->marks[i].nnumbers, number, sizeof number);
		lm[i] = (struct label_mark){ round(px_x(p, a, p->marks[i].t)) + 0.5,
					     label_width(p, cr, p->marks[i].shown), label_width(p, cr, number) };
	}
	p->cairo.destroy(cr);
	p->cairo.surface_destroy(scratch);
	struct label_strip strip = { a->left, a->right, 0, LANE_H, LANES, 6 };
	plot_labels_layout(&strip, lm, p->nmarks, p->places);
	free(lm);
	p->legend = plot_labels_need_legend(p->places, p->nmarks);
	size_t lines = p->nmarks < LEGEND_LINES_MAX ? p->nmarks : LEGEND_LINES_MAX + 1;
	p->legend_h = p->legend ? 24 + LEGEND_LINE * (double)lines : 0;
	return 0;
}

/* "[3]", "[3,4]", "[3-7]": the numbers of the marks a number box names (plot_labels.h),
 * its own mark's and those of the marks up to pl->last. */
static void box_number(const struct plot *p, const struct label_place *pl, size_t i, char *buf,
		       size_t len)
{
	uint64_t numbers[MARK_NUMBERS_MAX * 4];
	size_t n = 0, last = pl->last > i ? pl->last : i;
	for (size_t k = i; k <= last && k < p->nmarks; k++)
		for (size_t j = 0; j < p->marks[k].nnumbers && n < sizeof numbers / sizeof *numbers;
		     j++)
			numbers[n++] = p->marks[k].numbers[j];
	numbers_text(numbers, n, buf, len);
}

/* The marks: a dashed line each through the label strip and the plot, the label
 * where plan_marks() put it: never over the curve, never over another label. */
static void draw_marks(struct plot *p, cairo_t *cr, const struct panel *a)
{
	double strip = STRIP_Y(a);
	for (size_t i = 0; i < p->nmarks; i++) {
		const struct label_place *pl = &p->places[i];
		double x = round(px_x(p, a, p->marks[i].t)) + 0.5;
		p->cairo.set_source_rgb(cr, 0.15, 0.15, 0.15);
		p->cairo.set_line_width(cr, 1);
		double dash = 4;
		p->cairo.set_dash(cr, &dash, 1, 0);
		bool boxed = pl->form == LABEL_NUMBER || pl->form == LABEL_FULL;
		p->cairo.move_to(cr, x, boxed ? strip + pl->y : a->top);
		p->cairo.line_to(cr, x, a->bottom);
		p->cairo.stroke(cr);
		p->cairo.set_dash(cr, NULL, 0, 0);
		if (!boxed)
			continue;
		char number[64];
		box_number(p, pl, i, number, sizeof number);
		p->cairo.set_source_rgb(cr, 0.1, 0.1, 0.1);
		/* a shared number says which marks it names; their texts are the legend's */
		show_text_as(p, cr, pl->x + 1, strip + pl->y + 11, 11,
			     pl->form == LABEL_FULL ? p->marks[i].shown : number,
			     pl->last > i ? number : p->marks[i].whole);
	}
}

/* Under the panels, when a label could not be shown in full: every mark by number. */
static void draw_legend_of_marks(struct plot *p, cairo_t *cr)
{
	if (!p->legend)
		return;
	double y = p->height - p->legend_h + 16;
	p->cairo.set_source_rgb(cr, 0.1, 0.1, 0.1);
	set_font(p, cr, CAIRO_FONT_WEIGHT_BOLD);
	show_text(p, cr, MARGIN_L, y, 12, "Marks");
	set_font(p, cr, CAIRO_FONT_WEIGHT_NORMAL);
	for (size_t i = 0; i < p->nmarks && i <= LEGEND_LINES_MAX; i++) {
		char line[LABEL_MAX * 8];
		y += LEGEND_LINE;
		if (i == LEGEND_LINES_MAX)
			snprintf(line, sizeof line, "... and %zu more: see the text report",
				 p->nmarks - LEGEND_LINES_MAX);
		else
			snprintf(line, sizeof line, "%s  %s", p->marks[i].when, p->marks[i].shown);
		show_text_as(p, cr, MARGIN_L, y, 11, line, i == LEGEND_LINES_MAX ? line : p->marks[i].whole);
	}
}

/* The dirty panel's limit lines, dashed, with their legend left of the panel's own. */
static void draw_limits(struct plot *p, cairo_t *cr, const struct panel *a, const struct series *s)
{
	struct series line = *s;
	double x = a->right - 180 - 110 * LIMITS;
	for (int k = 0; k < LIMITS; k++, x += 110) {
		double dash = 6;
		line.n = p->limits.n < s->n ? p->limits.n : s->n;
		p->cairo.save(cr);
		p->cairo.rectangle(cr, a->left, a->top, a->right - a->left, a->bottom - a->top);
		p->cairo.clip(cr);
		p->cairo.set_dash(cr, &dash, 1, 0);
		draw_series(p, cr, a, &line, p->limits.v[k], limit_looks[k].r, limit_looks[k].g,
			    limit_looks[k].b);
		p->cairo.restore(cr);
		p->cairo.set_source_rgb(cr, limit_looks[k].r, limit_looks[k].g, limit_looks[k].b);
		p->cairo.set_line_width(cr, 3);
		p->cairo.set_dash(cr, &dash, 1, 0);
		p->cairo.move_to(cr, x, HEADING_Y(a) - 4);
		p->cairo.line_to(cr, x + 22, HEADING_Y(a) - 4);
		p->cairo.stroke(cr);
		p->cairo.set_dash(cr, NULL, 0, 0);
		p->cairo.set_source_rgb(cr, 0.1, 0.1, 0.1);
		show_text(p, cr, x + 27, HEADING_Y(a), 12, limit_looks[k].name);
	}
}

static const struct metric_look *panel_look(const struct plot_panel *pp)
{
	if (pp->metric == METRIC_JOURNAL && pp->journal_fs == JOURNAL_XFS)
		return &journal_xfs_look;
	return &metric_looks[pp->metric];
}

/* "DEVICE: title" in bold above the panel, the device name cleaned as every text drawn. */
static void draw_panel_title(struct plot *p, cairo_t *cr, const struct panel *a,
			     const struct plot_panel *pp, const struct metric_look *look)
{
	char title[DEV_NAME_MAX + 160], clean[sizeof title * 2];
	snprintf(title, sizeof title, "%s: %s", pp->device < 0 ? "system" : p->rep->devices[pp->device],
		 look->title);
	clean_text(title, clean, sizeof clean, 200);
	p->cairo.set_source_rgb(cr, 0.1, 0.1, 0.1);
	set_font(p, cr, CAIRO_FONT_WEIGHT_BOLD);
	show_text(p, cr, a->left, HEADING_Y(a), 13, clean);
	set_font(p, cr, CAIRO_FONT_WEIGHT_NORMAL);
}

static void draw_panel(struct plot *p, cairo_t *cr, size_t k, double y0, double h)
{
	struct panel a = { MARGIN_L, p->width - MARGIN_R, y0 + PANEL_TOP, y0 + h - PANEL_BOTTOM, 1 };
	const struct series *s = &p->series[k];
	const struct plot_panel *pp = &p->panels[k];
	const struct metric_look *look = panel_look(pp);
	double max = pp->metric == METRIC_DIRTY ? fmax(s->max, p->limits.max) : s->max;
	a.ymax = max > 0 ? ceil(max * 1.1 / nice_step(max * 1.1, 5)) * nice_step(max * 1.1, 5) : 1;
	if (pp->metric == METRIC_UTIL)
		a.ymax = fmin(a.ymax, 100);   /* %util is capped at 100: no room above it */
	draw_panel_title(p, cr, &a, pp, look);
	draw_axes(p, cr, &a, look->unit);
	draw_legend(p, cr, &a, look);
	p->cairo.save(cr);
	p->cairo.rectangle(cr, a.left, a.top, a.right - a.left, a.bottom - a.top);
	p->cairo.clip(cr);
	draw_series(p, cr, &a, s, s->r, 0.12, 0.47, 0.71);
	if (look->b)
		draw_series(p, cr, &a, s, s->w, 0.84, 0.15, 0.16);
	p->cairo.restore(cr);
	if (pp->metric == METRIC_DIRTY && p->limits.n)
		draw_limits(p, cr, &a, s);
	draw_marks(p, cr, &a);
}

/* ---- the latency heat map (--metrics latency) ---- */

/* Time ticks on round clock times, as draw_axes; the frame. */
static void heat_time_axis(struct plot *p, cairo_t *cr, const struct panel *a)
{
	char buf[32];
	double span = p->t1 - p->t0, tstep = time_step(span > 0 ? span : 1);
	double first = ceil(p->t0 / tstep) * tstep - p->t0;
	p->cairo.set_line_width(cr, 1);
	p->cairo.set_source_rgb(cr, 0.2, 0.2, 0.2);
	for (double t = first; t <= span + 1e-9; t += tstep) {
		double x = round(px_x(p, a, t)) + 0.5;
		struct timespec ts = { (time_t)(p->t0 + t), 0 };
		report_local_time(&ts, false, buf, sizeof buf);
		p->cairo.move_to(cr, x, a->bottom);
		p->cairo.line_to(cr, x, a->bottom + 4);
		p->cairo.stroke(cr);
		show_text(p, cr, x - 24, a->bottom + 16, 11, buf);
	}
	p->cairo.rectangle(cr, a->left + 0.5, a->top + 0.5, a->right - a->left, a->bottom - a->top);
	p->cairo.stroke(cr);
	show_text(p, cr, a->right - 90, a->bottom + 34, 11, "time (local)");
}

/* Each row's lowest latency at its bottom edge, as many as fit. */
static void heat_latency_axis(struct plot *p, cairo_t *cr, const struct heat_box *b, int lo, int hi,
			      bool outliers)
{
	double row = (b->bottom - b->top) / (double)(hi - lo + 1);
	int every = row >= 14 ? 1 : (int)ceil(14 / row);
	p->cairo.set_source_rgb(cr, 0.2, 0.2, 0.2);
	/* the outliers' row has no top: its bottom edge says "from here up" */
	for (int k = lo; k <= hi + !outliers; k += every) {
		char buf[32];
		const char *from = outliers && k == hi ? "\xe2\x89\xa5 " : "";
		uint64_t us = k < TRACE_LAT_BUCKETS ? trace_bucket_low((size_t)k)
						    : trace_bucket_low(TRACE_LAT_BUCKETS - 1) * 2;
		if (us < 1000)
			snprintf(buf, sizeof buf, "%s%llu \xc2\xb5s", from, (unsigned long long)us);
		else if (us < 1000000)
			snprintf(buf, sizeof buf, "%s%.3g ms", from, (double)us / 1e3);
		else
			snprintf(buf, sizeof buf, "%s%.3g s", from, (double)us / 1e6);
		double y = report_heat_row_bottom(b, lo, hi, k);
		cairo_text_extents_t e;
		p->cairo.set_font_size(cr, 11);
		p->cairo.text_extents(cr, buf, &e);
		show_text(p, cr, b->left - 6 - e.x_advance, y + 4, 11, buf);
	}
}

/* White to dark red: light cells stay visible (shade 0 is a tenth of the way). */
static void heat_cells(struct plot *p, cairo_t *cr, const struct heat_rect *r, long n)
{
	for (long i = 0; i < n; i++) {
		double s = 0.1 + 0.9 * r[i].shade;
		p->cairo.set_source_rgb(cr, 1 - 0.45 * s, 1 - 0.95 * s, 1 - 0.9 * s);
		p->cairo.rectangle(cr, r[i].x0, r[i].y0, fmax(r[i].x1 - r[i].x0, 1), r[i].y1 - r[i].y0);
		p->cairo.fill(cr);
	}
}

static void draw_heat_panel(struct plot *p, cairo_t *cr, size_t k, double y0, double h)
{
	struct panel a = { MARGIN_L, p->width - MARGIN_R, y0 + PANEL_TOP, y0 + h - PANEL_BOTTOM, 1 };
	struct heat_box box = { a.left, a.right, a.top, a.bottom, p->t1 - p->t0 };
	draw_panel_title(p, cr, &a, &p->panels[k], &metric_looks[METRIC_LATENCY]);
	int lo, hi;
	bool outliers;
	struct heat_rect *r;
	long n = report_heat_layout(&p->heat[k], &box, &lo, &hi, &outliers, &r);
	heat_cells(p, cr, r, n);
	free(r);
	heat_time_axis(p, cr, &a);
	heat_latency_axis(p, cr, &box, lo, hi, outliers);
	if (!p->heat[k].n)
		show_text(p, cr, a.left + 12, (a.top + a.bottom) / 2, 12,
			  "no trace records: recorded without --trace (or the console's b key)");
	draw_marks(p, cr, &a);
}

static void draw_title(struct plot *p, cairo_t *cr)
{
	const struct replay_machine *m = replay_machine(p->rep->replay);
	struct timespec a = { (time_t)p->t0, 0 }, b = { (time_t)p->t1, 0 };
	char from[32], to[32], span[32], devices[512] = "", title[1024], clean[2048];
	report_local_time(&a, true, from, sizeof from);
	report_local_time(&b, false, to, sizeof to);
	report_duration(p->t1 - p->t0, span, sizeof span);
	for (size_t i = 0; i < p->rep->ndevices; i++)
		snprintf(devices + strlen(devices), sizeof devices - strlen(devices), "%s%s", i ? ", " : "",
			 p->rep->devices[i]);
	snprintf(title, sizeof title, "%s \xe2\x80\x94 %s \xe2\x80\x94 %s to %s (%s)", m->host[0] ? m->host : "?",
		 devices[0] ? devices : "no devices", from, to, span);
	clean_text(title, clean, sizeof clean, 300);
	p->cairo.set_source_rgb(cr, 0, 0, 0);
	set_font(p, cr, CAIRO_FONT_WEIGHT_BOLD);
	show_text(p, cr, MARGIN_L, 30, 16, clean);
	set_font(p, cr, CAIRO_FONT_WEIGHT_NORMAL);
	p->cairo.set_source_rgb(cr, 0.3, 0.3, 0.3);
	snprintf(title, sizeof title, "kernel %s, ioscope %s session log", m->kernel, m->ioscope);
	clean_text(title, clean, sizeof clean, 300);
	show_text(p, cr, MARGIN_L, 48, 11, clean);
}

static void draw(struct plot *p, cairo_t *cr)
{
	p->cairo.set_source_rgb(cr, 1, 1, 1);
	p->cairo.paint(cr);
	draw_title(p, cr);
	size_t panels = p->npanels;
	double h = panels ? (double)(p->height - TITLE_H - p->legend_h) / (double)panels : 0;
	for (size_t k = 0; k < panels; k++)
		(p->panels[k].metric == METRIC_LATENCY ? draw_heat_panel : draw_panel)(
			p, cr, k, TITLE_H + h * (double)k, h);
	draw_legend_of_marks(p, cr);
}

/* ---- output ---- */

struct buffer {
	char *data;
	size_t len, cap;
	bool failed;
};

static cairo_status_t to_buffer(void *closure, const unsigned char *data, unsigned int len)
{
	struct buffer *b = closure;
	if (grow_array(&b->data, &b->cap, b->len + len, 1, 65536, NULL) < 0) {
		b->failed = true;
		return CAIRO_STATUS_NO_MEMORY;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* cairo's SVG with a <title> first and the text layer last. */
static int write_svg(struct plot *p, const struct buffer *b, FILE *out, const char *title)
{
	const char *svg = b->len ? memmem(b->data, b->len, "<svg", 4) : NULL;
	const char *open_end = svg ? memchr(svg, '>', b->len - (size_t)(svg - b->data)) : NULL;
	const char *close = open_end ? memmem(open_end, b->len - (size_t)(open_end - b->data), "</svg>", 6) : NULL;
	if (!close)
		return -1;
	fwrite(b->data, 1, (size_t)(open_end + 1 - b->data), out);
	fputs("\n<title>", out);
	xml_escaped(out, title);
	fputs("</title>\n", out);
	fwrite(open_end + 1, 1, (size_t)(close - open_end - 1), out);
	/* Not painted by any renderer, yet text to search and copy: no fill and no stroke,
	 * said on every <text> too (a converter that ignores what a group passes on painted
	 * the full labels over the drawn ones), and the group transparent (opacity 0);
	 * never display="none" or visibility="hidden", which take it out of a search. */
	fputs("<g id=\"text-layer\" opacity=\"0\" fill=\"none\" fill-opacity=\"0\" stroke=\"none\" "
	      "font-family=\"sans-serif\">\n", out);
	for (size_t i = 0; i < p->ntexts; i++) {
		const struct text_item *t = &p->texts[i];
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" fill=\"none\" "
			"fill-opacity=\"0\" stroke=\"none\">", t->x, t->y, t->size);
		xml_escaped(out, t->text);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	fwrite(close, 1, b->len - (size_t)(close - b->data), out);
	return ferror(out) ? -1 : 0;
}

static int render(struct plot *p, FILE *out, struct error *err)
{
	struct buffer b = { NULL, 0, 0, false };
	cairo_surface_t *surface = p->svg
		? p->cairo.svg_surface_create_for_stream(to_buffer, &b, p->width, p->height)
		: p->cairo.image_surface_create(CAIRO_FORMAT_ARGB32, p->width, p->height);
	cairo_t *cr = p->cairo.create(surface);
	draw(p, cr);
	cairo_status_t st = p->cairo.status(cr);
	p->cairo.destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && !p->svg)
		st = p->cairo.surface_write_to_png_stream(surface, to_file, out);
	p->cairo.surface_finish(surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = p->cairo.surface_status(surface);
	p->cairo.surface_destroy(surface);
	int rc = 0;
	if (st != CAIRO_STATUS_SUCCESS || b.failed)
		rc = error_set(err, "drawing failed: %s", p->cairo.status_to_string(st));
	else if (p->svg && write_svg(p, &b, out, p->ntexts ? p->texts[0].text : "ioscope") < 0)
		rc = error_set(err, "write error");
	free(b.data);
	return rc;
}

static void free_plot(struct plot *p)
{
	for (size_t k = 0; p->series && k < p->npanels; k++) {
		free(p->series[k].t);
		free(p->series[k].r);
		free(p->series[k].w);
	}
	free(p->series);
	for (size_t k = 0; p->heat && k < p->npanels; k++)
		report_heat_free(&p->heat[k]);
	free(p->heat);
	free(p->panels);
	for (int k = 0; k < LIMITS; k++)
		free(p->limits.v[k]);
	for (size_t i = 0; i < p->nmarks; i++) {
		free(p->marks[i].shown);
		free(p->marks[i].whole);
	}
	free(p->marks);
	free(p->places);
	for (size_t i = 0; i < p->ntexts; i++)
		free(p->texts[i].text);
	free(p->texts);
}

int report_plot_available(struct error *err)
{
	struct cairo_lib cairo;
	return cairo_lib_load(&cairo, err);
}

static int plot(struct report *rep, FILE *out, bool svg, struct error *err)
{
	struct timespec a = replay_sample_wall(rep->replay, rep->first);
	struct timespec b = replay_sample_wall(rep->replay, rep->last);
	struct plot p = {
		.rep = rep,
		.width = rep->width ? rep->width : DEFAULT_WIDTH,
		.height = rep->height,
		.t0 = timespec_seconds(&a),
		.t1 = timespec_seconds(&b),
		.svg = svg,
	};
	if (cairo_lib_load(&p.cairo, err) < 0)
		return -1;
	int rc = plan_panels(&p) < 0 ? error_set(err, "out of memory") : 0;
	if (rc == 0)
		rc = report_walk(rep, collect, &p, err);
	if (rc == 0)
		drop_empty_why_panels(&p);
	if (!p.height)
		p.height = TITLE_H + PANEL_H * (int)(p.npanels ? p.npanels : 1);
	if (rc < 0 && !err->msg[0])
		error_set(err, "out of memory");
	struct panel proto = { MARGIN_L, p.width - MARGIN_R, 0, 0, 1 };
	if (rc == 0 && plan_marks(&p, &proto) < 0)
		rc = error_set(err, "out of memory");
	if (rc == 0 && !rep->height)
		p.height += (int)p.legend_h;
	else if (rc == 0 && p.legend_h > p.height / 3) {
		p.legend_h = 0;   /* --size too small for it: the numbers stay */
		p.legend = false;
	}
	if (rc == 0)
		rc = render(&p, out, err);
	free_plot(&p);
	return rc;
}

int report_svg(struct report *rep, FILE *out, struct error *err)
{
	return plot(rep, out, true, err);
}

int report_png(struct report *rep, FILE *out, struct error *err)
{
	return plot(rep, out, false, err);
}
