/* error.h - errors returned up the stack as text that names the path and the cause. */
#ifndef IOSCOPE_ERROR_H
#define IOSCOPE_ERROR_H

#include <stddef.h>

struct error {
	char msg[1024];
};

/* printf-style; always returns -1 so callers can `return error_set(...)`. */
int error_set(struct error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "PATH: strerror(errnum)"; returns -1. */
int error_errno(struct error *err, const char *path, int errnum);

#endif
