/* test_console_history.c - the live console's history keeps the span the config asks
 * for when + and - change the interval (its capacity follows), the samples it holds
 * kept; a replay's follows its recorded interval, not the playing pace. */
#include "unit.h"

#include <string.h>

#include "console_state.h"

static struct console *console_on_fixture(struct options *opts)
{
	struct error err = { "" };
	struct console *c = calloc(1, sizeof *c);   /* every _init of its parts is a memset */
	assert_non_null(c);
	memset(opts, 0, sizeof *opts);
	c->opts = opts;
	c->timerfd = c->sigfd = -1;
	c->cfg.history = 3600;
	c->src = source_live_new(fixture_path("layout20"), 1.0, &err);
	assert_non_null(c->src);
	c->interval = 1.0;
	struct session_opts so = { history_capacity_for(c->cfg.history, c->interval) };
	c->session = session_open(c->src, &so, &err);
	assert_non_null(c->session);
	c->running = true;
	return c;
}

static void test_capacity_follows_the_interval(void **state)
{
	(void)state;
	struct options o;
	struct console *c = console_on_fixture(&o);
	assert_int_equal(history_capacity(console_hist(c)), 3600);
	assert_int_equal(console_take_sample(c), 1);
	assert_int_equal(console_take_sample(c), 1);
	uint64_t held = history_count(console_hist(c)) - history_oldest(console_hist(c));
	assert_true(held >= 1);
	/* an hour at 0.1 s: ten times the samples */
	console_set_interval(c, 0.1);
	assert_int_equal(history_capacity(console_hist(c)), 36000);
	assert_int_equal(history_count(console_hist(c)) - history_oldest(console_hist(c)), held);
	/* an hour at 5 s: the floor of 3600 samples (5 hours) */
	console_set_interval(c, 5);
	assert_int_equal(history_capacity(console_hist(c)), HISTORY_MIN_CAPACITY);
	console_samples_free(c);
	source_destroy(c->src);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capacity_follows_the_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
