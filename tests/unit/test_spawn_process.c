/* spawn_start, the one way ioscope starts a program: run through a descriptor, its
 * output and input, its own process group, and a program that cannot be run, whether it
 * is started with posix_spawn or (with a parent-death signal) forked. */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn_process.h"

/* s run with its output read into out; its exit status. */
static int run_captured(struct spawn *s, char *out, size_t len)
{
	int fds[2];
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	s->out_fd = fds[1];
	struct error err = { "" };
	pid_t pid = spawn_start(s, &err);
	close(fds[1]);
	assert_true(pid > 0);
	size_t used = 0;
	ssize_t n;
	while (used + 1 < len && (n = read(fds[0], out + used, len - 1 - used)) > 0)
		used += (size_t)n;
	out[used] = '\0';
	close(fds[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_runs_the_descriptor_not_a_name(void **state)
{
	(void)state;
	int fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	/* argv[0] names nothing that exists: only the descriptor can be what runs */
	char *argv[] = { "no-such-program-ioscope", "-c", "echo ran", NULL };
	for (int fork_it = 0; fork_it < 2; fork_it++) {
		struct spawn s = { .argv = argv, .exec_fd = fd, .parent_death = fork_it };
		char out[64];
		assert_int_equal(run_captured(&s, out, sizeof out), 0);
		assert_string_equal(out, "ran\n");
	}
	close(fd);
}

static void test_stdin_null_and_own_group(void **state)
{
	(void)state;
	/* field 5 of /proc/PID/stat: the process group */
	char *argv[] = { "sh", "-c",
			 "read x; echo \"[$x] $(($$ == $(cut -d' ' -f5 /proc/$$/stat)))\"", NULL };
	for (int fork_it = 0; fork_it < 2; fork_it++) {
		struct spawn s = { .argv = argv, .exec_fd = -1, .stdin_null = true,
				   .own_group = true, .parent_death = fork_it };
		char out[64];
		assert_int_equal(run_captured(&s, out, sizeof out), 0);
		assert_string_equal(out, "[] 1\n");   /* nothing read; its pid is its group */
	}
}

static void test_default_signals(void **state)
{
	(void)state;
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);   /* as batch mode does for its signalfd */
	/* grep reads its own mask, the one it was started with: a shell's, read while it
	 * waits for its child, can be dash's own sigblockall() around that wait */
	char *argv[] = { "grep", "^SigBlk", "/proc/self/status", NULL };
	for (int fork_it = 0; fork_it < 2; fork_it++) {
		struct spawn s = { .argv = argv, .exec_fd = -1, .default_signals = true,
				   .parent_death = fork_it };
		char out[64];
		assert_int_equal(run_captured(&s, out, sizeof out), 0);
		assert_string_equal(out, "SigBlk:\t0000000000000000\n");
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void test_cannot_run(void **state)
{
	(void)state;
	char *argv[] = { "no-such-program-ioscope", NULL };
	/* a PATH directory the user may not search (root's ~/.cargo/bin under su nobody)
	 * makes execvp's answer EACCES, not ENOENT */
	setenv("PATH", "/usr/bin:/bin", 1);
	for (int fork_it = 0; fork_it < 2; fork_it++) {
		struct spawn s = { .argv = argv, .exec_fd = -1, .out_fd = -1,
				   .parent_death = fork_it };
		struct error err = { "" };
		errno = 0;
		assert_int_equal(spawn_start(&s, &err), -1);
		assert_int_equal(errno, ENOENT);
		assert_string_equal(err.msg, "no-such-program-ioscope: No such file or directory");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_the_descriptor_not_a_name),
		cmocka_unit_test(test_stdin_null_and_own_group),
		cmocka_unit_test(test_default_signals),
		cmocka_unit_test(test_cannot_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
