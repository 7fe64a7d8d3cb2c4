/* announce_codec.c - an announcement (announce.h) is one session-log event record
 * (docs/runtime.md), written and read by the log's own codec. */
#include "announce.h"
#include "session_log.h"

/* A pending change is the event record with "pending": true (docs/runtime.md). */
static json_object *encode(const struct event *ev, bool pending)
{
	json_object *o = session_log_event(ev, 0);
	if (o && pending && json_object_object_add(o, "pending", json_object_new_boolean(1)) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static bool decode(json_object *o, struct event *ev, bool *pending)
{
	struct error err;
	json_object *p;
	*pending = json_object_object_get_ex(o, "pending", &p) && json_object_get_boolean(p);
	return session_record_type(o) == RECORD_EVENT && session_log_parse_event(o, ev, &err) == 0;
}

const struct announce_codec session_log_announce_codec = { .encode = encode, .decode = decode };
