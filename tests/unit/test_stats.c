/* The statistics behind the matrix's verdicts (include/stats.h), against values of
 * Student's t tables and of an independent computation (Simpson's rule over the t
 * density, the tests' formulas written again in Python, the binomial ranks summed). */
#include "unit.h"

#include <math.h>

#include "stats.h"

#define near(x, want, tol) assert_true(fabs((x) - (want)) < (tol))

static void test_t(void **state)
{
	(void)state;
	/* two-sided 5 % points of Student's t tables */
	near(stats_t_critical(0.05, 1), 12.7062047, 1e-6);
	near(stats_t_critical(0.05, 2), 4.30265273, 1e-7);
	near(stats_t_critical(0.05, 5), 2.57058184, 1e-7);
	near(stats_t_critical(0.05, 10), 2.22813885, 1e-7);
	near(stats_t_critical(0.05, 30), 2.04227246, 1e-7);
	near(stats_t_critical(0.05, 1000), 1.96233908, 1e-7);
	near(stats_t_two_sided_p(2.228138852, 10), 0.05, 1e-9);
	near(stats_t_two_sided_p(1.5, 3.7), 0.213598169, 1e-8);   /* a fractional df */
	near(stats_t_two_sided_p(0, 4), 1, 1e-12);
	near(stats_t_two_sided_p(-1.5, 3.7), stats_t_two_sided_p(1.5, 3.7), 1e-15);
	assert_true(isnan(stats_t_two_sided_p(1, 0)));
}

static void test_mean_ci(void **state)
{
	(void)state;
	double v[] = { 10.2, 10.4, 10.0, 10.3 }, mean, half;
	stats_mean_ci(v, 4, &mean, &half);
	near(mean, 10.225, 1e-12);
	near(half, 0.271753088, 1e-8);   /* t(3) 3.1824 x sd 0.1708 / 2 */
	double one[] = { 12.0 }, with_nan[] = { 1.0, NAN, 3.0 };
	stats_mean_ci(one, 1, &mean, &half);
	assert_true(mean == 12.0 && isnan(half));   /* one run: no interval */
	stats_mean_ci(with_nan, 3, &mean, &half);
	near(mean, 2.0, 1e-12);
	near(half, 12.7062047 * sqrt(2.0) / sqrt(2.0), 1e-6);
	stats_mean_ci(v, 0, &mean, &half);
	assert_true(isnan(mean) && isnan(half));
}

static void test_welch(void **state)
{
	(void)state;
	double a[] = { 10.2, 10.4, 10.0, 10.3 }, b[] = { 10.9, 11.4, 10.7 };
	near(stats_welch_p(a, 4, b, 3), 0.0488437667, 1e-8);   /* t -3.44, df 2.68: differs */
	double c[] = { 9.0, 10.0, 11.0 }, d[] = { 9.5, 10.5, 10.2 };
	near(stats_welch_p(c, 3, d, 3), 0.924687156, 1e-8);    /* within noise */
	near(stats_welch_p(b, 3, a, 4), stats_welch_p(a, 4, b, 3), 1e-15);
	assert_true(isnan(stats_welch_p(a, 4, b, 1)));          /* one run: untested */
	double e[] = { 2, 2 }, f[] = { 3, 3 };
	assert_true(stats_welch_p(e, 2, f, 2) == 0);              /* no spread, other means */
	assert_true(stats_welch_p(e, 2, e, 2) == 1);
}

static void test_mann_whitney(void **state)
{
	(void)state;
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	near(stats_mann_whitney_p(a, 3, b, 3), 0.0808555984, 1e-9);   /* as scipy's asymptotic */
	double c[] = { 1, 2, 2, 3, 5 }, d[] = { 2, 4, 4, 6, 7, 8 };  /* ties */
	near(stats_mann_whitney_p(c, 5, d, 6), 0.0793436832, 1e-9);
	double same[] = { 7, 7, 7 };
	assert_true(stats_mann_whitney_p(same, 3, same, 3) == 1);
	assert_true(isnan(stats_mann_whitney_p(a, 1, b, 3)));
	/* a shift far beyond the spread of 40 reads each differs; none does not */
	double x[40], y[40], z[40];
	for (int i = 0; i < 40; i++) {
		x[i] = 100 + (i * 37) % 40;
		y[i] = 150 + (i * 13) % 40;
		z[i] = 100 + (i * 13) % 40;
	}
	assert_true(stats_mann_whitney_p(x, 40, y, 40) < 0.001);
	assert_true(stats_mann_whitney_p(x, 40, z, 40) > 0.5);
}

static void test_percentile_ci(void **state)
{
	(void)state;
	double v[1000], est, lo, hi;
	for (int i = 0; i < 10; i++)
		v[i] = 10 - i;   /* sorted: 1 .. 10 */
	stats_percentile_ci(v, 10, 50, &est, &lo, &hi);
	assert_true(est == 5 && lo == 2 && hi == 9);   /* ranks 2 and 9: 97.9 % */
	for (int i = 0; i < 10; i++)
		v[i] = i + 1;
	stats_percentile_ci(v, 10, 99, &est, &lo, &hi);
	assert_true(est == 10 && lo == 9 && isnan(hi));   /* 10 reads: no upper bound */
	for (int i = 0; i < 1000; i++)
		v[i] = 1000 - i;
	stats_percentile_ci(v, 1000, 99, &est, &lo, &hi);
	assert_true(est == 990 && lo == 983 && hi == 997);
	for (int i = 0; i < 367; i++)
		v[i] = i + 1;
	stats_percentile_ci(v, 367, 99, &est, &lo, &hi);
	assert_true(lo == 359 && isnan(hi));   /* under ~370 reads the p99 has no upper bound */
	stats_percentile_ci(v, 0, 50, &est, &lo, &hi);
	assert_true(isnan(est) && isnan(lo) && isnan(hi));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t),
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_percentile_ci),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
