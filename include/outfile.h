/* outfile.h - an output file that is written whole or not at all.
 *
 * A named output is written to an unnamed file in its directory (O_TMPFILE), given a
 * temporary name and renamed into place only when every write, the flush and the
 * close succeeded: a full disk or an error leaves the old file (or none), never a
 * truncated one, and a process killed while writing leaves nothing at all.  Where
 * the filesystem has no O_TMPFILE, a named temporary file (removed on failure).  The name is never followed
 * through a symbolic link, and an output that is the input is refused.  Standard
 * output (path NULL) is written directly; every write error is kept with its errno,
 * so the failure names its cause.
 */
#ifndef IOSCOPE_OUTFILE_H
#define IOSCOPE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "error.h"

struct outfile {
	FILE *fp;            /* write here */
	char *path;          /* NULL: standard output */
	char *tmp;           /* the temporary name renamed to path; NULL when written in place */
	bool tmp_named;      /* tmp exists (mkostemp, or the unnamed file linked there) */
	int fd;
	int write_errno;     /* errno of the first failed write, 0 when none failed */
};

/* Opens path for writing (NULL: standard output).  input, when not NULL, is a file
 * the output must not be (same st_dev and st_ino). */
int outfile_open(struct outfile *o, const char *path, const struct stat *input, struct error *err);
/* Flushes, checks every write, closes and renames into place.  -1 with err naming
 * the path and the cause; the temporary file is then removed. */
int outfile_commit(struct outfile *o, struct error *err);
/* Drops the output: the temporary file is removed, the old file stays. */
void outfile_abort(struct outfile *o);

/* "PATH is a symbolic link: ..." when path names a symlink; 0 otherwise (absent too). */
int outfile_refuse_symlink(const char *path, struct error *err);

#endif
