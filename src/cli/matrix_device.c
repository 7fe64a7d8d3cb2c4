/* matrix_device.c - the device of `ioscope matrix`: checked, saved, changed per run
 * through the control module, and put back as it was found. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "announce.h"
#include "control_experiment.h"
#include "dirpath.h"
#include "matrix_ctx.h"
#include "session_log.h"
#include "text.h"

static void mark_event(struct matrix_ctx *m, enum matrix_state state, const char *step,
		       const char *text)
{
	struct event ev;
	event_own(&ev, EVENT_RUN, "matrix", step);
	event_set_new_value(&ev, "%s", text);
	event_set_scope(&ev, "%s", m->name);   /* another session's disk: not its event */
	struct matrix_status where;
	matrix_status_of(m, state, &where);
	char progress[EVENT_RESULT_MAX];
	matrix_status_format(&where, progress, sizeof progress);
	event_set_result(&ev, "%s", progress);
	struct error err = { "" };
	if (m->session && session_add_own_event(m->session, &ev, &err) < 0)
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
	announce_events(&session_log_announce_codec, &ev, 1);   /* a console watching meanwhile marks the step too */
	event_free(&ev);
}

void matrix_mark(struct matrix_ctx *m, const char *step, const char *fmt, ...)
{
	char text[MOUNT_OPTS_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	mark_event(m, MATRIX_RUNNING, step, text);
}

void matrix_mark_end(struct matrix_ctx *m)
{
	char text[MOUNT_OPTS_MAX];
	bool stopped = m->stop_signal || m->failed;
	if (stopped)
		snprintf(text, sizeof text, "%s", m->r->status[0] ? m->r->status : "interrupted");
	else
		snprintf(text, sizeof text, "done: %zu run%s", m->runs_done,
			 m->runs_done == 1 ? "" : "s");
	mark_event(m, stopped ? MATRIX_INTERRUPTED : MATRIX_DONE, "end", text);
}

void matrix_control_pending(struct matrix_ctx *m, const struct control_plan *p)
{
	struct control_pending pending;
	control_pending_of(p, &pending);
	session_announce_pending(m->session, &session_log_announce_codec, pending.events, pending.n);
	control_pending_free(&pending);
}

/* After its events, what p's writes did not make (not attempted after a refusal): no
 * longer held here nor in the instances watching. */
static void withdraw_unmade(struct matrix_ctx *m, const struct control_plan *p,
			    const struct control_result *r)
{
	struct control_pending pending;
	control_pending_of(p, &pending);
	control_pending_unanswered(&pending, r);
	session_announce_withdrawn(m->session, &session_log_announce_codec, pending.events,
				   pending.n);
	control_pending_free(&pending);
}

void matrix_control_events(struct matrix_ctx *m, const struct control_result *r)
{
	struct error err = { "" };
	for (size_t i = 0; i < r->nevents; i++)
		if (session_add_own_event(m->session, &r->events[i], &err) < 0)
			text_printf(stderr, "ioscope matrix: %s\n", err.msg);
	/* as `ioscope set` does: running instances log these changes as ioscope's */
	announce_events(&session_log_announce_codec, r->events, r->nevents);
}

static void save_iosched(struct matrix_ctx *m, struct control_dev *d)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "/sys/block/%s/queue/iosched", m->name);
	DIR *dir = opendir(path);
	struct dirent *e;
	while (dir && (e = readdir(dir)) && m->before.niosched < MATRIX_IOSCHED_MAX) {
		char rel[PATH_MAX], v[32];
		struct error err;
		if (e->d_name[0] == '.' || strlen(e->d_name) >= SETTING_KEY_MAX - 8)
			continue;
		snprintf(rel, sizeof rel, "queue/iosched/%s", e->d_name);
		if (control_dev_read(d, rel, v, sizeof v, &err) < 0 || !v[0] ||
		    strspn(v, "0123456789") != strlen(v))
			continue;
		size_t i = m->before.niosched++;
		snprintf(m->before.iosched_keys[i], SETTING_KEY_MAX, "iosched.%s", e->d_name);
		snprintf(m->before.iosched_values[i], 32, "%s", v);
	}
	if (dir)
		closedir(dir);
}

int matrix_device_save(struct matrix_ctx *m, struct error *err)
{
	struct control_dev d;
	char line[256];
	if (control_dev_open(&d, NULL, m->name, err) < 0)
		return -1;
	/* a bio-based device: no scheduler, no nr_requests, nothing to switch or put back */
	m->before.no_scheduler = !control_dev_exists(&d, "queue/scheduler");
	snprintf(m->before.sched, sizeof m->before.sched, "none");
	snprintf(m->before.nr_requests, sizeof m->before.nr_requests, "-");
	int rc = m->before.no_scheduler ? 0
					: control_dev_read(&d, "queue/scheduler", line, sizeof line, err);
	if (rc == 0 && !m->before.no_scheduler) {
		char names[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME];
		int cur = -1;
		control_scheduler_names(line, names, CONTROL_SCHED_MAX, &cur);
		snprintf(m->before.sched, sizeof m->before.sched, "%s", cur >= 0 ? names[cur] : "none");
		rc = control_dev_read(&d, "queue/nr_requests", m->before.nr_requests,
				      sizeof m->before.nr_requests, err);
	}
	if (rc == 0)
		save_iosched(m, &d);
	char ra[32] = "", wc[32] = "";
	struct error ignored;
	control_dev_read(&d, "queue/read_ahead_kb", ra, sizeof ra, &ignored);
	control_dev_read(&d, "queue/write_cache", wc, sizeof wc, &ignored);
	snprintf(m->r->tunables, sizeof m->r->tunables,
		 "scheduler=%s nr_requests=%s read_ahead_kb=%s write_cache=%s", m->before.sched,
		 m->before.nr_requests, ra, wc);
	control_dev_close(&d);
	return rc;
}

static bool sched_offered(const char *line, const char *want)
{
	char names[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME];
	int cur;
	size_t n = control_scheduler_names(line, names, CONTROL_SCHED_MAX, &cur);
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], want) == 0)
			return true;
	return false;
}

/* Every scheduler is offered and every option set parses, before anything changes.  A
 * bio-based device (zram, dm, md) has no scheduler to switch: only its mount options. */
static int check_plan(struct matrix_ctx *m, struct error *err)
{
	struct control_dev d;
	char line[256] = "";
	if (control_dev_open(&d, NULL, m->name, err) < 0)
		return -1;
	bool bio_based = !control_dev_exists(&d, "queue/scheduler");
	int rc = bio_based ? 0 : control_dev_read(&d, "queue/scheduler", line, sizeof line, err);
	control_dev_close(&d);
	if (bio_based && m->o->nscheds)
		rc = error_set(err, "%s has no I/O scheduler (a bio-based device): leave out "
			       "--schedulers", m->name);
	for (size_t i = 0; rc == 0 && i < m->o->nscheds; i++)
		if (!sched_offered(line, m->o->scheds[i]))
			rc = error_set(err, "%s does not offer the scheduler %s (it has: %s)",
				       m->name, m->o->scheds[i], line);
	for (size_t i = 0; rc == 0 && i < m->o->noptsets; i++) {
		struct control_mount_opt opts[CONTROL_MAX_ITEMS];
		size_t n;
		if (strcmp(m->o->optsets[i], "defaults") != 0 &&
		    control_mount_opts_parse(opts, CONTROL_MAX_ITEMS, &n, m->o->optsets[i], "", err) < 0)
			rc = -1;
	}
	return rc;
}

/* The block device a path leads to, reached as --mount is (dirpath_open_node): a symlink
 * root does not own on the way is refused, not followed to the device its owner picked. */
static int node_name(const char *path, char *name, size_t len, struct error *err)
{
	int fd = dirpath_open_node(path, err);
	if (fd < 0)
		return -1;
	struct stat st;
	int rc = fstat(fd, &st) < 0 ? error_errno(err, path, errno) : 0;
	close(fd);
	if (rc == 0 && !S_ISBLK(st.st_mode))
		rc = error_set(err, "%s: not a block device", path);
	return rc < 0 ? -1 : control_block_name(st.st_rdev, name, len, err);
}

int matrix_device_resolve(const char *arg, bool whole, char *name, size_t len, struct error *err)
{
	char kname[DEV_NAME_MAX];
	bool part;
	if (arg[0] == '/' && node_name(arg, kname, sizeof kname, err) < 0)
		return -1;
	const char *given = arg[0] == '/' ? kname : arg;
	return whole ? control_device_resolve(NULL, given, name, len, err)
		     : control_block_resolve(NULL, given, name, len, &part, err);
}

/* --mkfs wipes the device and what it stands on: control_mkfs_check says whether it may,
 * naming the option the user gave (--fs makes filesystems the same way). */
static int check_mkfs(struct matrix_ctx *m, struct error *err)
{
	return control_mkfs_check(m->o->fs_given ? "--fs" : "--mkfs", m->name,
				  m->destroy_data_on[0] ? m->destroy_data_on : NULL, err);
}

/* Without --mkfs the filesystem at --mount must be on the device. */
static int check_mounted(struct matrix_ctx *m, struct error *err)
{
	char dev[DEV_NAME_MAX], disk[DEV_NAME_MAX];
	bool part;
	int id;
	if (control_mount_root_id(m->mount.dir, m->mount.path, &id, err) < 0 ||
	    control_mount_find(NULL, id, NULL, &m->before.mount, err) < 0)
		return -1;
	if (!control_mount_device(NULL, &m->before.mount, dev, sizeof dev) ||
	    control_disk_of(NULL, dev, disk, sizeof disk, &part) < 0 || strcmp(disk, m->name) != 0)
		return error_set(err, "%s is not a filesystem of %s (give --mkfs to make one)",
				 m->mount.path, m->name);
	m->before.mounted = true;
	return 0;
}

int matrix_device_checks(struct matrix_ctx *m, struct error *err)
{
	if (check_plan(m, err) < 0)
		return -1;
	return m->o->fs[0].mkfs ? check_mkfs(m, err) : check_mounted(m, err);
}

static int refuse(struct matrix_cell *c, const char *msg)
{
	snprintf(c->refused, sizeof c->refused, "%s", msg[0] ? msg : "refused");
	return 1;
}

/* The message of a refused control result: its first event's result without
 * "refused: ", else its last line. */
static const char *refusal_of(const struct control_result *r)
{
	for (size_t i = 0; i < r->nevents; i++) {
		const char *res = r->events[i].result;
		if (strncmp(res, "refused: ", 9) == 0)
			return res + 9;
		if (strncmp(res, "ok", 2) != 0 && res[0])
			return res;
	}
	return r->nlines ? r->lines[r->nlines - 1] : "refused";
}

static int apply_plan(struct matrix_ctx *m, struct matrix_cell *c, struct control_plan *p)
{
	struct control_result *res = malloc(sizeof *res);
	if (!res)
		return m->failed = true, -1;
	control_result_init(res);
	matrix_control_pending(m, p);
	int status = control_apply(p, res);
	matrix_control_events(m, res);
	withdraw_unmade(m, p, res);
	int rc = status ? refuse(c, refusal_of(res)) : 0;
	control_result_free(res);
	return rc;
}

void matrix_fs_found(struct matrix_fs *fs, const char *fstype)
{
	snprintf(fs->fstype, sizeof fs->fstype, "%s", fstype);
	if (!fs->name[0])
		snprintf(fs->name, sizeof fs->name, "%s", fstype);
}

/* The status, cut to its size when longer: the non-ASCII bytes at the cut go too, so no
 * character of a path in it is left half. */
static void set_status(struct matrix_ctx *m, const char *text)
{
	char *st = m->r->status;
	size_t n = (size_t)snprintf(st, sizeof m->r->status, "%s", text);
	if (n < sizeof m->r->status)
		return;
	for (n = strlen(st); n && (unsigned char)st[n - 1] >= 0x80; n--)
		st[n - 1] = '\0';
}

/* What the start checked before --mkfs, checked again before each mkfs and each mount:
 * while a run has the device mounted, anyone may attach a loop device to its image and
 * mount it, or mount the device elsewhere, and the kernel would let the next mkfs wipe
 * that filesystem under its users.  0, or -1: the matrix stops, m->failed. */
static int check_again(struct matrix_ctx *m, const char *step)
{
	struct error err = { "" };
	if (check_mkfs(m, &err) == 0)
		return 0;
	char why[sizeof err.msg + 128];
	snprintf(why, sizeof why, "stopped before the %s of cell %zu repeat %zu: %s", step,
		 m->cell + 1, m->repeat + 1, err.msg);
	text_printf(stderr, "ioscope matrix: %s\n", why);
	matrix_mark(m, "failed", "%s", why);
	set_status(m, why);
	return m->failed = true, -1;
}

static int fresh_filesystem(struct matrix_ctx *m, struct matrix_cell *c)
{
	struct error err = { "" };
	struct matrix_fs *fs = &m->r->fs[c->fs];
	const char *mkfs = m->o->fs[c->fs].mkfs;
	char fstype[sizeof fs->fstype];
	if (check_again(m, "mkfs") < 0)
		return -1;
	matrix_mark(m, "mkfs", "%s /dev/%s", mkfs, m->name);
	if (control_mkfs(mkfs, m->name, &err) < 0 ||
	    control_fstype(m->name, fstype, sizeof fstype, &err) < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		matrix_mark(m, "failed", "%s", err.msg);
		return m->failed = true, -1;
	}
	matrix_fs_found(fs, fstype);
	if (check_again(m, "mount") < 0)
		return -1;
	struct control_result *res = malloc(sizeof *res);
	if (!res)
		return m->failed = true, -1;
	control_result_init(res);
	int rc = control_mount_new(m->name, fs->fstype, &m->mount, c->options, res, &err);
	if (rc == 0)
		m->mounted_by_us = true;
	matrix_control_events(m, res);
	if (rc > 0)
		rc = refuse(c, refusal_of(res));
	else if (rc < 0)
		rc = refuse(c, err.msg);
	control_result_free(res);
	return rc;
}

/* A remount of the filesystem checked at the start, found again by its path: that path
 * may lead elsewhere now (a directory on it renamed), and then it is refused. */
static int plan_remount(struct matrix_ctx *m, struct control_plan *p, const char *options,
			struct error *err)
{
	if (control_plan_remount(p, m->mount.path, options, err) < 0)
		return -1;
	if (p->mount.id != m->before.mount.id)
		return error_set(err, "%s: a different filesystem is mounted there now",
				 m->mount.path);
	return 0;
}

static int remount(struct matrix_ctx *m, struct matrix_cell *c)
{
	if (strcmp(c->options, "defaults") == 0 || (m->remounted && strcmp(m->remounted, c->options) == 0))
		return 0;
	struct control_plan *p = malloc(sizeof *p);
	if (!p)
		return m->failed = true, -1;
	struct error err = { "" };
	int rc;
	if (plan_remount(m, p, c->options, &err) < 0) {
		matrix_mark(m, "refused", "remount %s: %s", c->options, err.msg);
		rc = refuse(c, err.msg);
	} else {
		rc = apply_plan(m, c, p);
		m->remounted = c->options;   /* a part may have been applied: undone after */
	}
	free(p);
	return rc;
}

int matrix_step_filesystem(struct matrix_ctx *m, struct matrix_cell *c)
{
	return m->o->fs[c->fs].mkfs ? fresh_filesystem(m, c) : remount(m, c);
}

int matrix_step_scheduler(struct matrix_ctx *m, struct matrix_cell *c)
{
	if (m->before.no_scheduler)
		return 0;
	char assign[64];
	snprintf(assign, sizeof assign, "scheduler=%s", c->sched);
	char *args[] = { assign };
	struct control_plan *p = malloc(sizeof *p);
	if (!p)
		return m->failed = true, -1;
	struct error err = { "" };
	int rc = control_plan_device(p, NULL, m->name, args, 1, &err) < 0 ? refuse(c, err.msg)
									   : apply_plan(m, c, p);
	free(p);
	return rc;
}

int matrix_step_cache(struct matrix_ctx *m, struct matrix_cell *c)
{
	if (c->cache != MATRIX_COLD)
		return 0;
	struct error err = { "" };
	if (control_drop_caches(&m->mount, &err) < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		return m->failed = true, -1;
	}
	matrix_mark(m, "drop_caches", "page cache, dentries and inodes dropped");
	return 0;
}

/* The unmount as a mount removed by ioscope, and a sample that sees it gone: the next
 * run's fresh mount is then a mount in its log, not a remount of this one. */
static void unmounted(struct matrix_ctx *m)
{
	struct event ev;
	event_own(&ev, EVENT_MOUNT_REMOVED, m->mount.path, "mount");
	event_set_old_value(&ev, "/dev/%s", m->name);
	event_set_result(&ev, "ok");
	struct error err = { "" };
	if (session_add_own_event(m->session, &ev, &err) < 0)
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
	announce_events(&session_log_announce_codec, &ev, 1);
	event_free(&ev);
	matrix_exec_sample(m);
}

/* The command's processes are gone by now (child_stop); one outside it may still use
 * the filesystem: detached then, said, and the device stays in use until it lets go. */
static int unmount_busy(struct matrix_ctx *m, const struct error *busy)
{
	struct error err = { "" };
	if (control_umount_detach(&m->mount, &err) < 0)
		return -1;
	text_printf(stderr, "ioscope matrix: %s: detached instead (MNT_DETACH); /dev/%s stays in "
		    "use until the processes using it let go\n", busy->msg, m->name);
	m->mounted_by_us = false;
	matrix_mark(m, "umount", "%s (detached: busy)", m->mount.path);
	unmounted(m);
	return 0;
}

int matrix_step_unmount(struct matrix_ctx *m)
{
	if (!m->mounted_by_us)
		return 0;
	struct error err = { "" };
	bool refused = control_umount(&m->mount, &err) < 0;
	if (refused && unmount_busy(m, &err) < 0) {
		text_printf(stderr, "ioscope matrix: %s\n", err.msg);
		matrix_mark(m, "failed", "umount: %s", err.msg);
		return m->failed = true, -1;
	}
	if (!refused) {
		m->mounted_by_us = false;
		matrix_mark(m, "umount", "%s", m->mount.path);
		unmounted(m);
	}
	return 0;
}

/* One token back as the filesystem had it: its old value, or its undo (-opt). */
static size_t undo_token(const struct matrix_ctx *m, const struct control_mount_opt *o, char *out,
			 size_t len, size_t used)
{
	char value[256];
	const char *sep = used ? "," : "";
	const struct control_mount *b = &m->before.mount;
	if (control_opts_find(b->super_opts, o->key, value, sizeof value) ||
	    control_opts_find(b->mount_opts, o->key, value, sizeof value))
		return text_appendf(out, len, used, "%s%s%s%s", sep, o->key, value[0] ? "=" : "",
				    value);
	if (o->has_value)
		return used;   /* a value the filesystem did not show: its default, unknown */
	const char *t = o->text[0] == '+' ? o->text + 1 : o->text;
	if (t[0] == '-')
		return text_appendf(out, len, used, "%s%s", sep, t + 1);
	return text_appendf(out, len, used, "%s-%s", sep, t);
}

void matrix_options_undo(struct matrix_ctx *m)
{
	if (!m->remounted)
		return;
	struct control_mount_opt opts[CONTROL_MAX_ITEMS];
	size_t n = 0, used = 0;
	char back[MOUNT_OPTS_MAX] = "";
	struct error err = { "" };
	control_mount_opts_parse(opts, CONTROL_MAX_ITEMS, &n, m->remounted, m->before.mount.super_opts,
				 &err);
	for (size_t i = 0; i < n; i++)
		used = undo_token(m, &opts[i], back, sizeof back, used);
	m->remounted = NULL;
	struct control_plan *p = malloc(sizeof *p);
	struct matrix_cell scratch;
	if (p && used && plan_remount(m, p, back, &err) == 0)
		apply_plan(m, &scratch, p);
	else if (used)
		text_printf(stderr, "ioscope matrix: could not put back %s: %s\n", back, err.msg);
	free(p);
}

static void restore_queue(struct matrix_ctx *m)
{
	char items[2 + MATRIX_IOSCHED_MAX][SETTING_KEY_MAX + 40];
	char *args[2 + MATRIX_IOSCHED_MAX];
	size_t n = 0;
	if (m->before.no_scheduler)
		return;   /* nothing was switched */
	snprintf(items[n++], sizeof items[0], "scheduler=%s", m->before.sched);
	snprintf(items[n++], sizeof items[0], "nr_requests=%s", m->before.nr_requests);
	for (size_t i = 0; i < m->before.niosched; i++)
		snprintf(items[n++], sizeof items[0], "%s=%s", m->before.iosched_keys[i],
			 m->before.iosched_values[i]);
	for (size_t i = 0; i < n; i++)
		args[i] = items[i];
	struct control_plan *p = malloc(sizeof *p);
	struct matrix_cell scratch;
	struct error err = { "" };
	if (!p)
		return;
	/* the tunables only when the kernel takes them all; the scheduler always */
	if (control_plan_device(p, NULL, m->name, args, n > CONTROL_MAX_ITEMS ? CONTROL_MAX_ITEMS : n,
				&err) == 0 ||
	    control_plan_device(p, NULL, m->name, args, 1, &err) == 0) {
		if (apply_plan(m, &scratch, p) != 0)
			text_printf(stderr, "ioscope matrix: putting back %s: %s\n", m->name,
				    scratch.refused);
	} else {
		text_printf(stderr, "ioscope matrix: cannot put back %s: %s\n", m->name, err.msg);
	}
	free(p);
}

void matrix_device_restore(struct matrix_ctx *m)
{
	bool failed = m->failed;
	matrix_options_undo(m);
	matrix_step_unmount(m);
	restore_queue(m);
	m->failed = failed;
}
