/* numfmt.h - a number in a fixed width, as the console's columns and batch text show it. */
#ifndef IOSCOPE_NUMFMT_H
#define IOSCOPE_NUMFMT_H

#include <stddef.h>

/* Right-aligned text of a number in width cells: 2 decimals as iostat when they fit,
 * fewer, then k/M/G suffixes; "-" for NaN. */
void numfmt_fit(double v, int width, char *buf, size_t len);

#endif
