/* position.c - where in its data the source is, for the header.  Live: nothing to
 * say.  A replay shows "REPLAY" here; the replay view (issue 5) is meant to put its
 * position, speed and play/pause state here through include/replay.h. */
#include <stdio.h>

#include "console.h"

void console_source_position(const struct console *c, char *buf, size_t len)
{
	if (c->src->live)
		buf[0] = '\0';
	else
		snprintf(buf, len, "REPLAY");
}
