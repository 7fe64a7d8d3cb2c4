/* matrix_status.h - where a running `ioscope matrix` stands, as its step marks carry it.
 *
 * Every step mark of a matrix (an event of kind run, object "matrix") has its progress
 * in the event's result, as key=value text (docs/experiments.md, "Progress"):
 *
 *     state=running cell=3/8 run=1/2 elapsed=725 eta=2400
 *
 * elapsed and eta in whole seconds, eta=? before the first run has finished.  A console
 * watching meanwhile (or replaying a run's log) shows it in its header.  The text comes
 * from another process or a file anyone may craft: matrix_status_parse() takes only what
 * matrix_status_format() writes, bounded, and refuses anything else.
 */
#ifndef IOSCOPE_MATRIX_STATUS_H
#define IOSCOPE_MATRIX_STATUS_H

#include <stdbool.h>
#include <stddef.h>

enum matrix_state {
	MATRIX_RUNNING,
	MATRIX_DONE,          /* every cell ran */
	MATRIX_INTERRUPTED,   /* a signal or a failed step stopped it */
};

#define MATRIX_ETA_UNKNOWN (-1L)
/* The largest count or number of seconds taken (11 years of seconds). */
#define MATRIX_STATUS_NUMBER_MAX 999999999L
/* Room for any text matrix_status_format() writes (with its NUL); the bound parsed. */
#define MATRIX_STATUS_TEXT_MAX 128

struct matrix_status {
	enum matrix_state state;
	long cell, cells;     /* 1 <= cell <= cells */
	long run, runs;       /* the repeat of the cell, out of those planned for it */
	long elapsed_s;       /* since the matrix started */
	long eta_s;           /* time left, estimated; MATRIX_ETA_UNKNOWN */
};

const char *matrix_state_name(enum matrix_state state);   /* "running", "done", "interrupted" */

/* s as key=value text into buf (MATRIX_STATUS_TEXT_MAX is enough). */
void matrix_status_format(const struct matrix_status *s, char *buf, size_t len);
/* The text back into *out; false (and *out untouched) for anything that is not exactly
 * such a text: a repeated key, a number out of range, cell > cells, run > runs, a text
 * of MATRIX_STATUS_TEXT_MAX bytes or more (never read further), bytes other than
 * printable ASCII.  A key it does not know (lower-case letters and '_') is skipped with its
 * value, so that a later matrix can add one. */
bool matrix_status_parse(const char *text, struct matrix_status *out);

/* The status `age_s` seconds after its mark: elapsed goes on, the estimate counts down
 * (not below 0).  Only while running: a finished matrix's figures stay as they were. */
void matrix_status_advance(struct matrix_status *s, double age_s);
/* Whether a status is still worth showing `age_s` seconds after its mark: a finished or
 * interrupted matrix for MATRIX_STATUS_LINGER_S; a running one until no mark came for an
 * hour, or twice its estimate when longer (a matrix killed with SIGKILL says nothing). */
#define MATRIX_STATUS_LINGER_S 60.0
#define MATRIX_STATUS_SILENCE_S 3600.0
bool matrix_status_current(const struct matrix_status *s, double age_s);

/* The header's text, the longest of these that fits `width` columns ("" when none does):
 *     MATRIX cell 3/8 run 1/2 12m05s ETA ~40m      MATRIX done cell 8/8 run 2/2 1h02m
 *     MATRIX 3/8 1/2 ETA ~40m                      MATRIX done 8/8
 *     M 3/8                                        M done
 * (interrupted: as done, with "interrupted", and "M stopped").  ASCII only: bytes are
 * columns. */
void matrix_status_header(const struct matrix_status *s, int width, char *buf, size_t len);

#endif
