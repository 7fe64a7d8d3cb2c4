/* report_heat.h - the latency heat map of a report's plot (`report --metrics latency`,
 * docs/reports.md): per traced interval of a device, its D2C histogram (reads and writes
 * summed), laid out as shaded rectangles.  The layout is plain arithmetic, apart from
 * cairo (src/record/report_plot.c draws it), so tests check it without pixels. */
#ifndef IOSCOPE_REPORT_HEAT_H
#define IOSCOPE_REPORT_HEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* One traced interval: its span (seconds from the plot's start) and its histogram. */
struct heat_column {
	double t0, t1;
	uint64_t hist[TRACE_LAT_BUCKETS];
};

/* The traced intervals of one device, in time order (an interval not traced has none). */
struct heat_series {
	struct heat_column *cols;
	size_t n, cap;
};

/* Adds the interval [t0, t1]; d NULL: traced, the device did nothing.  -1 ENOMEM. */
int report_heat_add(struct heat_series *s, double t0, double t1, const struct trace_device *d);
void report_heat_free(struct heat_series *s);

/* The plot area and the seconds it spans across. */
struct heat_box {
	double left, right, top, bottom;
	double span;
};

/* A bucket of an interval that counted something: its rectangle and shade, 0 (lightest,
 * still visible) to 1 (the busiest cell of the panel), on a log scale. */
struct heat_rect {
	double x0, y0, x1, y1;
	double shade;
	uint64_t count;
};

#define REPORT_HEAT_MIN_BUCKETS 8

/* The rows: the buckets lo..hi, fitted to what the panel counted (trace_heat_fit(): from
 * the fastest to the 99th percentile, slower ones while the rows are under
 * REPORT_HEAT_MIN_BUCKETS; nothing counted: 16 µs..2 ms), the fastest at the bottom, each
 * (bottom - top) / (hi - lo + 1) high; *outliers: row hi is the outliers' row, every
 * bucket from hi up, so that a few requests of seconds do not stretch the scale.  The
 * rectangles into *out (malloc'ed, NULL when none); their number, or -1 ENOMEM. */
long report_heat_layout(const struct heat_series *s, const struct heat_box *b, int *lo, int *hi,
			bool *outliers, struct heat_rect **out);
/* The y of the bottom edge of bucket's row (bucket + 1 gives its top edge). */
double report_heat_row_bottom(const struct heat_box *b, int lo, int hi, int bucket);

#endif
