/* Snapshot ownership: growth, deep copy, adding to a copy. */
#include "unit.h"

#include <string.h>

#include "snapshot.h"

static void test_grow_and_find(void **state)
{
	(void)state;
	struct snapshot s;
	snapshot_init(&s);
	for (int i = 0; i < 100; i++) {
		struct device *d = snapshot_add_device(&s);
		assert_non_null(d);
		snprintf(d->name, sizeof d->name, "d%d", i);
		assert_int_equal(d->settings.rotational, -1);
	}
	assert_int_equal(s.ndevices, 100);
	assert_string_equal(snapshot_find_device(&s, "d77")->name, "d77");
	assert_null(snapshot_find_device(&s, "d100"));
	snapshot_free(&s);
	assert_int_equal(s.ndevices, 0);
}

static void test_copy_is_deep_and_growable(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	struct setting items[] = { { "nr_requests", "64" } };
	for (int i = 0; i < 3; i++) {
		struct device *d = snapshot_add_device(&a);
		snprintf(d->name, sizeof d->name, "loop%d", i);
		assert_int_equal(device_set_settings(d, items, 1), 0);
		assert_non_null(snapshot_add_mount(&a));
	}
	assert_int_equal(snapshot_copy(&b, &a), 0);
	assert_ptr_not_equal(a.devices[0].settings.items, b.devices[0].settings.items);
	assert_string_equal(device_setting(&b.devices[2], "nr_requests"), "64");
	/* adding to a copy must not write past what the copy allocated */
	for (int i = 0; i < 20; i++) {
		assert_non_null(snapshot_add_device(&b));
		assert_non_null(snapshot_add_mount(&b));
	}
	assert_int_equal(b.ndevices, 23);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void test_settings_equal(void **state)
{
	(void)state;
	struct setting x[] = { { "nr_requests", "64" } }, y[] = { { "nr_requests", "128" } };
	struct disk_settings a = { .has_settings = true, .scheduler = "bfq", .rotational = 1,
				   .items = x, .nitems = 1, .inflight_read = 3 };
	struct disk_settings b = a;
	b.inflight_read = 0;                       /* gauges aside */
	assert_true(disk_settings_equal(&a, &b));
	b.items = y;
	assert_false(disk_settings_equal(&a, &b));
	b = a;
	snprintf(b.scheduler, sizeof b.scheduler, "none");
	assert_false(disk_settings_equal(&a, &b));
}

static void test_capacity(void **state)
{
	(void)state;
	assert_int_equal(snapshot_capacity(0), 8);
	assert_int_equal(snapshot_capacity(8), 8);
	assert_int_equal(snapshot_capacity(9), 16);
	assert_int_equal(snapshot_capacity(1000), 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_and_find),
		cmocka_unit_test(test_copy_is_deep_and_growable),
		cmocka_unit_test(test_settings_equal),
		cmocka_unit_test(test_capacity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
