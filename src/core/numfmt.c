/* numfmt.c - a number in a fixed width (numfmt.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "numfmt.h"

static bool fits(char *buf, size_t len, int width, const char *fmt, int prec, double v,
		 const char *suffix)
{
	int n = snprintf(buf, len, fmt, prec, v, suffix);
	return n >= 0 && n <= width && (size_t)n < len;
}

void numfmt_fit(double v, int width, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	/* the precision that fits, guessed from the magnitude: one snprintf as a rule */
	double a = fabs(v);
	int int_digits = (a < 1 ? 1 : (int)floor(log10(a)) + 1) + (v < 0);
	int guess = width - int_digits - 1;
	for (int prec = guess > 2 ? 2 : guess < 0 ? 0 : guess; prec >= 0; prec--)
		if (fits(buf, len, width, "%.*f%s", prec, v, ""))
			return;
	static const char *const suffix[] = { "k", "M", "G", "T", "P" };
	double s = v;
	for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
		s /= 1000;
		for (int prec = 1; prec >= 0; prec--)
			if (fits(buf, len, width, "%.*f%s", prec, s, suffix[i]))
				return;
	}
	snprintf(buf, len, "%.*s", width, "+++++++++");
}
