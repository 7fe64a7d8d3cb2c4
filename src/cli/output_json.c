/* output_json.c - one JSON object per interval (JSON Lines). */
#include <stdio.h>

#include "figures.h"
#include "jsonw.h"
#include "output.h"
#include "output_tasks.h"
#include "why.h"
#include "probe.h"

/* Three decimals: finer than iostat's two, and no float noise in the output. */
#define DECIMALS 3

static void number(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	jsonw_fixed(w, v, DECIMALS);
}

static void maybe(struct jsonw *w, const char *key, bool present, double v)
{
	jsonw_key(w, key);
	if (present)
		jsonw_fixed(w, v, DECIMALS);
	else
		jsonw_null(w);
}

static void time_value(struct jsonw *w, const char *key, const struct timespec *t)
{
	char buf[48];
	snprintf(buf, sizeof buf, "%lld.%06ld", (long long)t->tv_sec, t->tv_nsec / 1000);
	jsonw_key(w, key);
	jsonw_number_text(w, buf);
}

/* "settings": {KEY: VALUE, ...}: every setting of a whole disk as the kernel printed it
 * (docs/sources.md), null for a partition or a disk without any. */
static void settings_object(struct jsonw *w, const struct device *d)
{
	jsonw_key(w, "settings");
	if (!d->settings.has_settings) {
		jsonw_null(w);
		return;
	}
	jsonw_object_begin(w);
	for (size_t i = 0; i < d->settings.nitems; i++) {
		jsonw_key(w, d->settings.items[i].key);
		jsonw_string(w, d->settings.items[i].value);
	}
	jsonw_object_end(w);
}

static void device_object(struct jsonw *w, const struct device_rates *r,
			  const struct interval_view *v, size_t index)
{
	jsonw_key(w, r->name);
	jsonw_object_begin(w);
	for (size_t i = 0; i < device_figures_count; i++) {
		const struct device_figure *f = &device_figures[i];
		if (f->batch)
			maybe(w, f->key, !device_figure_missing(r, f), device_figure_value(r, f));
	}
	jsonw_key(w, "in_flight");
	jsonw_uint(w, r->in_flight);
	jsonw_key(w, "scheduler");
	if (r->scheduler[0])
		jsonw_string(w, r->scheduler);
	else
		jsonw_null(w);
	if (index < v->snap->ndevices) {
		settings_object(w, &v->snap->devices[index]);
		output_json_trace(w, v->snap, &v->snap->devices[index], v->rates->interval);
	}
	jsonw_object_end(w);
}

static void vm_object(struct jsonw *w, const struct vm_rates *v, const struct why_rates *y)
{
	bool dirty = y && y->have_dirty, rates = y && y->have_dirty_rates;
	jsonw_key(w, "vm");
	jsonw_object_begin(w);
	for (size_t i = 0; i < vm_metrics_count; i++)
		maybe(w, vm_metrics[i].name, v->valid, *(const double *)((const char *)v + vm_metrics[i].offset));
	number(w, "dirty", v->dirty);
	number(w, "writeback", v->writeback);
	maybe(w, "dirty_threshold", dirty, dirty ? y->threshold_kb : 0);
	maybe(w, "dirty_background_threshold", dirty, dirty ? y->background_kb : 0);
	maybe(w, "dirty_freerun", dirty, dirty ? y->freerun_kb : 0);
	maybe(w, "dirtied", rates, rates ? y->dirtied_kBs : 0);
	maybe(w, "written", rates, rates ? y->written_kBs : 0);
	jsonw_object_end(w);
}

static void psi_object(struct jsonw *w, const struct vm_rates *v)
{
	jsonw_key(w, "psi_io");
	if (!v->have_psi) {
		jsonw_null(w);
		return;
	}
	jsonw_object_begin(w);
	number(w, "some_avg10", v->psi_some_avg10);
	number(w, "full_avg10", v->psi_full_avg10);
	maybe(w, "some_us", v->valid, v->psi_some_us);
	maybe(w, "full_us", v->valid, v->psi_full_us);
	jsonw_object_end(w);
}

static void string(struct jsonw *w, const char *key, const char *value)
{
	jsonw_key(w, key);
	jsonw_string(w, value);
}

/* {MOUNTPOINT: {"fs", "device", and the figures of that filesystem, null when missing}} */
static void journals_object(struct jsonw *w, const struct why_rates *y)
{
	jsonw_key(w, "journals");
	jsonw_object_begin(w);
	for (size_t i = 0; y && i < y->njournals; i++) {
		const struct journal_rates *j = &y->journals[i];
		jsonw_key(w, j->mountpoint);
		jsonw_object_begin(w);
		string(w, "fs", journal_fs_defs[j->fs].fstype);
		string(w, "device", j->device);
		for (int f = 0; f < JF_COUNT; f++)
			if (journal_figures[f].json && (journal_figures[f].fs & (1u << j->fs)))
				maybe(w, journal_figures[f].key, j->present & (1u << f), j->f[f]);
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
}

/* {PATH: {"version", "limit_kB", ..., "limit_of", "failcnt/s", ..., "blocked", "comms"}}:
 * the memory cgroups of the blocked user tasks (--tasks), a figure null when not read */
static void memcgs_object(struct jsonw *w, const struct why_rates *y)
{
	static const char *const size_keys[] = {
		[MEMCG_LIMIT] = "limit_kB", [MEMCG_USAGE] = "usage_kB", [MEMCG_DIRTY] = "dirty_kB",
		[MEMCG_WRITEBACK] = "writeback_kB",
	};
	static const char *const rate_keys[MEMCG_FIELDS] = {
		[MEMCG_FAILCNT] = "failcnt/s", [MEMCG_PGSCAN] = "pgscan/s", [MEMCG_HIGH] = "high/s",
		[MEMCG_MAX] = "max/s",
	};
	jsonw_key(w, "memory_cgroups");
	jsonw_object_begin(w);
	for (size_t i = 0; y && i < y->nmemcgs; i++) {
		const struct memcg_rates *m = &y->memcgs[i];
		jsonw_key(w, m->path);
		jsonw_object_begin(w);
		number(w, "version", m->version);
		for (int f = MEMCG_LIMIT; f <= MEMCG_WRITEBACK; f++)
			maybe(w, size_keys[f], m->present & (1u << f), m->v[f]);
		jsonw_key(w, "limit_of");   /* the ancestor whose limit it is; null: its own */
		if (m->limit_of[0])
			jsonw_string(w, m->limit_of);
		else
			jsonw_null(w);
		for (int f = MEMCG_FAILCNT; f < MEMCG_FIELDS; f++)
			maybe(w, rate_keys[f], m->rated & (1u << f), m->per_s[f]);
		number(w, "blocked", m->blocked);
		string(w, "comms", m->comms);
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
}

/* {"io": STATE, "groups": {PATH: {"pressure_some_avg10", "pressure_full_avg10",
 * "devices": {"MAJ:MIN": {"rkB/s", "wkB/s", "r/s", "w/s"}}}}} */
static void cgroup_object(struct jsonw *w, const struct cgroup_io_rates *c)
{
	jsonw_key(w, c->path);
	jsonw_object_begin(w);
	maybe(w, "pressure_some_avg10", c->have_pressure, c->some_avg10);
	maybe(w, "pressure_full_avg10", c->have_pressure, c->full_avg10);
	jsonw_key(w, "devices");
	jsonw_object_begin(w);
	for (size_t d = 0; d < c->ndevs; d++) {
		char key[32];
		snprintf(key, sizeof key, "%u:%u", c->devs[d].major, c->devs[d].minor);
		jsonw_key(w, key);
		jsonw_object_begin(w);
		number(w, "rkB/s", c->devs[d].rkB_s);
		number(w, "wkB/s", c->devs[d].wkB_s);
		number(w, "r/s", c->devs[d].r_s);
		number(w, "w/s", c->devs[d].w_s);
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
	jsonw_object_end(w);
}

static void cgroups_object(struct jsonw *w, const struct why_rates *y)
{
	jsonw_key(w, "cgroups");
	if (!y || y->cgroup_state == CGROUP_IO_UNKNOWN) {
		jsonw_null(w);
		return;
	}
	jsonw_object_begin(w);
	string(w, "io", cgroup_io_state_names[y->cgroup_state]);
	jsonw_key(w, "groups");
	jsonw_object_begin(w);
	for (size_t i = 0; i < y->ncgroups; i++)
		cgroup_object(w, &y->cgroups[i]);
	jsonw_object_end(w);
	jsonw_object_end(w);
}

static void string_or_null(struct jsonw *w, bool present, const char *value)
{
	if (present)
		jsonw_string(w, value);
	else
		jsonw_null(w);
}

/* "resets": {"nr_requests": ["64", "256"], "iosched.fifo_batch": ["16", null]} */
static void resets_object(struct jsonw *w, const struct event *ev)
{
	jsonw_key(w, "resets");
	jsonw_object_begin(w);
	for (size_t i = 0; i < ev->nresets; i++) {
		const struct event_reset *r = &ev->resets[i];
		jsonw_key(w, r->key);
		jsonw_array_begin(w);
		string_or_null(w, r->had_old, r->old_value);
		string_or_null(w, r->has_new, r->new_value);
		jsonw_array_end(w);
	}
	jsonw_object_end(w);
	if (ev->resets_dropped) {
		jsonw_key(w, "resets_more");
		jsonw_uint(w, ev->resets_dropped);
	}
}

static void event_object(struct jsonw *w, const struct event *ev)
{
	char label[MOUNT_OPTS_MAX + 64];
	event_label(ev, label, sizeof label);
	jsonw_object_begin(w);
	time_value(w, "time", &ev->wall);
	string(w, "kind", event_kind_name(ev->kind));
	string(w, "object", ev->object);
	string(w, "key", ev->key);
	string(w, "old", ev->old_value);
	string(w, "new", ev->new_value);
	string(w, "label", label);
	string(w, "by", ev->by);
	if (ev->number) {   /* the mark's number: the log's, the console's, a report's */
		jsonw_key(w, "n");
		jsonw_uint(w, ev->number);
	}
	if (ev->result[0])
		string(w, "result", ev->result);
	if (ev->scope[0])
		string(w, "scope", ev->scope);
	if (ev->kind == EVENT_SCHEDULER || ev->nresets)   /* a change's side effects too */
		resets_object(w, ev);
	if (ev->kind == EVENT_DIP) {
		char reason[EVENT_REASONS_MAX];
		jsonw_key(w, "reasons");
		jsonw_array_begin(w);
		for (size_t i = 0; event_reason(ev, i, reason, sizeof reason); i++)
			jsonw_string(w, reason);
		jsonw_array_end(w);
	}
	jsonw_object_end(w);
}

int output_json(FILE *out, struct jsonw *w, const struct interval_view *v)
{
	jsonw_reset(w);
	jsonw_object_begin(w);
	time_value(w, "time", &v->rates->wall);
	maybe(w, "interval", rates_have_interval(v->rates), v->rates->interval);
	jsonw_key(w, "devices");
	jsonw_object_begin(w);
	for (size_t i = 0; i < v->rates->ndevices; i++)
		if (v->shown[i])
			device_object(w, &v->rates->devices[i], v, i);
	jsonw_object_end(w);
	vm_object(w, &v->rates->vm, v->why);
	psi_object(w, &v->rates->vm);
	if (v->with_tasks)
		output_json_tasks(w, v->snap);
	if (v->with_tasks)
		memcgs_object(w, v->why);
	journals_object(w, v->why);
	cgroups_object(w, v->why);
	jsonw_key(w, "events");
	jsonw_array_begin(w);
	for (size_t i = 0; v->events && i < v->events->count; i++)
		event_object(w, &v->events->items[i]);
	jsonw_array_end(w);
	if (v->snap->probe) {
		jsonw_key(w, "probe");
		jsonw_object_begin(w);
		probe_samples_put_json(w, v->snap->probe);
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
	jsonw_newline(w);
	if (w->failed)
		return -1;
	return fwrite(w->buf, 1, w->len, out) == w->len ? 0 : -1;
}
