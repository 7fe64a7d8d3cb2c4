/* test_knobs.c - the knob table (include/knobs.h) and its consumers agree: every row is
 * well formed, every setting the sampler reads has a row with help text and every row
 * it should read is read from the fixture trees, `set`, `show` and the events' resets
 * take each row as the row says.  A knob added to one consumer and not to the table (or
 * the other way round) fails here. */
#include "unit.h"

#include <string.h>

#include "control.h"
#include "events.h"
#include "knobs.h"
#include "snapshot.h"
#include "sysfs.h"

/* The directory a file is below ("queue" for "queue/nomerges", "" for "size"). */
static void dir_of(const char *file, char *dir, size_t len)
{
	const char *slash = strchr(file, '/');
	size_t n = slash ? (size_t)(slash - file) : 0;
	snprintf(dir, len, "%.*s", (int)n, file);
}

/* A path below /sys/block/NAME in one of the directories the sampler opens (docs/
 * sources.md): the disk's own, queue/, bdi/ or loop/, one name deep; the iosched row
 * names queue/iosched/, the directory its files are listed from. */
static void assert_file_below_disk(const struct knob *k, const char *file)
{
	char dir[32];
	dir_of(file, dir, sizeof dir);
	const char *name = file + (dir[0] ? strlen(dir) + 1 : 0);
	if (!(strcmp(dir, "") == 0 || strcmp(dir, "queue") == 0 || strcmp(dir, "bdi") == 0 ||
	      strcmp(dir, "loop") == 0))
		fail_msg("%s: %s is not below queue/, bdi/, loop/ or the disk's directory", k->key,
			 file);
	if (k->value == KNOB_IOSCHED) {
		assert_string_equal(file, "queue/iosched/");
		return;
	}
	if (!name[0] || strchr(name, '/') || strcmp(name, "..") == 0 || strcmp(name, ".") == 0)
		fail_msg("%s: %s is not one file name below its directory", k->key, file);
}

/* A row's key says where its file is, as the console and `show` group them
 * (setting_group_of): bdi.* below bdi/, iosched.* below queue/iosched/, loop.* a loop
 * device's own, the others below queue/. */
static void assert_group_matches_file(const struct knob *k)
{
	char dir[32];
	dir_of(k->file, dir, sizeof dir);
	switch (setting_group_of(k->key)) {
	case SETTING_QUEUE:
		assert_string_equal(dir, "queue");
		assert_false(k->loop_only);
		break;
	case SETTING_IOSCHED:
		assert_int_equal(k->value, KNOB_IOSCHED);
		break;
	case SETTING_BDI:
		assert_string_equal(dir, "bdi");
		break;
	case SETTING_LOOP:
		assert_true(k->loop_only);
		break;
	case SETTING_GROUPS:
		fail();
	}
}

static void test_rows_well_formed(void **state)
{
	(void)state;
	size_t elevators = 0, iosched = 0;
	struct control_limits lim;
	memset(&lim, 0, sizeof lim);
	assert_true(knob_count > 0);
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		assert_non_null(k->key);
		assert_true(k->key[0] != '\0');
		assert_ptr_equal(knob_find(k->key), k);   /* one row a key */
		assert_true(strlen(k->key) < SETTING_KEY_MAX);
		assert_non_null(k->file);
		assert_file_below_disk(k, k->file);
		if (k->finer) {
			char a[32], b[32];
			assert_file_below_disk(k, k->finer);
			dir_of(k->file, a, sizeof a);
			dir_of(k->finer, b, sizeof b);
			assert_string_equal(a, b);
		}
		assert_group_matches_file(k);
		assert_non_null(k->help);
		assert_true(k->help[0] != '\0');
		if (k->write == KNOB_READ_ONLY) {
			assert_int_equal(k->value, KNOB_NOT_SET);
			assert_string_equal(k->help, "-");
			assert_non_null(k->why);
			assert_true(k->why[0] != '\0');
			assert_null(k->einval);
			assert_null(k->default_value);
		} else {
			assert_int_not_equal(k->value, KNOB_NOT_SET);
			assert_string_not_equal(k->help, "-");
			assert_null(k->why);
		}
		if (k->value == KNOB_NUMBER || k->value == KNOB_REQUESTS)
			assert_true(k->min <= k->max && k->max > 0);
		if (k->value == KNOB_NUMBER)
			assert_non_null(k->meaning);
		if (k->einval)
			assert_true(strncmp(k->einval, "; ", 2) == 0);
		if (k->on_switch == KNOB_SWITCH_ELEVATOR)
			assert_true(k->elevator && k->elevator[0]);
		else
			assert_null(k->elevator);
		if (k->default_value) {   /* `set` takes it as it is */
			char out[SETTING_VAL_MAX];
			struct error err = { "" };
			assert_int_equal(control_value_check(&lim, k->key, k->default_value, out,
							     sizeof out, &err),
					 0);
			assert_string_equal(out, k->default_value);
		}
		elevators += k->value == KNOB_ELEVATOR;
		iosched += k->value == KNOB_IOSCHED;
	}
	assert_int_equal(elevators, 1);
	assert_int_equal(iosched, 1);
	assert_null(knob_find("bogus"));
}

/* knob_file is the row's file, and queue/iosched/NAME for iosched.NAME. */
static void test_files_of_keys(void **state)
{
	(void)state;
	char rel[SETTING_KEY_MAX + 16];
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		if (k->value == KNOB_IOSCHED)
			continue;
		assert_true(knob_file(k->key, rel, sizeof rel));
		assert_string_equal(rel, k->file);
	}
	assert_true(knob_file("iosched.fifo_batch", rel, sizeof rel));
	assert_string_equal(rel, "queue/iosched/fifo_batch");
	assert_false(knob_file("iosched.", rel, sizeof rel));
	assert_false(knob_file("bogus", rel, sizeof rel));
	assert_false(knob_file("wbt_lat_usec", rel, 4));
}

/* The sampler reads what the table says: every setting it gives from the fixture trees
 * (tests/fixtures/knobs: a 6.18 kernel's vdb, an old kernel's sdc, a loop device) has a
 * row with help text, and every row it samples is read from one of them at least (a row
 * whose file is misspelt, or a knob without a fixture file, fails). */
static void test_sampler_reads_rows(void **state)
{
	(void)state;
	bool seen[64] = { false };
	assert_true(knob_count <= sizeof seen / sizeof seen[0]);
	const char *roots[] = { "knobs/1", "knobs/2" }, *disks[] = { "vdb", "sdc", "loop7" };
	for (size_t r = 0; r < 2; r++)
		for (size_t d = 0; d < 3; d++) {
			struct sysfs_disk sd;
			struct disk_settings st = { 0 };
			struct error err;
			const char *root = fixture_path(roots[r]);
			assert_int_equal(sysfs_disk_open(&sd, root, disks[d], &err), 0);
			assert_int_equal(sysfs_disk_read(&sd, &st, &err), 0);
			assert_true(st.nitems > 0);
			for (size_t i = 0; i < st.nitems; i++) {
				const struct knob *k = knob_find(st.items[i].key);
				if (!k)
					fail_msg("%s/%s: %s is read but has no row", roots[r],
						 disks[d], st.items[i].key);
				assert_true(k->help[0] != '\0');
				assert_int_not_equal(k->cadence, KNOB_CADENCE_SHOWN);
				seen[k - knob_table] = true;
			}
			sysfs_disk_close(&sd);
			free(st.items);
		}
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		bool sampled = k->cadence != KNOB_CADENCE_SHOWN && k->value != KNOB_ELEVATOR;
		if (sampled && !seen[i])
			fail_msg("%s: no fixture disk of tests/fixtures/knobs gave it", k->key);
	}
}

/* item is one of the comma-separated list that ends msg ("...; keys: a, b, c"). */
static bool in_list(const char *msg, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = strstr(msg, item); p; p = strstr(p + 1, item))
		if ((p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* `set` takes every writable row's key and refuses every read-only one with its reason;
 * an unknown key's refusal lists every writable key. */
static void test_set_takes_rows(void **state)
{
	(void)state;
	char key[SETTING_KEY_MAX], value[SETTING_VAL_MAX], arg[128];
	struct error err = { "" };
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		snprintf(arg, sizeof arg, "%s%s=1", k->key, k->value == KNOB_IOSCHED ? "x" : "");
		int r = control_assignment_split(arg, key, sizeof key, value, sizeof value, &err);
		if (k->write == KNOB_READ_ONLY) {
			assert_int_equal(r, -1);
			assert_non_null(strstr(err.msg, "watched, not set"));
			assert_non_null(strstr(err.msg, k->why));
		} else if (r != 0) {
			fail_msg("%s: %s", arg, err.msg);
		}
	}
	assert_int_equal(control_assignment_split("bogus=1", key, sizeof key, value, sizeof value,
						  &err),
			 -1);
	for (size_t i = 0; i < knob_count; i++) {
		char listed[SETTING_KEY_MAX + 8];
		const struct knob *k = &knob_table[i];
		snprintf(listed, sizeof listed, "%s%s", k->key,
			 k->value == KNOB_IOSCHED ? "NAME" : "");
		if ((k->write != KNOB_READ_ONLY) != in_list(err.msg, listed))
			fail_msg("%s: listed or not against the table in: %s", k->key, err.msg);
	}
}

/* Scheduler first, then by the table's write_order: every writable row but the
 * scheduler comes after it. */
static void test_scheduler_written_first(void **state)
{
	(void)state;
	const struct knob *sched = knob_find("scheduler");
	assert_non_null(sched);
	assert_int_equal(sched->value, KNOB_ELEVATOR);
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		if (k != sched && k->write != KNOB_READ_ONLY)
			assert_true(k->write_order > sched->write_order);
	}
}

/* `show` lists each setting under its row's key: every key it prints has a row, and on a
 * loop device the bdi's limits in bytes, which only `show` reads (KNOB_CADENCE_SHOWN). */
static void test_show_lists_rows(void **state)
{
	(void)state;
	const char *disks[] = { "vdb", "sdc", "loop7" };
	size_t shown_rows = 0;
	for (size_t d = 0; d < 3; d++) {
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		assert_non_null(out);
		assert_int_equal(control_cli_show(out, fixture_path("knobs/2"), disks[d]), 0);
		fclose(out);
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			char key[SETTING_KEY_MAX];
			if (strncmp(line, "  ", 2) != 0 || line[2] == ' ' ||
			    sscanf(line, " %63s", key) != 1 || strcmp(key, "mount") == 0 ||
			    strcmp(key, "rotational") == 0)
				continue;
			const struct knob *k = knob_find(key);
			if (!k)
				fail_msg("show %s: %s has no row", disks[d], key);
			if (k->write == KNOB_READ_ONLY)
				assert_non_null(strstr(line, k->why));
			shown_rows += k->cadence == KNOB_CADENCE_SHOWN;
		}
		free(text);
	}
	assert_true(shown_rows >= 2);   /* bdi.max_bytes and bdi.min_bytes of loop7 */
}

/* A scheduler event's resets are the rows a switch resets. */
static void test_resets_from_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		const char *key = k->value == KNOB_IOSCHED ? "iosched.fifo_batch" : k->key;
		assert_int_equal(event_key_is_reset(key), k->on_switch != KNOB_SWITCH_KEEPS);
	}
	assert_true(event_key_is_reset("nr_requests"));
	assert_true(event_key_is_reset("wbt_lat_usec"));
	assert_false(event_key_is_reset("nomerges"));
	assert_false(event_key_is_reset("bogus"));
}

/* The keys other modules name in their code, for what they show or reason about apart
 * (the console's detail pane, the exporter's write cache family, a dip's queue depth):
 * each must stay a row. */
static void test_keys_named_elsewhere(void **state)
{
	(void)state;
	const char *named[] = { "write_cache", "loop.backing_file", "loop.dio", "nr_requests",
				"max_sectors_kb", "scheduler" };
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (!knob_find(named[i]))
			fail_msg("%s: named in src/ but not a row of the knob table", named[i]);
}

/* The known elevators' tunables: each a file name `set` takes after iosched., and no
 * name two elevators' (a listing holding one is told to be that elevator's). */
static void test_elevator_tunables(void **state)
{
	(void)state;
	assert_true(knob_nelevators > 0);
	for (size_t e = 0; e < knob_nelevators; e++) {
		const struct knob_elevator *el = &knob_elevators[e];
		assert_ptr_equal(knob_iosched_names(el->name), el->tunables);
		assert_non_null(el->tunables[0]);
		for (const char *const *t = el->tunables; *t; t++) {
			char arg[SETTING_KEY_MAX + 8], key[SETTING_KEY_MAX], value[8];
			struct error err = { "" };
			snprintf(arg, sizeof arg, "iosched.%s=1", *t);
			if (control_assignment_split(arg, key, sizeof key, value, sizeof value,
						     &err) != 0)
				fail_msg("%s: %s", el->name, err.msg);
			for (size_t o = e + 1; o < knob_nelevators; o++)
				for (const char *const *u = knob_elevators[o].tunables; *u; u++)
					assert_string_not_equal(*t, *u);
		}
	}
	assert_null(knob_iosched_names("none"));
	assert_null(knob_iosched_names("bogus"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_well_formed),
		cmocka_unit_test(test_files_of_keys),
		cmocka_unit_test(test_sampler_reads_rows),
		cmocka_unit_test(test_set_takes_rows),
		cmocka_unit_test(test_scheduler_written_first),
		cmocka_unit_test(test_show_lists_rows),
		cmocka_unit_test(test_resets_from_rows),
		cmocka_unit_test(test_keys_named_elsewhere),
		cmocka_unit_test(test_elevator_tunables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
