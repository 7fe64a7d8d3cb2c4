/* test_attribution.c - which device a blocked task or a process is for (attribution.h),
 * from fixture data: kernel threads by their names, a system call's file by its device
 * number through the partition and loop chain, btrfs's anonymous devices through the
 * mount table, and a sample split by a selection with its "elsewhere" and "not
 * attributed" lines. */
#include "unit.h"

#include <string.h>

#include "attribution.h"

/* vda (254:0) with vda1 (254:1); loop1 (7:1) backed by a file on vda1; loop2 (7:2) backed
 * by a file on loop1 (nested); sdb (8:16) with a btrfs mounted (anonymous 0:45); dm-0. */
static void machine(struct snapshot *s)
{
	static const struct { const char *name, *parent, *loop_disk; unsigned major, minor; } d[] = {
		{ "vda", "", "", 254, 0 }, { "vda1", "vda", "", 254, 1 }, { "loop1", "", "vda1", 7, 1 },
		{ "loop2", "", "loop1", 7, 2 }, { "sdb", "", "", 8, 16 }, { "dm-0", "", "", 253, 0 },
	};
	snapshot_init(s);
	for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
		struct device *v = snapshot_add_device(s);
		snprintf(v->name, sizeof v->name, "%s", d[i].name);
		snprintf(v->parent, sizeof v->parent, "%s", d[i].parent);
		v->is_partition = d[i].parent[0];
		v->major = d[i].major;
		v->minor = d[i].minor;
		v->loop.present = d[i].loop_disk[0];
		snprintf(v->loop.disk, sizeof v->loop.disk, "%s", d[i].loop_disk);
	}
	s->mounts = calloc(1, sizeof *s->mounts);
	s->nmounts = 1;
	s->mounts[0] = (struct mount){ .major = 0, .minor = 45, .disk = "sdb", .mountpoint = "/b",
				       .fstype = "btrfs" };
}

static void expect(const struct attribution *a, enum attribution_how how, const char *list)
{
	char got[512] = "";
	for (size_t i = 0; i < a->n; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? " " : "", a->devices[i]);
	assert_string_equal(got, list);
	assert_int_equal(a->how, how);
}

static void thread(const struct snapshot *s, const char *comm, enum attribution_how how,
		   const char *list)
{
	struct attribution a;
	attribution_of_thread(s, comm, true, &a);
	expect(&a, how, list);
}

static void test_thread_names(void **state)
{
	(void)state;
	struct snapshot s;
	machine(&s);
	thread(&s, "kworker/u8:2+flush-7:1", ATTR_THREAD_NAME, "loop1 vda1");
	thread(&s, "kworker/u8:2+flush-254:0", ATTR_THREAD_NAME, "vda");
	thread(&s, "jbd2/vda1-8", ATTR_THREAD_NAME, "vda1");
	thread(&s, "jbd2/loop2-8", ATTR_THREAD_NAME, "loop2 loop1 vda1");
	thread(&s, "xfsaild/dm-0", ATTR_THREAD_NAME, "dm-0");
	thread(&s, "kworker/1:2+xfs-cil/loop1", ATTR_THREAD_NAME, "loop1 vda1");
	thread(&s, "kworker/3:1H-xfs-log/sdb", ATTR_THREAD_NAME, "sdb");
	thread(&s, "kworker/u8:5+loop2", ATTR_THREAD_NAME, "loop2 loop1 vda1");
	thread(&s, "kdmflush/dm-0", ATTR_THREAD_NAME, "dm-0");
	/* no device in the name, or one that is not there */
	thread(&s, "kworker/0:1", ATTR_NONE, "");
	thread(&s, "kworker/u8:1+events_unbound", ATTR_NONE, "");
	thread(&s, "kworker/u8:2+flush-9:9", ATTR_NONE, "");
	/* an old kernel cuts a thread's name at 15 bytes: a whole device name still counts,
	 * a cut one does not */
	thread(&s, "jbd2/vda1-", ATTR_THREAD_NAME, "vda1");
	thread(&s, "jbd2/vda", ATTR_NONE, "");
	thread(&s, "btrfs-transaction", ATTR_NONE, "");
	/* a process may call itself anything: a name is only a kernel thread's */
	struct attribution a;
	attribution_of_thread(&s, "jbd2/vda1-8", false, &a);
	expect(&a, ATTR_NONE, "");
	snapshot_free(&s);
}

static void test_files(void **state)
{
	(void)state;
	struct snapshot s;
	machine(&s);
	struct blocked_task b = { .pid = 10, .tid = 10, .comm = "dd" };
	struct attribution a;
	/* a file on loop2's filesystem: loop2, the file it is backed by on loop1, vda1 under that */
	b.waits = (struct task_file){ TASK_FILE_ON_FS, 7, 2 };
	attribution_of_blocked(&s, &b, &a);
	expect(&a, ATTR_FILE, "loop2 loop1 vda1");
	assert_true(attribution_serves(&a, &s, "loop2"));
	assert_true(attribution_serves(&a, &s, "vda"));      /* vda1 is on it */
	assert_false(attribution_serves(&a, &s, "sdb"));
	/* the block device itself, opened directly */
	b.waits = (struct task_file){ TASK_FILE_BLOCKDEV, 8, 16 };
	attribution_of_blocked(&s, &b, &a);
	expect(&a, ATTR_BLOCK_DEVICE, "sdb");
	/* btrfs's anonymous device number: the mount table's disk */
	b.waits = (struct task_file){ TASK_FILE_ON_FS, 0, 45 };
	attribution_of_blocked(&s, &b, &a);
	expect(&a, ATTR_FILE, "sdb");
	/* a number no device or mount has (tmpfs), or nothing read */
	b.waits = (struct task_file){ TASK_FILE_ON_FS, 0, 30 };
	attribution_of_blocked(&s, &b, &a);
	expect(&a, ATTR_NONE, "");
	b.waits = (struct task_file){ TASK_FILE_NONE, 7, 2 };
	attribution_of_blocked(&s, &b, &a);
	expect(&a, ATTR_NONE, "");
	/* a process's open files, each device once, with what is under them */
	struct task_io io = { .pid = 20, .comm = "tar", .nfiles = 2,
			      .files = { { TASK_FILE_ON_FS, 7, 1 }, { TASK_FILE_ON_FS, 254, 1 } } };
	attribution_of_io(&s, &io, &a);
	expect(&a, ATTR_FILE, "loop1 vda1");
	struct selection sel = { .n = 0 };
	selection_add(&sel, "vda");
	assert_true(attribution_in(&a, &s, &sel));
	snapshot_free(&s);
}

static void blocked(struct tasks_sample *t, int tid, const char *comm, bool kthread,
		    struct task_file waits)
{
	struct blocked_task *b = tasks_sample_add_blocked(t);
	assert_non_null(b);
	b->pid = b->tid = tid;
	snprintf(b->comm, sizeof b->comm, "%s", comm);
	snprintf(b->wchan, sizeof b->wchan, "percpu_rwsem_wait");
	b->kthread = kthread;
	b->waits = waits;
	t->nblocked++;
}

/* Split by "loop2": its own first, then a line for another disk's and the unattributed. */
static void test_split(void **state)
{
	(void)state;
	struct snapshot s;
	machine(&s);
	struct tasks_sample *t = s.tasks = tasks_sample_new();
	assert_non_null(t);
	struct task_file none = { 0 };
	blocked(t, 1, "tar", false, (struct task_file){ TASK_FILE_ON_FS, 7, 2 });
	blocked(t, 2, "umount", false, (struct task_file){ TASK_FILE_ON_FS, 8, 16 });
	blocked(t, 3, "kworker/u8:2+flush-8:16", true, none);
	blocked(t, 4, "kworker/u8:3+flush-8:16", true, none);
	blocked(t, 5, "sync", false, none);
	t->interval_ns = 1000000000;
	t->nio = 2;
	t->io[0] = (struct task_io){ .pid = 1, .comm = "tar", .write_bytes = 2 << 20, .nfiles = 1,
				     .files = { { TASK_FILE_ON_FS, 7, 2 } } };
	t->io[1] = (struct task_io){ .pid = 6, .comm = "dd", .write_bytes = 1 << 20, .nfiles = 1,
				     .files = { { TASK_FILE_BLOCKDEV, 8, 16 } } };
	struct selection sel = { .n = 0 };
	selection_add(&sel, "loop2");
	struct tasks_split sp;
	assert_int_equal(tasks_split_build(&sp, &s, &sel), 0);
	assert_int_equal(sp.blocked[SIDE_MINE], 1);
	assert_true(sp.mine[0] && !sp.mine[1] && !sp.mine[4]);
	assert_int_equal(sp.blocked[SIDE_ELSEWHERE], 3);
	assert_int_equal(sp.blocked[SIDE_UNATTRIBUTED], 1);
	char line[256];
	tasks_split_blocked_text(&sp, t, SIDE_ELSEWHERE, line, sizeof line);
	assert_string_equal(line, "elsewhere: 3 blocked (2 kworker on sdb, umount on sdb)");
	tasks_split_blocked_text(&sp, t, SIDE_UNATTRIBUTED, line, sizeof line);
	assert_string_equal(line, "not attributed: 1 blocked (sync)");
	tasks_split_io_text(&sp, t, SIDE_ELSEWHERE, line, sizeof line);
	assert_string_equal(line, "elsewhere: 1 process, 1.0 MB/s (dd on sdb)");
	tasks_split_io_text(&sp, t, SIDE_UNATTRIBUTED, line, sizeof line);
	assert_string_equal(line, "");
	tasks_split_free(&sp);
	/* a writer with a file on vda1 (its log) listed before the one on loop1 it writes to,
	 * loop1 backed by a file on vda1: named by loop1, not by the disk under it */
	t->io[1] = (struct task_io){ .pid = 7, .comm = "fio", .write_bytes = 1 << 20, .nfiles = 2,
				     .files = { { TASK_FILE_ON_FS, 254, 1 }, { TASK_FILE_ON_FS, 7, 1 } } };
	assert_int_equal(tasks_split_build(&sp, &s, &sel), 0);
	tasks_split_io_text(&sp, t, SIDE_ELSEWHERE, line, sizeof line);
	assert_string_equal(line, "elsewhere: 1 process, 1.0 MB/s (fio on loop1)");
	tasks_split_free(&sp);
	t->io[1] = (struct task_io){ .pid = 6, .comm = "dd", .write_bytes = 1 << 20, .nfiles = 1,
				     .files = { { TASK_FILE_BLOCKDEV, 8, 16 } } };
	/* loop2 is on vda: watching vda, tar's wait is vda's too */
	sel.n = 0;
	selection_add(&sel, "vda");
	assert_int_equal(tasks_split_build(&sp, &s, &sel), 0);
	assert_true(sp.mine[0]);
	assert_int_equal(sp.processes[SIDE_MINE], 1);
	tasks_split_free(&sp);
	/* no selection: every task is shown as before */
	sel.n = 0;
	assert_int_equal(tasks_split_build(&sp, &s, &sel), 0);
	assert_int_equal(sp.blocked[SIDE_MINE], 5);
	tasks_split_free(&sp);
	snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_names),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
