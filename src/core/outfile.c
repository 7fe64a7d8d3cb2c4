/* outfile.c - an output file written whole or not at all (include/outfile.h).
 *
 * The stream is a fopencookie() over the descriptor so that the errno of a failed
 * write is kept: stdio drops the buffer of a failed write, and a later fflush() or
 * fclose() then succeeds, which is how a report on a full disk used to end with a
 * truncated file and exit status 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "dirpath.h"
#include "outfile.h"

static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
	struct outfile *o = cookie;
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(o->fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->write_errno)
				o->write_errno = n < 0 ? errno : ENOSPC;
			return -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)size;
}

static int cookie_close(void *cookie)
{
	struct outfile *o = cookie;
	if (o->fd == STDOUT_FILENO || o->fd < 0)
		return 0;
	int r = close(o->fd);
	if (r < 0 && !o->write_errno)
		o->write_errno = errno;
	o->fd = -1;
	return r;
}

static const cookie_io_functions_t cookie_ops = { .write = cookie_write, .close = cookie_close };

static const char *shown_path(const struct outfile *o)
{
	return o->path ? o->path : "standard output";
}

/* The temporary name removed (when it was made), the kept directory closed. */
static void release(struct outfile *o)
{
	if (o->tmp && o->tmp_named)
		unlinkat(o->dirfd, o->tmp, 0);
	if (o->dirfd >= 0)
		close(o->dirfd);
	o->dirfd = -1;
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}

int outfile_refuse_symlink(int dirfd, const char *name, const char *path, struct error *err)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return error_set(err, "%s is a symbolic link: not followed for writing (give the "
				 "file it points to, if that is meant)", path);
	return 0;
}

int outfile_random_name(char *x, size_t n)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[16];
	if (n > sizeof r || getrandom(r, n, 0) != (ssize_t)n)
		return -1;
	for (size_t i = 0; i < n; i++)
		x[i] = letters[r[i] % (sizeof letters - 1)];
	return 0;
}

/* ".BASE.XXXXXX" for the file's name, into o->tmp (in o->dirfd). */
static int temporary_template(struct outfile *o, struct error *err)
{
	size_t len = strlen(o->name) + 16;
	o->tmp = malloc(len);
	if (!o->tmp)
		return error_set(err, "out of memory");
	snprintf(o->tmp, len, ".%s.XXXXXX", o->name);
	return 0;
}

/* make() tried at o->tmp with its XXXXXX made random, until a name is free (make fails
 * with EEXIST on one that is not): 0 with o->tmp named, -1 with errno. */
static int at_random_name(struct outfile *o, int (*make)(struct outfile *o))
{
	char *x = o->tmp + strlen(o->tmp) - 6;
	for (int attempt = 0; attempt < 100; attempt++) {
		if (outfile_random_name(x, 6) < 0)
			return -1;
		if (make(o) == 0) {
			o->tmp_named = true;
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* A new file at o->tmp (O_EXCL), mode as a new file would get. */
static int create_named(struct outfile *o)
{
	o->fd = openat(o->dirfd, o->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	return o->fd >= 0 ? 0 : -1;
}

/* The fallback where the filesystem has no O_TMPFILE: a named file of a new random name. */
static int open_named_temporary(struct outfile *o)
{
	return at_random_name(o, create_named);
}

/* An unnamed file in the kept directory: until commit names it, no way out of the
 * process (an error, a signal, SIGKILL) can leave it behind. */
static int open_temporary(struct outfile *o, struct error *err)
{
	if (temporary_template(o, err) < 0)
		return -1;
	o->fd = openat(o->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	int e = errno;
	if (o->fd < 0 && (e == EOPNOTSUPP || e == EISDIR || e == EINVAL))
		e = open_named_temporary(o) < 0 ? errno : 0;
	if (o->fd >= 0)
		return 0;
	free(o->tmp);
	o->tmp = NULL;
	return error_errno(err, o->path, e);
}

/* The unnamed file linked at o->tmp in the kept directory (link(2) fails on a name that
 * exists, as O_EXCL would). */
static int link_named(struct outfile *o)
{
	char fdpath[32];
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", o->fd);
	int rc = linkat(AT_FDCWD, fdpath, o->dirfd, o->tmp, AT_SYMLINK_FOLLOW);
	if (rc < 0 && errno == ENOENT)   /* no /proc: root may link the descriptor itself */
		rc = linkat(o->fd, "", o->dirfd, o->tmp, AT_EMPTY_PATH);
	return rc;
}

/* Links the unnamed file at a fresh random o->tmp, so that renameat can put it in place. */
static int name_temporary(struct outfile *o)
{
	return at_random_name(o, link_named);
}

/* What is at the name in the kept directory: refused (symlink, the input, a directory),
 * written in place (a device or a FIFO: /dev/null, a pipe), or replaced by a temporary
 * file. */
static int open_named(struct outfile *o, const struct stat *input, struct error *err)
{
	struct stat st;
	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return error_errno(err, o->path, errno);
		return open_temporary(o, err);
	}
	if (outfile_refuse_symlink(o->dirfd, o->name, o->path, err) < 0)
		return -1;
	if (input && st.st_dev == input->st_dev && st.st_ino == input->st_ino)
		return error_set(err, "%s is the input: refusing to write over it (give another "
				 "output name)", o->path);
	if (S_ISDIR(st.st_mode))
		return error_errno(err, o->path, EISDIR);
	if (S_ISREG(st.st_mode))
		return open_temporary(o, err);
	o->fd = openat(o->dirfd, o->name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	return o->fd < 0 ? error_errno(err, o->path, errno) : 0;
}

/* The output in dirfd (a descriptor of its own) at name, or standard output (path NULL). */
static int open_output(struct outfile *o, const char *path, const struct stat *input,
		       struct error *err)
{
	if (path && !(o->path = strdup(path))) {
		release(o);
		return error_set(err, "out of memory");
	}
	if (path && open_named(o, input, err) < 0) {
		release(o);
		return -1;
	}
	o->fp = fopencookie(o, "w", cookie_ops);
	if (!o->fp) {
		outfile_abort(o);
		return error_set(err, "out of memory");
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, const struct stat *input, struct error *err)
{
	memset(o, 0, sizeof *o);
	o->fd = STDOUT_FILENO;
	o->dirfd = -1;
	if (path && (o->dirfd = dirpath_open_parent(path, o->name, sizeof o->name, err)) < 0)
		return -1;
	return open_output(o, path, input, err);
}

int outfile_open_in(struct outfile *o, int dirfd, const char *name, const char *path,
		    const struct stat *input, struct error *err)
{
	memset(o, 0, sizeof *o);
	o->fd = STDOUT_FILENO;
	o->dirfd = -1;
	if (!name[0] || strchr(name, '/') || strlen(name) >= sizeof o->name)
		return error_set(err, "%s: not a file name of its directory", path);
	snprintf(o->name, sizeof o->name, "%s", name);
	if ((o->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3)) < 0)
		return error_errno(err, path, errno);
	return open_output(o, path, input, err);
}

int outfile_commit(struct outfile *o, struct error *err)
{
	if (fflush(o->fp) == EOF && !o->write_errno)
		o->write_errno = errno ? errno : EIO;
	if (o->tmp && !o->write_errno && fsync(o->fd) < 0 && errno != EINVAL)
		o->write_errno = errno;
	if (o->tmp && !o->tmp_named && !o->write_errno && name_temporary(o) < 0)
		o->write_errno = errno;
	fclose(o->fp);   /* closes the descriptor through cookie_close */
	o->fp = NULL;
	int rc = 0;
	if (o->write_errno)
		rc = error_errno(err, shown_path(o), o->write_errno);
	else if (o->tmp && renameat(o->dirfd, o->tmp, o->dirfd, o->name) < 0)
		rc = error_errno(err, o->path, errno);
	else if (o->tmp) {
		free(o->tmp);   /* renamed: nothing to remove */
		o->tmp = NULL;
	}
	release(o);
	return rc;
}

void outfile_abort(struct outfile *o)
{
	if (o->fp)
		fclose(o->fp);
	else
		cookie_close(o);
	o->fp = NULL;
	release(o);
}
