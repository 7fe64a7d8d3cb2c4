/* session_log.c - session-log records <-> snapshots, exactly (docs/session-log.md).
 *
 * Counters are written as integers and read back as integers; the only doubles a
 * snapshot holds (PSI avg10) are written with the shortest text that reads back to
 * the same double.  So a replayed snapshot is the recorded one, bit for bit.
 */
#include <locale.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_log.h"

static const char *const record_names[] = {
	[RECORD_HEADER] = "header", [RECORD_DEVICES] = "devices", [RECORD_MOUNTS] = "mounts",
	[RECORD_SAMPLE] = "sample", [RECORD_EVENT] = "event",   [RECORD_UNKNOWN] = "unknown",
};

const char *session_record_name(enum session_record type)
{
	return (unsigned)type <= RECORD_UNKNOWN ? record_names[type] : "unknown";
}

int session_record_type(json_object *o)
{
	json_object *t;
	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "type", &t) ||
	    !json_object_is_type(t, json_type_string))
		return -1;
	const char *name = json_object_get_string(t);
	for (int i = 0; i < RECORD_UNKNOWN; i++)
		if (strcmp(name, record_names[i]) == 0)
			return i;
	return RECORD_UNKNOWN;
}

int64_t timespec_to_ns(const struct timespec *t)
{
	const int64_t limit = INT64_MAX / 1000000000 - 1;
	int64_t sec = t->tv_sec > limit ? limit : t->tv_sec < -limit ? -limit : t->tv_sec;
	return sec * 1000000000 + t->tv_nsec;
}

struct timespec ns_to_timespec(int64_t ns)
{
	int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
	if (nsec < 0) {
		nsec += 1000000000;
		sec--;
	}
	return (struct timespec){ .tv_sec = (time_t)sec, .tv_nsec = (long)nsec };
}

/* ---- the field orders of the arrays in a sample record ---- */

#define C(f) offsetof(struct disk_counters, f)
/* /proc/diskstats order, from field 4 on. */
static const size_t counter_fields[] = {
	C(rd_ios), C(rd_merges), C(rd_sectors), C(rd_ticks), C(wr_ios), C(wr_merges), C(wr_sectors),
	C(wr_ticks), C(in_flight), C(io_ticks), C(time_in_queue), C(dc_ios), C(dc_merges),
	C(dc_sectors), C(dc_ticks), C(fl_ios), C(fl_ticks),
};
#define NCOUNTERS (sizeof counter_fields / sizeof counter_fields[0])

#define V(f) offsetof(struct vm_counters, f)
static const size_t stat_fields[] = {
	V(cpu_user), V(cpu_nice), V(cpu_system), V(cpu_idle), V(cpu_iowait), V(cpu_irq),
	V(cpu_softirq), V(cpu_steal), V(cpu_guest), V(cpu_guest_nice), V(intr), V(ctxt),
	V(procs_running), V(procs_blocked),
};
static const size_t vmstat_fields[] = { V(pgpgin), V(pgpgout), V(pswpin), V(pswpout) };
static const size_t meminfo_fields[] = {
	V(mem_free), V(buffers), V(cached), V(sreclaimable), V(swap_total), V(swap_free), V(dirty),
	V(writeback),
};

struct u64_group {
	const char *key;
	size_t flag;            /* offset of the have_* bool */
	const size_t *fields;
	size_t n;
};
static const struct u64_group vm_groups[] = {
	{ "stat", V(have_stat), stat_fields, sizeof stat_fields / sizeof stat_fields[0] },
	{ "vmstat", V(have_vmstat), vmstat_fields, sizeof vmstat_fields / sizeof vmstat_fields[0] },
	{ "meminfo", V(have_meminfo), meminfo_fields, sizeof meminfo_fields / sizeof meminfo_fields[0] },
};

static uint64_t *u64_at(void *base, size_t offset)
{
	return (uint64_t *)((char *)base + offset);
}

/* ---- writing ---- */

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

/* Shortest "%.*g" text that reads back as exactly v. */
static json_object *exact_double(double v)
{
	if (!isfinite(v))
		return NULL;
	char dp = localeconv()->decimal_point[0];
	char buf[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	swap_char(buf, dp, '.');
	return json_object_new_double_s(v, buf);
}

static json_object *u64_array(const void *base, const size_t *fields, size_t n)
{
	json_object *a = json_object_new_array_ext((int)n);
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_uint64(*u64_at((void *)base, fields[i])));
	return a;
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
		add_str(o, "type", record_names[type]);
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

/* Trailing zero counters are left out: a 14-field kernel's discard and flush slots,
 * and an idle device's. */
static json_object *counter_array(const struct disk_counters *c)
{
	size_t n = NCOUNTERS;
	while (n > 0 && *u64_at((void *)c, counter_fields[n - 1]) == 0)
		n--;
	return u64_array(c, counter_fields, n);
}

static json_object *sample_device(const struct device *d)
{
	json_object *o = json_object_new_object();
	add_str(o, "name", d->name);
	add(o, "nf", json_object_new_int(d->counters.nfields));
	add(o, "c", counter_array(&d->counters));
	if (d->settings.inflight_read != -1 || d->settings.inflight_write != -1) {
		json_object *a = json_object_new_array_ext(2);
		json_object_array_add(a, json_object_new_int64(d->settings.inflight_read));
		json_object_array_add(a, json_object_new_int64(d->settings.inflight_write));
		add(o, "inflight", a);
	}
	return o;
}

static json_object *vm_object(const struct vm_counters *vm)
{
	json_object *o = json_object_new_object();
	for (size_t g = 0; g < sizeof vm_groups / sizeof vm_groups[0]; g++)
		if (*(const bool *)((const char *)vm + vm_groups[g].flag))
			add(o, vm_groups[g].key, u64_array(vm, vm_groups[g].fields, vm_groups[g].n));
	if (vm->have_psi) {
		json_object *a = json_object_new_array_ext(4);
		json_object_array_add(a, exact_double(vm->psi_some_avg10));
		json_object_array_add(a, exact_double(vm->psi_full_avg10));
		json_object_array_add(a, json_object_new_uint64(vm->psi_some_total));
		json_object_array_add(a, json_object_new_uint64(vm->psi_full_total));
		add(o, "psi", a);
	}
	return o;
}

/* type, seq, mono and wall lead, in this order: the index reads them without a
 * JSON parser (replay.c). */
json_object *session_log_sample(const struct snapshot *snap)
{
	json_object *o = record(RECORD_SAMPLE);
	if (!o)
		return NULL;
	add(o, "seq", json_object_new_uint64(snap->seq));
	add(o, "mono", json_object_new_int64(timespec_to_ns(&snap->mono)));
	add(o, "wall", json_object_new_int64(timespec_to_ns(&snap->wall)));
	json_object *devs = json_object_new_array_ext((int)snap->ndevices);
	for (size_t i = 0; i < snap->ndevices; i++)
		json_object_array_add(devs, sample_device(&snap->devices[i]));
	add(o, "devices", devs);
	add(o, "vm", vm_object(&snap->vm));
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

/* ---- reading ---- */

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	if (json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

static bool get_u64(json_object *v, uint64_t *out)
{
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
}

static bool get_i64(json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

/* Optional members: absent leaves *out alone; present with the wrong type is an error. */
static int opt_str(json_object *o, const char *key, char *out, size_t len, struct error *err)
{
	json_object *v = member(o, key);
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return error_set(err, "\"%s\" is not a string", key);
	snprintf(out, len, "%s", json_object_get_string(v));
	return 0;
}

static int opt_i64(json_object *o, const char *key, int64_t *out, struct error *err)
{
	json_object *v = member(o, key);
	if (v && !get_i64(v, out))
		return error_set(err, "\"%s\" is not an integer", key);
	return 0;
}

static int opt_bool(json_object *o, const char *key, bool *out, struct error *err)
{
	json_object *v = member(o, key);
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return error_set(err, "\"%s\" is not true or false", key);
	*out = json_object_get_boolean(v);
	return 0;
}

static int opt_unsigned(json_object *o, const char *key, unsigned *out, struct error *err)
{
	int64_t v = *out;
	if (opt_i64(o, key, &v, err) < 0)
		return -1;
	if (v < 0 || v > UINT32_MAX)
		return error_set(err, "\"%s\" is out of range", key);
	*out = (unsigned)v;
	return 0;
}

static json_object *need_array(json_object *o, const char *key, struct error *err)
{
	json_object *v = member(o, key);
	if (!json_object_is_type(v, json_type_array)) {
		error_set(err, "\"%s\" is %s", key, v ? "not an array" : "missing");
		return NULL;
	}
	return v;
}

static int read_u64_array(json_object *a, void *base, const size_t *fields, size_t n,
			  const char *what, struct error *err)
{
	size_t len = json_object_array_length(a);
	if (len > n)
		return error_set(err, "\"%s\" has %zu values, at most %zu expected", what, len, n);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0;
		if (i < len && !get_u64(json_object_array_get_idx(a, i), &v))
			return error_set(err, "\"%s\"[%zu] is not a counter", what, i);
		*u64_at(base, fields[i]) = v;
	}
	return 0;
}

static int parse_items(json_object *items, struct device *d, struct error *err)
{
	if (!items)
		return device_set_settings(d, NULL, 0);
	if (!json_object_is_type(items, json_type_object))
		return error_set(err, "\"items\" is not an object");
	size_t n = (size_t)json_object_object_length(items), i = 0;
	struct setting *v = n ? calloc(n, sizeof *v) : NULL;
	if (n && !v)
		return error_set(err, "out of memory");
	json_object_object_foreach(items, key, val) {
		if (i == n)
			break;
		if (!json_object_is_type(val, json_type_string)) {
			free(v);
			return error_set(err, "setting \"%s\" is not a string", key);
		}
		snprintf(v[i].key, sizeof v[i].key, "%s", key);
		snprintf(v[i].value, sizeof v[i].value, "%s", json_object_get_string(val));
		i++;
	}
	free(d->settings.items);
	d->settings.items = v;
	d->settings.nitems = i;
	return 0;
}

static int parse_settings(json_object *o, struct device *d, struct error *err)
{
	struct disk_settings *s = &d->settings;
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "\"settings\" is not an object");
	int64_t rot = s->rotational;
	if (opt_bool(o, "present", &s->has_settings, err) < 0 ||
	    opt_str(o, "scheduler_line", s->scheduler_line, sizeof s->scheduler_line, err) < 0 ||
	    opt_str(o, "scheduler", s->scheduler, sizeof s->scheduler, err) < 0 ||
	    opt_i64(o, "rotational", &rot, err) < 0)
		return -1;
	if (rot < INT32_MIN || rot > INT32_MAX)
		return error_set(err, "\"rotational\" is out of range");
	s->rotational = (int)rot;
	return parse_items(member(o, "items"), d, err);
}

static int parse_device_identity(json_object *o, struct device *d, struct error *err)
{
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "a device is not an object");
	if (!json_object_is_type(member(o, "name"), json_type_string))
		return error_set(err, "a device has no \"name\"");
	if (opt_str(o, "name", d->name, sizeof d->name, err) < 0 ||
	    opt_unsigned(o, "major", &d->major, err) < 0 ||
	    opt_unsigned(o, "minor", &d->minor, err) < 0 ||
	    opt_bool(o, "partition", &d->is_partition, err) < 0 ||
	    opt_str(o, "parent", d->parent, sizeof d->parent, err) < 0 ||
	    opt_str(o, "dm_name", d->dm_name, sizeof d->dm_name, err) < 0 ||
	    opt_str(o, "model", d->model, sizeof d->model, err) < 0 ||
	    opt_str(o, "serial", d->serial, sizeof d->serial, err) < 0)
		return -1;
	return parse_settings(member(o, "settings"), d, err);
}

static void free_devices(struct snapshot *s)
{
	for (size_t i = 0; i < s->ndevices; i++)
		free(s->devices[i].settings.items);
	free(s->devices);
	s->devices = NULL;
	s->ndevices = 0;
}

static int parse_device_list(json_object *a, struct snapshot *state, struct error *err)
{
	struct snapshot tmp;
	snapshot_init(&tmp);
	size_t n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		struct device *d = snapshot_add_device(&tmp);
		if (!d) {
			free_devices(&tmp);
			return error_set(err, "out of memory");
		}
		if (parse_device_identity(json_object_array_get_idx(a, i), d, err) < 0) {
			free_devices(&tmp);
			return -1;
		}
	}
	free_devices(state);
	state->devices = tmp.devices;
	state->ndevices = tmp.ndevices;
	return 0;
}

static int parse_mount(json_object *o, struct mount *m, struct error *err)
{
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "a mount is not an object");
	if (opt_unsigned(o, "major", &m->major, err) < 0 ||
	    opt_unsigned(o, "minor", &m->minor, err) < 0 ||
	    opt_str(o, "disk", m->disk, sizeof m->disk, err) < 0 ||
	    opt_str(o, "source", m->source, sizeof m->source, err) < 0 ||
	    opt_str(o, "mountpoint", m->mountpoint, sizeof m->mountpoint, err) < 0 ||
	    opt_str(o, "fstype", m->fstype, sizeof m->fstype, err) < 0 ||
	    opt_str(o, "mount_opts", m->mount_opts, sizeof m->mount_opts, err) < 0 ||
	    opt_str(o, "super_opts", m->super_opts, sizeof m->super_opts, err) < 0)
		return -1;
	return 0;
}

static int parse_mount_list(json_object *a, struct snapshot *state, struct error *err)
{
	struct snapshot tmp;
	snapshot_init(&tmp);
	size_t n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		struct mount *m = snapshot_add_mount(&tmp);
		if (!m || parse_mount(json_object_array_get_idx(a, i), m, err) < 0) {
			free(tmp.mounts);
			return m ? -1 : error_set(err, "out of memory");
		}
	}
	free(state->mounts);
	state->mounts = tmp.mounts;
	state->nmounts = tmp.nmounts;
	return 0;
}

static int machine_strings(json_object *o, struct replay_machine *m, struct error *err)
{
	return opt_str(o, "ioscope", m->ioscope, sizeof m->ioscope, err) < 0 ||
	       opt_str(o, "host", m->host, sizeof m->host, err) < 0 ||
	       opt_str(o, "kernel", m->kernel, sizeof m->kernel, err) < 0 ||
	       opt_str(o, "kernel_version", m->kernel_version, sizeof m->kernel_version, err) < 0 ||
	       opt_str(o, "arch", m->arch, sizeof m->arch, err) < 0 ||
	       opt_str(o, "cpu_model", m->cpu_model, sizeof m->cpu_model, err) < 0 ? -1 : 0;
}

int session_log_parse_header(json_object *o, struct replay_machine *m, struct snapshot *state,
			     struct error *err)
{
	json_object *fmt = member(o, "format"), *ver = member(o, "version");
	if (session_record_type(o) != RECORD_HEADER || !json_object_is_type(fmt, json_type_string) ||
	    strcmp(json_object_get_string(fmt), SESSION_LOG_FORMAT) != 0)
		return error_set(err, "not an ioscope session log (the first line is not its header)");
	int64_t version;
	if (!get_i64(ver, &version) || version < 1)
		return error_set(err, "the header has no valid format version");
	if (version > SESSION_LOG_VERSION)
		return error_set(err, "format version %lld is newer than this ioscope reads (%d): "
				 "upgrade ioscope", (long long)version, SESSION_LOG_VERSION);
	memset(m, 0, sizeof *m);
	m->version = (int)version;
	int64_t cpus = 0, started = 0;
	uint64_t mem = 0;
	json_object *memv = member(o, "mem_total_kb");
	if (machine_strings(o, m, err) < 0 || opt_i64(o, "cpus", &cpus, err) < 0 ||
	    opt_i64(o, "started", &started, err) < 0)
		return -1;
	if (memv && !get_u64(memv, &mem))
		return error_set(err, "\"mem_total_kb\" is not a number of kB");
	m->cpus = cpus < 0 || cpus > INT32_MAX ? 0 : (long)cpus;
	m->mem_total_kb = mem;
	m->started = ns_to_timespec(started);
	if (member(o, "devices") && session_log_parse_devices(o, state, err) < 0)
		return -1;
	if (member(o, "mounts") && session_log_parse_mounts(o, state, err) < 0)
		return -1;
	return 0;
}

int session_log_parse_devices(json_object *o, struct snapshot *state, struct error *err)
{
	json_object *a = need_array(o, "devices", err);
	return a ? parse_device_list(a, state, err) : -1;
}

int session_log_parse_mounts(json_object *o, struct snapshot *state, struct error *err)
{
	json_object *a = need_array(o, "mounts", err);
	return a ? parse_mount_list(a, state, err) : -1;
}

int session_log_parse_sample_times(json_object *o, int64_t *mono, int64_t *wall, struct error *err)
{
	if (!get_i64(member(o, "mono"), mono) || !get_i64(member(o, "wall"), wall))
		return error_set(err, "a sample without integer \"mono\" and \"wall\" times");
	return 0;
}

/* The device of the list in force named name; index is where it usually is. */
static const struct device *state_device(const struct snapshot *devices, size_t index, const char *name)
{
	if (index < devices->ndevices && strcmp(devices->devices[index].name, name) == 0)
		return &devices->devices[index];
	return snapshot_find_device(devices, name);
}

static int parse_inflight(json_object *a, struct disk_settings *s, struct error *err)
{
	int64_t r, w;
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != 2 ||
	    !get_i64(json_object_array_get_idx(a, 0), &r) || !get_i64(json_object_array_get_idx(a, 1), &w))
		return error_set(err, "\"inflight\" is not a pair of integers");
	s->inflight_read = (long)r;
	s->inflight_write = (long)w;
	return 0;
}

static int parse_sample_device(json_object *o, size_t index, const struct snapshot *devices,
			       struct device *d, struct error *err)
{
	json_object *name = member(o, "name"), *c = member(o, "c"), *inflight = member(o, "inflight");
	int64_t nf = 0;
	if (!json_object_is_type(name, json_type_string))
		return error_set(err, "a device of the sample has no \"name\"");
	const struct device *known = state_device(devices, index, json_object_get_string(name));
	if (!known)
		return error_set(err, "device \"%.64s\" is not in the device list in force",
				 json_object_get_string(name));
	if (!get_i64(member(o, "nf"), &nf) || nf < 0 || nf > 1000)
		return error_set(err, "device %s: \"nf\" is not a field count", known->name);
	if (!json_object_is_type(c, json_type_array))
		return error_set(err, "device %s: \"c\" is not an array", known->name);
	*d = *known;
	d->settings.items = NULL;
	d->settings.nitems = 0;
	d->settings.inflight_read = d->settings.inflight_write = -1;
	if (device_set_settings(d, known->settings.items, known->settings.nitems) < 0)
		return error_set(err, "out of memory");
	d->counters.nfields = (int)nf;
	if (read_u64_array(c, &d->counters, counter_fields, NCOUNTERS, "c", err) < 0 ||
	    (inflight && parse_inflight(inflight, &d->settings, err) < 0)) {
		device_set_settings(d, NULL, 0);
		return -1;
	}
	return 0;
}

static int parse_vm(json_object *o, struct vm_counters *vm, struct error *err)
{
	memset(vm, 0, sizeof *vm);
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "\"vm\" is not an object");
	for (size_t g = 0; g < sizeof vm_groups / sizeof vm_groups[0]; g++) {
		json_object *a = member(o, vm_groups[g].key);
		if (!a)
			continue;
		if (!json_object_is_type(a, json_type_array))
			return error_set(err, "\"vm.%s\" is not an array", vm_groups[g].key);
		if (read_u64_array(a, vm, vm_groups[g].fields, vm_groups[g].n, vm_groups[g].key, err) < 0)
			return -1;
		*(bool *)((char *)vm + vm_groups[g].flag) = true;
	}
	json_object *psi = member(o, "psi");
	if (!psi)
		return 0;
	const char *bad = "\"vm.psi\" is not [some_avg10, full_avg10, some_total, full_total]";
	if (!json_object_is_type(psi, json_type_array) || json_object_array_length(psi) != 4)
		return error_set(err, "%s", bad);
	json_object *a0 = json_object_array_get_idx(psi, 0), *a1 = json_object_array_get_idx(psi, 1);
	if (!is_number(a0) || !is_number(a1) ||
	    !get_u64(json_object_array_get_idx(psi, 2), &vm->psi_some_total) ||
	    !get_u64(json_object_array_get_idx(psi, 3), &vm->psi_full_total))
		return error_set(err, "%s", bad);
	vm->psi_some_avg10 = json_object_get_double(a0);
	vm->psi_full_avg10 = json_object_get_double(a1);
	vm->have_psi = true;
	return 0;
}

static int copy_mounts(struct snapshot *out, const struct snapshot *mounts, struct error *err)
{
	if (!mounts->nmounts)
		return 0;
	out->mounts = malloc(mounts->nmounts * sizeof *out->mounts);
	if (!out->mounts)
		return error_set(err, "out of memory");
	memcpy(out->mounts, mounts->mounts, mounts->nmounts * sizeof *out->mounts);
	out->nmounts = mounts->nmounts;
	return 0;
}

static int parse_sample_into(json_object *o, const struct snapshot *devices,
			     const struct snapshot *mounts, struct snapshot *s, struct error *err)
{
	int64_t mono, wall;
	uint64_t seq = 0;
	json_object *seqv = member(o, "seq");
	if (session_log_parse_sample_times(o, &mono, &wall, err) < 0)
		return -1;
	if (seqv && !get_u64(seqv, &seq))
		return error_set(err, "\"seq\" is not a sample number");
	s->mono = ns_to_timespec(mono);
	s->wall = ns_to_timespec(wall);
	s->seq = seq;
	json_object *devs = need_array(o, "devices", err);
	if (!devs)
		return -1;
	size_t n = json_object_array_length(devs);
	for (size_t i = 0; i < n; i++) {
		struct device *d = snapshot_add_device(s);
		if (!d)
			return error_set(err, "out of memory");
		if (parse_sample_device(json_object_array_get_idx(devs, i), i, devices, d, err) < 0)
			return -1;
	}
	if (parse_vm(member(o, "vm"), &s->vm, err) < 0)
		return -1;
	return copy_mounts(s, mounts, err);
}

int session_log_parse_sample(json_object *o, const struct snapshot *devices,
			     const struct snapshot *mounts, struct snapshot *out, struct error *err)
{
	struct snapshot s;
	snapshot_init(&s);
	if (parse_sample_into(o, devices, mounts, &s, err) < 0) {
		snapshot_free(&s);
		return -1;
	}
	snapshot_free(out);
	*out = s;
	return 0;
}

int session_log_parse_event(json_object *o, struct event *ev, struct error *err)
{
	json_object *kind = member(o, "kind");
	int64_t mono = 0, wall = 0;
	memset(ev, 0, sizeof *ev);
	if (!json_object_is_type(kind, json_type_string))
		return error_set(err, "an event without a \"kind\"");
	int k = event_kind_from_name(json_object_get_string(kind));
	if (k < 0)
		return error_set(err, "unknown event kind \"%.64s\"", json_object_get_string(kind));
	ev->kind = (enum event_kind)k;
	if (opt_i64(o, "mono", &mono, err) < 0 || opt_i64(o, "wall", &wall, err) < 0 ||
	    opt_str(o, "object", ev->object, sizeof ev->object, err) < 0 ||
	    opt_str(o, "key", ev->key, sizeof ev->key, err) < 0 ||
	    opt_str(o, "old", ev->old_value, sizeof ev->old_value, err) < 0 ||
	    opt_str(o, "new", ev->new_value, sizeof ev->new_value, err) < 0 ||
	    opt_str(o, "result", ev->result, sizeof ev->result, err) < 0 ||
	    opt_str(o, "by", ev->by, sizeof ev->by, err) < 0)
		return -1;
	ev->mono = ns_to_timespec(mono);
	ev->wall = ns_to_timespec(wall);
	return 0;
}
