/* The rows `ioscope compare` sets side by side in its header (compare_settings.h): long
 * values wrap within their column of 32 at commas, slashes and spaces, never in the middle
 * of a word when there is one of those (issue 37 item 6: "mnt-loo" / "p0", and
 * "prio_aging_expire" / "=10000"), and no line ends in spaces. */
#include "unit.h"

#include <string.h>

#include "compare_settings.h"

static char *row(const char *label, const char *a, const char *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_row(f, label, a, b);
	fclose(f);
	return buf;
}

static void test_wrap(void **state)
{
	(void)state;
	char *text = row("mounted on", "/tmp/ioscope-test.az27ga/mnt-loop0", "/mnt/b");
	assert_string_equal(text, "  mounted on /tmp/ioscope-test.az27ga/        /mnt/b\n"
				  "             mnt-loop0\n");
	free(text);
	text = row("fs options", "rw", "rw,attr2,inode64,logbufs=8,logbsize=32k,noquota");
	assert_string_equal(text, "  fs options rw                               rw,attr2,inode64,logbufs=8,\n"
				  "                                              logbsize=32k,noquota\n");
	free(text);
	/* a word longer than the column: cut, as there is nowhere else */
	text = row("tunables", "x=0123456789012345678901234567890123456789", "-");
	assert_string_equal(text, "  tunables   x=012345678901234567890123456789 -\n"
				  "             0123456789\n");
	free(text);
	/* a short first word, then one that does not fit in the rest of the column: the
	 * break at the space, not in the middle of key=value (the settings row of two
	 * schedulers' tunables read "prio_aging_expire" then "=10000") */
	text = row("iosched", "async_depth=256 fifo_batch=16 front_merges=1 prio_aging_expire=10000 "
		   "read_expire=500", "read_lat_nsec=2000000 write_lat_nsec=10000000");
	assert_string_equal(text, "  iosched    async_depth=256 fifo_batch=16    read_lat_nsec=2000000\n"
				  "             front_merges=1                   write_lat_nsec=10000000\n"
				  "             prio_aging_expire=10000\n"
				  "             read_expire=500\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
