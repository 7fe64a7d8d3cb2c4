/* regular_file.c - opens that cannot hang on a FIFO or a device (regular_file.h). */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regular_file.h"

static const char *kind_of(mode_t mode)
{
	return S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
	     : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket"
	     : S_ISDIR(mode) ? "a directory" : "a special file";
}

int regular_file_openat(int dirfd, const char *path, int flags)
{
	int fd = openat(dirfd, path, flags | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* O_DIRECTORY: the open itself fails (ENOTDIR) on anything but a directory, and no
	 * read of a directory looks at O_NONBLOCK: nothing to check, nothing to clear. */
	if (flags & O_DIRECTORY)
		return fd;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = REGULAR_FILE_REFUSED;
		return -1;
	}
	/* A regular file of a local filesystem ignores O_NONBLOCK (the page cache's read never
	 * looks at it), but this one may be on any filesystem: FUSE hands the open's flags to
	 * its server, which may answer EAGAIN.  Cleared, in one call: F_SETFL sets only
	 * O_APPEND, O_DIRECT, O_NOATIME and O_NONBLOCK, and the first three are as the open
	 * had them in flags. */
	if (!(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int regular_file_openat_kernel(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags | O_NONBLOCK | O_CLOEXEC);
}

int regular_file_error(struct error *err, const char *path, int errnum)
{
	if (errnum != REGULAR_FILE_REFUSED)
		return error_errno(err, path, errnum);
	struct stat st;
	const char *kind = stat(path, &st) == 0 ? kind_of(st.st_mode) : "a special file";
	return error_set(err, "%s: %s, not a regular file: refused (it could block or never end)",
			 path, kind);
}

ssize_t regular_file_read_fd(int fd, char *buf, size_t len)
{
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	int saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	buf[n] = '\0';
	return n;
}

ssize_t regular_file_read_at(int dirfd, const char *path, char *buf, size_t len)
{
	return regular_file_read_fd(regular_file_openat(dirfd, path, O_RDONLY), buf, len);
}

ssize_t regular_file_read_kernel_at(int dirfd, const char *path, char *buf, size_t len)
{
	return regular_file_read_fd(regular_file_openat_kernel(dirfd, path, O_RDONLY), buf, len);
}
