/* csv.c - CSV fields for batch output and reports. */
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "text.h"

static void put_field(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"")]) {
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

void csv_put(FILE *out, const char *s)
{
	if (text_is_clean(s)) {
		put_field(out, s);
		return;
	}
	size_t len = strlen(s) + 1;
	char *clean = malloc(len);
	if (!clean) {
		fputs("?", out);
		return;
	}
	put_field(out, text_escape(s, clean, len));
	free(clean);
}
