/* report_text.c - the text report, 80 columns, for pasting into an email:
 * the machine, one section per phase between marks, then a vmstat-like table
 * with the marks inline where they happened (docs/reports.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_probe.h"
#include "text.h"

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
static void print_wrapped(FILE *out, const char *prefix, int indent, const char *raw)
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
		print_wrapped(out, "                   ", 19, text);
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
	print_wrapped(out, "  recorded  ", 12, line);
	report_local_time(&f, false, a, sizeof a);
	report_local_time(&l, false, b, sizeof b);
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
	print_wrapped(out, head, 11, line);
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
	print_wrapped(out, "           tunables: ", 13, tunables);
	free(tunables);
}

static void devices_section(const struct report *rep, const struct snapshot *s, FILE *out)
{
	fprintf(out, "\nDevices (settings at the start of the report; tunables of those reported)\n");
	for (size_t i = 0; i < s->ndevices; i++)
		if (!s->devices[i].is_partition)
			device_line(rep, &s->devices[i], out);
}

static void mounts_section(const struct snapshot *s, FILE *out)
{
	fprintf(out, "\nMounts\n");
	size_t shown = 0;
	for (size_t i = 0; i < s->nmounts; i++) {
		const struct mount *m = &s->mounts[i];
		if (!m->disk[0])
			continue;
		char head[MOUNT_PATH_MAX + 64], opts[MOUNT_OPTS_MAX * 2 + 32];
		snprintf(head, sizeof head, "  %s on %s, %s: ", m->mountpoint, m->disk, m->fstype);
		snprintf(opts, sizeof opts, "%s; superblock %s", m->mount_opts, m->super_opts);
		print_wrapped(out, head, 4, opts);
		shown++;
	}
	if (!shown)
		fprintf(out, "  (none on a block device)\n");
}

/* ---- phases ---- */

struct device_stats {
	double dt;                   /* seconds of intervals with valid rates */
	double rkb, wkb, ios, flushes, util_s, await_sum, await_ios;
	double rpeak, wpeak, iops_peak;
	bool have_flush;
};

struct phase {
	size_t start, end;           /* interval end samples [start, end] */
	size_t ev_first, ev_count;   /* the marks it opens with, in rep->events */
	struct device_stats *stats;  /* one per reported device */
	struct probe_samples *probe; /* the probe's samples in it; NULL: none */
};

struct text_report {
	struct report *rep;
	struct replay_event *event;  /* scratch for decoding one (3 KB) */
	size_t nevents;
	size_t *boundary;            /* per event: first interval after it */
	struct phase *phases;
	size_t nphases;
	size_t phase;                /* the one being filled */
	size_t next_mark;            /* next event to print in the tables */
	FILE **tables;
	char **table_text;
	size_t *table_len;
	size_t ntables;
};

/* An observed change happened during the interval that ends at its sample; a mark
 * or a change of ioscope's came after its sample. */
static size_t event_boundary(const struct replay_event *ev)
{
	return ev->derivable ? ev->sample : ev->sample + 1;
}

static int plan_phases(struct text_report *t)
{
	struct report *rep = t->rep;
	t->nevents = rep->nevents;
	t->boundary = calloc(t->nevents + 1, sizeof *t->boundary);
	t->phases = calloc(t->nevents + 1, sizeof *t->phases);
	if (!t->boundary || !t->phases || !t->event)
		return -1;
	size_t start = rep->first + 1;
	t->phases[0] = (struct phase){ .start = start, .end = rep->last };
	t->nphases = 1;
	for (size_t i = 0; i < t->nevents; i++) {
		report_event(rep, i, t->event);
		size_t b = event_boundary(t->event);
		if (b < start)
			b = start;
		if (i && b < t->boundary[i - 1])
			b = t->boundary[i - 1];   /* keep the marks in file order */
		t->boundary[i] = b;
		struct phase *p = &t->phases[t->nphases - 1];
		if (b > p->start && b <= rep->last) {
			p->end = b - 1;
			p = &t->phases[t->nphases++];
			*p = (struct phase){ .start = b, .end = rep->last, .ev_first = i };
		}
		if (b <= rep->last)
			p->ev_count = i + 1 - p->ev_first;
	}
	for (size_t i = 0; i < t->nphases; i++)
		if (!(t->phases[i].stats = calloc(rep->ndevices ? rep->ndevices : 1, sizeof *t->phases[i].stats)))
			return -1;
	return 0;
}

static void accumulate(struct device_stats *s, const struct device_rates *r, double dt)
{
	if (!r->valid || dt <= 0)
		return;
	double iops = r->r_s + r->w_s + r->d_s;
	s->dt += dt;
	s->rkb += r->rkB_s * dt;
	s->wkb += r->wkB_s * dt;
	s->ios += iops * dt;
	s->util_s += r->util * dt;
	s->await_sum += (r->r_await * r->r_s + r->w_await * r->w_s) * dt;
	s->await_ios += (r->r_s + r->w_s) * dt;
	s->rpeak = fmax(s->rpeak, r->rkB_s);
	s->wpeak = fmax(s->wpeak, r->wkB_s);
	s->iops_peak = fmax(s->iops_peak, iops);
	if (r->have_flush) {
		s->have_flush = true;
		s->flushes += r->f_s * dt;
	}
}

static void print_phase(const struct text_report *t, size_t k, FILE *out)
{
	const struct phase *p = &t->phases[k];
	struct report *rep = t->rep;
	struct timespec from = replay_sample_wall(rep->replay, p->start - 1);
	struct timespec to = replay_sample_wall(rep->replay, p->end);
	char a[32], b[32], d[32], label[MOUNT_OPTS_MAX + 256], head[160];
	report_local_time(&from, false, a, sizeof a);
	report_local_time(&to, false, b, sizeof b);
	report_duration(timespec_diff(&to, &from), d, sizeof d);
	fprintf(out, "\nPhase %zu of %zu: %s - %s (%s)\n", k + 1, t->nphases, a, b, d);
	for (size_t i = 0; i < p->ev_count; i++) {
		const struct replay_event *ev = t->event;
		report_event(rep, p->ev_first + i, t->event);
		report_local_time(&ev->event.wall, false, a, sizeof a);
		report_mark_label(&ev->event, label, sizeof label);
		snprintf(head, sizeof head, "  %5s %s ", i ? "" : "after", a);
		print_wrapped(out, head, 17, label);
		print_resets(out, &ev->event);
	}
	fprintf(out, "  %-8s %15s %15s %15s %6s %5s %6s\n", "device", "read MB/s", "write MB/s",
		"IOPS", "await", "%util", "f/s");
	fprintf(out, "  %-8s %7s %7s %7s %7s %7s %7s %6s %5s %6s\n", "", "mean", "peak", "mean", "peak",
		"mean", "peak", "ms", "mean", "mean");
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct device_stats *s = &p->stats[i];
		if (s->dt <= 0) {
			text_printf(out, "  %-8s %s\n", rep->devices[i], "no figures in this phase");
			continue;
		}
		char flush[16] = "     -";
		if (s->have_flush)
			snprintf(flush, sizeof flush, "%6.1f", s->flushes / s->dt);
		text_printf(out, "  %-8s %7.1f %7.1f %7.1f %7.1f %7.0f %7.0f %6.2f %5.1f %s\n", rep->devices[i],
			s->rkb / s->dt / 1024, s->rpeak / 1024, s->wkb / s->dt / 1024, s->wpeak / 1024,
			s->ios / s->dt, s->iops_peak, s->await_ios > 0 ? s->await_sum / s->await_ios : 0.0,
			s->util_s / s->dt, flush);
	}
	report_probe_print(out, p->probe);
}

/* ---- the per-second tables ---- */

static void table_header(const struct report *rep, size_t block, FILE *out)
{
	fprintf(out, "%-44s", "");
	for (size_t i = block * TABLE_DEVICES; i < rep->ndevices && i < (block + 1) * TABLE_DEVICES; i++)
		text_printf(out, " %16.16s", rep->devices[i]);
	fprintf(out, "\n%-8s %2s %2s %3s %3s %3s %3s %6s %6s", "time", "r", "b", "us", "sy", "id", "wa",
		"bi", "bo");
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
		report_local_time(&ev->wall, false, when, sizeof when);
		report_mark_label(ev, label, sizeof label);
		for (size_t b = 0; b < t->ntables; b++)
			text_printf(t->tables[b], "---- %s %s ----\n", when, label);
	}
}

static void vm_cells(const struct vm_rates *vm, FILE *out)
{
	if (!vm->valid) {
		fprintf(out, " %2s %2s %3s %3s %3s %3s %6s %6s", "-", "-", "-", "-", "-", "-", "-", "-");
		return;
	}
	fprintf(out, " %2.0f %2.0f %3.0f %3.0f %3.0f %3.0f %6.0f %6.0f", vm->r, vm->b, vm->us, vm->sy,
		vm->id, vm->wa, vm->bi, vm->bo);
}

static void table_row(struct text_report *t, const struct report_interval *iv,
		      const struct device_rates **rows)
{
	char when[32];
	report_local_time(&iv->cur->wall, false, when, sizeof when);
	for (size_t b = 0; b < t->ntables; b++) {
		FILE *out = t->tables[b];
		fprintf(out, "%-8s", when);
		vm_cells(&iv->rates->vm, out);
		for (size_t i = b * TABLE_DEVICES; i < t->rep->ndevices && i < (b + 1) * TABLE_DEVICES; i++) {
			const struct device_rates *r = rows[i];
			if (r && r->valid)
				fprintf(out, " %5.1f %5.1f %4.0f", r->rkB_s / 1024, r->wkB_s / 1024, r->util);
			else
				fprintf(out, " %5s %5s %4s", "-", "-", "-");
		}
		fputc('\n', out);
	}
}

static int on_interval(void *ctx, const struct report_interval *iv)
{
	struct text_report *t = ctx;
	struct report *rep = t->rep;
	while (t->phase + 1 < t->nphases && iv->sample >= t->phases[t->phase + 1].start)
		t->phase++;
	const struct device_rates *rows[rep->ndevices + 1];
	memset(rows, 0, sizeof rows);
	for (size_t i = 0; i < iv->rates->ndevices; i++) {
		int k = report_device_index(rep, iv->rates->devices[i].name);
		if (k < 0)
			continue;
		rows[k] = &iv->rates->devices[i];
		accumulate(&t->phases[t->phase].stats[k], rows[k], iv->rates->interval);
	}
	if (report_probe_add(&t->phases[t->phase].probe, iv->cur) < 0)
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
	t->table_len = calloc(t->ntables, sizeof *t->table_len);
	if (!t->tables || !t->table_text || !t->table_len)
		return -1;
	for (size_t b = 0; b < t->ntables; b++) {
		t->tables[b] = open_memstream(&t->table_text[b], &t->table_len[b]);
		if (!t->tables[b])
			return -1;
		table_header(t->rep, b, t->tables[b]);
	}
	return 0;
}

static void free_text_report(struct text_report *t)
{
	for (size_t b = 0; b < t->ntables; b++) {
		if (t->tables && t->tables[b])
			fclose(t->tables[b]);
		if (t->table_text)
			free(t->table_text[b]);
	}
	free(t->tables);
	free(t->table_text);
	free(t->table_len);
	for (size_t i = 0; t->phases && i < t->nevents + 1; i++) {
		free(t->phases[i].stats);
		report_probe_free(t->phases[i].probe);
	}
	free(t->phases);
	free(t->boundary);
	free(t->event);
}

static void print_tables(struct text_report *t, FILE *out)
{
	for (size_t b = 0; b < t->ntables; b++) {
		fclose(t->tables[b]);
		t->tables[b] = NULL;
		fprintf(out, "\nPer interval (vmstat: r b us sy id wa bi bo; devices: MB/s read, write, %%util)\n");
		fwrite(t->table_text[b], 1, t->table_len[b], out);
	}
}

int report_text(struct report *rep, FILE *out, struct error *err)
{
	struct text_report t = { .rep = rep, .event = malloc(sizeof *t.event) };
	struct snapshot first;
	snapshot_init(&first);
	int rc = replay_read(rep->replay, rep->first, &first, err);
	if (rc == 0 && (plan_phases(&t) < 0 || open_tables(&t) < 0))
		rc = error_set(err, "out of memory");
	if (rc == 0)
		rc = report_walk(rep, on_interval, &t, err);
	if (rc == 0) {
		print_marks_until(&t, SIZE_MAX);
		machine_section(rep, out);
		devices_section(rep, &first, out);
		mounts_section(&first, out);
		fprintf(out, "\nPhases between marks (%zu mark%s, devices: ", t.nevents, t.nevents == 1 ? "" : "s");
		for (size_t i = 0; i < rep->ndevices; i++)
			text_printf(out, "%s%s", i ? ", " : "", rep->devices[i]);
		fprintf(out, "%s)\n", rep->ndevices ? "" : "none");
		for (size_t k = 0; k < t.nphases; k++)
			print_phase(&t, k, out);
		print_tables(&t, out);
	}
	free_text_report(&t);
	snapshot_free(&first);
	return rc;
}
