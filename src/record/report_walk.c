/* report_walk.c - what every report format shares: the intervals of the chosen
 * samples with their rates, the chosen devices, the events, the mark labels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "report.h"
#include "selection.h"
#include "session.h"

int report_walk(struct report *rep, report_interval_fn fn, void *ctx, struct error *err)
{
	struct source *src = source_replay_borrow(rep->replay, err);
	struct session *s = src ? session_open(src, NULL, err) : NULL;
	int rc = s ? 0 : -1;
	if (rc == 0)
		rc = src->ops->seek(src, rep->first, err);
	/* the first sample is the baseline: intervals end at first+1 .. last */
	int got = rc == 0 ? session_step(s, err) : -1;
	struct progress pg;
	progress_begin(&pg, stderr, rep->path);
	while (got == 1 && rc == 0) {
		progress_update(&pg, session_sample_index(s) - rep->first, rep->last - rep->first + 1);
		got = session_step(s, err);
		if (got < 0)
			rc = -1;
		if (got != 1 || session_sample_index(s) > rep->last)
			break;
		struct report_interval iv = { .sample = session_sample_index(s),
					      .cur = session_snapshot(s), .rates = session_rates(s),
					      .why = session_why(s) };
		rc = fn(ctx, &iv);
	}
	progress_end(&pg);
	session_close(s);
	source_destroy(src);
	return rc;
}

int report_device_index(const struct report *rep, const char *name)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (strcmp(rep->devices[i], name) == 0)
			return (int)i;
	return -1;
}

bool report_device_wanted(const struct report *rep, const char *name)
{
	return report_device_index(rep, name) >= 0;
}

void report_event(const struct report *rep, size_t k, struct replay_event *out)
{
	replay_event_get(rep->replay, rep->events[k], out);
}

/* A change ioscope made is logged when it is made and seen again by the next
 * sample's diff: the report keeps the first (it carries the result). */
static bool seen_already(const struct report *rep, const struct replay_event *ev,
			 struct replay_event *k)
{
	if (!ev->derivable)
		return false;
	for (size_t i = rep->nevents; i-- > 0;) {
		report_event(rep, i, k);
		if (k->sample + 1 < ev->sample)
			break;
		if (!k->derivable && event_echoes(&ev->event, &k->event))
			return true;
	}
	return false;
}

/* rep->events holds indices into the replay's compact events, not decoded ones. */
int report_choose_events(struct report *rep, struct error *err)
{
	size_t from = replay_event_after(rep->replay, rep->first);
	size_t to = replay_event_after(rep->replay, rep->last + 1);
	/* the events of the reported devices and the filesystems on them, user marks */
	struct selection sel = { .n = 0 };
	for (size_t i = 0; i < rep->ndevices; i++)
		selection_add(&sel, rep->devices[i]);
	struct source *src = source_replay_borrow(rep->replay, err);
	struct replay_event *ev = malloc(2 * sizeof *ev);
	rep->events = calloc(to - from + 1, sizeof *rep->events);
	if (!rep->events || !src || !ev) {
		free(ev);
		source_destroy(src);
		return error_set(err, "out of memory");
	}
	for (size_t i = from; i < to; i++) {
		replay_event_get(rep->replay, i, &ev[0]);
		if (selection_covers_logged(&sel, src, &ev[0]) && !seen_already(rep, &ev[0], &ev[1]))
			rep->events[rep->nevents++] = i;
	}
	free(ev);
	source_destroy(src);
	return 0;
}

/* event_mark_label() and what came of a change ioscope made: "loop0 read_ahead_kb
 * 128→4096 (ok)"; a switch's resets are printed apart, once. */
void report_mark_label(const struct event *ev, char *buf, size_t len)
{
	char verdict[EVENT_RESULT_MAX];
	event_mark_label(ev, buf, len);
	event_verdict(ev, verdict, sizeof verdict);
	/* a run's result is figures or a matrix's progress, not the verdict of a change */
	if (verdict[0] && ev->kind != EVENT_RUN && strlen(buf) + 3 < len)
		snprintf(buf + strlen(buf), len - strlen(buf), " (%s)", verdict);
}
