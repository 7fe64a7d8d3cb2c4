/* json_get.h - members and numbers of parsed JSON, checked for their type.
 *
 * Every reader of a record (session_log_*.c) needs the same few questions answered
 * strictly - is this member there, is it an integer, is it non-negative - so that a
 * damaged or crafted record is refused with its member's name, never half-read.
 */
#ifndef IOSCOPE_JSON_GET_H
#define IOSCOPE_JSON_GET_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

/* o's member key; NULL when absent or o is not an object. */
json_object *json_member(json_object *o, const char *key);
/* A non-negative integer (up to UINT64_MAX). */
bool json_get_u64(json_object *v, uint64_t *out);
/* An integer. */
bool json_get_i64(json_object *v, int64_t *out);
/* An integer or a double. */
bool json_is_number(json_object *v);

#endif
