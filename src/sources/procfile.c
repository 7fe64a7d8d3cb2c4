/* procfile.c - whole-file re-reads through descriptors kept open. */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "procfile.h"
#include "regular_file.h"

void procfile_init(struct procfile *pf)
{
	memset(pf, 0, sizeof *pf);
	pf->fd = -1;
}

static int raise_nofile_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= rl.rlim_max)
		return -1;
	rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

static int open_raising(int (*open_file)(int, const char *, int), int dirfd, const char *path,
			int flags)
{
	int fd = open_file(dirfd, path, flags);
	if (fd < 0 && errno == EMFILE && raise_nofile_limit() == 0)
		fd = open_file(dirfd, path, flags);
	return fd;
}

int procfile_openat(int dirfd, const char *path, int flags)
{
	return open_raising(regular_file_openat, dirfd, path, flags);
}

int procfile_openat_kernel(int dirfd, const char *path, int flags)
{
	return open_raising(regular_file_openat_kernel, dirfd, path, flags);
}

static int open_with(int (*open_file)(int, const char *, int), struct procfile *pf,
		     const char *path, size_t eof_hint, struct error *err)
{
	procfile_close(pf);
	snprintf(pf->path, sizeof pf->path, "%s", path);
	int fd = open_raising(open_file, AT_FDCWD, path, O_RDONLY);
	if (fd < 0) {
		int e = errno;
		regular_file_error(err, path, e);
		errno = e;
		return -1;
	}
	/* /proc files are regular with size 0; fixture files and sysfs attributes
	 * have a size, and for them a short read is the whole file. */
	struct stat st;
	pf->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
	pf->eof_hint = eof_hint;
	pf->fd = fd;
	return 0;
}

int procfile_open(struct procfile *pf, const char *path, size_t eof_hint, struct error *err)
{
	return open_with(regular_file_openat, pf, path, eof_hint, err);
}

int procfile_open_kernel(struct procfile *pf, const char *path, size_t eof_hint, struct error *err)
{
	return open_with(regular_file_openat_kernel, pf, path, eof_hint, err);
}

static int grow(struct procfile *pf)
{
	return grow_array(&pf->buf, &pf->cap, pf->cap + 1, 1, 8192, NULL);
}

/* True when a read of n bytes into room bytes of space must have hit the end. */
static bool read_is_last(const struct procfile *pf, size_t n, size_t room)
{
	if (n == 0)
		return true;
	if (n >= room)
		return false;
	return pf->regular || (pf->eof_hint && n < pf->eof_hint);
}

int procfile_read(struct procfile *pf, struct error *err)
{
	if (pf->fd < 0) {
		errno = EBADF;
		return error_errno(err, pf->path, EBADF);
	}
	size_t len = 0;
	for (;;) {
		if (pf->cap - len < 2 && grow(pf) < 0) {
			errno = ENOMEM;
			return error_errno(err, pf->path, ENOMEM);
		}
		size_t room = pf->cap - len - 1;
		ssize_t n = pread(pf->fd, pf->buf + len, room, (off_t)len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			error_errno(err, pf->path, e);
			errno = e;
			return -1;
		}
		len += (size_t)n;
		if (read_is_last(pf, (size_t)n, room))
			break;
	}
	pf->buf[len] = '\0';
	pf->len = len;
	return 0;
}

void procfile_close(struct procfile *pf)
{
	if (pf->fd >= 0)
		close(pf->fd);
	free(pf->buf);
	pf->fd = -1;
	pf->buf = NULL;
	pf->len = pf->cap = 0;
}

int path_format(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		if (len)
			buf[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	return n;
}
