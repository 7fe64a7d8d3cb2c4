/* json_text.c - json-c's serialization, repaired to valid UTF-8 (see json_text.h). */
#include <stdlib.h>

#include "json_text.h"
#include "utf8.h"

struct json_text json_text_of(json_object *o, int flags)
{
	struct json_text t = { 0 };
	size_t n = 0;
	const char *s = o ? json_object_to_json_string_length(o, flags, &n)
			  : NULL;
	if (!s)
		return t;
	t.text = utf8_json_repair(s, n, &t.len);
	if (t.text && t.text != s)
		t.owned = (char *)t.text;
	return t;
}

void json_text_free(struct json_text *t)
{
	free(t->owned);
	t->owned = NULL;
	t->text = NULL;
}
