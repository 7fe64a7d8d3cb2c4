/* json_get.c - typed access to parsed JSON (src/record/json_get.h). */
#include "json_get.h"

json_object *json_member(json_object *o, const char *key)
{
	json_object *v = NULL;
	if (json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

bool json_get_u64(json_object *v, uint64_t *out)
{
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

bool json_get_i64(json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

bool json_is_number(json_object *v)
{
	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
}
