/* prom_textfile.c - --textfile: the exposition replaced whole each interval
 * (include/prom_sink.h).  Not outfile.c: node_exporter's textfile collector reads
 * every *.prom of its directory, so the temporary name must not end in .prom, and the
 * same temporary file is used again each interval (PATH.tmp.PID). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "prom_sink.h"

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

/* Readable by the collector, which runs as another user. */
#define TEXTFILE_MODE 0644

static int write_temporary(const struct prom_textfile *t, const char *text, size_t len)
{
	int fd = open(t->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
		      TEXTFILE_MODE);
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
	int e = write_temporary(t, text, len);
	if (!e && rename(t->tmp, t->path) < 0)
		e = errno;
	if (!e)
		return 0;
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
	size_t len = strlen(path) + 32;
	t->path = strdup(path);
	t->tmp = malloc(len);
	if (!t->path || !t->tmp) {
		prom_textfile_close(t);
		return error_set(err, "out of memory");
	}
	snprintf(t->tmp, len, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(t->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
		      TEXTFILE_MODE);
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
