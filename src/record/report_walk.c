/* report_walk.c - what every report format shares: the intervals of the chosen
 * samples with their rates, the chosen devices, the events, the mark labels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "progress.h"
#include "report.h"
#include "selection.h"
#include "session.h"

/* Which report column each of an interval's devices is (-1: not reported), found by name
 * only when the device at that place is not the one there last interval: a day log's
 * report looked each device up in every pass that went over the devices. */
struct column_memo {
	char (*names)[DEV_NAME_MAX];
	int *columns;
	size_t n, cap;
};

static const int *column_memo_update(struct column_memo *m, const struct report *rep,
				     const struct rates *rates)
{
	size_t n = rates ? rates->ndevices : 0;   /* none before the first interval */
	if (n > m->cap || !m->columns) {
		size_t cap = n ? n : 1;
		void *names = realloc(m->names, cap * sizeof *m->names);
		if (names)
			m->names = names;
		int *columns = names ? realloc(m->columns, cap * sizeof *columns) : NULL;
		if (!columns)
			return NULL;
		m->columns = columns;
		m->cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = rates->devices[i].name;
		if (i < m->n && strcmp(m->names[i], name) == 0)
			continue;
		snprintf(m->names[i], DEV_NAME_MAX, "%s", name);
		m->columns[i] = report_device_index(rep, name);
	}
	m->n = n;
	return m->columns;
}

static void column_memo_free(struct column_memo *m)
{
	free(m->names);
	free(m->columns);
}

/* The session over the report's samples: fn gets each step's sample and the events the
 * session handed out with it.  With `baseline`, the first sample's too: the session then
 * starts a sample earlier, so that what changed in the interval ending there is found
 * and the echoes of what ioscope did just before are known. */
static int walk(struct report *rep, bool baseline, report_interval_fn fn, void *ctx,
		struct error *err)
{
	struct source *src = source_replay_borrow(rep->replay, err);
	struct session *s = src ? session_open(src, NULL, err) : NULL;
	int rc = s ? 0 : -1;
	size_t from = baseline && rep->first ? rep->first - 1 : rep->first;
	if (rc == 0)
		rc = src->ops->seek(src, from, err);
	struct progress pg;
	/* the pass that renders shows how far it is; the one before it is quicker */
	progress_begin(&pg, baseline ? NULL : stderr, rep->path);
	/* the first sample is the baseline: intervals end at first+1 .. last */
	int got = rc == 0 ? session_step(s, err) : -1;
	struct column_memo columns = { .n = 0 };
	for (bool first = true; got == 1 && rc == 0; first = false) {
		size_t at = session_sample_index(s);
		progress_update(&pg, at - from, rep->last - from + 1);
		if (at > rep->last)
			break;
		if (at >= rep->first && (!first || baseline)) {
			struct report_interval iv = {
				.sample = at, .cur = session_snapshot(s), .rates = session_rates(s),
				.why = session_why(s), .events = session_events(s) };
			iv.column = column_memo_update(&columns, rep, iv.rates);
			rc = iv.column ? fn(ctx, &iv) : error_set(err, "out of memory");
		}
		got = session_step(s, err);
		if (got < 0)
			rc = -1;
	}
	progress_end(&pg);
	column_memo_free(&columns);
	session_close(s);
	source_destroy(src);
	return rc;
}

int report_walk(struct report *rep, report_interval_fn fn, void *ctx, struct error *err)
{
	return walk(rep, false, fn, ctx, err);
}

int report_walk_samples(struct report *rep, report_interval_fn fn, void *ctx, struct error *err)
{
	return walk(rep, true, fn, ctx, err);
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
	report_events_get(&rep->events, k, out);
}

void report_events_free(struct report *rep)
{
	report_events_clear(&rep->events);
	rep->nevents = 0;
}

int report_keep_events(struct report *rep, const struct report_interval *iv)
{
	for (size_t i = 0; i < iv->events->count; i++) {
		const struct event *ev = &iv->events->items[i];
		if (report_events_add(&rep->events, ev, iv->sample, event_is_derivable(ev)) < 0)
			return -1;
	}
	rep->nevents = rep->events.count;
	return 0;
}

/* Of the session's events, those of the reported devices (the selection at the sample
 * each came with and the one before, as every view filters them: selection.h). */
int report_choose_events(struct report *rep, struct error *err)
{
	struct selection sel = { .n = 0 };
	for (size_t i = 0; i < rep->ndevices; i++)
		selection_add(&sel, rep->devices[i]);
	struct source *src = source_replay_borrow(rep->replay, err);
	struct replay_event *view = malloc(sizeof *view);
	bool *keep = calloc(rep->nevents ? rep->nevents : 1, sizeof *keep);
	if (!src || !view || !keep) {
		free(view);
		free(keep);
		source_destroy(src);
		return error_set(err, "out of memory");
	}
	for (size_t i = 0; i < rep->nevents; i++) {
		report_event(rep, i, view);
		keep[i] = selection_covers_logged(&sel, src, view);
	}
	report_events_keep_only(&rep->events, keep);
	rep->nevents = rep->events.count;
	free(keep);
	free(view);
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
