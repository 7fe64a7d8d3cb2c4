/* error.c - error text that names the path and the cause. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

int error_set(struct error *err, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(struct error *err, const char *path, int errnum)
{
	return error_set(err, "%s: %s", path, strerror(errnum));
}
