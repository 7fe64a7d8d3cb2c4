/* output_csv.c - a header, then one row per device per interval; events as rows. */
#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "figures.h"
#include "output.h"

static const char *const vm_extra[] = { "dirty", "writeback", "psi_some_avg10", "psi_full_avg10",
					"psi_some_us", "psi_full_us" };
#define VM_EXTRA_COUNT (sizeof vm_extra / sizeof vm_extra[0])

void output_csv_header(FILE *out)
{
	fputs("time,interval,device", out);
	for (size_t i = 0; i < device_figures_count; i++)
		if (device_figures[i].batch)
			fprintf(out, ",%s", device_figures[i].key);
	fputs(",in_flight,scheduler", out);
	for (size_t i = 0; i < vm_metrics_count; i++)
		fprintf(out, ",%s", vm_metrics[i].name);
	for (size_t i = 0; i < VM_EXTRA_COUNT; i++)
		fprintf(out, ",%s", vm_extra[i]);
	fputs(",event\n", out);
}

static void vm_columns(FILE *out, const struct vm_rates *v)
{
	for (size_t i = 0; i < vm_metrics_count; i++) {
		if (v->valid)
			fprintf(out, ",%.3f", *(const double *)((const char *)v + vm_metrics[i].offset));
		else
			fputc(',', out);
	}
	fprintf(out, ",%.0f,%.0f", v->dirty, v->writeback);
	if (v->have_psi)
		fprintf(out, ",%.3f,%.3f", v->psi_some_avg10, v->psi_full_avg10);
	else
		fputs(",,", out);
	if (v->have_psi && v->valid)
		fprintf(out, ",%.0f,%.0f", v->psi_some_us, v->psi_full_us);
	else
		fputs(",,", out);
}

static void device_row(FILE *out, const char *stamp, const struct rates *rates, const struct device_rates *r)
{
	fprintf(out, "%s,", stamp);
	csv_put(out, r->name);
	for (size_t i = 0; i < device_figures_count; i++) {
		const struct device_figure *f = &device_figures[i];
		if (!f->batch)
			continue;
		if (device_figure_missing(r, f))
			fputc(',', out);
		else
			fprintf(out, ",%.3f", device_figure_value(r, f));
	}
	fprintf(out, ",%llu,", (unsigned long long)r->in_flight);
	csv_put(out, r->scheduler);
	vm_columns(out, &rates->vm);
	fputs(",\n", out);
}

static void event_row(FILE *out, const char *stamp, const struct event *ev)
{
	char label[MOUNT_OPTS_MAX + 64], resets[2048];
	event_label(ev, label, sizeof label);
	event_resets_text(ev, resets, sizeof resets);
	if (resets[0]) {
		size_t used = strlen(label);
		snprintf(label + used, sizeof label - used, " (resets %s)", resets);
	}
	fprintf(out, "%s,", stamp);
	csv_put(out, ev->object);
	size_t empty = device_figures_batch_count() + 2 + vm_metrics_count + VM_EXTRA_COUNT;
	for (size_t i = 0; i < empty; i++)
		fputc(',', out);
	fputc(',', out);
	csv_put(out, label);
	fputc('\n', out);
}

void output_csv(FILE *out, const struct interval_view *v)
{
	char stamp[96], interval[48] = "";
	if (rates_have_interval(v->rates))
		snprintf(interval, sizeof interval, "%.3f", v->rates->interval);
	snprintf(stamp, sizeof stamp, "%lld.%06ld,%s", (long long)v->rates->wall.tv_sec,
		 v->rates->wall.tv_nsec / 1000, interval);
	for (size_t i = 0; v->events && i < v->events->count; i++)
		event_row(out, stamp, &v->events->items[i]);
	for (size_t i = 0; i < v->rates->ndevices; i++)
		if (v->shown[i])
			device_row(out, stamp, v->rates, &v->rates->devices[i]);
}
