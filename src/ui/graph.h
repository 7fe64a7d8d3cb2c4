/* graph.h - scrolling graphs: which figures can be graphed, Y scaling with units,
 * X labels in seconds, and rendering a series into terminal cells (braille, block
 * characters or ASCII).  Pure functions: the console draws the cells.
 */
#ifndef IOSCOPE_GRAPH_H
#define IOSCOPE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum graph_unit {
	GRAPH_UNIT_MBS,      /* MiB/s */
	GRAPH_UNIT_PER_S,    /* operations per second */
	GRAPH_UNIT_MS,       /* milliseconds */
	GRAPH_UNIT_PERCENT,  /* 0..100, the top is always 100 */
	GRAPH_UNIT_COUNT,    /* a gauge: requests in flight */
	GRAPH_UNIT_MB,       /* MiB */
	/* A latency heat map of the eBPF view (src/ui/heatmap.c) rather than a line: the
	 * series' metric is a trace direction (enum trace_dir), a cell's shade requests. */
	GRAPH_UNIT_HEAT,
};

/* How a series is drawn: a strip of its own, or a limit drawn as a line across the strip of
 * the series before it (the dirty thresholds), with its own glyph. */
enum graph_line { GRAPH_AREA, GRAPH_LINE_THIN, GRAPH_LINE_DOTTED, GRAPH_LINE_DOUBLE };

struct graph_series_def {
	const char *label;   /* "read", "write" */
	bool system;         /* a history_sys_metric rather than a per-device one */
	int metric;          /* enum history_metric or enum history_sys_metric */
	enum graph_line line;
	bool own_unit;       /* unit below rather than the metric's */
	enum graph_unit unit;
};

#define GRAPH_SERIES_MAX 6

/* What Tab cycles through. */
struct graph_metric {
	const char *name;    /* as in the config file and on screen: "MB/s" */
	const char *alias;   /* another accepted spelling, or NULL */
	enum graph_unit unit;
	size_t nseries;
	struct graph_series_def series[GRAPH_SERIES_MAX];
	const char *note;    /* said in the title after the name or labels: "system", or NULL */
	const char *needs;   /* said instead of the graph when nothing in view has a value */
};

extern const struct graph_metric graph_metrics[];
extern const size_t graph_metrics_count;
/* By name or alias, case-insensitive; NULL if unknown. */
const struct graph_metric *graph_metric_find(const char *name);
size_t graph_metric_index(const struct graph_metric *m);

enum graph_unit graph_series_unit(const struct graph_metric *m, const struct graph_series_def *s);
/* "─", "┄", "═" (ASCII "-", ":", "="): a limit line's glyph; "" for an area. */
const char *graph_line_glyph(enum graph_line line, bool utf8);

/* The top of the Y axis for values up to max: a round number (1, 2, 5 x 10^k)
 * not below max and not below the unit's floor (so that noise on an idle device
 * does not fill the graph).  Percent is always 100. */
double graph_nice_top(double max, enum graph_unit unit);
/* A short label for a value of that unit: "512k", "12M", "1.5G", "250", "2.1k",
 * "40ms", "1.2s", "100%".  Fits in 6 columns. */
void graph_format_value(double v, enum graph_unit unit, char *buf, size_t len);
/* An axis label for a time `seconds` before the graph's right edge: "now",
 * "-30s", "-2m", "-2m30s", "-1h05m". */
void graph_format_age(double seconds, char *buf, size_t len);

/* The time between X labels: the smallest round step (0.1 s, 1 s, 10 s, 20 s, 30 s,
 * 1 min, 5 min, ... 1 h, a day) that sets labels min_cells cells apart or more, a cell standing
 * for cell_seconds; 0 when that is not a time. */
double graph_tick_step(double cell_seconds, int min_cells);
/* The label of a tick `seconds` before the newest sample, on an axis of that step:
 * graph_format_age's, with tenths for steps under a second ("-0.5s"). */
void graph_format_tick(double seconds, double step, char *buf, size_t len);

enum graph_glyphs { GLYPHS_BRAILLE, GLYPHS_BLOCK, GLYPHS_ASCII };

/* Samples shown per terminal column: braille cells hold two dot columns. */
int graph_samples_per_cell(enum graph_glyphs g);

struct graph_cell {
	char glyph[5];   /* UTF-8 (or ASCII) text of the cell, "" when empty */
};

/* Render the newest width*samples_per_cell values of values[0..count) (oldest
 * first, right-aligned: values[count-1] is at the right edge) into height rows of
 * width cells, row 0 at the top.  NaN is a gap.  cells has width*height entries. */
void graph_render(const float *values, size_t count, double top, int width, int height,
		  enum graph_glyphs g, struct graph_cell *cells);

/* The row (0 at the top) of a limit line at v in a plot of height rows topped at top;
 * -1 for NaN. */
int graph_line_row(float v, double top, int height);

/* What a series holds over the window: nothing (NaN only), zeros (and NaN), or values. */
enum graph_fill { GRAPH_NO_DATA, GRAPH_ZEROS, GRAPH_HAS_DATA };
enum graph_fill graph_fill_of(const float *values, size_t count);

/* Rows for n strips sharing avail rows, in groups of `group` strips (one device's).  A
 * strip that is empty (nothing but 0 and NaN in view) gets one row for its label when
 * some strip is not empty; the others share the rest, min rows at least each.  When they
 * do not fit, whole groups are dropped from the end.  Returns the strips shown (rows[]
 * filled for those), 0 when not even one fits. */
size_t graph_strip_layout(const bool *empty, size_t n, size_t group, int avail, int min,
			  int *rows);

/* "[3,4]", "[24-26,31]": mark numbers as the graphs label a crowd of marks, ascending
 * whatever order nums[0..n) holds them in (it is sorted, duplicates dropped), runs of
 * three or more as a range.  What does not fit in room cells (nor in len bytes) loses
 * numbers from the middle for an ellipsis ("[24,25,…,38]", "[24…]", "[…]", "…"), never
 * a cut bracket; "" when not even the ellipsis fits.  utf8: "…", else "...".  Returns
 * the cells the text takes. */
#define GRAPH_MARK_NUMBERS_MAX 2048
int graph_mark_numbers(uint64_t *nums, size_t n, int room, bool utf8, char *out, size_t len);

/* The largest value among values[0..count), ignoring NaN (0 when none). */
double graph_max(const float *values, size_t count);

#endif
