/* syscall_file.h - which arguments of a system call name the file it works on: a task
 * blocked in write(fd, ...) or fsync(fd) waits for the device of fd's file, one blocked
 * in openat(dirfd, path, ...) or umount2(path) for the device of the filesystem at path. */
#ifndef IOSCOPE_SYSCALL_FILE_H
#define IOSCOPE_SYSCALL_FILE_H

#include <stdbool.h>

struct syscall_file {
	int fd;        /* the argument (0-5) holding a descriptor of the file; -1 none */
	int dirfd;     /* the argument holding the directory a relative path starts at; -1:
			  the working directory */
	int path;      /* the argument pointing to the path; -1 none */
};

/* The file arguments of system call nr (this machine's architecture, as
 * /proc/PID/syscall gives it); false when it names no file (sync, an io_uring). */
bool syscall_file_args(long nr, struct syscall_file *out);

#endif
