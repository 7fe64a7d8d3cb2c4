/* diskstats.h - our own /proc/diskstats parser (every kernel layout, by field count). */
#ifndef IOSCOPE_DISKSTATS_H
#define IOSCOPE_DISKSTATS_H

#include <stddef.h>

#include "error.h"
#include "snapshot.h"

/* Layouts, as the number of whitespace-separated fields on a line. */
#define DISKSTATS_FIELDS_BASE    14   /* before 4.18 */
#define DISKSTATS_FIELDS_DISCARD 18   /* 4.18+ */
#define DISKSTATS_FIELDS_FLUSH   20   /* 5.5+ */
#define DISKSTATS_FIELDS_MAX     32   /* lines longer than this are malformed */

/* Parse one line (no newline needed; len bytes, NULs allowed and rejected) into
 * name, major, minor and counters of *dev; other fields are left alone.  A line
 * whose field count is not a known layout is read with the largest known layout
 * it contains.  0 on success, 1 when fields past that layout were ignored, -1
 * when the line is malformed: fewer than 14 fields, a bad number or name (dev
 * may be partly written). */
int diskstats_parse_line(const char *line, size_t len, struct device *dev);

/* Append a device to out for every well-formed line of buf; malformed lines are
 * skipped.  Returns the number appended, -1 on ENOMEM (err filled). */
int diskstats_parse(const char *buf, size_t len, struct snapshot *out, struct error *err);

/* Line iteration shared with the live source: the line starting at p (ending
 * before '\n' or end) has *line_len bytes; returns where the next one starts. */
const char *diskstats_next_line(const char *p, const char *end, size_t *line_len);

#endif
