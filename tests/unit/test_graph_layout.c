/* test_graph_layout.c - the graphs' strips: an empty series gives its rows to the others,
 * limit lines, the metrics beyond iostat's. */
#include "unit.h"

#include <math.h>

#include "console_config.h"
#include "graph.h"
#include "history.h"

static void test_fill(void **state)
{
	(void)state;
	float nan_only[3] = { NAN, NAN, NAN }, zeros[3] = { 0, NAN, 0 }, some[3] = { 0, NAN, 0.5f };
	assert_int_equal(graph_fill_of(nan_only, 3), GRAPH_NO_DATA);
	assert_int_equal(graph_fill_of(zeros, 3), GRAPH_ZEROS);
	assert_int_equal(graph_fill_of(some, 3), GRAPH_HAS_DATA);
	assert_int_equal(graph_fill_of(some, 0), GRAPH_NO_DATA);
}

static void test_empty_strip_collapses(void **state)
{
	(void)state;
	int rows[8];
	/* write-only: read keeps one row, write gets the rest */
	bool read_empty[2] = { true, false };
	assert_int_equal(graph_strip_layout(read_empty, 2, 2, 20, 3, rows), 2);
	assert_int_equal(rows[0], 1);
	assert_int_equal(rows[1], 19);
	/* read-only: the other way round */
	bool write_empty[2] = { false, true };
	assert_int_equal(graph_strip_layout(write_empty, 2, 2, 21, 3, rows), 2);
	assert_int_equal(rows[0], 20);
	assert_int_equal(rows[1], 1);
	/* both busy: shared, the last takes what is left over */
	bool busy[2] = { false, false };
	assert_int_equal(graph_strip_layout(busy, 2, 2, 21, 3, rows), 2);
	assert_int_equal(rows[0], 10);
	assert_int_equal(rows[1], 11);
	/* nothing anywhere: nobody to give the room to, as before */
	bool idle[2] = { true, true };
	assert_int_equal(graph_strip_layout(idle, 2, 2, 20, 3, rows), 2);
	assert_int_equal(rows[0], 10);
	assert_int_equal(rows[1], 10);
}

static void test_collapse_lets_devices_fit(void **state)
{
	(void)state;
	int rows[8];
	/* two pinned write-only devices in 10 rows: 1+3+1+3 fit, 4 strips of 3 would not */
	bool e[4] = { true, false, true, false };
	assert_int_equal(graph_strip_layout(e, 4, 2, 10, 3, rows), 4);
	assert_int_equal(rows[0], 1);
	assert_int_equal(rows[1], 4);
	assert_int_equal(rows[2], 1);
	assert_int_equal(rows[3], 4);
	/* all busy: the second device is dropped whole */
	bool busy[4] = { false, false, false, false };
	assert_int_equal(graph_strip_layout(busy, 4, 2, 10, 3, rows), 2);
	assert_int_equal(rows[0], 5);
	assert_int_equal(rows[1], 5);
	/* no room even for one strip */
	assert_int_equal(graph_strip_layout(busy, 1, 1, 2, 3, rows), 0);
}

static void test_line_row(void **state)
{
	(void)state;
	assert_int_equal(graph_line_row(NAN, 100, 4), -1);
	assert_int_equal(graph_line_row(100, 100, 4), 0);
	assert_int_equal(graph_line_row(400, 100, 4), 0);
	assert_int_equal(graph_line_row(0, 100, 4), 3);
	assert_int_equal(graph_line_row(50, 100, 4), 1);
	assert_int_equal(graph_line_row(24, 100, 4), 3);
	assert_string_equal(graph_line_glyph(GRAPH_LINE_DOUBLE, true), "═");
	assert_string_equal(graph_line_glyph(GRAPH_LINE_DOUBLE, false), "=");
	assert_string_equal(graph_line_glyph(GRAPH_AREA, true), "");
}

static void test_new_metrics(void **state)
{
	(void)state;
	const struct graph_metric *dirty = graph_metric_find("dirty");
	assert_non_null(dirty);
	size_t lines = 0;
	for (size_t i = 0; i < dirty->nseries; i++)
		lines += dirty->series[i].line != GRAPH_AREA;
	assert_int_equal(lines, 3);
	assert_int_equal(dirty->series[1].metric, HSM_DIRTY_BG_MB);
	assert_int_equal(dirty->series[3].metric, HSM_DIRTY_LIMIT_MB);

	const struct graph_metric *j = graph_metric_find("journal");
	assert_non_null(j);
	assert_int_equal(graph_series_unit(j, &j->series[0]), GRAPH_UNIT_MS);
	assert_int_equal(graph_series_unit(j, &j->series[1]), GRAPH_UNIT_PER_S);

	const struct graph_metric *d = graph_metric_find("blocked");
	assert_non_null(d);
	assert_ptr_equal(d, graph_metric_find("D-tasks"));
	assert_int_equal(d->series[0].metric, HSM_D_TASKS);
	assert_string_equal(d->needs, "needs --tasks or W");

	const struct graph_metric *psi = graph_metric_find("pressure");
	assert_non_null(psi);
	assert_int_equal(psi->series[0].metric, HSM_PSI_SOME);
	assert_int_equal(psi->series[1].metric, HSM_PSI_FULL);

	const struct graph_metric *seeks = graph_metric_find("seeks");
	assert_non_null(seeks);
	assert_false(seeks->series[0].system);
	assert_int_equal(seeks->series[0].metric, HM_SEEKS_S);
	assert_string_equal(seeks->needs, "needs --trace");
	for (size_t i = 0; i < graph_metrics_count; i++)
		assert_true(graph_metrics[i].nseries <= GRAPH_SERIES_MAX);
}

/* The config file's `graph` key takes the new names and their aliases. */
static void test_config_names(void **state)
{
	(void)state;
	static const char *const names[] = { "journal", "commit", "D-tasks", "blocked", "PSI",
					     "pressure", "seeks/s", "seeks" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct console_config c;
		struct error err = { "" };
		char line[64];
		console_config_default(&c);
		snprintf(line, sizeof line, "graph = %s\n", names[i]);
		assert_int_equal(console_config_parse(&c, line, "f", &err, NULL, 0, NULL), 0);
		assert_string_equal(c.graph, names[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_empty_strip_collapses),
		cmocka_unit_test(test_collapse_lets_devices_fit),
		cmocka_unit_test(test_line_row),
		cmocka_unit_test(test_new_metrics),
		cmocka_unit_test(test_config_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
