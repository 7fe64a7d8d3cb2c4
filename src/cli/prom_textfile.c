/* prom_textfile.c - --textfile: the exposition replaced whole each interval
 * (src/cli/prom_sink.h).  Not outfile.c: node_exporter's textfile collector reads
 * every *.prom of its directory, so the temporary name must not end in .prom.
 *
 * The temporary file is made anew each interval under a random name with O_EXCL
 * (mkostemp), never opened by a name that could already be there: a FIFO planted at
 * a predictable name hung open() with every signal blocked (SIGTERM could not end
 * the run), a hard link planted there had the exposition written through it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "prom_sink.h"

#define TEMPORARY_SUFFIX ".tmp.XXXXXX"

/* Readable by the collector, which runs as another user. */
#define TEXTFILE_MODE 0644

static int write_all(int fd, const char *text, size_t len)
{
	while (len) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : ENOSPC;
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A new file beside PATH, named in t->tmp: its descriptor, or -1 with errno.
 * O_NONBLOCK and the check are what would still hold if O_EXCL did not. */
static int create_temporary(struct prom_textfile *t)
{
	snprintf(t->tmp, t->tmp_size, "%s" TEMPORARY_SUFFIX, t->path);
	int fd = mkostemp(t->tmp, O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1)
		return fd;
	close(fd);
	errno = EEXIST;
	return -1;
}

/* The exposition in a new temporary file, flushed to disk; 0 or an errno.  *made:
 * the file exists (to be renamed or removed). */
static int write_temporary(struct prom_textfile *t, const char *text, size_t len, bool *made)
{
	int fd = create_temporary(t);
	*made = fd >= 0;
	if (fd < 0)
		return errno;
	int e = write_all(fd, text, len);
	if (!e && fchmod(fd, TEXTFILE_MODE) < 0)
		e = errno;
	if (!e && fsync(fd) < 0)
		e = errno;
	if (close(fd) < 0 && !e)
		e = errno;
	return e;
}

int prom_textfile_write(struct prom_textfile *t, const char *text, size_t len, struct error *err)
{
	bool made;
	int e = write_temporary(t, text, len, &made);
	if (!e && rename(t->tmp, t->path) < 0)
		e = errno;
	if (!e)
		return 0;
	if (made)
		unlink(t->tmp);
	return error_set(err, "%s: %s (writing %s)", t->path, strerror(e), t->tmp);
}

static int check_target(const char *path, struct error *err)
{
	struct stat st;
	if (outfile_refuse_symlink(path, err) < 0)
		return -1;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : error_errno(err, path, errno);
	if (S_ISDIR(st.st_mode))
		return error_errno(err, path, EISDIR);
	if (!S_ISREG(st.st_mode))
		return error_set(err, "%s: not a regular file: --textfile replaces a file", path);
	if (access(path, W_OK) < 0)
		return error_errno(err, path, errno);
	return 0;
}

int prom_textfile_open(struct prom_textfile *t, const char *path, struct error *err)
{
	memset(t, 0, sizeof *t);
	if (check_target(path, err) < 0)
		return -1;
	t->tmp_size = strlen(path) + sizeof TEMPORARY_SUFFIX;
	t->path = strdup(path);
	t->tmp = malloc(t->tmp_size);
	if (!t->path || !t->tmp) {
		prom_textfile_close(t);
		return error_set(err, "out of memory");
	}
	int fd = create_temporary(t);
	if (fd < 0) {
		int e = errno;
		error_set(err, "%s: cannot write beside it: %s: %s", path, t->tmp, strerror(e));
		prom_textfile_close(t);
		return -1;
	}
	close(fd);
	unlink(t->tmp);
	return 0;
}

void prom_textfile_close(struct prom_textfile *t)
{
	free(t->path);
	free(t->tmp);
	memset(t, 0, sizeof *t);
}
