/* heatmap.h - the latency heat map's cells (src/ui/heatmap.c): time across, latency
 * bucket (log2 µs) up, each cell shaded by how many requests completed in it.  Pure
 * functions, as graph.h: the graphs pane fills a grid from the trace history and
 * draws the cells. */
#ifndef IOSCOPE_HEATMAP_H
#define IOSCOPE_HEATMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "trace.h"

/* Shades, lightest first: the character of level i is HEAT_RAMP[i] (level 0: no request). */
#define HEAT_RAMP " .:-=+*#%@"
#define HEAT_LEVELS 10

/* Columns of counts: column c's bucket b is counts[c * TRACE_LAT_BUCKETS + b]; a column
 * not traced is a gap (not zero). */
struct heat_grid {
	const uint32_t *counts;
	const bool *traced;
	int width;
};

/* The buckets shown: lo..hi, fitted to what the grid counted (trace_heat_fit(): up to the
 * 99th percentile and as many slower buckets as there are rows for), widened (the slow
 * end first) to rows buckets where there are that many, so that one row is one bucket
 * while the strip is tall enough; *outliers: the top row holds every bucket above hi.
 * An empty grid shows 16 µs to 16 ms. */
void heat_range(const struct heat_grid *g, int rows, int *lo, int *hi, bool *outliers);
/* The buckets row r (0 at the top) of rows takes: first..last, lo..hi spread evenly
 * (outliers: over the rows under the top one, which takes hi + 1 and above). */
void heat_row_buckets(int r, int rows, int lo, int hi, bool outliers, int *first, int *last);
/* The shade of a cell that counted count where the busiest cell counted max: 0 for
 * none, else 1..HEAT_LEVELS-1 on a log scale (1 request is never blank, max is the
 * darkest). */
int heat_level(uint64_t count, uint64_t max);
/* The grid into rows x g->width cells (row 0 at the top): glyph HEAT_RAMP[level], ""
 * where nothing was counted or the column was not traced (a mark's line shows through).
 * Returns the busiest cell's count (0: nothing counted). */
uint64_t heat_render(const struct heat_grid *g, int rows, int lo, int hi, bool outliers,
		     struct graph_cell *cells);
/* A cell's level back from its glyph (0: blank). */
int heat_cell_level(const struct graph_cell *c);
/* A bucket's lowest latency, short: "0us", "512us", "16ms", "2s" (µs with UTF-8). */
void heat_format_us(uint64_t us, bool utf8, char *buf, size_t len);
/* The outliers' row: "≥16ms", "≥8.2ms", "≥512µs" (">" and "us" without UTF-8), at most
 * 6 columns. */
void heat_format_over(uint64_t us, bool utf8, char *buf, size_t len);

#endif
