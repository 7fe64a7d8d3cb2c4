/* probe_samples.c - the probe's per-sample data (probe.h): every value kept. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "jsonw.h"
#include "probe.h"

void probe_samples_clear(struct probe_samples *s)
{
	s->nread = s->nexec = 0;
	s->errors = s->stalled_us = s->reading_us = 0;
}

void probe_samples_free(struct probe_samples *s)
{
	free(s->read_us);
	free(s->exec_us);
	memset(s, 0, sizeof *s);
}

static int push(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	if (grow_array(v, cap, *n + 1, sizeof **v, 16, NULL) < 0)
		return -1;
	(*v)[(*n)++] = x;
	return 0;
}

int probe_samples_add_read(struct probe_samples *s, uint64_t us)
{
	return push(&s->read_us, &s->nread, &s->read_cap, us);
}

int probe_samples_add_exec(struct probe_samples *s, uint64_t us)
{
	return push(&s->exec_us, &s->nexec, &s->exec_cap, us);
}

static int copy_array(uint64_t **dst, size_t *dn, size_t *dcap, const uint64_t *src, size_t n)
{
	if (n > *dcap) {
		uint64_t *v = realloc(*dst, n * sizeof *v);
		if (!v)
			return -1;
		*dst = v;
		*dcap = n;
	}
	if (n)
		memcpy(*dst, src, n * sizeof *src);
	*dn = n;
	return 0;
}

int probe_samples_copy(struct probe_samples *dst, const struct probe_samples *src)
{
	if (copy_array(&dst->read_us, &dst->nread, &dst->read_cap, src->read_us, src->nread) < 0 ||
	    copy_array(&dst->exec_us, &dst->nexec, &dst->exec_cap, src->exec_us, src->nexec) < 0)
		return -1;
	dst->errors = src->errors;
	dst->stalled_us = src->stalled_us;
	dst->reading_us = src->reading_us;
	return 0;
}

bool probe_samples_equal(const struct probe_samples *a, const struct probe_samples *b)
{
	return a->nread == b->nread && a->nexec == b->nexec && a->errors == b->errors &&
	       a->stalled_us == b->stalled_us && a->reading_us == b->reading_us &&
	       (!a->nread || memcmp(a->read_us, b->read_us, a->nread * sizeof *a->read_us) == 0) &&
	       (!a->nexec || memcmp(a->exec_us, b->exec_us, a->nexec * sizeof *a->exec_us) == 0);
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

uint64_t probe_percentile(const uint64_t *v, size_t n, double p)
{
	if (n == 0)
		return 0;
	uint64_t *sorted = malloc(n * sizeof *sorted);
	if (!sorted)
		return 0;
	memcpy(sorted, v, n * sizeof *v);
	qsort(sorted, n, sizeof *sorted, compare_u64);
	/* nearest rank: the smallest value with at least p% of the values at or below it */
	size_t rank = (size_t)((p / 100.0) * (double)n + 0.999999999);
	uint64_t r = sorted[rank == 0 ? 0 : rank > n ? n - 1 : rank - 1];
	free(sorted);
	return r;
}

static void put_array(struct jsonw *w, const char *key, const uint64_t *v, size_t n)
{
	jsonw_key(w, key);
	jsonw_array_begin(w);
	for (size_t i = 0; i < n; i++)
		jsonw_uint(w, v[i]);
	jsonw_array_end(w);
}

void probe_samples_put_json(struct jsonw *w, const struct probe_samples *s)
{
	put_array(w, "read_us", s->read_us, s->nread);
	put_array(w, "exec_us", s->exec_us, s->nexec);
	if (s->errors) {
		jsonw_key(w, "errors");
		jsonw_uint(w, s->errors);
	}
	if (s->stalled_us) {
		jsonw_key(w, "stalled_us");
		jsonw_uint(w, s->stalled_us);
	}
	if (s->reading_us) {
		jsonw_key(w, "reading_us");
		jsonw_uint(w, s->reading_us);
	}
}
