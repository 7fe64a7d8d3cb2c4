/* grow.c - arrays that grow by doubling, checked for overflow. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

/* The doubled room for need elements, or 0 when it or its size in bytes overflows. */
static size_t doubled_room(size_t cap, size_t need, size_t elem, size_t first)
{
	size_t n = cap ? cap : (first ? first : 1);
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return 0;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return 0;
	return n;
}

int grow_array(void *arrayp, size_t *cap, size_t need, size_t elem, size_t first,
	       struct error *err)
{
	if (need <= *cap)
		return 0;
	size_t n = doubled_room(*cap, need, elem, first);
	if (!n) {
		errno = EOVERFLOW;
		return error_set(err, "an array of %zu elements of %zu bytes does not fit in memory",
				 need, elem);
	}
	void *old;   /* the caller's pointer, whatever its type: copied, never type-punned */
	memcpy(&old, arrayp, sizeof old);
	void *grown = realloc(old, n * elem);
	if (!grown) {
		errno = ENOMEM;
		return error_set(err, "out of memory for %zu elements of %zu bytes", n, elem);
	}
	memcpy(arrayp, &grown, sizeof grown);
	*cap = n;
	return 0;
}
