/* cairo_lib.c - open libcairo for a plot (include/cairo_lib.h). */
#include <stddef.h>

#include "cairo_lib.h"
#include "dynlib.h"

static const struct dynlib_symbol cairo_symbols[] = {
#define CAIRO_LIB_SYMBOL(f) { "cairo_" #f, offsetof(struct cairo_lib, f) },
	CAIRO_LIB_FUNCTIONS(CAIRO_LIB_SYMBOL)
#undef CAIRO_LIB_SYMBOL
};

int cairo_lib_load(struct cairo_lib *c, struct error *err)
{
	struct error why = { "" };
	size_t n = sizeof cairo_symbols / sizeof cairo_symbols[0];
	if (dynlib_load(CAIRO_LIB_SONAME, cairo_symbols, n, c, &why) == 0)
		return 0;
	return error_set(err, "SVG and PNG plots need the cairo library, which could not be "
			 "loaded (%s); install cairo (Debian: libcairo2) or give --format "
			 "text, csv or json", why.msg);
}
