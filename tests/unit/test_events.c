/* Events: diffs of settings, mounts and the device set; labels. */
#include "unit.h"

#include <string.h>

#include "events.h"

static struct device *disk(struct snapshot *s, const char *name, const char *sched)
{
	struct device *d = snapshot_add_device(s);
	assert_non_null(d);
	snprintf(d->name, sizeof d->name, "%s", name);
	d->settings.has_settings = true;
	snprintf(d->settings.scheduler, sizeof d->settings.scheduler, "%s", sched);
	return d;
}

static void settings(struct device *d, const struct setting *items, size_t n)
{
	assert_int_equal(device_set_settings(d, items, n), 0);
}

/* One change, one mark: a switch and the resets it causes are one event, the resets
 * its details; a change the switch does not cause (read_ahead_kb) stays its own. */
static void test_scheduler_change_folds_iosched(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	const struct setting before[] = { { "iosched.fifo_batch", "16" }, { "nr_requests", "64" },
					  { "read_ahead_kb", "128" } };
	const struct setting after[] = { { "iosched.slice_idle", "8" }, { "nr_requests", "256" },
					 { "read_ahead_kb", "4096" } };
	settings(disk(&a, "loop3", "mq-deadline"), before, 3);
	settings(disk(&b, "loop3", "bfq"), after, 3);
	b.wall.tv_sec = 1234;
	struct event_list l;
	event_list_init(&l);
	assert_int_equal(events_diff(&l, &a, &b), 2);
	const struct event *sw = &l.items[0];
	assert_int_equal(sw->kind, EVENT_SCHEDULER);
	assert_string_equal(sw->object, "loop3");
	assert_string_equal(sw->old_value, "mq-deadline");
	assert_string_equal(sw->new_value, "bfq");
	assert_int_equal(sw->wall.tv_sec, 1234);
	assert_string_equal(sw->by, "observed");
	assert_int_equal(sw->nresets, 3);
	assert_string_equal(sw->resets[0].key, "iosched.fifo_batch");
	assert_true(sw->resets[0].had_old && !sw->resets[0].has_new);
	assert_string_equal(sw->resets[0].old_value, "16");
	assert_string_equal(sw->resets[1].key, "iosched.slice_idle");
	assert_true(!sw->resets[1].had_old && sw->resets[1].has_new);
	assert_string_equal(sw->resets[2].key, "nr_requests");
	assert_string_equal(sw->resets[2].old_value, "64");
	assert_string_equal(sw->resets[2].new_value, "256");
	assert_int_equal(l.items[1].kind, EVENT_TUNABLE);
	assert_string_equal(l.items[1].key, "read_ahead_kb");
	char label[256];
	event_label(sw, label, sizeof label);
	assert_string_equal(label, "sched mq-deadline→bfq");
	event_resets_text(sw, label, sizeof label);
	assert_string_equal(label, "iosched.fifo_batch 16→-, iosched.slice_idle -→8, "
				   "nr_requests 64→256");

	/* ioscope's own switch (with the resets it read back) swallows the whole echo. */
	struct event own;
	assert_int_equal(event_copy(&own, sw), 0);
	snprintf(own.by, sizeof own.by, "ioscope");
	events_drop_echoes(&l, &own, 1);
	assert_int_equal(l.count, 1);
	assert_string_equal(l.items[0].key, "read_ahead_kb");
	event_free(&own);

	/* Without a switch, nr_requests is a change of its own. */
	event_list_clear(&l);
	settings(&b.devices[0], before, 3);
	snprintf(b.devices[0].settings.scheduler, sizeof b.devices[0].settings.scheduler, "mq-deadline");
	const struct setting more[] = { { "iosched.fifo_batch", "16" }, { "nr_requests", "32" },
					{ "read_ahead_kb", "128" } };
	settings(&b.devices[0], more, 3);
	assert_int_equal(events_diff(&l, &a, &b), 1);
	assert_int_equal(l.items[0].kind, EVENT_TUNABLE);
	assert_int_equal(l.items[0].nresets, 0);
	event_list_free(&l);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* A change ioscope made to loop0. */
static void change(struct event *ev, enum event_kind kind, const char *key, const char *old,
		   const char *new, const char *result)
{
	event_init(ev);
	ev->kind = kind;
	event_set_object(ev, "loop0");
	snprintf(ev->key, sizeof ev->key, "%s", key);
	snprintf(ev->by, sizeof ev->by, "ioscope");
	event_set_old_value(ev, "%s", old);
	event_set_new_value(ev, "%s", new);
	event_set_result(ev, "%s", result);
}

/* A switch's label says what changed and its verdict leaves out what it reset (a log of
 * before keeps the list in its result): the resets are said once, apart. */
static void test_mark_label_and_verdict(void **state)
{
	(void)state;
	struct event ev;
	char buf[256];
	change(&ev, EVENT_SCHEDULER, "scheduler", "bfq", "mq-deadline",
	       "ok; reset: nr_requests 64 -> 256");
	event_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "sched loop0 bfq→mq-deadline");
	event_verdict(&ev, buf, sizeof buf);   /* no resets recorded apart: the list is all */
	assert_string_equal(buf, "ok; reset: nr_requests 64 -> 256");
	event_add_reset(&ev, "nr_requests", "64", "256");
	event_verdict(&ev, buf, sizeof buf);
	assert_string_equal(buf, "ok");
	event_free(&ev);
	change(&ev, EVENT_TUNABLE, "read_ahead_kb", "128", "4096", "accepted, applied as 4092");
	event_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "loop0 read_ahead_kb 128→4096");
	event_verdict(&ev, buf, sizeof buf);
	assert_string_equal(buf, "accepted, applied as 4092");
	event_free(&ev);
}

/* Issue 41 item 2: a refused change is a mark of what was tried, refused, in the kernel's
 * words; its value stays what it was (old = new), the result says what was tried. */
static void test_refused_label(void **state)
{
	(void)state;
	struct event ev;
	char buf[512];
	change(&ev, EVENT_TUNABLE, "read_ahead_kb", "128", "128",
	       "refused: read_ahead_kb=99999999: Invalid argument");
	assert_true(event_refused(&ev));
	event_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "loop0 read_ahead_kb 128→99999999: refused: Invalid argument");
	event_verdict(&ev, buf, sizeof buf);   /* the label says it: not twice */
	assert_string_equal(buf, "");
	event_free(&ev);

	change(&ev, EVENT_SCHEDULER, "scheduler", "kyber", "kyber",
	       "refused: scheduler=bfq: Invalid argument");
	event_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "sched loop0 kyber→bfq: refused: Invalid argument");
	event_free(&ev);

	/* tried on another key than the one the event watches: said as tried */
	change(&ev, EVENT_TUNABLE, "bdi.max_ratio_fine", "1000000", "1000000",
	       "refused: bdi.max_bytes=1: Invalid argument; the maximum cannot go below");
	event_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "loop0 bdi.max_bytes=1: refused: Invalid argument; the maximum "
				 "cannot go below");
	event_free(&ev);

	change(&ev, EVENT_MOUNT_OPTIONS, "super_opts", "rw,attr2,inode64", "rw,attr2,inode64",
	       "refused: +nobarrier: xfs: Unknown parameter 'nobarrier' (reconfigure: Invalid "
	       "argument); nothing was changed");
	event_set_object(&ev, "/mnt/x");
	event_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "remount /mnt/x +nobarrier: refused: xfs: Unknown parameter "
				 "'nobarrier' (reconfigure: Invalid argument); nothing was changed");
	event_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "remount +nobarrier: refused: xfs: Unknown parameter "
				 "'nobarrier' (reconfigure: Invalid argument); nothing was changed");
	event_free(&ev);

	/* a log of before, whose remount refusals did not say what they tried */
	change(&ev, EVENT_MOUNT_OPTIONS, "super_opts", "rw", "rw",
	       "refused: xfs: Unknown parameter 'nobarrier' (reconfigure: Invalid argument)");
	event_set_object(&ev, "/mnt/x");
	event_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "remount /mnt/x refused: xfs: Unknown parameter 'nobarrier' "
				 "(reconfigure: Invalid argument)");
	event_free(&ev);

	/* not refused: observed, or accepted */
	change(&ev, EVENT_TUNABLE, "nr_requests", "64", "64", "accepted, not applied (still 64)");
	assert_false(event_refused(&ev));
	snprintf(ev.by, sizeof ev.by, "observed");
	event_set_result(&ev, "refused");
	assert_false(event_refused(&ev));
	event_free(&ev);
}

static void test_resets_overflow_counted(void **state)
{
	(void)state;
	struct event ev;
	event_init(&ev);
	char key[32];
	for (int i = 0; i < EVENT_RESETS_MAX + 3; i++) {
		snprintf(key, sizeof key, "iosched.t%02d", i);
		event_add_reset(&ev, key, "1", NULL);
	}
	assert_int_equal(ev.nresets, EVENT_RESETS_MAX);
	assert_int_equal(ev.resets_dropped, 3);
	char text[4096];
	event_resets_text(&ev, text, sizeof text);
	assert_non_null(strstr(text, ", 3 more"));
	event_free(&ev);
}

static void test_tunable_and_write_cache(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	const struct setting before[] = { { "iosched.fifo_batch", "16" }, { "write_cache", "write back" } };
	const struct setting after[] = { { "iosched.fifo_batch", "32" }, { "write_cache", "write through" } };
	settings(disk(&a, "vdb", "mq-deadline"), before, 2);
	settings(disk(&b, "vdb", "mq-deadline"), after, 2);
	struct event_list l;
	event_list_init(&l);
	assert_int_equal(events_diff(&l, &a, &b), 2);
	assert_int_equal(l.items[0].kind, EVENT_TUNABLE);
	assert_string_equal(l.items[0].key, "iosched.fifo_batch");
	assert_int_equal(l.items[1].kind, EVENT_WRITE_CACHE);
	assert_string_equal(l.items[1].new_value, "write through");
	/* nothing changed: nothing reported */
	event_list_clear(&l);
	assert_int_equal(events_diff(&l, &b, &b), 0);
	event_list_free(&l);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Equal non-zero generations: nothing to compare; 0 is "unknown" and compares. */
static void test_generation_skips_compare(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	const struct setting x[] = { { "nr_requests", "64" } }, y[] = { { "nr_requests", "128" } };
	settings(disk(&a, "vdb", "none"), x, 1);
	settings(disk(&b, "vdb", "none"), y, 1);
	struct event_list l;
	event_list_init(&l);
	assert_int_equal(events_diff(&l, &a, &b), 1);     /* generation 0: compared */
	event_list_clear(&l);
	a.devices[0].settings.generation = b.devices[0].settings.generation = 7;
	settings(&b.devices[0], x, 1);
	assert_int_equal(events_diff(&l, &a, &b), 0);
	event_list_free(&l);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void test_devices_added_and_removed(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	disk(&a, "loop0", "none");
	disk(&a, "loop1", "none");
	disk(&b, "loop1", "none");
	disk(&b, "loop2", "none");
	struct event_list l;
	event_list_init(&l);
	assert_int_equal(events_diff(&l, &a, &b), 2);
	assert_int_equal(l.items[0].kind, EVENT_DEVICE_ADDED);
	assert_string_equal(l.items[0].object, "loop2");
	assert_int_equal(l.items[1].kind, EVENT_DEVICE_REMOVED);
	assert_string_equal(l.items[1].object, "loop0");
	event_list_free(&l);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* A loop device with file (NULL: none) as the source describes it: its loop/ group and
 * the loop.* settings read there, beside a queue setting. */
static struct device *loop_dev(struct snapshot *s, const char *name, const char *file,
			       const char *sectors, const char *dio)
{
	struct device *d = disk(s, name, "none");
	if (!file) {
		settings(d, (const struct setting[]){ { "nr_requests", "128" } }, 1);
		return d;
	}
	d->loop.present = true;
	snprintf(d->loop.file, sizeof d->loop.file, "%s", file);
	struct setting items[] = { { "loop.backing_file", "" }, { "loop.dio", "" },
				   { "loop.ro", "0" }, { "loop.sectors", "" },
				   { "nr_requests", "128" } };
	snprintf(items[0].value, sizeof items[0].value, "%s", file);
	snprintf(items[1].value, sizeof items[1].value, "%s", dio);
	snprintf(items[3].value, sizeof items[3].value, "%s", sectors);
	settings(d, items, 5);
	return d;
}

/* events_diff of two one-device snapshots: the count, and the first event's mark label. */
static int diff_one(struct snapshot *a, struct snapshot *b, char *label, size_t len,
		    struct event_list *l)
{
	event_list_clear(l);
	int n = events_diff(l, a, b);
	label[0] = '\0';
	if (n > 0)
		event_mark_label(&l->items[0], label, len);
	return n;
}

/* Issue 41 item 1: a loop device attached, detached or given another file is one event
 * that says so, its loop.* settings its details (not four tunable events); a setting of
 * its own (dio switched, the size read again) while it keeps its file is a change. */
static void test_loop_backing(void **state)
{
	(void)state;
	struct snapshot none, a, a_dio, b, old_a;
	struct snapshot *all[] = { &none, &a, &a_dio, &b, &old_a };
	for (size_t i = 0; i < 5; i++)
		snapshot_init(all[i]);
	loop_dev(&none, "loop7", NULL, NULL, NULL);
	loop_dev(&a, "loop7", "/var/tmp/a.img", "131072", "0");
	loop_dev(&a_dio, "loop7", "/var/tmp/a.img", "131072", "1");
	loop_dev(&b, "loop7", "/var/tmp/b.img", "3145728", "1");
	struct event_list l;
	event_list_init(&l);
	char label[512];

	assert_int_equal(diff_one(&none, &a, label, sizeof label, &l), 1);
	assert_int_equal(l.items[0].kind, EVENT_LOOP_BACKING);
	assert_string_equal(l.items[0].by, "observed");
	assert_string_equal(label, "loop7 attached /var/tmp/a.img (dio 0, ro 0, 64 MiB)");
	event_resets_text(&l.items[0], label, sizeof label);   /* the label says them */
	assert_string_equal(label, "");
	assert_true(event_is_derivable(&l.items[0]));

	assert_int_equal(diff_one(&a, &none, label, sizeof label, &l), 1);
	assert_string_equal(label, "loop7 detached from /var/tmp/a.img");
	assert_string_equal(l.items[0].old_value, "/var/tmp/a.img");
	assert_string_equal(l.items[0].new_value, "");

	assert_int_equal(diff_one(&a, &b, label, sizeof label, &l), 1);
	assert_string_equal(label, "loop7 detached from /var/tmp/a.img, attached /var/tmp/b.img "
				   "(dio 1, ro 0, 1.5 GiB)");

	/* losetup --direct-io: the same file, a setting of its own */
	assert_int_equal(diff_one(&a, &a_dio, label, sizeof label, &l), 1);
	assert_int_equal(l.items[0].kind, EVENT_TUNABLE);
	assert_string_equal(label, "loop7 loop.dio 0→1");

	/* a log written before the source kept the loop/ group: the setting says the file */
	loop_dev(&old_a, "loop7", "/var/tmp/a.img", "131072", "0");
	old_a.devices[0].loop.present = false;
	assert_int_equal(diff_one(&none, &old_a, label, sizeof label, &l), 1);
	assert_string_equal(label, "loop7 attached /var/tmp/a.img (dio 0, ro 0, 64 MiB)");

	/* added and removed with its file: one event each, which says so */
	assert_int_equal(diff_one(&old_a, &old_a, label, sizeof label, &l), 0);
	struct snapshot empty;
	snapshot_init(&empty);
	assert_int_equal(diff_one(&empty, &a, label, sizeof label, &l), 1);
	assert_string_equal(label, "loop7 added, attached /var/tmp/a.img (dio 0, ro 0, 64 MiB)");
	assert_int_equal(diff_one(&a, &empty, label, sizeof label, &l), 1);
	assert_string_equal(label, "loop7 removed, detached from /var/tmp/a.img");
	assert_int_equal(diff_one(&none, &empty, label, sizeof label, &l), 1);
	assert_string_equal(label, "loop7 removed");
	event_label(&l.items[0], label, sizeof label);
	assert_string_equal(label, "removed");   /* batch text: "loop7 removed", once */

	event_list_free(&l);
	snapshot_free(&empty);
	for (size_t i = 0; i < 5; i++)
		snapshot_free(all[i]);
}

/* Issue 15 items 2 and 4, issue 9 item 13: why a row is empty. */
static void test_counters_reset_and_clock_back(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	a.mono.tv_sec = 103;
	b.mono.tv_sec = 50;
	disk(&a, "sda", "none")->counters.rd_ios = 1200;
	disk(&a, "sdb", "none")->counters.rd_ios = 8;
	disk(&a, "sdc", "none");
	disk(&b, "sda", "none")->counters.rd_ios = 1100;   /* went back */
	disk(&b, "sdc", "none");
	disk(&b, "sdb", "none")->counters.rd_ios = 24;     /* listed last: re-created */
	struct event_list l;
	event_list_init(&l);
	assert_int_equal(events_diff(&l, &a, &b), 3);
	assert_int_equal(l.items[0].kind, EVENT_CLOCK_BACK);
	assert_string_equal(l.items[0].object, "system");
	assert_string_equal(l.items[0].old_value, "103.000");
	assert_string_equal(l.items[0].new_value, "50.000");
	assert_int_equal(l.items[1].kind, EVENT_COUNTERS_RESET);
	assert_string_equal(l.items[1].object, "sda");
	assert_string_equal(l.items[1].new_value, "counters went back");
	assert_int_equal(l.items[2].kind, EVENT_COUNTERS_RESET);
	assert_string_equal(l.items[2].object, "sdb");
	assert_string_equal(l.items[2].new_value, "re-created");
	char label[128];
	event_label(&l.items[2], label, sizeof label);
	assert_string_equal(label, "reset sdb (re-created)");
	assert_string_equal(event_kind_name(EVENT_COUNTERS_RESET), "counters_reset");
	assert_int_equal(event_kind_from_name("clock_back"), EVENT_CLOCK_BACK);

	event_list_clear(&l);
	b.mono.tv_sec = 104;                                  /* forward: no clock event */
	b.devices[0].counters.rd_ios = 1300;
	b.devices[2] = b.devices[1];                          /* sdb back in its place */
	snprintf(b.devices[1].name, sizeof b.devices[1].name, "sdb");
	b.devices[1].counters.rd_ios = 24;
	assert_int_equal(events_diff(&l, &a, &b), 0);
	event_list_free(&l);
	snapshot_free(&a);
	snapshot_free(&b);
}

static struct mount *mnt(struct snapshot *s, const char *mp, const char *mopts, const char *sopts)
{
	struct mount *m = snapshot_add_mount(s);
	assert_non_null(m);
	snprintf(m->mountpoint, sizeof m->mountpoint, "%s", mp);
	snprintf(m->source, sizeof m->source, "/dev/loop0");
	snprintf(m->fstype, sizeof m->fstype, "ext4");
	snprintf(m->mount_opts, sizeof m->mount_opts, "%s", mopts);
	snprintf(m->super_opts, sizeof m->super_opts, "%s", sopts);
	return m;
}

static void test_remount_label(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	mnt(&a, "/mnt/x", "rw,nosuid,relatime", "rw,commit=5");
	mnt(&b, "/mnt/x", "rw,nosuid,noatime", "rw,commit=30");
	mnt(&b, "/mnt/y", "rw", "rw");
	struct event_list l;
	event_list_init(&l);
	/* one remount, one event (issue 41): both columns' change in one label */
	assert_int_equal(events_diff(&l, &a, &b), 2);
	char label[256];
	assert_int_equal(l.items[0].kind, EVENT_MOUNT_OPTIONS);
	assert_string_equal(l.items[0].key, "mount_opts");
	event_label(&l.items[0], label, sizeof label);
	assert_string_equal(label, "remount +noatime -relatime commit=5→30");
	assert_int_equal(l.items[0].nresets, 1);
	assert_string_equal(l.items[0].resets[0].key, "super_opts");
	assert_string_equal(l.items[0].resets[0].old_value, "commit=5");
	assert_string_equal(l.items[0].resets[0].new_value, "commit=30");
	char resets[64];
	event_resets_text(&l.items[0], resets, sizeof resets);
	assert_string_equal(resets, "");   /* the label says it */
	assert_int_equal(l.items[1].kind, EVENT_MOUNT_ADDED);
	assert_string_equal(l.items[1].object, "/mnt/y");
	event_list_free(&l);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* remount,ro changes both columns (ro is a flag of the mount and of the superblock): one
 * event that says "+ro -rw" once; one column alone keeps its own key.  ioscope's own such
 * event drops the diff's copy, and each column seen alone (a sample read between its
 * reconfigure and its mount_setattr), not another change of the same mount. */
static void test_remount_one_event(void **state)
{
	(void)state;
	struct snapshot a, b, c;
	snapshot_init(&a);
	snapshot_init(&b);
	snapshot_init(&c);
	mnt(&a, "/mnt/x", "rw,relatime", "rw");
	mnt(&b, "/mnt/x", "ro,relatime", "ro");
	mnt(&c, "/mnt/x", "rw,relatime", "ro");
	struct event_list l;
	event_list_init(&l);
	assert_int_equal(events_diff(&l, &a, &b), 1);
	char label[256];
	event_label(&l.items[0], label, sizeof label);
	assert_string_equal(label, "remount +ro -rw");
	event_mark_label(&l.items[0], label, sizeof label);
	assert_string_equal(label, "remount /mnt/x +ro -rw");
	struct event own;
	event_own(&own, EVENT_MOUNT_OPTIONS, "/mnt/x", "mount_opts");
	event_set_old_value(&own, "rw,relatime");
	event_set_new_value(&own, "ro,relatime");
	event_add_options_reset(&own, "super_opts", "rw", "ro");
	assert_true(event_echoes(&l.items[0], &own));
	assert_int_equal(events_diff(&l, &a, &c), 1);   /* the fs options alone */
	assert_string_equal(l.items[1].key, "super_opts");
	assert_int_equal(l.items[1].nresets, 0);
	assert_true(event_echoes(&l.items[1], &own));
	/* then the mount flags take the filesystem's ro: the same remount, no event */
	assert_int_equal(events_diff(&l, &c, &b), 0);
	struct event flags;
	event_init(&flags);
	snprintf(flags.by, sizeof flags.by, "observed");
	flags.kind = EVENT_MOUNT_OPTIONS;
	snprintf(flags.key, sizeof flags.key, "mount_opts");
	event_set_object(&flags, "/mnt/x");
	event_set_new_value(&flags, "ro,relatime");
	assert_true(event_echoes(&flags, &own));   /* as ioscope's own remount's half */
	event_free(&flags);
	assert_int_equal(events_diff(&l, &b, &c), 1);   /* another change: rw back */
	assert_false(event_echoes(&l.items[2], &own));
	/* flags that take ro with another option, or against the filesystem's, are a change */
	struct snapshot d;
	snapshot_init(&d);
	mnt(&d, "/mnt/x", "ro,noatime", "ro");
	assert_int_equal(events_diff(&l, &c, &d), 1);
	assert_int_equal(events_diff(&l, &a, &c), 1);
	assert_int_equal(events_diff(&l, &d, &c), 1);
	snapshot_free(&d);
	event_free(&own);
	event_list_free(&l);
	snapshot_free(&a);
	snapshot_free(&b);
	snapshot_free(&c);
}

/* A matrix step whose text begins with its key says it once ("cell 2/4 ...", not
 * "cell cell 2/4 ..."); a command's start and exit keep theirs. */
static void test_run_label(void **state)
{
	(void)state;
	static const struct { const char *object, *key, *text, *label; } cases[] = {
		{ "matrix", "cell", "cell 2/4 repeat 1: xfs bfq defaults cold",
		  "cell 2/4 repeat 1: xfs bfq defaults cold" },
		{ "matrix", "sync", "sync -f /mnt/t", "sync -f /mnt/t" },
		{ "matrix", "mkfs", "mkfs.xfs -q -f /dev/loop3", "mkfs mkfs.xfs -q -f /dev/loop3" },
		{ "run", "start", "starter --x", "start starter --x" },
		{ "run", "exit", "0 (2.10 s)", "exit 0 (2.10 s)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct event ev;
		char label[256];
		event_own(&ev, EVENT_RUN, cases[i].object, cases[i].key);
		event_set_new_value(&ev, "%s", cases[i].text);
		event_label(&ev, label, sizeof label);
		event_free(&ev);
		assert_string_equal(label, cases[i].label);
	}
}

static void test_echoes_of_own_changes_dropped(void **state)
{
	(void)state;
	struct event own = { .kind = EVENT_SCHEDULER, .object = "loop0", .key = "scheduler",
			     .old_value = "none", .new_value = "bfq", .by = "ioscope" };
	struct event_list l;
	event_list_init(&l);
	*event_list_add(&l) = own;
	snprintf(l.items[0].by, sizeof l.items[0].by, "observed");   /* the echo */
	struct event *other = event_list_add(&l);                      /* someone else's */
	*other = l.items[0];
	event_set_object(other, "loop1");
	assert_true(event_echoes(&l.items[0], &own));
	assert_false(event_echoes(&own, &l.items[0]));
	events_drop_echoes(&l, &own, 1);
	assert_int_equal(l.count, 1);
	assert_string_equal(l.items[0].object, "loop1");
	event_list_free(&l);
}

/* Issue 28: a setting the kernel changed with ioscope's write (read_ahead_kb reset by
 * max_sectors_kb) is that write's reset; the diff's copy is its echo, dropped, unless it
 * shows another value or another disk. */
static void test_side_effect_is_an_echo(void **state)
{
	(void)state;
	struct event own;
	event_own(&own, EVENT_TUNABLE, "loop0", "max_sectors_kb");
	event_set_new_value(&own, "8");
	struct disk_settings before = { .nitems = 2 }, after = { .nitems = 2 };
	struct setting b[] = { { "max_sectors_kb", "1280" }, { "read_ahead_kb", "64" } };
	struct setting a[] = { { "max_sectors_kb", "8" }, { "read_ahead_kb", "128" } };
	before.items = b;
	after.items = a;
	event_side_effects_between(&own, &before, &after);
	assert_int_equal(own.nresets, 1);
	assert_string_equal(own.resets[0].key, "read_ahead_kb");
	struct event seen = { .kind = EVENT_TUNABLE, .object = "loop0", .key = "read_ahead_kb",
			      .old_value = "64", .new_value = "128", .by = "observed" };
	assert_true(event_echoes(&seen, &own));
	seen.new_value = "256";
	assert_false(event_echoes(&seen, &own));
	seen.new_value = "128";
	seen.object = "loop1";
	assert_false(event_echoes(&seen, &own));
	event_free(&own);
}

/* A sample's events come from the diff (stamped with the sample), a command's exit and
 * announcements (stamped when they happened): listed in that order of time. */
static void test_sorted_by_time(void **state)
{
	(void)state;
	struct event_list l;
	event_list_init(&l);
	const long at[] = { 900, 300, 900, 100 };
	const char *keys[] = { "scheduler", "exit", "nr_requests", "start" };
	for (size_t i = 0; i < 4; i++) {
		struct event *e = event_list_add(&l);
		e->mono.tv_nsec = at[i] * 1000000;
		snprintf(e->key, sizeof e->key, "%s", keys[i]);
	}
	events_sort_by_time(&l);
	assert_string_equal(l.items[0].key, "start");
	assert_string_equal(l.items[1].key, "exit");
	assert_string_equal(l.items[2].key, "scheduler");   /* same time: kept in order */
	assert_string_equal(l.items[3].key, "nr_requests");
	event_list_free(&l);
}

static void observed_in(struct event_list *l, const struct event *own)
{
	struct event *e = event_list_add(l);
	*e = *own;
	snprintf(e->by, sizeof e->by, "observed");
}

/* A change ioscope made is dropped from the diffs of the next two samples, then
 * forgotten: the same change made by someone else later is an event again. */
static void test_echo_filter_window(void **state)
{
	(void)state;
	struct event own = { .kind = EVENT_TUNABLE, .object = "vdb", .key = "nr_requests",
			     .old_value = "64", .new_value = "128", .by = "ioscope" };
	struct echo_filter f;
	struct event_list l;
	echo_filter_init(&f);
	event_list_init(&l);
	echo_filter_remember(&f, &own);
	for (int sample = 1; sample <= 3; sample++) {
		event_list_clear(&l);
		observed_in(&l, &own);
		echo_filter_sample(&f, &l, l.count);
		assert_int_equal(l.count, sample <= 2 ? 0 : 1);
	}
	/* a replay hands its own change with the sample: remembered, kept, echo dropped */
	event_list_clear(&l);
	observed_in(&l, &own);
	*event_list_add(&l) = own;
	echo_filter_sample(&f, &l, 1);
	assert_int_equal(l.count, 1);
	assert_string_equal(l.items[0].by, "ioscope");
	echo_filter_free(&f);
	event_list_free(&l);
}

/* Issue 27 item 6: an event is a small fixed record; long texts and a switch's resets
 * are out of line, so a list copies what an event holds (a burst of marks took 343 MB
 * when each was 8 KB). */
static void test_event_is_a_small_record(void **state)
{
	(void)state;
	assert_true(sizeof(struct event) <= 512);
	struct event ev;
	event_init(&ev);
	assert_null(ev.payload);   /* nothing to hold: no block */
	assert_string_equal(ev.object, "");
	assert_string_equal(ev.reasons, "");
	assert_int_equal(ev.nresets, 0);
	event_free(&ev);
}

/* Texts as long as a mount path and an option string fit, longer ones are cut where
 * the fixed fields cut them (a log replays the same); a text may be set from another. */
static void test_long_texts_kept_and_cut(void **state)
{
	(void)state;
	char path[EVENT_OBJECT_MAX + 100], opts[EVENT_VALUE_MAX + 100];
	memset(path, 'p', sizeof path - 1);
	path[sizeof path - 1] = '\0';
	memset(opts, 'o', sizeof opts - 1);
	opts[sizeof opts - 1] = '\0';
	struct event ev;
	event_init(&ev);
	ev.kind = EVENT_MOUNT_OPTIONS;
	assert_int_equal(event_set_object(&ev, "%s", path), 0);
	assert_int_equal(strlen(ev.object), EVENT_OBJECT_MAX - 1);
	assert_int_equal(event_set_old_value(&ev, "%s", opts), 0);
	assert_int_equal(strlen(ev.old_value), EVENT_VALUE_MAX - 1);
	assert_int_equal(event_set_new_value(&ev, "%.3s,%s", ev.old_value, ev.object), 0);
	assert_int_equal(strncmp(ev.new_value, "ooo,ppp", 7), 0);
	assert_int_equal(strlen(ev.new_value), 4 + EVENT_OBJECT_MAX - 1);
	assert_int_equal(event_set_result(&ev, "%s", opts), 0);
	assert_int_equal(strlen(ev.result), EVENT_RESULT_MAX - 1);
	assert_int_equal(strlen(ev.object), EVENT_OBJECT_MAX - 1);   /* the others untouched */
	assert_int_equal(strlen(ev.old_value), EVENT_VALUE_MAX - 1);
	event_free(&ev);
	assert_string_equal(ev.new_value, "");
	assert_null(ev.payload);
}

/* A copy owns all it holds: the original freed (or a view's texts overwritten), the
 * copy is whole; under ASan a double free or a leak fails the suite. */
static void test_copy_owns_its_payload(void **state)
{
	(void)state;
	struct event sw;
	event_init(&sw);
	sw.kind = EVENT_SCHEDULER;
	sw.wall.tv_sec = 42;
	snprintf(sw.key, sizeof sw.key, "scheduler");
	snprintf(sw.by, sizeof sw.by, "ioscope");
	event_set_object(&sw, "loop0");
	event_set_old_value(&sw, "mq-deadline");
	event_set_new_value(&sw, "bfq");
	event_set_result(&sw, "ok");
	event_add_reset(&sw, "iosched.fifo_batch", "16", NULL);
	event_add_reset(&sw, "nr_requests", "64", "256");
	struct event copy;
	assert_int_equal(event_copy(&copy, &sw), 0);
	assert_ptr_not_equal(copy.payload, sw.payload);
	assert_ptr_not_equal(copy.resets, sw.resets);
	event_free(&sw);
	assert_int_equal(copy.kind, EVENT_SCHEDULER);
	assert_int_equal(copy.wall.tv_sec, 42);
	assert_string_equal(copy.key, "scheduler");
	assert_string_equal(copy.by, "ioscope");
	assert_string_equal(copy.object, "loop0");
	assert_string_equal(copy.old_value, "mq-deadline");
	assert_string_equal(copy.new_value, "bfq");
	assert_string_equal(copy.result, "ok");
	assert_int_equal(copy.nresets, 2);
	assert_string_equal(copy.resets[1].key, "nr_requests");
	assert_string_equal(copy.resets[1].new_value, "256");
	assert_true(copy.resets[0].had_old && !copy.resets[0].has_new);
	event_free(&copy);

	/* a view (texts it does not own, as replay_event_get hands out) */
	char text[32] = "loop7";
	struct event view = { .kind = EVENT_DIP, .object = text, .old_value = "200",
			      .new_value = "20", .result = "", .reasons = "jbd2 commit 2.1 s" };
	assert_int_equal(event_copy(&copy, &view), 0);
	snprintf(text, sizeof text, "gone");
	event_free(&view);   /* owns nothing: harmless */
	assert_string_equal(copy.object, "loop7");
	char reason[64];
	assert_true(event_reason(&copy, 0, reason, sizeof reason));
	assert_string_equal(reason, "jbd2 commit 2.1 s");
	assert_true(event_add_reason(&copy, "14 tasks in D"));
	assert_true(event_reason(&copy, 1, reason, sizeof reason));
	assert_string_equal(reason, "14 tasks in D");
	event_free(&copy);
}

/* A list frees what it holds; clearing it after a burst gives the room back. */
static void test_list_clear_releases_a_burst(void **state)
{
	(void)state;
	struct event_list l;
	event_list_init(&l);
	for (int i = 0; i < 5000; i++) {
		struct event *e = event_list_add(&l);
		assert_non_null(e);
		e->kind = EVENT_USER_MARK;
		event_set_new_value(e, "mark %d", i);
	}
	assert_true(l.cap >= 5000);
	event_list_clear(&l);
	assert_int_equal(l.count, 0);
	assert_true(l.cap <= EVENT_LIST_KEEP);
	struct event *e = event_list_add(&l);
	assert_non_null(e);
	assert_string_equal(e->new_value, "");   /* added empty */
	event_set_new_value(e, "after");
	event_list_free(&l);
	assert_null(l.items);
}

static void test_kind_names_round_trip(void **state)
{
	(void)state;
	for (int k = 0; k < EVENT_KIND_COUNT; k++)
		assert_int_equal(event_kind_from_name(event_kind_name((enum event_kind)k)), k);
	assert_int_equal(event_kind_from_name("bogus"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scheduler_change_folds_iosched),
		cmocka_unit_test(test_mark_label_and_verdict),
		cmocka_unit_test(test_refused_label),
		cmocka_unit_test(test_resets_overflow_counted),
		cmocka_unit_test(test_tunable_and_write_cache),
		cmocka_unit_test(test_generation_skips_compare),
		cmocka_unit_test(test_devices_added_and_removed),
		cmocka_unit_test(test_loop_backing),
		cmocka_unit_test(test_counters_reset_and_clock_back),
		cmocka_unit_test(test_remount_label),
		cmocka_unit_test(test_remount_one_event),
		cmocka_unit_test(test_run_label),
		cmocka_unit_test(test_echoes_of_own_changes_dropped),
		cmocka_unit_test(test_echo_filter_window),
		cmocka_unit_test(test_side_effect_is_an_echo),
		cmocka_unit_test(test_sorted_by_time),
		cmocka_unit_test(test_kind_names_round_trip),
		cmocka_unit_test(test_event_is_a_small_record),
		cmocka_unit_test(test_long_texts_kept_and_cut),
		cmocka_unit_test(test_copy_owns_its_payload),
		cmocka_unit_test(test_list_clear_releases_a_burst),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
