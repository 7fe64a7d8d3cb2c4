/* graph.c - graphable metrics, Y scaling, axis labels and cell rendering (graph.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph.h"
#include "history.h"
#include "text.h"
#include "trace.h"

#define DEV(l, m) { l, false, m, GRAPH_AREA, false, 0 }
#define SYS(l, m) { l, true, m, GRAPH_AREA, false, 0 }
#define DEVU(l, m, u) { l, false, m, GRAPH_AREA, true, u }
#define LIMIT(l, m, line) { l, true, m, line, false, 0 }
const struct graph_metric graph_metrics[] = {
	{ "MB/s", "throughput", GRAPH_UNIT_MBS, 2,
	  { DEV("read", HM_READ_MBS), DEV("write", HM_WRITE_MBS) }, NULL, NULL },
	{ "IOPS", "r/s", GRAPH_UNIT_PER_S, 2,
	  { DEV("r/s", HM_READ_IOPS), DEV("w/s", HM_WRITE_IOPS) }, NULL, NULL },
	{ "await", "ms", GRAPH_UNIT_MS, 2,
	  { DEV("r_await", HM_READ_AWAIT), DEV("w_await", HM_WRITE_AWAIT) }, NULL, NULL },
	{ "%util", "util", GRAPH_UNIT_PERCENT, 1,
	  { DEV("%util", HM_UTIL) }, NULL, NULL },
	{ "f/s", "flush", GRAPH_UNIT_PER_S, 1,
	  { DEV("f/s", HM_FLUSH_S) }, NULL, NULL },
	{ "in-flight", "in_flight", GRAPH_UNIT_COUNT, 1,
	  { DEV("in-flight", HM_IN_FLIGHT) }, NULL, NULL },
	/* dirty against the kernel's own limits, drawn as lines across its strip */
	{ "dirty", "dirty/writeback", GRAPH_UNIT_MB, 5,
	  { SYS("dirty", HSM_DIRTY_MB), LIMIT("bg", HSM_DIRTY_BG_MB, GRAPH_LINE_THIN),
	    LIMIT("freerun", HSM_DIRTY_FREERUN_MB, GRAPH_LINE_DOTTED),
	    LIMIT("limit", HSM_DIRTY_LIMIT_MB, GRAPH_LINE_DOUBLE),
	    SYS("writeback", HSM_WRITEBACK_MB) },
	  "system", NULL },
	/* --probe: what a user feels, the median and the slowest read of each interval */
	{ "probe", "responsiveness", GRAPH_UNIT_MS, 2,
	  { SYS("p50", HSM_PROBE_P50_MS), SYS("max", HSM_PROBE_MAX_MS) }, "probe read, ms",
	  "needs --probe" },
	/* the journals of the device's filesystems: ext4/btrfs commit, xfs log forces */
	{ "journal", "commit", GRAPH_UNIT_MS, 2,
	  { DEV("commit", HM_JOURNAL_COMMIT_MS),
	    DEVU("log forces/s", HM_JOURNAL_FORCES_S, GRAPH_UNIT_PER_S) },
	  "ext4/btrfs commit ms, xfs log forces/s",
	  "no journal figures: needs an ext4, xfs or btrfs mount on it" },
	{ "D-tasks", "blocked", GRAPH_UNIT_COUNT, 1, { SYS("D tasks", HSM_D_TASKS) },
	  "tasks in D state", "needs --tasks or W" },
	{ "PSI", "pressure", GRAPH_UNIT_PERCENT, 2,
	  { SYS("io some", HSM_PSI_SOME), SYS("io full", HSM_PSI_FULL) }, "PSI avg10, %",
	  "needs a kernel with PSI (/proc/pressure/io)" },
	{ "seeks/s", "seeks", GRAPH_UNIT_PER_S, 1, { DEV("seeks/s", HM_SEEKS_S) }, NULL,
	  "needs --trace" },
	/* tracing (--trace, the b key): time x latency bucket, shade = requests */
	{ "latency", "heatmap", GRAPH_UNIT_HEAT, 2,
	  { DEV("read latency", TRACE_READ), DEV("write latency", TRACE_WRITE) },
	  "issue to completion, shade = requests", NULL },
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

enum graph_unit graph_series_unit(const struct graph_metric *m, const struct graph_series_def *s)
{
	return s->own_unit ? s->unit : m->unit;
}

const char *graph_line_glyph(enum graph_line line, bool utf8)
{
	switch (line) {
	case GRAPH_LINE_THIN: return utf8 ? "─" : "-";
	case GRAPH_LINE_DOTTED: return utf8 ? "┄" : ":";
	case GRAPH_LINE_DOUBLE: return utf8 ? "═" : "=";
	case GRAPH_AREA:
	default: return "";
	}
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

double graph_tick_step(double cell_seconds, int min_cells)
{
	static const double steps[] = {
		0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200,
		10800, 21600, 43200, 86400,
	};
	if (!(cell_seconds > 0) || !isfinite(cell_seconds) || min_cells < 1)
		return 0;
	double least = cell_seconds * min_cells;
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] >= least * (1 - 1e-9))
			return steps[i];
	return ceil(least / 86400) * 86400;
}

void graph_format_tick(double seconds, double step, char *buf, size_t len)
{
	if (step < 1 && seconds > 0.05)
		snprintf(buf, len, "-%.1fs", seconds);
	else
		graph_format_age(seconds, buf, len);
}

struct number_run {
	uint64_t from, to;
};

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* nums sorted, without duplicates, as runs: three or more in a row one range, shorter
 * ones number by number. */
static size_t number_runs(uint64_t *nums, size_t n, struct number_run *runs)
{
	qsort(nums, n, sizeof *nums, compare_u64);
	size_t m = 0, nr = 0;
	for (size_t i = 0; i < n; i++)
		if (m == 0 || nums[i] != nums[m - 1])
			nums[m++] = nums[i];
	for (size_t i = 0; i < m;) {
		size_t run = 1;
		while (i + run < m && nums[i + run] == nums[i] + run)
			run++;
		run = run < 3 ? 1 : run;
		runs[nr++] = (struct number_run){ nums[i], nums[i + run - 1] };
		i += run;
	}
	return nr;
}

static size_t put_runs(char *buf, size_t len, size_t used, const struct number_run *r,
		       size_t n, bool first)
{
	for (size_t i = 0; i < n; i++) {
		used = text_appendf(buf, len, used, "%s%llu", first && i == 0 ? "" : ",",
				    (unsigned long long)r[i].from);
		if (r[i].to != r[i].from)
			used = text_appendf(buf, len, used, "-%llu", (unsigned long long)r[i].to);
	}
	return used;
}

/* One candidate text: the first `head` runs, then (head < nr) the ellipsis and, with
 * tail, the last run; whether it fits. */
static bool numbers_try(const struct number_run *r, size_t nr, size_t head, bool tail,
			bool utf8, int room, char *out, size_t len, int *cells)
{
	char buf[4096];
	const char *dots = utf8 ? "…" : "...";
	int dots_w = utf8 ? 1 : 3;
	size_t used = text_appendf(buf, sizeof buf, 0, "[");
	used = put_runs(buf, sizeof buf, used, r, head, true);
	bool cut = head < nr;
	if (cut)
		used = text_appendf(buf, sizeof buf, used, "%s%s%s", head ? (tail ? "," : "") : "",
				    dots, tail ? "," : "");
	if (cut && tail)
		used = put_runs(buf, sizeof buf, used, r + nr - 1, 1, true);
	used = text_appendf(buf, sizeof buf, used, "]");
	int w = (int)used - (cut ? (int)strlen(dots) - dots_w : 0);
	if (used + 1 >= sizeof buf || used >= len || w > room)
		return false;
	memcpy(out, buf, used + 1);
	*cells = w;
	return true;
}

int graph_mark_numbers(uint64_t *nums, size_t n, int room, bool utf8, char *out, size_t len)
{
	struct number_run runs[GRAPH_MARK_NUMBERS_MAX];
	int cells = 0;
	if (n > GRAPH_MARK_NUMBERS_MAX)
		n = GRAPH_MARK_NUMBERS_MAX;
	size_t nr = number_runs(nums, n, runs);
	if (len)
		out[0] = '\0';
	if (!len || !nr)
		return 0;
	if (numbers_try(runs, nr, nr, false, utf8, room, out, len, &cells))
		return cells;
	for (size_t head = nr >= 3 ? nr - 2 : 0; head >= 1; head--)
		if (numbers_try(runs, nr, head, true, utf8, room, out, len, &cells))
			return cells;
	if (nr >= 2 && numbers_try(runs, nr, 1, false, utf8, room, out, len, &cells))
		return cells;   /* "[24…]" */
	if (numbers_try(runs, nr, 0, false, utf8, room, out, len, &cells))
		return cells;   /* "[…]" */
	const char *dots = utf8 ? "…" : "...";
	int dots_w = utf8 ? 1 : 3;
	if (dots_w <= room && strlen(dots) < len) {
		snprintf(out, len, "%s", dots);
		return dots_w;
	}
	return 0;
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

int graph_line_row(float v, double top, int height)
{
	if (isnan(v) || !(top > 0) || height <= 0)
		return -1;
	int from_bottom = (int)floor(v / top * height);
	if (from_bottom < 0)
		from_bottom = 0;
	if (from_bottom > height - 1)
		from_bottom = height - 1;
	return height - 1 - from_bottom;
}

enum graph_fill graph_fill_of(const float *values, size_t count)
{
	enum graph_fill f = GRAPH_NO_DATA;
	for (size_t i = 0; i < count; i++) {
		if (isnan(values[i]))
			continue;
		if (values[i] != 0)
			return GRAPH_HAS_DATA;
		f = GRAPH_ZEROS;
	}
	return f;
}

/* Rows the first `shown` strips need: one per empty strip when any is not, min each else. */
static int rows_needed(const bool *empty, size_t shown, int min, size_t *full)
{
	*full = 0;
	for (size_t i = 0; i < shown; i++)
		*full += !empty[i];
	return *full ? (int)(shown - *full) + (int)*full * min : (int)shown * min;
}

size_t graph_strip_layout(const bool *empty, size_t n, size_t group, int avail, int min,
			  int *rows)
{
	size_t shown = n, full = 0;
	while (shown > 0 && rows_needed(empty, shown, min, &full) > avail)
		shown -= shown > group ? group : 1;
	if (shown == 0)
		return 0;
	size_t sharing = full ? full : shown;   /* all empty: nobody to give the room to */
	int share = avail - (full ? (int)(shown - full) : 0);
	int each = share / (int)sharing, left = share - each * (int)sharing;
	size_t last = shown;
	for (size_t i = 0; i < shown; i++)
		if (!full || !empty[i])
			last = i;
	for (size_t i = 0; i < shown; i++) {
		bool shares = !full || !empty[i];
		rows[i] = shares ? each + (i == last ? left : 0) : 1;
	}
	return shown;
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
