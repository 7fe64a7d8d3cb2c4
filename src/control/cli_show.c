/* cli_show.c - `ioscope show DEVICE|MOUNTPOINT`: what `set` and `remount` would start from. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"

static void show_value(FILE *out, const struct control_dev *d, const char *label, const char *rel,
		       const char *note)
{
	char value[SETTING_VAL_MAX];
	if (control_dev_read(d, rel, value, sizeof value, NULL) < 0)
		return;
	fprintf(out, "  %-26s %s%s\n", label, value, note);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void show_iosched(FILE *out, const struct control_dev *d)
{
	DIR *dir = control_dev_opendir(d, "queue/iosched");
	if (!dir)
		return;
	char *names[64];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dir)) && n < 64)
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
			n++;
	closedir(dir);
	qsort(names, n, sizeof names[0], compare_names);
	for (size_t i = 0; i < n; i++) {
		char label[SETTING_KEY_MAX + 8], rel[SETTING_KEY_MAX + 16];
		snprintf(label, sizeof label, "iosched.%.50s", names[i]);
		snprintf(rel, sizeof rel, "queue/iosched/%.50s", names[i]);
		show_value(out, d, label, rel, "");
		free(names[i]);
	}
}

static int show_device(FILE *out, const char *root, const char *disk)
{
	struct control_dev d;
	struct error err = { "" };
	if (control_dev_open(&d, root, disk, &err) < 0) {
		fprintf(stderr, "ioscope show: %s\n", err.msg);
		return 1;
	}
	char sched[SCHED_LINE_MAX] = "", names[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME], depth[32] = "";
	int cur = -1;
	if (control_dev_read(&d, "queue/scheduler", sched, sizeof sched, NULL) == 0)
		control_scheduler_names(sched, names, CONTROL_SCHED_MAX, &cur);
	bool none = cur < 0 || strcmp(names[cur], "none") == 0;
	if (none)
		control_dev_read(&d, "mq/0/nr_tags", depth, sizeof depth, NULL);
	char range[96];
	if (!none)
		snprintf(range, sizeof range, "   (%d..%d with %s)", CONTROL_NR_REQUESTS_MIN,
			 CONTROL_NR_REQUESTS_SCHED_MAX, names[cur]);
	else if (depth[0])
		snprintf(range, sizeof range, "   (%d..%s with none: the queue depth)", CONTROL_NR_REQUESTS_MIN,
			 depth);
	else
		range[0] = '\0';
	char hw[32] = "", hwnote[64] = "";
	if (control_dev_read(&d, "queue/max_hw_sectors_kb", hw, sizeof hw, NULL) == 0)
		snprintf(hwnote, sizeof hwnote, "   (max_hw_sectors_kb %s)", hw);

	fprintf(out, "%s\n", disk);
	fprintf(out, "  %-26s %s\n", "scheduler", sched[0] ? sched : "(none)");
	show_value(out, &d, "nr_requests", "queue/nr_requests", range);
	show_value(out, &d, "read_ahead_kb", "queue/read_ahead_kb", "");
	show_value(out, &d, "max_sectors_kb", "queue/max_sectors_kb", hwnote);
	show_value(out, &d, "write_cache", "queue/write_cache", "");
	show_value(out, &d, "rotational", "queue/rotational", "");
	show_iosched(out, &d);
	control_dev_close(&d);
	return 0;
}

static void show_mount(FILE *out, const struct control_mount *m)
{
	fprintf(out, "  mount %s (%s on %s)\n", m->mountpoint, m->fstype, m->source);
	fprintf(out, "    %-24s %s\n", "mount options", m->mount_opts);
	fprintf(out, "    %-24s %s\n", "fs options", m->super_opts);
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
		    control_disk_of(root, name, owner, sizeof owner, &part) == 0 && strcmp(owner, disk) == 0)
			show_mount(out, &all[i]);
	}
	free(all);
}

/* The mount that holds path: by mount id on the live system, by mount point in a tree. */
static int mount_of_path(const char *root, const char *path, struct control_mount *m, struct error *err)
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
			fprintf(stderr, "ioscope show: %s\n", err.msg);
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
		fprintf(stderr, "ioscope show: %s\n", err.msg);
		return 2;
	}
	int status = show_device(out, root, disk);
	show_mounts_of(out, root, disk);
	return status;
}
