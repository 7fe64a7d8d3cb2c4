/* position.c - where in its data the source is, for the header.  Live: nothing to
 * say.  A recording: "REPLAY 13/120 0:12/2:00 x10 PAUSED" (src/ui/replay_view.c); a
 * fixture tree: "FIXTURE". */
#include <stdio.h>

#include "console_state.h"
#include "replay_view.h"

void console_source_position(const struct console *c, char *buf, size_t len)
{
	if (c->src->live) {
		buf[0] = '\0';
		return;
	}
	if (!source_can_seek(c->src)) {
		snprintf(buf, len, "FIXTURE");
		return;
	}
	replay_view_position(c, buf, len);
}
