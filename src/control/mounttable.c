/* mounttable.c - one mount out of /proc/self/mountinfo, with the id that pins it.
 *
 * Lines are parsed by the sampler's parser (src/sources/mountinfo.c); a remount must
 * act on exactly the mount it planned for, so the id is kept beside the fields, and
 * a mount whose options were too long to keep whole is none to plan on.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "grow.h"
#include "mountinfo.h"

int control_mountinfo_parse_line(const char *line, struct control_mount *m)
{
	struct mount shared;
	if (mountinfo_parse_line(line, strcspn(line, "\n"), &shared) < 0 || shared.cut ||
	    shared.id > INT_MAX)
		return -1;
	memset(m, 0, sizeof *m);
	m->id = (int)shared.id;
	m->major = shared.major;
	m->minor = shared.minor;
	snprintf(m->mountpoint, sizeof m->mountpoint, "%s", shared.mountpoint);
	snprintf(m->fstype, sizeof m->fstype, "%s", shared.fstype);
	snprintf(m->source, sizeof m->source, "%s", shared.source);
	snprintf(m->mount_opts, sizeof m->mount_opts, "%s", shared.mount_opts);
	snprintf(m->super_opts, sizeof m->super_opts, "%s", shared.super_opts);
	return 0;
}

int control_mounts_read(const char *root, struct control_mount **out, size_t *n, struct error *err)
{
	char path[512];
	snprintf(path, sizeof path, "%s/proc/self/mountinfo", root ? root : "");
	*out = NULL;
	*n = 0;
	FILE *f = fopen(path, "re");
	if (!f)
		return error_errno(err, path, errno);
	char *line = NULL;
	size_t cap = 0, size = 0;
	int r = 0;
	struct control_mount m;
	while (getline(&line, &cap, f) > 0) {
		if (control_mountinfo_parse_line(line, &m) < 0)
			continue;
		if (grow_array(out, &size, *n + 1, sizeof **out, 32, NULL) < 0) {
			r = error_set(err, "out of memory reading %s", path);
			break;
		}
		(*out)[(*n)++] = m;
	}
	free(line);
	fclose(f);
	return r;
}

int control_mount_find(const char *root, int id, const char *mountpoint, struct control_mount *out,
		       struct error *err)
{
	struct control_mount *all;
	size_t n;
	if (control_mounts_read(root, &all, &n, err) < 0)
		return -1;
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		bool match = id >= 0 ? all[i].id == id : strcmp(all[i].mountpoint, mountpoint) == 0;
		if (match) {
			*out = all[i]; /* for a mount point, the last line is the mount on top */
			found = true;
		}
	}
	free(all);
	if (found)
		return 0;
	return id >= 0 ? error_set(err, "mount %d is gone from %s/proc/self/mountinfo", id,
				   root ? root : "")
		       : error_set(err, "%s: not a mount point", mountpoint);
}
