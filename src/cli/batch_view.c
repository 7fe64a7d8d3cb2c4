/* batch_view.c - what batch mode shows of a sample (batch_view.h). */
#include <stdlib.h>
#include <string.h>

#include "batch_view.h"
#include "grow.h"

void batch_view_init(struct batch_view *bv)
{
	memset(bv, 0, sizeof *bv);
	event_list_init(&bv->events);
}

void batch_view_free(struct batch_view *bv)
{
	free(bv->shown);
	event_list_free(&bv->events);
	memset(bv, 0, sizeof *bv);
}

static bool device_shown(const struct selection *sel, const struct device *d)
{
	if (!selection_all(sel)) {
		for (size_t i = 0; i < sel->n; i++)
			if (strcmp(sel->names[i], d->name) == 0)
				return true;
		return false;
	}
	const struct disk_counters *c = &d->counters;
	return !d->is_partition && (c->rd_ios || c->wr_ios || c->dc_ios || c->fl_ios || c->in_flight);
}

static int update_shown(struct batch_view *bv, const struct sink_sample *sample)
{
	const struct snapshot *snap = sample->snap;
	if (grow_array(&bv->shown, &bv->shown_cap, snap->ndevices, sizeof *bv->shown, 16, NULL) < 0)
		return -1;
	for (size_t i = 0; i < snap->ndevices; i++)
		bv->shown[i] = device_shown(sample->sel, &snap->devices[i]);
	return 0;
}

static int select_events(struct batch_view *bv, const struct sink_sample *sample)
{
	event_list_clear(&bv->events);
	for (size_t i = 0; i < sample->events->count; i++) {
		const struct event *ev = &sample->events->items[i];
		if (!selection_covers_event(sample->sel, sample->snap, sample->prev, ev))
			continue;
		struct event *e = event_list_add(&bv->events);
		if (!e || event_copy(e, ev) < 0)
			return -1;
	}
	return 0;
}

int batch_view_of(struct batch_view *bv, const struct sink_sample *sample, bool with_tasks,
		  struct interval_view *v)
{
	if (update_shown(bv, sample) < 0)
		return -1;
	const struct snapshot *snap = sample->snap;
	if (!sample->rates) {
		bv->none = (struct rates){ .wall = snap->wall, .seq = snap->seq };
		*v = (struct interval_view){ .rates = &bv->none, .snap = snap, .shown = bv->shown };
		return 0;
	}
	if (select_events(bv, sample) < 0)
		return -1;
	*v = (struct interval_view){ sample->rates, snap, &bv->events, bv->shown, with_tasks,
				     sample->why, sample->sel };
	return 0;
}
