/* apply.c - control_apply, and a one-line description of a plan for prompts and the console. */
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "text.h"

int control_apply(const struct control_plan *p, struct control_result *r)
{
	control_result_init(r);
	if (p->target == CONTROL_DEVICE)
		return control_apply_device(p, r);
	return control_apply_remount(p, r);
}

void control_pending_of(const struct control_plan *p, struct control_pending *out)
{
	out->n = 0;
	size_t count = p->target == CONTROL_DEVICE ? p->nitems : 1;
	for (size_t i = 0; i < count && i < CONTROL_MAX_ITEMS; i++) {
		struct event *ev = &out->events[out->n++];
		if (p->target == CONTROL_DEVICE) {
			/* the event's object is the setting the sampler watches (a bdi limit in
			 * bytes is the event of its fine ratio), as control_apply's is */
			event_own(ev, control_key_kind(p->items[i].key), p->device,
				  p->items[i].watch[0] ? p->items[i].watch : p->items[i].key);
			event_set_new_value(ev, "%s", p->items[i].value);
		} else {
			event_own(ev, EVENT_MOUNT_OPTIONS, p->mount.mountpoint, "mount_opts");
		}
	}
}

void control_pending_free(struct control_pending *pending)
{
	for (size_t i = 0; i < pending->n; i++)
		event_free(&pending->events[i]);
	pending->n = 0;
}

static bool answered(const struct event *pending, const struct control_result *r)
{
	for (size_t i = 0; i < r->nevents; i++)
		if (event_answers(&r->events[i], pending->kind, pending->object, pending->key))
			return true;
	return false;
}

void control_pending_unanswered(struct control_pending *pending, const struct control_result *r)
{
	size_t kept = 0;
	for (size_t i = 0; i < pending->n; i++) {
		if (answered(&pending->events[i], r))
			event_free(&pending->events[i]);
		else
			pending->events[kept++] = pending->events[i];   /* moved */
	}
	pending->n = kept;
}

void control_plan_describe(const struct control_plan *p, char *buf, size_t len)
{
	size_t used;
	if (p->target == CONTROL_DEVICE)
		used = text_appendf(buf, len, 0, "%s:", p->device);
	else
		used = text_appendf(buf, len, 0, "remount %s:", p->mount.mountpoint);
	size_t count = p->target == CONTROL_DEVICE ? p->nitems : p->nopts;
	for (size_t i = 0; i < count; i++) {
		if (p->target == CONTROL_DEVICE)
			used = text_appendf(buf, len, used, " %s=%s", p->items[i].key,
					    p->items[i].value);
		else
			used = text_appendf(buf, len, used, "%s%s", i ? "," : " ",
					    p->opts[i].text);
	}
}
