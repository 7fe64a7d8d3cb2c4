/* announce_codec.c - an announcement (announce.h) is one session-log event record
 * (docs/runtime.md), written and read by the log's own codec. */
#include "announce.h"
#include "session_log.h"

/* A pending change is the event record with "pending": true, a withdrawn one with
 * "withdrawn": true (docs/runtime.md). */
static json_object *encode(const struct event *ev, enum announce_phase phase)
{
	json_object *o = session_log_event(ev, 0);
	const char *flag = phase == ANNOUNCE_PENDING ? "pending"
			   : phase == ANNOUNCE_WITHDRAWN ? "withdrawn" : NULL;
	if (o && flag && json_object_object_add(o, flag, json_object_new_boolean(1)) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static bool flag_set(json_object *o, const char *name)
{
	json_object *v;
	return json_object_object_get_ex(o, name, &v) && json_object_get_boolean(v);
}

static bool decode(json_object *o, struct event *ev, enum announce_phase *phase)
{
	struct error err;
	*phase = flag_set(o, "withdrawn") ? ANNOUNCE_WITHDRAWN
		 : flag_set(o, "pending") ? ANNOUNCE_PENDING : ANNOUNCE_MADE;
	return session_record_type(o) == RECORD_EVENT && session_log_parse_event(o, ev, &err) == 0;
}

const struct announce_codec session_log_announce_codec = { .encode = encode, .decode = decode };
