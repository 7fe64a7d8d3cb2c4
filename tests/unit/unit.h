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
#endif
