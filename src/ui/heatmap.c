/* heatmap.c - shading the latency heat map (heatmap.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "heatmap.h"

#define EMPTY_LO 4    /* 16 µs */
#define EMPTY_HI 14   /* 16 ms */

static uint64_t cell_sum(const struct heat_grid *g, int col, int first, int last)
{
	uint64_t n = 0;
	for (int b = first; b <= last; b++)
		n += g->counts[(size_t)col * TRACE_LAT_BUCKETS + (size_t)b];
	return n;
}

void heat_range(const struct heat_grid *g, int rows, int *lo, int *hi, bool *outliers)
{
	uint64_t hist[TRACE_LAT_BUCKETS] = { 0 };
	for (int c = 0; c < g->width; c++)
		for (int b = 0; g->traced[c] && b < TRACE_LAT_BUCKETS; b++)
			hist[b] += g->counts[(size_t)c * TRACE_LAT_BUCKETS + (size_t)b];
	*lo = EMPTY_LO;
	*hi = EMPTY_HI;
	trace_heat_fit(hist, rows, lo, hi, outliers);
}

void heat_row_buckets(int r, int rows, int lo, int hi, bool outliers, int *first, int *last)
{
	if (outliers && rows > 1) {
		if (r == 0) {
			*first = hi + 1;
			*last = TRACE_LAT_BUCKETS - 1;
			return;
		}
		r--;
		rows--;
	}
	int nb = hi - lo + 1, from_bottom = rows - 1 - r;
	*first = lo + from_bottom * nb / rows;
	*last = lo + (from_bottom + 1) * nb / rows - 1;
	if (*last < *first)
		*last = *first;
}

int heat_level(uint64_t count, uint64_t max)
{
	if (!count)
		return 0;
	if (count >= max || max <= 1)
		return HEAT_LEVELS - 1;
	int l = 1 + (int)floor((HEAT_LEVELS - 2) * log((double)count) / log((double)max));
	return l < 1 ? 1 : l > HEAT_LEVELS - 1 ? HEAT_LEVELS - 1 : l;
}

uint64_t heat_render(const struct heat_grid *g, int rows, int lo, int hi, bool outliers,
		     struct graph_cell *cells)
{
	uint64_t max = 0;
	for (int r = 0; r < rows; r++) {
		int first, last;
		heat_row_buckets(r, rows, lo, hi, outliers, &first, &last);
		for (int c = 0; c < g->width; c++) {
			uint64_t n = g->traced[c] ? cell_sum(g, c, first, last) : 0;
			max = n > max ? n : max;
		}
	}
	for (int r = 0; r < rows; r++) {
		int first, last;
		heat_row_buckets(r, rows, lo, hi, outliers, &first, &last);
		for (int c = 0; c < g->width; c++) {
			struct graph_cell *cell = &cells[(size_t)r * (size_t)g->width + (size_t)c];
			memset(cell->glyph, 0, sizeof cell->glyph);
			int level = g->traced[c] ? heat_level(cell_sum(g, c, first, last), max) : 0;
			if (level)   /* blank stays "": a mark's line shows through it */
				cell->glyph[0] = HEAT_RAMP[level];
		}
	}
	return max;
}

int heat_cell_level(const struct graph_cell *c)
{
	const char *at = c->glyph[0] ? strchr(HEAT_RAMP, c->glyph[0]) : NULL;
	return at ? (int)(at - HEAT_RAMP) : 0;
}

void heat_format_us(uint64_t us, bool utf8, char *buf, size_t len)
{
	if (us < 1000)
		snprintf(buf, len, "%llu%s", (unsigned long long)us, utf8 ? "µs" : "us");
	else if (us < 1000000)
		snprintf(buf, len, "%.3gms", (double)us / 1e3);
	else if (us < 1000000000)
		snprintf(buf, len, "%.3gs", (double)us / 1e6);
	else
		snprintf(buf, len, "%.0fs", (double)us / 1e6);   /* the last bucket: "2147s" */
}

void heat_format_over(uint64_t us, bool utf8, char *buf, size_t len)
{
	const char *ge = utf8 ? "≥" : ">";
	double v = (double)us;
	if (us < 1000)
		snprintf(buf, len, "%s%llu%s", ge, (unsigned long long)us, utf8 ? "µs" : "us");
	else if (us < 1000000)
		snprintf(buf, len, v < 1e4 ? "%s%.1fms" : "%s%.0fms", ge, v / 1e3);
	else
		snprintf(buf, len, v < 1e7 ? "%s%.1fs" : "%s%.0fs", ge, v / 1e6);
}
