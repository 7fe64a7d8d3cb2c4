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

/* ---- the sample record, formatted directly ---- */

struct line {
	char *buf;
	size_t cap, len;   /* len counts what did not fit too */
};

static void put_bytes(struct line *l, const char *s, size_t n)
{
	if (l->len < l->cap)
		memcpy(l->buf + l->len, s, l->len + n <= l->cap ? n : l->cap - l->len);
	l->len += n;
}

static void put(struct line *l, const char *s)
{
	put_bytes(l, s, strlen(s));
}

static void put_u64(struct line *l, uint64_t v)
{
	char digits[24], *p = digits + sizeof digits;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	put_bytes(l, p, (size_t)(digits + sizeof digits - p));
}

static void put_i64(struct line *l, int64_t v)
{
	if (v < 0) {
		put(l, "-");
		put_u64(l, (uint64_t)0 - (uint64_t)v);
		return;
	}
	put_u64(l, (uint64_t)v);
}

/* A JSON string: quotes, backslashes and control characters escaped, other bytes
 * as they are (the reader takes what json-c takes). */
static void put_string(struct line *l, const char *s)
{
	put(l, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8];
		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put_bytes(l, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof esc, "\\u%04x", c);
			put(l, esc);
		} else {
			put_bytes(l, (const char *)&c, 1);
		}
	}
	put(l, "\"");
}

static void put_u64_array(struct line *l, const void *base, const size_t *fields, size_t n)
{
	put(l, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			put(l, ",");
		put_u64(l, *session_u64_at((void *)base, fields[i]));
	}
	put(l, "]");
}

static void put_double(struct line *l, double v)
{
	char buf[40] = "null";
	if (isfinite(v))
		exact_double_text(v, buf);
	put(l, buf);
}

/* Trailing zero counters are left out: a 14-field kernel's discard and flush slots,
 * and an idle device's. */
static void put_device(struct line *l, const struct device *d)
{
	size_t n = SESSION_NCOUNTERS;
	while (n > 0 && *session_u64_at((void *)&d->counters, session_counter_fields[n - 1]) == 0)
		n--;
	put(l, "{\"name\":");
	put_string(l, d->name);
	put(l, ",\"nf\":");
	put_i64(l, d->counters.nfields);
	put(l, ",\"c\":");
	put_u64_array(l, &d->counters, session_counter_fields, n);
	if (d->settings.inflight_read != -1 || d->settings.inflight_write != -1) {
		put(l, ",\"inflight\":[");
		put_i64(l, d->settings.inflight_read);
		put(l, ",");
		put_i64(l, d->settings.inflight_write);
		put(l, "]");
	}
	put(l, "}");
}

static void put_vm(struct line *l, const struct vm_counters *vm)
{
	const char *sep = "";
	put(l, "{");
	for (size_t g = 0; g < SESSION_NVM_GROUPS; g++) {
		const struct session_u64_group *grp = &session_vm_groups[g];
		if (!*(const bool *)((const char *)vm + grp->flag))
			continue;
		put(l, sep);
		put_string(l, grp->key);
		put(l, ":");
		put_u64_array(l, vm, grp->fields, grp->n);
		sep = ",";
	}
	if (vm->have_psi) {
		put(l, sep);
		put(l, "\"psi\":[");
		put_double(l, vm->psi_some_avg10);
		put(l, ",");
		put_double(l, vm->psi_full_avg10);
		put(l, ",");
		put_u64(l, vm->psi_some_total);
		put(l, ",");
		put_u64(l, vm->psi_full_total);
		put(l, "]");
	}
	put(l, "}");
}

/* type, seq, mono and wall lead, in this order: the index reads them without a
 * JSON parser (replay.c). */
size_t session_log_format_sample(const struct snapshot *snap, char *buf, size_t cap)
{
	struct line l = { buf, cap, 0 };
	put(&l, "{\"type\":\"sample\",\"seq\":");
	put_u64(&l, snap->seq);
	put(&l, ",\"mono\":");
	put_i64(&l, timespec_to_ns(&snap->mono));
	put(&l, ",\"wall\":");
	put_i64(&l, timespec_to_ns(&snap->wall));
	put(&l, ",\"devices\":[");
	for (size_t i = 0; i < snap->ndevices; i++) {
		if (i)
			put(&l, ",");
		put_device(&l, &snap->devices[i]);
	}
	put(&l, "],\"vm\":");
	put_vm(&l, &snap->vm);
	put(&l, "}\n");
	if (l.len < cap)
		buf[l.len] = '\0';
	return l.len;
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
	return o;
}

/* ---- comparing what state records hold ---- */

static bool settings_equal(const struct disk_settings *a, const struct disk_settings *b)
{
	if (a->has_settings != b->has_settings || a->rotational != b->rotational ||
	    a->nitems != b->nitems || strcmp(a->scheduler, b->scheduler) != 0 ||
	    strcmp(a->scheduler_line, b->scheduler_line) != 0)
		return false;
	for (size_t i = 0; i < a->nitems; i++)
		if (strcmp(a->items[i].key, b->items[i].key) != 0 ||
		    strcmp(a->items[i].value, b->items[i].value) != 0)
			return false;
	return true;
}

static bool device_identity_equal(const struct device *a, const struct device *b)
{
	return a->major == b->major && a->minor == b->minor && a->is_partition == b->is_partition &&
	       strcmp(a->name, b->name) == 0 && strcmp(a->parent, b->parent) == 0 &&
	       strcmp(a->dm_name, b->dm_name) == 0 && strcmp(a->model, b->model) == 0 &&
	       strcmp(a->serial, b->serial) == 0 && settings_equal(&a->settings, &b->settings);
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
