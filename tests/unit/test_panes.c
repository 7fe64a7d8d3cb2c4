/* test_panes.c - the pane table and the action values: every pane complete and named
 * once; keys map to the table's actions and are refused where they do not act; a pane
 * answers a click from a frame alone, with no console behind it (pane.h). */
#include "unit.h"

#include <ncurses.h>
#include <string.h>

#include "keys.h"
#include "pane_table.h"

static const struct pane_def *pane_named(const char *name)
{
	for (size_t i = 0; i < console_panes_count; i++)
		if (strcmp(console_panes[i]->name, name) == 0)
			return console_panes[i];
	return NULL;
}

/* Issue 24 item 4: with the table limited to loop0 the graphs and the marks panel show
 * loop0's changes whoever made them; another disk's are left out even when ioscope made
 * them (an `ioscope set` from a shell, announced); marks, a watched command, the clock
 * and tracing concern every disk. */
static void test_marks_follow_the_selection(void **state)
{
	(void)state;
	struct device loop0 = { .name = "loop0" };
	struct table_row row = { .dev = &loop0 };
	struct snapshot snap;
	snapshot_init(&snap);
	struct frame f = { .snap = &snap, .rows = &row, .nrows = 1, .limited = true };
	const struct {
		enum event_kind kind;
		const char *object, *by;
		bool shown;
		const char *scope;
	} cases[] = {
		{ EVENT_SCHEDULER, "loop0", "observed", true, NULL },
		{ EVENT_SCHEDULER, "loop0", "ioscope", true, NULL },
		{ EVENT_SCHEDULER, "loop1", "observed", false, NULL },
		{ EVENT_SCHEDULER, "loop1", "ioscope", false, NULL },
		{ EVENT_TUNABLE, "loop1", "ioscope", false, NULL },
		{ EVENT_DIP, "loop1", "ioscope", false, NULL },
		{ EVENT_USER_MARK, "user", "ioscope", true, NULL },
		{ EVENT_RUN, "matrix", "ioscope", true, NULL },
		{ EVENT_TRACE, "trace", "ioscope", true, NULL },
		{ EVENT_CLOCK_BACK, "system", "observed", true, NULL },
		/* another user's matrix on its own disk, a mark for one disk */
		{ EVENT_RUN, "matrix", "ioscope", false, "loop1" },
		{ EVENT_RUN, "matrix", "ioscope", true, "loop0" },
		{ EVENT_USER_MARK, "user", "ioscope", false, "loop1" },
		{ EVENT_USER_MARK, "user", "ioscope", true, "loop0" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct history_mark m = { .kind = cases[i].kind, .object = cases[i].object,
					  .key = "", .old_value = "", .new_value = "",
					  .by = cases[i].by, .result = "", .label = "",
					  .scope = cases[i].scope ? cases[i].scope : "" };
		if (frame_mark_shown(&f, &m) != cases[i].shown)
			fail_msg("case %zu: %s by %s", i, cases[i].object, cases[i].by);
	}
	f.limited = false;   /* nothing named: every disk's */
	struct history_mark other = { .kind = EVENT_SCHEDULER, .object = "loop1", .key = "",
				      .old_value = "", .new_value = "", .by = "ioscope",
				      .result = "", .label = "", .scope = "" };
	assert_true(frame_mark_shown(&f, &other));
}

static void test_panes_complete(void **state)
{
	(void)state;
	assert_true(console_panes_count > 0 && console_panes_count <= 32);
	for (size_t i = 0; i < console_panes_count; i++) {
		const struct pane_def *p = console_panes[i];
		assert_non_null(p->name);
		assert_non_null(p->draw);
		assert_true(p->slot < SLOT_COUNT);
		if (pane_named(p->name) != p)
			fail_msg("two panes are named '%s'", p->name);
	}
}

static void test_key_actions(void **state)
{
	(void)state;
	char why[128];
	struct ui_action a = console_key_action('j', true, why, sizeof why);
	assert_int_equal(a.kind, UA_MOVE);
	assert_int_equal(a.arg, 1);
	assert_string_equal(why, "");
	a = console_key_action(KC(KEY_PPAGE), false, why, sizeof why);
	assert_int_equal(a.kind, UA_PAGE);
	assert_int_equal(a.arg, -1);
	/* a change to the kernel is refused in a replay, a replay key while live */
	a = console_key_action('S', false, why, sizeof why);
	assert_int_equal(a.kind, UA_NONE);
	assert_non_null(strstr(why, "disabled while replaying"));
	a = console_key_action('S', true, why, sizeof why);
	assert_int_equal(a.kind, UA_SCHEDULER);
	a = console_key_action('P', true, why, sizeof why);
	assert_int_equal(a.kind, UA_NONE);
	assert_non_null(strstr(why, "only in a replay"));
	a = console_key_action(KC(KEY_F(12)), true, why, sizeof why);
	assert_int_equal(a.kind, UA_NONE);
	assert_string_equal(why, "");
}

static void test_table_click(void **state)
{
	(void)state;
	struct device devs[3];
	memset(devs, 0, sizeof devs);
	struct table_row rows[3];
	const char *names[] = { "loop0", "loop1", "vda" };
	for (int i = 0; i < 3; i++) {
		snprintf(devs[i].name, sizeof devs[i].name, "%s", names[i]);
		rows[i] = (struct table_row){ &devs[i], NULL, false };
	}
	const struct device_figure *cols[2] = { column_find("r/s"), column_find("w/s") };
	assert_non_null(cols[0]);
	assert_non_null(cols[1]);
	struct frame f;
	memset(&f, 0, sizeof f);
	f.rows = rows;
	f.nrows = 3;
	f.selected = "vda";
	f.columns = cols;
	f.ncolumns = 2;
	const struct pane_def *table = pane_named("table");
	assert_non_null(table);
	assert_non_null(table->place);
	assert_non_null(table->click);
	struct rect r = { 5, 0, 3, 80 };   /* a header row and two rows: vda scrolls into view */
	table->place(&f, &r);
	assert_int_equal(f.table.top, 1);
	struct ui_action a = table->click(&f, &r, 7, 2);
	assert_int_equal(a.kind, UA_SELECT);
	assert_string_equal(a.name, "vda");
	a = table->click(&f, &r, 6, 2);
	assert_string_equal(a.name, "loop1");
	a = table->click(&f, &r, 5, f.table.column_x[2]);
	assert_int_equal(a.kind, UA_SORT_BY);
	assert_int_equal(a.arg, 1);
	a = table->click(&f, &r, 5, 0);
	assert_int_equal(a.kind, UA_SORT_BY);
	assert_int_equal(a.arg, -1);
	a = table->click(&f, &r, 9, 2);   /* below the rows */
	assert_int_equal(a.kind, UA_NONE);
}

/* The marks panel from a frame alone: it scrolls to keep the selected mark in view, a
 * click on a row selects that row's mark, the wheel walks the selection. */
static void test_marks_scroll_and_click(void **state)
{
	(void)state;
	struct history *h = history_new(HISTORY_MIN_CAPACITY);
	assert_non_null(h);
	struct rates r;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(history_append(h, &r), 0);
		struct event ev;
		event_init(&ev);
		ev.kind = EVENT_USER_MARK;
		event_set_object(&ev, "user");
		snprintf(ev.key, sizeof ev.key, "mark");
		event_set_new_value(&ev, "note %d", i + 1);
		snprintf(ev.by, sizeof ev.by, "ioscope");
		assert_int_equal(history_add_event(h, &ev), 0);
		event_free(&ev);
	}
	struct frame f;
	memset(&f, 0, sizeof f);
	f.hist = h;
	f.selected = "";
	const struct pane_def *marks = pane_named("marks");
	assert_non_null(marks);
	assert_non_null(marks->place);
	assert_non_null(marks->click);
	assert_non_null(marks->wheel);
	struct rect rc = { 20, 0, 4, 80 };   /* a title and three rows */
	marks->place(&f, &rc);
	assert_int_equal(f.marks_top, 0);
	f.mark_selected = 2;                 /* the 9th row, newest first */
	marks->place(&f, &rc);
	assert_int_equal(f.marks_top, 6);
	struct ui_action a = marks->click(&f, &rc, 23, 5);
	assert_int_equal(a.kind, UA_MARK_SELECT);
	assert_int_equal(a.arg, 2);
	a = marks->click(&f, &rc, 21, 5);
	assert_int_equal(a.arg, 4);
	a = marks->click(&f, &rc, 20, 5);    /* the title */
	assert_int_equal(a.kind, UA_NONE);
	f.mark_selected = 10;                /* back to the newest: the panel scrolls up */
	marks->place(&f, &rc);
	assert_int_equal(f.marks_top, 0);
	f.marks_top = 50;                    /* never past the last row */
	f.mark_selected = 0;
	marks->place(&f, &rc);
	assert_int_equal(f.marks_top, 7);
	a = marks->wheel(&f, &rc, 1);
	assert_int_equal(a.kind, UA_MARK_STEP);
	assert_int_equal(a.arg, 1);
	a = console_key_action('(', true, (char[8]){ 0 }, 8);
	assert_int_equal(a.kind, UA_MARK_STEP);
	assert_int_equal(a.arg, 1);
	history_free(h);
}

/* The detail pane says how many rows it fills (the layout sizes it so): its title, the
 * settings lines (wrapped items add lines at a narrow width) and a mount's two option
 * lines; the count is what drawing would fill, with no screen behind it. */
static void test_detail_rows(void **state)
{
	(void)state;
	const struct pane_def *p = pane_named("detail");
	assert_non_null(p);
	assert_non_null(p->rows);
	struct setting items[] = {
		{ "iosched.fifo_batch", "16" }, { "iosched.read_expire", "500" },
		{ "max_sectors_kb", "1280" }, { "nr_requests", "256" }, { "read_ahead_kb", "128" },
	};
	struct device loop0 = { .name = "loop0", .major = 7 };
	loop0.settings = (struct disk_settings){ .has_settings = true, .rotational = 1,
		.inflight_read = 0, .inflight_write = 0, .items = items,
		.nitems = sizeof items / sizeof items[0] };
	snprintf(loop0.settings.scheduler_line, sizeof loop0.settings.scheduler_line,
		 "none [mq-deadline] kyber bfq");
	struct mount m = { .disk = "loop0", .mountpoint = "/mnt", .fstype = "ext4",
			   .mount_opts = "rw,relatime", .super_opts = "rw,commit=5" };
	struct snapshot snap;
	snapshot_init(&snap);
	snap.mounts = &m;
	snap.nmounts = 1;
	struct frame f = { .snap = &snap, .selected_dev = &loop0 };
	/* title, rotational, scheduler, queue, iosched, mounts, mount flags, fs options */
	assert_int_equal(p->rows(&f, 128), 8);
	/* at 40 columns the first line's three items take two lines, the queue's three
	 * items three, the iosched's two */
	assert_int_equal(p->rows(&f, 40), 12);
	snap.nmounts = 0;                                        /* "mounts none" */
	assert_int_equal(p->rows(&f, 128), 6);
	f.selected_dev = NULL;
	assert_int_equal(p->rows(&f, 128), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_panes_complete),
		cmocka_unit_test(test_marks_follow_the_selection),
		cmocka_unit_test(test_detail_rows),
		cmocka_unit_test(test_key_actions),
		cmocka_unit_test(test_table_click),
		cmocka_unit_test(test_marks_scroll_and_click),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
