/* kname.h - kernel block device names and their sysfs spelling.
 *
 * A few drivers put a '/' in a disk's name (cciss/c0d0, cciss/c0d0p1): that is how
 * /proc/diskstats and /dev print it, while sysfs, where a name is one path
 * component, spells it with '!' (/sys/block/cciss!c0d0).  ioscope shows and
 * accepts the '/' form, and every sysfs path is built from the '!' form.
 */
#ifndef IOSCOPE_KNAME_H
#define IOSCOPE_KNAME_H

#include <stddef.h>

/* "cciss/c0d0" -> "cciss!c0d0" (truncated to len - 1). */
void kname_to_sysfs(const char *name, char *out, size_t len);
/* "cciss!c0d0" -> "cciss/c0d0" (truncated to len - 1). */
void kname_from_sysfs(const char *sysname, char *out, size_t len);

#endif
