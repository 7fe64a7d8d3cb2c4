/* figures.h - the per-device figures, one row a figure, as htop's Process_fields[] or
 * tmux's options-table.c: its key, where it is read in struct device_rates and how, its
 * unit, and what each output needs of it.  Batch JSON and CSV, the reports, the console's
 * columns and column chooser, the Prometheus exporter's ioscope_disk_* gauges and the
 * docs check (tests/unit/test_figures.c) all read this one table (src/core/figures.c):
 * a figure of a field struct device_rates has is one row there (docs/design.md, "Adding
 * a per-device figure").  Batch text is the exception: its 80 columns are a hand layout
 * of iostat -x's figures (src/cli/output_text.c).
 */
#ifndef IOSCOPE_FIGURES_H
#define IOSCOPE_FIGURES_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "rates.h"

/* What a figure reads of struct device_rates. */
enum figure_kind {
	FIGURE_RATE,       /* the double at offset, times scale; none in an interval without
			      rates (!valid) */
	FIGURE_IN_FLIGHT,  /* the in-flight gauge, a count there in every interval */
	FIGURE_SCHEDULER,  /* the active scheduler's name: no number */
};

/* Which threshold pair of the console's config colours the figure's cells
 * (util_warn/util_crit, await_warn/await_crit). */
enum figure_load { FIGURE_LOAD_NONE, FIGURE_LOAD_UTIL, FIGURE_LOAD_AWAIT };

struct device_figure {
	const char *key;          /* iostat -x name, "w_await": the batch JSON and CSV key, the
				     name in the console's config and F2 chooser */
	enum figure_kind kind;
	size_t offset;            /* FIGURE_RATE: of the double in struct device_rates */
	double scale;             /* FIGURE_RATE: figure = that double * scale (kB -> MB) */
	const char *unit;         /* "/s", "kB/s", "MB/s", "ms", "kB", "%", "" (also what the
				     exporter's base unit is reached from) */
	char group;               /* 'r', 'w', 'd', 'f', or 'q' for the queue: a 'd' figure needs
				     the kernel's discard counters (4.18), an 'f' one its flush
				     counters (5.5), else it is missing */
	bool batch;               /* a number of batch JSON and CSV and of the reports, in table
				     order (in_flight and scheduler follow them, a count and a
				     name, written by each writer; the MB/s forms are not written:
				     their kB/s figure is) */
	const char *help;         /* the console's F2 chooser line */
	/* the console's device table: every figure is a column */
	const char *header;       /* its heading when not the key ("infl") */
	int width;                /* cells, without the separating space */
	enum figure_load load;
	/* the Prometheus exporter (docs/fleet.md): a gauge per shown device, in base units
	 * (bytes, seconds, 0-1), left out by --no-iostat */
	const char *prom_name;    /* NULL: not exported */
	const char *prom_help;
};

extern const struct device_figure device_figures[];
extern const size_t device_figures_count;

const struct device_figure *device_figure_find(const char *key);
/* How many rows are batch figures (batch CSV's and a report's column count). */
size_t device_figures_batch_count(void);
/* The factor from the figure's unit to the exporter's base unit: kB -> bytes, ms -> s,
 * % -> 0-1. */
double device_figure_base_scale(const struct device_figure *f);

/* The figure of r in its unit; NaN for the scheduler. */
static inline double device_figure_value(const struct device_rates *r,
					  const struct device_figure *f)
{
	switch (f->kind) {
	case FIGURE_RATE:
		return *(const double *)((const char *)r + f->offset) * f->scale;
	case FIGURE_IN_FLIGHT:
		return (double)r->in_flight;
	case FIGURE_SCHEDULER:
	default:
		return NAN;
	}
}

/* Missing (batch JSON null, an empty CSV cell, no exporter sample): no rates this
 * interval, or counters this kernel does not give. */
static inline bool device_figure_missing(const struct device_rates *r,
					 const struct device_figure *f)
{
	switch (f->kind) {
	case FIGURE_RATE:
		return !r->valid || (f->group == 'd' && !r->have_discard) ||
		       (f->group == 'f' && !r->have_flush);
	case FIGURE_IN_FLIGHT:
		return false;
	case FIGURE_SCHEDULER:
	default:
		return !r->scheduler[0];
	}
}

#endif
