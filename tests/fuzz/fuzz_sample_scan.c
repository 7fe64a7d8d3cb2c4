/* fuzz_sample_scan.c - the scanner of sample lines against the JSON reader: on any
 * line the scanner takes, the JSON reader must read the very same sample. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "../unit/record_fixture.h"
#include "session_log.h"
#include "session_log_sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *formatted(const struct snapshot *s)
{
	struct jsonw w;
	jsonw_init(&w);
	char *text = session_log_format_sample(s, &w) == 0 ? strndup(w.buf, w.len) : NULL;
	jsonw_free(&w);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct snapshot state;
	static int ready;
	if (!ready) {
		snapshot_init(&state);
		fixture_snapshot(&state, 4);
		ready = 1;
	}
	char *line = strndup((const char *)data, size);   /* replay reads lines NUL-ended */
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	struct error err;
	if (session_log_scan_sample(line, strlen(line), &state, &state, &a, &err) == 1) {
		json_object *o = json_tokener_parse(line);
		if (!o || session_log_parse_sample(o, &state, &state, &b, &err) != 0)
			abort();   /* the scanner took what the JSON reader refuses */
		char *ta = formatted(&a), *tb = formatted(&b);
		if (!ta || !tb || strcmp(ta, tb) != 0)
			abort();   /* read differently */
		free(ta);
		free(tb);
		json_object_put(o);
	}
	snapshot_free(&a);
	snapshot_free(&b);
	free(line);
	return 0;
}
