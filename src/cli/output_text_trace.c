/* output_text_trace.c - a device's trace line in batch text (--trace): the figures of its
 * "trace" object in batch JSON (output_json_trace.c), one line under the device table:
 *   trace loop0: r p50 412 p99 2950 us, w p50 60 p99 900 us, 12.0 seeks/s, 87% seq
 * A figure with nothing to count (no reads, no interval) is "-". */
#include <stdio.h>

#include "output.h"
#include "text.h"
#include "trace.h"

static void put_figure(char *buf, size_t len, double v, const char *fmt)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

static void print_trace_device(FILE *out, const struct trace_device *d, const char *name,
			       double interval)
{
	char q[4][32], seeks[32], seq[32];
	const uint64_t *hist[4] = { d->d2c[TRACE_READ], d->d2c[TRACE_READ], d->d2c[TRACE_WRITE],
				    d->d2c[TRACE_WRITE] };
	for (size_t i = 0; i < 4; i++)
		put_figure(q[i], sizeof q[i], trace_quantile(hist[i], TRACE_LAT_BUCKETS,
							     i % 2 ? 0.99 : 0.50), "%.0f");
	put_figure(seeks, sizeof seeks, interval > 0 ? (double)d->seeks / interval : -1, "%.1f");
	put_figure(seq, sizeof seq, trace_seq_pct(d), "%.0f%%");
	text_printf(out, "trace %s: r p50 %s p99 %s us, w p50 %s p99 %s us, %s seeks/s, %s seq\n",
		    name, q[0], q[1], q[2], q[3], seeks, seq);
}

void output_text_trace(FILE *out, const struct interval_view *v)
{
	if (!v->snap->trace)
		return;
	static const struct trace_device none;
	for (size_t i = 0; i < v->rates->ndevices && i < v->snap->ndevices; i++) {
		const struct device *dev = &v->snap->devices[i];
		if (!v->shown[i] || dev->is_partition)
			continue;
		const struct trace_device *d = trace_find(v->snap->trace, dev->major, dev->minor);
		print_trace_device(out, d ? d : &none, v->rates->devices[i].name,
				   v->rates->interval);
	}
}
