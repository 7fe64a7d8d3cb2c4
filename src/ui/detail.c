/* detail.c - the selected device in full: identity, rotational, write cache, the
 * scheduler line as the kernel prints it, queue and iosched tunables, the bdi's dirty
 * limits, a loop device's own settings and what it is backed by, and each filesystem
 * mounted from it with its type, mount flags and filesystem options. */
#include <stdio.h>
#include <string.h>

#include "pane.h"

/* Writes wrapped "key value" items into a rect, line by line; measuring, it only counts
 * where they would go (detail_rows). */
struct pane_writer {
	const struct frame *f;
	const struct rect *r;
	int y, x;
	bool measure;
};

static bool room(const struct pane_writer *pw)
{
	return pw->y < pw->r->y + pw->r->h;
}

static void newline(struct pane_writer *pw)
{
	pw->y++;
	pw->x = pw->r->x + 1;
}

static void text(struct pane_writer *pw, enum theme_role role, const char *s)
{
	if (!room(pw))
		return;
	int end = pw->r->x + pw->r->w - 1;
	if (pw->measure) {
		int w = ui_text_width(s), left = end - pw->x > 0 ? end - pw->x : 0;
		pw->x += w < left ? w : left;
		return;
	}
	pw->x += ui_put(pw->y, pw->x, end - pw->x, ui_attr(&pw->f->style, role), s);
}

/* An item that moves to the next line (indented) rather than being cut. */
static void item(struct pane_writer *pw, const char *key, const char *value, int indent)
{
	int w = ui_text_width(key) + 1 + ui_text_width(value) + 2;
	int end = pw->r->x + pw->r->w - 1;
	if (pw->x + w > end && pw->x > pw->r->x + 1 + indent) {
		newline(pw);
		pw->x += indent;
	}
	text(pw, TR_HEADER, key);
	text(pw, TR_NORMAL, " ");
	text(pw, TR_HEADER_VALUE, value);
	text(pw, TR_NORMAL, "  ");
}

static void label(struct pane_writer *pw, const char *s, int width)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%-*s", width, s);
	text(pw, TR_TITLE, buf);
}

static const char *rotational_text(int r)
{
	return r < 0 ? "unknown" : r ? "yes" : "no";
}

/* The settings by where they come from (setting_group_of), each group on lines of its
 * own.  The write cache has its own item, and a loop device's file and direct I/O are in
 * its backing line. */
static void settings_line(struct pane_writer *pw, const struct device *d, enum setting_group g)
{
	static const char *const labels[SETTING_GROUPS] = { "queue", "iosched", "bdi", "loop" };
	const char *prefix = setting_group_prefix(g);
	bool any = false;
	for (size_t i = 0; i < d->settings.nitems; i++) {
		const struct setting *s = &d->settings.items[i];
		if (setting_group_of(s->key) != g || strcmp(s->key, "write_cache") == 0 ||
		    strcmp(s->key, "loop.backing_file") == 0 || strcmp(s->key, "loop.dio") == 0)
			continue;
		if (!any) {
			newline(pw);
			label(pw, labels[g], 10);
			any = true;
		}
		item(pw, s->key + strlen(prefix), s->value, 10);
	}
}

static bool mount_of(const struct snapshot *s, const struct mount *m, const struct device *d)
{
	if (!m->disk[0])
		return false;
	if (strcmp(m->disk, d->name) == 0)
		return true;
	if (d->is_partition)
		return false;
	const struct device *p = snapshot_find_device(s, m->disk);
	return p && p->is_partition && strcmp(p->parent, d->name) == 0;
}

/* The per-mount flags (mount(8) -o: rw,nosuid,relatime) and the superblock's options
 * (the filesystem's own: errors=, commit=, data=) are set and changed apart: say which. */
static void options_line(struct pane_writer *pw, const char *key, const char *opts,
			 enum theme_role role)
{
	char k[16];
	newline(pw);
	pw->x += 12;
	snprintf(k, sizeof k, "%-12s", key);
	text(pw, TR_HEADER, k);
	text(pw, role, opts);
}

/* One part of the backing's description: on this line when it fits, else on the
 * next, cut in the middle when it alone is too long (a long path). */
static void backing_part(struct pane_writer *pw, const char *part)
{
	char fitted[MOUNT_PATH_MAX * 2 + 128];
	int end = pw->r->x + pw->r->w - 1;
	if (pw->x + ui_text_width(part) > end && pw->x > pw->r->x + 11) {
		newline(pw);
		pw->x += 10;
	}
	ui_ellipsize_middle(&pw->f->style, part, end - pw->x, fitted, sizeof fitted);
	text(pw, TR_HEADER_VALUE, fitted);
	text(pw, TR_NORMAL, " ");
}

/* "FILE" then "on DISK (FSTYPE MOUNTPOINT)," "offset N," "direct I/O off": the
 * description (loop_backing_describe) cut after the file and at each ", ". */
static void backing_line(struct pane_writer *pw, const struct frame *f)
{
	char part[sizeof f->loop_backing];
	newline(pw);
	label(pw, "backing", 10);
	snprintf(part, sizeof part, "%.*s", (int)f->loop_file_len, f->loop_backing);
	if (part[0])
		backing_part(pw, part);
	const char *p = f->loop_backing + f->loop_file_len;
	while (*p == ' ')
		p++;
	while (*p && room(pw)) {
		const char *comma = strstr(p, ", ");
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		snprintf(part, sizeof part, "%.*s%s", (int)n, p, comma ? "," : "");
		backing_part(pw, part);
		p += comma ? n + 2 : n;
	}
}

static void mounts_lines(struct pane_writer *pw, const struct snapshot *s, const struct device *d)
{
	bool any = false;
	for (size_t i = 0; i < s->nmounts && room(pw); i++) {
		const struct mount *m = &s->mounts[i];
		if (!mount_of(s, m, d))
			continue;
		if (!any) {
			newline(pw);
			label(pw, "mounts", 10);
			any = true;
		} else {
			newline(pw);
			pw->x += 10;
		}
		text(pw, TR_HEADER, m->fstype);
		text(pw, TR_NORMAL, "  ");
		char where[MOUNT_PATH_MAX + 64];
		snprintf(where, sizeof where, "%s%s%s", m->mountpoint,
			 strcmp(m->disk, d->name) != 0 ? " on " : "", strcmp(m->disk, d->name) != 0 ? m->disk : "");
		char fitted[MOUNT_PATH_MAX + 64];
		ui_ellipsize_middle(&pw->f->style, where, pw->r->x + pw->r->w - 1 - pw->x, fitted, sizeof fitted);
		text(pw, TR_HEADER_VALUE, fitted);
		options_line(pw, "mount flags", m->mount_opts, TR_NORMAL);
		if (m->super_opts[0])
			options_line(pw, "fs options", m->super_opts, TR_DIM);
	}
	if (!any) {
		newline(pw);
		label(pw, "mounts", 10);
		text(pw, TR_DIM, "none");
	}
}

static void detail_body(struct pane_writer *pw, const struct snapshot *s, const struct device *d)
{
	/* a partition has no queue of its own: show its disk's */
	const struct device *q = d->is_partition ? snapshot_find_device(s, d->parent) : d;
	if (q && q->settings.has_settings) {
		const char *wc = device_setting(q, "write_cache");
		char inflight[64];
		if (q->settings.inflight_read >= 0)
			snprintf(inflight, sizeof inflight, "r %ld w %ld", q->settings.inflight_read,
				 q->settings.inflight_write);
		else
			snprintf(inflight, sizeof inflight, "-");
		newline(pw);
		item(pw, "rotational", rotational_text(q->settings.rotational), 0);
		item(pw, "write cache", wc ? wc : "-", 0);
		item(pw, "in flight", inflight, 0);
		newline(pw);
		label(pw, "scheduler", 10);
		text(pw, TR_HEADER_VALUE, q->settings.scheduler_line[0] ? q->settings.scheduler_line : "-");
		for (int g = 0; g < SETTING_GROUPS; g++)
			settings_line(pw, q, (enum setting_group)g);
	} else {
		newline(pw);
		text(pw, TR_DIM, "no queue settings known for this device");
	}
	if (pw->f->loop_backing[0])
		backing_line(pw, pw->f);
	mounts_lines(pw, s, d);
}

static void detail_draw(const struct frame *f, const struct rect *r)
{
	const struct snapshot *s = f->snap;
	const struct device *d = f->selected_dev;
	for (int y = r->y; y < r->y + r->h; y++)
		ui_fill(y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	char title[256], ident[256];
	if (!d) {
		ui_title(&f->style, r, "Detail", NULL);
		return;
	}
	snprintf(title, sizeof title, "%s (%u:%u)%s%s", d->name, d->major, d->minor,
		 d->is_partition ? " partition of " : "", d->is_partition ? d->parent : "");
	snprintf(ident, sizeof ident, "%s%s%s%s%s", d->dm_name[0] ? d->dm_name : "",
		 d->dm_name[0] && d->model[0] ? " " : "", d->model, d->serial[0] ? " sn " : "", d->serial);
	ui_title(&f->style, r, title, ident);
	struct pane_writer pw = { f, r, r->y, r->x + 1, false };
	detail_body(&pw, s, d);
}

/* The title row and the lines under it. */
static int detail_rows(const struct frame *f, int width)
{
	if (!f->selected_dev)
		return 1;
	struct rect r = { 0, 0, 1 << 16, width };
	struct pane_writer pw = { f, &r, 0, 1, true };
	detail_body(&pw, f->snap, f->selected_dev);
	return pw.y + 1;
}

const struct pane_def pane_detail = {
	.name = "detail",
	.slot = SLOT_DETAIL,
	.draw = detail_draw,
	.rows = detail_rows,
};
