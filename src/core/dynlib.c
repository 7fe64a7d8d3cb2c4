/* dynlib.c - load a shared library on first use (include/dynlib.h). */
#include <dlfcn.h>
#include <string.h>

#include "dynlib.h"
#include "trusted_file.h"

/* name: what the loader opens; shown: what messages call it */
static int load(const char *name, const char *shown, const struct dynlib_symbol *symbols,
		size_t n, void *table, struct error *err)
{
	void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!lib) {
		const char *why = dlerror();
		if (name == shown)
			return error_set(err, "%s", why ? why : shown);
		return error_set(err, "%s: %s", shown, why ? why : "cannot be loaded");
	}
	for (size_t i = 0; i < n; i++) {
		void *fn = dlsym(lib, symbols[i].name);
		if (!fn)
			return error_set(err, "%s: no function %s", shown, symbols[i].name);
		memcpy((char *)table + symbols[i].offset, &fn, sizeof fn);
	}
	return 0;
}

int dynlib_load(const char *soname, const struct dynlib_symbol *symbols, size_t n, void *table,
		struct error *err)
{
	return load(soname, soname, symbols, n, table, err);
}

int dynlib_load_fd(int fd, const char *path, const struct dynlib_symbol *symbols, size_t n,
		   void *table, struct error *err)
{
	char self[TRUSTED_FD_PATH_MAX];
	trusted_fd_path(fd, self);
	return load(self, path, symbols, n, table, err);
}
