/* output_text.c - iostat -x and vmstat style text, 80 columns wide.
 *
 * iostat -x's 23 columns do not fit 80 columns side by side, so each device gets
 * one row per operation (r, w, d, f) holding that operation's six figures under
 * shared headings; aqu-sz, %util, in-flight and the scheduler sit at the right.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output.h"
#include "text.h"

void format_local_time(const struct timespec *wall, char *buf, size_t len, bool with_date)
{
	struct tm tm;
	time_t t = wall->tv_sec;
	localtime_r(&t, &tm);
	strftime(buf, len, with_date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
}

static void print_events(FILE *out, const struct event_list *events)
{
	char when[32], label[MOUNT_OPTS_MAX + 64];
	for (size_t i = 0; events && i < events->count; i++) {
		const struct event *ev = &events->items[i];
		format_local_time(&ev->wall, when, sizeof when, false);
		event_label(ev, label, sizeof label);
		text_printf(out, "---- %s %s %s%s%s ----\n", when, ev->object, label,
			ev->result[0] ? ": " : "", ev->result);
	}
}

static void print_op(FILE *out, const char *name, const char *op, double per_s, double kb_s,
		     double rqm_s, double rqm_pct, double await, double areq_sz, const char *tail)
{
	text_printf(out, "%-8s %1s %8.2f %9.2f %7.2f %6.2f %7.2f %7.2f %s\n", name, op, per_s, kb_s,
		rqm_s, rqm_pct, await, areq_sz, tail);
}

/* The d and f rows only when there were discards or flushes: a human reads this;
 * JSON and CSV carry every column every time. */
/* Never an empty column: "-" for a disk without a scheduler (bio-based: zram,
 * dm; a partition; a fixture without sys/). */
static const char *scheduler_or_dash(const struct device_rates *r)
{
	return r->scheduler[0] ? r->scheduler : "-";
}

static const char *no_figures_reason(const struct device_rates *r)
{
	switch (r->why) {
	case COUNTERS_NEW:
		return "new";
	case COUNTERS_WENT_BACK:
	case COUNTERS_RECREATED:
		return counters_break_reason(r->why);
	default:
		return "no interval";
	}
}

static void print_device(FILE *out, const struct device_rates *r)
{
	char tail[64];
	if (!r->valid) {
		text_printf(out, "%-8s   (no figures this interval: %s)  sched %s\n", r->name,
			    no_figures_reason(r), scheduler_or_dash(r));
		return;
	}
	snprintf(tail, sizeof tail, "%6.2f %6.2f", r->aqu_sz, r->util);
	print_op(out, r->name, "r", r->r_s, r->rkB_s, r->rrqm_s, r->rrqm_pct, r->r_await, r->rareq_sz, tail);
	snprintf(tail, sizeof tail, "%llu %s", (unsigned long long)r->in_flight, scheduler_or_dash(r));
	print_op(out, "", "w", r->w_s, r->wkB_s, r->wrqm_s, r->wrqm_pct, r->w_await, r->wareq_sz, tail);
	if (r->have_discard && (r->d_s > 0 || r->drqm_s > 0))
		print_op(out, "", "d", r->d_s, r->dkB_s, r->drqm_s, r->drqm_pct, r->d_await, r->dareq_sz, "");
	if (r->have_flush && r->f_s > 0)
		fprintf(out, "%-8s f %8.2f %9s %7s %6s %7.2f\n", "", r->f_s, "", "", "", r->f_await);
}

/* vmstat's columns, with memory in MiB (vmstat -S M) so that a machine with more than
 * a few GB still fits 80 columns, with room for one CPU column at 100. */
static void print_vm(FILE *out, const struct vm_rates *v)
{
	fputs("procs ------memory (MiB)------ ---swap-- -----io---- -system-- -------cpu------\n"
	      " r  b   swpd   free  buff  cache   si   so    bi    bo   in   cs us sy id wa st\n", out);
	if (!v->valid) {
		fputs("(no system figures this interval)\n", out);
		return;
	}
	fprintf(out, "%2.0f %2.0f %6.0f %6.0f %5.0f %6.0f %4.0f %4.0f %5.0f %5.0f %4.0f %4.0f %2.0f %2.0f %2.0f %2.0f %2.0f\n",
		v->r, v->b, v->swpd / 1024, v->free / 1024, v->buff / 1024, v->cache / 1024, v->si, v->so,
		v->bi, v->bo, v->in, v->cs, v->us, v->sy, v->id, v->wa, v->st);
	fprintf(out, "dirty %.0f kB, writeback %.0f kB; ", v->dirty, v->writeback);
	if (v->have_psi)
		fprintf(out, "psi io some %.2f%% full %.2f%% (%.0f/%.0f ms)\n",
			v->psi_some_avg10, v->psi_full_avg10, v->psi_some_us / 1000, v->psi_full_us / 1000);
	else
		fputs("psi io: not available\n", out);
}

void output_text(FILE *out, const struct interval_view *v)
{
	char when[32];
	format_local_time(&v->rates->wall, when, sizeof when, true);
	if (rates_have_interval(v->rates))
		fprintf(out, "%s  interval %.3f s\n", when, v->rates->interval);
	else
		fprintf(out, "%s  interval - (the clock did not advance: a new baseline)\n", when);
	print_events(out, v->events);
	fprintf(out, "%-10s %8s %9s %7s %6s %7s %7s %6s %6s\n", "Device op", "/s", "kB/s",
		"rqm/s", "%rqm", "await", "areq-sz", "aqu-sz", "%util");
	fprintf(out, "%-10s %8s %9s %7s %6s %7s %7s %s\n", "", "", "", "", "", "", "", "in-flight sched");
	for (size_t i = 0; i < v->rates->ndevices; i++)
		if (v->shown[i])
			print_device(out, &v->rates->devices[i]);
	print_vm(out, &v->rates->vm);
	fputc('\n', out);
}
