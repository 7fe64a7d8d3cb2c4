/* selection.c - the named devices, and which events concern them. */
#include <stdio.h>
#include <string.h>

#include "selection.h"

int selection_add(struct selection *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return 0;
	if (s->n == SOURCE_SELECTION_MAX)
		return -1;
	snprintf(s->names[s->n++], sizeof s->names[0], "%s", name);
	return 0;
}

static bool named(const struct selection *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return true;
	return false;
}

/* A named partition whose disk is `disk`. */
static bool names_partition_of(const struct selection *s, const struct snapshot *snap, const char *disk)
{
	for (size_t i = 0; snap && i < s->n; i++) {
		const struct device *d = snapshot_find_device(snap, s->names[i]);
		if (d && d->is_partition && strcmp(d->parent, disk) == 0)
			return true;
	}
	return false;
}

bool selection_covers_device(const struct selection *s, const struct snapshot *snap, const char *name)
{
	if (selection_all(s) || named(s, name))
		return true;
	const struct device *d = snap ? snapshot_find_device(snap, name) : NULL;
	if (d && d->is_partition)
		return named(s, d->parent);
	return names_partition_of(s, snap, name);
}

bool selection_kind_concerns_all(enum event_kind k)
{
	return k == EVENT_USER_MARK || k == EVENT_RUN || k == EVENT_CLOCK_BACK || k == EVENT_TRACE;
}

static bool is_mount_event(enum event_kind k)
{
	return k == EVENT_MOUNT_OPTIONS || k == EVENT_MOUNT_ADDED || k == EVENT_MOUNT_REMOVED;
}

/* "/dev/loop3 ext4 rw" or "/dev/loop3" -> "loop3"; "" when it is no /dev path. */
static void device_of_source(const char *value, char *out, size_t len)
{
	size_t n = strcspn(value, " ");
	out[0] = '\0';
	if (n > 5 && strncmp(value, "/dev/", 5) == 0)
		snprintf(out, len, "%.*s", (int)(n - 5), value + 5);
}

/* The device the filesystem mounted at mountpoint is on in snap ("" unknown). */
static void mount_device(const struct snapshot *snap, const char *mountpoint, char *out, size_t len)
{
	out[0] = '\0';
	for (size_t i = 0; snap && i < snap->nmounts; i++) {
		const struct mount *m = &snap->mounts[i];
		if (strcmp(m->mountpoint, mountpoint) != 0)
			continue;
		if (m->disk[0])
			snprintf(out, len, "%s", m->disk);
		else
			device_of_source(m->source, out, len);
	}
}

/* An event of every device's kind that says which device it is for: a matrix step, the
 * command a matrix runs, `ioscope mark --device`. */
static bool scoped(const struct event *ev)
{
	return selection_kind_concerns_all(ev->kind) && ev->scope[0];
}

void selection_event_device(const struct snapshot *at, const struct snapshot *before,
			    const struct event *ev, char *out, size_t len)
{
	out[0] = '\0';
	if (scoped(ev)) {
		snprintf(out, len, "%s", ev->scope);
		return;
	}
	if (selection_kind_concerns_all(ev->kind))
		return;
	if (!is_mount_event(ev->kind)) {
		snprintf(out, len, "%s", ev->object);
		return;
	}
	mount_device(at, ev->object, out, len);
	if (!out[0])
		mount_device(before, ev->object, out, len);
	if (!out[0])
		device_of_source(ev->new_value[0] ? ev->new_value : ev->old_value, out, len);
}

bool selection_covers_event(const struct selection *s, const struct snapshot *at,
			    const struct snapshot *before, const struct event *ev)
{
	if (selection_all(s) || (selection_kind_concerns_all(ev->kind) && !scoped(ev)))
		return true;
	if (scoped(ev))
		return selection_covers_device(s, at, ev->scope) ||
		       (before && selection_covers_device(s, before, ev->scope));
	if (!is_mount_event(ev->kind))
		return selection_covers_device(s, at, ev->object);
	char dev[DEV_NAME_MAX];
	selection_event_device(at, before, ev, dev, sizeof dev);
	return dev[0] && (selection_covers_device(s, at, dev) || selection_covers_device(s, before, dev));
}

bool selection_covers_logged(const struct selection *s, struct source *src, const struct replay_event *ev)
{
	if (selection_all(s) || (selection_kind_concerns_all(ev->event.kind) && !scoped(&ev->event)) ||
	    !src->ops->read_at)
		return true;
	struct snapshot at, before;
	struct error err;
	snapshot_init(&at);
	snapshot_init(&before);
	bool have_at = src->ops->read_at(src, ev->sample, &at, &err) == 0;
	bool have_before = ev->sample && src->ops->read_at(src, ev->sample - 1, &before, &err) == 0;
	bool yes = selection_covers_event(s, have_at ? &at : NULL, have_before ? &before : NULL, &ev->event);
	snapshot_free(&at);
	snapshot_free(&before);
	return yes;
}
