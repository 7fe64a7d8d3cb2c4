/* session_log_probe.c - reading the probe record back (docs/session-log.md, "probe"):
 * every value as it was written, so a replay's probe samples are the live ones. */
#include <stdint.h>

#include "probe.h"
#include "session_log.h"

static int parse_values(json_object *o, const char *key, struct probe_samples *s, bool exec,
			struct error *err)
{
	json_object *arr;
	if (!json_object_object_get_ex(o, key, &arr))
		return 0;   /* absent: none */
	if (!json_object_is_type(arr, json_type_array))
		return error_set(err, "probe \"%s\" is not an array", key);
	size_t n = json_object_array_length(arr);
	for (size_t i = 0; i < n; i++) {
		json_object *v = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
			return error_set(err, "probe \"%s\" holds a value that is not a count of "
					 "microseconds", key);
		uint64_t us = json_object_get_uint64(v);
		if ((exec ? probe_samples_add_exec(s, us) : probe_samples_add_read(s, us)) < 0)
			return error_set(err, "out of memory");
	}
	return 0;
}

static int parse_count(json_object *o, const char *key, uint64_t *out, struct error *err)
{
	json_object *v;
	*out = 0;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return error_set(err, "probe \"%s\" is not a count", key);
	*out = json_object_get_uint64(v);
	return 0;
}

int session_log_parse_probe(json_object *o, struct probe_samples *out, struct error *err)
{
	probe_samples_clear(out);
	if (parse_values(o, "read_us", out, false, err) < 0 ||
	    parse_values(o, "exec_us", out, true, err) < 0 ||
	    parse_count(o, "errors", &out->errors, err) < 0 ||
	    parse_count(o, "stalled_us", &out->stalled_us, err) < 0 ||
	    parse_count(o, "reading_us", &out->reading_us, err) < 0)
		return -1;
	return 0;
}
