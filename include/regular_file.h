/* regular_file.h - opening the files ioscope reads whole (config, themes, every file of a
 * --root tree) so that no file can hang it.
 *
 * open(2) of a FIFO blocks until a writer comes, and /dev/zero or /dev/urandom never end:
 * as a config, theme or --root file either hung ioscope (with its signals blocked, so
 * neither Ctrl-C nor `timeout` ended it).  The open is O_NONBLOCK, then fstat: anything
 * but a regular file (and, when O_DIRECTORY is asked for, a directory) is refused.  /proc
 * and /sys files are regular files, so the live system reads as before.
 */
#ifndef IOSCOPE_REGULAR_FILE_H
#define IOSCOPE_REGULAR_FILE_H

#include <errno.h>
#include <sys/types.h>

#include "error.h"

/* errno of a refusal: open(2) never returns it for a read-only open. */
#define REGULAR_FILE_REFUSED EBADFD

/* openat(dirfd, path, flags | O_CLOEXEC), blocking mode restored after the check (unless
 * flags has O_NONBLOCK); with O_DIRECTORY a directory, one openat and no check.  -1 with
 * errno set (REGULAR_FILE_REFUSED: not a regular file). */
int regular_file_openat(int dirfd, const char *path, int flags);
/* A file of the running kernel's /proc or /sys whose path ioscope made itself (the live
 * sampler's: never a --root tree, a path the user gave, or a link of /proc/PID/fd, which
 * can lead to a FIFO): one openat(flags | O_NONBLOCK | O_CLOEXEC), no check.  procfs and
 * sysfs hold no FIFO, socket or device node, and the files read there (sysfs attributes,
 * seq_files) never look at O_NONBLOCK; one that would wait for data (/proc/kmsg, tracefs's
 * trace_pipe under /sys) answers EAGAIN instead of hanging, so it stays set.  A sysfs
 * attribute opened this way costs one system call instead of four. */
int regular_file_openat_kernel(int dirfd, const char *path, int flags);
/* A small file read whole into buf (NUL-terminated, at most len - 1 bytes) with one read
 * (the kernel makes /proc and /sys files whole at the first): its length, -1 with errno
 * set.  _at opens through regular_file_openat, _kernel_at through
 * regular_file_openat_kernel; _fd reads a descriptor opened otherwise (-1: fails) and
 * closes it. */
ssize_t regular_file_read_at(int dirfd, const char *path, char *buf, size_t len);
ssize_t regular_file_read_kernel_at(int dirfd, const char *path, char *buf, size_t len);
ssize_t regular_file_read_fd(int fd, char *buf, size_t len);
/* error_errno(), with a refusal said as such: "PATH: not a regular file (a FIFO): refused". */
int regular_file_error(struct error *err, const char *path, int errnum);

#endif
