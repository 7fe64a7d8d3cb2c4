/* report_heat.c - laying out the plot's latency heat map (report_heat.h). */
#include <math.h>
#include <stdlib.h>

#include "grow.h"
#include "report_heat.h"

#define EMPTY_LO 4    /* 16 µs */

int report_heat_add(struct heat_series *s, double t0, double t1, const struct trace_device *d)
{
	if (grow_array(&s->cols, &s->cap, s->n + 1, sizeof *s->cols, 64, NULL) < 0)
		return -1;
	struct heat_column *c = &s->cols[s->n++];
	c->t0 = t0;
	c->t1 = t1;
	for (size_t b = 0; b < TRACE_LAT_BUCKETS; b++)
		c->hist[b] = d ? d->d2c[TRACE_READ][b] + d->d2c[TRACE_WRITE][b] : 0;
	return 0;
}

void report_heat_free(struct heat_series *s)
{
	free(s->cols);
	s->cols = NULL;
	s->n = s->cap = 0;
}

/* lo..hi fitted to what the panel counted (trace_heat_fit()); with outliers, hi is the
 * outliers' row: the buckets from hi up. */
static void range(const struct heat_series *s, int *lo, int *hi, bool *outliers)
{
	uint64_t hist[TRACE_LAT_BUCKETS] = { 0 };
	for (size_t i = 0; i < s->n; i++)
		for (int b = 0; b < TRACE_LAT_BUCKETS; b++)
			hist[b] += s->cols[i].hist[b];
	*lo = *hi = EMPTY_LO;
	trace_heat_fit(hist, REPORT_HEAT_MIN_BUCKETS, lo, hi, outliers);
	if (*outliers)
		++*hi;
}

/* What column c counted in row k (the outliers' row: every bucket from k up). */
static uint64_t row_count(const struct heat_column *c, int k, int hi, bool outliers)
{
	uint64_t n = c->hist[k];
	for (int b = k + 1; outliers && k == hi && b < TRACE_LAT_BUCKETS; b++)
		n += c->hist[b];
	return n;
}

double report_heat_row_bottom(const struct heat_box *b, int lo, int hi, int bucket)
{
	double row = (b->bottom - b->top) / (double)(hi - lo + 1);
	return b->bottom - row * (double)(bucket - lo);
}

static double shade(uint64_t count, uint64_t max)
{
	if (max <= 1 || count >= max)
		return 1;
	return log((double)count) / log((double)max);
}

static double px(const struct heat_box *b, double t)
{
	double span = b->span > 0 ? b->span : 1;
	double x = b->left + (b->right - b->left) * t / span;
	return x < b->left ? b->left : x > b->right ? b->right : x;
}

long report_heat_layout(const struct heat_series *s, const struct heat_box *b, int *lo, int *hi,
			bool *outliers, struct heat_rect **out)
{
	uint64_t max = 0;
	range(s, lo, hi, outliers);
	*out = NULL;
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++)
		for (int k = *lo; k <= *hi; k++) {
			uint64_t c = row_count(&s->cols[i], k, *hi, *outliers);
			n += c != 0;
			max = c > max ? c : max;
		}
	if (!n)
		return 0;
	struct heat_rect *r = malloc(n * sizeof *r);
	if (!r)
		return -1;
	size_t at = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct heat_column *c = &s->cols[i];
		for (int k = *lo; k <= *hi; k++) {
			uint64_t count = row_count(c, k, *hi, *outliers);
			if (!count)
				continue;
			r[at++] = (struct heat_rect){
				px(b, c->t0), report_heat_row_bottom(b, *lo, *hi, k + 1),
				px(b, c->t1), report_heat_row_bottom(b, *lo, *hi, k),
				shade(count, max), count };
		}
	}
	*out = r;
	return (long)at;
}
