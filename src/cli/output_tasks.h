/* output_tasks.h - batch mode's rendering of snapshot.tasks (--tasks): blocked tasks
 * grouped by wait channel and the processes doing the most I/O. */
#ifndef IOSCOPE_OUTPUT_TASKS_H
#define IOSCOPE_OUTPUT_TASKS_H

#include <stdio.h>

#include "jsonw.h"
#include "selection.h"
#include "snapshot.h"

/* "tasks": {...}, or null when the sample has none (a recording made without).  Every
 * blocked task and process with the devices it is attributed to (attribution.h). */
void output_json_tasks(struct jsonw *w, const struct snapshot *snap);
/* With devices named (sel not NULL nor empty), their blocked tasks and processes first,
 * the others summed up in a line each: elsewhere, not attributed. */
void output_text_tasks(FILE *out, const struct snapshot *snap, const struct selection *sel);

#endif
