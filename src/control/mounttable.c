/* mounttable.c - one mount out of /proc/self/mountinfo, with the id that pins it.
 *
 * The sampler's mount list (struct mount) has no mount id; a remount must act on
 * exactly the mount it showed the operator, so control reads the id itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *out = s;
	for (char *in = s; *in; in++) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' &&
		    in[3] >= '0' && in[3] <= '7') {
			*out++ = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
			in += 3;
		} else {
			*out++ = *in;
		}
	}
	*out = '\0';
}

/* Paths must fit whole; option lists may be cut (the ones we compare are short). */
static int copy_field(char *dst, size_t len, const char *src, bool whole)
{
	if (whole && strlen(src) >= len)
		return -1;
	snprintf(dst, len, "%s", src);
	unescape(dst);
	return 0;
}

static int parse_fields(char **fields, size_t n, struct control_mount *m)
{
	size_t sep = 6;
	while (sep < n && strcmp(fields[sep], "-") != 0)
		sep++;
	if (sep + 2 >= n)
		return -1;
	memset(m, 0, sizeof *m);
	char *end;
	m->id = (int)strtol(fields[0], &end, 10);
	if (*end || sscanf(fields[2], "%u:%u", &m->major, &m->minor) != 2)
		return -1;
	if (copy_field(m->root, sizeof m->root, fields[3], true) < 0 ||
	    copy_field(m->mountpoint, sizeof m->mountpoint, fields[4], true) < 0 ||
	    copy_field(m->mount_opts, sizeof m->mount_opts, fields[5], false) < 0 ||
	    copy_field(m->fstype, sizeof m->fstype, fields[sep + 1], true) < 0 ||
	    copy_field(m->source, sizeof m->source, fields[sep + 2], false) < 0)
		return -1;
	if (sep + 3 < n)
		copy_field(m->super_opts, sizeof m->super_opts, fields[sep + 3], false);
	return 0;
}

int control_mountinfo_parse_line(const char *line, struct control_mount *m)
{
	char *buf = strdup(line);
	if (!buf)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	char *fields[32];
	size_t n = 0;
	for (char *save = NULL, *f = strtok_r(buf, " ", &save); f && n < 32; f = strtok_r(NULL, " ", &save))
		fields[n++] = f;
	int r = n >= 10 ? parse_fields(fields, n, m) : -1;
	free(buf);
	return r;
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
		if (*n == size) {
			size_t grown = size ? size * 2 : 32;
			struct control_mount *v = realloc(*out, grown * sizeof *v);
			if (!v) {
				r = error_set(err, "out of memory reading %s", path);
				break;
			}
			*out = v;
			size = grown;
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
			*out = all[i];   /* for a mount point, the last line is the mount on top */
			found = true;
		}
	}
	free(all);
	if (found)
		return 0;
	return id >= 0 ? error_set(err, "mount %d is gone from %s/proc/self/mountinfo", id, root ? root : "")
		       : error_set(err, "%s: not a mount point", mountpoint);
}
