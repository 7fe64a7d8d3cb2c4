/* loop_dio.c - a loop device's direct I/O, changed as losetup --direct-io does: the
 * LOOP_SET_DIRECT_IO ioctl on the device node.
 *
 * The node is opened once, by the validated kernel name, without following a link, and
 * the descriptor is checked to be the block device /sys/block/NAME/dev names before the
 * ioctl: a node replaced or planted under /dev is refused, never acted on.  Read-only
 * is enough (the kernel asks CAP_SYS_ADMIN of a read-only opener), so a mounted device
 * is opened as harmlessly as blkid does.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "control.h"

/* /dev/NAME, open, and the device sysfs says NAME is; -1 with errno and err. */
static int open_node(const struct control_dev *d, struct error *err)
{
	char dev[32], node[DEV_NAME_MAX + 8];
	unsigned maj, min;
	if (control_dev_read(d, "dev", dev, sizeof dev, err) < 0)
		return -1;
	if (sscanf(dev, "%u:%u", &maj, &min) != 2) {
		errno = ENODEV;
		return error_set(err, "%s/dev: not MAJ:MIN: %s", d->path, dev);
	}
	snprintf(node, sizeof node, "/dev/%s", d->name);
	int fd = open(node, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		int saved = errno;
		error_errno(err, node, saved);
		errno = saved;
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || major(st.st_rdev) != maj ||
	    minor(st.st_rdev) != min) {
		close(fd);
		errno = ENODEV;
		return error_set(err, "%s is not the block device %u:%u of %s", node, maj, min,
				 d->name);
	}
	return fd;
}

int control_loop_set_dio(const struct control_dev *d, const char *root, const char *value,
			 struct error *err)
{
	if (root && root[0]) {
		errno = EOPNOTSUPP;
		return error_set(err, "loop.dio: a --root tree has no /dev/%s to change", d->name);
	}
	int fd = open_node(d, err);
	if (fd < 0)
		return -1;
	int r = ioctl(fd, LOOP_SET_DIRECT_IO, strcmp(value, "1") == 0 ? 1UL : 0UL);
	int saved = errno;
	close(fd);
	if (r < 0) {
		error_errno(err, d->name, saved);
		errno = saved;
		return -1;
	}
	return 0;
}
