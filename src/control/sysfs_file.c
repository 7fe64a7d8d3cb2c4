/* sysfs_file.c - reading and writing files below /sys/block/NAME without following links.
 *
 * The directory itself is the kernel's symlink /sys/block/NAME -> ../devices/...;
 * below it every component is resolved with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS), so a path built from a validated name can never be
 * redirected anywhere else.  bdi/ is the kernel's other link, to the disk's backing
 * device (/sys/devices/virtual/bdi/MAJ:MIN): it is followed once when the device is
 * opened, checked to be on sysfs (live), and "bdi/FILE" is resolved beneath it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "control.h"
#include "kname.h"

static int open_beneath(int dirfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
	if (fd < 0 && errno == ENOSYS) /* before 5.6: at least the last component */
		fd = openat(dirfd, rel, flags | O_NOFOLLOW | O_CLOEXEC);
	return fd;
}

static void full_path(const struct control_dev *d, const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", d->path, rel);
}

/* The directory rel is resolved beneath, and rel from there: bdi/FILE beneath bdi/. */
static int dir_of(const struct control_dev *d, const char **rel)
{
	if (strncmp(*rel, "bdi/", 4) != 0)
		return d->dirfd;
	*rel += 4;
	if (d->bdifd < 0)
		errno = ENOENT;
	return d->bdifd;
}

#define SYSFS_MAGIC_NUMBER 0x62656572   /* linux/magic.h SYSFS_MAGIC */

static int open_bdi(const struct control_dev *d, bool live)
{
	int fd = openat(d->dirfd, "bdi", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct statfs fs;
	if (fd >= 0 && live && (fstatfs(fd, &fs) < 0 || fs.f_type != SYSFS_MAGIC_NUMBER)) {
		close(fd);
		return -1;
	}
	return fd;
}

int control_dev_open(struct control_dev *d, const char *root, const char *name, struct error *err)
{
	d->dirfd = d->bdifd = -1;
	if (!control_name_valid(name))
		return error_set(err, "'%s' is not a kernel device name", name);
	snprintf(d->name, sizeof d->name, "%s", name);
	char sysname[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	snprintf(d->path, sizeof d->path, "%s/sys/block/%s", root ? root : "", sysname);
	d->dirfd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0)
		return error_errno(err, d->path, errno);
	d->bdifd = open_bdi(d, !(root && root[0]));
	return 0;
}

void control_dev_close(struct control_dev *d)
{
	if (d->dirfd >= 0)
		close(d->dirfd);
	if (d->bdifd >= 0)
		close(d->bdifd);
	d->dirfd = d->bdifd = -1;
}

bool control_dev_exists(const struct control_dev *d, const char *rel)
{
	int dir = dir_of(d, &rel);
	int fd = dir < 0 ? -1 : open_beneath(dir, rel, O_PATH);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int control_dev_read(const struct control_dev *d, const char *rel, char *buf, size_t len,
		     struct error *err)
{
	char path[MOUNT_PATH_MAX + 64];
	full_path(d, rel, path, sizeof path);
	int dir = dir_of(d, &rel);
	int fd = dir < 0 ? -1 : open_beneath(dir, rel, O_RDONLY);
	if (fd < 0)
		return error_errno(err, path, errno);
	ssize_t n = pread(fd, buf, len - 1, 0);
	int saved = errno;
	close(fd);
	if (n < 0)
		return error_errno(err, path, saved);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int control_dev_write(const struct control_dev *d, const char *rel, const char *value,
		      struct error *err)
{
	char path[MOUNT_PATH_MAX + 64];
	full_path(d, rel, path, sizeof path);
	/* O_TRUNC: sysfs ignores it; a fixture tree of plain files needs it */
	int dir = dir_of(d, &rel);
	int fd = dir < 0 ? -1 : open_beneath(dir, rel, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		int saved = errno;
		error_errno(err, path, saved);
		errno = saved;
		return -1;
	}
	size_t len = strlen(value);
	/* sysfs takes one write(2) per value; a short write means the kernel took less. */
	ssize_t n = write(fd, value, len);
	int saved = n < 0 ? errno : (size_t)n != len ? EIO : 0;
	close(fd);
	if (saved) {
		error_errno(err, path, saved);
		errno = saved;
		return -1;
	}
	return 0;
}

bool control_dev_writable(const struct control_dev *d, const char *rel)
{
	int dir = dir_of(d, &rel);
	return dir >= 0 && faccessat(dir, rel, W_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW) == 0;
}
