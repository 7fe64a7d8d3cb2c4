/* progress.h - "what: 45%" on a terminal's stderr for work that takes a while.
 *
 * A report over a week-long log or the PNG of a day takes seconds; a silent
 * terminal looks hung.  Nothing is shown for work done within a second
 * (IOSCOPE_PROGRESS_AFTER seconds: the tests set 0), nor when stderr is not a
 * terminal (a script's log stays clean).
 */
#ifndef IOSCOPE_PROGRESS_H
#define IOSCOPE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct progress {
	FILE *out;                  /* NULL: not shown */
	const char *what;
	double after;               /* seconds before anything is shown */
	struct timespec start, last;
	bool shown;
};

/* out: where to show it (stderr), only if it is a terminal. */
void progress_begin(struct progress *p, FILE *out, const char *what);
void progress_update(struct progress *p, uint64_t done, uint64_t total);
/* Clears the line when anything was shown. */
void progress_end(struct progress *p);

#endif
