/* grow_array: doubling from the first room, contents kept, and sizes that would overflow
 * refused with the array left as it was. */
#include "unit.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "grow.h"

static void test_grows_from_first_by_doubling(void **state)
{
	(void)state;
	int *v = NULL;
	size_t cap = 0;
	struct error err = { "" };
	assert_int_equal(grow_array(&v, &cap, 1, sizeof *v, 8, &err), 0);
	assert_non_null(v);
	assert_int_equal(cap, 8);
	for (int i = 0; i < 8; i++)
		v[i] = i;
	assert_int_equal(grow_array(&v, &cap, 9, sizeof *v, 8, &err), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(grow_array(&v, &cap, 100, sizeof *v, 8, &err), 0);
	assert_int_equal(cap, 128);   /* one call doubles as often as need asks */
	for (int i = 0; i < 8; i++)
		assert_int_equal(v[i], i);
	free(v);
}

static void test_room_enough_changes_nothing(void **state)
{
	(void)state;
	char *v = NULL;
	size_t cap = 0;
	assert_int_equal(grow_array(&v, &cap, 10, 1, 64, NULL), 0);
	char *before = v;
	assert_int_equal(grow_array(&v, &cap, 64, 1, 64, NULL), 0);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 64);
	assert_int_equal(grow_array(&v, &cap, 0, 1, 64, NULL), 0);
	assert_int_equal(cap, 64);
	free(v);
}

static void test_count_overflow_refused(void **state)
{
	(void)state;
	char *v = NULL;
	size_t cap = 0;
	struct error err = { "" };
	assert_int_equal(grow_array(&v, &cap, 16, 1, 16, &err), 0);
	char *before = v;
	errno = 0;
	assert_int_equal(grow_array(&v, &cap, SIZE_MAX / 2 + 2, 1, 16, &err), -1);
	assert_int_equal(errno, EOVERFLOW);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 16);
	assert_non_null(strstr(err.msg, "does not fit"));
	free(v);
}

static void test_bytes_overflow_refused(void **state)
{
	(void)state;
	uint64_t *v = NULL;
	size_t cap = 0;
	struct error err = { "" };
	errno = 0;
	/* the room (a power of two) fits a size_t, its size in bytes does not */
	assert_int_equal(grow_array(&v, &cap, SIZE_MAX / 8 + 1, sizeof *v, 8, &err), -1);
	assert_int_equal(errno, EOVERFLOW);
	assert_null(v);
	assert_int_equal(cap, 0);
	errno = 0;
	assert_int_equal(grow_array(&v, &cap, SIZE_MAX / 16 + 1, 32, 8, NULL), -1);
	assert_int_equal(errno, EOVERFLOW);
	assert_null(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_from_first_by_doubling),
		cmocka_unit_test(test_room_enough_changes_nothing),
		cmocka_unit_test(test_count_overflow_refused),
		cmocka_unit_test(test_bytes_overflow_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
