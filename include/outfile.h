/* outfile.h - an output file that is written whole or not at all.
 *
 * A named output is written to an unnamed file in its directory (O_TMPFILE), given a
 * temporary name and renamed into place only when every write, the flush and the
 * close succeeded: a full disk or an error leaves the old file (or none), never a
 * truncated one, and a process killed while writing leaves nothing at all.  Where
 * the filesystem has no O_TMPFILE, a named temporary file (removed on failure).  The
 * directory is opened once (dirpath_open_parent: through no symlink but root's or the
 * user's own) and every step is made in it (openat, linkat, renameat), so a directory
 * swapped for a symlink meanwhile is never written through.  The name is never followed
 * through a symbolic link, and an output that is the input is refused.  Standard
 * output (path NULL) is written directly; every write error is kept with its errno,
 * so the failure names its cause.
 */
#ifndef IOSCOPE_OUTFILE_H
#define IOSCOPE_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "error.h"

struct outfile {
	FILE *fp;            /* write here */
	char *path;          /* as given, for messages; NULL: standard output */
	int dirfd;           /* path's directory, opened once; -1: standard output */
	char name[NAME_MAX + 1];   /* path's last component, in dirfd */
	char *tmp;           /* the temporary name (in dirfd) renamed to name; NULL when written
				in place */
	bool tmp_named;      /* tmp exists (mkostemp, or the unnamed file linked there) */
	int fd;
	int write_errno;     /* errno of the first failed write, 0 when none failed */
};

/* Opens path for writing (NULL: standard output).  input, when not NULL, is a file
 * the output must not be (same st_dev and st_ino). */
int outfile_open(struct outfile *o, const char *path, const struct stat *input, struct error *err);
/* The same for the file name (no "/") in a directory the caller opened once (the
 * matrix's --out directory; a copy of the descriptor is kept); path: how the file is
 * named in messages. */
int outfile_open_in(struct outfile *o, int dirfd, const char *name, const char *path,
		    const struct stat *input, struct error *err);
/* Flushes, checks every write, closes and renames into place.  -1 with err naming
 * the path and the cause; the temporary file is then removed. */
int outfile_commit(struct outfile *o, struct error *err);
/* Drops the output: the temporary file is removed, the old file stays. */
void outfile_abort(struct outfile *o);

/* "PATH is a symbolic link: ..." when name in dirfd is a symlink (path: how the user
 * named it); 0 otherwise (absent too). */
int outfile_refuse_symlink(int dirfd, const char *name, const char *path, struct error *err);
/* n (at most 16) random letters and digits at x, for a temporary name; -1 with errno. */
int outfile_random_name(char *x, size_t n);

#endif
