/* rates.c - iostat -x and vmstat figures from two snapshots.
 *
 * Definitions follow sysstat 12.6 (iostat.c write_ext_stat, common.c
 * compute_ext_disk_stats) and procps-ng 4.0.2 vmstat; docs/metrics.md spells
 * them out.  The one deliberate difference: the interval is the measured elapsed
 * time between the two snapshots (CLOCK_MONOTONIC), not /proc/uptime's.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"
#include "rates.h"

#define V(field) { #field, offsetof(struct vm_rates, field) }
const struct vm_metric_def vm_metrics[] = {
	V(r), V(b), V(swpd), V(free), V(buff), V(cache), V(si), V(so), V(bi), V(bo),
	V(in), V(cs), V(us), V(sy), V(id), V(wa), V(st),
};
const size_t vm_metrics_count = sizeof vm_metrics / sizeof vm_metrics[0];

void rates_init(struct rates *r)
{
	memset(r, 0, sizeof *r);
}

void rates_free(struct rates *r)
{
	free(r->devices);
	rates_init(r);
}

/* The kernel prints the *_ticks fields as unsigned int and, on 32-bit kernels,
 * the I/O counts as unsigned long: those wrap at 2^32.  A backwards step from a
 * value that fits in 32 bits by less than half the range is a wrap; anything else
 * is a reset (device re-created, counters cleared). */
bool counter_delta(uint64_t prev, uint64_t cur, uint64_t *delta)
{
	if (cur >= prev) {
		*delta = cur - prev;
		return true;
	}
	if (prev <= UINT32_MAX) {
		uint64_t wrapped = (UINT64_C(1) << 32) - prev + cur;
		if (wrapped < (UINT64_C(1) << 31)) {
			*delta = wrapped;
			return true;
		}
	}
	return false;
}

/* The deltas of one device's counters over the interval; false on reset. */
struct counter_deltas {
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t io_ticks, time_in_queue;
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks;
	uint64_t fl_ios, fl_ticks;
};

/* Only the fields both layouts have: flush fields that appear between two
 * snapshots (18 -> 20) have no previous value, and are missing, not reset. */
static bool deltas_compute(const struct disk_counters *p, const struct disk_counters *c,
			   int layout, struct counter_deltas *d)
{
	bool ok = true;
	memset(d, 0, sizeof *d);
#define D(f) ok = ok && counter_delta(p->f, c->f, &d->f)
	D(rd_ios); D(rd_merges); D(rd_sectors); D(rd_ticks);
	D(wr_ios); D(wr_merges); D(wr_sectors); D(wr_ticks);
	D(io_ticks); D(time_in_queue);
	if (layout >= DISKSTATS_LAYOUT_DISCARD) {
		D(dc_ios); D(dc_merges); D(dc_sectors); D(dc_ticks);
	}
	if (layout >= DISKSTATS_LAYOUT_FLUSH) {
		D(fl_ios); D(fl_ticks);
	}
#undef D
	return ok;
}

static int common_layout(const struct disk_counters *p, const struct disk_counters *c)
{
	return p->nfields < c->nfields ? p->nfields : c->nfields;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : 0.0;
}

/* One operation type's six iostat -x columns. */
static void op_rates(double itv, uint64_t ios, uint64_t merges, uint64_t sectors, uint64_t ticks,
		     double *per_s, double *kb_s, double *rqm_s, double *rqm_pct, double *await,
		     double *areq_sz)
{
	*per_s = (double)ios / itv;
	*kb_s = (double)sectors / 2.0 / itv;
	*rqm_s = (double)merges / itv;
	*rqm_pct = ratio((double)merges * 100.0, (double)(merges + ios));
	*await = ratio((double)ticks, (double)ios);
	*areq_sz = ratio((double)sectors / 2.0, (double)ios);
}

static void device_rates_fill(struct device_rates *r, const struct counter_deltas *d, double itv)
{
	op_rates(itv, d->rd_ios, d->rd_merges, d->rd_sectors, d->rd_ticks,
		 &r->r_s, &r->rkB_s, &r->rrqm_s, &r->rrqm_pct, &r->r_await, &r->rareq_sz);
	op_rates(itv, d->wr_ios, d->wr_merges, d->wr_sectors, d->wr_ticks,
		 &r->w_s, &r->wkB_s, &r->wrqm_s, &r->wrqm_pct, &r->w_await, &r->wareq_sz);
	op_rates(itv, d->dc_ios, d->dc_merges, d->dc_sectors, d->dc_ticks,
		 &r->d_s, &r->dkB_s, &r->drqm_s, &r->drqm_pct, &r->d_await, &r->dareq_sz);
	r->f_s = (double)d->fl_ios / itv;
	r->f_await = ratio((double)d->fl_ticks, (double)d->fl_ios);
	r->aqu_sz = (double)d->time_in_queue / itv / 1000.0;
	/* A device is not busy longer than the interval: more than 100 % only
	 * comes from io_ticks' granularity (a jiffy) over a very short interval. */
	r->util = (double)d->io_ticks / itv / 10.0;
	if (r->util > 100.0)
		r->util = 100.0;
}

/* prev's device of the same name: at the same index when the device set did not
 * change (the common case, O(1)), else by search. */
static const struct device *match_device(const struct snapshot *prev, size_t index, const struct device *cur)
{
	if (index < prev->ndevices && strcmp(prev->devices[index].name, cur->name) == 0)
		return &prev->devices[index];
	return snapshot_find_device(prev, cur->name);
}

void counters_walk_init(struct counters_walk *w)
{
	w->max_prev = 0;
	w->any = false;
}

/* The kernel appends a new disk to its list: a device now listed after one that
 * came after it in prev was deleted and added again. */
static bool moved_back(struct counters_walk *w, size_t prev_index)
{
	bool moved = w->any && prev_index < w->max_prev;
	if (!w->any || prev_index > w->max_prev)
		w->max_prev = prev_index;
	w->any = true;
	return moved;
}

enum counters_break counters_walk_next(struct counters_walk *w, const struct snapshot *prev,
				       size_t index, const struct device *cur,
				       const struct device **prevd)
{
	const struct device *p = match_device(prev, index, cur);
	*prevd = p;
	if (!p)
		return COUNTERS_NEW;
	if (moved_back(w, (size_t)(p - prev->devices)) || p->instance != cur->instance)
		return COUNTERS_RECREATED;
	struct counter_deltas d;
	int layout = common_layout(&p->counters, &cur->counters);
	if (!deltas_compute(&p->counters, &cur->counters, layout, &d))
		return COUNTERS_WENT_BACK;
	return COUNTERS_CONTINUE;
}

const char *counters_break_reason(enum counters_break b)
{
	switch (b) {
	case COUNTERS_WENT_BACK:
		return "counters went back";
	case COUNTERS_RECREATED:
		return "re-created";
	default:
		return "";
	}
}

static void device_rates_compute(struct device_rates *r, const struct device *prevd,
				 enum counters_break why, const struct device *cur, double itv)
{
	memset(r, 0, sizeof *r);
	memcpy(r->name, cur->name, sizeof r->name);
	memcpy(r->scheduler, cur->settings.scheduler, sizeof r->scheduler);
	r->is_partition = cur->is_partition;
	r->in_flight = cur->counters.in_flight;
	r->why = why;
	int layout = prevd ? common_layout(&prevd->counters, &cur->counters) : cur->counters.nfields;
	r->have_discard = layout >= DISKSTATS_LAYOUT_DISCARD;
	r->have_flush = layout >= DISKSTATS_LAYOUT_FLUSH;
	if (why != COUNTERS_CONTINUE || itv <= 0)
		return;
	struct counter_deltas d;
	if (!deltas_compute(&prevd->counters, &cur->counters, layout, &d))
		return;
	device_rates_fill(r, &d, itv);
	r->valid = true;
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

static uint64_t delta0(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;   /* idle can run backwards for a moment */
}

static void vm_rates_compute(struct vm_rates *v, const struct vm_counters *p,
			     const struct vm_counters *c, double itv)
{
	memset(v, 0, sizeof *v);
	v->r = (double)c->procs_running;
	v->b = (double)c->procs_blocked;
	v->swpd = (double)(c->swap_total >= c->swap_free ? c->swap_total - c->swap_free : 0);
	v->free = (double)c->mem_free;
	v->buff = (double)c->buffers;
	v->cache = (double)(c->cached + c->sreclaimable);
	v->dirty = (double)c->dirty;
	v->writeback = (double)c->writeback;
	v->have_psi = c->have_psi;
	if (c->have_psi) {
		v->psi_some_avg10 = c->psi_some_avg10;
		v->psi_full_avg10 = c->psi_full_avg10;
	}
	if (itv <= 0 || !c->have_stat || !p->have_stat)
		return;
	double kb_per_page = (double)sysconf(_SC_PAGESIZE) / 1024.0;
	v->si = (double)delta0(p->pswpin, c->pswpin) * kb_per_page / itv;
	v->so = (double)delta0(p->pswpout, c->pswpout) * kb_per_page / itv;
	v->bi = (double)delta0(p->pgpgin, c->pgpgin) / itv;
	v->bo = (double)delta0(p->pgpgout, c->pgpgout) / itv;
	v->in = (double)delta0(p->intr, c->intr) / itv;
	v->cs = (double)delta0(p->ctxt, c->ctxt) / itv;
	uint64_t use = delta0(p->cpu_user + p->cpu_nice, c->cpu_user + c->cpu_nice);
	uint64_t sys = delta0(p->cpu_system + p->cpu_irq + p->cpu_softirq,
			      c->cpu_system + c->cpu_irq + c->cpu_softirq);
	uint64_t idl = delta0(p->cpu_idle, c->cpu_idle);
	uint64_t iow = delta0(p->cpu_iowait, c->cpu_iowait);
	uint64_t sto = delta0(p->cpu_steal, c->cpu_steal);
	uint64_t div = use + sys + idl + iow + sto;
	if (!div) {
		div = 1;
		idl = 1;
	}
	v->us = pct(use, div);
	v->sy = pct(sys, div);
	v->id = pct(idl, div);
	v->wa = pct(iow, div);
	v->st = pct(sto, div);
	if (c->have_psi && p->have_psi) {
		v->psi_some_us = (double)delta0(p->psi_some_total, c->psi_some_total);
		v->psi_full_us = (double)delta0(p->psi_full_total, c->psi_full_total);
	}
	v->valid = true;
}

static void probe_rates_compute(struct vm_rates *v, const struct probe_samples *p)
{
	v->probe_p50_ms = v->probe_max_ms = NAN;
	if (!p || (!p->nread && !p->stalled_us))
		return;
	double max = p->nread ? probe_percentile(p->read_us, p->nread, 100) / 1000.0 : 0;
	v->probe_max_ms = fmax(max, p->stalled_us / 1000.0);
	v->probe_p50_ms = p->nread ? probe_percentile(p->read_us, p->nread, 50) / 1000.0
				   : v->probe_max_ms;
}

int rates_compute(struct rates *out, const struct snapshot *prev, const struct snapshot *cur)
{
	if (cur->ndevices > out->ndevices || !out->devices) {
		struct device_rates *v = realloc(out->devices, (cur->ndevices ? cur->ndevices : 1) * sizeof *v);
		if (!v)
			return -1;
		out->devices = v;
	}
	out->ndevices = cur->ndevices;
	out->interval = timespec_diff(&cur->mono, &prev->mono);
	out->wall = cur->wall;
	out->seq = cur->seq;
	struct counters_walk walk;
	counters_walk_init(&walk);
	for (size_t i = 0; i < cur->ndevices; i++) {
		const struct device *prevd;
		enum counters_break why = counters_walk_next(&walk, prev, i, &cur->devices[i], &prevd);
		device_rates_compute(&out->devices[i], prevd, why, &cur->devices[i], out->interval);
	}
	vm_rates_compute(&out->vm, &prev->vm, &cur->vm, out->interval);
	probe_rates_compute(&out->vm, cur->probe);
	return 0;
}
