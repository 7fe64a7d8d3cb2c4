/* devices.h - what kind of block device a diskstats name is: disk or partition,
 * parent disk, device-mapper name, model and serial.  sysfs (under the root for a
 * fixture tree), plus udevd's database for model and serial where udevd runs.
 * Devices are described only when the set of names changes or the kernel
 * announces a block uevent; never per sample, and never before a live source
 * takes its first sample.
 */
#ifndef IOSCOPE_DEVICES_H
#define IOSCOPE_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "partitions.h"
#include "snapshot.h"

struct device_info {
	char name[DEV_NAME_MAX];
	bool is_disk;                  /* ROOT/sys/block/NAME exists: has settings */
	bool is_partition;
	char parent[DEV_NAME_MAX];
	char dm_name[DEV_NAME_MAX];
	char model[64], serial[64];
	struct loop_backing loop;      /* loop devices with a file attached */
};

struct device_catalog {
	char *root;                    /* NULL: live system */
	int uevents;                   /* live: the kernel's uevents (netlink), or -1 */
};

/* live: root NULL.  Never fails for want of netlink: changes are then seen
 * only from the names in diskstats. */
int devices_catalog_open(struct device_catalog *c, const char *root, struct error *err);
void devices_catalog_close(struct device_catalog *c);

/* Fill everything but the name of infos[0..n) (the names are the input).  A loop device
 * that media (NULL: none) knows has no file has nothing more to read. */
void devices_describe(struct device_catalog *c, const struct partition_list *media,
		      struct device_info *infos, size_t n);

/* Drain the kernel's uevents; true when a block device was added, removed or
 * changed since the last call.  One non-blocking receive when nothing happened. */
bool devices_hotplug_pending(struct device_catalog *c);

/* When sysfs cannot tell (a fixture tree without sys/): is NAME a partition of
 * one of names[0..n)?  sda1 of sda, nvme0n1p2 of nvme0n1, mmcblk0p1 of mmcblk0.
 * Fills parent and returns true when it is. */
bool devices_guess_partition(const char *name, const char *const *names, size_t n,
			     char *parent, size_t len);

#endif
