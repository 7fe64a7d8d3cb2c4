/* output_tasks.h - batch mode's rendering of snapshot.tasks (--tasks): blocked tasks
 * grouped by wait channel and the processes doing the most I/O. */
#ifndef IOSCOPE_OUTPUT_TASKS_H
#define IOSCOPE_OUTPUT_TASKS_H

#include <stdio.h>

#include "jsonw.h"
#include "snapshot.h"

/* "tasks": {...}, or null when the sample has none (a recording made without). */
void output_json_tasks(struct jsonw *w, const struct snapshot *snap);
void output_text_tasks(FILE *out, const struct snapshot *snap);

#endif
