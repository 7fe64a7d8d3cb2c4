/* CSV fields: plain when they can be, quoted with doubled quotes when they must. */
#include "unit.h"

#include <string.h>

#include "csv.h"

static void expect(const char *in, const char *want)
{
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof buf, "w");
	assert_non_null(f);
	csv_put(f, in);
	fclose(f);
	assert_string_equal(buf, want);
}

static void test_fields(void **state)
{
	(void)state;
	expect("sched none→bfq", "sched none→bfq");
	expect("remount +noatime,+lazytime", "\"remount +noatime,+lazytime\"");
	expect("say \"hi\"", "\"say \"\"hi\"\"\"");
	expect("two\nlines", "two?lines");   /* a record is one line, always */
	expect("m\x1b]2;PWNED\x07,x", "\"m?]2;PWNED?,x\"");
	expect("", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_fields) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
