/* session_log_write.c - snapshots and events as session-log records.
 *
 * Counters are written as integers; the only doubles a snapshot holds (PSI avg10)
 * are written with the shortest text that reads back to the same double, so a
 * replayed snapshot is the recorded one, bit for bit (session_log_read.c).
 */
#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "session_log.h"


static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static void add_str(json_object *o, const char *key, const char *s)
{
	add(o, key, json_object_new_string(s));
}

/* The decimal point of the current locale is ',' in some: JSON needs '.'. */
static void swap_char(char *s, char from, char to)
{
	for (; *s; s++)
		if (*s == from)
			*s = to;
}

/* Shortest "%.*g" text that reads back as exactly v (finite v). */
static void exact_double_text(double v, char buf[40])
{
	char dp = localeconv()->decimal_point[0];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, 40, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	swap_char(buf, dp, '.');
}

static json_object *settings_object(const struct disk_settings *s)
{
	json_object *o = json_object_new_object();
	add(o, "present", json_object_new_boolean(s->has_settings));
	add_str(o, "scheduler_line", s->scheduler_line);
	add_str(o, "scheduler", s->scheduler);
	add(o, "rotational", json_object_new_int(s->rotational));
	json_object *items = json_object_new_object();
	for (size_t i = 0; i < s->nitems; i++)
		add_str(items, s->items[i].key, s->items[i].value);
	add(o, "items", items);
	return o;
}

/* A loop device's backing chain (docs/session-log.md, DEVICE). */
static json_object *loop_object(const struct loop_backing *l)
{
	json_object *o = json_object_new_object();
	add_str(o, "backing_file", l->file);
	add(o, "backing_major", json_object_new_int64(l->major));
	add(o, "backing_minor", json_object_new_int64(l->minor));
	add_str(o, "backing_disk", l->disk);
	add(o, "dio", l->dio < 0 ? NULL : json_object_new_boolean(l->dio));
	add(o, "offset", json_object_new_uint64(l->offset));
	add(o, "sizelimit", json_object_new_uint64(l->sizelimit));
	return o;
}

static json_object *device_identity(const struct device *d)
{
	json_object *o = json_object_new_object();
	add_str(o, "name", d->name);
	add(o, "major", json_object_new_int64(d->major));
	add(o, "minor", json_object_new_int64(d->minor));
	add(o, "partition", json_object_new_boolean(d->is_partition));
	add_str(o, "parent", d->parent);
	add_str(o, "dm_name", d->dm_name);
	add_str(o, "model", d->model);
	add_str(o, "serial", d->serial);
	add(o, "settings", settings_object(&d->settings));
	if (d->loop.present)
		add(o, "loop", loop_object(&d->loop));
	return o;
}

static json_object *device_list(const struct snapshot *snap)
{
	json_object *a = json_object_new_array_ext((int)snap->ndevices);
	for (size_t i = 0; i < snap->ndevices; i++)
		json_object_array_add(a, device_identity(&snap->devices[i]));
	return a;
}

static json_object *mount_object(const struct mount *m)
{
	json_object *o = json_object_new_object();
	add(o, "major", json_object_new_int64(m->major));
	add(o, "minor", json_object_new_int64(m->minor));
	add_str(o, "disk", m->disk);
	add_str(o, "source", m->source);
	add_str(o, "mountpoint", m->mountpoint);
	add_str(o, "fstype", m->fstype);
	add_str(o, "mount_opts", m->mount_opts);
	add_str(o, "super_opts", m->super_opts);
	return o;
}

static json_object *mount_list(const struct snapshot *snap)
{
	json_object *a = json_object_new_array_ext((int)snap->nmounts);
	for (size_t i = 0; i < snap->nmounts; i++)
		json_object_array_add(a, mount_object(&snap->mounts[i]));
	return a;
}

static json_object *record(enum session_record type)
{
	json_object *o = json_object_new_object();
	if (o)
		add_str(o, "type", session_record_name(type));
	return o;
}

json_object *session_log_header(const struct replay_machine *m, const struct snapshot *snap)
{
	json_object *o = record(RECORD_HEADER);
	if (!o)
		return NULL;
	add_str(o, "format", SESSION_LOG_FORMAT);
	add(o, "version", json_object_new_int(SESSION_LOG_VERSION));
	add_str(o, "ioscope", m->ioscope);
	add_str(o, "host", m->host);
	add_str(o, "kernel", m->kernel);
	add_str(o, "kernel_version", m->kernel_version);
	add_str(o, "arch", m->arch);
	add_str(o, "cpu_model", m->cpu_model);
	add(o, "cpus", json_object_new_int64(m->cpus));
	add(o, "mem_total_kb", json_object_new_uint64(m->mem_total_kb));
	add(o, "started", json_object_new_int64(timespec_to_ns(&snap->wall)));
	if (m->has_selection) {
		json_object *sel = json_object_new_array_ext((int)m->nselection);
		for (size_t i = 0; sel && i < m->nselection; i++)
			json_object_array_add(sel, json_object_new_string(m->selection[i]));
		add(o, "selection", sel);
	}
	add(o, "devices", device_list(snap));
	add(o, "mounts", mount_list(snap));
	return o;
}

json_object *session_log_devices(const struct snapshot *snap)
{
	json_object *o = record(RECORD_DEVICES);
	if (o)
		add(o, "devices", device_list(snap));
	return o;
}

json_object *session_log_mounts(const struct snapshot *snap)
{
	json_object *o = record(RECORD_MOUNTS);
	if (o)
		add(o, "mounts", mount_list(snap));
	return o;
}

/* ---- the sample record, written straight into a reused buffer (jsonw.h) ---- */

static void put_u64_array(struct jsonw *w, const void *base, const size_t *fields, size_t n)
{
	jsonw_array_begin(w);
	for (size_t i = 0; i < n; i++)
		jsonw_uint(w, *session_u64_at((void *)base, fields[i]));
	jsonw_array_end(w);
}

static void put_double(struct jsonw *w, double v)
{
	char buf[40];
	if (!isfinite(v)) {
		jsonw_null(w);
		return;
	}
	exact_double_text(v, buf);
	jsonw_number_text(w, buf);
}

/* Trailing zero counters are left out: a 14-field kernel's discard and flush slots,
 * and an idle device's. */
static void put_device(struct jsonw *w, const struct device *d)
{
	size_t n = SESSION_NCOUNTERS;
	while (n > 0 && *session_u64_at((void *)&d->counters, session_counter_fields[n - 1]) == 0)
		n--;
	jsonw_object_begin(w);
	jsonw_key(w, "name");
	jsonw_string(w, d->name);
	jsonw_key(w, "nf");
	jsonw_int(w, d->counters.nfields);
	jsonw_key(w, "c");
	put_u64_array(w, &d->counters, session_counter_fields, n);
	if (d->settings.inflight_read != -1 || d->settings.inflight_write != -1) {
		jsonw_key(w, "inflight");
		jsonw_array_begin(w);
		jsonw_int(w, d->settings.inflight_read);
		jsonw_int(w, d->settings.inflight_write);
		jsonw_array_end(w);
	}
	if (d->instance) {   /* a re-created disk: replays must not join its counters */
		jsonw_key(w, "inst");
		jsonw_int(w, d->instance);
	}
	jsonw_object_end(w);
}

static void put_vm(struct jsonw *w, const struct vm_counters *vm)
{
	jsonw_object_begin(w);
	for (size_t g = 0; g < SESSION_NVM_GROUPS; g++) {
		const struct session_u64_group *grp = &session_vm_groups[g];
		if (!*(const bool *)((const char *)vm + grp->flag))
			continue;
		jsonw_key(w, grp->key);
		put_u64_array(w, vm, grp->fields, grp->n);
	}
	if (vm->have_psi) {
		jsonw_key(w, "psi");
		jsonw_array_begin(w);
		put_double(w, vm->psi_some_avg10);
		put_double(w, vm->psi_full_avg10);
		jsonw_uint(w, vm->psi_some_total);
		jsonw_uint(w, vm->psi_full_total);
		jsonw_array_end(w);
	}
	jsonw_object_end(w);
}

/* type, seq, mono and wall lead, in this order: the index reads them without a
 * JSON parser (replay.c). */
int session_log_format_sample(const struct snapshot *snap, struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_key(w, "type");
	jsonw_string(w, "sample");
	jsonw_key(w, "seq");
	jsonw_uint(w, snap->seq);
	jsonw_key(w, "mono");
	jsonw_int(w, timespec_to_ns(&snap->mono));
	jsonw_key(w, "wall");
	jsonw_int(w, timespec_to_ns(&snap->wall));
	jsonw_key(w, "devices");
	jsonw_array_begin(w);
	for (size_t i = 0; i < snap->ndevices; i++)
		put_device(w, &snap->devices[i]);
	jsonw_array_end(w);
	jsonw_key(w, "vm");
	put_vm(w, &snap->vm);
	jsonw_object_end(w);
	jsonw_newline(w);
	return w->failed ? -1 : 0;
}

int session_log_format_probe(const struct snapshot *snap, struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_key(w, "type");
	jsonw_string(w, "probe");
	jsonw_key(w, "seq");
	jsonw_uint(w, snap->seq);
	probe_samples_put_json(w, snap->probe);
	jsonw_object_end(w);
	jsonw_newline(w);
	return w->failed ? -1 : 0;
}

static json_object *string_or_null(bool present, const char *value)
{
	return present ? json_object_new_string(value) : NULL;   /* NULL is JSON null */
}

/* {"nr_requests": ["64", "256"], "iosched.fifo_batch": ["16", null]}: null = absent */
json_object *session_log_resets(const struct event *ev)
{
	json_object *o = json_object_new_object();
	for (size_t i = 0; o && i < ev->nresets; i++) {
		const struct event_reset *r = &ev->resets[i];
		json_object *pair = json_object_new_array();
		if (!pair)
			break;
		json_object_array_add(pair, string_or_null(r->had_old, r->old_value));
		json_object_array_add(pair, string_or_null(r->has_new, r->new_value));
		json_object_object_add(o, r->key, pair);
	}
	return o;
}

json_object *session_log_event(const struct event *ev, uint64_t seq)
{
	json_object *o = record(RECORD_EVENT);
	if (!o)
		return NULL;
	add(o, "seq", json_object_new_uint64(seq));
	add(o, "mono", json_object_new_int64(timespec_to_ns(&ev->mono)));
	add(o, "wall", json_object_new_int64(timespec_to_ns(&ev->wall)));
	add_str(o, "kind", event_kind_name(ev->kind));
	add_str(o, "object", ev->object);
	add_str(o, "key", ev->key);
	add_str(o, "old", ev->old_value);
	add_str(o, "new", ev->new_value);
	add_str(o, "result", ev->result);
	add_str(o, "by", ev->by);
	if (ev->number)   /* the session's count (struct event): an older reader skips it */
		add(o, "n", json_object_new_uint64(ev->number));
	if (ev->scope[0])   /* only where there is one: an older reader skips it */
		add_str(o, "scope", ev->scope);
	if (ev->kind == EVENT_SCHEDULER || ev->nresets)   /* a change's side effects too */
		add(o, "resets", session_log_resets(ev));
	if (ev->resets_dropped)
		add(o, "resets_more", json_object_new_uint64(ev->resets_dropped));
	if (ev->kind == EVENT_DIP) {
		json_object *a = json_object_new_array();
		char reason[EVENT_REASONS_MAX];
		for (size_t i = 0; a && event_reason(ev, i, reason, sizeof reason); i++)
			json_object_array_add(a, json_object_new_string(reason));
		add(o, "reasons", a);
	}
	return o;
}

json_object *session_log_announced(const struct event *ev, uint64_t seq, bool withdrawn)
{
	json_object *o = session_log_event(ev, seq);
	if (!o)
		return NULL;
	/* the event's body under a type of its own: a reader that does not know it skips it,
	 * where a flag on an event record would have been read as the change made */
	add_str(o, "type", session_record_name(RECORD_ANNOUNCED));
	if (withdrawn)
		add(o, "withdrawn", json_object_new_boolean(1));
	return o;
}

/* ---- comparing what state records hold ---- */

static bool loop_backing_equal(const struct loop_backing *a, const struct loop_backing *b)
{
	if (!a->present || !b->present)
		return a->present == b->present;
	return strcmp(a->file, b->file) == 0 && a->major == b->major && a->minor == b->minor &&
	       strcmp(a->disk, b->disk) == 0 && a->dio == b->dio && a->offset == b->offset &&
	       a->sizelimit == b->sizelimit;
}

static bool device_identity_equal(const struct device *a, const struct device *b)
{
	return a->major == b->major && a->minor == b->minor && a->is_partition == b->is_partition &&
	       strcmp(a->name, b->name) == 0 && strcmp(a->parent, b->parent) == 0 &&
	       strcmp(a->dm_name, b->dm_name) == 0 && strcmp(a->model, b->model) == 0 &&
	       strcmp(a->serial, b->serial) == 0 && loop_backing_equal(&a->loop, &b->loop) &&
	       disk_settings_equal(&a->settings, &b->settings);
}

bool session_devices_equal(const struct snapshot *a, const struct snapshot *b)
{
	if (a->ndevices != b->ndevices)
		return false;
	for (size_t i = 0; i < a->ndevices; i++)
		if (!device_identity_equal(&a->devices[i], &b->devices[i]))
			return false;
	return true;
}

static bool mount_equal(const struct mount *a, const struct mount *b)
{
	return a->major == b->major && a->minor == b->minor && strcmp(a->disk, b->disk) == 0 &&
	       strcmp(a->source, b->source) == 0 && strcmp(a->mountpoint, b->mountpoint) == 0 &&
	       strcmp(a->fstype, b->fstype) == 0 && strcmp(a->mount_opts, b->mount_opts) == 0 &&
	       strcmp(a->super_opts, b->super_opts) == 0;
}

bool session_mounts_equal(const struct snapshot *a, const struct snapshot *b)
{
	if (a->nmounts != b->nmounts)
		return false;
	for (size_t i = 0; i < a->nmounts; i++)
		if (!mount_equal(&a->mounts[i], &b->mounts[i]))
			return false;
	return true;
}
