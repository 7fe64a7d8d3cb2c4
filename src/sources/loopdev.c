/* loopdev.c - a loop device's backing chain: the file (loop/backing_file), direct I/O
 * (loop/dio), offset and size limit, and which block device holds the file.  What a
 * benchmark on a loop device measures depends on all of them: with dio off the loop
 * device's writes land in the page cache of the filesystem under it.
 *
 * The file is only stat(2)ed, never opened: its st_dev names the block device (through
 * /sys/dev/block/MAJ:MIN) or, for btrfs's anonymous devices, a mount whose disk the
 * mount table knows.  Under a fixture root the file is not on this machine, so only
 * what sysfs says is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/loop.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kname.h"
#include "loopdev.h"
#include "procfile.h"
#include "regular_file.h"
#include "sysfs.h"

static bool read_loop_attr(const char *root, const char *sysname, const char *attr, char *out,
			   size_t len)
{
	char path[PATH_MAX], buf[MOUNT_PATH_MAX + 16];
	if (path_format(path, sizeof path, "%s/sys/block/%s/loop/%s", root, sysname, attr) < 0)
		return false;
	int fd = root[0] ? regular_file_openat(AT_FDCWD, path, O_RDONLY)
			 : regular_file_openat_kernel(AT_FDCWD, path, O_RDONLY);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	return n > 0 && sysfs_parse_value(buf, (size_t)n, out, len) > 0;
}

static uint64_t read_loop_u64(const char *root, const char *sysname, const char *attr)
{
	char v[32];
	return read_loop_attr(root, sysname, attr, v, sizeof v) ? strtoull(v, NULL, 10) : 0;
}

/* The block device the file lives on: /sys/dev/block/MAJ:MIN -> .../block/vda/vda1. */
static void backing_device(struct loop_backing *l)
{
	struct stat st;
	if (stat(l->file, &st) < 0)
		return;
	l->major = major(st.st_dev);
	l->minor = minor(st.st_dev);
	char path[64], target[PATH_MAX];
	snprintf(path, sizeof path, "/sys/dev/block/%u:%u", l->major, l->minor);
	ssize_t n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	kname_from_sysfs(base ? base + 1 : target, l->disk, sizeof l->disk);
}

void loop_backing_read(const char *root, const char *name, struct loop_backing *out)
{
	memset(out, 0, sizeof *out);
	out->dio = -1;
	if (!loop_name_whole(name))   /* a loop device's partition has no loop/ of its own */
		return;
	char sysname[DEV_NAME_MAX], dio[8];
	kname_to_sysfs(name, sysname, sizeof sysname);
	if (!root)
		root = "";
	if (!read_loop_attr(root, sysname, "backing_file", out->file, sizeof out->file))
		return;
	out->present = true;
	if (read_loop_attr(root, sysname, "dio", dio, sizeof dio))
		out->dio = sysfs_parse_bool(dio);
	out->offset = read_loop_u64(root, sysname, "offset");
	out->sizelimit = read_loop_u64(root, sysname, "sizelimit");
	if (!root[0])
		backing_device(out);
}

bool loop_name_whole(const char *name)
{
	if (strncmp(name, "loop", 4) != 0)
		return false;
	size_t digits = strspn(name + 4, "0123456789");
	return digits > 0 && digits <= 10 && name[4 + digits] == '\0';
}

int loop_identity_read(const char *name, struct loop_identity *out, struct error *err)
{
	memset(out, 0, sizeof *out);
	if (!loop_name_whole(name))
		return error_set(err, "'%s' is not the name of a loop device", name);
	char path[32];
	snprintf(path, sizeof path, "/dev/%s", name);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return error_errno(err, path, errno);
	struct loop_info64 info;
	int rc = ioctl(fd, LOOP_GET_STATUS64, &info);
	int e = errno;
	close(fd);
	if (rc < 0)
		return e == ENXIO ? 0 : error_errno(err, path, e);
	out->attached = true;
	/* the kernel encodes them as glibc's makedev does (new_encode_dev) */
	out->on_block_device = info.lo_rdevice != 0;
	out->rdev = (dev_t)info.lo_rdevice;
	out->dev = (dev_t)info.lo_device;
	out->ino = (ino_t)info.lo_inode;
	return 0;
}
