/* grow.h - arrays that grow by doubling, the one place that checks the sizes for overflow. */
#ifndef IOSCOPE_GROW_H
#define IOSCOPE_GROW_H

#include <stddef.h>

#include "error.h"

/* Makes room for need elements of elem bytes in the array *arrayp points to (any pointer
 * type: arrayp is the address of the caller's pointer), whose room is *cap elements.  The
 * room doubles, from first when the array is empty, until need fits; *arrayp and *cap change
 * only on success.  0, or -1 with errno ENOMEM (out of memory) or EOVERFLOW (the size does
 * not fit a size_t) and err, when not NULL, saying which. */
int grow_array(void *arrayp, size_t *cap, size_t need, size_t elem, size_t first,
	       struct error *err);

#endif
