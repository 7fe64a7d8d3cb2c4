/* mountinfo.h - which mounts sit on which block device, from /proc/self/mountinfo. */
#ifndef IOSCOPE_MOUNTINFO_H
#define IOSCOPE_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "snapshot.h"

/* Parse one line into *m (disk left "").  0, or -1 when malformed or when the
 * mount point or type does not fit its buffer (a truncated mount point would name
 * another path, and the control layer remounts by that path).  A source or option
 * string that does not fit is cut and m->cut set: such a mount (an overlay with a
 * long lowerdir= list) is still where a path's mount is looked up, but its options
 * are not what the kernel has, so the snapshot and the control layer leave it out. */
int mountinfo_parse_line(const char *line, size_t len, struct mount *m);

/* Append every well-formed line of buf to out->mounts.  Returns the number
 * appended, -1 on ENOMEM. */
int mountinfo_parse(const char *buf, size_t len, struct snapshot *out, struct error *err);

/* Undo mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134
 * backslash) from src[0..len) into dst (NUL-terminated).  -1 if it does not fit. */
int mountinfo_unescape(const char *src, size_t len, char *dst, size_t dstlen);

/* Name the block device under a mount: major:minor of a device in devs; else,
 * for anonymous devices (btrfs 0:N), the source field: stat() of it when root
 * is NULL (resolves /dev/mapper/x and other symlinks), /dev/NAME or
 * /dev/mapper/DMNAME matched by name; else for btrfs on the live system the
 * first entry of /sys/fs/btrfs/<fsid>/devices/.  "" when none. */
void mountinfo_resolve_disk(struct mount *m, const struct snapshot *devs, const char *root);

/* True for mounts the snapshot keeps: those on a block device (disk found or a
 * real, non-anonymous major). */
bool mountinfo_is_block_backed(const struct mount *m);

#endif
