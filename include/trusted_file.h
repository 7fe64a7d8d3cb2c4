/* trusted_file.h - what ioscope runs or loads with its privileges (the probe's program,
 * the tracer) and the directories it makes such files in: checked once on a descriptor,
 * then used through that descriptor, never by name again.
 *
 * A name in a directory another user can write is theirs: between a check by name and
 * an exec or dlopen by the same name, they rename their own file over it.  So the file
 * is opened once, fstat on the descriptor says who owns it and who may write it, and
 * the kernel is then handed the descriptor itself as /proc/self/fd/N (what fexecve
 * does when execveat is missing): whatever the name points to by then, the file checked
 * is the file used.  docs/security.md, "What ioscope runs or loads".
 */
#ifndef IOSCOPE_TRUSTED_FILE_H
#define IOSCOPE_TRUSTED_FILE_H

#include "error.h"

/* Opens path read-only (never blocking on a FIFO: regular_file.h) and checks the
 * descriptor: a regular file owned by root or by ioscope's user (euid) that neither
 * its group nor others may write.  The descriptor, or -1 with err naming path and why
 * (and errno: ENOENT only when nothing is there). */
int trusted_file_open(const char *path, struct error *err);
/* A directory where nobody but root and ioscope's user can add, rename or remove an
 * entry: owned by one of them, and closed to writes by its group and others unless
 * sticky (/tmp: there nobody may rename over a file of ours).  0, or -1 with err. */
int trusted_dir_check(int fd, const char *path, struct error *err);

#define TRUSTED_FD_PATH_MAX 32
/* "/proc/self/fd/N": a name for the file behind fd that nobody else can change. */
void trusted_fd_path(int fd, char path[TRUSTED_FD_PATH_MAX]);
/* open(2) the file behind fd again, with flags (O_DIRECT, read-only after writing, an
 * O_PATH descriptor made one that reads): the same file, whatever its name is now.
 * -1 with errno. */
int trusted_fd_reopen(int fd, int flags);

#endif
