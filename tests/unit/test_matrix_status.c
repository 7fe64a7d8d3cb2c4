/* The progress a matrix's marks carry (matrix_status.h): written and read back, hostile
 * text refused, the console's header text fitted to its width (exact strings), and the
 * matrix's own computation of where it stands (matrix_status_of). */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "matrix_ctx.h"
#include "matrix_status.h"

static const struct matrix_status running = {
	MATRIX_RUNNING, 3, 8, 1, 2, 725, 2400,
};

/* Field by field: a struct's padding is not copied by assignment. */
static void same(const struct matrix_status *a, const struct matrix_status *b)
{
	assert_int_equal(a->state, b->state);
	assert_int_equal(a->cell, b->cell);
	assert_int_equal(a->cells, b->cells);
	assert_int_equal(a->run, b->run);
	assert_int_equal(a->runs, b->runs);
	assert_int_equal(a->elapsed_s, b->elapsed_s);
	assert_int_equal(a->eta_s, b->eta_s);
}

static void test_round_trip(void **state)
{
	(void)state;
	char text[MATRIX_STATUS_TEXT_MAX];
	matrix_status_format(&running, text, sizeof text);
	assert_string_equal(text, "state=running cell=3/8 run=1/2 elapsed=725 eta=2400");
	struct matrix_status back;
	assert_true(matrix_status_parse(text, &back));
	same(&back, &running);

	struct matrix_status first = { MATRIX_RUNNING, 1, 4, 1, 3, 0, MATRIX_ETA_UNKNOWN };
	matrix_status_format(&first, text, sizeof text);
	assert_string_equal(text, "state=running cell=1/4 run=1/3 elapsed=0 eta=?");
	assert_true(matrix_status_parse(text, &back));
	same(&back, &first);

	struct matrix_status big = { MATRIX_INTERRUPTED, MATRIX_STATUS_NUMBER_MAX,
				     MATRIX_STATUS_NUMBER_MAX, MATRIX_STATUS_NUMBER_MAX,
				     MATRIX_STATUS_NUMBER_MAX, MATRIX_STATUS_NUMBER_MAX,
				     MATRIX_STATUS_NUMBER_MAX };
	matrix_status_format(&big, text, sizeof text);
	assert_true(strlen(text) < MATRIX_STATUS_TEXT_MAX);
	assert_true(matrix_status_parse(text, &back));
	same(&back, &big);

	/* eta may be left out; keys in any order; a key a later version adds is skipped */
	assert_true(matrix_status_parse("elapsed=5 run=2/2 cell=8/8 state=done", &back));
	assert_int_equal(back.state, MATRIX_DONE);
	assert_int_equal(back.eta_s, MATRIX_ETA_UNKNOWN);
	assert_int_equal(back.cell, 8);
	assert_true(matrix_status_parse("state=running cell=1/2 run=1/1 elapsed=3 pid_x=77", &back));
	assert_int_equal(back.elapsed_s, 3);
}

static void test_hostile(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "state=running", "garbage", "=", "state=", " state=running cell=1/2 run=1/1 elapsed=1",
		"state=running cell=1/2 run=1/1 elapsed=1 ",
		"state=running  cell=1/2 run=1/1 elapsed=1",
		"state=running cell=1/2 run=1/1",                        /* no elapsed */
		"state=sleeping cell=1/2 run=1/1 elapsed=1",
		"state=running cell=3/2 run=1/1 elapsed=1",              /* cell past the cells */
		"state=running cell=0/2 run=1/1 elapsed=1",
		"state=running cell=1/0 run=1/1 elapsed=1",
		"state=running cell=1/2 run=2/1 elapsed=1",
		"state=running cell=1/2 run=1/1 elapsed=-1",
		"state=running cell=1/2 run=1/1 elapsed=+1",
		"state=running cell=1/2 run=1/1 elapsed=1e3",
		"state=running cell=1/2 run=1/1 elapsed=1000000000",     /* 10 digits */
		"state=running cell=99999999999999999999/1 run=1/1 elapsed=1",
		"state=running cell=1/2/3 run=1/1 elapsed=1",
		"state=running cell=1/ run=1/1 elapsed=1",
		"state=running cell=/2 run=1/1 elapsed=1",
		"state=running cell=1/2 run=1/1 elapsed=1 eta=??",
		"state=running cell=1/2 run=1/1 elapsed=1 eta=",
		"state=running cell=1/2 run=1/1 elapsed=1 elapsed=2",     /* twice */
		"state=running cell=1/2 run=1/1 elapsed=1 state=done",
		"state=running cell=1/2 run=1/1 elapsed=1 Unknown=1",     /* not a key name */
		"state=running cell=1/2 run=1/1 elapsed=1 nokey",
		"state=running\tcell=1/2 run=1/1 elapsed=1",
		"state=running cell=1/2 run=1/1 elapsed=1 \x1b[2J",
		"state=running cell=1/2 run=1/1 elapsed=1 x=\xc3\xa9",
		"state=running cell=1\xef\xbc\x8f""2 run=1/1 elapsed=1",
	};
	struct matrix_status s = running;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (matrix_status_parse(bad[i], &s))
			fail_msg("taken: \"%s\"", bad[i]);
		same(&s, &running);   /* untouched */
	}
	assert_false(matrix_status_parse(NULL, &s));

	/* longer than any text of ours, valid or not: refused, and never read past its bound */
	char longer[4096];
	memset(longer, 'x', sizeof longer);
	memcpy(longer, "state=running cell=1/2 run=1/1 elapsed=1 pad=", 45);
	longer[MATRIX_STATUS_TEXT_MAX] = '\0';
	assert_false(matrix_status_parse(longer, &s));
	longer[MATRIX_STATUS_TEXT_MAX - 1] = '\0';
	assert_true(matrix_status_parse(longer, &s));   /* the longest taken */
	/* unterminated within its 129 bytes: strnlen stops there */
	char *heap = malloc(MATRIX_STATUS_TEXT_MAX + 1);
	memset(heap, 'a', MATRIX_STATUS_TEXT_MAX + 1);
	assert_false(matrix_status_parse(heap, &s));
	free(heap);
}

static void header(const struct matrix_status *s, int width, const char *want)
{
	char buf[MATRIX_STATUS_TEXT_MAX];
	memset(buf, '#', sizeof buf);
	matrix_status_header(s, width, buf, sizeof buf);
	if (strcmp(buf, want) != 0)
		fail_msg("width %d: \"%s\", want \"%s\"", width, buf, want);
}

static void test_header_fitting(void **state)
{
	(void)state;
	const char *full = "MATRIX cell 3/8 run 1/2 12m05s ETA ~40m";
	header(&running, 200, full);
	header(&running, (int)strlen(full), full);
	header(&running, (int)strlen(full) - 1, "MATRIX 3/8 1/2 ETA ~40m");
	header(&running, 23, "MATRIX 3/8 1/2 ETA ~40m");
	header(&running, 22, "M 3/8");
	header(&running, 5, "M 3/8");
	header(&running, 4, "");
	header(&running, 0, "");
	header(&running, -7, "");

	struct matrix_status s = running;
	s.eta_s = MATRIX_ETA_UNKNOWN;
	s.elapsed_s = 42;
	header(&s, 80, "MATRIX cell 3/8 run 1/2 42s ETA ?");
	s.elapsed_s = 3725;
	s.eta_s = 3899;
	header(&s, 80, "MATRIX cell 3/8 run 1/2 1h02m ETA ~1h05m");
	s.eta_s = 29;
	header(&s, 80, "MATRIX cell 3/8 run 1/2 1h02m ETA ~29s");
	s.eta_s = 89;
	header(&s, 80, "MATRIX cell 3/8 run 1/2 1h02m ETA ~1m");

	struct matrix_status done = { MATRIX_DONE, 8, 8, 2, 2, 3725, MATRIX_ETA_UNKNOWN };
	header(&done, 80, "MATRIX done cell 8/8 run 2/2 1h02m");
	header(&done, 33, "MATRIX done 8/8");
	header(&done, 14, "M done");
	header(&done, 5, "");
	struct matrix_status stopped = { MATRIX_INTERRUPTED, 3, 8, 1, 2, 725, 100 };
	header(&stopped, 80, "MATRIX interrupted cell 3/8 run 1/2 12m05s");
	header(&stopped, 41, "MATRIX interrupted 3/8");
	header(&stopped, 21, "M stopped");

	/* a buffer too small for a form is not a fit, whatever the width */
	char small[8];
	matrix_status_header(&running, 80, small, sizeof small);
	assert_string_equal(small, "M 3/8");
}

static void test_advance_and_staleness(void **state)
{
	(void)state;
	struct matrix_status s = running;
	matrix_status_advance(&s, 60.4);
	assert_int_equal(s.elapsed_s, 785);
	assert_int_equal(s.eta_s, 2340);
	matrix_status_advance(&s, 1e12);   /* past every bound: clamped, never negative */
	assert_int_equal(s.elapsed_s, MATRIX_STATUS_NUMBER_MAX);
	assert_int_equal(s.eta_s, 0);
	s = running;
	matrix_status_advance(&s, -5);
	same(&s, &running);
	struct matrix_status done = { MATRIX_DONE, 8, 8, 2, 2, 100, MATRIX_ETA_UNKNOWN };
	matrix_status_advance(&done, 30);
	assert_int_equal(done.elapsed_s, 100);   /* the end's figures stay */

	assert_true(matrix_status_current(&done, 0));
	assert_true(matrix_status_current(&done, MATRIX_STATUS_LINGER_S));
	assert_false(matrix_status_current(&done, MATRIX_STATUS_LINGER_S + 1));
	struct matrix_status soon = running;   /* 2 x its estimate is less than the hour */
	soon.eta_s = 100;
	assert_true(matrix_status_current(&soon, MATRIX_STATUS_SILENCE_S));
	assert_false(matrix_status_current(&soon, MATRIX_STATUS_SILENCE_S + 1));
	soon.eta_s = MATRIX_ETA_UNKNOWN;
	assert_false(matrix_status_current(&soon, MATRIX_STATUS_SILENCE_S + 1));
	assert_true(matrix_status_current(&running, 2 * 2400));
	assert_false(matrix_status_current(&running, 2 * 2400 + 1));
	struct matrix_status longer = running;
	longer.eta_s = 3 * 3600;
	assert_true(matrix_status_current(&longer, 5 * 3600));
	assert_false(matrix_status_current(&longer, 6 * 3600 + 1));
	assert_false(matrix_status_current(&running, NAN));
}

/* The matrix's side: the same figures as its progress line, bounded at the ends. */
static void test_status_of(void **state)
{
	(void)state;
	struct matrix_opts o = { .repeat = 2, .max_repeat = 4 };
	struct matrix_result *r = calloc(1, sizeof *r);
	r->ncells = 4;
	struct matrix_ctx m = { .o = &o, .r = r, .cell = 1, .repeat = 0, .runs_planned = 8 };
	struct matrix_status s;
	matrix_status_of(&m, MATRIX_RUNNING, &s);
	assert_int_equal(s.cell, 2);
	assert_int_equal(s.cells, 4);
	assert_int_equal(s.run, 1);
	assert_int_equal(s.runs, 2);
	assert_int_equal(s.elapsed_s, 0);   /* not started */
	assert_int_equal(s.eta_s, MATRIX_ETA_UNKNOWN);
	m.runs_done = 2;
	m.run_seconds = 61;   /* 30.5 s a run, 6 left */
	matrix_status_of(&m, MATRIX_RUNNING, &s);
	assert_int_equal(s.eta_s, 183);
	m.repeat = 2;   /* a noisy cell's extra run: out of --max-repeat */
	matrix_status_of(&m, MATRIX_RUNNING, &s);
	assert_int_equal(s.run, 3);
	assert_int_equal(s.runs, 4);
	m.cell = 4;     /* after the last cell: the repeat loop one past its last run */
	m.repeat = 1;
	matrix_status_of(&m, MATRIX_DONE, &s);
	assert_int_equal(s.cell, 4);
	assert_int_equal(s.run, 1);
	assert_int_equal(s.runs, 2);
	m.repeat = 4;
	matrix_status_of(&m, MATRIX_DONE, &s);
	assert_int_equal(s.run, 4);
	assert_int_equal(s.runs, 4);
	char text[MATRIX_STATUS_TEXT_MAX];
	matrix_status_format(&s, text, sizeof text);
	struct matrix_status back;
	assert_true(matrix_status_parse(text, &back));   /* what it sends, a console takes */
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_header_fitting),
		cmocka_unit_test(test_advance_and_staleness),
		cmocka_unit_test(test_status_of),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
