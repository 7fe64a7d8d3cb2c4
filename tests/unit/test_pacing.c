/* Pacing (issue 9 item 15): the deadline after a sample, late or on time. */
#include "unit.h"

#include "pacing.h"

static void test_on_time_samples_follow_the_grid(void **state)
{
	(void)state;
	assert_float_equal(pacing_next_deadline(100.0, 1.0, 100.0), 101.0, 1e-9);
	assert_float_equal(pacing_next_deadline(100.0, 1.0, 101.0003), 102.0, 1e-9);
	/* Late by less than half an interval: the next grid point still. */
	assert_float_equal(pacing_next_deadline(100.0, 1.0, 103.4), 104.0, 1e-9);
	assert_float_equal(pacing_next_deadline(0.0, 0.01, 0.0104), 0.02, 1e-9);
}

static void test_late_sample_skips_a_deadline(void **state)
{
	(void)state;
	/* 0.9 s late: 104 would come 0.1 s later; skip to 105. */
	assert_float_equal(pacing_next_deadline(100.0, 1.0, 103.9), 105.0, 1e-9);
	/* Just over half: skipped; exactly half an interval away is kept. */
	assert_float_equal(pacing_next_deadline(100.0, 1.0, 103.5001), 105.0, 1e-9);
	assert_float_equal(pacing_next_deadline(100.0, 1.0, 103.5), 104.0, 1e-9);
	/* Late by several intervals: one sample, then the grid again. */
	assert_float_equal(pacing_next_deadline(100.0, 1.0, 106.7), 108.0, 1e-9);
	/* The 10 ms case of the issue: a sample 9.5 ms late, never one 0.5 ms after. */
	double next = pacing_next_deadline(0.0, 0.010, 0.0195);
	assert_true(next - 0.0195 >= 0.005);
	assert_float_equal(next, 0.030, 1e-9);
}

static void test_next_is_always_half_an_interval_away(void **state)
{
	(void)state;
	for (int i = 0; i < 10000; i++) {
		double now = 50.0 + i * 0.000731;
		double next = pacing_next_deadline(50.0, 0.05, now);
		assert_true(next - now >= 0.025 - 1e-9);
		assert_true(next - now <= 0.075 + 1e-9);
	}
	/* A clock before the origin (never expected) still gives a future deadline. */
	assert_float_equal(pacing_next_deadline(10.0, 1.0, 9.0), 11.0, 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_on_time_samples_follow_the_grid),
		cmocka_unit_test(test_late_sample_skips_a_deadline),
		cmocka_unit_test(test_next_is_always_half_an_interval_away),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
