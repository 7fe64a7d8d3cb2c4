/* cli_show.c - `ioscope show DEVICE|MOUNTPOINT`: what `set` and `remount` would start from. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "knobs.h"
#include "sysfs.h"
#include "text.h"

static int cmp_settings(const void *a, const void *b)
{
	return strcmp(((const struct setting *)a)->key, ((const struct setting *)b)->key);
}

/* What `ioscope set` would accept, next to the value: the range the kernel allows on this
 * queue where it depends on the queue (nr_requests, max_sectors_kb), the knob's help
 * otherwise when it says more than the value, or why it is not set. */
static void range_note(const struct control_dev *d, const struct disk_settings *ds, const char *key,
		       char *note, size_t len)
{
	char v[32];
	const struct knob *k = knob_find(key);
	note[0] = '\0';
	if (!k)
		return;
	if (k->value == KNOB_REQUESTS && strcmp(ds->scheduler, "none") != 0 && ds->scheduler[0])
		snprintf(note, len, "   (%" PRIu64 "..%" PRIu64 " with %s)", k->min, k->max,
			 ds->scheduler);
	else if (k->value == KNOB_REQUESTS &&
		 control_dev_read(d, "mq/0/nr_tags", v, sizeof v, NULL) == 0)
		snprintf(note, len, "   (%" PRIu64 "..%s with none: the queue depth)", k->min, v);
	else if (k->value == KNOB_SECTORS_KB &&
		 control_dev_read(d, "queue/max_hw_sectors_kb", v, sizeof v, NULL) == 0)
		snprintf(note, len, "   (max_hw_sectors_kb %s; %s = default)", v,
			 k->default_value);
	else if (k->write == KNOB_READ_ONLY)
		snprintf(note, len, "   (read-only here: %s)", k->why);
	else if (k->help_in_show)
		snprintf(note, len, "   (%s)", k->help);
}

/* The settings as the sampler reads them (src/sources/sysfs.c) and the bdi's limits in
 * bytes, which it does not (they move with the dirty limit), in key order. */
static int shown_settings(const char *root, const char *disk, const struct control_dev *d,
			  struct disk_settings *ds, struct error *err)
{
	struct sysfs_disk sd;
	memset(ds, 0, sizeof *ds);
	if (sysfs_disk_open(&sd, root, disk, err) == 0)
		sysfs_disk_read(&sd, ds, err);
	sysfs_disk_close(&sd);
	struct setting extra[4];
	size_t n = 0;
	for (size_t i = 0; i < knob_count && n < 4; i++) {
		const struct knob *k = &knob_table[i];
		if (k->cadence != KNOB_CADENCE_SHOWN ||
		    control_dev_read(d, k->file, extra[n].value, sizeof extra[n].value, NULL) < 0)
			continue;
		snprintf(extra[n++].key, sizeof extra[0].key, "%s", k->key);
	}
	struct setting *all = realloc(ds->items, (ds->nitems + n + 1) * sizeof *all);
	if (!all)
		return error_set(err, "out of memory");
	memcpy(all + ds->nitems, extra, n * sizeof *extra);
	ds->items = all;
	ds->nitems += n;
	qsort(ds->items, ds->nitems, sizeof *ds->items, cmp_settings);
	return 0;
}

/* Settings by where they come from (setting_group_of), each with what `set` accepts. */
static int show_device(FILE *out, const char *root, const char *disk)
{
	struct control_dev d;
	struct disk_settings ds;
	struct error err = { "" };
	if (control_dev_open(&d, root, disk, &err) < 0) {
		text_printf(stderr, "ioscope show: %s\n", err.msg);
		return 1;
	}
	if (shown_settings(root, disk, &d, &ds, &err) < 0) {
		text_printf(stderr, "ioscope show: %s\n", err.msg);
		control_dev_close(&d);
		return 1;
	}
	text_printf(out, "%s\n", disk);
	text_printf(out, "  %-26s %s\n", "scheduler",
		ds.scheduler_line[0] ? ds.scheduler_line : "(none)");
	for (int g = 0; g < SETTING_GROUPS; g++)
		for (size_t i = 0; i < ds.nitems; i++) {
			const struct setting *s = &ds.items[i];
			if ((int)setting_group_of(s->key) != g)
				continue;
			char note[192];
			range_note(&d, &ds, s->key, note, sizeof note);
			text_printf(out, "  %-26s %s%s\n", s->key, s->value, note);
		}
	if (ds.rotational >= 0)
		fprintf(out, "  %-26s %d\n", "rotational", ds.rotational);
	free(ds.items);
	control_dev_close(&d);
	return 0;
}

static void show_mount(FILE *out, const struct control_mount *m)
{
	text_printf(out, "  mount %s (%s on %s)\n", m->mountpoint, m->fstype, m->source);
	text_printf(out, "    %-24s %s\n", "mount options", m->mount_opts);
	text_printf(out, "    %-24s %s\n", "fs options", m->super_opts);
}

static void show_mounts_of(FILE *out, const char *root, const char *disk)
{
	struct control_mount *all;
	size_t n;
	if (control_mounts_read(root, &all, &n, NULL) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char name[DEV_NAME_MAX], owner[DEV_NAME_MAX];
		bool part;
		if (control_mount_device(root, &all[i], name, sizeof name) &&
		    control_disk_of(root, name, owner, sizeof owner, &part) == 0 &&
		    strcmp(owner, disk) == 0)
			show_mount(out, &all[i]);
	}
	free(all);
}

/* The mount that holds path: by mount id on the live system, by mount point in a tree. */
static int mount_of_path(const char *root, const char *path, struct control_mount *m,
			 struct error *err)
{
	if (root[0])
		return control_mount_find(root, -1, path, m, err);
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return error_errno(err, path, errno);
	struct statx stx;
	int r = statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx);
	int saved = errno;
	close(fd);
	if (r < 0)
		return error_errno(err, path, saved);
	return control_mount_find(NULL, (int)stx.stx_mnt_id, NULL, m, err);
}

static bool is_block_node(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISBLK(st.st_mode);
}

int control_cli_show(FILE *out, const char *root, const char *arg)
{
	root = root ? root : "";
	struct error err = { "" };
	char disk[DEV_NAME_MAX];
	if (arg[0] == '/' && (root[0] || !is_block_node(arg))) {
		struct control_mount m;
		if (mount_of_path(root, arg, &m, &err) < 0) {
			text_printf(stderr, "ioscope show: %s\n", err.msg);
			return 2;
		}
		char name[DEV_NAME_MAX];
		bool part;
		if (control_mount_device(root, &m, name, sizeof name) &&
		    control_disk_of(root, name, disk, sizeof disk, &part) == 0)
			show_device(out, root, disk);
		show_mount(out, &m);
		return 0;
	}
	bool part;
	if (control_name_valid(arg) && control_disk_of(root, arg, disk, sizeof disk, &part) == 0) {
		/* a partition: show its disk, which holds the queue */
	} else if (control_device_resolve(root, arg, disk, sizeof disk, &err) < 0) {
		text_printf(stderr, "ioscope show: %s\n", err.msg);
		return 2;
	}
	int status = show_device(out, root, disk);
	show_mounts_of(out, root, disk);
	return status;
}
