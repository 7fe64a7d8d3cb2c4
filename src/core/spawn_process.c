/* spawn_process.c - the one way ioscope starts a program (spawn_process.h): what it runs
 * is named by a descriptor when it must not be by a name (docs/security.md, "What ioscope
 * runs or loads"), and what it starts may get a process group of its own. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn_process.h"
#include "trusted_file.h"

extern char **environ;

/* The signals batch mode blocks for its signalfd or ioscope handles: a started program
 * gets them at their default. */
static void default_signal_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGPIPE);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

static void actions_of(const struct spawn *s, posix_spawn_file_actions_t *fa)
{
	posix_spawn_file_actions_init(fa);
	if (s->stdin_null)
		posix_spawn_file_actions_addopen(fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (s->out_fd >= 0) {
		posix_spawn_file_actions_adddup2(fa, s->out_fd, STDOUT_FILENO);
		posix_spawn_file_actions_adddup2(fa, s->out_fd, STDERR_FILENO);
	}
}

static void attributes_of(const struct spawn *s, posix_spawnattr_t *at)
{
	short flags = 0;
	posix_spawnattr_init(at);
	if (s->own_group) {
		posix_spawnattr_setpgroup(at, 0);
		flags |= POSIX_SPAWN_SETPGROUP;
	}
	if (s->default_signals) {
		sigset_t none, dfl;
		sigemptyset(&none);
		default_signal_set(&dfl);
		posix_spawnattr_setsigmask(at, &none);
		posix_spawnattr_setsigdefault(at, &dfl);
		flags |= POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
	}
	posix_spawnattr_setflags(at, flags);
}

/* Without actions or attributes asked for, none are passed: the probe times this call. */
static pid_t by_posix_spawn(const struct spawn *s, const char *path, struct error *err)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	bool actions = s->stdin_null || s->out_fd >= 0, attrs = s->own_group || s->default_signals;
	if (actions)
		actions_of(s, &fa);
	if (attrs)
		attributes_of(s, &at);
	pid_t pid;
	int e = path ? posix_spawn(&pid, path, actions ? &fa : NULL, attrs ? &at : NULL, s->argv,
				   environ)
		     : posix_spawnp(&pid, s->argv[0], actions ? &fa : NULL, attrs ? &at : NULL,
				    s->argv, environ);
	if (actions)
		posix_spawn_file_actions_destroy(&fa);
	if (attrs)
		posix_spawnattr_destroy(&at);
	if (e) {
		errno = e;
		return error_errno(err, s->argv[0], e);
	}
	return pid;
}

/* In the forked child, on a failure before exec: its errno to the parent. */
static void report_failure(int report_fd)
{
	int e = errno;
	(void)!write(report_fd, &e, sizeof e);
	_exit(127);
}

/* In the forked child: only async-signal-safe calls until exec. */
static void exec_forked(const struct spawn *s, const char *path, pid_t parent, int report_fd)
{
	if (s->default_signals) {
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	if ((s->own_group && setpgid(0, 0) < 0) || prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		report_failure(report_fd);
	if (getppid() != parent)
		_exit(127);   /* ioscope died before the line above */
	int null = s->stdin_null ? open("/dev/null", O_RDONLY) : -1;
	if (s->stdin_null && (null < 0 || dup2(null, STDIN_FILENO) < 0))
		report_failure(report_fd);
	if (s->out_fd >= 0 &&
	    (dup2(s->out_fd, STDOUT_FILENO) < 0 || dup2(s->out_fd, STDERR_FILENO) < 0))
		report_failure(report_fd);
	if (path)
		execv(path, s->argv);
	else
		execvp(s->argv[0], s->argv);
	int e = errno;
	(void)!write(report_fd, &e, sizeof e);
	_exit(e == ENOENT ? 127 : 126);
}

/* 0: the exec happened; else the child's errno (it has exited). */
static int exec_result(int report_fd)
{
	int e = 0;
	ssize_t n;
	do
		n = read(report_fd, &e, sizeof e);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof e ? e : 0;
}

static pid_t by_fork(const struct spawn *s, const char *path, struct error *err)
{
	int report[2];
	if (pipe2(report, O_CLOEXEC) < 0)
		return error_errno(err, "pipe", errno);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0)
		exec_forked(s, path, parent, report[1]);
	close(report[1]);
	int e = pid < 0 ? errno : exec_result(report[0]);
	close(report[0]);
	if (!e)
		return pid;
	error_errno(err, pid < 0 ? "fork" : s->argv[0], e);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	errno = e;
	return -1;
}

pid_t spawn_start(const struct spawn *s, struct error *err)
{
	char path[TRUSTED_FD_PATH_MAX];
	if (s->exec_fd >= 0)
		trusted_fd_path(s->exec_fd, path);
	const char *exec_path = s->exec_fd >= 0 ? path : NULL;
	return s->parent_death ? by_fork(s, exec_path, err) : by_posix_spawn(s, exec_path, err);
}
