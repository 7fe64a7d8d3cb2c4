/* loopdev.h - what a loop device is backed by (struct loop_backing in snapshot.h):
 * read from /sys/block/loopN/loop/ when devices are described, and said in words for
 * reports and the console's detail pane.
 */
#ifndef IOSCOPE_LOOPDEV_H
#define IOSCOPE_LOOPDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "error.h"
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

/* What a live loop device stands on, from the kernel itself (LOOP_GET_STATUS64 on
 * /dev/NAME, which needs root): the backing file's st_dev and st_ino, or the block device
 * it is.  Not from backing_file's path: that names the file only until someone renames
 * it, and a deleted file has none. */
struct loop_identity {
	bool attached;          /* false: nothing behind it */
	bool on_block_device;   /* the backing file is a block device: rdev */
	dev_t rdev;
	dev_t dev;              /* the backing file's st_dev and st_ino */
	ino_t ino;
};
/* NAME is a whole loop device's kernel name: loopN (not loop0p1). */
bool loop_name_whole(const char *name);
/* 0 (out->attached false when nothing is attached), -1 with err. */
int loop_identity_read(const char *name, struct loop_identity *out, struct error *err);

#endif
