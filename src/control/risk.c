/* risk.c - the changes that need the operator's "yes", and why.
 *
 *  - turning write barriers off (nobarrier, barrier=0): a crash can corrupt the fs;
 *  - write_cache to "write through" on a queue the kernel believes has a volatile
 *    cache: the kernel stops sending cache flushes (Documentation/block/queue-sysfs);
 *  - ro on a filesystem with files open for writing;
 *  - a loop device's direct I/O, on or off: it changes how the device caches its file
 *    while it may be mounted (a risk of its own, asked every time);
 *  - anything on the filesystem that holds /, or on the disks under it.
 */
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "kname.h"
#include "procpid.h"

void control_add_risk(struct control_plan *p, const char *fmt, ...)
{
	if (p->nrisks == CONTROL_MAX_RISKS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->risks[p->nrisks++], sizeof p->risks[0], fmt, ap);
	va_end(ap);
}

bool control_mount_device(const char *root, const struct control_mount *m, char *name, size_t len)
{
	root = root ? root : "";
	if (m->major != 0 && !root[0]) {
		char link[64], target[PATH_MAX];
		snprintf(link, sizeof link, "/sys/dev/block/%u:%u", m->major, m->minor);
		ssize_t n = readlink(link, target, sizeof target - 1);
		if (n > 0) {
			target[n] = '\0';
			const char *base = strrchr(target, '/');
			kname_from_sysfs(base ? base + 1 : target, name, len);
			return control_name_valid(name);
		}
	}
	if (strncmp(m->source, "/dev/", 5) != 0)
		return false;
	char real[PATH_MAX];
	const char *src = m->source;
	if (!root[0] && realpath(m->source, real)) /* /dev/mapper/x -> /dev/dm-0 */
		src = real;
	const char *base = strrchr(src, '/');
	snprintf(name, len, "%s", base + 1);
	return control_name_valid(name);
}

/* Is disk the one under the root fs, or below it through dm/md slaves? */
static bool disk_under(const char *root, const char *top, const char *disk, int depth)
{
	if (strcmp(top, disk) == 0)
		return true;
	if (depth > 4)
		return false;
	char path[PATH_MAX], sysname[DEV_NAME_MAX];
	kname_to_sysfs(top, sysname, sizeof sysname);
	snprintf(path, sizeof path, "%s/sys/block/%s/slaves", root, sysname);
	DIR *dir = opendir(path);
	if (!dir)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(dir))) {
		char slave_disk[DEV_NAME_MAX];
		bool part;
		char slave[DEV_NAME_MAX];
		kname_from_sysfs(e->d_name, slave, sizeof slave);
		if (e->d_name[0] == '.' ||
		    control_disk_of(root, slave, slave_disk, sizeof slave_disk, &part) < 0)
			continue;
		found = disk_under(root, slave_disk, disk, depth + 1);
	}
	closedir(dir);
	return found;
}

static bool root_mount(const char *root, struct control_mount *m)
{
	return control_mount_find(root, -1, "/", m, NULL) == 0;
}

static bool device_holds_root(const char *root, const char *disk)
{
	struct control_mount m;
	char name[DEV_NAME_MAX], top[DEV_NAME_MAX];
	bool part;
	if (!root_mount(root, &m) || !control_mount_device(root, &m, name, sizeof name))
		return false;
	if (control_disk_of(root, name, top, sizeof top, &part) < 0)
		return false;
	return disk_under(root, top, disk, 0);
}

/* ", mounted on /mnt" (the first mount of the disk or a partition of it), or "". */
static void mounted_on(const char *root, const char *disk, char *buf, size_t len)
{
	struct control_mount *all;
	size_t n;
	buf[0] = '\0';
	if (control_mounts_read(root, &all, &n, NULL) < 0)
		return;
	for (size_t i = 0; i < n && !buf[0]; i++) {
		char name[DEV_NAME_MAX], owner[DEV_NAME_MAX];
		bool part;
		if (control_mount_device(root, &all[i], name, sizeof name) &&
		    control_disk_of(root, name, owner, sizeof owner, &part) == 0 &&
		    strcmp(owner, disk) == 0)
			snprintf(buf, len, ", mounted on %s", all[i].mountpoint);
	}
	free(all);
}

static void loop_dio_risk(struct control_plan *p, const struct control_assign *a)
{
	if (strcmp(a->key, "loop.dio") != 0 || strcmp(a->value, a->old) == 0)
		return;
	char where[MOUNT_PATH_MAX + 32];
	mounted_on(p->root, p->device, where, sizeof where);
	if (strcmp(a->value, "1") == 0)
		control_add_risk(p,
				 "loop.dio=1 changes how %s%s caches its file: its I/O bypasses "
				 "the page cache of the filesystem under it (flushed first), and "
				 "the queue is frozen meanwhile",
				 p->device, where);
	else
		control_add_risk(p,
				 "loop.dio=0 changes how %s%s caches its file: its I/O goes "
				 "through the page cache of the filesystem under it again (cached "
				 "twice, written back later), and the queue is frozen meanwhile",
				 p->device, where);
}

void control_risks_device(struct control_plan *p)
{
	for (size_t i = 0; i < p->nitems; i++)
		loop_dio_risk(p, &p->items[i]);
	for (size_t i = 0; i < p->nitems; i++) {
		const struct control_assign *a = &p->items[i];
		if (strcmp(a->key, "write_cache") == 0 && strcmp(a->value, "write through") == 0 &&
		    strcmp(a->old, "write back") == 0)
			control_add_risk(
				p,
				"write_cache=write through: the kernel stops sending cache "
				"flushes to %s; unless its cache survives power loss, a crash "
				"loses writes that were reported durable",
				p->device);
	}
	if (device_holds_root(p->root, p->device))
		control_add_risk(p, "%s holds the root filesystem /", p->device);
}

static bool sets_ro(const struct control_plan *p)
{
	for (size_t i = 0; i < p->nopts; i++)
		if (p->opts[i].scope == CONTROL_OPT_BOTH && strcmp(p->opts[i].key, "ro") == 0)
			return true;
	return false;
}

static bool barrier_off(const struct control_mount_opt *o)
{
	return o->scope == CONTROL_OPT_SUPER &&
	       (strcmp(o->key, "nobarrier") == 0 ||
		(strcmp(o->key, "barrier") == 0 && o->has_value && strcmp(o->value, "0") == 0));
}

static bool same_fs(const struct control_mount *a, const struct control_mount *b)
{
	if (a->major == b->major && a->minor == b->minor)
		return true;
	return strncmp(a->source, "/dev/", 5) == 0 && strcmp(a->source, b->source) == 0 &&
	       strcmp(a->fstype, b->fstype) == 0;
}

void control_risks_mount(struct control_plan *p)
{
	const struct control_mount *m = &p->mount;
	for (size_t i = 0; i < p->nopts; i++)
		if (barrier_off(&p->opts[i]))
			control_add_risk(
				p,
				"%s: write barriers off: the journal is no longer ordered by "
				"cache flushes; a power loss or crash can corrupt %s",
				p->opts[i].text, m->mountpoint);
	struct stat st;
	char example[64] = "";
	size_t writers;
	if (sets_ro(p) && stat(m->mountpoint, &st) == 0 &&
	    (writers = procpid_count_writers(st.st_dev, example, sizeof example)) > 0)
		control_add_risk(
			p,
			"ro: %s is busy: %zu file%s open for writing (%s); their writes will "
			"fail, or the kernel refuses with EBUSY",
			m->mountpoint, writers, writers == 1 ? "" : "s", example);
	struct control_mount rootm;
	if (root_mount(p->root, &rootm) && same_fs(&rootm, m))
		control_add_risk(p, "%s is the filesystem that holds /", m->mountpoint);
}
