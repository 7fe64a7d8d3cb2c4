/* mkfs_check.c - what --mkfs on a device destroys, and whether anything else uses it
 * (control_mkfs_check, include/control_experiment.h; docs/experiments.md, "Safety").
 *
 * A loop device's data is whatever stands behind it: a file, or a block device
 * (`losetup -f /dev/zram0`, a real disk, another loop device), whose data it then is.
 * The chain is followed down by the kernel's own answer (LOOP_GET_STATUS64: the backing
 * file's st_dev/st_ino, or the block device's number; loop_identity_read), not by the
 * path backing_file prints: a loop device to the block device behind it, a partition of
 * a loop device to that loop device, down to a loop device over a file or a device that
 * is neither.
 *
 * The kernel does not count a loop device as a holder of what it stands on (no holders/
 * entry, no exclusive claim), so a second loop device on the same file, or one stacked
 * on a device of the chain, with a mounted filesystem is invisible from the chain: every
 * loop device is looked at, and each one whose chain meets ours must be free as well.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "control_experiment.h"
#include "kname.h"
#include "loopdev.h"

#define CHAIN_MAX 8

struct chain {
	char dev[CHAIN_MAX][DEV_NAME_MAX];   /* the device, then each one it stands on */
	char disk[CHAIN_MAX][DEV_NAME_MAX];  /* each one's whole disk: itself for a disk */
	size_t n;
	bool on_file;                        /* the last is a loop device over a file */
	dev_t file_dev;
	ino_t file_ino;
};

static bool chain_has(const struct chain *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->dev[i], name) == 0)
			return true;
	return false;
}

static int chain_add(struct chain *c, const char *name, struct error *err)
{
	bool part;
	if (c->n == CHAIN_MAX || chain_has(c, name))
		return error_set(err, "%s: more than %d devices stacked on each other", c->dev[0],
				 CHAIN_MAX);
	if (control_disk_of(NULL, name, c->disk[c->n], sizeof c->disk[0], &part) < 0)
		return error_set(err, "no block device '%s' in /sys/block", name);
	snprintf(c->dev[c->n++], sizeof c->dev[0], "%s", name);
	return 0;
}

static int chain_walk(const char *name, struct chain *c, struct error *err)
{
	char cur[DEV_NAME_MAX];
	snprintf(cur, sizeof cur, "%s", name);
	memset(c, 0, sizeof *c);
	while (chain_add(c, cur, err) == 0) {
		const char *disk = c->disk[c->n - 1];
		if (!control_device_is_loop(disk))
			return 0;   /* neither a loop device nor a partition of one: the bottom */
		if (strcmp(disk, cur) != 0) {
			snprintf(cur, sizeof cur, "%s", disk);   /* a partition: its loop device */
			continue;
		}
		struct loop_identity id;
		if (loop_identity_read(cur, &id, err) < 0)
			return -1;
		if (!id.attached)
			return 0;
		if (!id.on_block_device) {
			c->on_file = true;
			c->file_dev = id.dev;
			c->file_ino = id.ino;
			return 0;
		}
		if (control_block_name(id.rdev, cur, sizeof cur, err) < 0)
			return -1;
	}
	return -1;
}

static void chain_text(const struct chain *c, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < c->n && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? " -> " : "", c->dev[i]);
		used += n > 0 ? (size_t)n : 0;
	}
}

/* A loop device over a file is wiped as it is; anything else only when the device at
 * the bottom of the chain is named: by its kernel name, a path resolved by the caller
 * without following another user's symlink (the matrix: matrix_device_resolve).  A path
 * here would be followed wherever it leads, so it names nothing. */
static int check_named(const struct chain *c, const char *option, const char *named,
		       struct error *err)
{
	if (c->n == 1 && c->on_file)
		return 0;
	const char *bottom = c->dev[c->n - 1];
	char again[DEV_NAME_MAX], chain[CHAIN_MAX * (DEV_NAME_MAX + 4)];
	bool part;
	struct error why;
	if (named && named[0] != '/' &&
	    control_block_resolve(NULL, named, again, sizeof again, &part, &why) == 0 &&
	    strcmp(again, bottom) == 0)
		return 0;
	if (c->n == 1)
		return error_set(err, "%s would destroy the data on %s, which is not a loop "
				 "device: name it again with --destroy-data-on %s to do that",
				 option, bottom, bottom);
	chain_text(c, chain, sizeof chain);
	return error_set(err, "%s on %s would destroy the data on %s, which it stands on "
			 "(%s): name that with --destroy-data-on %s to do that", option, c->dev[0],
			 bottom, chain, bottom);
}

static int check_chain_free(const struct chain *c, struct error *err)
{
	struct error why;
	for (size_t i = 0; i < c->n; i++) {
		if (control_device_check_free(c->dev[i], &why) == 0)
			continue;
		if (i == 0)
			return error_set(err, "%s", why.msg);
		return error_set(err, "%s stands on %s: %s", c->dev[0], c->dev[i], why.msg);
	}
	return 0;
}

static bool same_data(const struct chain *a, size_t i, const struct chain *b, size_t j)
{
	/* a partition shares its data with its disk, not with its sibling partitions */
	return strcmp(a->dev[i], b->dev[j]) == 0 || strcmp(a->disk[i], b->dev[j]) == 0 ||
	       strcmp(a->dev[i], b->disk[j]) == 0;
}

/* What ours and other's chain share, in words ("" when nothing): a device of both, else
 * the file at the bottom of both. */
static void shared(const struct chain *ours, const struct chain *other, char *what, size_t len)
{
	what[0] = '\0';
	for (size_t j = 0; j < other->n; j++)
		for (size_t i = 0; i < ours->n; i++)
			if (same_data(ours, i, other, j)) {
				snprintf(what, len, "%s", other->dev[j]);
				return;
			}
	if (ours->on_file && other->on_file && ours->file_dev == other->file_dev &&
	    ours->file_ino == other->file_ino) {
		struct loop_backing b;
		loop_backing_read(NULL, other->dev[other->n - 1], &b);
		snprintf(what, len, "the same file (%s)", b.present ? b.file : "?");
	}
}

/* Another loop device on the same data: free, or the data is in use. */
static int check_sharer(const struct chain *ours, const char *option, const char *name,
			struct error *err)
{
	struct chain other;
	struct error why;
	char what[MOUNT_PATH_MAX + 32];
	if (chain_walk(name, &other, &why) < 0)
		return error_set(err, "cannot tell what %s stands on: %s", name, why.msg);
	shared(ours, &other, what, sizeof what);
	if (!what[0] || control_device_check_free(name, &why) == 0)
		return 0;
	return error_set(err, "%s on %s would destroy the data of %s, which stands on %s: %s",
			 option, ours->dev[0], name, what, why.msg);
}

static int check_sharers(const struct chain *c, const char *option, struct error *err)
{
	DIR *dir = opendir("/sys/block");
	if (!dir)
		return error_errno(err, "/sys/block", errno);
	struct dirent *e;
	char name[DEV_NAME_MAX];
	int rc = 0;
	while (rc == 0 && (e = readdir(dir))) {
		kname_from_sysfs(e->d_name, name, sizeof name);
		if (control_name_valid(name) && control_device_is_loop(name) && !chain_has(c, name))
			rc = check_sharer(c, option, name, err);
	}
	closedir(dir);
	return rc;
}

int control_mkfs_check(const char *option, const char *name, const char *destroy_data_on,
		       struct error *err)
{
	struct chain c;
	if (chain_walk(name, &c, err) < 0 || check_named(&c, option, destroy_data_on, err) < 0 ||
	    check_chain_free(&c, err) < 0)
		return -1;
	return check_sharers(&c, option, err);
}
