/* output_json_trace.c - a device's "trace" object in batch JSON (--trace; the keys are
 * those of docs/metrics.md, "Tracing"). */
#include "output.h"
#include "trace.h"
#include "trace_json.h"

static void figure(struct jsonw *w, const char *key, bool present, double v)
{
	jsonw_key(w, key);
	if (present)
		jsonw_fixed(w, v, 3);
	else
		jsonw_null(w);
}

static void quantile(struct jsonw *w, const char *key, const uint64_t *hist, double q)
{
	double v = trace_quantile(hist, TRACE_LAT_BUCKETS, q);
	figure(w, key, v >= 0, v);
}

void output_json_trace(struct jsonw *w, const struct snapshot *snap, const struct device *dev,
		       double interval)
{
	if (!snap->trace || dev->is_partition)
		return;
	static const struct trace_device none;
	const struct trace_device *d = trace_find(snap->trace, dev->major, dev->minor);
	if (!d)
		d = &none;
	jsonw_key(w, "trace");
	jsonw_object_begin(w);
	trace_json_histograms(w, d);
	figure(w, "seeks/s", interval > 0, interval > 0 ? (double)d->seeks / interval : 0);
	double seq = trace_seq_pct(d);
	figure(w, "seq_pct", seq >= 0, seq);
	quantile(w, "r_p50_us", d->d2c[TRACE_READ], 0.50);
	quantile(w, "r_p99_us", d->d2c[TRACE_READ], 0.99);
	quantile(w, "w_p50_us", d->d2c[TRACE_WRITE], 0.50);
	quantile(w, "w_p99_us", d->d2c[TRACE_WRITE], 0.99);
	trace_json_top(w, d, true);
	jsonw_object_end(w);
}
