/* devsel.c - device arguments: kernel names, /dev nodes, or paths on a filesystem. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "devsel.h"
#include "text.h"

static const struct device *by_devnum(const struct snapshot *s, unsigned major, unsigned minor)
{
	for (size_t i = 0; i < s->ndevices; i++)
		if (s->devices[i].major == major && s->devices[i].minor == minor)
			return &s->devices[i];
	return NULL;
}

static bool is_prefix_dir(const char *dir, const char *path)
{
	size_t n = strlen(dir);
	if (strcmp(dir, "/") == 0)
		return true;
	return strncmp(dir, path, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

const struct mount *devsel_mount_of(const struct snapshot *snap, const char *path)
{
	char real[PATH_MAX];
	if (!realpath(path, real))
		return NULL;
	const struct mount *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < snap->nmounts; i++) {
		const struct mount *m = &snap->mounts[i];
		size_t len = strlen(m->mountpoint);
		if (is_prefix_dir(m->mountpoint, real) && len >= best_len) {
			best = m;   /* the later of equal mount points is the one on top */
			best_len = len;
		}
	}
	return best;
}

static int list_devices(const struct snapshot *snap, const char *arg, struct error *err)
{
	char list[768] = "";
	size_t used = 0;
	for (size_t i = 0; i < snap->ndevices; i++) {
		if (snap->devices[i].is_partition)
			continue;
		used = text_appendf(list, sizeof list, used, "%s%s", used ? " " : "",
				    snap->devices[i].name);
	}
	return error_set(err, "unknown device '%s'; devices: %s", arg, list[0] ? list : "(none)");
}

static int copy_name(const char *src, char *name, size_t len)
{
	snprintf(name, len, "%s", src);
	return 0;
}

int devsel_resolve(const struct snapshot *snap, const char *arg, char *name, size_t len, struct error *err)
{
	const char *base = strncmp(arg, "/dev/", 5) == 0 ? arg + 5 : arg;
	if (snapshot_find_device(snap, base))
		return copy_name(base, name, len);
	if (!strchr(arg, '/') && strcmp(arg, ".") != 0 && strcmp(arg, "..") != 0)
		return list_devices(snap, arg, err);

	/* a path is not a name: "no such file" says more than the list of devices */
	struct stat st;
	if (stat(arg, &st) < 0)
		return error_errno(err, arg, errno);
	const struct device *d = NULL;
	if (S_ISBLK(st.st_mode))
		d = by_devnum(snap, major(st.st_rdev), minor(st.st_rdev));
	if (!d)
		d = by_devnum(snap, major(st.st_dev), minor(st.st_dev));
	if (d)
		return copy_name(d->name, name, len);
	const struct mount *m = devsel_mount_of(snap, arg);   /* btrfs: anonymous st_dev */
	if (m && m->disk[0] && snapshot_find_device(snap, m->disk))
		return copy_name(m->disk, name, len);
	return error_set(err, "%s: not on a block device ioscope can see", arg);
}
