/* dynlib.h - a shared library loaded when a mode first needs it, not at start.
 *
 * Linking a library makes every run pay for loading it and everything it needs,
 * `ioscope --version` included (docs/performance.md, start-up).  A library that
 * only one mode uses (cairo for plots) is opened here instead: its functions are
 * looked up into a table of pointers that the caller declares with the library's
 * own prototypes, so the compiler still checks every call.
 */
#ifndef IOSCOPE_DYNLIB_H
#define IOSCOPE_DYNLIB_H

#include <stddef.h>

#include "error.h"

/* One function of the library: its name and where its pointer goes in the table. */
struct dynlib_symbol {
	const char *name;
	size_t offset;
};

/* Opens soname (found the way the dynamic loader finds libraries) and fills
 * table with every symbol.  The library stays loaded for the life of the
 * process (loading it again is a cheap reference count); libraries such as
 * fontconfig are not made to be unloaded.  -1 with err naming the library and
 * the loader's reason, or the first missing function. */
int dynlib_load(const char *soname, const struct dynlib_symbol *symbols, size_t n, void *table,
		struct error *err);
/* The same for the library open on fd (checked there: trusted_file.h), loaded through
 * /proc/self/fd/N, so that nothing put at its name after the check is loaded; path is
 * for messages.  The loader knows the library by that name from then on, and a later
 * dlopen of the same name gets it back whatever file the number is by then: load only
 * one library this way (the tracer, which is loaded again as the same file). */
int dynlib_load_fd(int fd, const char *path, const struct dynlib_symbol *symbols, size_t n,
		   void *table, struct error *err);

#endif
