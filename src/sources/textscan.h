/* textscan.h - the lines, keys and numbers of the kernel's text files (/proc/stat,
 * /proc/vmstat, /proc/pressure/io, xfs and jbd2 statistics), read without stdio.
 *
 * The readers of these files run every sample; they walk a buffer read whole.
 */
#ifndef IOSCOPE_TEXTSCAN_H
#define IOSCOPE_TEXTSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The next line of [*p, end) (without its newline); false at the end. */
bool textscan_line(const char **p, const char *end, const char **line, size_t *len);
/* An unsigned decimal at *s after blanks; false if there is none or it overflows. */
bool textscan_u64(const char **s, const char *end, uint64_t *out);
/* The line starts with key followed by a blank or ':'; *rest points after them. */
bool textscan_key(const char *line, size_t len, const char *key, const char **rest);

#endif
