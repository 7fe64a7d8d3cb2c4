/* prom_textfile.c - --textfile: the exposition replaced whole each interval
 * (src/cli/prom_sink.h).  Not outfile.c: node_exporter's textfile collector reads
 * every *.prom of its directory, so the temporary name must not end in .prom.
 *
 * The temporary file is made anew each interval under a random name with O_EXCL, never
 * opened by a name that could already be there: a FIFO planted at a predictable name hung
 * open() with every signal blocked (SIGTERM could not end the run), a hard link planted
 * there had the exposition written through it.
 *
 * The directory is opened once (dirpath_open_parent) and the temporary file, its rename
 * and its removal are made relative to that descriptor: the path was looked up again
 * every interval, and the owner of a directory on the way (/var/lib/prometheus is the
 * prometheus user's) swapped the last directory for a symlink to one only root may write
 * in, where root's ioscope then made and replaced the file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirpath.h"
#include "outfile.h"
#include "prom_sink.h"

#define TEMPORARY_SUFFIX ".tmp."
#define TEMPORARY_RANDOM 6

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

/* A new file beside the name in the kept directory, named in t->tmp: its descriptor, or
 * -1 with errno.  O_NONBLOCK and the check are what would still hold if O_EXCL did not. */
static int create_temporary(struct prom_textfile *t)
{
	int n = snprintf(t->tmp, sizeof t->tmp, "%s" TEMPORARY_SUFFIX "XXXXXX", t->name);
	if (n < 0 || (size_t)n >= sizeof t->tmp || n > NAME_MAX)
		return errno = ENAMETOOLONG, -1;
	int fd = -1;
	for (int attempt = 0; fd < 0 && attempt < 100; attempt++) {
		if (outfile_random_name(t->tmp + n - TEMPORARY_RANDOM, TEMPORARY_RANDOM) < 0)
			return -1;
		fd = openat(t->dirfd, t->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOCTTY | O_NONBLOCK |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	if (fd < 0)
		return errno = EEXIST, -1;
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

/* A directory at the name (the directory's owner can put one there): not replaced, said
 * once, tried again each interval; the run goes on. */
static bool in_the_way(int e)
{
	return e == EISDIR || e == ENOTEMPTY || e == EEXIST || e == EBUSY;
}

/* Whether the path still leads to the directory opened at the start, walked as then; said
 * in note when it stopped doing so (once, until it does again). */
static void check_moved(struct prom_textfile *t, struct error *note)
{
	char name[NAME_MAX + 1], now[PATH_MAX];
	struct error why = { "" };
	struct stat st;
	int fd = dirpath_open_parent(t->path, name, sizeof name, &why);
	bool same = fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == t->dev && st.st_ino == t->ino;
	if (fd >= 0)
		close(fd);
	if (same || t->said_moved) {
		t->said_moved = !same;
		return;
	}
	t->said_moved = true;
	if (dirpath_of_fd(t->dirfd, now, sizeof now) < 0)
		snprintf(now, sizeof now, "?");
	error_set(note, "%s: its directory is no longer the one opened at the start (moved or "
		  "replaced%s%s): the exposition goes on in the one opened, now %s", t->path,
		  why.msg[0] ? ": " : "", why.msg, now);
}

int prom_textfile_write(struct prom_textfile *t, const char *text, size_t len,
			struct error *note, struct error *err)
{
	bool made;
	note->msg[0] = '\0';
	int e = write_temporary(t, text, len, &made);
	if (!e && renameat(t->dirfd, t->tmp, t->dirfd, t->name) < 0)
		e = errno;
	if (e && made)
		unlinkat(t->dirfd, t->tmp, 0);
	if (e && made && in_the_way(e)) {
		if (!t->said_in_the_way)
			error_set(note, "%s: a directory is in its place: the exposition is not "
				  "written there until it is gone (tried again every interval)",
				  t->path);
		t->said_in_the_way = true;
		return 0;
	}
	if (e)
		return error_set(err, "%s: %s (writing %s)", t->path, strerror(e), t->tmp);
	if (t->said_in_the_way)
		error_set(note, "%s: written again", t->path);
	t->said_in_the_way = false;
	if (!note->msg[0])
		check_moved(t, note);
	return 0;
}

static int check_target(struct prom_textfile *t, struct error *err)
{
	struct stat st;
	if (outfile_refuse_symlink(t->dirfd, t->name, t->path, err) < 0)
		return -1;
	if (fstatat(t->dirfd, t->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : error_errno(err, t->path, errno);
	if (S_ISDIR(st.st_mode))
		return error_errno(err, t->path, EISDIR);
	if (!S_ISREG(st.st_mode))
		return error_set(err, "%s: not a regular file: --textfile replaces a file", t->path);
	if (faccessat(t->dirfd, t->name, W_OK, 0) < 0)
		return error_errno(err, t->path, errno);
	return 0;
}

int prom_textfile_open(struct prom_textfile *t, const char *path, struct error *err)
{
	memset(t, 0, sizeof *t);
	struct stat st;
	t->dirfd = dirpath_open_parent(path, t->name, sizeof t->name, err);
	if (t->dirfd < 0)
		return -1;
	if (!(t->path = strdup(path))) {
		prom_textfile_close(t);
		return error_set(err, "out of memory");
	}
	if (fstat(t->dirfd, &st) < 0) {
		error_errno(err, path, errno);
		prom_textfile_close(t);
		return -1;
	}
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	if (check_target(t, err) < 0) {
		prom_textfile_close(t);
		return -1;
	}
	int fd = create_temporary(t);
	if (fd < 0) {
		int e = errno;
		error_set(err, "%s: cannot write beside it: %s: %s", path, t->tmp, strerror(e));
		prom_textfile_close(t);
		return -1;
	}
	close(fd);
	unlinkat(t->dirfd, t->tmp, 0);
	return 0;
}

void prom_textfile_close(struct prom_textfile *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t->path);
	memset(t, 0, sizeof *t);
	t->dirfd = -1;
}
