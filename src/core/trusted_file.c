/* trusted_file.c - files used through the descriptor they were checked on (trusted_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regular_file.h"
#include "trusted_file.h"

/* Owned by root or by us; group and others may not write, or (a directory) may not
 * rename what is not theirs. */
static int check_owner(const struct stat *st, const char *path, struct error *err)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return error_set(err, "%s: owned by uid %u, not by root or ioscope's user (uid %u)",
				 path, (unsigned)st->st_uid, (unsigned)geteuid());
	bool shared = st->st_mode & (S_IWGRP | S_IWOTH);
	if (shared && !(S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX)))
		return error_set(err, "%s: writable by its group or others (mode %04o)%s", path,
				 (unsigned)(st->st_mode & 07777),
				 S_ISDIR(st->st_mode) ? " and not sticky" : "");
	return 0;
}

int trusted_file_open(const char *path, struct error *err)
{
	int fd = regular_file_openat(AT_FDCWD, path, O_RDONLY);
	if (fd < 0) {
		int errnum = errno;   /* kept for the caller: ENOENT, nothing there */
		regular_file_error(err, path, errnum);
		errno = errnum;
		return -1;
	}
	struct stat st;
	int rc = fstat(fd, &st) < 0 ? error_errno(err, path, errno) : check_owner(&st, path, err);
	if (rc < 0) {
		close(fd);
		errno = EACCES;
		return -1;
	}
	return fd;
}

int trusted_dir_check(int fd, const char *path, struct error *err)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return error_errno(err, path, errno);
	if (!S_ISDIR(st.st_mode))
		return error_set(err, "%s: not a directory", path);
	return check_owner(&st, path, err);
}

void trusted_fd_path(int fd, char path[TRUSTED_FD_PATH_MAX])
{
	snprintf(path, TRUSTED_FD_PATH_MAX, "/proc/self/fd/%d", fd);
}

int trusted_fd_reopen(int fd, int flags)
{
	char self[TRUSTED_FD_PATH_MAX];
	trusted_fd_path(fd, self);
	return open(self, flags);
}
