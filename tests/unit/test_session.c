/* test_session.c - the one pipeline without a console: a session stepped on a
 * fixture tree (baseline, rates, events, the end), ioscope's own change marked once
 * (its echo dropped), the selection limiting events, and a session on a session log
 * following the selection recorded in its header (older logs: all), seeking and
 * marks filtered by it. */
#include "unit.h"

#include <string.h>
#include <unistd.h>

#include "record_fixture.h"
#include "recorder.h"
#include "replay.h"
#include "session.h"

static struct session *open_on(struct source *src, size_t history)
{
	struct error err = { "" };
	struct session *s = session_open(src, &(struct session_opts){ history }, &err);
	assert_non_null(s);
	return s;
}

static const struct event *find_event(const struct session *s, const char *object, const char *key)
{
	const struct event_list *l = session_events(s);
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->items[i].object, object) == 0 && strcmp(l->items[i].key, key) == 0)
			return &l->items[i];
	return NULL;
}

static const struct device_rates *rates_of(const struct session *s, const char *name)
{
	const struct rates *r = session_rates(s);
	for (size_t i = 0; r && i < r->ndevices; i++)
		if (strcmp(r->devices[i].name, name) == 0)
			return &r->devices[i];
	return NULL;
}

/* layout20: vdb switches mq-deadline -> bfq between the two trees, r/s 50. */
static void test_fixture_steps(void **state)
{
	(void)state;
	struct error err = { "" };
	struct source *src = source_live_new(fixture_path("layout20"), 1.0, &err);
	assert_non_null(src);
	struct session *s = open_on(src, HISTORY_MIN_CAPACITY);
	assert_int_equal(session_step(s, &err), 1);
	assert_null(session_rates(s));               /* the first sample is a baseline */
	assert_int_equal(session_events(s)->count, 0);
	assert_int_equal(session_step(s, &err), 1);
	const struct device_rates *vdb = rates_of(s, "vdb");
	assert_non_null(vdb);
	assert_float_equal(vdb->r_s, 50, 1e-9);
	const struct event *sched = find_event(s, "vdb", "scheduler");
	assert_non_null(sched);
	assert_string_equal(sched->new_value, "bfq");
	assert_int_equal(history_count(session_history(s)), 1);
	assert_true(history_mark_count(session_history(s)) >= 1);

	/* naming a device limits the events: dm-0 is not vdb */
	struct selection sel = { .n = 0 };
	assert_true(session_event_selected(s, sched));
	selection_add(&sel, "dm-0");
	session_set_selection(s, &sel);
	assert_false(session_event_selected(s, sched));
	char *args[] = { "vdb1" };   /* a partition of vdb: its disk's scheduler concerns it */
	assert_int_equal(session_select(s, args, 1, &err), 0);
	assert_true(session_event_selected(s, sched));
	char *bad[] = { "nosuchdisk" };
	assert_int_equal(session_select(s, bad, 1, &err), -1);

	assert_int_equal(session_step(s, &err), 0);
	assert_true(session_ended(s));
	session_close(s);
	source_destroy(src);
}

/* A change ioscope made is logged when made; the next diff's echo is dropped. */
static void test_own_change_marked_once(void **state)
{
	(void)state;
	struct error err = { "" };
	struct source *src = source_live_new(fixture_path("layout20"), 1.0, &err);
	assert_non_null(src);
	struct session *s = open_on(src, HISTORY_MIN_CAPACITY);
	assert_int_equal(session_step(s, &err), 1);
	struct event own = { .kind = EVENT_SCHEDULER };
	event_set_object(&own, "vdb");
	snprintf(own.key, sizeof own.key, "scheduler");
	event_set_old_value(&own, "mq-deadline");
	event_set_new_value(&own, "bfq");
	snprintf(own.by, sizeof own.by, "ioscope");
	event_set_result(&own, "ok");
	assert_int_equal(session_add_own_event(s, &own, &err), 0);
	event_free(&own);
	assert_int_equal(session_step(s, &err), 1);
	assert_null(find_event(s, "vdb", "scheduler"));
	size_t scheds = 0;
	for (size_t i = 0; i < history_mark_count(session_history(s)); i++)
		scheds += strcmp(history_mark_get(session_history(s), i)->key, "scheduler") == 0;
	assert_int_equal(scheds, 1);
	session_close(s);
	source_destroy(src);
}

#define NSAMPLES 6

/* A log recorded by a session selecting loop7 (or none: the header says []), with
 * a user mark at sample 5; vda's scheduler switches at sample 3. */
static const char *write_log(const char *tag, bool select_loop7, bool drop_selection)
{
	const char *path = temp_log(tag);
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct selection sel = { .n = 0 };
	if (select_loop7)
		selection_add(&sel, "loop7");
	if (!drop_selection)
		recorder_set_selection(rec, &sel);
	struct snapshot snap;
	struct event_list evs;
	snapshot_init(&snap);
	event_list_init(&evs);
	for (unsigned k = 1; k <= NSAMPLES; k++) {
		fixture_snapshot(&snap, k);
		event_list_clear(&evs);
		if (k == 5) {
			struct event *e = event_list_add(&evs);
			e->kind = EVENT_USER_MARK;
			e->wall = snap.wall;
			event_set_object(e, "user");
			snprintf(e->key, sizeof e->key, "mark");
			event_set_new_value(e, "look here");
			snprintf(e->by, sizeof e->by, "ioscope");
		}
		if (k == 3) {   /* what a live session logs: the diff's scheduler event */
			struct event *e = event_list_add(&evs);
			e->kind = EVENT_SCHEDULER;
			e->wall = snap.wall;
			event_set_object(e, "vda");
			snprintf(e->key, sizeof e->key, "scheduler");
			event_set_old_value(e, "mq-deadline");
			event_set_new_value(e, "bfq");
			snprintf(e->by, sizeof e->by, "observed");
		}
		assert_int_equal(recorder_write(rec, &snap, &evs, &err), 0);
	}
	snapshot_free(&snap);
	event_list_free(&evs);
	recorder_close(rec);
	return path;
}

static void test_log_follows_recorded_selection(void **state)
{
	(void)state;
	struct error err = { "" };
	const char *path = write_log("session-sel", true, false);
	struct source *src = source_replay_new(path, &err);
	assert_non_null(src);
	struct source_info info;
	src->ops->describe(src, &info);
	assert_true(info.has_selection);
	assert_int_equal(info.nselection, 1);
	assert_string_equal(info.selection[0], "loop7");

	struct session *s = open_on(src, HISTORY_MIN_CAPACITY);
	assert_int_equal(session_step(s, &err), 1);
	assert_int_equal(session_select(s, NULL, 0, &err), 0);
	assert_int_equal(session_selection(s)->n, 1);
	assert_string_equal(session_selection(s)->names[0], "loop7");
	assert_int_equal(session_step(s, &err), 1);
	assert_int_equal(session_step(s, &err), 1);   /* sample 3 (index 2): vda switches */
	assert_int_equal(session_sample_index(s), 2);
	const struct event *sched = find_event(s, "vda", "scheduler");
	assert_non_null(sched);
	assert_false(session_event_selected(s, sched));   /* vda was not recorded for */

	/* marks of the selection only: the user mark at index 4, not vda's switch */
	size_t n = src->ops->logged_event_count(src);
	struct replay_event *logged = malloc(sizeof *logged);
	assert_non_null(logged);
	size_t i = session_mark_after(s, 0);
	assert_true(i < n);
	assert_int_equal(src->ops->logged_event(src, i, logged), 0);
	assert_int_equal(logged->event.kind, EVENT_USER_MARK);
	assert_int_equal(src->ops->logged_event(src, n, logged), -1);
	free(logged);
	assert_int_equal(session_mark_before(s, 4), SIZE_MAX);

	/* seeking: as if played there, the recorded selection kept */
	assert_int_equal(session_seek(s, 4, 100, &err), 0);
	assert_int_equal(session_sample_index(s), 4);
	assert_non_null(session_rates(s));
	assert_int_equal(session_selection(s)->n, 1);
	assert_non_null(find_event(s, "user", "mark"));
	session_close(s);
	source_destroy(src);

	/* an explicit DEVICE wins over the recording's */
	src = source_replay_new(path, &err);
	s = open_on(src, 0);
	assert_int_equal(session_step(s, &err), 1);
	char *args[] = { "vda" };
	assert_int_equal(session_select(s, args, 1, &err), 0);
	assert_string_equal(session_selection(s)->names[0], "vda");
	assert_int_equal(session_mark_after(s, 0), 0);   /* vda's switch is first now */
	session_close(s);
	source_destroy(src);
	unlink(path);
}

/* "selection": [] and a header without it (older logs) both mean every device. */
static void test_log_without_selection_is_all(void **state)
{
	(void)state;
	struct error err = { "" };
	for (int old = 0; old < 2; old++) {
		const char *path = write_log(old ? "session-old" : "session-all", false, old);
		struct source *src = source_replay_new(path, &err);
		assert_non_null(src);
		struct session *s = open_on(src, 0);
		assert_int_equal(session_step(s, &err), 1);
		assert_int_equal(session_select(s, NULL, 0, &err), 0);
		assert_true(selection_all(session_selection(s)));
		assert_int_equal(session_step(s, &err), 1);
		assert_int_equal(session_step(s, &err), 1);
		const struct event *sched = find_event(s, "vda", "scheduler");
		assert_non_null(sched);
		assert_true(session_event_selected(s, sched));
		session_close(s);
		source_destroy(src);
		unlink(path);
	}
}

/* ---- a replay holds what the recording session held ---- */

/* Set one of d's settings (the fixture's four). */
static void set_setting(struct device *d, const char *key, const char *value)
{
	struct setting items[4];
	assert_true(d->settings.nitems <= 4);
	memcpy(items, d->settings.items, d->settings.nitems * sizeof *items);
	for (size_t i = 0; i < d->settings.nitems; i++)
		if (strcmp(items[i].key, key) == 0)
			snprintf(items[i].value, sizeof items[i].value, "%s", value);
	assert_int_equal(device_set_settings(d, items, d->settings.nitems), 0);
}

static struct device *device_named(struct snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->ndevices; i++)
		if (strcmp(s->devices[i].name, name) == 0)
			return &s->devices[i];
	fail();
	return NULL;
}

static struct event *own_change(struct event_list *l, const char *object, const char *key,
				const char *old_value, const char *new_value, double at)
{
	struct event *e = event_list_add(l);
	assert_non_null(e);
	event_own(e, strcmp(key, "scheduler") == 0 ? EVENT_SCHEDULER : EVENT_TUNABLE, object, key);
	e->mono = (struct timespec){ (time_t)at, (long)((at - (double)(time_t)at) * 1e9) };
	event_set_old_value(e, "%s", old_value);
	event_set_new_value(e, "%s", new_value);
	event_set_result(e, "ok");
	return e;
}

/* What a batch session recorded (samples k at 1000 + k s): before sample 3 it took three
 * announcements (`ioscope set vda scheduler=bfq read_ahead_kb=4`, another command's
 * `loop7 nr_requests=64`), and with sample 7 their events.  The read_ahead_kb write took
 * effect at once (seen from sample 4) but returned at 1006.5, held by a draining queue.
 * loop7's write_cache changes at sample 7, by someone else. */
static const char *write_held_log(void)
{
	const char *path = temp_log("session-held");
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct snapshot snap;
	struct event_list evs, pending;
	snapshot_init(&snap);
	event_list_init(&evs);
	event_list_init(&pending);
	own_change(&pending, "vda", "scheduler", "", "bfq", 1002.9);
	own_change(&pending, "vda", "read_ahead_kb", "", "4", 1002.9);
	own_change(&pending, "loop7", "nr_requests", "", "64", 1002.3);
	for (unsigned k = 1; k <= 8; k++) {
		fixture_snapshot(&snap, k);
		if (k >= 4)
			set_setting(device_named(&snap, "vda"), "read_ahead_kb", "4");
		if (k >= 3)
			set_setting(device_named(&snap, "loop7"), "nr_requests", "64");
		if (k >= 7)
			set_setting(device_named(&snap, "loop7"), "write_cache", "write through");
		for (size_t i = 0; k == 3 && i < pending.count; i++)
			assert_int_equal(recorder_write_announced(rec, &pending.items[i], false, &err), 0);
		event_list_clear(&evs);
		if (k == 7) {
			/* the switch's event stamped when its write returned, with its reset */
			event_add_reset(own_change(&evs, "vda", "scheduler", "mq-deadline", "bfq", 1003.3),
					"nr_requests", "256", "64");
			own_change(&evs, "vda", "read_ahead_kb", "128", "4", 1006.5);
			own_change(&evs, "loop7", "nr_requests", "128", "64", 1002.5);
		}
		assert_int_equal(recorder_write(rec, &snap, &evs, &err), 0);
	}
	snapshot_free(&snap);
	event_list_free(&evs);
	event_list_free(&pending);
	recorder_close(rec);
	return path;
}

/* The replay gives each change's event with the sample before its stamp (vda's switch
 * with sample 3, loop7's with sample 2, read_ahead_kb's with sample 6), the announcements
 * with sample 3, as taken.  Each change is then shown once, by ioscope, as live: the
 * switch's event is not the answer to read_ahead_kb's announcement (its observation at
 * sample 4 stays held until its own event), loop7's event of the sample before answers
 * its announcement, and someone else's write_cache change is shown with its sample. */
static void test_replay_holds_as_recorded(void **state)
{
	(void)state;
	const char *path = write_held_log();
	struct error err = { "" };
	struct source *src = source_replay_new(path, &err);
	assert_non_null(src);
	struct session *s = open_on(src, 0);
	size_t own = 0, observed = 0;
	for (unsigned k = 1; k <= 8; k++) {
		assert_int_equal(session_step(s, &err), 1);
		const struct event_list *l = session_events(s);
		for (size_t i = 0; i < l->count; i++) {
			const struct event *e = &l->items[i];
			if (e->kind != EVENT_SCHEDULER && e->kind != EVENT_TUNABLE &&
			    e->kind != EVENT_WRITE_CACHE)
				continue;   /* the fixture's sdz appearing, loop7's counters wrapping */
			if (strcmp(e->by, "ioscope") == 0) {
				own++;
				continue;
			}
			print_message("sample %u: %s %s %s\n", k, e->by, e->object, e->key);
			observed++;
			assert_int_equal(k, 7);
			assert_string_equal(e->object, "loop7");
			assert_string_equal(e->key, "write_cache");
		}
	}
	assert_int_equal(own, 3);
	assert_int_equal(observed, 1);
	session_close(s);
	source_destroy(src);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_steps),
		cmocka_unit_test(test_own_change_marked_once),
		cmocka_unit_test(test_log_follows_recorded_selection),
		cmocka_unit_test(test_log_without_selection_is_all),
		cmocka_unit_test(test_replay_holds_as_recorded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
