/* test_history_signals.c - the figures history_add_signals keeps for the graphs: the dirty
 * limits, D tasks, seeks/s and the journals of each device's filesystems; missing ones are
 * NaN, never 0. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "history.h"
#include "tasks.h"
#include "trace.h"
#include "why.h"

/* cmocka's assert_float_equal takes NaN for any value: a figure, and that one */
#define assert_figure(v, want) \
	do { \
		double v_ = (v); \
		assert_false(isnan(v_)); \
		assert_float_equal(v_, (want), 1e-6); \
	} while (0)

/* dev0 (7:0, writing), its partition dev0p1 (7:1), dev1 (7:16, idle) */
static const char *const names[] = { "dev0", "dev0p1", "dev1" };

static void make_rates(struct rates *r, struct device_rates *d)
{
	memset(r, 0, sizeof *r);
	memset(d, 0, 3 * sizeof *d);
	for (size_t i = 0; i < 3; i++) {
		snprintf(d[i].name, sizeof d[i].name, "%s", names[i]);
		d[i].valid = true;
	}
	d[0].wkB_s = 4096;
	d[0].w_s = 40;
	r->devices = d;
	r->ndevices = 3;
	r->interval = 2.0;
	r->vm.valid = true;
}

static void make_snapshot(struct snapshot *s)
{
	snapshot_init(s);
	static const unsigned minors[] = { 0, 1, 16 };
	for (size_t i = 0; i < 3; i++) {
		struct device *d = snapshot_add_device(s);
		assert_non_null(d);
		snprintf(d->name, sizeof d->name, "%s", names[i]);
		d->major = 7;
		d->minor = minors[i];
	}
	s->devices[1].is_partition = true;
	snprintf(s->devices[1].parent, sizeof s->devices[1].parent, "dev0");
}

static void journal(struct why_rates *w, const char *dev, enum journal_fs fs,
		    enum journal_figure fig, double v)
{
	struct journal_rates *j = &w->journals[w->njournals++];
	snprintf(j->device, sizeof j->device, "%s", dev);
	j->fs = fs;
	j->present |= 1u << fig;
	j->f[fig] = v;
}

static int dev(const struct history *h, const char *name)
{
	int d = history_device_find(h, name);
	assert_true(d >= 0);
	return d;
}

static void test_signals_kept(void **state)
{
	(void)state;
	struct history *h = history_new(3600);
	struct rates r;
	struct device_rates d[3];
	struct snapshot s;
	make_rates(&r, d);
	make_snapshot(&s);

	struct tasks_sample tasks;
	memset(&tasks, 0, sizeof tasks);
	tasks.nblocked = 3;
	struct trace_device td;
	memset(&td, 0, sizeof td);
	td.major = 7;
	td.minor = 0;
	td.seeks = 50;
	struct trace_sample trace = { &td, 1 };
	s.tasks = &tasks;
	s.trace = &trace;
	static struct why_rates w;
	memset(&w, 0, sizeof w);
	w.have_dirty = true;
	w.background_kb = 100 * 1024;
	w.freerun_kb = 150 * 1024;
	w.threshold_kb = 200 * 1024;
	journal(&w, "dev0", JOURNAL_EXT4, JF_COMMIT_MS, 12);
	journal(&w, "dev0p1", JOURNAL_EXT4, JF_COMMIT_MS, 30);   /* the disk's longest */
	journal(&w, "dev0p1", JOURNAL_XFS, JF_LOG_FORCES_S, 5);
	journal(&w, "dev0", JOURNAL_XFS, JF_LOG_FORCES_S, 2);      /* summed */
	journal(&w, "dev1", JOURNAL_EXT4, JF_COMMIT_MS, 40);

	assert_int_equal(history_append(h, &r), 0);
	assert_int_equal(history_add_signals(h, &s, &w), 0);
	assert_figure(history_sys_value(h, HSM_DIRTY_BG_MB, 0), 100);
	assert_figure(history_sys_value(h, HSM_DIRTY_FREERUN_MB, 0), 150);
	assert_figure(history_sys_value(h, HSM_DIRTY_LIMIT_MB, 0), 200);
	assert_figure(history_sys_value(h, HSM_D_TASKS, 0), 3);
	int d0 = dev(h, "dev0"), p1 = dev(h, "dev0p1"), d1 = dev(h, "dev1");
	assert_figure(history_value(h, (size_t)d0, HM_SEEKS_S, 0), 25);   /* 50 in 2 s */
	assert_figure(history_value(h, (size_t)d0, HM_JOURNAL_COMMIT_MS, 0), 30);
	assert_figure(history_value(h, (size_t)d0, HM_JOURNAL_FORCES_S, 0), 7);
	assert_figure(history_value(h, (size_t)p1, HM_JOURNAL_COMMIT_MS, 0), 30);
	assert_true(isnan(history_value(h, (size_t)p1, HM_SEEKS_S, 0)));   /* traced per disk */
	/* an idle disk the trace does not list issued nothing: 0, not a gap */
	assert_figure(history_value(h, (size_t)d1, HM_SEEKS_S, 0), 0);
	assert_figure(history_value(h, (size_t)d1, HM_JOURNAL_COMMIT_MS, 0), 40);
	assert_true(isnan(history_value(h, (size_t)d1, HM_JOURNAL_FORCES_S, 0)));

	/* the next sample without tasks, trace or dirty limits: gaps, never zeros */
	s.tasks = NULL;
	s.trace = NULL;
	memset(&w, 0, sizeof w);
	assert_int_equal(history_append(h, &r), 0);
	assert_int_equal(history_add_signals(h, &s, &w), 0);
	assert_true(isnan(history_sys_value(h, HSM_DIRTY_LIMIT_MB, 1)));
	assert_true(isnan(history_sys_value(h, HSM_D_TASKS, 1)));
	assert_true(isnan(history_value(h, (size_t)d0, HM_SEEKS_S, 1)));
	assert_true(isnan(history_value(h, (size_t)d1, HM_SEEKS_S, 1)));
	assert_true(isnan(history_value(h, (size_t)d0, HM_JOURNAL_COMMIT_MS, 1)));
	assert_figure(history_value(h, (size_t)d0, HM_WRITE_MBS, 1), 4);

	/* appended without history_add_signals (an older caller): gaps too */
	assert_int_equal(history_append(h, &r), 0);
	assert_true(isnan(history_sys_value(h, HSM_DIRTY_BG_MB, 2)));
	assert_true(isnan(history_value(h, (size_t)d0, HM_SEEKS_S, 2)));
	snapshot_free(&s);
	history_free(h);
}

/* A device whose ring comes into being later reads as idle before: its seeks 0 where the
 * samples were traced, NaN where they were not. */
static void test_idle_device_before_its_ring(void **state)
{
	(void)state;
	struct history *h = history_new(3600);
	struct rates r;
	struct device_rates d[3];
	struct snapshot s;
	make_rates(&r, d);
	make_snapshot(&s);
	struct trace_sample empty = { NULL, 0 };
	static struct why_rates w;
	memset(&w, 0, sizeof w);
	for (int n = 0; n < 4; n++) {
		s.trace = n >= 2 ? &empty : NULL;
		assert_int_equal(history_append(h, &r), 0);
		assert_int_equal(history_add_signals(h, &s, &w), 0);
	}
	int d1 = dev(h, "dev1");
	assert_true(isnan(history_value(h, (size_t)d1, HM_SEEKS_S, 1)));
	assert_figure(history_value(h, (size_t)d1, HM_SEEKS_S, 2), 0);
	/* dev1 wakes up: its ring is filled with what it read as before */
	d[2].wkB_s = 1024;
	assert_int_equal(history_append(h, &r), 0);
	assert_int_equal(history_add_signals(h, &s, &w), 0);
	assert_figure(history_value(h, (size_t)d1, HM_WRITE_MBS, 4), 1);
	assert_true(isnan(history_value(h, (size_t)d1, HM_SEEKS_S, 0)));
	assert_figure(history_value(h, (size_t)d1, HM_SEEKS_S, 3), 0);
	assert_figure(history_value(h, (size_t)d1, HM_WRITE_MBS, 0), 0);
	assert_true(isnan(history_value(h, (size_t)d1, HM_JOURNAL_COMMIT_MS, 3)));
	s.trace = NULL;
	snapshot_free(&s);
	history_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_kept),
		cmocka_unit_test(test_idle_device_before_its_ring),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
