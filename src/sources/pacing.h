/* pacing.h - when the live source takes its next sample.
 *
 * Samples fall on a grid: origin (the first sample), origin + interval, ... so a
 * sample's own duration never shifts the next one.  A sample taken late (a busy
 * machine, a console that was drawing) must not be followed by one a moment later
 * on the grid: that interval would be a fraction of a millisecond, and every rate
 * over it noise.  As iostat, one sample per interval: a deadline less than half an
 * interval after the sample is skipped.
 */
#ifndef IOSCOPE_PACING_H
#define IOSCOPE_PACING_H

/* The deadline for the sample after one taken at `now` (seconds, same clock as
 * origin): the first grid point origin + k * interval after now that is at least
 * half an interval away. */
double pacing_next_deadline(double origin, double interval, double now);

#endif
