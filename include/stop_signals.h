/* stop_signals.h - the signals that end a batch-like run (batch, `run --batch`, the matrix),
 * taken as reads of a signalfd its loop polls, so that the loop ends at a sample boundary and
 * writes what it has rather than dying in the middle of a line.
 */
#ifndef IOSCOPE_STOP_SIGNALS_H
#define IOSCOPE_STOP_SIGNALS_H

/* Blocks SIGINT, SIGTERM and SIGHUP and returns a non-blocking, close-on-exec signalfd for
 * them; -1 with errno on failure. */
int stop_signals_open(void);

#endif
