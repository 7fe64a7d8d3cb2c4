/* remount.c - changing mount and filesystem options without dropping any other one.
 *
 * mount(2) with MS_REMOUNT replaces the whole set: whatever the call does not repeat
 * (nosuid, nodev, lazytime, the atime mode) is dropped.  The new mount API changes
 * only what is named: fspick + fsconfig(SET_*) + fsconfig(CMD_RECONFIGURE) for the
 * filesystem, mount_setattr for the per-mount flags.  Every fsconfig set must
 * succeed before RECONFIGURE is issued, because RECONFIGURE would otherwise apply
 * the rest and silently skip the refused one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "dirpath.h"

int control_mount_root_id(int fd, const char *path, int *id, struct error *err)
{
	struct statx stx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0)
		return error_errno(err, path, errno);
	if ((stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	    !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return error_set(err, "%s: not a mount point", path);
	*id = (int)stx.stx_mnt_id;
	return 0;
}

/* The mount root at real, opened without following a final symlink; its mount id. */
static int open_mount(const char *real, int *id, struct error *err)
{
	int fd = open(real, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error_errno(err, real, errno);
	if (control_mount_root_id(fd, real, id, err) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int control_plan_remount(struct control_plan *p, const char *mountpoint, const char *options,
			 struct error *err)
{
	memset(p, 0, sizeof *p);
	p->target = CONTROL_MOUNT;
	if (!mountpoint[0])
		return error_errno(err, "(empty mount point)", ENOENT);
	/* opened a component at a time: a symlink another user planted on the way would turn
	 * root's remount onto another filesystem (docs/security.md) */
	int fd = dirpath_open(mountpoint, err);
	if (fd < 0)
		return -1;
	int id;
	int rc = control_mount_root_id(fd, mountpoint, &id, err);
	close(fd);
	if (rc < 0)
		return -1;
	if (control_mount_find(NULL, id, NULL, &p->mount, err) < 0)
		return -1;
	if (control_mount_opts_parse(p->opts, CONTROL_MAX_ITEMS, &p->nopts, options,
				     p->mount.super_opts, err) < 0)
		return -1;
	control_risks_mount(p);
	return 0;
}

void control_fs_context_log(int fsfd, struct control_result *r, char *msg, size_t len)
{
	char buf[1024];
	ssize_t n;
	while ((n = read(fsfd, buf, sizeof buf - 1)) > 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		const char *text = n > 2 && buf[1] == ' ' ? buf + 2 : buf;
		control_result_line(r, "kernel: %s", text);
		if (!msg[0] && buf[0] == 'e')
			snprintf(msg, len, "%s", text);
	}
}

static int fs_set(int fsfd, const struct control_mount_opt *o)
{
	if (o->has_value)
		return fsconfig(fsfd, FSCONFIG_SET_STRING, o->key, o->value, 0);
	return fsconfig(fsfd, FSCONFIG_SET_FLAG, o->key, NULL, 0);
}

struct remount_call {
	char msg[256];      /* the kernel's words when it refused */
	int errnum;         /* 0: no refusal */
	const char *failed; /* the option or step refused */
	bool reconfigured;
};

static bool has_scope(const struct control_plan *p, enum control_opt_scope a,
		      enum control_opt_scope b)
{
	for (size_t i = 0; i < p->nopts; i++)
		if (p->opts[i].scope == a || p->opts[i].scope == b)
			return true;
	return false;
}

static void reconfigure(const struct control_plan *p, int fd, struct control_result *r,
			struct remount_call *c)
{
	int fsfd = fspick(fd, "", FSPICK_EMPTY_PATH | FSPICK_CLOEXEC | FSPICK_NO_AUTOMOUNT);
	if (fsfd < 0) {
		c->errnum = errno;
		c->failed = "fspick";
		return;
	}
	for (size_t i = 0; i < p->nopts && !c->errnum; i++) {
		const struct control_mount_opt *o = &p->opts[i];
		if (o->scope == CONTROL_OPT_MOUNT || fs_set(fsfd, o) == 0)
			continue;
		c->errnum = errno;
		c->failed = o->text;
	}
	if (!c->errnum) {
		if (fsconfig(fsfd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0) == 0) {
			c->reconfigured = true;
		} else {
			c->errnum = errno;
			c->failed = "reconfigure";
		}
	}
	control_fs_context_log(fsfd, r, c->msg, sizeof c->msg);
	close(fsfd);
}

static void set_mount_attrs(const struct control_plan *p, int fd, struct remount_call *c)
{
	struct mount_attr attr = { 0 };
	for (size_t i = 0; i < p->nopts; i++) {
		if (p->opts[i].scope == CONTROL_OPT_SUPER)
			continue;
		attr.attr_set |= p->opts[i].attr_set;
		attr.attr_clr |= p->opts[i].attr_clr;
	}
	if (mount_setattr(fd, "", AT_EMPTY_PATH, &attr, sizeof attr) < 0) {
		c->errnum = errno;
		c->failed = "mount_setattr";
	}
}

static void appendf(char *buf, size_t len, const char *sep, const char *text)
{
	size_t used = strlen(buf);
	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s%s", used ? sep : "", text);
}

/* "ok", "accepted, not applied: logbsize=256k", or both, for the options of one column. */
static bool column_result(const struct control_plan *p, const struct control_mount *after,
			  bool super, char *buf, size_t len)
{
	char done[256] = "", ignored[256] = "";
	for (size_t i = 0; i < p->nopts; i++) {
		const struct control_mount_opt *o = &p->opts[i];
		if (o->scope != CONTROL_OPT_BOTH && (o->scope == CONTROL_OPT_SUPER) != super)
			continue;
		enum control_verdict v =
			control_mount_opt_verdict(o, p->mount.fstype, &p->mount, after);
		appendf(v == CONTROL_NOT_APPLIED ? ignored : done, 256, ",", o->text);
	}
	if (!ignored[0])
		snprintf(buf, len, "ok");
	else if (!done[0])
		snprintf(buf, len, "accepted, not applied: %s", ignored);
	else
		snprintf(buf, len, "ok: %s; accepted, not applied: %s", done, ignored);
	return ignored[0] == '\0';
}

static struct event *add_event(struct control_result *r, const struct control_plan *p,
			       const char *key, const char *before, const char *after,
			       const char *result)
{
	struct event *ev = control_result_event(r, EVENT_MOUNT_OPTIONS, p->mount.mountpoint, key);
	if (!ev)
		return NULL;
	event_set_old_value(ev, "%s", before);
	event_set_new_value(ev, "%s", after);
	event_set_result(ev, "%s", result);
	return ev;
}

/* The options of one column (or of both: super < 0) as tried, each with its sign, as a
 * label says them: "+nobarrier +commit=30 -discard". */
static void tried_text(const struct control_plan *p, int super, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < p->nopts; i++) {
		const struct control_mount_opt *o = &p->opts[i];
		if (super >= 0 && o->scope != CONTROL_OPT_BOTH &&
		    (o->scope == CONTROL_OPT_SUPER) != (super == 1))
			continue;
		size_t used = strlen(buf);
		if (used + 1 < len)
			snprintf(buf + used, len - used, "%s%s%s", used ? " " : "",
				 o->text[0] == '+' || o->text[0] == '-' ? "" : "+", o->text);
	}
}

/* "refused: +nobarrier: xfs: Unknown parameter 'nobarrier' (reconfigure: Invalid
 * argument); nothing was changed": what was tried, then the kernel's words (the event's
 * label says both: event_label()). */
static void refusal(const struct control_plan *p, const struct remount_call *c, int super,
		    char *buf, size_t len)
{
	char tried[192];
	tried_text(p, super, tried, sizeof tried);
	snprintf(buf, len, "refused: %s: %s%s(%s: %s)%s", tried, c->msg, c->msg[0] ? " " : "",
		 c->failed, strerror(c->errnum), c->reconfigured ? "" : "; nothing was changed");
}

/* What one column of a remount makes of its event: whether it has one, its result. */
struct column {
	bool want, refused;
	const char *was, *now;
	char text[256];
};

static void column_event(const struct control_plan *p, const struct control_mount *after,
			 const struct remount_call *c, int super, struct column *col,
			 struct control_result *r)
{
	const struct control_mount *b = &p->mount;
	col->want = col->refused = false;
	col->was = super ? b->super_opts : b->mount_opts;
	col->now = super ? after->super_opts : after->mount_opts;
	col->text[0] = '\0';
	if (!has_scope(p, super ? CONTROL_OPT_SUPER : CONTROL_OPT_MOUNT, CONTROL_OPT_BOTH))
		return;
	/* the filesystem reconfigured, the per-mount flags refused */
	if (c->errnum && !super) {
		refusal(p, c, 0, col->text, sizeof col->text);
		col->refused = true;
	} else if (!column_result(p, after, super, col->text, sizeof col->text)) {
		if (!c->errnum)
			r->status = 1;
	} else if (strcmp(col->was, col->now) == 0) {
		return;   /* options already so: no change, no event (issue 41 item 3) */
	}
	col->want = true;
}

/* The result of a remount of both columns: "ok", or each column's when they differ. */
static void combined_result(const struct column *flags, const struct column *fs, char *buf,
			    size_t len)
{
	if (strcmp(flags->text, fs->text) == 0)
		snprintf(buf, len, "%s", flags->text);
	else
		snprintf(buf, len, "mount flags %s; fs options %s", flags->text, fs->text);
}

static void report(const struct control_plan *p, const struct control_mount *after,
		   const struct remount_call *c, struct control_result *r)
{
	const struct control_mount *b = &p->mount;
	control_result_line(r, "%s (%s on %s):", b->mountpoint, b->fstype, b->source);
	control_result_line(r, "  mount options: %s -> %s", b->mount_opts, after->mount_opts);
	control_result_line(r, "  fs options:    %s -> %s", b->super_opts, after->super_opts);
	char text[256];
	if (c->errnum) {
		refusal(p, c, -1, text, sizeof text);
		control_result_line(r, "  %s", text);
		r->status = 1;
	}
	for (size_t i = 0; i < p->nopts && !c->errnum; i++) {
		enum control_verdict v =
			control_mount_opt_verdict(&p->opts[i], b->fstype, b, after);
		control_result_line(r, "  %s: %s", p->opts[i].text, control_verdict_text(v));
	}
	bool supers = has_scope(p, CONTROL_OPT_SUPER, CONTROL_OPT_BOTH);
	if (c->errnum && !c->reconfigured) {
		/* nothing was changed: one refusal, one event, with every option tried */
		int super = supers ? 1 : 0;
		add_event(r, p, super ? "super_opts" : "mount_opts",
			  super ? b->super_opts : b->mount_opts,
			  super ? after->super_opts : after->mount_opts, text);
		return;
	}
	struct column col[2];
	for (int super = 0; super <= 1; super++)
		column_event(p, after, c, super, &col[super], r);
	if (col[0].want && col[1].want && !col[0].refused) {
		/* one remount, one event (issue 41): the fs options' change is its reset */
		combined_result(&col[0], &col[1], text, sizeof text);
		struct event *ev = add_event(r, p, "mount_opts", col[0].was, col[0].now, text);
		if (ev)
			event_add_options_reset(ev, "super_opts", col[1].was, col[1].now);
		return;
	}
	for (int super = 0; super <= 1; super++)
		if (col[super].want)
			add_event(r, p, super ? "super_opts" : "mount_opts", col[super].was,
				  col[super].now, col[super].text);
}

static const char *device_of(const struct control_mount *m)
{
	const char *slash = strrchr(m->source, '/');
	return slash ? slash + 1 : m->source;
}

int control_apply_remount(const struct control_plan *p, struct control_result *r)
{
	struct error err = { "" };
	int id = -1;
	int fd = open_mount(p->mount.mountpoint, &id, &err);
	if (fd >= 0 && id != p->mount.id) {
		error_set(&err, "%s: a different filesystem is mounted there now",
			  p->mount.mountpoint);
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		control_result_line(r, "%s", err.msg);
		r->status = 1;
		return 1;
	}
	struct remount_call c = { .msg = "" };
	size_t kernel_lines = r->nlines;
	struct control_kmsg k;
	control_kmsg_begin(&k);
	if (has_scope(p, CONTROL_OPT_SUPER, CONTROL_OPT_BOTH))
		reconfigure(p, fd, r, &c);
	if (!c.errnum && has_scope(p, CONTROL_OPT_MOUNT, CONTROL_OPT_BOTH))
		set_mount_attrs(p, fd, &c);
	close(fd);
	char kmsg[256];
	control_kmsg_end(&k, device_of(&p->mount), p->mount.fstype, r, kmsg, sizeof kmsg);
	if (c.errnum && !c.msg[0] && kmsg[0])
		snprintf(c.msg, sizeof c.msg, "%s", kmsg);

	struct control_mount after;
	if (control_mount_find(NULL, p->mount.id, NULL, &after, &err) < 0) {
		control_result_line(r, "%s", err.msg);
		r->status = 1;
		return 1;
	}
	size_t kernel_end = r->nlines;
	report(p, &after, &c, r);
	control_result_lines_to_end(r, kernel_lines, kernel_end);
	return r->status;
}
