/* output_prom_latency.c - the probe's and the tracer's latencies as Prometheus
 * histograms (docs/fleet.md): accumulated since start, so that the buckets, _sum and
 * _count are counters (they never go down) and histogram_quantile(rate(...)) works. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "probe.h"
#include "prom_writer.h"

/* ---- histograms ---- */

void prom_hist_observe(struct prom_hist *h, const double *bounds, size_t nbounds, double v)
{
	if (nbounds >= PROM_HIST_BUCKETS)
		nbounds = PROM_HIST_BUCKETS - 1;
	size_t i = 0;
	while (i < nbounds && !(v <= bounds[i]))
		i++;
	h->bucket[i]++;
	h->count++;
	h->sum += v;
}

size_t prom_log2_bounds(size_t n, double *out)
{
	if (n > PROM_HIST_BUCKETS)
		n = PROM_HIST_BUCKETS;
	for (size_t i = 0; i + 1 < n; i++)
		out[i] = (double)trace_bucket_low(i + 1) * 1e-6;   /* where the next one starts */
	return n ? n - 1 : 0;
}

void prom_hist_add_log2(struct prom_hist *h, const uint64_t *counts, size_t n)
{
	if (n > PROM_HIST_BUCKETS)
		n = PROM_HIST_BUCKETS;
	for (size_t i = 0; i < n; i++) {
		/* bucket 0 is [0, 2) us: its middle is 1; the last one is open above */
		double low = (double)trace_bucket_low(i);
		double us = i == 0 ? 1 : i + 1 == n ? low : 1.5 * low;
		h->bucket[i] += counts[i];
		h->count += counts[i];
		h->sum += (double)counts[i] * us * 1e-6;
	}
}

uint64_t prom_hist_cumulative(const struct prom_hist *h, size_t i)
{
	uint64_t n = 0;
	for (size_t k = 0; k <= i && k < PROM_HIST_BUCKETS; k++)
		n += h->bucket[k];
	return n;
}

/* ---- the probe ---- */

/* From a page-cache hit on a fast SSD to a stall a user gives up on. */
const double prom_probe_bounds[] = { 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
				     0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10 };
const size_t prom_probe_nbounds = sizeof prom_probe_bounds / sizeof prom_probe_bounds[0];

static void probe_update(struct prom_probe *p, const struct probe_samples *s)
{
	if (!s)
		return;
	const double *b = prom_probe_bounds;
	size_t nb = prom_probe_nbounds;
	p->seen = true;
	for (size_t i = 0; i < s->nread; i++)
		prom_hist_observe(&p->read, b, nb, (double)s->read_us[i] * 1e-6);
	for (size_t i = 0; i < s->nexec; i++)
		prom_hist_observe(&p->exec, b, nb, (double)s->exec_us[i] * 1e-6);
	p->errors += s->errors;
}

void prom_emit_probe_read(struct prom_ctx *c)
{
	const struct prom_probe *p = &c->x->probe;
	if (p->seen)
		prom_histogram(c, NULL, 0, &p->read, prom_probe_bounds, prom_probe_nbounds);
}

/* Only once a start was timed: without --probe-exec there are none. */
void prom_emit_probe_exec(struct prom_ctx *c)
{
	const struct prom_probe *p = &c->x->probe;
	if (p->exec.count)
		prom_histogram(c, NULL, 0, &p->exec, prom_probe_bounds, prom_probe_nbounds);
}

void prom_emit_probe_errors(struct prom_ctx *c)
{
	if (c->x->probe.seen)
		prom_sample(c, "", NULL, 0, (double)c->x->probe.errors);
}

void prom_emit_probe_stalled(struct prom_ctx *c)
{
	const struct probe_samples *s = c->v->snap->probe;
	if (c->x->probe.seen)
		prom_sample(c, "", NULL, 0, s ? (double)s->stalled_us * 1e-6 : 0);
}

/* ---- the tracer ---- */

static struct prom_trace_disk *trace_disk(struct prom_exporter *x, const struct device *d)
{
	for (size_t i = 0; i < x->ntrace; i++) {
		struct prom_trace_disk *t = &x->trace[i];
		if (t->major == d->major && t->minor == d->minor && strcmp(t->device, d->name) == 0)
			return t;
	}
	if (x->ntrace == PROM_DEVICES_MAX)
		return NULL;
	if (grow_array(&x->trace, &x->trace_cap, x->ntrace + 1, sizeof *x->trace, 8, NULL) < 0)
		return NULL;
	struct prom_trace_disk *t = &x->trace[x->ntrace++];
	memset(t, 0, sizeof *t);
	snprintf(t->device, sizeof t->device, "%s", d->name);
	t->major = d->major;
	t->minor = d->minor;
	return t;
}

/* Every shown whole disk gets its histograms (at 0) as soon as the tracer runs, so
 * that rate() sees its first requests. */
static int trace_update(struct prom_exporter *x, const struct interval_view *v)
{
	const struct trace_sample *ts = v->snap->trace;
	for (size_t i = 0; ts && i < v->snap->ndevices; i++) {
		const struct device *d = &v->snap->devices[i];
		if (!v->shown[i] || d->is_partition)
			continue;
		struct prom_trace_disk *t = trace_disk(x, d);
		if (!t) {
			if (x->ntrace == PROM_DEVICES_MAX)
				continue;
			return -1;
		}
		const struct trace_device *td = trace_find(ts, d->major, d->minor);
		for (int dir = 0; td && dir < TRACE_DIRS; dir++) {
			prom_hist_add_log2(&t->d2c[dir], td->d2c[dir], TRACE_LAT_BUCKETS);
			prom_hist_add_log2(&t->q2c[dir], td->q2c[dir], TRACE_LAT_BUCKETS);
		}
	}
	return 0;
}

static const char *const dir_names[TRACE_DIRS] = { "read", "write", "flush" };

static void emit_trace(struct prom_ctx *c, bool q2c)
{
	double bounds[PROM_HIST_BUCKETS];
	size_t nbounds = prom_log2_bounds(TRACE_LAT_BUCKETS, bounds);
	for (size_t i = 0; i < c->x->ntrace; i++) {
		const struct prom_trace_disk *t = &c->x->trace[i];
		if (!prom_disk_shown(c, t->device))
			continue;
		for (int dir = 0; dir < TRACE_DIRS; dir++) {
			struct label l[] = { { "device", t->device },
					     { "direction", dir_names[dir] } };
			prom_histogram(c, l, 2, q2c ? &t->q2c[dir] : &t->d2c[dir], bounds, nbounds);
		}
	}
}

void prom_emit_trace_d2c(struct prom_ctx *c)
{
	emit_trace(c, false);
}

void prom_emit_trace_q2c(struct prom_ctx *c)
{
	emit_trace(c, true);
}

int prom_latency_update(struct prom_exporter *x, const struct interval_view *v)
{
	probe_update(&x->probe, v->snap->probe);
	return trace_update(x, v);
}

void prom_latency_free(struct prom_exporter *x)
{
	free(x->trace);
	x->trace = NULL;
	x->ntrace = x->trace_cap = 0;
}
