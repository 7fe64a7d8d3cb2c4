/* frame_query.c - questions panes ask about a frame: which device a mark is about,
 * and whether the table's limits (DEVICE arguments, a filter) let it be shown. */
#include <stdio.h>
#include <string.h>

#include "pane.h"
#include "selection.h"

static bool is_mount_event(enum event_kind k)
{
	return k == EVENT_MOUNT_OPTIONS || k == EVENT_MOUNT_ADDED || k == EVENT_MOUNT_REMOVED;
}

/* "/dev/loop3 ext4 rw" -> "loop3" */
static void device_of_mount_value(const char *value, char *out, size_t len)
{
	size_t n = strcspn(value, " ");
	const char *start = value;
	if (n > 5 && strncmp(value, "/dev/", 5) == 0) {
		start += 5;
		n -= 5;
	}
	snprintf(out, len, "%.*s", (int)n, start);
}

void frame_mark_device(const struct frame *f, const struct history_mark *m, char *out, size_t len)
{
	out[0] = '\0';
	if (selection_kind_concerns_all(m->kind) && m->scope[0]) {
		snprintf(out, len, "%s", m->scope);
		return;
	}
	if (m->kind == EVENT_USER_MARK)
		return;
	if (!is_mount_event(m->kind)) {
		snprintf(out, len, "%s", m->object);
		return;
	}
	const struct snapshot *s = f->snap;
	for (size_t i = 0; i < s->nmounts; i++)
		if (strcmp(s->mounts[i].mountpoint, m->object) == 0 && s->mounts[i].disk[0]) {
			snprintf(out, len, "%s", s->mounts[i].disk);
			return;
		}
	device_of_mount_value(m->new_value[0] ? m->new_value : m->old_value, out, len);
}

/* Whoever made a change (ioscope from a shell, another console), it is shown when its
 * device is, as batch output and a replay show it. */
bool frame_mark_shown(const struct frame *f, const struct history_mark *m)
{
	if (!f->limited || (selection_kind_concerns_all(m->kind) && !m->scope[0]))
		return true;
	char dev[MOUNT_PATH_MAX];
	frame_mark_device(f, m, dev, sizeof dev);
	for (size_t i = 0; i < f->nrows; i++)
		if (strcmp(f->rows[i].dev->name, dev) == 0)
			return true;
	return false;
}

/* Marks are numbered as their session counted its events (history_mark_number), not by
 * their place: looked for, newest first (the one a selection mostly is). */
long frame_mark_index(const struct frame *f, uint64_t number)
{
	if (!number)
		return -1;
	for (size_t i = history_mark_count(f->hist); i > 0; i--) {
		if (history_mark_number(f->hist, i - 1) != number)
			continue;
		return frame_mark_shown(f, history_mark_get(f->hist, i - 1)) ? (long)(i - 1) : -1;
	}
	return -1;
}

size_t frame_mark_row(const struct frame *f, size_t i)
{
	size_t row = 0;
	for (size_t j = history_mark_count(f->hist); j > i + 1; j--)
		row += frame_mark_shown(f, history_mark_get(f->hist, j - 1));
	return row;
}

size_t frame_marks_shown(const struct frame *f)
{
	size_t shown = 0;
	for (size_t i = 0; i < history_mark_count(f->hist); i++)
		shown += frame_mark_shown(f, history_mark_get(f->hist, i));
	return shown;
}
