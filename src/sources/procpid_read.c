/* procpid_read.c - a process's /proc files read for the layers above src/sources
 * (procpid.h): its stat and io, the table of every process, the files open for writing on
 * a filesystem.  Parsed by procpid.c's parsers, as the sampler's are.  Each is read once,
 * when a command ends or a change is checked, not every sample: a file is opened, read and
 * closed each time.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "procpid.h"
#include "regular_file.h"

/* A stat line is at most some 52 numbers of 20 digits and a comm of 16 bytes. */
#define STAT_TEXT_MAX 2048
#define IO_TEXT_MAX 512
#define FDINFO_TEXT_MAX 256   /* flags is its second line */

static int stat_at(int dirfd, const char *rel, struct procpid_stat *out)
{
	char text[STAT_TEXT_MAX];
	ssize_t n = regular_file_read_kernel_at(dirfd, rel, text, sizeof text);
	return n > 0 ? procpid_parse_stat(text, (size_t)n, out) : -1;
}

int procpid_read_stat(pid_t pid, struct procpid_stat *out)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	return stat_at(AT_FDCWD, path, out);
}

int procpid_read_io(pid_t pid, struct procpid_io *out)
{
	char path[64], text[IO_TEXT_MAX];
	snprintf(path, sizeof path, "/proc/%ld/io", (long)pid);
	ssize_t n = regular_file_read_kernel_at(AT_FDCWD, path, text, sizeof text);
	return n > 0 ? procpid_parse_io(text, (size_t)n, out) : -1;
}

/* ---- a kernel thread by its name ---- */

static bool kthread_named(const char *pid, const char *comm)
{
	char path[64];
	struct procpid_stat st;
	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	return stat_at(AT_FDCWD, path, &st) == 0 && (st.flags & PROCPID_PF_KTHREAD) &&
	       strcmp(st.comm, comm) == 0;
}

bool procpid_kthread_alive(const char *comm)
{
	/* kthreadd's children are every kernel thread: a hundred stat files, not every
	 * process's; without CONFIG_PROC_CHILDREN, every process */
	char text[16384];
	ssize_t n = regular_file_read_kernel_at(AT_FDCWD, "/proc/2/task/2/children", text,
						sizeof text);
	if (n > 0 && (size_t)n < sizeof text) {
		text[n] = '\0';
		for (char *save, *pid = strtok_r(text, " \n", &save); pid;
		     pid = strtok_r(NULL, " \n", &save))
			if (kthread_named(pid, comm))
				return true;
		return false;
	}
	DIR *d = opendir("/proc");
	bool found = false;
	for (struct dirent *e; d && !found && (e = readdir(d));)
		found = e->d_name[0] >= '1' && e->d_name[0] <= '9' && kthread_named(e->d_name, comm);
	if (d)
		closedir(d);
	return found;
}

/* ---- the table of every process ---- */

static void row_of(const struct procpid_stat *st, struct proc_row *row)
{
	*row = (struct proc_row){ st->pid, st->ppid, st->pgrp, st->state == 'Z' || st->state == 'X' };
}

static bool reader_row(pid_t pid, struct proc_row *out)
{
	struct procpid_stat st;
	if (procpid_read_stat(pid, &st) < 0)
		return false;
	row_of(&st, out);
	return true;
}

/* Whether a /proc entry is a process's directory. */
static bool is_pid(const char *name)
{
	return name[0] >= '1' && name[0] <= '9';
}

static struct proc_row *reader_table(size_t *count)
{
	DIR *d = opendir("/proc");
	struct proc_row *rows = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char rel[300];
		struct procpid_stat st;
		if (!is_pid(e->d_name))
			continue;
		if (grow_array(&rows, &cap, n + 1, sizeof *rows, 256, NULL) < 0)
			break;
		snprintf(rel, sizeof rel, "%s/stat", e->d_name);
		if (stat_at(dirfd(d), rel, &st) == 0)
			row_of(&st, &rows[n++]);
	}
	if (d)
		closedir(d);
	*count = n;
	return rows;
}

static bool reader_io(pid_t pid, struct proc_io *out)
{
	struct procpid_io io;
	if (procpid_read_io(pid, &io) < 0 || !io.has_chars)
		return false;
	*out = (struct proc_io){ io.rchar, io.wchar, io.read_bytes, io.write_bytes,
				 io.cancelled_write_bytes };
	return true;
}

const struct proc_reader procpid_reader = {
	.table = reader_table,
	.row = reader_row,
	.io = reader_io,
};

/* ---- files open for writing ---- */

/* Descriptor fd of process pid (both as /proc names them) is a regular file on dev
 * open for writing. */
static bool writes_on(int procfd, const char *pid, const char *fd, dev_t dev)
{
	char rel[300], text[FDINFO_TEXT_MAX];
	struct stat st;
	unsigned flags;
	snprintf(rel, sizeof rel, "%s/fd/%s", pid, fd);
	if (fstatat(procfd, rel, &st, 0) < 0 || st.st_dev != dev || !S_ISREG(st.st_mode))
		return false;
	snprintf(rel, sizeof rel, "%s/fdinfo/%s", pid, fd);
	ssize_t n = regular_file_read_kernel_at(procfd, rel, text, sizeof text);
	return n > 0 && procpid_parse_fdinfo_flags(text, (size_t)n, &flags) &&
	       (flags & O_ACCMODE) != O_RDONLY;
}

/* Those of process pid (its /proc name). */
static size_t writers_of(int procfd, const char *pid, dev_t dev, char *example, size_t len,
			 size_t count)
{
	char rel[300];
	snprintf(rel, sizeof rel, "%s/fd", pid);
	int fd = openat(procfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *fds = fd >= 0 ? fdopendir(fd) : NULL;
	if (!fds) {
		if (fd >= 0)
			close(fd);
		return count;
	}
	struct dirent *fe;
	while ((fe = readdir(fds))) {
		if (fe->d_name[0] == '.' || !writes_on(procfd, pid, fe->d_name, dev))
			continue;
		if (count++ == 0)
			snprintf(example, len, "pid %s", pid);
	}
	closedir(fds);
	return count;
}

size_t procpid_count_writers(dev_t dev, char *example, size_t len)
{
	size_t count = 0;
	DIR *proc = opendir("/proc");
	if (!proc)
		return 0;
	struct dirent *pe;
	while ((pe = readdir(proc)))
		if (pe->d_name[0] >= '0' && pe->d_name[0] <= '9')
			count = writers_of(dirfd(proc), pe->d_name, dev, example, len, count);
	closedir(proc);
	return count;
}
