/* trace.c - one interval of the block-layer view: ownership and the figures derived
 * from its histograms (include/trace.h). */
#include <stdlib.h>
#include <string.h>

#include "trace.h"

void trace_sample_free(struct trace_sample *t)
{
	free(t->devices);
	t->devices = NULL;
	t->ndevices = 0;
}

int trace_sample_dup(struct trace_sample **dst, const struct trace_sample *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	struct trace_sample *t = calloc(1, sizeof *t);
	if (!t)
		return -1;
	if (src->ndevices) {
		t->devices = malloc(src->ndevices * sizeof *t->devices);
		if (!t->devices) {
			free(t);
			return -1;
		}
		memcpy(t->devices, src->devices, src->ndevices * sizeof *t->devices);
		t->ndevices = src->ndevices;
	}
	*dst = t;
	return 0;
}

static int compare_dev(unsigned major, unsigned minor, const struct trace_device *d)
{
	if (major != d->major)
		return major < d->major ? -1 : 1;
	if (minor != d->minor)
		return minor < d->minor ? -1 : 1;
	return 0;
}

/* Where major:minor is or would go. */
static size_t position(const struct trace_sample *t, unsigned major, unsigned minor)
{
	size_t lo = 0, hi = t->ndevices;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (compare_dev(major, minor, &t->devices[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct trace_device *trace_find(const struct trace_sample *t, unsigned major,
				      unsigned minor)
{
	if (!t)
		return NULL;
	size_t i = position(t, major, minor);
	return i < t->ndevices && compare_dev(major, minor, &t->devices[i]) == 0 ?
		       &t->devices[i] : NULL;
}

struct trace_device *trace_get(struct trace_sample *t, unsigned major, unsigned minor)
{
	size_t i = position(t, major, minor);
	if (i < t->ndevices && compare_dev(major, minor, &t->devices[i]) == 0)
		return &t->devices[i];
	struct trace_device *grown = realloc(t->devices, (t->ndevices + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	t->devices = grown;
	memmove(&grown[i + 1], &grown[i], (t->ndevices - i) * sizeof *grown);
	t->ndevices++;
	memset(&grown[i], 0, sizeof grown[i]);
	grown[i].major = major;
	grown[i].minor = minor;
	return &grown[i];
}

uint64_t trace_bucket_low(size_t i)
{
	return i == 0 ? 0 : (uint64_t)1 << i;
}

uint64_t trace_hist_total(const uint64_t *hist, size_t n)
{
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += hist[i];
	return total;
}

double trace_quantile(const uint64_t *hist, size_t n, double q)
{
	uint64_t total = trace_hist_total(hist, n);
	if (total == 0)
		return -1;
	if (q >= 1) {
		size_t top = n;
		while (top > 0 && hist[top - 1] == 0)
			top--;
		return (double)((uint64_t)1 << top);
	}
	double want = q * (double)total, seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (hist[i] == 0 || seen + (double)hist[i] < want) {
			seen += (double)hist[i];
			continue;
		}
		double lo = (double)trace_bucket_low(i), hi = (double)((uint64_t)1 << (i + 1));
		return lo + (hi - lo) * (want - seen) / (double)hist[i];
	}
	return (double)((uint64_t)1 << n);
}

void trace_heat_fit(const uint64_t *hist, int rows, int *lo, int *hi, bool *outliers)
{
	const int n = TRACE_LAT_BUCKETS;
	int want = rows < n ? rows : n, l = 0, top = n - 1, h;
	uint64_t total = trace_hist_total(hist, (size_t)n), seen = 0;
	*outliers = false;
	if (total) {
		while (!hist[l])
			l++;
		while (!hist[top])
			top--;
		for (h = l; h < top; h++) {
			seen += hist[h];
			if (seen * 100 >= total * 99)
				break;
		}
		/* slower buckets of their own while a row is left for what is above them */
		while (h < top && h - l + 2 < want)
			h++;
		if ((h + 1 == top && h - l + 2 <= want) || want < 2)
			h = top;   /* the last one gets the row the outliers would have had */
		*outliers = h < top;
		*lo = l;
		*hi = h;
	}
	if (*outliers)
		want--;
	while (*hi - *lo + 1 < want && *hi + 1 < n && !*outliers)
		++*hi;
	while (*hi - *lo + 1 < want && *lo > 0)
		--*lo;
}

double trace_seq_pct(const struct trace_device *d)
{
	if (!d || d->issued == 0)
		return -1;
	return 100.0 * (double)d->sequential / (double)d->issued;
}
