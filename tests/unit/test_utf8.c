/* UTF-8 validity and JSON text that always is: the jsonw writer, json-c's serialization
 * through json_text_of(), and the repair of a bad byte anywhere. */
#include "unit.h"

#include <json-c/json.h>
#include <string.h>

#include "json_text.h"
#include "jsonw.h"
#include "utf8.h"

#define R "\xef\xbf\xbd"   /* U+FFFD */

static size_t seq(const char *s)
{
	return utf8_sequence_length((const unsigned char *)s);
}

static void test_sequence_lengths(void **state)
{
	(void)state;
	assert_int_equal(seq("a"), 1);
	assert_int_equal(seq("\x01"), 1);               /* controls are valid UTF-8 */
	assert_int_equal(seq("\xc3\xa9"), 2);           /* é */
	assert_int_equal(seq("\xc2\x9b"), 2);           /* C1 CSI: valid, text.h's concern */
	assert_int_equal(seq("\xe2\x80\xa6"), 3);       /* … */
	assert_int_equal(seq("\xf0\x9f\x92\xbe"), 4);   /* 💾 */
	assert_int_equal(seq("\x80"), 0);               /* stray continuation */
	assert_int_equal(seq("\xff"), 0);
	assert_int_equal(seq("\xc0\xaf"), 0);           /* overlong '/' */
	assert_int_equal(seq("\xe0\x80\xaf"), 0);       /* overlong, 3 bytes */
	assert_int_equal(seq("\xed\xa0\x80"), 0);       /* surrogate U+D800 */
	assert_int_equal(seq("\xf4\x90\x80\x80"), 0);   /* above U+10FFFF */
	assert_int_equal(seq("\xe2\x80"), 0);           /* cut short by the NUL */
}

static void test_valid_prefix_never_reads_past_len(void **state)
{
	(void)state;
	const char s[] = "ab\xe2\x80\xa6" "cd";
	assert_int_equal(utf8_valid_prefix(s, strlen(s)), strlen(s));
	assert_int_equal(utf8_valid_prefix(s, 3), 2);   /* … cut by len: not valid */
	assert_int_equal(utf8_valid_prefix("x\xff", 2), 1);
}

static void test_repair(void **state)
{
	(void)state;
	size_t n;
	const char *ok = "{\"a\":\"caf\xc3\xa9\"}";
	assert_ptr_equal(utf8_json_repair(ok, strlen(ok), &n), ok);
	assert_int_equal(n, strlen(ok));
	const char *bad = "{\"m\":\"/mnt/b\xff\xfe-x\x80\"}";
	const char *fixed = utf8_json_repair(bad, strlen(bad), &n);
	assert_non_null(fixed);
	assert_string_equal(fixed, "{\"m\":\"/mnt/b" R R "-x" R "\"}");
	assert_int_equal(n, strlen(fixed));
	free((char *)fixed);
}

static void test_jsonw_replaces_bad_bytes(void **state)
{
	(void)state;
	struct jsonw w;
	jsonw_init(&w);
	jsonw_object_begin(&w);
	jsonw_key(&w, "k\xff");
	jsonw_string(&w, "caf\xc3\xa9 \xc3 \xed\xa0\x80 \xe2\x80\xa6");
	jsonw_object_end(&w);
	assert_false(w.failed);
	assert_string_equal(w.buf, "{\"k" R "\":\"caf\xc3\xa9 " R " " R R R " "
				   "\xe2\x80\xa6\"}");
	assert_int_equal(utf8_valid_prefix(w.buf, w.len), w.len);
	jsonw_free(&w);
}

static void test_json_text_of_json_c(void **state)
{
	(void)state;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "object", json_object_new_string("/mnt/\xff"));
	struct json_text t = json_text_of(o, JSON_TEXT_LINE);
	assert_non_null(t.text);
	assert_string_equal(t.text, "{\"object\":\"/mnt/" R "\"}");
	assert_int_equal(t.len, strlen(t.text));
	json_text_free(&t);
	json_object_object_add(o, "object", json_object_new_string("/mnt/ok"));
	t = json_text_of(o, JSON_TEXT_LINE);
	assert_null(t.owned);   /* valid text is not copied */
	assert_string_equal(t.text, "{\"object\":\"/mnt/ok\"}");
	json_text_free(&t);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence_lengths),
		cmocka_unit_test(test_valid_prefix_never_reads_past_len),
		cmocka_unit_test(test_repair),
		cmocka_unit_test(test_jsonw_replaces_bad_bytes),
		cmocka_unit_test(test_json_text_of_json_c),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
