/* test_figures.c - the per-device figure table (include/figures.h) and what it promises:
 * every row is a sane console column, every figure is defined in docs/metrics.md and
 * named in the man page, and every exported one is in docs/fleet.md's table with its
 * key.  A row added without its docs fails here (docs/design.md, "Adding a per-device
 * figure"). */
#include "unit.h"

#include <ctype.h>
#include <string.h>

#include "figures.h"

/* A character that may be part of a key: "r/s" is not in "rr/s", "%util" not in "x%util". */
static bool key_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_/%-", c);
}

/* word as a whole, not inside a longer name */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || !key_char(p[-1])) && !key_char(p[n]))
			return true;
	return false;
}

static void rows_are_sane(void **state)
{
	(void)state;
	for (size_t i = 0; i < device_figures_count; i++) {
		const struct device_figure *f = &device_figures[i];
		assert_non_null(f->key);
		assert_non_null(f->unit);
		assert_true(f->help && f->help[0]);
		assert_non_null(strchr("rwdfq", f->group));
		assert_true(f->width >= (int)strlen(f->header ? f->header : f->key));
		if (f->kind == FIGURE_RATE)
			assert_true(f->scale > 0 && f->offset + sizeof(double) <= sizeof(struct device_rates));
		if (f->batch)
			assert_int_equal(f->kind, FIGURE_RATE);
		assert_true(!f->prom_name == !f->prom_help);
		for (size_t j = 0; j < i; j++) {
			assert_string_not_equal(device_figures[j].key, f->key);
			if (f->prom_name && device_figures[j].prom_name)
				assert_string_not_equal(device_figures[j].prom_name, f->prom_name);
		}
		assert_ptr_equal(device_figure_find(f->key), f);
	}
}

static void documented(void **state)
{
	(void)state;
	char *metrics = unit_slurp_top("docs/metrics.md"), *man = unit_slurp_top("man/ioscope.1");
	char *fleet = unit_slurp_top("docs/fleet.md");
	bool ok = true;
	for (size_t i = 0; i < device_figures_count; i++) {
		const struct device_figure *f = &device_figures[i];
		char row[256];
		snprintf(row, sizeof row, "\n| %s |", f->key);
		if (!strstr(metrics, row)) {
			fprintf(stderr, "docs/metrics.md has no row '| %s | definition |'\n", f->key);
			ok = false;
		}
		if (!has_word(man, f->key)) {
			fprintf(stderr, "man/ioscope.1 does not name %s\n", f->key);
			ok = false;
		}
		snprintf(row, sizeof row, "\n| `%s` | `%s` |", f->prom_name ? f->prom_name : "", f->key);
		if (f->prom_name && !strstr(fleet, row)) {
			fprintf(stderr, "docs/fleet.md has no row '| `%s` | `%s` | conversion |'\n",
				f->prom_name, f->key);
			ok = false;
		}
	}
	free(metrics);
	free(man);
	free(fleet);
	assert_true(ok);
}

static void base_units(void **state)
{
	(void)state;
	assert_float_equal(device_figure_base_scale(device_figure_find("rkB/s")), 1024, 0);
	assert_float_equal(device_figure_base_scale(device_figure_find("rareq-sz")), 1024, 0);
	assert_float_equal(device_figure_base_scale(device_figure_find("f_await")), 0.001, 0);
	assert_float_equal(device_figure_base_scale(device_figure_find("%util")), 0.01, 0);
	assert_float_equal(device_figure_base_scale(device_figure_find("aqu-sz")), 1, 0);
	assert_float_equal(device_figure_base_scale(device_figure_find("w/s")), 1, 0);
	/* missing: no rates, or counters this kernel lacks; in_flight never */
	struct device_rates r = { .valid = true, .have_discard = false, .have_flush = true };
	assert_false(device_figure_missing(&r, device_figure_find("w/s")));
	assert_true(device_figure_missing(&r, device_figure_find("d_await")));
	assert_false(device_figure_missing(&r, device_figure_find("f/s")));
	assert_true(device_figure_missing(&r, device_figure_find("scheduler")));
	r.valid = false;
	assert_true(device_figure_missing(&r, device_figure_find("w/s")));
	assert_false(device_figure_missing(&r, device_figure_find("in_flight")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_sane),
		cmocka_unit_test(documented),
		cmocka_unit_test(base_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
