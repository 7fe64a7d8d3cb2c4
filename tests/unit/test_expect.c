/* Changes announced as about to be made: a sample that sees one before its events come
 * holds what it observed of that object, and the change is logged once (expect.h). */
#include "unit.h"

#include <string.h>

#include "expect.h"

static struct timespec at(double s)
{
	return (struct timespec){ (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
}

static void change(struct event_list *l, const char *by, enum event_kind kind, const char *object,
		   const char *key, const char *new_value, double mono)
{
	struct event *e = event_list_add(l);
	assert_non_null(e);
	e->kind = kind;
	e->mono = at(mono);
	snprintf(e->by, sizeof e->by, "%s", by);
	snprintf(e->key, sizeof e->key, "%s", key);
	assert_int_equal(event_set_object(e, "%s", object), 0);
	assert_int_equal(event_set_new_value(e, "%s", new_value), 0);
}

struct fixture {
	struct expect x;
	struct event_list pending, events, own;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	assert_non_null(f);
	expect_init(&f->x);
	event_list_init(&f->pending);
	event_list_init(&f->events);
	event_list_init(&f->own);
	/* `ioscope set loop0 scheduler=kyber` says so at 10 s, before it writes */
	change(&f->pending, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.0);
	assert_int_equal(expect_add(&f->x, &f->pending.items[0]), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	expect_free(&f->x);
	event_list_free(&f->pending);
	event_list_free(&f->events);
	event_list_free(&f->own);
	free(f);
	return 0;
}

/* The sample of 10.05 s, read while the switch was being made: it sees the new scheduler
 * on loop0 (held) and a change on loop1 (not pending: shown now). */
static void sample_sees_switch(struct fixture *f)
{
	change(&f->events, "observed", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.05);
	change(&f->events, "observed", EVENT_TUNABLE, "loop1", "nr_requests", "64", 10.05);
	struct timespec now = at(10.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 1);
	assert_string_equal(f->events.items[0].object, "loop1");
	event_list_clear(&f->events);
}

/* The next sample brings the switch's own event (stamped when it was made): the held
 * observation echoes it and is dropped: one event, ioscope's. */
static void test_held_echo_dropped(void **state)
{
	struct fixture *f = *state;
	sample_sees_switch(f);
	change(&f->own, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.01);
	change(&f->events, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.01);
	struct timespec now = at(10.55);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 1);
	assert_string_equal(f->events.items[0].by, "ioscope");
	assert_int_equal(f->x.pending.count, 0);
	assert_int_equal(f->x.held.count, 0);
}

/* What the change did not make (someone else's write to the same disk meanwhile) is
 * handed back once the change's events came. */
static void test_other_change_handed_back(void **state)
{
	struct fixture *f = *state;
	change(&f->events, "observed", EVENT_TUNABLE, "loop0", "read_ahead_kb", "4", 10.05);
	struct timespec now = at(10.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 0);
	change(&f->own, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.01);
	now = at(10.55);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 1);
	assert_string_equal(f->events.items[0].key, "read_ahead_kb");
	assert_string_equal(f->events.items[0].by, "observed");
}

/* An own event older than the announcement (an earlier change of the same disk) is not
 * its answer: the observation stays held. */
static void test_earlier_own_event_not_the_answer(void **state)
{
	struct fixture *f = *state;
	change(&f->own, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "bfq", 9.5);
	change(&f->events, "observed", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.05);
	struct timespec now = at(10.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 0);
	assert_int_equal(f->x.pending.count, 1);
	assert_int_equal(f->x.held.count, 1);
}

/* The sender died between its write and its result: after the wait, what was held is
 * shown as observed, not lost; and nothing more is held. */
static void test_pending_expires(void **state)
{
	struct fixture *f = *state;
	sample_sees_switch(f);
	struct timespec now = at(10.0 + EXPECT_WAIT_SECONDS + 0.5);
	change(&f->events, "observed", EVENT_WRITE_CACHE, "loop0", "write_cache", "write through",
	       now.tv_sec);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 2);
	assert_string_equal(f->events.items[0].key, "write_cache");
	assert_string_equal(f->events.items[1].key, "scheduler");
	assert_string_equal(f->events.items[1].by, "observed");
	assert_int_equal(f->x.pending.count + f->x.held.count, 0);
}

/* Only a setting's change is the pending change's doing: the disk's counters starting
 * again, or a mark, is shown at once. */
static void test_only_setting_changes_held(void **state)
{
	struct fixture *f = *state;
	change(&f->events, "observed", EVENT_COUNTERS_RESET, "loop0", "counters", "re-created", 10.05);
	change(&f->events, "ioscope", EVENT_USER_MARK, "user", "mark", "hello", 10.05);
	struct timespec now = at(10.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 2);
}

/* The change could not be made (its job failed to start, or ended without its event):
 * withdrawn, what was held of its object is handed back at the next sample, and a change
 * someone else makes a second later is shown at once, not after EXPECT_WAIT_SECONDS.
 * Another announcement of the same object (a later one) stays pending. */
static void test_withdrawn_change_holds_nothing(void **state)
{
	struct fixture *f = *state;
	change(&f->pending, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "bfq", 10.2);
	assert_int_equal(expect_add(&f->x, &f->pending.items[1]), 0);
	sample_sees_switch(f);
	expect_withdraw(&f->x, &f->pending.items[0]);
	assert_int_equal(f->x.pending.count, 1);
	expect_withdraw(&f->x, &f->pending.items[1]);
	change(&f->events, "observed", EVENT_TUNABLE, "loop0", "nr_requests", "4", 11.05);
	struct timespec now = at(11.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 2);   /* the session puts them in time order */
	assert_string_equal(f->events.items[0].key, "nr_requests");
	assert_string_equal(f->events.items[1].key, "scheduler");
	assert_string_equal(f->events.items[1].by, "observed");
	assert_int_equal(f->x.pending.count + f->x.held.count, 0);
}

/* `ioscope set loop0 scheduler=kyber read_ahead_kb=4`: the switch's event answers the
 * switch, not the other write, held by a draining queue (a replay gives each event with
 * the sample before its stamp): what is seen of read_ahead_kb stays held for its own. */
static void test_answer_is_the_same_setting(void **state)
{
	struct fixture *f = *state;
	change(&f->pending, "ioscope", EVENT_TUNABLE, "loop0", "read_ahead_kb", "4", 10.0);
	assert_int_equal(expect_add(&f->x, &f->pending.items[1]), 0);
	change(&f->own, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.01);
	struct timespec now = at(10.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->x.pending.count, 1);
	assert_string_equal(f->x.pending.items[0].key, "read_ahead_kb");
	event_list_clear(&f->own);
	change(&f->events, "observed", EVENT_TUNABLE, "loop0", "read_ahead_kb", "4", 10.55);
	now = at(10.55);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 0);
	change(&f->own, "ioscope", EVENT_TUNABLE, "loop0", "read_ahead_kb", "4", 11.5);
	now = at(12.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 0);   /* the echo dropped */
	assert_int_equal(f->x.pending.count + f->x.held.count, 0);
}

/* A remount is answered by its mount point's events, whichever options they say changed
 * (mount_opts, super_opts). */
static void test_remount_answered_by_its_mount_point(void **state)
{
	struct fixture *f = *state;
	change(&f->pending, "ioscope", EVENT_MOUNT_OPTIONS, "/mnt", "mount_opts", "", 10.0);
	assert_int_equal(expect_add(&f->x, &f->pending.items[1]), 0);
	change(&f->own, "ioscope", EVENT_MOUNT_OPTIONS, "/mnt", "super_opts", "commit=30", 10.02);
	change(&f->own, "ioscope", EVENT_SCHEDULER, "loop0", "scheduler", "kyber", 10.01);
	struct timespec now = at(10.05);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->x.pending.count, 0);
}

/* A pending change swallows only what its own result answers.  Someone (the same user)
 * announces nr_requests=32 on loop1 and never makes it; a shell sets 64, which the next
 * sample holds; then `ioscope set loop1 nr_requests=64` announces and makes it.  Its
 * event echoes the shell's change, but it is the answer of its own announcement, made
 * after the shell's change was seen: the shell's change is logged, as observed, beside
 * ioscope's.  Before, the forged announcement took the set's event for its answer and
 * the shell's change vanished from the log. */
static void test_forged_pending_does_not_swallow(void **state)
{
	struct fixture *f = *state;
	change(&f->pending, "ioscope", EVENT_TUNABLE, "loop1", "nr_requests", "32", 10.1);
	assert_int_equal(expect_add(&f->x, &f->pending.items[1]), 0);
	change(&f->events, "observed", EVENT_TUNABLE, "loop1", "nr_requests", "64", 10.5);
	struct timespec now = at(10.5);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 0);                      /* held */
	change(&f->pending, "ioscope", EVENT_TUNABLE, "loop1", "nr_requests", "64", 10.7);
	assert_int_equal(expect_add(&f->x, &f->pending.items[2]), 0);
	change(&f->own, "ioscope", EVENT_TUNABLE, "loop1", "nr_requests", "64", 10.71);
	change(&f->events, "ioscope", EVENT_TUNABLE, "loop1", "nr_requests", "64", 10.71);
	now = at(11.0);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 2);
	bool observed = false;
	for (size_t i = 0; i < f->events.count; i++)
		observed = observed || (strcmp(f->events.items[i].by, "observed") == 0 &&
					strcmp(f->events.items[i].new_value, "64") == 0);
	assert_true(observed);
	assert_int_equal(f->x.pending.count, 1);   /* the fixture's switch of loop0 */
	assert_int_equal(f->x.held.count, 0);
}

/* A change announced while the sample was being read (stamped after the read began, taken
 * before the sample is derived) holds what that sample saw of it, and its own event
 * swallows it, whatever value the kernel shows for the one asked (read_ahead_kb=5 reads
 * back 4): one event, ioscope's. */
static void test_announced_during_the_read(void **state)
{
	struct fixture *f = *state;
	struct timespec now = at(10.5);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	change(&f->pending, "ioscope", EVENT_TUNABLE, "loop0", "read_ahead_kb", "5", 11.02);
	assert_int_equal(expect_add(&f->x, &f->pending.items[1]), 0);
	change(&f->events, "observed", EVENT_TUNABLE, "loop0", "read_ahead_kb", "4", 11.0);
	now = at(11.0);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 0);
	change(&f->own, "ioscope", EVENT_TUNABLE, "loop0", "read_ahead_kb", "4", 11.03);
	now = at(11.5);
	assert_int_equal(expect_sample(&f->x, &f->events, &f->own, &now), 0);
	assert_int_equal(f->events.count, 0);   /* the echo dropped */
	assert_int_equal(f->x.held.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_held_echo_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_change_handed_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_earlier_own_event_not_the_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_expires, setup, teardown),
		cmocka_unit_test_setup_teardown(test_only_setting_changes_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_withdrawn_change_holds_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_answer_is_the_same_setting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remount_answered_by_its_mount_point, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forged_pending_does_not_swallow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_announced_during_the_read, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
