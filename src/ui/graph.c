/* graph.c - graphable metrics, Y scaling, axis labels and cell rendering (graph.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "graph.h"
#include "history.h"
#include "trace.h"

#define DEV(l, m) { l, false, m }
#define SYS(l, m) { l, true, m }
const struct graph_metric graph_metrics[] = {
	{ "MB/s", "throughput", GRAPH_UNIT_MBS, 2, { DEV("read", HM_READ_MBS), DEV("write", HM_WRITE_MBS) } },
	{ "IOPS", "r/s", GRAPH_UNIT_PER_S, 2, { DEV("r/s", HM_READ_IOPS), DEV("w/s", HM_WRITE_IOPS) } },
	{ "await", "ms", GRAPH_UNIT_MS, 2, { DEV("r_await", HM_READ_AWAIT), DEV("w_await", HM_WRITE_AWAIT) } },
	{ "%util", "util", GRAPH_UNIT_PERCENT, 1, { DEV("%util", HM_UTIL) } },
	{ "f/s", "flush", GRAPH_UNIT_PER_S, 1, { DEV("f/s", HM_FLUSH_S) } },
	{ "in-flight", "in_flight", GRAPH_UNIT_COUNT, 1, { DEV("in-flight", HM_IN_FLIGHT) } },
	{ "dirty", "dirty/writeback", GRAPH_UNIT_MB, 2,
	  { SYS("dirty", HSM_DIRTY_MB), SYS("writeback", HSM_WRITEBACK_MB) } },
	/* --probe: what a user feels, the median and the slowest read of each interval */
	{ "probe", "responsiveness", GRAPH_UNIT_MS, 2,
	  { SYS("p50", HSM_PROBE_P50_MS), SYS("max", HSM_PROBE_MAX_MS) } },
	/* tracing (--trace, the b key): time x latency bucket, shade = requests */
	{ "latency", "heatmap", GRAPH_UNIT_HEAT, 2,
	  { DEV("read latency", TRACE_READ), DEV("write latency", TRACE_WRITE) } },
};
const size_t graph_metrics_count = sizeof graph_metrics / sizeof graph_metrics[0];

const struct graph_metric *graph_metric_find(const char *name)
{
	for (size_t i = 0; i < graph_metrics_count; i++) {
		const struct graph_metric *m = &graph_metrics[i];
		if (strcasecmp(m->name, name) == 0 || (m->alias && strcasecmp(m->alias, name) == 0))
			return m;
	}
	return NULL;
}

size_t graph_metric_index(const struct graph_metric *m)
{
	return (size_t)(m - graph_metrics);
}

static double unit_floor(enum graph_unit unit)
{
	switch (unit) {
	case GRAPH_UNIT_MBS: return 1;
	case GRAPH_UNIT_PER_S: return 10;
	case GRAPH_UNIT_MS: return 1;
	case GRAPH_UNIT_COUNT: return 4;
	case GRAPH_UNIT_MB: return 1;
	case GRAPH_UNIT_PERCENT:
	default: return 100;
	}
}

static double nice_above(double max)
{
	double p = pow(10, floor(log10(max)));
	static const double steps[] = { 1, 2, 5, 10 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		double top = steps[i] * p;
		if (top >= max * (1 - 1e-9))
			return top;
	}
	return 10 * p;
}

double graph_nice_top(double max, enum graph_unit unit)
{
	if (unit == GRAPH_UNIT_PERCENT)
		return 100;
	double floor_v = unit_floor(unit);
	if (!(max > floor_v) || !isfinite(max))
		return floor_v;
	/* MiB figures are labelled in GiB from 1024 up: round numbers of what is shown */
	bool mib = unit == GRAPH_UNIT_MBS || unit == GRAPH_UNIT_MB;
	if (mib && max > 1000)
		return nice_above(max / 1024) * 1024;
	if (unit == GRAPH_UNIT_MS && max >= 1000)
		return nice_above(max / 1000) * 1000;
	return nice_above(max);
}

/* Three significant figures at most, trailing ".0" dropped. */
static void short_number(double v, const char *suffix, char *buf, size_t len)
{
	if (v >= 100 || v == floor(v))
		snprintf(buf, len, "%.0f%s", v, suffix);
	else if (v >= 10)
		snprintf(buf, len, "%.1f%s", v, suffix);
	else
		snprintf(buf, len, "%.2g%s", v, suffix);
}

static void scaled(double v, const char *const *suffixes, size_t n, char *buf, size_t len)
{
	size_t i = 0;
	while (i + 1 < n && v >= 1000) {
		v /= 1000;
		i++;
	}
	short_number(v, suffixes[i], buf, len);
}

void graph_format_value(double v, enum graph_unit unit, char *buf, size_t len)
{
	static const char *const counts[] = { "", "k", "M", "G" };
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (unit) {
	case GRAPH_UNIT_MBS:
	case GRAPH_UNIT_MB:
		if (v > 0 && v < 1)
			short_number(v * 1024, "k", buf, len);
		else if (v >= 1024)
			short_number(v / 1024, "G", buf, len);
		else
			short_number(v, v == 0 ? "" : "M", buf, len);
		break;
	case GRAPH_UNIT_MS:
		if (v >= 1000)
			short_number(v / 1000, "s", buf, len);
		else
			short_number(v, "ms", buf, len);
		break;
	case GRAPH_UNIT_PERCENT:
		short_number(v, "%", buf, len);
		break;
	case GRAPH_UNIT_PER_S:
	case GRAPH_UNIT_COUNT:
	default:
		scaled(v, counts, 4, buf, len);
		break;
	}
}

void graph_format_age(double seconds, char *buf, size_t len)
{
	long s = lround(seconds);
	if (s <= 0) {
		snprintf(buf, len, "now");
	} else if (s < 60) {
		snprintf(buf, len, "-%lds", s);
	} else if (s < 3600) {
		if (s % 60)
			snprintf(buf, len, "-%ldm%02lds", s / 60, s % 60);
		else
			snprintf(buf, len, "-%ldm", s / 60);
	} else {
		snprintf(buf, len, "-%ldh%02ldm", s / 3600, s % 3600 / 60);
	}
}

int graph_samples_per_cell(enum graph_glyphs g)
{
	return g == GLYPHS_BRAILLE ? 2 : 1;
}

double graph_max(const float *values, size_t count)
{
	double m = 0;
	for (size_t i = 0; i < count; i++)
		if (!isnan(values[i]) && values[i] > m)
			m = values[i];
	return m;
}

static void utf8_encode(unsigned cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		out[1] = '\0';
		return;
	}
	/* every glyph used here is in U+0800..U+FFFF */
	out[0] = (char)(0xE0 | cp >> 12);
	out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[2] = (char)(0x80 | (cp & 0x3F));
	out[3] = '\0';
}

/* Height of a value in sub-cell steps; a non-zero value shows at least one step. */
static int level_of(float v, double top, int steps)
{
	if (isnan(v) || v <= 0 || !(top > 0))
		return v == 0 ? 0 : -1;
	double l = v / top * steps;
	int lv = (int)lround(l);
	if (lv < 1)
		lv = 1;
	return lv > steps ? steps : lv;
}

static int fill_in_row(int level, int row, int height, int per_cell)
{
	int below = (height - 1 - row) * per_cell;
	int f = level - below;
	return f < 0 ? 0 : f > per_cell ? per_cell : f;
}

/* Braille dots from the bottom up: left column 7 3 2 1, right column 8 6 5 4. */
static const unsigned braille_left[5] = { 0, 0x40, 0x44, 0x46, 0x47 };
static const unsigned braille_right[5] = { 0, 0x80, 0xA0, 0xB0, 0xB8 };

static float value_at(const float *values, size_t count, long idx)
{
	return idx >= 0 && (size_t)idx < count ? values[idx] : NAN;
}

void graph_render(const float *values, size_t count, double top, int width, int height,
		  enum graph_glyphs g, struct graph_cell *cells)
{
	int spc = graph_samples_per_cell(g);
	int per_cell = g == GLYPHS_BRAILLE ? 4 : g == GLYPHS_BLOCK ? 8 : 2;
	int steps = height * per_cell;
	long first = (long)count - (long)width * spc;
	for (int col = 0; col < width; col++) {
		int lv[2] = { -1, -1 };
		for (int s = 0; s < spc; s++)
			lv[s] = level_of(value_at(values, count, first + (long)col * spc + s), top, steps);
		for (int row = 0; row < height; row++) {
			struct graph_cell *cell = &cells[row * width + col];
			cell->glyph[0] = '\0';
			int f0 = lv[0] < 0 ? 0 : fill_in_row(lv[0], row, height, per_cell);
			if (g == GLYPHS_BRAILLE) {
				int f1 = lv[1] < 0 ? 0 : fill_in_row(lv[1], row, height, per_cell);
				if (f0 || f1)
					utf8_encode(0x2800 + (braille_left[f0] | braille_right[f1]), cell->glyph);
			} else if (g == GLYPHS_BLOCK) {
				if (f0)
					utf8_encode(0x2580 + (unsigned)f0, cell->glyph);
			} else if (f0) {
				snprintf(cell->glyph, sizeof cell->glyph, "%s", f0 == 2 ? "#" : ".");
			}
		}
	}
}
