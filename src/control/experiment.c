/* experiment.c - the privileged steps of `ioscope matrix` (include/control_experiment.h).
 *
 * A fresh filesystem is made only on a device control_mkfs_check allowed
 * (src/control/mkfs_check.c, docs/experiments.md): free (not mounted, not held by dm/md,
 * exclusively openable), and so is everything it stands on.  A mount is built with the
 * new mount API so that each option the kernel refuses is named with its words, as on
 * remount, and is moved onto the mount point's descriptor (src/control/mountpoint.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "control_experiment.h"
#include "kname.h"
#include "spawn_process.h"

bool control_device_is_loop(const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	if (!control_name_valid(name))
		return false;
	snprintf(path, sizeof path, "/sys/block/%s/loop", name);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool dir_has_entries(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *e;
	bool any = false;
	while (!any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	closedir(d);
	return any;
}

/* A mount whose device is name, or a partition of it. */
static int check_not_mounted(const char *name, struct error *err)
{
	struct control_mount *m;
	size_t n;
	if (control_mounts_read(NULL, &m, &n, err) < 0)
		return -1;
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		char dev[DEV_NAME_MAX], disk[DEV_NAME_MAX];
		bool part;
		if (!control_mount_device(NULL, &m[i], dev, sizeof dev) ||
		    control_disk_of(NULL, dev, disk, sizeof disk, &part) < 0)
			continue;
		if (strcmp(disk, name) == 0 || strcmp(dev, name) == 0)
			r = error_set(err, "/dev/%s is in use: %s is mounted on %s", name, dev,
				      m[i].mountpoint);
	}
	free(m);
	return r;
}

int control_device_check_free(const char *name, struct error *err)
{
	if (!control_name_valid(name))
		return error_set(err, "'%s' is not a device name", name);
	if (check_not_mounted(name, err) < 0)
		return -1;
	char path[PATH_MAX], sysname[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	snprintf(path, sizeof path, "/sys/class/block/%s/holders", sysname);
	if (dir_has_entries(path))
		return error_set(err, "/dev/%s is in use: %s is not empty (dm, md, ...)", name,
				 path);
	snprintf(path, sizeof path, "/dev/%s", name);
	int fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return errno == EBUSY ? error_set(err, "/dev/%s is in use (the kernel refuses "
						  "an exclusive open)", name)
				      : error_errno(err, path, errno);
	close(fd);
	return 0;
}

/* The child's output, last bytes kept, for the message when it fails. */
static void read_tail(int fd, char *tail, size_t len)
{
	char buf[4096];
	size_t used = 0;
	ssize_t n;
	tail[0] = '\0';
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (used + 1 >= len) {
				memmove(tail, tail + len / 2, used - len / 2);
				used -= len / 2;
			}
			tail[used++] = buf[i] == '\n' ? ' ' : buf[i];
		}
	}
	tail[used] = '\0';
}

/* argv run with its output read; 0 on exit 0, else -1 with err. */
static int run_captured(char *const argv[], const char *what, char *out, size_t outlen,
			struct error *err)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return error_errno(err, "pipe", errno);
	const struct spawn start = { .argv = argv, .exec_fd = -1, .out_fd = pipefd[1],
				     .stdin_null = true };
	pid_t pid = spawn_start(&start, err);
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return -1;
	}
	read_tail(pipefd[0], out, outlen);
	close(pipefd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error_errno(err, "waitpid", errno);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return error_set(err, "%s exited with status %d: %s", what, WEXITSTATUS(status),
				 out);
	return error_set(err, "%s was killed by signal %d", what, WTERMSIG(status));
}

int control_mkfs(const char *cmd, const char *name, struct error *err)
{
	if (!control_name_valid(name))
		return error_set(err, "'%s' is not a device name", name);
	char dev[64], script[4096], out[512];
	snprintf(dev, sizeof dev, "/dev/%s", name);
	snprintf(script, sizeof script, "%s \"$1\"", cmd);
	char *argv[] = { "sh", "-c", script, "ioscope-mkfs", dev, NULL };
	char what[4200];
	snprintf(what, sizeof what, "'%s %s'", cmd, dev);
	return run_captured(argv, what, out, sizeof out, err);
}

static bool magic_at(int fd, off_t off, const void *magic, size_t len)
{
	char buf[16];
	return len <= sizeof buf && pread(fd, buf, len, off) == (ssize_t)len &&
	       memcmp(buf, magic, len) == 0;
}

static const char *sniff_fstype(int fd)
{
	if (magic_at(fd, 1080, "\x53\xef", 2))
		return "ext4";   /* ext2 and ext3 are mounted by the ext4 driver too */
	if (magic_at(fd, 0, "XFSB", 4))
		return "xfs";
	if (magic_at(fd, 65536 + 64, "_BHRfS_M", 8))
		return "btrfs";
	return NULL;
}

int control_fstype(const char *name, char *fstype, size_t len, struct error *err)
{
	char dev[64];
	snprintf(dev, sizeof dev, "/dev/%s", name);
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(err, dev, errno);
	const char *t = sniff_fstype(fd);
	close(fd);
	if (t) {
		snprintf(fstype, len, "%s", t);
		return 0;
	}
	char out[128];
	char *argv[] = { "blkid", "-o", "value", "-s", "TYPE", dev, NULL };
	if (run_captured(argv, "blkid", out, sizeof out, err) < 0 || !out[0])
		return error_set(err, "%s: no filesystem found (blkid knows none)", dev);
	out[strcspn(out, " ")] = '\0';
	if (strspn(out, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(out))
		return error_set(err, "%s: unexpected filesystem type from blkid", dev);
	snprintf(fstype, len, "%s", out);
	return 0;
}

static bool no_options(const char *options)
{
	return !options[0] || strcmp(options, "defaults") == 0;
}

struct mount_call {
	const char *failed;
	int errnum;
	char msg[256];
};

static int configure(int fsfd, const char *dev, const struct control_mount_opt *opts, size_t n,
		     struct mount_call *c)
{
	if (fsconfig(fsfd, FSCONFIG_SET_STRING, "source", dev, 0) < 0) {
		c->failed = "source";
		return c->errnum = errno, -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct control_mount_opt *o = &opts[i];
		if (o->scope == CONTROL_OPT_MOUNT)
			continue;
		int rc = o->has_value ? fsconfig(fsfd, FSCONFIG_SET_STRING, o->key, o->value, 0)
				      : fsconfig(fsfd, FSCONFIG_SET_FLAG, o->key, NULL, 0);
		if (rc < 0) {
			c->failed = o->text;
			return c->errnum = errno, -1;
		}
	}
	if (fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		c->failed = "create";
		return c->errnum = errno, -1;
	}
	return 0;
}

/* The detached mount onto the directory mp holds: its root kept for the command. */
static void attach(int mfd, struct control_mountpoint *mp, struct mount_call *c)
{
	unsigned flags = MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH;
	if (move_mount(mfd, "", mp->dir, "", flags) < 0) {
		c->failed = "move_mount";
		c->errnum = errno;
		return;
	}
	struct error ignored;
	mp->root = fcntl(mfd, F_DUPFD_CLOEXEC, 0);
	int e = errno;
	if (mp->root >= 0 && control_mount_root_id(mp->root, mp->path, &mp->mnt_id, &ignored) == 0)
		return;
	/* mounted, but it could not be found again: detached at once, through its root */
	c->failed = mp->root < 0 ? "dup" : "statx";
	c->errnum = mp->root < 0 ? e : EIO;
	if (mp->root >= 0)
		close(mp->root);
	mp->root = mp->mnt_id = -1;
	char at[32];
	snprintf(at, sizeof at, "/proc/self/fd/%d", mfd);
	umount2(at, MNT_DETACH);
}

static void mount_now(const char *dev, const char *fstype, struct control_mountpoint *mp,
		      const struct control_mount_opt *opts, size_t n, struct control_result *r,
		      struct mount_call *c)
{
	unsigned attrs = 0;
	for (size_t i = 0; i < n; i++)
		if (opts[i].scope != CONTROL_OPT_SUPER)
			attrs |= opts[i].attr_set;
	int fsfd = fsopen(fstype, FSOPEN_CLOEXEC);
	if (fsfd < 0) {
		c->failed = "fsopen";
		c->errnum = errno;
		return;
	}
	if (configure(fsfd, dev, opts, n, c) == 0) {
		int mfd = fsmount(fsfd, FSMOUNT_CLOEXEC, attrs);
		if (mfd < 0) {
			c->failed = "fsmount";
			c->errnum = errno;
		} else {
			attach(mfd, mp, c);
			close(mfd);
		}
	}
	control_fs_context_log(fsfd, r, c->msg, sizeof c->msg);
	close(fsfd);
}

/* What the kernel shows now, as the sampler's diff will say it ("SOURCE TYPE SUPER_OPTS",
 * so its echo is dropped), the per-mount flags in the result.  -1 on ENOMEM. */
static int read_back(struct event *ev, int mnt_id)
{
	struct control_mount m;
	struct error err;
	if (control_mount_find(NULL, mnt_id, NULL, &m, &err) < 0)
		return event_set_result(ev, "ok (not read back: %s)", err.msg);
	if (event_set_new_value(ev, "%s %s %s", m.source, m.fstype, m.super_opts) < 0)
		return -1;
	return event_set_result(ev, "ok; mount options %s", m.mount_opts);
}

/* The mount is made (or refused) whatever its event says: out of memory for the event's
 * texts, the result says so and fails. */
static int event_incomplete(struct control_result *r, const struct event *ev)
{
	control_result_line(r, "out of memory: the event of %s %s is incomplete", ev->object,
			    ev->key);
	return r->status = 1;
}

int control_mount_new(const char *name, const char *fstype, struct control_mountpoint *mp,
		      const char *options, struct control_result *r, struct error *err)
{
	struct control_mount_opt opts[CONTROL_MAX_ITEMS];
	size_t n = 0;
	if (!control_name_valid(name))
		return error_set(err, "'%s' is not a device name", name);
	if (mp->mnt_id >= 0)
		return error_set(err, "%s: already mounted on", mp->path);
	if (strcmp(mp->path, "/") == 0)
		return error_set(err, "/: the root directory is not covered by a fresh filesystem");
	if (!no_options(options) &&
	    control_mount_opts_parse(opts, CONTROL_MAX_ITEMS, &n, options, "", err) < 0)
		return -1;
	char dev[64];
	snprintf(dev, sizeof dev, "/dev/%s", name);
	struct mount_call c = { .msg = "" };
	struct control_kmsg k;
	control_kmsg_begin(&k);
	mount_now(dev, fstype, mp, opts, n, r, &c);
	char kmsg[256];
	control_kmsg_end(&k, name, fstype, r, kmsg, sizeof kmsg);
	if (c.errnum && !c.msg[0])
		snprintf(c.msg, sizeof c.msg, "%s", kmsg[0] ? kmsg : strerror(c.errnum));
	struct event *ev = control_result_event(r, EVENT_MOUNT_ADDED, mp->path, "mount");
	bool incomplete = ev && event_set_new_value(ev, "%s %s %s", dev, fstype,
						    no_options(options) ? "defaults" : options) < 0;
	if (!c.errnum) {
		control_result_line(r, "mounted %s on %s (%s)", dev, mp->path,
				    no_options(options) ? "defaults" : options);
		if (incomplete || (ev && read_back(ev, mp->mnt_id) < 0))
			return event_incomplete(r, ev);
		return r->status = 0;
	}
	control_result_line(r, "refused: %s (%s: %s)", c.msg, c.failed, strerror(c.errnum));
	if (incomplete || (ev && event_set_result(ev, "refused: %s", c.msg) < 0))
		event_incomplete(r, ev);
	return r->status = 1;
}

int control_drop_caches(const struct control_mountpoint *mp, struct error *err)
{
	static const char path[] = "/proc/sys/vm/drop_caches";
	/* a descriptor of the mount's own root: syncfs refuses an O_PATH one */
	int fs = openat(control_mountpoint_cwd(mp), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fs < 0)
		return error_errno(err, mp->path, errno);
	int synced = syncfs(fs) == 0 ? 0 : error_errno(err, mp->path, errno);
	close(fs);
	if (synced < 0)
		return -1;
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(err, path, errno);
	int rc = write(fd, "3", 1) == 1 ? 0 : error_errno(err, path, errno);
	close(fd);
	return rc;
}
