/* mountinfo.c - /proc/self/mountinfo: mounts, their options and their disks.
 *
 * Line: ID PARENT MAJ:MIN ROOT MOUNTPOINT MOUNT_OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTS
 * Paths are octal-escaped by the kernel, so single spaces separate fields.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/btrfs.h>

#include "mountinfo.h"

#define MAX_FIELDS 64

struct field {
	const char *s;
	size_t len;
};

/* Fields are separated by exactly one space; an empty source ("") is a field. */
static size_t split(const char *line, size_t len, struct field *f, size_t max)
{
	if (len > 0 && line[len - 1] == '\r')
		len--;
	size_t n = 0;
	const char *p = line, *end = line + len;
	for (;;) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		if (n == max)
			return max + 1;
		f[n].s = p;
		f[n].len = (size_t)((sp ? sp : end) - p);
		n++;
		if (!sp)
			return n;
		p = sp + 1;
	}
}

static int octal_digit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

/* As mountinfo_unescape; with cut, a string that does not fit is cut there and *cut set. */
static int unescape(const char *src, size_t len, char *dst, size_t dstlen, bool *cut)
{
	if (dstlen == 0)
		return -1;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c == '\\' && len - i > 3) {
			int a = octal_digit(src[i + 1]);
			int b = octal_digit(src[i + 2]);
			int d = octal_digit(src[i + 3]);
			if (a >= 0 && a <= 3 && b >= 0 && d >= 0) {
				c = (unsigned char)(a * 64 + b * 8 + d);
				i += 3;
			}
		}
		if (c == '\0')
			return -1;
		if (o + 1 >= dstlen) {
			if (!cut)
				return -1;
			*cut = true;
			break;
		}
		dst[o++] = (char)c;
	}
	dst[o] = '\0';
	return 0;
}

int mountinfo_unescape(const char *src, size_t len, char *dst, size_t dstlen)
{
	return unescape(src, len, dst, dstlen, NULL);
}

static int parse_uint(const struct field *f, size_t from, size_t to, unsigned *out)
{
	if (from >= to || to - from > 10)
		return -1;
	uint64_t v = 0;
	for (size_t i = from; i < to; i++) {
		if (f->s[i] < '0' || f->s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(f->s[i] - '0');
	}
	if (v > UINT32_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_devno(const struct field *f, unsigned *major, unsigned *minor)
{
	const char *colon = memchr(f->s, ':', f->len);
	if (!colon)
		return -1;
	size_t c = (size_t)(colon - f->s);
	if (parse_uint(f, 0, c, major) < 0 || parse_uint(f, c + 1, f->len, minor) < 0)
		return -1;
	return 0;
}

int mountinfo_parse_line(const char *line, size_t len, struct mount *m)
{
	struct field f[MAX_FIELDS];
	size_t n = split(line, len, f, MAX_FIELDS);
	if (n < 10 || n > MAX_FIELDS)
		return -1;
	unsigned id, parent;
	if (parse_uint(&f[0], 0, f[0].len, &id) < 0 || parse_uint(&f[1], 0, f[1].len, &parent) < 0)
		return -1;
	size_t dash = 6;
	while (dash < n && !(f[dash].len == 1 && f[dash].s[0] == '-'))
		dash++;
	if (dash + 4 != n)
		return -1;
	memset(m, 0, sizeof *m);
	m->id = id;
	if (parse_devno(&f[2], &m->major, &m->minor) < 0 ||
	    mountinfo_unescape(f[4].s, f[4].len, m->mountpoint, sizeof m->mountpoint) < 0 ||
	    unescape(f[5].s, f[5].len, m->mount_opts, sizeof m->mount_opts, &m->cut) < 0 ||
	    mountinfo_unescape(f[dash + 1].s, f[dash + 1].len, m->fstype, sizeof m->fstype) < 0 ||
	    unescape(f[dash + 2].s, f[dash + 2].len, m->source, sizeof m->source, &m->cut) < 0 ||
	    unescape(f[dash + 3].s, f[dash + 3].len, m->super_opts, sizeof m->super_opts,
		     &m->cut) < 0)
		return -1;
	if (m->mountpoint[0] != '/' || m->fstype[0] == '\0')
		return -1;
	return 0;
}

int mountinfo_parse(const char *buf, size_t len, struct snapshot *out, struct error *err)
{
	const char *p = buf, *end = buf + len;
	struct mount scratch;
	int added = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p;
		p = nl ? nl + 1 : end;
		if (mountinfo_parse_line(line, n, &scratch) < 0)
			continue;
		struct mount *m = snapshot_add_mount(out);
		if (!m)
			return error_set(err, "mountinfo: out of memory");
		*m = scratch;
		added++;
	}
	return added;
}

static const struct device *find_devno(const struct snapshot *devs, unsigned major, unsigned minor)
{
	for (size_t i = 0; i < devs->ndevices; i++)
		if (devs->devices[i].major == major && devs->devices[i].minor == minor)
			return &devs->devices[i];
	return NULL;
}

static const struct device *find_dm_name(const struct snapshot *devs, const char *dm)
{
	for (size_t i = 0; i < devs->ndevices; i++)
		if (devs->devices[i].dm_name[0] && strcmp(devs->devices[i].dm_name, dm) == 0)
			return &devs->devices[i];
	return NULL;
}

static const struct device *by_source_name(const struct snapshot *devs, const char *src)
{
	if (strncmp(src, "/dev/mapper/", 12) == 0)
		return find_dm_name(devs, src + 12);
	if (strncmp(src, "/dev/", 5) == 0 && !strchr(src + 5, '/'))
		return snapshot_find_device(devs, src + 5);
	return NULL;
}

static const struct device *by_source_stat(const struct snapshot *devs, const char *src)
{
	struct stat st;
	if (src[0] != '/' || stat(src, &st) < 0 || !S_ISBLK(st.st_mode))
		return NULL;
	return find_devno(devs, major(st.st_rdev), minor(st.st_rdev));
}

/* A btrfs mount's member devices, from its fsid (live system only). */
static const struct device *by_btrfs_fsid(const struct snapshot *devs, const char *mountpoint)
{
	int fd = open(mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	struct btrfs_ioctl_fs_info_args info;
	memset(&info, 0, sizeof info);
	int r = ioctl(fd, BTRFS_IOC_FS_INFO, &info);
	close(fd);
	if (r < 0)
		return NULL;
	char path[128];
	int o = snprintf(path, sizeof path, "/sys/fs/btrfs/");
	for (int i = 0; i < 16; i++) {
		o += snprintf(path + o, sizeof path - (size_t)o, "%02x", info.fsid[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			path[o++] = '-';
	}
	snprintf(path + o, sizeof path - (size_t)o, "/devices");
	DIR *dir = opendir(path);
	if (!dir)
		return NULL;
	const struct device *best = NULL;
	struct dirent *e;
	while ((e = readdir(dir))) {
		const struct device *d = snapshot_find_device(devs, e->d_name);
		if (d && (!best || strcmp(d->name, best->name) < 0))
			best = d;
	}
	closedir(dir);
	return best;
}

void mountinfo_resolve_disk(struct mount *m, const struct snapshot *devs, const char *root)
{
	const struct device *d = NULL;
	if (m->major != 0)
		d = find_devno(devs, m->major, m->minor);
	if (!d && !root)
		d = by_source_stat(devs, m->source);
	if (!d)
		d = by_source_name(devs, m->source);
	if (!d && !root && strcmp(m->fstype, "btrfs") == 0)
		d = by_btrfs_fsid(devs, m->mountpoint);
	snprintf(m->disk, sizeof m->disk, "%s", d ? d->name : "");
}

bool mountinfo_is_block_backed(const struct mount *m)
{
	return m->disk[0] != '\0' || m->major != 0;
}
