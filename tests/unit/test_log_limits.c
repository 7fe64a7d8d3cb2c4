/* How far a compressed log may expand (log_limits.h): sizes as given and shown, the
 * environment's values, and a cap that never wraps. */
#include "unit.h"

#include <string.h>

#include "log_limits.h"

static void test_size_parse(void **state)
{
	(void)state;
	static const struct { const char *text; uint64_t bytes; } good[] = {
		{ "1048576", 1048576 }, { "64K", 64ull << 10 }, { "1M", 1ull << 20 },
		{ "16G", 16ull << 30 }, { "2t", 2ull << 40 }, { "512MiB", 512ull << 20 },
		{ "16777215T", 16777215ull << 40 },
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		uint64_t v = 0;
		assert_int_equal(log_size_parse(good[i].text, &v), 0);
		assert_true(v == good[i].bytes);
	}
	static const char *const bad[] = { "", "0", "0M", "-1", " 1M", "1.5G", "1X", "1Mi",
					   "1MB", "16777216T", "99999999999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint64_t v = 7;
		assert_int_equal(log_size_parse(bad[i], &v), -1);
		assert_true(v == 7);
	}
}

static void test_size_format(void **state)
{
	(void)state;
	static const struct { uint64_t bytes; const char *text; } cases[] = {
		{ 0, "0 bytes" }, { 1023, "1023 bytes" }, { 1024, "1 KiB" }, { 1641, "1.6 KiB" },
		{ 1ull << 20, "1 MiB" }, { 16ull << 30, "16 GiB" }, { UINT64_MAX, "16 EiB" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char buf[32];
		log_size_format(cases[i].bytes, buf, sizeof buf);
		assert_string_equal(buf, cases[i].text);
	}
}

static void test_cap(void **state)
{
	(void)state;
	struct log_limits lim = { .max_bytes = 1ull << 20, .max_ratio = 100 };
	assert_true(log_limits_cap(&lim, 1000) == 100000);          /* the ratio is less */
	assert_true(log_limits_cap(&lim, 1ull << 20) == 1ull << 20);  /* the size is less */
	lim = (struct log_limits){ .max_bytes = UINT64_MAX, .max_ratio = UINT64_MAX };
	assert_true(log_limits_cap(&lim, 3) == UINT64_MAX);         /* saturates, never wraps */
	assert_true(log_limits_cap(&lim, 0) == 0);
}

static void test_from_env(void **state)
{
	(void)state;
	struct log_limits lim;
	struct error err = { "" };
	unsetenv(LOG_LIMIT_BYTES_ENV);
	unsetenv(LOG_LIMIT_RATIO_ENV);
	assert_int_equal(log_limits_from_env(&lim, &err), 0);
	assert_true(lim.max_bytes == LOG_LIMIT_BYTES_DEFAULT);
	assert_true(lim.max_ratio == LOG_LIMIT_RATIO_DEFAULT);
	setenv(LOG_LIMIT_BYTES_ENV, "64G", 1);
	setenv(LOG_LIMIT_RATIO_ENV, "5000", 1);
	assert_int_equal(log_limits_from_env(&lim, &err), 0);
	assert_true(lim.max_bytes == 64ull << 30);
	assert_true(lim.max_ratio == 5000);
	setenv(LOG_LIMIT_RATIO_ENV, "5e3", 1);
	assert_int_equal(log_limits_from_env(&lim, &err), -1);
	assert_non_null(strstr(err.msg, "IOSCOPE_DECOMPRESS_RATIO=5e3"));
	setenv(LOG_LIMIT_RATIO_ENV, "5000", 1);
	setenv(LOG_LIMIT_BYTES_ENV, "lots", 1);
	assert_int_equal(log_limits_from_env(&lim, &err), -1);
	assert_non_null(strstr(err.msg, "IOSCOPE_DECOMPRESS_MAX=lots"));
	unsetenv(LOG_LIMIT_BYTES_ENV);
	unsetenv(LOG_LIMIT_RATIO_ENV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_parse),
		cmocka_unit_test(test_size_format),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_from_env),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
