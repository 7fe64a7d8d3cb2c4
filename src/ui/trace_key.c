/* trace_key.c - the b key: the eBPF block-layer view turned on or off while the console
 * runs (issue 11).  The source owns the tracer (source_trace): the first time it is
 * turned on, ioscope-trace.so and libbpf are loaded.  Refused (no rights, a build or a
 * kernel without it, a replay), the footer says why and everything else goes on.  A
 * change is an event (kind "trace"), so the graphs, the marks panel and a recording show
 * where the trace data start and stop. */
#include <stdio.h>

#include "console_state.h"

static void trace_event(struct console *c, bool on)
{
	struct event ev;
	event_own(&ev, EVENT_TRACE, "trace", "trace");
	event_set_old_value(&ev, "%s", on ? "off" : "on");
	event_set_new_value(&ev, "%s", on ? "on" : "off");
	console_add_event(c, &ev);
	event_free(&ev);
}

void action_trace(struct console *c)
{
	struct error err;
	if (source_can_seek(c->src)) {
		console_message(c, true, "tracing: a recording shows the trace it was made with "
					 "(--trace when recording)");
		return;
	}
	bool on = !c->tracing;
	if (source_trace(c->src, on, &err) < 0) {
		console_message(c, true, "%s", err.msg);
		return;
	}
	c->tracing = on;
	trace_event(c, on);
	console_message(c, false, on ? "tracing on: latency heat map under Tab (latency), b stops"
				     : "tracing off");
}
