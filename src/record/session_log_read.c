/* session_log_read.c - session-log records back into snapshots and events.
 *
 * Every member is checked for its type; a record that is not what this version
 * writes is refused with a message naming the member, never half-read.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_get.h"
#include "session_log.h"
#include "session_log_sample.h"


/* Optional members: absent leaves *out alone; present with the wrong type is an error. */
static int opt_str(json_object *o, const char *key, char *out, size_t len, struct error *err)
{
	json_object *v = json_member(o, key);
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return error_set(err, "\"%s\" is not a string", key);
	snprintf(out, len, "%s", json_object_get_string(v));
	return 0;
}

static int opt_i64(json_object *o, const char *key, int64_t *out, struct error *err)
{
	json_object *v = json_member(o, key);
	if (v && !json_get_i64(v, out))
		return error_set(err, "\"%s\" is not an integer", key);
	return 0;
}

static int opt_bool(json_object *o, const char *key, bool *out, struct error *err)
{
	json_object *v = json_member(o, key);
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
	json_object *v = json_member(o, key);
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
		if (i < len && !json_get_u64(json_object_array_get_idx(a, i), &v))
			return error_set(err, "\"%s\"[%zu] is not a counter", what, i);
		*session_u64_at(base, fields[i]) = v;
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
	return parse_items(json_member(o, "items"), d, err);
}

/* "loop": absent for anything but a loop device with a file attached. */
static int parse_loop(json_object *o, struct loop_backing *l, struct error *err)
{
	memset(l, 0, sizeof *l);
	l->dio = -1;
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "\"loop\" is not an object");
	json_object *dio = json_member(o, "dio");
	if (dio && !json_object_is_type(dio, json_type_boolean))
		return error_set(err, "\"dio\" is not true or false");
	if (dio)
		l->dio = json_object_get_boolean(dio);
	int64_t offset = 0, sizelimit = 0;
	if (opt_str(o, "backing_file", l->file, sizeof l->file, err) < 0 ||
	    opt_unsigned(o, "backing_major", &l->major, err) < 0 ||
	    opt_unsigned(o, "backing_minor", &l->minor, err) < 0 ||
	    opt_str(o, "backing_disk", l->disk, sizeof l->disk, err) < 0 ||
	    opt_i64(o, "offset", &offset, err) < 0 || opt_i64(o, "sizelimit", &sizelimit, err) < 0)
		return -1;
	if (offset < 0 || sizelimit < 0)
		return error_set(err, "\"loop\": a negative offset or size limit");
	l->offset = (uint64_t)offset;
	l->sizelimit = (uint64_t)sizelimit;
	l->present = true;
	return 0;
}

static int parse_device_identity(json_object *o, struct device *d, struct error *err)
{
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "a device is not an object");
	if (!json_object_is_type(json_member(o, "name"), json_type_string))
		return error_set(err, "a device has no \"name\"");
	if (opt_str(o, "name", d->name, sizeof d->name, err) < 0 ||
	    opt_unsigned(o, "major", &d->major, err) < 0 ||
	    opt_unsigned(o, "minor", &d->minor, err) < 0 ||
	    opt_bool(o, "partition", &d->is_partition, err) < 0 ||
	    opt_str(o, "parent", d->parent, sizeof d->parent, err) < 0 ||
	    opt_str(o, "dm_name", d->dm_name, sizeof d->dm_name, err) < 0 ||
	    opt_str(o, "model", d->model, sizeof d->model, err) < 0 ||
	    opt_str(o, "serial", d->serial, sizeof d->serial, err) < 0 ||
	    parse_loop(json_member(o, "loop"), &d->loop, err) < 0)
		return -1;
	return parse_settings(json_member(o, "settings"), d, err);
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

/* "selection": ["loop0", ...]; absent (older logs): every device. */
static int parse_selection(json_object *o, struct replay_machine *m, struct error *err)
{
	json_object *a = json_member(o, "selection");
	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return error_set(err, "\"selection\" is not an array of device names");
	size_t n = json_object_array_length(a);
	if (n > SOURCE_SELECTION_MAX)
		return error_set(err, "\"selection\" names more than %d devices", SOURCE_SELECTION_MAX);
	for (size_t i = 0; i < n; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		const char *name = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
		if (!name || !name[0] || strlen(name) >= DEV_NAME_MAX || strchr(name, '/'))
			return error_set(err, "\"selection\" holds something that is not a device name");
		snprintf(m->selection[i], sizeof m->selection[i], "%s", name);
	}
	m->nselection = n;
	m->has_selection = true;
	return 0;
}

int session_log_parse_header(json_object *o, struct replay_machine *m, struct snapshot *state,
			     struct error *err)
{
	json_object *fmt = json_member(o, "format"), *ver = json_member(o, "version");
	if (session_record_type(o) != RECORD_HEADER || !json_object_is_type(fmt, json_type_string) ||
	    strcmp(json_object_get_string(fmt), SESSION_LOG_FORMAT) != 0)
		return error_set(err, "not an ioscope session log (the first line is not its header)");
	int64_t version;
	if (!json_get_i64(ver, &version) || version < 1)
		return error_set(err, "the header has no valid format version");
	if (version > SESSION_LOG_VERSION)
		return error_set(err, "format version %lld is newer than this ioscope reads (%d): "
				 "upgrade ioscope", (long long)version, SESSION_LOG_VERSION);
	memset(m, 0, sizeof *m);
	m->version = (int)version;
	int64_t cpus = 0, started = 0;
	uint64_t mem = 0;
	json_object *memv = json_member(o, "mem_total_kb");
	if (machine_strings(o, m, err) < 0 || opt_i64(o, "cpus", &cpus, err) < 0 ||
	    opt_i64(o, "started", &started, err) < 0)
		return -1;
	if (memv && !json_get_u64(memv, &mem))
		return error_set(err, "\"mem_total_kb\" is not a number of kB");
	m->cpus = cpus < 0 || cpus > INT32_MAX ? 0 : (long)cpus;
	m->mem_total_kb = mem;
	m->started = ns_to_timespec(started);
	if (parse_selection(o, m, err) < 0)
		return -1;
	if (json_member(o, "devices") && session_log_parse_devices(o, state, err) < 0)
		return -1;
	if (json_member(o, "mounts") && session_log_parse_mounts(o, state, err) < 0)
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
	if (!json_get_i64(json_member(o, "mono"), mono) || !json_get_i64(json_member(o, "wall"), wall))
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
	    !json_get_i64(json_object_array_get_idx(a, 0), &r) || !json_get_i64(json_object_array_get_idx(a, 1), &w))
		return error_set(err, "\"inflight\" is not a pair of integers");
	s->inflight_read = (long)r;
	s->inflight_write = (long)w;
	return 0;
}

/* The device entry of a sample as its fields (the JSON reader's and the scanner's
 * common ground) into *d, identity and settings from the device list in force. */
int session_log_sample_device(const struct sample_device_fields *f, size_t index,
			      const struct snapshot *devices, struct device *d, struct error *err)
{
	const struct device *known = state_device(devices, index, f->name);
	if (!known)
		return error_set(err, "device \"%.64s\" is not in the device list in force", f->name);
	if (f->nf < 0 || f->nf > 1000)
		return error_set(err, "device %s: \"nf\" is not a field count", known->name);
	if (f->inst < 0 || f->inst > UINT32_MAX)
		return error_set(err, "device %s: \"inst\" is not an instance number", known->name);
	*d = *known;
	d->instance = (uint32_t)f->inst;
	d->settings.items = NULL;
	d->settings.nitems = 0;
	d->settings.inflight_read = f->has_inflight ? (long)f->inflight[0] : -1;
	d->settings.inflight_write = f->has_inflight ? (long)f->inflight[1] : -1;
	if (device_set_settings(d, known->settings.items, known->settings.nitems) < 0)
		return error_set(err, "out of memory");
	for (size_t i = 0; i < SESSION_NCOUNTERS; i++)
		*session_u64_at(&d->counters, session_counter_fields[i]) = f->c[i];
	d->counters.nfields = (int)f->nf;
	return 0;
}

static int parse_sample_device(json_object *o, size_t index, const struct snapshot *devices,
			       struct device *d, struct error *err)
{
	json_object *name = json_member(o, "name"), *c = json_member(o, "c"), *inflight = json_member(o, "inflight");
	struct sample_device_fields f = { .nf = 0 };
	if (!json_object_is_type(name, json_type_string))
		return error_set(err, "a device of the sample has no \"name\"");
	f.name = json_object_get_string(name);
	if (!json_get_i64(json_member(o, "nf"), &f.nf))
		f.nf = -1;   /* refused below, with the device's name */
	json_object *io = json_member(o, "inst");
	if (io && !json_get_i64(io, &f.inst))
		f.inst = -1;
	if (!json_object_is_type(c, json_type_array))
		return error_set(err, "device %.64s: \"c\" is not an array", f.name);
	struct device counters_only = { .counters.nfields = 0 };
	if (read_u64_array(c, &counters_only.counters, session_counter_fields, SESSION_NCOUNTERS, "c",
			   err) < 0)
		return -1;
	for (size_t i = 0; i < SESSION_NCOUNTERS; i++)
		f.c[i] = *session_u64_at(&counters_only.counters, session_counter_fields[i]);
	if (inflight) {
		struct disk_settings s = { .inflight_read = -1, .inflight_write = -1 };
		if (parse_inflight(inflight, &s, err) < 0)
			return -1;
		f.has_inflight = true;
		f.inflight[0] = s.inflight_read;
		f.inflight[1] = s.inflight_write;
	}
	return session_log_sample_device(&f, index, devices, d, err);
}

static int parse_vm(json_object *o, struct vm_counters *vm, struct error *err)
{
	memset(vm, 0, sizeof *vm);
	if (!o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "\"vm\" is not an object");
	for (size_t g = 0; g < SESSION_NVM_GROUPS; g++) {
		json_object *a = json_member(o, session_vm_groups[g].key);
		if (!a)
			continue;
		if (!json_object_is_type(a, json_type_array))
			return error_set(err, "\"vm.%s\" is not an array", session_vm_groups[g].key);
		if (read_u64_array(a, vm, session_vm_groups[g].fields, session_vm_groups[g].n, session_vm_groups[g].key, err) < 0)
			return -1;
		*(bool *)((char *)vm + session_vm_groups[g].flag) = true;
	}
	json_object *psi = json_member(o, "psi");
	if (!psi)
		return 0;
	const char *bad = "\"vm.psi\" is not [some_avg10, full_avg10, some_total, full_total]";
	if (!json_object_is_type(psi, json_type_array) || json_object_array_length(psi) != 4)
		return error_set(err, "%s", bad);
	json_object *a0 = json_object_array_get_idx(psi, 0), *a1 = json_object_array_get_idx(psi, 1);
	if (!json_is_number(a0) || !json_is_number(a1) ||
	    !json_get_u64(json_object_array_get_idx(psi, 2), &vm->psi_some_total) ||
	    !json_get_u64(json_object_array_get_idx(psi, 3), &vm->psi_full_total))
		return error_set(err, "%s", bad);
	vm->psi_some_avg10 = json_object_get_double(a0);
	vm->psi_full_avg10 = json_object_get_double(a1);
	return session_log_check_psi(vm, err);
}

int session_log_check_psi(struct vm_counters *vm, struct error *err)
{
	/* A share of time: anything else is damage, and 1e308 would reach every output. */
	if (!(vm->psi_some_avg10 >= 0 && vm->psi_some_avg10 <= 100) ||
	    !(vm->psi_full_avg10 >= 0 && vm->psi_full_avg10 <= 100))
		return error_set(err, "\"vm.psi\" averages %.3g, %.3g are not percentages (0..100)",
				 vm->psi_some_avg10, vm->psi_full_avg10);
	vm->have_psi = true;
	return 0;
}

int session_log_sample_mounts(struct snapshot *out, const struct snapshot *mounts, struct error *err)
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
	json_object *seqv = json_member(o, "seq");
	if (session_log_parse_sample_times(o, &mono, &wall, err) < 0)
		return -1;
	if (seqv && !json_get_u64(seqv, &seq))
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
	if (parse_vm(json_member(o, "vm"), &s->vm, err) < 0)
		return -1;
	return session_log_sample_mounts(s, mounts, err);
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

/* One side of a reset: a string, or null for "absent". */
static int reset_side(json_object *v, const char **out, struct error *err)
{
	if (!v) {
		*out = NULL;
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return error_set(err, "a reset value is neither a string nor null");
	*out = json_object_get_string(v);
	return 0;
}

/* "resets": {"KEY": [OLD|null, NEW|null], ...}; absent in logs older than it. */
static int parse_resets(json_object *o, struct event *ev, struct error *err)
{
	json_object *resets = json_member(o, "resets");
	if (!resets)
		return 0;
	if (!json_object_is_type(resets, json_type_object))
		return error_set(err, "\"resets\" is not an object");
	json_object_object_foreach(resets, key, pair) {
		const char *was = NULL, *now = NULL;
		if (!json_object_is_type(pair, json_type_array) ||
		    json_object_array_length(pair) != 2)
			return error_set(err, "reset \"%.64s\" is not [old, new]", key);
		if (reset_side(json_object_array_get_idx(pair, 0), &was, err) < 0 ||
		    reset_side(json_object_array_get_idx(pair, 1), &now, err) < 0)
			return -1;
		event_add_reset(ev, key, was, now);
	}
	int64_t more = 0;
	if (opt_i64(o, "resets_more", &more, err) < 0)
		return -1;
	if (more > 0)
		ev->resets_dropped += (size_t)more;
	return 0;
}

/* A dip's "reasons": strings, kept as many as fit. */
static int parse_reasons(json_object *o, struct event *ev, struct error *err)
{
	json_object *a = json_member(o, "reasons");
	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return error_set(err, "\"reasons\" is not an array");
	size_t n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(a, i);
		if (!json_object_is_type(s, json_type_string))
			return error_set(err, "a reason is not a string");
		event_add_reason(ev, json_object_get_string(s));
	}
	return 0;
}

/* An event's text member (absent: ""), cut as set_text cuts it. */
static int opt_text(json_object *o, const char *key, struct event *ev,
		    int (*set)(struct event *, const char *, ...), struct error *err)
{
	json_object *v = json_member(o, key);
	if (!v)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return error_set(err, "\"%s\" is not a string", key);
	if (set(ev, "%s", json_object_get_string(v)) < 0)
		return error_set(err, "out of memory");
	return 0;
}

/* "n": the event's number in its session, a count from 1 (absent: 0, a log of before). */
static int opt_number(json_object *o, struct event *ev, struct error *err)
{
	json_object *v = json_member(o, "n");
	uint64_t n = 0;
	if (v && !json_get_u64(v, &n))
		return error_set(err, "\"n\" is not a count");
	ev->number = n;
	return 0;
}

int session_log_parse_event(json_object *o, struct event *ev, struct error *err)
{
	json_object *kind = json_member(o, "kind");
	int64_t mono = 0, wall = 0;
	event_init(ev);
	if (!json_object_is_type(kind, json_type_string))
		return error_set(err, "an event without a \"kind\"");
	int k = event_kind_from_name(json_object_get_string(kind));
	if (k < 0) {
		/* A kind of a later revision: skipped by design (docs/session-log.md). */
		error_set(err, "%.64s", json_object_get_string(kind));
		return 1;
	}
	ev->kind = (enum event_kind)k;
	if (opt_i64(o, "mono", &mono, err) < 0 || opt_i64(o, "wall", &wall, err) < 0 ||
	    opt_text(o, "object", ev, event_set_object, err) < 0 ||
	    opt_str(o, "key", ev->key, sizeof ev->key, err) < 0 ||
	    opt_text(o, "old", ev, event_set_old_value, err) < 0 ||
	    opt_text(o, "new", ev, event_set_new_value, err) < 0 ||
	    opt_text(o, "result", ev, event_set_result, err) < 0 ||
	    opt_str(o, "by", ev->by, sizeof ev->by, err) < 0 ||
	    opt_text(o, "scope", ev, event_set_scope, err) < 0 || parse_resets(o, ev, err) < 0 ||
	    parse_reasons(o, ev, err) < 0)
		return -1;
	ev->mono = ns_to_timespec(mono);
	ev->wall = ns_to_timespec(wall);
	return opt_number(o, ev, err);
}
