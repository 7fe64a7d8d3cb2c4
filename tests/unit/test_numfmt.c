/* test_numfmt.c - numfmt_fixed() prints what snprintf("%*.*f") prints, byte for byte and
 * with the same return, over the values a report prints and the ones that are hard to round:
 * exact ties of the binary value (0.25, 2.5: to even), the doubles either side of them, of
 * what only looks like a tie (0.05, 0.35), negative zero and what rounds to it, the edge of
 * the fast path, NaN, infinities, and buffers too short. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "numfmt.h"

static unsigned long checked;

static void same(int width, int prec, double v)
{
	char want[512], got[512];
	int nw = snprintf(want, sizeof want, "%*.*f", width, prec, v);
	int ng = numfmt_fixed(got, sizeof got, width, prec, v);
	if (nw != ng || strcmp(want, got) != 0)
		fail_msg("%%%d.%df of %.17g (%a): snprintf \"%s\" (%d), numfmt_fixed \"%s\" (%d)",
			 width, prec, v, v, want, nw, got, ng);
	checked++;
}

static void every_format(double v)
{
	static const int widths[] = { 0, 1, 4, 5, 9, 16 };
	for (int prec = 0; prec <= 5; prec++)
		for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
			same(widths[w], prec, v);
			same(widths[w], prec, -v);
		}
}

/* a deterministic generator: the same values every run */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_ties_and_neighbours(void **state)
{
	(void)state;
	static const double scale[] = { 1, 10, 100, 1000, 10000 };
	uint64_t s = 0x9e3779b97f4a7c15u;
	for (int prec = 0; prec <= 4; prec++)
		for (int i = 0; i < 4000; i++) {
			/* (k + 1/2) / 10^prec, exact when the division is: every half of prec 0, the
			 * quarters at prec 1, and the doubles just either side */
			double k = (double)(next(&s) % 2000000);
			double t = (k + 0.5) / scale[prec];
			every_format(t);
			every_format(nextafter(t, 0));
			every_format(nextafter(t, INFINITY));
		}
	static const double hard[] = { 0.25, 0.75, 2.5, 3.5, 0.125, 0.375, 0.05, 0.15, 0.35,
				       1.005, 2.675, 0.045, 1e-300, 5e-324, 0.0, 0.4999999999999999,
				       0.5, 1.5, 499999999999.5, 499999999999.95, 5e11, 5.1e11,
				       4.9999999999e11, 1e15, 1e300 };
	for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++)
		every_format(hard[i]);
}

static void test_random_values(void **state)
{
	(void)state;
	uint64_t s = 0x243f6a8885a308d3u;
	for (int i = 0; i < 20000; i++) {
		/* uniform in [0, 1e4), as rates are; and any exponent from 1e-20 to 1e13 */
		every_format((double)(next(&s) >> 11) / (double)(1ull << 53) * 1e4);
		double m = (double)(next(&s) >> 11) / (double)(1ull << 53);
		every_format(m * pow(10, (double)(next(&s) % 34) - 20));
	}
}

static void test_not_numbers_and_short_buffers(void **state)
{
	(void)state;
	every_format(NAN);
	every_format(INFINITY);
	same(-6, 1, 2.5);   /* left-justified: printf's own */
	char want[8], got[8];
	for (size_t len = 0; len < sizeof got; len++) {
		memset(want, 'x', sizeof want);
		memset(got, 'x', sizeof got);
		int nw = snprintf(want, len, "%*.*f", 9, 2, -1234.565);
		int ng = numfmt_fixed(got, len, 9, 2, -1234.565);
		assert_int_equal(nw, ng);
		assert_memory_equal(want, got, sizeof got);
	}
	print_message("%lu formats compared\n", checked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties_and_neighbours),
		cmocka_unit_test(test_random_values),
		cmocka_unit_test(test_not_numbers_and_short_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
