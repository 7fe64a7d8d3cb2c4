/* trace_json.c - the histograms of the block-layer view as JSON, the one shape that
 * batch JSON and the session log's `trace` record share (docs/metrics.md). */
#include <inttypes.h>
#include <stdio.h>

#include "trace.h"
#include "trace_json.h"

const char *const trace_dir_names[TRACE_DIRS] = { "read", "write", "flush" };

/* {"BUCKET_LOW": count, ...}: the non-empty buckets only. */
static void hist_object(struct jsonw *w, const uint64_t *hist, size_t n)
{
	jsonw_object_begin(w);
	for (size_t i = 0; i < n; i++) {
		if (!hist[i])
			continue;
		char key[24];
		snprintf(key, sizeof key, "%" PRIu64, trace_bucket_low(i));
		jsonw_key(w, key);
		jsonw_uint(w, hist[i]);
	}
	jsonw_object_end(w);
}

static void per_dir(struct jsonw *w, const char *key, const uint64_t *hists, size_t ndirs,
		    size_t nbuckets)
{
	jsonw_key(w, key);
	jsonw_object_begin(w);
	for (size_t d = 0; d < ndirs; d++) {
		jsonw_key(w, trace_dir_names[d]);
		hist_object(w, hists + d * nbuckets, nbuckets);
	}
	jsonw_object_end(w);
}

void trace_json_histograms(struct jsonw *w, const struct trace_device *d)
{
	per_dir(w, "lat_us", &d->d2c[0][0], TRACE_DIRS, TRACE_LAT_BUCKETS);
	per_dir(w, "q2c_us", &d->q2c[0][0], TRACE_DIRS, TRACE_LAT_BUCKETS);
	per_dir(w, "size_kb", &d->size[0][0], TRACE_SIZE_DIRS, TRACE_SIZE_BUCKETS);
}

void trace_json_top(struct jsonw *w, const struct trace_device *d, bool bytes_as_kb)
{
	jsonw_key(w, "top");
	jsonw_array_begin(w);
	for (size_t i = 0; i < d->ntop; i++) {
		const struct trace_top *t = &d->top[i];
		jsonw_object_begin(w);
		jsonw_key(w, "pid");
		jsonw_uint(w, t->pid);
		jsonw_key(w, "comm");
		jsonw_string(w, t->comm);
		jsonw_key(w, "ios");
		jsonw_uint(w, t->ios);
		if (bytes_as_kb) {
			jsonw_key(w, "kB");
			jsonw_fixed(w, (double)t->bytes / 1024.0, 3);
		} else {
			jsonw_key(w, "bytes");
			jsonw_uint(w, t->bytes);
		}
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}
