/* loopdev.h - what a loop device is backed by (struct loop_backing in snapshot.h):
 * read from /sys/block/loopN/loop/ when devices are described, and said in words for
 * reports and the console's detail pane.
 */
#ifndef IOSCOPE_LOOPDEV_H
#define IOSCOPE_LOOPDEV_H

#include <stddef.h>

#include "snapshot.h"

/* ROOT/sys/block/NAME/loop/{backing_file,dio,offset,sizelimit}; on the live system
 * (root "" or NULL) also the file's st_dev and the block device that is.  out->present
 * is false for anything but a loop device with a file attached. */
void loop_backing_read(const char *root, const char *name, struct loop_backing *out);

/* "/var/tmp/disk.img on vda1 (ext4 /var), direct I/O off": the file, the disk and
 * filesystem holding it (from the mounts of s, when known), and dio.  "" when
 * d is not a loop device with a file. */
void loop_backing_describe(const struct device *d, const struct snapshot *s, char *buf,
			   size_t len);

#endif
