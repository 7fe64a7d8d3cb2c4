/* test_why_pane.c - the why pane's text (src/ui/why_lines.c) from a frame alone: the
 * dirty line with the kernel's limits and "writers throttled", the journals of the
 * selected device's filesystems only (a partition's included), and on a short pane the
 * processes giving way first with a last row that says what is hidden. */
#include "unit.h"

#include <string.h>

#include "why_lines.h"

struct fixture {
	struct snapshot snap;
	struct why_sample raw;
	struct why_rates why;
	struct frame f;
};

static void journal(struct why_rates *y, const char *mnt, const char *dev, enum journal_fs fs)
{
	struct journal_rates *j = &y->journals[y->njournals++];
	snprintf(j->mountpoint, sizeof j->mountpoint, "%s", mnt);
	snprintf(j->device, sizeof j->device, "%s", dev);
	j->fs = fs;
	j->f[JF_COMMITS_S] = 5;
	j->f[JF_COMMIT_MS] = 80;
	j->present = 1u << JF_COMMITS_S | 1u << JF_COMMIT_MS;
}

static void setup(struct fixture *x)
{
	memset(x, 0, sizeof *x);
	snapshot_init(&x->snap);
	struct device *d = snapshot_add_device(&x->snap);
	snprintf(d->name, sizeof d->name, "vdb");
	d->major = 252;
	d->minor = 16;
	d = snapshot_add_device(&x->snap);
	snprintf(d->name, sizeof d->name, "vdb1");
	snprintf(d->parent, sizeof d->parent, "vdb");
	d->is_partition = true;
	d->major = 252;
	d->minor = 17;
	d = snapshot_add_device(&x->snap);
	snprintf(d->name, sizeof d->name, "loop3");
	d->major = 7;
	d->minor = 3;
	x->snap.why = &x->raw;
	x->why.have_dirty = x->why.have_dirty_rates = true;
	x->why.dirty_kb = 10240;
	x->why.writeback_kb = 1024;
	x->why.background_kb = 409600;
	x->why.freerun_kb = 614400;
	x->why.threshold_kb = 819200;
	x->why.dirtied_kBs = 40960;
	x->why.written_kBs = 39936;
	journal(&x->why, "/mnt/e", "vdb1", JOURNAL_EXT4);
	journal(&x->why, "/mnt/other", "vdc", JOURNAL_BTRFS);
	x->f.snap = &x->snap;
	x->f.why = &x->why;
	x->f.selected = "vdb";
	x->f.live = true;
}

static void teardown(struct fixture *x)
{
	x->snap.why = NULL;
	tasks_sample_free(x->snap.tasks);
	x->snap.tasks = NULL;
	snapshot_free(&x->snap);
}

static const char *find(const struct why_text *t, const char *needle)
{
	for (size_t i = 0; i < t->n; i++)
		if (!t->lines[i].hidden && strstr(t->lines[i].text, needle))
			return t->lines[i].text;
	return NULL;
}

static void test_dirty_and_journals(void **state)
{
	(void)state;
	static struct fixture x;
	static struct why_text t;
	setup(&x);
	why_text_build(&t, &x.f, 78);
	assert_string_equal(find(&t, "dirty "), "dirty 10M  writeback 1M  background 400M  "
			    "freerun 600M  threshold 800M");
	assert_string_equal(find(&t, "dirtied"), "dirtied 40M/s  written 39M/s");
	assert_null(find(&t, "writers throttled"));
	/* the partition's ext4 is the selected disk's; the btrfs on vdc is not */
	assert_string_equal(find(&t, "ext4"), "ext4 vdb1 /mnt/e: commits 5.0/s, commit 80 ms");
	assert_null(find(&t, "btrfs"));
	x.why.throttled_tasks = 2;
	why_text_build(&t, &x.f, 78);
	assert_non_null(find(&t, "writers throttled: 2 tasks in balance_dirty_pages"));
	x.why.throttled = true;
	why_text_build(&t, &x.f, 78);
	assert_non_null(find(&t, "writers throttled: dirty+writeback above freerun"));
	x.f.selected = "vdd";
	why_text_build(&t, &x.f, 78);
	assert_non_null(find(&t, "journal: no ext4, xfs or btrfs mounted on vdd"));
	/* narrow: the sizes flow onto an indented line, nothing is lost */
	why_text_build(&t, &x.f, 40);
	assert_non_null(find(&t, "  freerun 600M  threshold 800M"));
	teardown(&x);
}

/* A tasks sample of one second, read as root with delay accounting on. */
static struct tasks_sample *with_tasks(struct fixture *x)
{
	struct tasks_sample *s = x->snap.tasks = tasks_sample_new();
	assert_non_null(s);
	s->interval_ns = 1000000000;
	s->delayacct = s->stack_readable = true;
	return s;
}

static void test_short_pane_hides_processes_first(void **state)
{
	(void)state;
	static struct fixture x;
	static struct why_text t;
	setup(&x);
	struct tasks_sample *s = with_tasks(&x);
	s->nio = 12;
	for (size_t i = 0; i < s->nio; i++) {
		s->io[i].pid = (int32_t)(100 + i);
		snprintf(s->io[i].comm, sizeof s->io[i].comm, "w%zu", i);
		s->io[i].write_bytes = 4096 * (20 - i);
		s->io[i].nfiles = 1;
		s->io[i].files[0] = (struct task_file){ TASK_FILE_ON_FS, 252, 17 };   /* vdb1 */
	}
	why_text_build(&t, &x.f, 78);
	size_t all = t.n;
	char summary[WHY_LINE_MAX];
	assert_false(why_text_fit(&t, all, summary, sizeof summary));
	assert_true(why_text_fit(&t, 8, summary, sizeof summary));
	size_t shown = 0;
	for (size_t i = 0; i < t.n; i++)
		shown += !t.lines[i].hidden;
	assert_int_equal(shown, 7);   /* and the summary row */
	assert_non_null(find(&t, "dirty 10M"));
	assert_non_null(find(&t, "ext4 vdb1"));
	assert_non_null(find(&t, "w0 "));
	assert_string_equal(summary, "hidden: 10 processes (a taller terminal shows them)");
	/* shorter still: no heading over no process, the dirty lines last to go */
	why_text_build(&t, &x.f, 78);
	assert_true(why_text_fit(&t, 4, summary, sizeof summary));
	assert_null(find(&t, "PID"));
	assert_non_null(find(&t, "dirty 10M"));
	assert_string_equal(summary, "hidden: 1 journal line, 12 processes (a taller terminal shows them)");
	teardown(&x);
}

static void blocked(struct tasks_sample *s, int tid, const char *comm, const char *wchan,
		    unsigned major, unsigned minor)
{
	struct blocked_task *b = tasks_sample_add_blocked(s);
	assert_non_null(b);
	b->pid = b->tid = tid;
	snprintf(b->comm, sizeof b->comm, "%s", comm);
	snprintf(b->wchan, sizeof b->wchan, "%s", wchan);
	b->waits = (struct task_file){ major ? TASK_FILE_ON_FS : TASK_FILE_NONE, major, minor };
	s->nblocked++;
}

/* "Why vdb" is vdb's (issue 24): its blocked tasks and processes, then a line for the
 * rest, each where it is; without a selected device everything, as before. */
static void test_selected_device_first(void **state)
{
	(void)state;
	static struct fixture x;
	static struct why_text t;
	setup(&x);
	struct tasks_sample *s = with_tasks(&x);
	s->nprocs = 300;
	blocked(s, 10, "tar", "jbd2_log_wait_commit", 252, 17);
	blocked(s, 11, "dd", "percpu_rwsem_wait", 7, 3);
	blocked(s, 12, "umount", "percpu_rwsem_wait", 7, 3);
	blocked(s, 13, "sync", "sync_inodes_sb", 0, 0);
	s->nio = 2;
	s->io[0] = (struct task_io){ .pid = 11, .comm = "dd", .write_bytes = 8 << 20, .nfiles = 1,
				     .files = { { TASK_FILE_ON_FS, 7, 3 } } };
	s->io[1] = (struct task_io){ .pid = 10, .comm = "tar", .write_bytes = 1 << 20, .nfiles = 1,
				     .files = { { TASK_FILE_ON_FS, 252, 17 } } };
	why_text_build(&t, &x.f, 100);
	assert_string_equal(t.lines[0].text, "blocked on vdb: 1 task in D state (of 300 processes; "
			    "3 more elsewhere or not attributed)");
	assert_non_null(find(&t, "1 task in jbd2_log_wait_commit, waiting for a journal commit (tar)"));
	assert_null(find(&t, "in percpu_rwsem_wait"));
	assert_string_equal(find(&t, "elsewhere: 2"), "  elsewhere: 2 blocked (dd on loop3, umount on loop3)");
	assert_string_equal(find(&t, "not attributed:"), "  not attributed: 1 blocked (sync)");
	assert_non_null(find(&t, " tar "));
	assert_null(find(&t, " dd "));
	assert_string_equal(find(&t, "elsewhere: 1"), "elsewhere: 1 process, 8.0 MB/s (dd on loop3)");
	x.f.selected = "";
	why_text_build(&t, &x.f, 100);
	assert_string_equal(t.lines[0].text, "blocked: 4 tasks in D state (of 300 processes)");
	assert_non_null(find(&t, "2 tasks in percpu_rwsem_wait (dd, umount)"));
	assert_null(find(&t, "elsewhere"));
	teardown(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirty_and_journals),
		cmocka_unit_test(test_short_pane_hides_processes_first),
		cmocka_unit_test(test_selected_device_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
