/* json_text.h - one line of JSON from a json-c object, always valid UTF-8.
 *
 * json-c serializes a string's bytes as they are; utf8.h says why ioscope's JSON must not.
 * Every json-c object ioscope writes (session-log records, report and CLI JSON, the
 * runtime directory's announcements) goes through here.
 */
#ifndef IOSCOPE_JSON_TEXT_H
#define IOSCOPE_JSON_TEXT_H

#include <json-c/json.h>
#include <stddef.h>

struct json_text {
	const char *text;   /* NULL on ENOMEM */
	size_t len;
	char *owned;        /* the repaired copy, when one was needed */
};

/* What ioscope writes: one line, slashes unescaped. */
#define JSON_TEXT_LINE (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* o serialized with json-c's flags.  The text lives until json_text_free() and until o is
 * released. */
struct json_text json_text_of(json_object *o, int flags);
void json_text_free(struct json_text *t);

#endif
