/* test_console_layout.c - panes for a terminal size: the 80x24 minimum, every pane
 * inside the screen, no two panes on the same cell, the side column when wide. */
#include "unit.h"

#include <string.h>

#include "layout.h"

static const struct rect *panes(const struct layout *l, size_t *n)
{
	static struct rect all[7];
	all[0] = l->header, all[1] = l->strip, all[2] = l->table, all[3] = l->detail;
	all[4] = l->graphs, all[5] = l->marks, all[6] = l->footer;
	*n = 7;
	return all;
}

static bool overlap(const struct rect *a, const struct rect *b)
{
	if (!a->h || !b->h || !a->w || !b->w)
		return false;
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static void check(int lines, int cols, int rows, bool zoom, bool marks, struct layout *l)
{
	struct layout_want w = { lines, cols, rows, zoom, marks, 0 };
	layout_compute(l, &w);
	assert_false(l->too_small);
	size_t n;
	const struct rect *p = panes(l, &n);
	for (size_t i = 0; i < n; i++) {
		if (!p[i].h)
			continue;
		assert_true(p[i].y >= 0 && p[i].x >= 0 && p[i].h > 0 && p[i].w > 0);
		assert_true(p[i].y + p[i].h <= lines);
		assert_true(p[i].x + p[i].w <= cols);
		for (size_t j = i + 1; j < n; j++)
			if (overlap(&p[i], &p[j]))
				fail_msg("%dx%d: panes %zu and %zu overlap", cols, lines, i, j);
	}
	assert_int_equal(l->header.y, 0);
	assert_int_equal(l->footer.y, lines - 1);
	assert_true(l->table.h >= 2);
}

static void test_minimum(void **state)
{
	(void)state;
	struct layout l;
	struct layout_want w = { 23, 80, 5, false, true, 0 };
	layout_compute(&l, &w);
	assert_true(l.too_small);
	w.lines = 24;
	w.cols = 79;
	layout_compute(&l, &w);
	assert_true(l.too_small);
	check(24, 80, 12, false, true, &l);
	/* at 80x24 the graphs get room for two strips (label + 2 rows each) plus title and axis */
	assert_true(l.graphs.h >= 8);
	assert_int_equal(l.detail.h, 0);
	assert_true(l.marks.h >= 3);
}

static void test_sizes(void **state)
{
	(void)state;
	struct layout l;
	for (int lines = 24; lines <= 80; lines += 7)
		for (int cols = 80; cols <= 300; cols += 23)
			for (int rows = 0; rows < 40; rows += 13) {
				check(lines, cols, rows, false, true, &l);
				check(lines, cols, rows, true, true, &l);
				check(lines, cols, rows, false, false, &l);
			}
}

static void test_wide_and_tall(void **state)
{
	(void)state;
	struct layout l;
	check(45, 160, 12, false, true, &l);
	assert_true(l.detail.h > 0 && l.detail.x > l.table.x);   /* side column */
	assert_true(l.graphs.h > 0 && l.marks.h > 0);
	check(60, 100, 5, false, true, &l);
	assert_true(l.detail.h > 0 && l.detail.x == 0);          /* stacked */
	check(24, 80, 5, true, true, &l);
	assert_true(l.detail.h > 0);                             /* zoomed: in place of the graphs */
	assert_int_equal(l.graphs.h, 0);
	check(45, 160, 5, true, true, &l);
	assert_true(l.detail.h > 0 && l.detail.x == 0);          /* wide too */
	assert_int_equal(l.graphs.h, 0);
	assert_true(l.marks.h > 0);
	check(30, 100, 3, false, true, &l);
	assert_int_equal(l.table.h, 4);                          /* just the rows there are */
}

/* Stacked, the detail pane gets the rows it fills (pane_def rows), the graphs keeping 16:
 * a disk with an elevator's tunables and a mount showed no mount options on a 50-row
 * terminal when the pane had 11 rows whatever it held. */
static void test_detail_sized_to_its_content(void **state)
{
	(void)state;
	struct layout l;
	struct layout_want w = { 50, 128, 1, false, true, 0 };
	layout_compute(&l, &w);
	assert_int_equal(l.detail.h, 11);                        /* not known: as before */
	w.detail_rows = 16;
	layout_compute(&l, &w);
	assert_int_equal(l.detail.h, 16);
	assert_true(l.graphs.h >= 16);
	w.detail_rows = 40;                                      /* more than there is room for */
	layout_compute(&l, &w);
	assert_int_equal(l.graphs.h, 16);
	w.detail_rows = 3;                                       /* a few lines: 6 at least */
	layout_compute(&l, &w);
	assert_int_equal(l.detail.h, 6);
	for (int lines = 24; lines <= 80; lines++)
		for (int want = 0; want <= 60; want += 7) {
			w = (struct layout_want){ lines, 100, 3, false, true, want };
			layout_compute(&l, &w);
			assert_true(!l.detail.h || !l.graphs.h || l.graphs.h >= 16);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimum),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_wide_and_tall),
		cmocka_unit_test(test_detail_sized_to_its_content),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
