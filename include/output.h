/* output.h - batch mode's text, JSON and CSV renderings of one interval. */
#ifndef IOSCOPE_OUTPUT_H
#define IOSCOPE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "events.h"
#include "jsonw.h"
#include "rates.h"
#include "selection.h"
#include "snapshot.h"

/* One interval as batch mode prints it.  shown[i] says whether rates->devices[i]
 * is printed (the device filter). */
struct interval_view {
	const struct rates *rates;
	const struct snapshot *snap;      /* the later snapshot */
	const struct event_list *events;  /* events of this interval */
	const bool *shown;
	bool with_tasks;                  /* --tasks: blocked tasks and per-process I/O */
	const struct why_rates *why;      /* dirty limits, journals, cgroups; NULL: none */
	const struct selection *sel;      /* the named devices (--tasks shows theirs first);
					     NULL: none named */
};

void output_text(FILE *out, const struct interval_view *v);
/* The why lines of the text output (nothing for figures not read). */
void output_text_why(FILE *out, const struct why_rates *y);
/* w is a reused buffer (jsonw.h); -1 on ENOMEM or a write error. */
int output_json(FILE *out, struct jsonw *w, const struct interval_view *v);
/* The device's "trace" object when the snapshot is traced (whole disks only). */
void output_json_trace(struct jsonw *w, const struct snapshot *snap, const struct device *dev,
		       double interval);
void output_csv_header(FILE *out);
void output_csv(FILE *out, const struct interval_view *v);

/* "%.2f", or "" / "null" for a missing figure: shared number formatting. */
void format_local_time(const struct timespec *wall, char *buf, size_t len, bool with_date);

#endif
