/* devices.c - disk or partition, parent, dm name, model and serial of each name.
 *
 * libudev enumerates the block subsystem on the live system; udevd need not run
 * (no udev database means no ID_MODEL/ID_SERIAL, which sysfs then supplies when
 * the driver exports them).  Under a fixture root libudev cannot follow the
 * prefix, so sysfs under the root is read directly, and when the tree has no
 * sys/ at all the partition/parent relation is guessed from the names.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libudev.h>

#include "devices.h"
#include "procfile.h"
#include "regular_file.h"
#include "sysfs.h"

int devices_catalog_open(struct device_catalog *c, const char *root, struct error *err)
{
	memset(c, 0, sizeof *c);
	if (root) {
		if (!(c->root = strdup(root)))
			return error_set(err, "devices: out of memory");
		return 0;
	}
	c->udev = udev_new();
	if (!c->udev)
		return 0;
	/* udevd may not run: the "udev" source would stay silent, the kernel's
	 * own uevents always come. */
	c->monitor = udev_monitor_new_from_netlink(c->udev, "kernel");
	if (c->monitor &&
	    (udev_monitor_filter_add_match_subsystem_devtype(c->monitor, "block", NULL) < 0 ||
	     udev_monitor_enable_receiving(c->monitor) < 0)) {
		udev_monitor_unref(c->monitor);
		c->monitor = NULL;
	}
	if (c->monitor) {
		int fd = udev_monitor_get_fd(c->monitor);
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	}
	return 0;
}

void devices_catalog_close(struct device_catalog *c)
{
	if (c->monitor)
		udev_monitor_unref(c->monitor);
	if (c->udev)
		udev_unref(c->udev);
	free(c->root);
	memset(c, 0, sizeof *c);
}

bool devices_hotplug_pending(struct device_catalog *c)
{
	if (!c->monitor)
		return false;
	bool any = false;
	struct udev_device *d;
	while ((d = udev_monitor_receive_device(c->monitor))) {
		any = true;
		udev_device_unref(d);
	}
	return any;
}

/* ---- sysfs ---------------------------------------------------------------- */

/* Read a one-line attribute, trailing blanks removed; false when absent/empty. */
static bool read_line(const char *path, char *out, size_t len)
{
	int fd = regular_file_openat(AT_FDCWD, path, O_RDONLY);
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
	char path[PATH_MAX];
	return path_format(path, sizeof path, "%s/sys/block/%s/%s", root, name, attr) >= 0 &&
	       read_line(path, out, len);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* /sys/class/block/vda1 -> ../../devices/pci.../block/vda/vda1: the parent is the
 * directory above. */
static bool parent_from_link(const char *root, const char *name, char *parent, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	if (path_format(path, sizeof path, "%s/sys/class/block/%s", root, name) < 0)
		return false;
	ssize_t n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	char *last = strrchr(target, '/');
	if (!last || last == target)
		return false;
	*last = '\0';
	const char *up = strrchr(target, '/');
	return path_format(parent, len, "%s", up ? up + 1 : target) > 0;
}

static bool parent_from_disk_dirs(const char *root, const char *name, struct device_info *infos,
				  size_t n, char *parent, size_t len)
{
	char path[PATH_MAX];
	for (size_t i = 0; i < n; i++) {
		if (!infos[i].is_disk)
			continue;
		if (path_format(path, sizeof path, "%s/sys/block/%s/%s", root, infos[i].name,
				name) >= 0 && exists(path)) {
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

static void describe_from_sysfs(const char *root, struct device_info *infos, size_t n, size_t i,
				bool kind_known)
{
	struct device_info *d = &infos[i];
	char path[PATH_MAX];
	if (!d->is_disk && !kind_known) {
		if (path_format(path, sizeof path, "%s/sys/class/block/%s/partition", root,
				d->name) >= 0 && exists(path)) {
			d->is_partition = true;
			parent_from_link(root, d->name, d->parent, sizeof d->parent);
		} else if (parent_from_disk_dirs(root, d->name, infos, n, d->parent,
						 sizeof d->parent)) {
			d->is_partition = true;
		}
	}
	read_attr_line(root, d->name, "dm/name", d->dm_name, sizeof d->dm_name);
	if (!d->model[0])
		read_attr_line(root, d->name, "device/model", d->model, sizeof d->model);
	if (!d->serial[0] &&
	    !read_attr_line(root, d->name, "device/serial", d->serial, sizeof d->serial))
		read_attr_line(root, d->name, "serial", d->serial, sizeof d->serial);
}

/* ---- udev ----------------------------------------------------------------- */

static int cmp_info(const void *a, const void *b)
{
	return strcmp((*(struct device_info *const *)a)->name, (*(struct device_info *const *)b)->name);
}

static void copy_prop(struct udev_device *dev, const char *key, char *out, size_t len)
{
	const char *v = udev_device_get_property_value(dev, key);
	if (v && v[0])
		sysfs_parse_value(v, strlen(v), out, len);
}

static void describe_from_udev(struct udev_device *dev, struct device_info *d)
{
	const char *type = udev_device_get_devtype(dev);
	d->is_partition = type && strcmp(type, "partition") == 0;
	if (d->is_partition) {
		struct udev_device *p =
			udev_device_get_parent_with_subsystem_devtype(dev, "block", "disk");
		const char *pname = p ? udev_device_get_sysname(p) : NULL;
		if (pname)
			snprintf(d->parent, sizeof d->parent, "%s", pname);
	}
	copy_prop(dev, "ID_MODEL", d->model, sizeof d->model);
	copy_prop(dev, "ID_SERIAL_SHORT", d->serial, sizeof d->serial);
	if (!d->serial[0])
		copy_prop(dev, "ID_SERIAL", d->serial, sizeof d->serial);
}

/* Marks described[i] for every info udev knew. */
static void enumerate_udev(struct udev *udev, struct device_info *infos, size_t n, bool *described)
{
	struct device_info **idx = malloc(n * sizeof *idx);
	struct udev_enumerate *en = udev_enumerate_new(udev);
	if (!idx || !en || udev_enumerate_add_match_subsystem(en, "block") < 0 ||
	    udev_enumerate_scan_devices(en) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		idx[i] = &infos[i];
	qsort(idx, n, sizeof *idx, cmp_info);
	struct udev_list_entry *e;
	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en)) {
		struct udev_device *dev =
			udev_device_new_from_syspath(udev, udev_list_entry_get_name(e));
		if (!dev)
			continue;
		const char *name = udev_device_get_sysname(dev);
		struct device_info key, *kp = &key;
		snprintf(key.name, sizeof key.name, "%s", name ? name : "");
		struct device_info **hit = bsearch(&kp, idx, n, sizeof *idx, cmp_info);
		if (hit) {
			describe_from_udev(dev, *hit);
			described[*hit - infos] = true;
		}
		udev_device_unref(dev);
	}
out:
	if (en)
		udev_enumerate_unref(en);
	free(idx);
}

void devices_describe(struct device_catalog *c, struct device_info *infos, size_t n)
{
	const char *root = c->root ? c->root : "";
	bool *described = calloc(n ? n : 1, sizeof *described);
	for (size_t i = 0; i < n; i++) {
		struct device_info *d = &infos[i];
		d->is_partition = false;
		d->parent[0] = d->dm_name[0] = d->model[0] = d->serial[0] = '\0';
		d->is_disk = sysfs_is_disk(root, d->name);
	}
	if (c->udev && described)
		enumerate_udev(c->udev, infos, n, described);
	for (size_t i = 0; i < n; i++)
		describe_from_sysfs(root, infos, n, i, described && described[i]);

	/* What sysfs could not tell (no sys/ in a fixture): guess from the names. */
	const char **names = malloc((n ? n : 1) * sizeof *names);
	for (size_t i = 0; names && i < n; i++)
		names[i] = infos[i].name;
	for (size_t i = 0; names && i < n; i++) {
		struct device_info *d = &infos[i];
		if (d->is_disk || d->is_partition || (described && described[i]))
			continue;
		d->is_partition = devices_guess_partition(d->name, names, n, d->parent,
							  sizeof d->parent);
	}
	free(names);
	free(described);
}
