/* control_actions.c - the keys that change settings of the selected device: what each
 * dialog offers, from the latest sample.  Validation, privilege, risks and the change
 * itself belong to the control module; the dialog walks through them. */
#include <stdio.h>
#include <string.h>

#include "control_ui.h"
#include "knobs.h"

/* The whole disk of the selected row, from the latest sample; NULL with a message. */
static const struct device *selected_disk(struct console *c)
{
	const struct device *sel = console_selected_device(c);
	if (!sel) {
		console_message(c, true, "no device selected");
		return NULL;
	}
	const char *name = sel->is_partition ? sel->parent : sel->name;
	const struct device *d = snapshot_find_device(console_latest(c), name);
	if (!d || !d->settings.has_settings) {
		console_message(c, true, "%s has no queue settings", name);
		return NULL;
	}
	return d;
}

static void open_dialog(struct console *c, struct control_dialog *d)
{
	if (!d) {
		console_message(c, true, "out of memory");
		return;
	}
	if (control_dialog_open(c, d) < 0)
		console_message(c, true, "too many dialogs open");
}

void action_scheduler(struct console *c)
{
	const struct device *dev = selected_disk(c);
	if (!dev)
		return;
	char names[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME], title[128];
	int cur;
	size_t n = control_scheduler_names(dev->settings.scheduler_line, names, CONTROL_SCHED_MAX,
					   &cur);
	if (n == 0) {
		console_message(c, true, "%s lists no schedulers", dev->name);
		return;
	}
	snprintf(title, sizeof title, "Scheduler of %s", dev->name);
	struct control_dialog *d =
		control_dialog_new(CD_SCHEDULER, c->opts->root, dev->name, title);
	for (size_t i = 0; d && i < n; i++) {
		char label[64];
		snprintf(label, sizeof label, "%s %s", (int)i == cur ? "*" : " ", names[i]);
		control_dialog_add_item(d, label, names[i], NULL);
	}
	if (d && cur >= 0)
		d->current = (size_t)cur;
	open_dialog(c, d);
}

void action_tunables(struct console *c)
{
	const struct device *dev = selected_disk(c);
	if (!dev)
		return;
	char title[128];
	snprintf(title, sizeof title, "Tunables of %s (%s)", dev->name, dev->settings.scheduler);
	struct control_dialog *d = control_dialog_new(CD_TUNABLE, c->opts->root, dev->name, title);
	/* what `set` can write, in the order of the knob table; the scheduler and the write
	 * cache are chosen from a list, each on a key of its own */
	for (size_t n = 0; d && n < knob_count; n++) {
		const struct knob *k = &knob_table[n];
		if (k->write == KNOB_READ_ONLY || k->value == KNOB_ELEVATOR ||
		    k->value == KNOB_CACHE_MODE)
			continue;
		for (size_t i = 0; i < dev->settings.nitems; i++) {
			const struct setting *s = &dev->settings.items[i];
			if (knob_find(s->key) != k)
				continue;
			char label[128];
			snprintf(label, sizeof label, "%-28s %s", s->key, s->value);
			control_dialog_add_item(d, label, s->key, s->value);
		}
	}
	open_dialog(c, d);
}

void action_write_cache(struct console *c)
{
	const struct device *dev = selected_disk(c);
	if (!dev)
		return;
	const char *now = device_setting(dev, "write_cache");
	if (!now) {
		console_message(c, true, "%s has no write_cache setting", dev->name);
		return;
	}
	char title[128];
	snprintf(title, sizeof title, "Write cache of %s", dev->name);
	struct control_dialog *d =
		control_dialog_new(CD_WRITE_CACHE, c->opts->root, dev->name, title);
	static const char *const modes[] = { "write back", "write through" };
	for (size_t i = 0; d && i < 2; i++) {
		char label[64];
		snprintf(label, sizeof label, "%s %s", strcmp(now, modes[i]) == 0 ? "*" : " ",
			 modes[i]);
		control_dialog_add_item(d, label, modes[i], NULL);
		if (strcmp(now, modes[i]) == 0)
			d->current = i;
	}
	open_dialog(c, d);
}

static bool on_disk(const struct console *c, const struct mount *m, const char *disk)
{
	if (strcmp(m->disk, disk) == 0)
		return true;
	const struct device *p = snapshot_find_device(console_latest(c), m->disk);
	return p && p->is_partition && strcmp(p->parent, disk) == 0;
}

void action_mount_options(struct console *c)
{
	const struct device *dev = selected_disk(c);
	if (!dev)
		return;
	const struct mount *only = NULL;
	size_t count = 0;
	for (size_t i = 0; i < console_latest(c)->nmounts; i++)
		if (on_disk(c, &console_latest(c)->mounts[i], dev->name)) {
			only = &console_latest(c)->mounts[i];
			count++;
		}
	if (count == 0) {
		console_message(c, true, "no filesystem of %s is mounted", dev->name);
		return;
	}
	char title[128];
	snprintf(title, sizeof title, "Filesystems on %s", dev->name);
	struct control_dialog *d = control_dialog_new(CD_MOUNT, c->opts->root, dev->name, title);
	for (size_t i = 0; d && i < console_latest(c)->nmounts; i++) {
		const struct mount *m = &console_latest(c)->mounts[i];
		if (!on_disk(c, m, dev->name))
			continue;
		char label[128];
		snprintf(label, sizeof label, "%-40s %s", m->mountpoint, m->fstype);
		control_dialog_add_item(d, label, m->mountpoint, m->fstype);
	}
	if (d && count == 1)
		control_dialog_edit_mount(d, only->mountpoint, only->fstype, only->mount_opts,
					  only->super_opts);
	open_dialog(c, d);
}
