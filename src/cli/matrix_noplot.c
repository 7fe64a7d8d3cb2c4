/* matrix_noplot.c - PREFIX.png when ioscope was built without cairo's headers. */
#include "matrix.h"

int matrix_write_png(int dirfd, const char *name, const char *path,
		     const struct matrix_result *r, struct error *err)
{
	(void)dirfd;
	(void)name;
	(void)r;
	return error_set(err, "%s: this ioscope was built without cairo (no plots)", path);
}
