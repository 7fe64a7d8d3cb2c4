/* status.h - the console's clock and its one-line message (the footer's status),
 * a small piece the loop, the actions and the panes share without reaching into
 * each other: actions post, the loop expires, the footer only reads. */
#ifndef IOSCOPE_STATUS_H
#define IOSCOPE_STATUS_H

#include <stdarg.h>
#include <stdbool.h>

#define STATUS_SECONDS 5.0
#define STATUS_WARNING_SECONDS 10.0   /* a broken theme or config deserves a longer look */

struct status_line {
	char text[512];     /* "" when none */
	bool warning;
	double until;       /* monotonic seconds it is shown until */
};

double status_clock(void);   /* CLOCK_MONOTONIC seconds */
void status_post(struct status_line *s, double now, bool warning, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/* The message to show at now; NULL when there is none (or it has expired). */
const char *status_current(const struct status_line *s, double now);
/* Forget an expired message: true when one went (the screen needs a redraw). */
bool status_expire(struct status_line *s, double now);
/* Seconds until the message expires; -1 when there is none. */
double status_wait(const struct status_line *s, double now);

#endif
