/* procfile.h - a /proc, /sys or fixture file kept open and re-read from offset 0.
 *
 * Re-reading through a descriptor that stays open is what keeps a sample cheap:
 * no path walk, no open/close, and the buffer only grows when the file does.
 */
#ifndef IOSCOPE_PROCFILE_H
#define IOSCOPE_PROCFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* A seq_file read returns at most one kernel buffer (at least a page) at a time
 * and stops early only when the next record would not fit; a read shorter than
 * a page less the longest record is therefore the end of the file. */
#define PROCFILE_SEQ_EOF_HINT (4096 - 512)

struct procfile {
	int fd;              /* -1: closed or absent */
	char *buf;           /* contents of the last read, NUL-terminated */
	size_t len, cap;
	bool regular;        /* a plain file (fixture tree): a short read is the end */
	size_t eof_hint;     /* seq_file: a read shorter than this is the end; 0: read to EOF */
	char path[4096];     /* for error messages */
};

void procfile_init(struct procfile *pf);
/* 0, or -1 with err naming the path and errno set (ENOENT: the file is absent). */
int procfile_open(struct procfile *pf, const char *path, size_t eof_hint, struct error *err);
/* The same for a file of the live kernel's /proc or /sys: one openat, no check
 * (regular_file_openat_kernel). */
int procfile_open_kernel(struct procfile *pf, const char *path, size_t eof_hint,
			 struct error *err);
/* path of a tree at root (fixtures, --root: checked, procfile_open) or, root NULL, of the
 * live kernel (procfile_open_kernel). */
static inline int procfile_open_under(const char *root, struct procfile *pf, const char *path,
				      size_t eof_hint, struct error *err)
{
	return root ? procfile_open(pf, path, eof_hint, err)
		    : procfile_open_kernel(pf, path, eof_hint, err);
}
/* Re-read the whole file into pf->buf; -1 with err on failure (errno set). */
int procfile_read(struct procfile *pf, struct error *err);
void procfile_close(struct procfile *pf);   /* also frees the buffer */
static inline bool procfile_is_open(const struct procfile *pf) { return pf->fd >= 0; }

/* open(2) that raises RLIMIT_NOFILE to its hard limit once when it runs out:
 * a thousand disks keep some fourteen thousand sysfs files open. */
int procfile_openat(int dirfd, const char *path, int flags);
/* The same for a file of the live kernel's /proc or /sys (regular_file_openat_kernel: one
 * system call, no check). */
int procfile_openat_kernel(int dirfd, const char *path, int flags);

/* snprintf for paths: -1 with errno ENAMETOOLONG when the result would not fit
 * (a truncated path names another file, so the caller treats it as absent). */
int path_format(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
