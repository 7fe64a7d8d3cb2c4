/* result.c - what a change did: events for the graphs and the log, lines for people. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

void control_result_init(struct control_result *r)
{
	memset(r, 0, sizeof *r);
}

void control_result_free(struct control_result *r)
{
	for (size_t i = 0; r && i < r->nevents; i++)
		event_free(&r->events[i]);
	free(r);
}

void control_result_line(struct control_result *r, const char *fmt, ...)
{
	if (r->nlines == CONTROL_MAX_LINES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->lines[r->nlines++], CONTROL_LINE_MAX, fmt, ap);
	va_end(ap);
}

void control_result_lines_to_end(struct control_result *r, size_t from, size_t to)
{
	/* rotate one line at a time: the ranges are a few lines long */
	for (size_t moved = 0; moved < to - from && to < r->nlines; moved++) {
		char line[CONTROL_LINE_MAX];
		memcpy(line, r->lines[from], sizeof line);
		memmove(r->lines[from], r->lines[from + 1],
			(r->nlines - from - 1) * sizeof r->lines[0]);
		memcpy(r->lines[r->nlines - 1], line, sizeof line);
	}
}

struct event *control_result_event(struct control_result *r, enum event_kind kind,
				   const char *object, const char *key)
{
	if (r->nevents == sizeof r->events / sizeof r->events[0])
		return NULL;
	struct event *ev = &r->events[r->nevents++];
	event_own(ev, kind, object, key);
	return ev;
}
