/* The streaming JSON writer: structure, escaping, numbers; json-c reads it back. */
#include "unit.h"

#include <json-c/json.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "jsonw.h"

static void test_structure_and_escaping(void **state)
{
	(void)state;
	struct jsonw w;
	jsonw_init(&w);
	jsonw_object_begin(&w);
	jsonw_key(&w, "r/s");
	jsonw_fixed(&w, 12.3456, 3);
	jsonw_key(&w, "name");
	jsonw_string(&w, "a\"b\\c\nd\x01");
	jsonw_key(&w, "list");
	jsonw_array_begin(&w);
	jsonw_uint(&w, 18446744073709551615ULL);
	jsonw_int(&w, -42);
	jsonw_null(&w);
	jsonw_bool(&w, true);
	jsonw_object_begin(&w);
	jsonw_object_end(&w);
	jsonw_array_end(&w);
	jsonw_key(&w, "nan");
	jsonw_fixed(&w, NAN, 3);
	jsonw_object_end(&w);
	assert_false(w.failed);
	assert_string_equal(w.buf, "{\"r/s\":12.346,\"name\":\"a\\\"b\\\\c\\u000ad\\u0001\","
				   "\"list\":[18446744073709551615,-42,null,true,{}],\"nan\":null}");
	json_object *o = json_tokener_parse(w.buf);
	assert_non_null(o);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "name")), "a\"b\\c\nd\x01");
	json_object_put(o);
	jsonw_free(&w);
}

static void expect_fixed(double v, int decimals, const char *want)
{
	struct jsonw w;
	jsonw_init(&w);
	jsonw_fixed(&w, v, decimals);
	assert_string_equal(w.buf, want);
	char ref[64];
	snprintf(ref, sizeof ref, "%.*f", decimals, v);
	if (strcmp(ref, "-0.000") != 0 && strcmp(ref, "-0") != 0)
		assert_string_equal(w.buf, ref);
	jsonw_free(&w);
}

static void test_fixed_numbers(void **state)
{
	(void)state;
	expect_fixed(0, 3, "0.000");
	expect_fixed(1.00049, 3, "1.000");
	expect_fixed(1.00051, 3, "1.001");
	expect_fixed(619132.48, 3, "619132.480");
	expect_fixed(-2.5, 1, "-2.5");
	expect_fixed(-0.0001, 3, "0.000");  /* no negative zero */
	expect_fixed(99.9999, 3, "100.000");
	expect_fixed(7, 0, "7");
	expect_fixed(1e20, 2, "100000000000000000000.00");   /* printf fallback */
}

/* The largest doubles: every digit printf gives, inside an array json-c reads back,
 * nothing from beyond the formatting buffer (issue 9: 1e308 copied 313 bytes of a
 * 64-byte buffer). */
static void test_fixed_extremes(void **state)
{
	(void)state;
	const double values[] = { 1e308, -DBL_MAX, DBL_MAX, 9.3e18, -1e300 };
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		for (int decimals = 0; decimals <= 9; decimals += 3) {
			struct jsonw w;
			jsonw_init(&w);
			jsonw_array_begin(&w);
			jsonw_fixed(&w, values[i], decimals);
			jsonw_array_end(&w);
			char ref[400];
			snprintf(ref, sizeof ref, "[%.*f]", decimals, values[i]);
			assert_string_equal(w.buf, ref);
			json_object *o = json_tokener_parse(w.buf);
			assert_non_null(o);
			json_object_put(o);
			jsonw_free(&w);
		}
	}
}

static void test_reset_reuses_buffer(void **state)
{
	(void)state;
	struct jsonw w;
	jsonw_init(&w);
	jsonw_array_begin(&w);
	jsonw_uint(&w, 1);
	jsonw_array_end(&w);
	char *buf = w.buf;
	jsonw_reset(&w);
	jsonw_array_begin(&w);
	jsonw_uint(&w, 2);
	jsonw_array_end(&w);
	assert_ptr_equal(buf, w.buf);
	assert_string_equal(w.buf, "[2]");
	jsonw_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_structure_and_escaping),
		cmocka_unit_test(test_fixed_numbers),
		cmocka_unit_test(test_fixed_extremes),
		cmocka_unit_test(test_reset_reuses_buffer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
