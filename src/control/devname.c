/* devname.c - from what the user typed to the validated kernel name of a whole disk.
 *
 * Only a name that passes control_name_valid and exists under /sys/block is ever
 * used to build a path; /dev paths are turned into names through their device
 * number (/sys/dev/block/MAJ:MIN), never by using the text.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "control.h"
#include "kname.h"

bool control_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n >= 32)
		return false;
	if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') ||
	      (name[0] >= '0' && name[0] <= '9')))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		/* a '/' only between two name characters (cciss/c0d0): with no '.' allowed,
		 * no component can climb out of /sys/block */
		bool slash = c == '/' && i + 1 < n && name[i - 1] != '/' && name[i + 1] != '/';
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '_' || slash;
		if (!ok)
			return false;
	}
	return true;
}

static bool dir_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Partitions appear as subdirectories of their disk: /sys/block/vda/vda1. */
static bool find_parent(const char *root, const char *name, char *disk, size_t len)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/sys/block", root);
	DIR *dir = opendir(path);
	if (!dir)
		return false;
	bool found = false;
	struct dirent *e;
	char sysname[DEV_NAME_MAX], kernel[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	while (!found && (e = readdir(dir))) {
		kname_from_sysfs(e->d_name, kernel, sizeof kernel);
		if (!control_name_valid(kernel))
			continue;
		snprintf(path, sizeof path, "%s/sys/block/%s/%s/partition", root, e->d_name, sysname);
		if (access(path, F_OK) == 0) {
			snprintf(disk, len, "%s", kernel);
			found = true;
		}
	}
	closedir(dir);
	return found;
}

int control_disk_of(const char *root, const char *name, char *disk, size_t len, bool *is_partition)
{
	char path[PATH_MAX];
	root = root ? root : "";
	*is_partition = false;
	if (!control_name_valid(name))
		return -1;
	char sysname[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	snprintf(path, sizeof path, "%s/sys/block/%s", root, sysname);
	if (dir_exists(path)) {
		snprintf(disk, len, "%s", name);
		return 0;
	}
	if (!find_parent(root, name, disk, len))
		return -1;
	*is_partition = true;
	return 0;
}

int control_block_name(dev_t rdev, char *name, size_t len, struct error *err)
{
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	ssize_t n = readlink(link, target, sizeof target - 1);
	if (n < 0)
		return error_errno(err, link, errno);
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	kname_from_sysfs(base ? base + 1 : target, name, len);
	if (!control_name_valid(name))
		return error_set(err, "%s: kernel name '%s' is not usable", link, name);
	return 0;
}

/* /dev/whatever -> the kernel name of the block device it is (by device number). */
static int name_from_node(const char *arg, char *name, size_t len, struct error *err)
{
	struct stat st;
	if (stat(arg, &st) < 0)
		return error_errno(err, arg, errno);
	if (!S_ISBLK(st.st_mode))
		return error_set(err, "%s: not a block device", arg);
	return control_block_name(st.st_rdev, name, len, err);
}

int control_block_resolve(const char *root, const char *arg, char *name, size_t len, bool *part,
			  struct error *err)
{
	char kname[DEV_NAME_MAX], disk[DEV_NAME_MAX];
	root = root ? root : "";
	if (arg[0] == '/') {
		if (root[0])
			return error_set(err, "%s: with --root give a kernel name, not a path",
					 arg);
		if (name_from_node(arg, kname, sizeof kname, err) < 0)
			return -1;
	} else if (control_name_valid(arg)) {
		snprintf(kname, sizeof kname, "%s", arg);
	} else {
		return error_set(
			err, "'%s' is not a device: give a kernel name (loop0) or /dev path", arg);
	}
	if (control_disk_of(root, kname, disk, sizeof disk, part) < 0)
		return error_set(err, "no block device '%s' in %s/sys/block", kname, root);
	snprintf(name, len, "%s", kname);
	return 0;
}

int control_device_resolve(const char *root, const char *arg, char *name, size_t len,
			   struct error *err)
{
	char kname[DEV_NAME_MAX];
	bool part;
	if (control_block_resolve(root, arg, kname, sizeof kname, &part, err) < 0)
		return -1;
	if (part) {
		char disk[DEV_NAME_MAX] = "?";
		control_disk_of(root, kname, disk, sizeof disk, &part);
		return error_set(err, "%s is a partition; queue settings belong to its disk %s",
				 kname, disk);
	}
	snprintf(name, len, "%s", kname);
	return 0;
}
