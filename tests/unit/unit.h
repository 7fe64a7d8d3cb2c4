/* unit.h - what every cmocka suite includes, in the order cmocka needs. */
#ifndef IOSCOPE_UNIT_H
#define IOSCOPE_UNIT_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

/* Path of a file under tests/fixtures, wherever the suite is run from. */
static inline const char *fixture_path(const char *rel)
{
	static char buf[4096];
	const char *top = getenv("IOSCOPE_TOP");
	snprintf(buf, sizeof buf, "%s/tests/fixtures/%s", top ? top : ".", rel);
	return buf;
}

/* A file of the source tree (docs/console.md, man/ioscope.1) whole, up to 1 MiB; free it. */
static inline char *unit_slurp_top(const char *rel)
{
	const char *top = getenv("IOSCOPE_TOP");
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", top ? top : ".", rel);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}
#endif
