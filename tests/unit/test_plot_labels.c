/* test_plot_labels.c - mark labels of a plot never overlap each other and stay in
 * their strip above the curve; those that do not fit become numbers or go to the
 * legend (the layout function, not pixels). */
#include "unit.h"

#include <stdlib.h>

#include "plot_labels.h"

static const struct label_strip strip = { .left = 80, .right = 1176, .top = 94, .lane_h = 14,
					  .lanes = 3, .gap = 4 };

/* Every shown box is inside the strip and meets no other, and no mark's line (from its box
 * down through the lanes under it) runs through another's box. */
static void check_layout(const struct label_mark *m, const struct label_place *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			bool boxed_i = p[i].form == LABEL_NUMBER || p[i].form == LABEL_FULL;
			bool boxed_j = p[j].form == LABEL_NUMBER || p[j].form == LABEL_FULL;
			if (i != j && boxed_i && boxed_j && p[j].lane > p[i].lane &&
			    m[i].x > p[j].x && m[i].x < p[j].x + p[j].w)
				fail_msg("the line of mark %zu (x %.0f) crosses the label of mark %zu "
					 "(%.0f to %.0f, lane %d)", i, m[i].x, j, p[j].x, p[j].x + p[j].w,
					 p[j].lane);
		}
	for (size_t i = 0; i < n; i++) {
		if (p[i].form == LABEL_SHARED) {   /* named by a number box of marks before it */
			assert_true(p[i].head < i);
			assert_int_equal(p[p[i].head].form, LABEL_NUMBER);
			assert_true(p[p[i].head].last >= i);
			continue;
		}
		assert_int_not_equal(p[i].form, LABEL_HIDDEN);   /* every mark gets its number */
		assert_true(p[i].x >= strip.left && p[i].x + p[i].w <= strip.right);
		assert_true(p[i].y >= strip.top && p[i].y + p[i].h <= strip.top + strip.lanes * strip.lane_h);
		for (size_t j = 0; j < i; j++)
			if (p[j].form != LABEL_SHARED && plot_labels_intersect(&p[i], &p[j]))
				fail_msg("labels %zu and %zu overlap", j, i);
	}
}

static void test_sparse_marks_get_full_labels(void **state)
{
	(void)state;
	struct label_mark m[] = { { 100, 200, 20 }, { 400, 200, 20 }, { 700, 200, 20 },
				  { 1170, 150, 20 } };   /* the last one runs left of its line */
	struct label_place p[4];
	plot_labels_layout(&strip, m, 4, p);
	check_layout(m, p, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(p[i].form, LABEL_FULL);
		assert_int_equal(p[i].lane, 0);
	}
	assert_true(p[3].x + p[3].w <= 1170);
	assert_false(plot_labels_need_legend(p, 4));
}

static void test_close_marks_stagger_in_lanes(void **state)
{
	(void)state;
	/* a switch and the remount a second later: the second label takes lane 1 */
	struct label_mark m[] = { { 300, 220, 20 }, { 305, 220, 20 }, { 310, 220, 20 } };
	struct label_place p[3];
	plot_labels_layout(&strip, m, 3, p);
	check_layout(m, p, 3);
	assert_int_equal(p[0].lane, 0);
	assert_true(p[1].lane > 0 || p[1].x + p[1].w <= 300);
	assert_int_equal(p[2].form, LABEL_FULL);
	assert_false(plot_labels_need_legend(p, 3));
}

static int by_x(const void *a, const void *b)
{
	double x = ((const struct label_mark *)a)->x, y = ((const struct label_mark *)b)->x;
	return (x > y) - (x < y);
}

static void test_crowded_marks_become_numbers_and_a_legend(void **state)
{
	(void)state;
	enum { N = 400 };
	struct label_mark *m = calloc(N, sizeof *m);
	struct label_place *p = calloc(N, sizeof *p);
	srand(13);
	for (size_t i = 0; i < N; i++)
		m[i] = (struct label_mark){ strip.left + rand() % 1096, 80 + rand() % 300, 18 + rand() % 10 };
	qsort(m, N, sizeof *m, by_x);   /* in time order, as a plot's marks come */
	plot_labels_layout(&strip, m, N, p);
	check_layout(m, p, N);
	size_t numbers = 0, shared = 0;   /* the lanes go to numbers: texts are the legend's */
	for (size_t i = 0; i < N; i++) {
		numbers += p[i].form == LABEL_NUMBER;
		shared += p[i].form == LABEL_SHARED;
	}
	assert_true(numbers > 0 && shared > 0);
	assert_true(plot_labels_need_legend(p, N));
	free(m);
	free(p);
}

/* A burst of marks a pixel or two apart (issue 28: such marks had no label at all): every
 * one is named by a number box, a shared "[3-9]" where theirs do not fit apart, and the
 * legend gives their texts. */
static void test_a_burst_shares_numbers(void **state)
{
	(void)state;
	enum { N = 40 };
	struct label_mark m[N];
	struct label_place p[N];
	for (size_t i = 0; i < N; i++)
		m[i] = (struct label_mark){ 600 + 2.0 * (double)i, 300, 20 };
	plot_labels_layout(&strip, m, N, p);
	check_layout(m, p, N);
	size_t shared = 0;
	for (size_t i = 0; i < N; i++)
		shared += p[i].form == LABEL_SHARED;
	assert_true(shared > 0);
	assert_true(plot_labels_need_legend(p, N));
}

/* Marks a few pixels apart with long texts: the second label went into the lane under the
 * first, right of its own line, across the third mark's line that runs down from its box
 * above (issue 37, "mark labels cross neighbouring mark lines"). */
static void test_labels_stay_off_other_lines(void **state)
{
	(void)state;
	struct label_mark m[] = { { 300, 400, 20 }, { 320, 300, 20 }, { 340, 200, 20 },
				  { 700, 200, 20 }, { 705, 100, 20 } };
	struct label_place p[5];
	plot_labels_layout(&strip, m, 5, p);
	check_layout(m, p, 5);
}

static void test_a_label_wider_than_the_plot(void **state)
{
	(void)state;
	struct label_mark m[] = { { 600, 5000, 20 } };
	struct label_place p[1];
	plot_labels_layout(&strip, m, 1, p);
	check_layout(m, p, 1);
	assert_int_equal(p[0].form, LABEL_NUMBER);
	assert_true(plot_labels_need_legend(p, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sparse_marks_get_full_labels),
		cmocka_unit_test(test_close_marks_stagger_in_lanes),
		cmocka_unit_test(test_crowded_marks_become_numbers_and_a_legend),
		cmocka_unit_test(test_a_burst_shares_numbers),
		cmocka_unit_test(test_a_label_wider_than_the_plot),
		cmocka_unit_test(test_labels_stay_off_other_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
