/* Which processes are a watched command's (descendants.h): its group, the orphans and
 * daemons ioscope adopted as their subreaper, their descendants (also when pids wrapped),
 * never ioscope's own children (the probe's program), a process outside ioscope's tree in
 * the command's group, or a zombie; and on the live process table, this process's own
 * children in a group of their own. */
#include "unit.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "descendants.h"
#include "procpid.h"

#define SELF 100
#define SELF_PGID 50
#define COMMAND 200

static const struct proc_row table[] = {
	{ 1, 0, 1, false },
	{ SELF, 40, SELF_PGID, false },
	{ COMMAND, SELF, COMMAND, false },   /* the command */
	{ 201, COMMAND, COMMAND, false },    /* its background job */
	{ 202, SELF, COMMAND, false },       /* an orphan of it, adopted, still in its group */
	{ 203, SELF, 203, false },           /* a daemon it started: setsid, then adopted */
	{ 204, 203, 203, false },            /* the daemon's worker */
	{ 10, 203, 203, false },             /* another, after the pids wrapped */
	{ 11, 10, 203, false },              /* and its child */
	{ 205, SELF, SELF_PGID, false },     /* the probe's program: ioscope's own */
	{ 206, 205, SELF_PGID, false },
	{ 207, 201, COMMAND, true },         /* exited: holds nothing */
	{ 300, 1, COMMAND, false },          /* in the group, but not under ioscope */
	{ 301, 1, 301, false },
};
#define NTABLE (sizeof table / sizeof table[0])

static bool has(const struct proc_row *rows, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].pid == pid)
			return true;
	return false;
}

static void test_select(void **state)
{
	(void)state;
	struct proc_row out[NTABLE];
	size_t n = descendants_select(table, NTABLE, SELF, SELF_PGID, COMMAND, out, NTABLE);
	const pid_t want[] = { COMMAND, 201, 202, 203, 204, 10, 11 };
	assert_int_equal(n, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		assert_true(has(out, n, want[i]));
	/* at most max, and nothing at all from an empty table */
	assert_int_equal(descendants_select(table, NTABLE, SELF, SELF_PGID, COMMAND, out, 3), 3);
	assert_int_equal(descendants_select(table, 0, SELF, SELF_PGID, COMMAND, out, NTABLE), 0);
}

static void test_after_the_command(void **state)
{
	(void)state;
	/* the command reaped, its group empty: only what left the group is still found */
	struct proc_row rows[NTABLE], out[NTABLE];
	size_t n = 0;
	for (size_t i = 0; i < NTABLE; i++)
		if (table[i].pgid != COMMAND || table[i].ppid == 1)
			rows[n++] = table[i];
	size_t got = descendants_select(rows, n, SELF, SELF_PGID, COMMAND, out, NTABLE);
	assert_int_equal(got, 4);
	assert_true(has(out, got, 203) && has(out, got, 204));
	assert_true(has(out, got, 10) && has(out, got, 11));
}

/* A child of this process in a group of its own is found live, then stopped and gone. */
static void test_live(void **state)
{
	(void)state;
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	assert_true(child > 0);
	setpgid(child, child);
	struct proc_row out[16];
	size_t n = 0;
	for (int i = 0; i < 100 && n == 0; i++, usleep(10000))
		n = descendants_find(&procpid_reader, child, out, 16);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].pid, child);
	descendants_signal(&procpid_reader, out, n, 0, SIGKILL);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(descendants_find(&procpid_reader, child, out, 16), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_after_the_command),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
