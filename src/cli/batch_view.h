/* batch_view.h - what batch mode shows of a sample, one rule for its outputs (text, JSON,
 * CSV, --format prometheus) and the Prometheus exporter sink (prom_sink.h): the devices
 * (without a selection, like iostat, whole disks that have done any I/O since boot; with
 * one, exactly those named) and the events about the selection (user marks always). */
#ifndef IOSCOPE_BATCH_VIEW_H
#define IOSCOPE_BATCH_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "output.h"
#include "rates.h"
#include "sink.h"

struct batch_view {
	bool *shown;                 /* per device of the sample */
	size_t shown_cap;
	struct event_list events;    /* the sample's events about the selection */
	struct rates none;           /* a baseline's: no figures */
};

void batch_view_init(struct batch_view *bv);
void batch_view_free(struct batch_view *bv);
/* The interval view of sample into *v, pointing into bv and sample.  A baseline (no
 * rates) has no figures and no events; with_tasks: --tasks.  -1 on ENOMEM. */
int batch_view_of(struct batch_view *bv, const struct sink_sample *sample, bool with_tasks,
		  struct interval_view *v);

#endif
