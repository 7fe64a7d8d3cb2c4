/* session_log_trace.c - the `trace` record: one interval of the eBPF block-layer view,
 * written after its sample and read back into the same snapshot field
 * (docs/session-log.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json_get.h"
#include "session_log.h"
#include "trace.h"
#include "trace_json.h"

static bool device_empty(const struct trace_device *d)
{
	static const struct trace_device none;
	struct trace_device t = *d;
	t.major = t.minor = 0;
	return memcmp(&t, &none, sizeof t) == 0;
}

static const char *device_name(const struct snapshot *snap, const struct trace_device *d)
{
	for (size_t i = 0; i < snap->ndevices; i++)
		if (!snap->devices[i].is_partition && snap->devices[i].major == d->major &&
		    snap->devices[i].minor == d->minor)
			return snap->devices[i].name;
	return "";
}

static void put_u64(struct jsonw *w, const char *key, uint64_t v)
{
	jsonw_key(w, key);
	jsonw_uint(w, v);
}

static void put_device(struct jsonw *w, const struct snapshot *snap, const struct trace_device *d)
{
	jsonw_object_begin(w);
	put_u64(w, "major", d->major);
	put_u64(w, "minor", d->minor);
	jsonw_key(w, "name");
	jsonw_string(w, device_name(snap, d));
	trace_json_histograms(w, d);
	put_u64(w, "issued", d->issued);
	put_u64(w, "seeks", d->seeks);
	put_u64(w, "sequential", d->sequential);
	trace_json_top(w, d, false);
	jsonw_object_end(w);
}

int session_log_format_trace(const struct snapshot *snap, struct jsonw *w)
{
	if (!snap->trace)
		return 0;
	jsonw_object_begin(w);
	jsonw_key(w, "type");
	jsonw_string(w, "trace");
	put_u64(w, "seq", snap->seq);
	jsonw_key(w, "devices");
	jsonw_array_begin(w);
	for (size_t i = 0; i < snap->trace->ndevices; i++)
		if (!device_empty(&snap->trace->devices[i]))
			put_device(w, snap, &snap->trace->devices[i]);
	jsonw_array_end(w);
	jsonw_object_end(w);
	jsonw_newline(w);
	return w->failed ? -1 : 0;
}

/* ---- reading ---- */

/* An optional count; absent is 0. */
static int opt_u64(json_object *o, const char *key, uint64_t *out, struct error *err)
{
	json_object *v = json_member(o, key);
	*out = 0;
	if (v && !json_get_u64(v, out))
		return error_set(err, "trace: \"%s\" is not a count", key);
	return 0;
}

/* "BUCKET_LOW" back to its bucket: 0 or a power of two below 2^n. */
static int bucket_of(const char *key, size_t n)
{
	char *end;
	errno = 0;
	unsigned long long low = strtoull(key, &end, 10);
	if (errno || end == key || *end || key[0] == '-' || key[0] == '+')
		return -1;
	for (size_t i = 0; i < n; i++)
		if (trace_bucket_low(i) == low)
			return (int)i;
	return -1;
}

static int parse_hist(json_object *o, uint64_t *hist, size_t n, struct error *err)
{
	if (!json_object_is_type(o, json_type_object))
		return error_set(err, "trace: a histogram is not an object");
	json_object_object_foreach(o, key, v) {
		int b = bucket_of(key, n);
		uint64_t count;
		if (b < 0)
			return error_set(err, "trace: \"%.40s\" is not a bucket", key);
		if (!json_get_u64(v, &count))
			return error_set(err, "trace: bucket \"%.40s\" is not a count", key);
		hist[b] = count;
	}
	return 0;
}

/* "lat_us": {"read": {...}, ...}; absent: empty.  Directions this version does not
 * know are skipped (a later one may add some). */
static int parse_dirs(json_object *o, const char *key, uint64_t *hists, size_t ndirs,
		      size_t nbuckets, struct error *err)
{
	json_object *dirs = json_member(o, key);
	if (!dirs)
		return 0;
	if (!json_object_is_type(dirs, json_type_object))
		return error_set(err, "trace: \"%s\" is not an object", key);
	for (size_t d = 0; d < ndirs; d++) {
		json_object *h = json_member(dirs, trace_dir_names[d]);
		if (h && parse_hist(h, hists + d * nbuckets, nbuckets, err) < 0)
			return -1;
	}
	return 0;
}

static int parse_top(json_object *o, struct trace_device *d, struct error *err)
{
	json_object *a = json_member(o, "top");
	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return error_set(err, "trace: \"top\" is not an array");
	size_t n = json_object_array_length(a);
	for (size_t i = 0; i < n && d->ntop < TRACE_TOP_MAX; i++) {
		json_object *t = json_object_array_get_idx(a, i), *comm = json_member(t, "comm");
		struct trace_top *top = &d->top[d->ntop];
		uint64_t pid;
		if (!json_get_u64(json_member(t, "pid"), &pid) || pid > UINT32_MAX ||
		    !json_object_is_type(comm, json_type_string) ||
		    opt_u64(t, "ios", &top->ios, err) < 0 || opt_u64(t, "bytes", &top->bytes, err) < 0)
			return error_set(err, "trace: a \"top\" entry lacks its pid, comm or counts");
		top->pid = (uint32_t)pid;
		snprintf(top->comm, sizeof top->comm, "%s", json_object_get_string(comm));
		d->ntop++;
	}
	return 0;
}

static int parse_device(json_object *o, struct trace_sample *t, struct error *err)
{
	uint64_t major, minor;
	if (!json_get_u64(json_member(o, "major"), &major) || !json_get_u64(json_member(o, "minor"), &minor) ||
	    major > UINT32_MAX || minor > UINT32_MAX)
		return error_set(err, "trace: a device without its major and minor");
	if (trace_find(t, (unsigned)major, (unsigned)minor))
		return error_set(err, "trace: device %llu:%llu twice", (unsigned long long)major,
				 (unsigned long long)minor);
	struct trace_device *d = trace_get(t, (unsigned)major, (unsigned)minor);
	if (!d)
		return error_set(err, "out of memory");
	if (parse_dirs(o, "lat_us", &d->d2c[0][0], TRACE_DIRS, TRACE_LAT_BUCKETS, err) < 0 ||
	    parse_dirs(o, "q2c_us", &d->q2c[0][0], TRACE_DIRS, TRACE_LAT_BUCKETS, err) < 0 ||
	    parse_dirs(o, "size_kb", &d->size[0][0], TRACE_SIZE_DIRS, TRACE_SIZE_BUCKETS, err) < 0 ||
	    opt_u64(o, "issued", &d->issued, err) < 0 || opt_u64(o, "seeks", &d->seeks, err) < 0 ||
	    opt_u64(o, "sequential", &d->sequential, err) < 0)
		return -1;
	return parse_top(o, d, err);
}

int session_log_parse_trace(json_object *o, struct snapshot *out, struct error *err)
{
	json_object *a = json_member(o, "devices");
	if (!json_object_is_type(a, json_type_array))
		return error_set(err, "trace: \"devices\" is not an array");
	struct trace_sample *t = calloc(1, sizeof *t);
	if (!t)
		return error_set(err, "out of memory");
	size_t n = json_object_array_length(a);
	for (size_t i = 0; i < n; i++)
		if (parse_device(json_object_array_get_idx(a, i), t, err) < 0) {
			trace_sample_free(t);
			free(t);
			return -1;
		}
	snapshot_set_trace(out, t);
	return 0;
}
