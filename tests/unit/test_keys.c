/* test_keys.c - the one key table: no key bound twice, every binding complete,
 * the man page's key list is exactly what the table generates, docs/console.md
 * names every key; the table's columns cover every iostat -x figure. */
#include "unit.h"

#include <ncurses.h>
#include <stdlib.h>
#include <string.h>

#include "columns.h"
#include "keys.h"
#include "numfmt.h"


static void test_no_key_twice(void **state)
{
	(void)state;
	for (size_t i = 0; i < console_bindings_count; i++)
		for (int k = 0; k < KEY_BINDING_KEYS && console_bindings[i].keys[k]; k++) {
			int key = console_bindings[i].keys[k];
			if (console_binding_for(key) != &console_bindings[i])
				fail_msg("key %#x of '%s' is bound twice", key, console_bindings[i].names);
		}
}

static void test_bindings_complete(void **state)
{
	(void)state;
	size_t ns;
	const char *const *sections = console_binding_sections(&ns);
	for (size_t i = 0; i < console_bindings_count; i++) {
		const struct console_binding *b = &console_bindings[i];
		assert_true(b->action.kind > UA_NONE && b->action.kind < UA_COUNT);
		assert_true(b->keys[0] != 0);
		assert_true(b->names && *b->names && b->help && *b->help);
		bool known = false;
		for (size_t s = 0; s < ns; s++)
			known |= strcmp(b->section, sections[s]) == 0;
		if (!known)
			fail_msg("'%s' is in section '%s', which help does not show", b->names, b->section);
	}
	/* the keys the issue asks for */
	const int required[] = { 'q', '?', KC(KEY_F(1)), KC(KEY_UP), KC(KEY_DOWN), 'j', 'k', '\t', '+', '-',
				 ' ', 'm', '/' };
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		assert_non_null(console_binding_for(required[i]));
}

/* The CONSOLE section's key list is generated: paste the expected text when this fails. */
static void test_man_page_matches_table(void **state)
{
	(void)state;
	char *man = unit_slurp_top("man/ioscope.1");
	const char *begin_mark = ".\\\" keys: begin\n", *end_mark = ".\\\" keys: end\n";
	char *begin = strstr(man, begin_mark), *end = begin ? strstr(begin, end_mark) : NULL;
	char *want = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&want, &len);
	console_bindings_mdoc(out);
	fclose(out);
	if (!begin || !end) {
		fprintf(stderr, "man/ioscope.1 lacks the '.\\\" keys: begin' / 'keys: end' lines in "
			"CONSOLE; put this between them:\n%s", want);
		free(want);
		free(man);
		fail();
	}
	begin += strlen(begin_mark);
	*end = '\0';
	if (strcmp(begin, want) != 0) {
		fprintf(stderr, "man/ioscope.1 key list differs from src/ui/keys.c; expected:\n%s", want);
		free(want);
		free(man);
		fail();
	}
	free(want);
	free(man);
}

static void test_docs_name_every_key(void **state)
{
	(void)state;
	char *doc = unit_slurp_top("docs/console.md");
	for (size_t i = 0; i < console_bindings_count; i++) {
		char quoted[64];
		snprintf(quoted, sizeof quoted, "`%s`", console_bindings[i].names);
		if (!strstr(doc, quoted)) {
			fprintf(stderr, "docs/console.md does not list %s\n", quoted);
			free(doc);
			fail();
		}
	}
	free(doc);
}

static void test_columns_cover_iostat(void **state)
{
	(void)state;
	for (size_t i = 0; i < device_figures_count; i++) {
		const struct device_figure *c = column_find(device_figures[i].key);
		if (c != &device_figures[i])
			fail_msg("no table column for %s", device_figures[i].key);
		assert_true((int)strlen(column_header(c)) <= c->width);
	}
	const struct device_figure *cols[COLUMNS_MAX];
	size_t n;
	struct error err;
	assert_int_equal(columns_parse(COLUMNS_DEFAULT, cols, COLUMNS_MAX, &n, &err), 0);
	/* the default table fits 80 columns with a 6-cell device name */
	int w = 6;
	for (size_t i = 0; i < n; i++)
		w += cols[i]->width + 1;
	assert_true(w <= 80);
	assert_int_equal(columns_parse("r/s, nonsense", cols, COLUMNS_MAX, &n, &err), -1);
	assert_non_null(strstr(err.msg, "nonsense"));
}

static void test_number_format(void **state)
{
	(void)state;
	char buf[32];
	numfmt_fit(0, 6, buf, sizeof buf);
	assert_string_equal(buf, "0.00");
	numfmt_fit(123.456, 6, buf, sizeof buf);
	assert_string_equal(buf, "123.46");
	numfmt_fit(1234.5, 6, buf, sizeof buf);
	assert_string_equal(buf, "1234.5");
	numfmt_fit(123456, 6, buf, sizeof buf);
	assert_string_equal(buf, "123456");
	numfmt_fit(1234567, 6, buf, sizeof buf);
	assert_string_equal(buf, "1235k");
	numfmt_fit(1234567, 5, buf, sizeof buf);
	assert_string_equal(buf, "1235k");
	numfmt_fit(12345678, 5, buf, sizeof buf);
	assert_string_equal(buf, "12.3M");
	numfmt_fit(100, 5, buf, sizeof buf);
	assert_string_equal(buf, "100.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_key_twice),
		cmocka_unit_test(test_bindings_complete),
		cmocka_unit_test(test_man_page_matches_table),
		cmocka_unit_test(test_docs_name_every_key),
		cmocka_unit_test(test_columns_cover_iostat),
		cmocka_unit_test(test_number_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
