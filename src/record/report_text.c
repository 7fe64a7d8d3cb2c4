/* report_text.c - the text report, 80 columns, for pasting into an email:
 * the machine, one section per phase between marks, then a vmstat-like table
 * with the marks inline where they happened (docs/reports.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk_stream.h"
#include "loopdev.h"
#include "numfmt.h"
#include "report.h"
#include "report_phases.h"
#include "report_probe.h"
#include "text.h"
#include "trace.h"

#define WIDTH 80
#define TABLE_DEVICES 2     /* devices per table that still fit in 80 columns */

/* ---- wrapping ---- */

static void print_words(FILE *out, int col, int indent, const char *text)
{
	bool space = false;
	while (*text) {
		size_t word = strcspn(text, " ,");
		word += text[word] == ',';
		if (col + space + (int)word > WIDTH && col > indent) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (space) {
			col += fprintf(out, " ");
		}
		col += fprintf(out, "%.*s", (int)word, text);
		text += word;
		space = *text == ' ';
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

/* Prints text after prefix, continuing lines at indent; breaks at spaces and
 * after commas (long mount option lists).  Both are escaped (text.h) first. */
void report_print_wrapped(FILE *out, const char *prefix, int indent, const char *raw)
{
	char *text = strdup(raw);
	if (!text)
		return;
	text_escape_inplace(text);
	int col = text_printf(out, "%s", prefix);
	print_words(out, col, indent, text);
	free(text);
}

/* A scheduler switch's resets, under its mark: "resets nr_requests 64→256, ...". */
static void print_resets(FILE *out, const struct event *ev)
{
	char text[2048 + 8];
	memcpy(text, "resets ", 8);
	event_resets_text(ev, text + 7, sizeof text - 7);
	if (text[7])
		report_print_wrapped(out, "                   ", 19, text);
}

/* ---- machine ---- */

static void machine_section(const struct report *rep, FILE *out)
{
	const struct replay_machine *m = replay_machine(rep->replay);
	size_t n = replay_count(rep->replay);
	struct timespec t0 = replay_sample_wall(rep->replay, 0), t1 = replay_sample_wall(rep->replay, n - 1);
	struct timespec f = replay_sample_wall(rep->replay, rep->first);
	struct timespec l = replay_sample_wall(rep->replay, rep->last);
	char a[32], b[32], d[32], line[512];
	text_printf(out, "ioscope report: %s\n\n", rep->path);
	text_printf(out, "  host      %s\n", m->host[0] ? m->host : "?");
	text_printf(out, "  kernel    %s %s\n", m->kernel[0] ? m->kernel : "?", m->arch);
	if (m->cpus)
		text_printf(out, "  cpu       %ld x %s\n", m->cpus, m->cpu_model[0] ? m->cpu_model : "?");
	else
		text_printf(out, "  cpu       %s\n", m->cpu_model[0] ? m->cpu_model : "?");
	if (m->mem_total_kb)
		fprintf(out, "  memory    %.1f GiB\n", (double)m->mem_total_kb / (1024.0 * 1024.0));
	report_local_time(&t0, true, a, sizeof a);
	report_local_time(&t1, false, b, sizeof b);
	report_duration(timespec_diff(&t1, &t0), d, sizeof d);
	snprintf(line, sizeof line, "%s - %s (%s), %zu samples every %.3gs", a, b, d, n,
		 m->interval);
	report_print_wrapped(out, "  recorded  ", 12, line);
	report_clock(rep, &f, a, sizeof a);
	report_clock(rep, &l, b, sizeof b);
	report_duration(timespec_diff(&l, &f), d, sizeof d);
	fprintf(out, "  report    %s - %s (%s)\n", a, b, d);
	text_printf(out, "  written   by ioscope %s, session log format %d\n", m->ioscope[0] ? m->ioscope : "?",
		m->version);
}

static const char *yes_no_unknown(int v)
{
	return v < 0 ? "?" : v ? "yes" : "no";
}

static void device_line(const struct report *rep, const struct device *d, FILE *out)
{
	char line[1024], head[32];
	const char *wc = device_setting(d, "write_cache");
	snprintf(head, sizeof head, "  %-8s ", d->name);
	snprintf(line, sizeof line, "scheduler %s, rotational %s, %s cache, model %s%s%s",
		 d->settings.scheduler[0] ? d->settings.scheduler : "-",
		 yes_no_unknown(d->settings.rotational), wc ? wc : "unknown",
		 d->model[0] ? d->model : "-", d->dm_name[0] ? ", dm " : "", d->dm_name);
	report_print_wrapped(out, head, 11, line);
	if (!report_device_wanted(rep, d->name) || !d->settings.nitems)
		return;
	char *tunables = NULL;
	size_t len = 0;
	FILE *t = open_memstream(&tunables, &len);
	if (!t)
		return;
	for (size_t i = 0; i < d->settings.nitems; i++)
		if (strcmp(d->settings.items[i].key, "write_cache") != 0)
			fprintf(t, "%s%s %s", i ? ", " : "", d->settings.items[i].key,
				d->settings.items[i].value);
	fclose(t);
	report_print_wrapped(out, "           tunables: ", 13, tunables);
	free(tunables);
}

static void loop_line(const struct device *d, const struct snapshot *s, FILE *out)
{
	char text[MOUNT_PATH_MAX * 2 + 128];
	loop_backing_describe(d, s, text, sizeof text);
	if (text[0])
		report_print_wrapped(out, "           backed by ", 13, text);
}

static void device_entry(const struct report *rep, const struct device *d, const struct snapshot *s,
			 FILE *out)
{
	device_line(rep, d, out);
	loop_line(d, s, out);
}

/* The reported devices (--all: every whole disk), as they were at the report's start. */
static void devices_section(const struct report *rep, const struct snapshot *s, FILE *out)
{
	fprintf(out, "\nDevices (%s; settings at the start of the report)\n",
		rep->all ? "all, tunables of those reported" : "reported");
	if (rep->all) {
		for (size_t i = 0; i < s->ndevices; i++)
			if (!s->devices[i].is_partition)
				device_entry(rep, &s->devices[i], s, out);
		return;
	}
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct device *d = snapshot_find_device(s, rep->devices[i]);
		if (d)
			device_entry(rep, d, s, out);
		else
			text_printf(out, "  %-8s (not there at the start of the report)\n", rep->devices[i]);
	}
}

/* A mount on a reported device or one of its partitions. */
static bool mount_reported(const struct report *rep, const struct snapshot *s, const struct mount *m)
{
	if (rep->all || report_device_wanted(rep, m->disk))
		return true;
	const struct device *d = snapshot_find_device(s, m->disk);
	return d && d->parent[0] && report_device_wanted(rep, d->parent);
}

static void mounts_section(const struct report *rep, const struct snapshot *s, FILE *out)
{
	fprintf(out, "\nMounts (%s)\n", rep->all ? "all on a block device" : "on the reported devices");
	size_t shown = 0;
	for (size_t i = 0; i < s->nmounts; i++) {
		const struct mount *m = &s->mounts[i];
		if (!m->disk[0] || !mount_reported(rep, s, m))
			continue;
		char head[MOUNT_PATH_MAX + 64], opts[MOUNT_OPTS_MAX * 2 + 32];
		snprintf(head, sizeof head, "  %s on %s, %s: ", m->mountpoint, m->disk, m->fstype);
		snprintf(opts, sizeof opts, "%s; superblock %s", m->mount_opts, m->super_opts);
		report_print_wrapped(out, head, 4, opts);
		shown++;
	}
	if (!shown)
		fprintf(out, "  (none)\n");
}

/* ---- phases ---- */

struct text_report {
	struct report *rep;
	struct replay_event *event;  /* scratch for decoding one (3 KB) */
	size_t nevents;
	size_t *boundary;            /* per event: the first interval printed after it */
	struct phase_plan plan;
	size_t next_mark;            /* next event to print in the tables */
	FILE **tables;               /* written to during the walk, printed after the phases */
	struct chunk_stream *table_text;
	size_t ntables;
};

/* In the per-interval tables an observed change is printed before the interval
 * that saw it, a mark or a change of ioscope's after the sample before it. */
static size_t event_boundary(const struct replay_event *ev)
{
	return ev->derivable ? ev->sample : ev->sample + 1;
}

static int plan_marks(struct text_report *t)
{
	struct report *rep = t->rep;
	t->nevents = rep->nevents;
	t->boundary = calloc(t->nevents + 1, sizeof *t->boundary);
	if (!t->boundary || !t->event)
		return -1;
	for (size_t i = 0; i < t->nevents; i++) {
		report_event(rep, i, t->event);
		size_t b = event_boundary(t->event);
		if (i && b < t->boundary[i - 1])
			b = t->boundary[i - 1];   /* keep the marks in file order */
		t->boundary[i] = b;
	}
	return 0;
}

static void print_event_line(const struct text_report *t, size_t k, const char *word, FILE *out)
{
	const struct replay_event *ev = t->event;
	char when[32], label[MOUNT_OPTS_MAX + 256], head[160];
	report_event(t->rep, k, t->event);
	report_clock(t->rep, &ev->event.wall, when, sizeof when);
	report_mark_label(&ev->event, label, sizeof label);
	/* its number, as the console and the log have it: a thread's "[36]" is found here */
	snprintf(head, sizeof head, "  %s %s [%llu] ", word, when,
		 (unsigned long long)ev->event.number);
	report_print_wrapped(out, head, 4, label);
	print_resets(out, &ev->event);
}

static void print_left_out(const struct text_report *t, const struct phase *p, FILE *out)
{
	if (!p->left_out)
		return;
	struct timespec a = replay_sample_wall(t->rep->replay, p->left_out - 1);
	struct timespec b = replay_sample_wall(t->rep->replay, p->left_out);
	char x[32], y[32];
	report_clock(t->rep, &a, x, sizeof x);
	report_clock(t->rep, &b, y, sizeof y);
	fprintf(out, "  left out %s - %s: %s\n", x, y,
		p->why_left_out == LEFT_OUT_OBSERVED ? "the change happened within this interval"
						     : "the interval the mark falls in");
}

static void cell(FILE *out, int width, int prec, bool have, double v)
{
	if (have && isfinite(v))
		fprintf(out, " %*.*f", width, prec, v);
	else
		fprintf(out, " %*s", width, "-");
}

static void throughput_row(const char *name, const struct phase_device *s, FILE *out)
{
	bool busy = s->busy_dt > 0;
	text_printf(out, "  %-8s", name);
	/* a day of writes does not fit %9.1f: drop the decimal first (columns never move) */
	fprintf(out, " %9.*f %9.*f ", s->rkb < 1e8 ? 1 : 0, s->rkb / 1024, s->wkb < 1e8 ? 1 : 0,
		s->wkb / 1024);
	cell(out, 6, 1, true, s->rkb / s->dt / 1024);
	cell(out, 6, 1, busy, s->busy_rkb / s->busy_dt / 1024);
	cell(out, 6, 1, true, s->rpeak / 1024);
	fputc(' ', out);
	cell(out, 6, 1, true, s->wkb / s->dt / 1024);
	cell(out, 6, 1, busy, s->busy_wkb / s->busy_dt / 1024);
	cell(out, 6, 1, true, s->wpeak / 1024);
	fputc('\n', out);
}

static void latency_row(const char *name, struct phase_device *s, FILE *out)
{
	bool busy = s->busy_dt > 0, waits = s->nawaits > 0;
	text_printf(out, "  %-8s", name);
	cell(out, 6, 0, true, s->ios / s->dt);
	cell(out, 6, 0, busy, s->busy_ios / s->busy_dt);
	cell(out, 6, 0, true, s->iops_peak);
	fputc(' ', out);
	cell(out, 7, 2, waits, report_percentile(s->awaits, s->nawaits, 50));
	cell(out, 7, 2, waits, report_percentile(s->awaits, s->nawaits, 95));
	cell(out, 7, 2, waits, report_percentile(s->awaits, s->nawaits, 100));
	fputc(' ', out);
	cell(out, 5, 1, true, s->util_s / s->dt);
	char busy_time[32];
	report_duration(s->busy_dt, busy_time, sizeof busy_time);
	fprintf(out, " %7s", busy_time);
	cell(out, 6, 1, s->have_flush, s->flushes / s->dt);
	fputc('\n', out);
}

static void phase_figures(const struct text_report *t, struct phase *p, FILE *out)
{
	struct report *rep = t->rep;
	fprintf(out, "  %-8s %9s %9s  %-20s  %s\n", "", "MiB", "MiB", "     read MiB/s",
		"     write MiB/s");
	fprintf(out, "  %-8s %9s %9s  %6s %6s %6s  %6s %6s %6s\n", "device", "read", "written",
		"mean", "busy", "peak", "mean", "busy", "peak");
	bool any = false;
	for (size_t i = 0; i < rep->ndevices; i++) {
		any = any || p->dev[i].dt > 0;
		if (p->dev[i].dt > 0)
			throughput_row(rep->devices[i], &p->dev[i], out);
		else
			text_printf(out, "  %-8s %s\n", rep->devices[i], "no figures in this phase");
	}
	if (!any)
		return;   /* no IOPS header over no rows */
	fprintf(out, "  %-8s %-20s  %-23s  %5s %7s %6s\n", "", "        IOPS", "        await ms",
		"%util", "busy", "f/s");
	fprintf(out, "  %-8s %6s %6s %6s  %7s %7s %7s  %5s %7s %6s\n", "device", "mean", "busy",
		"peak", "p50", "p95", "max", "mean", "time", "mean");
	for (size_t i = 0; i < rep->ndevices; i++)
		if (p->dev[i].dt > 0)
			latency_row(rep->devices[i], &p->dev[i], out);
}

/* " 1234" µs, or "    -" without requests */
static void latency_cell(char *buf, size_t len, const uint64_t *hist, double q)
{
	double v = trace_quantile(hist, TRACE_LAT_BUCKETS, q);
	if (v < 0)
		snprintf(buf, len, "%7s", "-");
	else
		snprintf(buf, len, "%7.0f", v);
}

/* Per-phase latency percentiles (µs) and seeks/s, for the devices that were traced. */
static void print_phase_trace(const struct text_report *t, const struct phase *p, FILE *out)
{
	struct report *rep = t->rep;
	bool any = false;
	for (size_t i = 0; i < rep->ndevices; i++)
		any = any || p->dev[i].trace_dt > 0;
	if (!any)
		return;
	fprintf(out, "  %-8s %16s %16s %16s %16s %8s\n", "traced", "read D2C µs", "read Q2C µs",
		"write D2C µs", "write Q2C µs", "seeks/s");
	fprintf(out, "  %-8s %7s %7s %7s %7s %7s %7s %7s %7s\n", "", "p50", "p99", "p50", "p99",
		"p50", "p99", "p50", "p99");
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct phase_device *s = &p->dev[i];
		if (s->trace_dt <= 0)
			continue;
		char c[8][16];
		for (size_t dir = 0; dir < TRACE_SIZE_DIRS; dir++) {
			latency_cell(c[dir * 4], sizeof c[0], s->d2c[dir], 0.50);
			latency_cell(c[dir * 4 + 1], sizeof c[0], s->d2c[dir], 0.99);
			latency_cell(c[dir * 4 + 2], sizeof c[0], s->q2c[dir], 0.50);
			latency_cell(c[dir * 4 + 3], sizeof c[0], s->q2c[dir], 0.99);
		}
		text_printf(out, "  %-8s %s %s %s %s %s %s %s %s %8.1f\n", rep->devices[i], c[0], c[1],
			    c[2], c[3], c[4], c[5], c[6], c[7], (double)s->seeks / s->trace_dt);
	}
}

/* A phase whose device moved more in the intervals left out at its edges than within
 * it (a dd right after its mark) says so: its own figures are not the work. */
static void print_edges(const struct text_report *t, size_t k, FILE *out)
{
	const struct phase_plan *plan = &t->plan;
	const struct phase *p = &plan->phases[k];
	for (size_t i = 0; i < t->rep->ndevices; i++) {
		if (!report_phase_mostly_edges(plan, k, i))
			continue;
		double at_start = p->dev[i].edge_rkb + p->dev[i].edge_wkb;
		bool start = at_start > 0, end = report_phase_edge_kb(plan, k, i) > at_start;
		char line[256];
		snprintf(line, sizeof line, "%s moved %.1f MiB in the interval%s left out at this "
			 "phase's %s, more than the %.1f MiB within it", t->rep->devices[i],
			 report_phase_edge_kb(plan, k, i) / 1024, start && end ? "s" : "",
			 start && end ? "start and end" : start ? "start" : "end",
			 (p->dev[i].rkb + p->dev[i].wkb) / 1024);
		report_print_wrapped(out, "  ", 4, line);
	}
}

/* The span of a phase's own intervals where it is not the span between its marks (the
 * interval a mark falls in is left out): "; figures 12:00:11 - 12:00:24, 13s". */
static void figures_span(const struct text_report *t, const struct phase *p, const char *span,
			 char *buf, size_t len)
{
	buf[0] = '\0';
	if (p->first > p->last) {
		snprintf(buf, len, "; no interval of its own");
		return;
	}
	struct timespec a = replay_sample_wall(t->rep->replay, p->first - 1);
	struct timespec b = replay_sample_wall(t->rep->replay, p->last);
	char x[32], y[32], d[32], from[32], to[32];
	report_clock(t->rep, &a, x, sizeof x);
	report_clock(t->rep, &b, y, sizeof y);
	report_clock(t->rep, &p->from, from, sizeof from);
	report_clock(t->rep, &p->to, to, sizeof to);
	report_duration(timespec_diff(&b, &a), d, sizeof d);
	if (strcmp(x, from) != 0 || strcmp(y, to) != 0 || strcmp(d, span) != 0)
		snprintf(buf, len, "; figures %s - %s, %s", x, y, d);
}

static void print_phase(const struct text_report *t, size_t k, FILE *out)
{
	struct phase *p = &t->plan.phases[k];
	char a[32], b[32], d[32], min[32], figures[128], line[384];
	report_clock(t->rep, &p->from, a, sizeof a);
	report_clock(t->rep, &p->to, b, sizeof b);
	report_duration(timespec_diff(&p->to, &p->from), d, sizeof d);
	report_duration(t->plan.min_phase, min, sizeof min);
	figures_span(t, p, d, figures, sizeof figures);
	snprintf(line, sizeof line, "Phase %zu of %zu: %s - %s (%s%s)%s%s%s", k + 1, t->plan.n, a,
		 b, d, figures, p->is_short ? ", short: under " : "", p->is_short ? min : "",
		 p->is_short ? ", not compared" : "");
	fputc('\n', out);
	report_print_wrapped(out, "", 2, line);
	for (size_t i = 0; i < p->nopens; i++)
		print_event_line(t, p->opens[i], i ? "" : "after", out);
	print_left_out(t, p, out);
	for (size_t i = 0; i < p->nlisted; i++)
		print_event_line(t, p->listed[i], "during", out);
	phase_figures(t, p, out);
	print_edges(t, k, out);
	print_phase_trace(t, p, out);
	report_probe_print(out, p->probe);
}

/* ---- the per-second tables ---- */

/* The time column: "HH:MM:SS", or with tenths "HH:MM:SS.s". */
static int time_width(const struct report *rep)
{
	return report_tenths(rep) ? 10 : 8;
}

static void table_header(const struct report *rep, size_t block, FILE *out)
{
	fprintf(out, "%-*s", 36 + time_width(rep), "");
	for (size_t i = block * TABLE_DEVICES; i < rep->ndevices && i < (block + 1) * TABLE_DEVICES; i++)
		text_printf(out, " %16.16s", rep->devices[i]);
	fprintf(out, "\n%-*s %2s %2s %3s %3s %3s %3s %6s %6s", time_width(rep), "time", "r", "b",
		"us", "sy", "id", "wa", "bi", "bo");
	for (size_t i = block * TABLE_DEVICES; i < rep->ndevices && i < (block + 1) * TABLE_DEVICES; i++)
		fprintf(out, " %5s %5s %4s", "rMB/s", "wMB/s", "%ut");
	fputc('\n', out);
}

static void print_marks_until(struct text_report *t, size_t boundary)
{
	char when[32], label[MOUNT_OPTS_MAX + 256];
	for (; t->next_mark < t->nevents && t->boundary[t->next_mark] <= boundary; t->next_mark++) {
		const struct event *ev = &t->event->event;
		report_event(t->rep, t->next_mark, t->event);
		report_clock(t->rep, &ev->wall, when, sizeof when);
		report_mark_label(ev, label, sizeof label);
		char line[sizeof label + 72];
		snprintf(line, sizeof line, "%s [%llu] %s ----", when,
			 (unsigned long long)ev->number, label);
		for (size_t b = 0; b < t->ntables; b++)   /* a long label wraps: 80 columns */
			report_print_wrapped(t->tables[b], "---- ", 5, line);
	}
}

/* " %W.Pf" of each value into buf, as printf would (numfmt_fixed); buf holds the widest
 * (309 digits, a sign, a point and P decimals) of each. */
static void cells(char *buf, size_t len, const int *width, int prec, const double *v, size_t n)
{
	size_t at = 0;
	for (size_t i = 0; i < n && at + 1 < len; i++) {
		buf[at++] = ' ';
		int k = numfmt_fixed(buf + at, len - at, width[i], prec, v[i]);
		at += k > 0 ? (size_t)k : 0;
	}
	buf[at < len ? at : len - 1] = '\0';
}

static void vm_cells(const struct vm_rates *vm, char *buf, size_t len)
{
	if (!vm->valid) {
		snprintf(buf, len, " %2s %2s %3s %3s %3s %3s %6s %6s", "-", "-", "-", "-", "-", "-",
			 "-", "-");
		return;
	}
	static const int width[] = { 2, 2, 3, 3, 3, 3, 6, 6 };
	const double v[] = { vm->r, vm->b, vm->us, vm->sy, vm->id, vm->wa, vm->bi, vm->bo };
	cells(buf, len, width, 0, v, 8);
}

static void table_row(struct text_report *t, const struct report_interval *iv,
		      const struct device_rates **rows)
{
	/* the time and vmstat cells begin the row of every table: formatted once (a day of
	 * 16 disks is 8 tables, and printf's floats were a sixth of the report's time); room
	 * for the widest double "%.0f" prints (309 digits and a sign) in each of the 8 cells */
	char when[32], vm[8 * 312], head[sizeof when + sizeof vm + 16];
	report_clock(t->rep, &iv->cur->wall, when, sizeof when);
	vm_cells(&iv->rates->vm, vm, sizeof vm);
	snprintf(head, sizeof head, "%-*s%s", time_width(t->rep), when, vm);
	for (size_t b = 0; b < t->ntables; b++) {
		FILE *out = t->tables[b];
		fputs(head, out);
		for (size_t i = b * TABLE_DEVICES; i < t->rep->ndevices && i < (b + 1) * TABLE_DEVICES; i++) {
			const struct device_rates *r = rows[i];
			if (r && r->valid) {
				static const int width[] = { 5, 5 };
				const double mib[] = { r->rkB_s / 1024, r->wkB_s / 1024 };
				char text[2 * 320 + 320];
				cells(text, sizeof text, width, 1, mib, 2);
				static const int util_width[] = { 4 };
				size_t at = strlen(text);
				cells(text + at, sizeof text - at, util_width, 0, &r->util, 1);
				fputs(text, out);
			} else {
				fprintf(out, " %5s %5s %4s", "-", "-", "-");
			}
		}
		fputc('\n', out);
	}
}

static int on_interval(void *ctx, const struct report_interval *iv)
{
	struct text_report *t = ctx;
	struct report *rep = t->rep;
	const struct device_rates *rows[rep->ndevices + 1];
	memset(rows, 0, sizeof rows);
	for (size_t i = 0; i < iv->rates->ndevices; i++) {
		int k = iv->column[i];
		if (k >= 0)
			rows[k] = &iv->rates->devices[i];
	}
	if (report_phases_add(&t->plan, rep, iv) < 0)
		return -1;
	print_marks_until(t, iv->sample);
	table_row(t, iv, rows);
	return 0;
}

static int open_tables(struct text_report *t)
{
	t->ntables = t->rep->ndevices ? (t->rep->ndevices + TABLE_DEVICES - 1) / TABLE_DEVICES : 1;
	t->tables = calloc(t->ntables, sizeof *t->tables);
	t->table_text = calloc(t->ntables, sizeof *t->table_text);
	if (!t->tables || !t->table_text)
		return -1;
	for (size_t b = 0; b < t->ntables; b++) {
		t->tables[b] = chunk_stream_open(&t->table_text[b]);
		if (!t->tables[b])
			return -1;
		table_header(t->rep, b, t->tables[b]);
	}
	return 0;
}

static void free_text_report(struct text_report *t)
{
	for (size_t b = 0; t->table_text && b < t->ntables; b++)
		chunk_stream_free(&t->table_text[b]);
	free(t->tables);
	free(t->table_text);
	report_phases_free(&t->plan, t->rep);
	free(t->boundary);
	free(t->event);
}

static void phases_heading(const struct text_report *t, FILE *out)
{
	const struct report *rep = t->rep;
	char min[32];
	report_duration(t->plan.min_phase, min, sizeof min);
	fprintf(out, "\nPhases (cut by setting changes and marks; busy: %%util > %g)\n", PHASE_BUSY_UTIL);
	fprintf(out, "  %zu phase%s, %zu event%s; a phase under %s is short and not compared\n",
		t->plan.n, t->plan.n == 1 ? "" : "s", t->nevents, t->nevents == 1 ? "" : "s", min);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	for (size_t i = 0; i < rep->ndevices; i++)
		fprintf(f, "%s%s", i ? ", " : "", rep->devices[i]);
	fputs(rep->ndevices ? "" : "none", f);
	fclose(f);
	report_print_wrapped(out, "  devices: ", 11, text);
	free(text);
}

/* What moved in the phases and between them adds up to what the counters moved. */
static void totals_section(const struct text_report *t, FILE *out)
{
	const struct report *rep = t->rep;
	fprintf(out, "\nTotals (MiB; between: in the intervals left out at the marks)\n");
	fprintf(out, "  %-8s %10s %10s %10s  %10s %10s %10s\n", "", "read", "in phases",
		"between", "written", "in phases", "between");
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct phase_total *s = &t->plan.totals[i];
		text_printf(out, "  %-8s", rep->devices[i]);
		fprintf(out, " %10.1f %10.1f %10.1f  %10.1f %10.1f %10.1f\n", s->rkb / 1024,
			(s->rkb - s->between_rkb) / 1024, s->between_rkb / 1024, s->wkb / 1024,
			(s->wkb - s->between_wkb) / 1024, s->between_wkb / 1024);
	}
}

/* -1 when a table could not be kept whole (out of memory) */
static int print_tables(struct text_report *t, FILE *out)
{
	int rc = 0;
	for (size_t b = 0; b < t->ntables; b++) {
		t->tables[b] = NULL;
		fprintf(out, "\nPer interval (vmstat: r b us sy id wa bi bo; devices: MiB/s read, "
			"write, %%util)\n");
		if (chunk_stream_write(&t->table_text[b], out) < 0)
			rc = -1;
	}
	return rc;
}

int report_text(struct report *rep, FILE *out, struct error *err)
{
	struct text_report t = { .rep = rep, .event = malloc(sizeof *t.event) };
	struct snapshot first;
	snapshot_init(&first);
	int rc = replay_read(rep->replay, rep->first, &first, err);
	if (rc == 0 && (plan_marks(&t) < 0 || open_tables(&t) < 0))
		rc = error_set(err, "out of memory");
	if (rc == 0)
		rc = report_phases_plan(rep, &t.plan, err);
	if (rc == 0)
		rc = report_walk(rep, on_interval, &t, err);
	if (rc == 0) {
		print_marks_until(&t, SIZE_MAX);
		machine_section(rep, out);
		devices_section(rep, &first, out);
		mounts_section(rep, &first, out);
		phases_heading(&t, out);
		for (size_t k = 0; k < t.plan.n; k++)
			print_phase(&t, k, out);
		totals_section(&t, out);
		report_comparison(rep, &t.plan, out);
		if (print_tables(&t, out) < 0)
			rc = error_set(err, "out of memory");
	}
	free_text_report(&t);
	snapshot_free(&first);
	return rc;
}
