/* devices.c - disk or partition, parent, dm name, model and serial of each name.
 *
 * Everything comes from sysfs, for just the names diskstats has: a partition has
 * a `partition` file and its parent is the directory above it.  Where udevd runs,
 * its database adds the model and serial it found (ID_MODEL, ID_SERIAL: an ATA
 * disk's full model and its serial, which sysfs does not export); the file is the
 * one libudev itself reads.  libudev is not used: enumerating the whole block
 * subsystem cost as much CPU as the rest of a one-sample run, its answers are
 * sysfs's, and the hot-plug monitor is one netlink socket (docs/design.md).
 * Under a fixture root the sysfs (and udev database) under the root is read, and
 * when the tree has no sys/ at all the partition/parent relation is guessed from
 * the names.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devices.h"
#include "grow.h"
#include "kname.h"
#include "loopdev.h"
#include "procfile.h"
#include "regular_file.h"
#include "sysfs.h"

#define UDEV_DB "/run/udev/data"
#define UEVENT_GROUP_KERNEL 1        /* the kernel's own uevents; 2 is udevd's */

/* Non-blocking, so that draining it never waits; -1 when netlink is unavailable
 * (a container): changes are then seen only from the names in diskstats. */
static int open_uevents(void)
{
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -1;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = UEVENT_GROUP_KERNEL };
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int devices_catalog_open(struct device_catalog *c, const char *root, struct error *err)
{
	memset(c, 0, sizeof *c);
	c->uevents = -1;
	if (root) {
		if (!(c->root = strdup(root)))
			return error_set(err, "devices: out of memory");
		return 0;
	}
	c->uevents = open_uevents();
	return 0;
}

void devices_catalog_close(struct device_catalog *c)
{
	if (c->uevents >= 0)
		close(c->uevents);
	free(c->root);
	memset(c, 0, sizeof *c);
	c->uevents = -1;
}

/* A uevent is "ACTION@DEVPATH" then NUL-separated KEY=VALUE strings. */
static bool uevent_is_block(const char *msg, size_t len)
{
	for (const char *p = msg, *end = msg + len; p < end; p += strlen(p) + 1)
		if (strcmp(p, "SUBSYSTEM=block") == 0)
			return true;
	return false;
}

bool devices_hotplug_pending(struct device_catalog *c)
{
	bool any = false;
	char buf[8192];
	while (c->uevents >= 0) {
		struct sockaddr_nl from = { 0 };
		socklen_t fromlen = sizeof from;
		ssize_t n = recvfrom(c->uevents, buf, sizeof buf - 1, 0, (struct sockaddr *)&from,
				     &fromlen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			any = true;            /* events were lost: assume one was ours */
			continue;
		}
		if (n < 0)
			break;
		if (from.nl_pid != 0)
			continue;              /* only the kernel speaks on this group */
		buf[n] = '\0';
		if (uevent_is_block(buf, (size_t)n))
			any = true;
	}
	return any;
}

/* ---- sysfs ---------------------------------------------------------------- */

/* Read a one-line attribute, trailing blanks removed; false when absent/empty.  root "":
 * the live sysfs, whose files need no check (regular_file_openat_kernel). */
static bool read_line(const char *root, const char *path, char *out, size_t len)
{
	int fd = root[0] ? regular_file_openat(AT_FDCWD, path, O_RDONLY)
			 : regular_file_openat_kernel(AT_FDCWD, path, O_RDONLY);
	if (fd < 0)
		return false;
	char buf[256];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return false;
	return sysfs_parse_value(buf, (size_t)n, out, len) > 0;
}

static bool read_attr_line(const char *root, const char *name, const char *attr, char *out,
			   size_t len)
{
	char path[PATH_MAX], sysname[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	return path_format(path, sizeof path, "%s/sys/block/%s/%s", root, sysname, attr) >= 0 &&
	       read_line(root, path, out, len);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* The target of ROOT/sys/DIR/NAME, a link of the block class, into target (len
 * PATH_MAX); false when it is none (a fixture tree's directory). */
static bool block_link(const char *root, const char *dir, const char *name, char *target)
{
	char path[PATH_MAX], sysname[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	if (path_format(path, sizeof path, "%s/sys/%s/%s", root, dir, sysname) < 0)
		return false;
	ssize_t n = readlink(path, target, PATH_MAX - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return true;
}

/* /sys/class/block/vda1 -> ../../devices/pci.../block/vda/vda1: the parent is the
 * directory above. */
static bool parent_from_link(const char *root, const char *name, char *parent, size_t len)
{
	char target[PATH_MAX];
	if (!block_link(root, "class/block", name, target))
		return false;
	char *last = strrchr(target, '/');
	if (!last || last == target)
		return false;
	*last = '\0';
	const char *up = strrchr(target, '/');
	kname_from_sysfs(up ? up + 1 : target, parent, len);
	return parent[0] != '\0';
}

static bool parent_from_disk_dirs(const char *root, const char *name, struct device_info *infos,
				  size_t n, char *parent, size_t len)
{
	char path[PATH_MAX], sysname[DEV_NAME_MAX], sysdisk[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	for (size_t i = 0; i < n; i++) {
		if (!infos[i].is_disk)
			continue;
		kname_to_sysfs(infos[i].name, sysdisk, sizeof sysdisk);
		if (path_format(path, sizeof path, "%s/sys/block/%s/%s", root, sysdisk,
				sysname) >= 0 && exists(path)) {
			snprintf(parent, len, "%s", infos[i].name);
			return true;
		}
	}
	return false;
}

bool devices_guess_partition(const char *name, const char *const *names, size_t n,
			     char *parent, size_t len)
{
	size_t l = strlen(name), p = l;
	while (p > 0 && name[p - 1] >= '0' && name[p - 1] <= '9')
		p--;
	if (p == l || p == 0)
		return false;
	char cand[DEV_NAME_MAX];
	if (p >= sizeof cand)
		return false;
	memcpy(cand, name, p);
	cand[p] = '\0';
	if (p >= 2 && cand[p - 1] == 'p' && cand[p - 2] >= '0' && cand[p - 2] <= '9')
		cand[p - 1] = '\0';            /* nvme0n1p2, mmcblk0p1, loop0p1 */
	else if (cand[p - 1] < 'a' || cand[p - 1] > 'z')
		return false;                  /* sda1, vdb2, xvda1 - a letter before the digits */
	for (size_t i = 0; i < n; i++) {
		if (strcmp(names[i], cand) == 0) {
			snprintf(parent, len, "%s", cand);
			return true;
		}
	}
	return false;
}

/* ---- the disks: one listing of ROOT/sys/block ---------------------------- */

/* Whole disks are the entries of ROOT/sys/block: live, links into /sys/devices; a fixture
 * tree's may be directories.  One listing for every name, not a stat of each (a path walk
 * through sysfs: 64 of a one-shot's system calls here).  Not listed (out of memory):
 * each name is looked up alone. */
struct disk_names {
	char (*names)[DEV_NAME_MAX];   /* kernel names, sorted */
	size_t n, cap;
	bool listed;
};

static int compare_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

static bool entry_is_dir(DIR *dir, const struct dirent *e, bool live)
{
	if (e->d_type == DT_DIR || (live && e->d_type == DT_LNK))
		return true;
	struct stat st;
	return (e->d_type == DT_LNK || e->d_type == DT_UNKNOWN) &&
	       fstatat(dirfd(dir), e->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
}

static void list_disks(const char *root, struct disk_names *out)
{
	char path[PATH_MAX];
	out->listed = false;
	out->n = 0;
	if (path_format(path, sizeof path, "%s/sys/block", root) < 0)
		return;
	DIR *dir = opendir(path);
	if (!dir) {   /* no sys/ (a fixture tree): no disks, the names are guessed */
		out->listed = errno == ENOENT || errno == ENOTDIR;
		return;
	}
	const struct dirent *e;
	out->listed = true;
	while (out->listed && (e = readdir(dir))) {
		if (e->d_name[0] == '.' || !entry_is_dir(dir, e, !root[0]))
			continue;
		if (grow_array(&out->names, &out->cap, out->n + 1, sizeof *out->names, 64,
			       NULL) < 0)
			out->listed = false;
		else
			kname_from_sysfs(e->d_name, out->names[out->n++], DEV_NAME_MAX);
	}
	closedir(dir);
	if (out->listed)
		qsort(out->names, out->n, sizeof *out->names, compare_names);
}

static bool is_disk(const char *root, const struct disk_names *disks, const char *name)
{
	if (!disks->listed)
		return sysfs_is_disk(root, name);
	return disks->n &&
	       bsearch(name, disks->names, disks->n, sizeof *disks->names, compare_names);
}

/* A block device whose directory is in a disk's (parent_from_link) is its partition: one
 * readlink. */
static bool partition_by_link(const char *root, const struct disk_names *disks,
			      const char *name, char *parent, size_t len)
{
	char disk[DEV_NAME_MAX];
	if (!disks->listed || !parent_from_link(root, name, disk, sizeof disk) ||
	    strcmp(disk, name) == 0 || !is_disk(root, disks, disk))
		return false;
	snprintf(parent, len, "%s", disk);
	return true;
}

/* A disk of no hardware: /sys/block/NAME leads into /sys/devices/virtual/ (loop, zram, dm,
 * md).  Such a disk has no device/ link and no driver's serial.  A fixture tree's
 * directory is no link: not known, so read. */
static bool virtual_disk(const char *root, const char *name)
{
	char target[PATH_MAX];
	return block_link(root, "block", name, target) && strstr(target, "/devices/virtual/");
}

static void describe_from_sysfs(const char *root, const struct partition_list *media,
				const struct disk_names *disks, struct device_info *infos,
				size_t n, size_t i)
{
	struct device_info *d = &infos[i];
	char path[PATH_MAX], sysname[DEV_NAME_MAX];
	kname_to_sysfs(d->name, sysname, sizeof sysname);
	memset(&d->loop, 0, sizeof d->loop);
	d->loop.dio = -1;
	if (!d->is_disk) {
		if (partition_by_link(root, disks, d->name, d->parent, sizeof d->parent))
			d->is_partition = true;
		else if (path_format(path, sizeof path, "%s/sys/class/block/%s/partition", root,
				sysname) >= 0 && exists(path)) {
			d->is_partition = true;
			parent_from_link(root, d->name, d->parent, sizeof d->parent);
		} else if (parent_from_disk_dirs(root, d->name, infos, n, d->parent,
						 sizeof d->parent)) {
			d->is_partition = true;
		}
		return;   /* the files below read sys/block/NAME/, which only a disk has */
	}
	/* the kernel names every device-mapper disk dm-N (drivers/md/dm.c) */
	if (strncmp(d->name, "dm-", 3) == 0)
		read_attr_line(root, d->name, "dm/name", d->dm_name, sizeof d->dm_name);
	if (media && partition_list_loop_empty(media, d->name))
		return;   /* no file, and a loop device has no hardware */
	loop_backing_read(root, d->name, &d->loop);
	if (virtual_disk(root, d->name))
		return;
	if (!d->model[0])
		read_attr_line(root, d->name, "device/model", d->model, sizeof d->model);
	if (!d->serial[0] &&
	    !read_attr_line(root, d->name, "device/serial", d->serial, sizeof d->serial))
		read_attr_line(root, d->name, "serial", d->serial, sizeof d->serial);
}

/* ---- the udev database -------------------------------------------------- */

/* "E:ID_MODEL=..." lines of udevd's record of the device. */
static void copy_db_value(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	for (const char *line = text; *line;) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		if (n > klen + 3 && strncmp(line, "E:", 2) == 0 &&
		    strncmp(line + 2, key, klen) == 0 && line[2 + klen] == '=') {
			sysfs_parse_value(line + 3 + klen, n - 3 - klen, out, len);
			return;
		}
		line += eol ? n + 1 : n;
	}
}

static void describe_from_udev_db(const char *root, struct device_info *d)
{
	char dev[32], path[PATH_MAX], text[8192], sysname[DEV_NAME_MAX];
	kname_to_sysfs(d->name, sysname, sizeof sysname);
	if (path_format(path, sizeof path, "%s/sys/class/block/%s/dev", root, sysname) < 0 ||
	    !read_line(root, path, dev, sizeof dev) ||
	    path_format(path, sizeof path, "%s" UDEV_DB "/b%s", root, dev) < 0)
		return;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, text, sizeof text - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	copy_db_value(text, "ID_MODEL", d->model, sizeof d->model);
	copy_db_value(text, "ID_SERIAL_SHORT", d->serial, sizeof d->serial);
	if (!d->serial[0])
		copy_db_value(text, "ID_SERIAL", d->serial, sizeof d->serial);
}

void devices_describe(struct device_catalog *c, const struct partition_list *media,
		      struct device_info *infos, size_t n)
{
	const char *root = c->root ? c->root : "";
	/* Only where udevd runs (or a fixture tree carries its database). */
	char db[PATH_MAX];
	bool udev_db = path_format(db, sizeof db, "%s" UDEV_DB, root) >= 0 && access(db, F_OK) == 0;
	struct disk_names disks = { 0 };
	list_disks(root, &disks);
	for (size_t i = 0; i < n; i++) {
		struct device_info *d = &infos[i];
		d->is_partition = false;
		d->parent[0] = d->dm_name[0] = d->model[0] = d->serial[0] = '\0';
		d->is_disk = is_disk(root, &disks, d->name);
		if (udev_db)
			describe_from_udev_db(root, d);
	}
	for (size_t i = 0; i < n; i++)
		describe_from_sysfs(root, media, &disks, infos, n, i);
	free(disks.names);

	/* What sysfs could not tell (no sys/ in a fixture): guess from the names. */
	const char **names = malloc((n ? n : 1) * sizeof *names);
	for (size_t i = 0; names && i < n; i++)
		names[i] = infos[i].name;
	for (size_t i = 0; names && i < n; i++) {
		struct device_info *d = &infos[i];
		if (d->is_disk || d->is_partition)
			continue;
		d->is_partition = devices_guess_partition(d->name, names, n, d->parent,
							  sizeof d->parent);
	}
	free(names);
}
