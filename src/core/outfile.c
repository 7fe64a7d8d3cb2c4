/* outfile.c - an output file written whole or not at all (include/outfile.h).
 *
 * The stream is a fopencookie() over the descriptor so that the errno of a failed
 * write is kept: stdio drops the buffer of a failed write, and a later fflush() or
 * fclose() then succeeds, which is how a report on a full disk used to end with a
 * truncated file and exit status 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

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

int outfile_refuse_symlink(const char *path, struct error *err)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return error_set(err, "%s is a symbolic link: not followed for writing (give the "
				 "file it points to, if that is meant)", path);
	return 0;
}

/* "DIR/.BASE.XXXXXX" for path, into o->tmp; the directory into *dir (to be freed). */
static int temporary_template(struct outfile *o, char **dir, struct error *err)
{
	char *copy = strdup(o->path), *base = strdup(o->path);
	*dir = copy ? strdup(dirname(copy)) : NULL;
	size_t len = strlen(o->path) * 2 + 32;
	o->tmp = *dir && base ? malloc(len) : NULL;
	if (o->tmp)
		snprintf(o->tmp, len, "%s/.%s.XXXXXX", *dir, basename(base));
	free(copy);
	free(base);
	if (o->tmp)
		return 0;
	free(*dir);
	*dir = NULL;
	return error_set(err, "out of memory");
}

/* The fallback where the filesystem has no O_TMPFILE: a named file, mode as a new
 * file would get. */
static int open_named_temporary(struct outfile *o)
{
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0)
		return -1;
	o->tmp_named = true;
	mode_t mask = umask(0);
	umask(mask);
	fchmod(o->fd, 0666 & ~mask);
	return 0;
}

/* An unnamed file in path's directory: until commit names it, no way out of the
 * process (an error, a signal, SIGKILL) can leave it behind. */
static int open_temporary(struct outfile *o, struct error *err)
{
	char *dir;
	if (temporary_template(o, &dir, err) < 0)
		return -1;
	o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	int e = errno;
	free(dir);
	if (o->fd < 0 && (e == EOPNOTSUPP || e == EISDIR || e == EINVAL))
		e = open_named_temporary(o) < 0 ? errno : 0;
	if (o->fd >= 0)
		return 0;
	free(o->tmp);
	o->tmp = NULL;
	return error_errno(err, o->path, e);
}

/* Links the unnamed file at a fresh o->tmp (the XXXXXX made random; link(2) fails on
 * a name that exists, as O_EXCL would), so that rename() can put it in place. */
static int name_temporary(struct outfile *o)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	char *x = o->tmp + strlen(o->tmp) - 6, fdpath[32];
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", o->fd);
	for (int attempt = 0; attempt < 100; attempt++) {
		unsigned char r[6];
		if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
			return -1;
		for (int i = 0; i < 6; i++)
			x[i] = letters[r[i] % (sizeof letters - 1)];
		int rc = linkat(AT_FDCWD, fdpath, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW);
		if (rc < 0 && errno == ENOENT)   /* no /proc: root may link the descriptor itself */
			rc = linkat(o->fd, "", AT_FDCWD, o->tmp, AT_EMPTY_PATH);
		if (rc == 0) {
			o->tmp_named = true;
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* What is at path: refused (symlink, the input, a directory), written in place (a
 * device or a FIFO: /dev/null, a pipe), or replaced by a temporary file. */
static int open_named(struct outfile *o, const struct stat *input, struct error *err)
{
	struct stat st;
	if (lstat(o->path, &st) < 0) {
		if (errno != ENOENT)
			return error_errno(err, o->path, errno);
		return open_temporary(o, err);
	}
	if (outfile_refuse_symlink(o->path, err) < 0)
		return -1;
	if (input && st.st_dev == input->st_dev && st.st_ino == input->st_ino)
		return error_set(err, "%s is the input: refusing to write over it (give another "
				 "output name)", o->path);
	if (S_ISDIR(st.st_mode))
		return error_errno(err, o->path, EISDIR);
	if (S_ISREG(st.st_mode))
		return open_temporary(o, err);
	o->fd = open(o->path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	return o->fd < 0 ? error_errno(err, o->path, errno) : 0;
}

int outfile_open(struct outfile *o, const char *path, const struct stat *input, struct error *err)
{
	memset(o, 0, sizeof *o);
	o->fd = STDOUT_FILENO;
	if (path) {
		if (!(o->path = strdup(path)))
			return error_set(err, "out of memory");
		if (open_named(o, input, err) < 0) {
			free(o->path);
			o->path = NULL;
			return -1;
		}
	}
	o->fp = fopencookie(o, "w", cookie_ops);
	if (!o->fp) {
		outfile_abort(o);
		return error_set(err, "out of memory");
	}
	return 0;
}

static void release(struct outfile *o)
{
	if (o->tmp && o->tmp_named)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
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
	else if (o->tmp && rename(o->tmp, o->path) < 0)
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
