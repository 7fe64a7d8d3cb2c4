/* csv.h - one CSV field, quoted only when it must be (RFC 4180). */
#ifndef IOSCOPE_CSV_H
#define IOSCOPE_CSV_H

#include <stdio.h>

/* s as a field: as is, or in double quotes (inner quotes doubled) when it holds a
 * comma, a quote or a line break. */
void csv_put(FILE *out, const char *s);

#endif
