/* numfmt.h - a number in a fixed width, as the console's columns and batch text show it. */
#ifndef IOSCOPE_NUMFMT_H
#define IOSCOPE_NUMFMT_H

#include <stddef.h>

/* Right-aligned text of a number in width cells: 2 decimals as iostat when they fit,
 * fewer, then k/M/G suffixes; "-" for NaN. */
void numfmt_fit(double v, int width, char *buf, size_t len);
/* snprintf(buf, len, "%*.*f", width, prec, v), the same bytes and the same return, made
 * without printf's arbitrary-precision digits where the result is a 64-bit integer in
 * disguise (0 to 4 decimals, |v| under 5e11; else by snprintf itself).  Reports print
 * a million such cells, and printf's way was a quarter of their time. */
int numfmt_fixed(char *buf, size_t len, int width, int prec, double v);

#endif
