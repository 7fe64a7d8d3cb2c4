/* numfmt.c - a number in a fixed width (numfmt.h). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

int numfmt_fixed(char *buf, size_t len, int width, int prec, double v)
{
	static const unsigned scale[] = { 1, 10, 100, 1000, 10000 };
	double a = fabs(v);
#ifdef __SIZEOF_INT128__
	if (prec < 0 || prec > 4 || !(a < 5e11) || width < 0 || width > 64)
		return snprintf(buf, len, "%*.*f", width, prec, v);
	/* a is mant * 2^e exactly, and a * 10^prec is mant * 10^prec (67 bits at most) shifted
	 * right by -e: the bits shifted out decide the rounding, to nearest, ties to even, as
	 * printf rounds the exact binary value (in the default rounding mode) */
	uint64_t bits;
	memcpy(&bits, &a, sizeof bits);
	int exponent = (int)(bits >> 52);
	uint64_t mant = bits & ((1ull << 52) - 1);
	if (exponent)
		mant |= 1ull << 52;
	else
		exponent = 1;   /* subnormal */
	int shift = 1075 - exponent;   /* > 0: a < 2^39 */
	unsigned __int128 x = (unsigned __int128)mant * scale[prec];
	uint64_t n = 0;
	if (shift < 68) {   /* else x < 2^67 is under half a unit: 0 */
		unsigned __int128 unit = (unsigned __int128)1 << shift;
		unsigned __int128 rest = x & (unit - 1), half = unit >> 1;
		n = (uint64_t)(x >> shift);
		n += rest > half || (rest == half && (n & 1));
	}
	char text[96], *p = text + sizeof text;
	for (int i = 0; i < prec; i++, n /= 10)
		*--p = (char)('0' + n % 10);
	if (prec)
		*--p = '.';
	do
		*--p = (char)('0' + n % 10);
	while (n /= 10);
	if (signbit(v))
		*--p = '-';
	while (text + sizeof text - p < width)
		*--p = ' ';
	size_t k = (size_t)(text + sizeof text - p);
	if (len) {
		size_t copy = k < len ? k : len - 1;
		memcpy(buf, p, copy);
		buf[copy] = '\0';
	}
	return (int)k;
#else
	(void)a;
	(void)scale;
	return snprintf(buf, len, "%*.*f", width, prec, v);
#endif
}
