/* position.c - where in its data the source is, for the header.  Live: nothing to
 * say.  A replay: "REPLAY sample/count" (the replay view of issue 5 is meant to
 * add speed and play/pause here); a fixture tree: "FIXTURE". */
#include <stdio.h>

#include "console.h"
#include "replay.h"

void console_source_position(const struct console *c, char *buf, size_t len)
{
	if (c->src->live) {
		buf[0] = '\0';
		return;
	}
	struct replay *r = source_replay_get(c->src);
	if (!r) {
		snprintf(buf, len, "FIXTURE");
		return;
	}
	snprintf(buf, len, "REPLAY %zu/%zu", replay_tell(r), replay_count(r));
}
