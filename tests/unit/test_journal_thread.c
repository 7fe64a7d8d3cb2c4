/* test_journal_thread.c - jbd2's thread watched without the tasks sub-sampler (issue 24):
 * found among kthreadd's children in a tree of our own, by name and PF_KTHREAD; how long
 * it has been in D, counted again when the journal ended a commit; nothing when not in D. */
#include "unit.h"

#include <string.h>

#include "journal_thread.h"
#include "sources_helpers.h"

static char root[] = "/tmp/ioscope-test.XXXXXX";

/* /proc/PID/stat of a task named comm in state, with flags (field 9) */
static void put_stat(int pid, const char *comm, char state, unsigned flags)
{
	char path[4096], text[512];
	snprintf(path, sizeof path, "%s/proc/%d/stat", root, pid);
	snprintf(text, sizeof text, "%d (%s) %c 2 0 0 0 -1 %u 0 0 0 0 0 0 0 0 20 0 1 0 300 0 0\n",
		 pid, comm, state, flags);
	write_file(path, text);
}

#define KTHREAD 0x00208040u

static void test_thread_in_d(void **state)
{
	(void)state;
	assert_non_null(mkdtemp(root));
	char path[4096];
	snprintf(path, sizeof path, "%s/proc/2/task/2/children", root);
	write_file(path, "5 7 9 ");
	put_stat(5, "kworker/0:1", 'I', KTHREAD);
	put_stat(7, "jbd2/loop0-8", 'D', 0x40u);       /* a process named so is not it */
	put_stat(9, "jbd2/loop0-8", 'D', KTHREAD);
	struct journal_thread t;
	journal_thread_init(&t);
	uint64_t ms = 99;
	assert_true(journal_thread_blocked_ms(&t, root, "loop0", false, 10000000000ull, &ms));
	assert_int_equal(ms, 0);                        /* first seen in D now */
	assert_true(journal_thread_blocked_ms(&t, root, "loop0", false, 12500000000ull, &ms));
	assert_int_equal(ms, 2500);
	assert_true(journal_thread_blocked_ms(&t, root, "loop0", true, 13000000000ull, &ms));
	assert_int_equal(ms, 0);                        /* a commit ended: at its next one */
	assert_true(journal_thread_blocked_ms(&t, root, "loop0", false, 14000000000ull, &ms));
	assert_int_equal(ms, 1000);
	put_stat(9, "jbd2/loop0-8", 'S', KTHREAD);      /* waiting for work */
	assert_false(journal_thread_blocked_ms(&t, root, "loop0", false, 15000000000ull, &ms));
	put_stat(9, "jbd2/loop0-8", 'D', KTHREAD);
	assert_true(journal_thread_blocked_ms(&t, root, "loop0", false, 16000000000ull, &ms));
	assert_int_equal(ms, 0);
	journal_thread_close(&t);

	journal_thread_init(&t);                        /* another device's: not found */
	assert_false(journal_thread_blocked_ms(&t, root, "loop1", false, 16000000000ull, &ms));
	journal_thread_close(&t);
	rm_tree(root);
}

/* ext4 names its journal's thread in /sys/fs/ext4/DEV/journal_task: taken when that pid's
 * stat is the committer's (kthreadd's listing here does not have it), else looked for there;
 * "<none>" (a filesystem without a journal) is nothing. */
static void test_thread_from_ext4_sysfs(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/ioscope-test.XXXXXX");
	assert_non_null(mkdtemp(root));
	char path[4096];
	put_stat(11, "jbd2/loop3-8", 'D', KTHREAD);
	put_stat(12, "bash", 'D', 0);
	snprintf(path, sizeof path, "%s/proc/2/task/2/children", root);
	write_file(path, "12 ");                        /* the thread is not listed there */
	snprintf(path, sizeof path, "%s/sys/fs/ext4/loop3/journal_task", root);
	write_file(path, "11\n");
	struct journal_thread t;
	journal_thread_init(&t);
	uint64_t ms = 99;
	assert_true(journal_thread_blocked_ms(&t, root, "loop3", false, 1000000000ull, &ms));
	assert_int_equal(ms, 0);
	journal_thread_close(&t);

	write_file(path, "12\n");                      /* not a kernel thread: not it */
	journal_thread_init(&t);
	assert_false(journal_thread_blocked_ms(&t, root, "loop3", false, 1000000000ull, &ms));
	journal_thread_close(&t);
	snprintf(path, sizeof path, "%s/proc/2/task/2/children", root);
	write_file(path, "12 11 ");                     /* then found among the kernel threads */
	journal_thread_init(&t);
	assert_true(journal_thread_blocked_ms(&t, root, "loop3", false, 1000000000ull, &ms));
	journal_thread_close(&t);

	snprintf(path, sizeof path, "%s/sys/fs/ext4/loop3/journal_task", root);
	write_file(path, "<none>\n");
	snprintf(path, sizeof path, "%s/proc/2/task/2/children", root);
	write_file(path, "12 ");
	journal_thread_init(&t);
	assert_false(journal_thread_blocked_ms(&t, root, "loop3", false, 1000000000ull, &ms));
	journal_thread_close(&t);
	rm_tree(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_in_d),
		cmocka_unit_test(test_thread_from_ext4_sysfs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
