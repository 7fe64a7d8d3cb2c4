/* report_table.c - CSV and JSON reports for spreadsheets and scripts: one row per
 * interval per device, events as their own rows, then one row per phase with the
 * responsiveness probe's percentiles, as the text report has them (docs/reports.md). */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "json_text.h"
#include "csv.h"
#include "numfmt.h"
#include "report.h"
#include "report_phases.h"
#include "report_probe.h"
#include "session_log.h"

struct table {
	struct report *rep;
	FILE *out;
	struct replay_event *event;   /* the one being written (3 KB: allocated once) */
	size_t nevents, next_event;
	int (*event_row)(struct table *t, const struct event *ev);
	int (*device_row)(struct table *t, const struct report_interval *iv, const struct device_rates *r);
	int (*vm_row)(struct table *t, const struct report_interval *iv);
	int (*phase_row)(struct table *t, size_t k);
	int (*totals_row)(struct table *t, size_t k);   /* reported device k */
	struct phase_plan plan;       /* filled during the same walk */
	size_t phase;                 /* the interval's phase, 1..; 0: left out of every phase */
};

/* Events of samples up to and including sample, in log order. */
static int flush_events(struct table *t, size_t sample)
{
	for (; t->next_event < t->nevents; t->next_event++) {
		report_event(t->rep, t->next_event, t->event);
		if (t->event->sample > sample)
			break;
		if (t->event_row(t, &t->event->event) < 0)
			return -1;
	}
	return 0;
}

static int table_interval(void *ctx, const struct report_interval *iv)
{
	struct table *t = ctx;
	if (flush_events(t, iv->sample - 1) < 0 || report_phases_add(&t->plan, t->rep, iv) < 0)
		return -1;
	const struct phase *p = &t->plan.phases[t->plan.current];
	t->phase = iv->sample >= p->first && iv->sample <= p->last ? t->plan.current + 1 : 0;
	for (size_t i = 0; i < iv->rates->ndevices; i++)
		if (iv->column[i] >= 0 &&
		    t->device_row(t, iv, &iv->rates->devices[i]) < 0)
			return -1;
	if (t->vm_row && t->vm_row(t, iv) < 0)
		return -1;
	return flush_events(t, iv->sample);
}

static int table_run(struct table *t, struct error *err)
{
	t->nevents = t->rep->nevents;
	if (report_phases_plan(t->rep, &t->plan, err) < 0)
		return -1;
	t->event = malloc(sizeof *t->event);
	int rc = t->event ? report_walk(t->rep, table_interval, t, err) : -1;
	if (rc == 0 && flush_events(t, SIZE_MAX) < 0)
		rc = -1;
	for (size_t k = 0; rc == 0 && k < t->plan.n; k++)
		rc = t->phase_row(t, k);
	for (size_t k = 0; rc == 0 && k < t->rep->ndevices; k++)
		rc = t->totals_row(t, k);
	report_phases_free(&t->plan, t->rep);
	free(t->event);
	if (rc < 0 && !err->msg[0])
		error_set(err, "%s", ferror(t->out) ? "write error" : "out of memory");
	return rc;
}

/* The labels of the marks that open phase p, "; " between them ("" for none), whole
 * however many there are, or with numbers their numbers ("3; 4": the events' "n", those
 * numbered); NULL on ENOMEM.  The caller frees it. */
static char *phase_opens(struct table *t, const struct phase *p, bool numbers)
{
	char label[MOUNT_OPTS_MAX + 256], *text = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < p->nopens; i++) {
		report_event(t->rep, p->opens[i], t->event);
		const struct event *ev = &t->event->event;
		if (numbers && ev->number)
			fprintf(f, "%s%llu", n++ ? "; " : "", (unsigned long long)ev->number);
		if (numbers)
			continue;
		report_mark_label(ev, label, sizeof label);
		fprintf(f, "%s%s", i ? "; " : "", label);
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The devices whose I/O in phase k is mostly in the intervals left out at its edges (the
 * text report's note under the phase), "; " between them ("" for none); NULL on ENOMEM.
 * The caller frees it. */
static char *phase_edge_devices(const struct table *t, size_t k)
{
	char *text = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < t->rep->ndevices; i++)
		if (report_phase_mostly_edges(&t->plan, k, i))
			fprintf(f, "%s%s", n++ ? "; " : "", t->rep->devices[i]);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* ---- CSV ---- */

static void csv_field(FILE *out, const char *s)
{
	fputc(',', out);
	csv_put(out, s);
}

static void csv_time(FILE *out, const struct timespec *wall)
{
	char local[32];
	report_local_time(wall, true, local, sizeof local);
	fprintf(out, ",%lld.%06ld,%s", (long long)wall->tv_sec, wall->tv_nsec / 1000, local);
}

/* The columns after the probe's, of a totals row only. */
static const char *const csv_totals_columns =
	",read_MB,written_MB,between_phases_read_MB,between_phases_written_MB";
#define CSV_TOTALS_EMPTY ",,,,"

/* The last columns: the phase (empty: none), the probe's figures and the devices mostly
 * at the edges of a phase row, the totals' empty cells, newline. */
static void csv_phase_cells(FILE *out, size_t phase, const struct probe_samples *probe,
			    const char *edges)
{
	if (phase)
		fprintf(out, ",%zu", phase);
	else
		fputc(',', out);
	for (size_t i = 0; i < REPORT_PROBE_FIGURES; i++) {
		uint64_t v;
		if (report_probe_figure(probe, i, &v))
			fprintf(out, ",%llu", (unsigned long long)v);
		else
			fputc(',', out);
	}
	csv_field(out, edges);
	fputs(CSV_TOTALS_EMPTY "\n", out);
}

static int csv_event(struct table *t, const struct event *ev)
{
	char label[MOUNT_OPTS_MAX + 256], resets[2048];
	report_mark_label(ev, label, sizeof label);
	event_resets_text(ev, resets, sizeof resets);
	if (resets[0]) {
		size_t used = strlen(label);
		snprintf(label + used, sizeof label - used, " (resets %s)", resets);
	}
	fputs("event", t->out);
	csv_time(t->out, &ev->wall);
	fputs(",,", t->out);
	for (size_t i = 0; i < device_figures_batch_count() + 2; i++)
		fputc(',', t->out);
	/* the mark's number: the log's "n", the console's and the text report's "[N]" */
	if (ev->number)
		fprintf(t->out, ",%llu", (unsigned long long)ev->number);
	else
		fputc(',', t->out);
	csv_field(t->out, event_kind_name(ev->kind));
	csv_field(t->out, ev->object);
	csv_field(t->out, ev->key);
	csv_field(t->out, ev->old_value);
	csv_field(t->out, ev->new_value);
	csv_field(t->out, ev->by);
	csv_field(t->out, ev->result);
	csv_field(t->out, label);
	csv_phase_cells(t->out, 0, NULL, "");
	return ferror(t->out) ? -1 : 0;
}

static int csv_device(struct table *t, const struct report_interval *iv, const struct device_rates *r)
{
	fputs("sample", t->out);
	csv_time(t->out, &iv->cur->wall);
	if (rates_have_interval(iv->rates))
		fprintf(t->out, ",%.6f", iv->rates->interval);
	else
		fputc(',', t->out);
	csv_field(t->out, r->name);
	/* ",%.3f" a metric, made without printf's arbitrary precision and written at once:
	 * three quarters of a CSV report's time was printf's (numfmt_fixed; room for the
	 * widest double in each cell) */
	char cells[4096];
	size_t at = 0;
	for (size_t i = 0; i < device_figures_count; i++) {
		const struct device_figure *f = &device_figures[i];
		if (!f->batch)
			continue;
		if (sizeof cells - at < 320) {
			fwrite(cells, 1, at, t->out);
			at = 0;
		}
		cells[at++] = ',';
		if (!device_figure_missing(r, f))
			at += (size_t)numfmt_fixed(cells + at, sizeof cells - at, 0, 3,
						   device_figure_value(r, f));
	}
	fwrite(cells, 1, at, t->out);
	fprintf(t->out, ",%llu", (unsigned long long)r->in_flight);
	csv_field(t->out, r->scheduler);
	fputs(",,,,,,,,,", t->out);
	csv_phase_cells(t->out, t->phase, NULL, "");
	return ferror(t->out) ? -1 : 0;
}

/* record "phase": time = its start, interval = its length, label = the marks that open it */
static int csv_phase(struct table *t, size_t k)
{
	const struct phase *p = &t->plan.phases[k];
	char *label = phase_opens(t, p, false), *numbers = phase_opens(t, p, true),
	     *edges = phase_edge_devices(t, k);
	if (!label || !numbers || !edges) {
		free(label);
		free(numbers);
		free(edges);
		return -1;
	}
	fputs("phase", t->out);
	csv_time(t->out, &p->from);
	fprintf(t->out, ",%.6f,", timespec_diff(&p->to, &p->from));
	for (size_t i = 0; i < device_figures_batch_count() + 2; i++)
		fputc(',', t->out);
	csv_field(t->out, numbers);
	for (size_t i = 0; i < 7; i++)
		fputc(',', t->out);
	csv_field(t->out, label);
	free(label);
	free(numbers);
	csv_phase_cells(t->out, k + 1, p->probe, edges);
	free(edges);
	return ferror(t->out) ? -1 : 0;
}

/* record "totals": per device, what moved over the report and between its phases */
static int csv_totals(struct table *t, size_t k)
{
	const struct phase_total *s = &t->plan.totals[k];
	fputs("totals,,,", t->out);
	csv_field(t->out, t->rep->devices[k]);
	for (size_t i = 0; i < device_figures_batch_count() + 2 + 9 + 1 + REPORT_PROBE_FIGURES + 1; i++)
		fputc(',', t->out);
	fprintf(t->out, ",%.3f,%.3f,%.3f,%.3f\n", s->rkb / 1024, s->wkb / 1024,
		s->between_rkb / 1024, s->between_wkb / 1024);
	return ferror(t->out) ? -1 : 0;
}

int report_csv(struct report *rep, FILE *out, struct error *err)
{
	fputs("record,time,local_time,interval,device", out);
	for (size_t i = 0; i < device_figures_count; i++)
		if (device_figures[i].batch)
			fprintf(out, ",%s", device_figures[i].key);
	fputs(",in_flight,scheduler,n,kind,object,key,old,new,by,result,label,phase", out);
	for (size_t i = 0; i < REPORT_PROBE_FIGURES; i++)
		fprintf(out, ",probe_%s", report_probe_figure_names[i]);
	fprintf(out, ",mostly_at_edges%s\n", csv_totals_columns);
	struct table t = { .rep = rep, .out = out, .event_row = csv_event, .device_row = csv_device,
			   .phase_row = csv_phase, .totals_row = csv_totals };
	return table_run(&t, err);
}

/* ---- JSON Lines ---- */

static int json_line(FILE *out, json_object *o)
{
	if (!o)
		return -1;
	struct json_text t = json_text_of(o, JSON_TEXT_LINE);
	int rc = t.text && fprintf(out, "%s\n", t.text) > 0 ? 0 : -1;
	json_text_free(&t);
	json_object_put(o);
	return rc;
}

static json_object *number(double v)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%.3f", v);
	return json_object_new_double_s(v, buf);
}

static json_object *time_value(const struct timespec *t)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%lld.%06ld", (long long)t->tv_sec, t->tv_nsec / 1000);
	return json_object_new_double_s(timespec_seconds(t), buf);
}

static json_object *row(const char *record, const struct timespec *wall)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "record", json_object_new_string(record));
	json_object_object_add(o, "time", time_value(wall));
	return o;
}

static int json_event(struct table *t, const struct event *ev)
{
	char label[MOUNT_OPTS_MAX + 256];
	report_mark_label(ev, label, sizeof label);
	json_object *o = row("event", &ev->wall);
	json_object_object_add(o, "kind", json_object_new_string(event_kind_name(ev->kind)));
	json_object_object_add(o, "object", json_object_new_string(ev->object));
	json_object_object_add(o, "key", json_object_new_string(ev->key));
	json_object_object_add(o, "old", json_object_new_string(ev->old_value));
	json_object_object_add(o, "new", json_object_new_string(ev->new_value));
	json_object_object_add(o, "by", json_object_new_string(ev->by));
	json_object_object_add(o, "result", json_object_new_string(ev->result));
	json_object_object_add(o, "label", json_object_new_string(label));
	if (ev->number)   /* the mark's number: the log's "n", the console's "[N]" */
		json_object_object_add(o, "n", json_object_new_uint64(ev->number));
	if (ev->scope[0])
		json_object_object_add(o, "scope", json_object_new_string(ev->scope));
	if (ev->kind == EVENT_SCHEDULER || ev->nresets)   /* a change's side effects too */
		json_object_object_add(o, "resets", session_log_resets(ev));
	return json_line(t->out, o);
}

static int json_device(struct table *t, const struct report_interval *iv, const struct device_rates *r)
{
	json_object *o = row("sample", &iv->cur->wall);
	json_object_object_add(o, "interval", rates_have_interval(iv->rates) ? number(iv->rates->interval) : NULL);
	json_object_object_add(o, "seq", json_object_new_uint64(iv->cur->seq));
	json_object_object_add(o, "device", json_object_new_string(r->name));
	for (size_t i = 0; i < device_figures_count; i++) {
		const struct device_figure *f = &device_figures[i];
		if (f->batch)
			json_object_object_add(o, f->key, device_figure_missing(r, f)
							  ? NULL : number(device_figure_value(r, f)));
	}
	json_object_object_add(o, "in_flight", json_object_new_uint64(r->in_flight));
	json_object_object_add(o, "scheduler", r->scheduler[0] ? json_object_new_string(r->scheduler) : NULL);
	json_object_object_add(o, "phase", t->phase ? json_object_new_uint64(t->phase) : NULL);
	return json_line(t->out, o);
}

static int json_vm(struct table *t, const struct report_interval *iv)
{
	const struct vm_rates *v = &iv->rates->vm;
	json_object *o = row("vm", &iv->cur->wall);
	json_object_object_add(o, "interval", rates_have_interval(iv->rates) ? number(iv->rates->interval) : NULL);
	json_object_object_add(o, "seq", json_object_new_uint64(iv->cur->seq));
	for (size_t i = 0; i < vm_metrics_count; i++) {
		double val = *(const double *)((const char *)v + vm_metrics[i].offset);
		json_object_object_add(o, vm_metrics[i].name, v->valid ? number(val) : NULL);
	}
	json_object_object_add(o, "dirty", number(v->dirty));
	json_object_object_add(o, "writeback", number(v->writeback));
	json_object_object_add(o, "phase", t->phase ? json_object_new_uint64(t->phase) : NULL);
	return json_line(t->out, o);
}

static json_object *json_probe(const struct probe_samples *probe)
{
	if (!probe)
		return NULL;
	json_object *o = json_object_new_object();
	for (size_t i = 0; i < REPORT_PROBE_FIGURES; i++) {
		uint64_t v;
		bool have = report_probe_figure(probe, i, &v);
		json_object_object_add(o, report_probe_figure_names[i], have ? json_object_new_uint64(v) : NULL);
	}
	return o;
}

/* The numbers of the events that open phase p (the CSV row's "3; 4"), those numbered. */
static json_object *opening_numbers(struct table *t, const struct phase *p)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < p->nopens; i++) {
		report_event(t->rep, p->opens[i], t->event);
		if (t->event->event.number)
			json_object_array_add(a, json_object_new_uint64(t->event->event.number));
	}
	return a;
}

static int json_phase(struct table *t, size_t k)
{
	const struct phase *p = &t->plan.phases[k];
	char *label = phase_opens(t, p, false);
	if (!label)
		return -1;
	json_object *o = row("phase", &p->from);
	json_object_object_add(o, "phase", json_object_new_uint64(k + 1));
	json_object_object_add(o, "to", time_value(&p->to));
	json_object_object_add(o, "duration", number(timespec_diff(&p->to, &p->from)));
	json_object_object_add(o, "short", json_object_new_boolean(p->is_short));
	json_object_object_add(o, "label", json_object_new_string(label));
	free(label);
	json_object_object_add(o, "n", opening_numbers(t, p));
	json_object_object_add(o, "probe", json_probe(p->probe));
	json_object *edges = json_object_new_array();
	for (size_t i = 0; i < t->rep->ndevices; i++)
		if (report_phase_mostly_edges(&t->plan, k, i))
			json_object_array_add(edges, json_object_new_string(t->rep->devices[i]));
	json_object_object_add(o, "mostly_at_edges", edges);
	return json_line(t->out, o);
}

static int json_totals(struct table *t, size_t k)
{
	const struct phase_total *s = &t->plan.totals[k];
	json_object *o = json_object_new_object();
	json_object_object_add(o, "record", json_object_new_string("totals"));
	json_object_object_add(o, "device", json_object_new_string(t->rep->devices[k]));
	json_object_object_add(o, "read_MB", number(s->rkb / 1024));
	json_object_object_add(o, "written_MB", number(s->wkb / 1024));
	json_object_object_add(o, "between_phases_read_MB", number(s->between_rkb / 1024));
	json_object_object_add(o, "between_phases_written_MB", number(s->between_wkb / 1024));
	return json_line(t->out, o);
}

static int json_machine(struct report *rep, FILE *out)
{
	const struct replay_machine *m = replay_machine(rep->replay);
	json_object *o = json_object_new_object(), *devs = json_object_new_array();
	json_object_object_add(o, "record", json_object_new_string("machine"));
	json_object_object_add(o, "file", json_object_new_string(rep->path));
	json_object_object_add(o, "format_version", json_object_new_int(m->version));
	json_object_object_add(o, "ioscope", json_object_new_string(m->ioscope));
	json_object_object_add(o, "host", json_object_new_string(m->host));
	json_object_object_add(o, "kernel", json_object_new_string(m->kernel));
	json_object_object_add(o, "arch", json_object_new_string(m->arch));
	json_object_object_add(o, "cpu_model", json_object_new_string(m->cpu_model));
	json_object_object_add(o, "cpus", json_object_new_int64(m->cpus));
	json_object_object_add(o, "mem_total_kb", json_object_new_uint64(m->mem_total_kb));
	for (size_t i = 0; i < rep->ndevices; i++)
		json_object_array_add(devs, json_object_new_string(rep->devices[i]));
	json_object_object_add(o, "devices", devs);
	/* the bytes of the kB and MB of every key (rkB/s, read_MB): KiB and MiB, as the text
	 * says, and as the matrix and compare count them */
	json_object *units = json_object_new_object();
	json_object_object_add(units, "kB", json_object_new_int(1024));
	json_object_object_add(units, "MB", json_object_new_int(1048576));
	json_object_object_add(o, "units", units);
	return json_line(out, o);
}

int report_json(struct report *rep, FILE *out, struct error *err)
{
	if (json_machine(rep, out) < 0)
		return error_set(err, "write error");
	struct table t = { .rep = rep, .out = out, .event_row = json_event, .device_row = json_device,
			   .vm_row = json_vm, .phase_row = json_phase,
			   .totals_row = json_totals };
	return table_run(&t, err);
}
