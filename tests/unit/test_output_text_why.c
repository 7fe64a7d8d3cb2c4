/* output_text_why: batch text's why lines say one task, not "1 tasks". */
#include "unit.h"
#include <string.h>
#include "output.h"
#include "why.h"

static void throttled(unsigned n, char *buf, size_t len)
{
	struct why_rates y;
	memset(&y, 0, sizeof y);
	y.have_dirty = true;
	y.throttled_tasks = n;
	FILE *out = fmemopen(buf, len, "w");
	assert_non_null(out);
	output_text_why(out, &y);
	fclose(out);
}

static void test_throttled_tasks_plural(void **state)
{
	(void)state;
	char buf[512] = "";
	throttled(1, buf, sizeof buf);
	assert_non_null(strstr(buf, "writers throttled: 1 task in balance_dirty_pages"));
	throttled(3, buf, sizeof buf);
	assert_non_null(strstr(buf, "writers throttled: 3 tasks in balance_dirty_pages"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_throttled_tasks_plural),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
