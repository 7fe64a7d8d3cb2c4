/* csv.c - CSV fields for batch output and reports. */
#include <string.h>

#include "csv.h"

void csv_put(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\n\r")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
