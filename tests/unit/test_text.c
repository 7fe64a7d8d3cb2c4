/* The escaping rule of every text output (text.h) and bounded appending. */
#include "unit.h"

#include <string.h>

#include "text.h"
#include "utf8.h"

static void expect_escaped(const char *in, const char *want)
{
	char out[256];
	assert_string_equal(text_escape(in, out, sizeof out), want);
	assert_int_equal(text_is_clean(in), strcmp(in, want) == 0);
	char copy[256];
	snprintf(copy, sizeof copy, "%s", in);
	text_escape_inplace(copy);
	assert_string_equal(copy, want);
}

static void test_escape(void **state)
{
	(void)state;
	expect_escaped("loop0", "loop0");
	expect_escaped("/mnt/with space/é→ü", "/mnt/with space/é→ü");
	expect_escaped("m\x1b]2;PWNED\x07\n---- fake ----", "m?]2;PWNED?" "?---- fake ----");
	expect_escaped("cr\rtab\tdel\x7f", "cr?tab?del?");
	expect_escaped("c1 \xc2\x9b" "31m", "c1 ?31m");        /* U+009B, CSI in UTF-8: one '?' */
	expect_escaped("lone \x9b" "31m", "lone ?31m");        /* CSI to an 8-bit terminal */
	expect_escaped("nbsp \xc2\xa0.", "nbsp \xc2\xa0.");    /* U+00A0 is printable */
	expect_escaped("overlong \xc0\xaf", "overlong ?" "?");
	expect_escaped("surrogate \xed\xa0\x80", "surrogate ?" "?" "?");
	expect_escaped("cut \xe2\x86", "cut ?" "?");
	expect_escaped("emoji \xf0\x9f\x98\x80", "emoji \xf0\x9f\x98\x80");
	/* U+FFFD is how a session log keeps a byte that was not UTF-8: '?' as that byte is */
	expect_escaped("replaced \xef\xbf\xbd!", "replaced ?!");
}

/* The same name live (its raw bytes) and replayed (what the JSON writers made of them)
 * prints the same: one rule, not '?' live and U+FFFD in a replay. */
static void test_escape_live_and_replayed(void **state)
{
	(void)state;
	const char *live = "bad\xff\xfe-name\x80";
	size_t len;
	const char *json = utf8_json_repair(live, strlen(live), &len);
	assert_non_null(json);
	assert_true(json != live);
	char a[64], b[64];
	assert_string_equal(text_escape(live, a, sizeof a), "bad?" "?-name?");
	assert_string_equal(text_escape(json, b, sizeof b), a);
	free((void *)json);
}

static void test_escape_bounded(void **state)
{
	(void)state;
	char out[6];
	assert_string_equal(text_escape("abcdefgh", out, sizeof out), "abcde");
	assert_string_equal(text_escape("ab\xe2\x86\x92x", out, sizeof out), "ab\xe2\x86\x92");
	assert_string_equal(text_escape("abcd\xe2\x86\x92", out, sizeof out), "abcd");  /* never half a character */
}

static void test_printf(void **state)
{
	(void)state;
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof buf, "w");
	assert_non_null(f);
	text_printf(f, "\n---- %s %s ----\n", "09:00:00", "vda\n---- fake\x1b[2J ----");
	text_printf(f, "%s", "no newline of its own\n");
	fclose(f);
	assert_string_equal(buf, "\n---- 09:00:00 vda?---- fake?[2J ---- ----\nno newline of its own?");
}

static void test_printf_long(void **state)
{
	(void)state;
	char big[5000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	big[2500] = '\a';
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(text_printf(f, "%s\n", big), (int)sizeof big);
	fclose(f);
	assert_int_equal(len, sizeof big);
	assert_int_equal(buf[2500], '?');
	assert_int_equal(buf[sizeof big - 1], '\n');
	free(buf);
}

static void test_appendf(void **state)
{
	(void)state;
	char buf[8];
	size_t used = text_appendf(buf, sizeof buf, 0, "%s", "abc");
	assert_int_equal(used, 3);
	used = text_appendf(buf, sizeof buf, used, "%s", "defghijkl");
	assert_int_equal(used, 7);
	assert_string_equal(buf, "abcdefg");
	used = text_appendf(buf, sizeof buf, used, "%s", "more");   /* full: stays full */
	assert_int_equal(used, 7);
	assert_string_equal(buf, "abcdefg");
}

/* A table's names joined for --help and errors: "a", "a or b", "a, b or c", cut at len. */
static void test_join(void **state)
{
	(void)state;
	static const char *const names[] = { "text", "json", "csv" };
	char buf[64];
	text_join(buf, sizeof buf, names, 3, ", ", " or ");
	assert_string_equal(buf, "text, json or csv");
	text_join(buf, sizeof buf, names, 2, "|", "|");
	assert_string_equal(buf, "text|json");
	text_join(buf, sizeof buf, names, 1, ", ", " or ");
	assert_string_equal(buf, "text");
	text_join(buf, sizeof buf, names, 0, ", ", " or ");
	assert_string_equal(buf, "");
	text_join(buf, 8, names, 3, ", ", " or ");
	assert_string_equal(buf, "text, j");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_live_and_replayed),
		cmocka_unit_test(test_escape_bounded),
		cmocka_unit_test(test_printf),
		cmocka_unit_test(test_printf_long),
		cmocka_unit_test(test_appendf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
