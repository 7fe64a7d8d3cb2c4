/* csv.h - one CSV field, quoted only when it must be (RFC 4180). */
#ifndef IOSCOPE_CSV_H
#define IOSCOPE_CSV_H

#include <stdio.h>

/* s as a field: control characters escaped as every text output does (text.h: a line
 * break becomes '?', so a record is always one line), then as is, or in double quotes
 * (inner quotes doubled) when it holds a comma or a quote. */
void csv_put(FILE *out, const char *s);

#endif
