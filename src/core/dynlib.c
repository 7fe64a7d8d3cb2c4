/* dynlib.c - load a shared library on first use (include/dynlib.h). */
#include <dlfcn.h>
#include <string.h>

#include "dynlib.h"

int dynlib_load(const char *soname, const struct dynlib_symbol *symbols, size_t n, void *table,
		struct error *err)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!lib) {
		const char *why = dlerror();
		return error_set(err, "%s", why ? why : soname);
	}
	for (size_t i = 0; i < n; i++) {
		void *fn = dlsym(lib, symbols[i].name);
		if (!fn)
			return error_set(err, "%s: no function %s", soname, symbols[i].name);
		memcpy((char *)table + symbols[i].offset, &fn, sizeof fn);
	}
	return 0;
}
