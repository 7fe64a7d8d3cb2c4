/* announce_codec.c - an announcement (announce.h) is one session-log event record
 * (docs/runtime.md), written and read by the log's own codec. */
#include "announce.h"
#include "session_log.h"

static json_object *encode(const struct event *ev)
{
	return session_log_event(ev, 0);
}

static bool decode(json_object *o, struct event *ev)
{
	struct error err;
	return session_record_type(o) == RECORD_EVENT && session_log_parse_event(o, ev, &err) == 0;
}

const struct announce_codec session_log_announce_codec = { .encode = encode, .decode = decode };
