/* queue_apply.c - writing a disk's settings, reading every one back, one event each.
 *
 * "Accepted" is not "applied": some drivers take a write and keep their value, the
 * kernel rounds read_ahead_kb to pages and clamps iosched values.  The event's new
 * value is always what the kernel shows afterwards, of the setting the sampler watches
 * (a bdi limit written in bytes or whole percent is the ratio it keeps).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "knobs.h"
#include "sysfs.h"

/* Every setting, as the sampler reads them (src/sources/sysfs.c): a write can change
 * others as a side effect - a scheduler switch resets some knobs (knobs.h, on_switch:
 * nr_requests, the iosched tunables, to or from bfq wbt_lat_usec), max_sectors_kb and
 * write_cache writes recompute read_ahead_kb. */
static void state_read(const struct control_dev *d, const char *root, struct disk_settings *s)
{
	struct sysfs_disk sd;
	memset(s, 0, sizeof *s);
	if (sysfs_disk_open(&sd, root, d->name, NULL) == 0)
		sysfs_disk_read(&sd, s, NULL);
	sysfs_disk_close(&sd);
}

static const char *state_get(const struct disk_settings *s, const char *key)
{
	for (size_t i = 0; i < s->nitems; i++)
		if (strcmp(s->items[i].key, key) == 0)
			return s->items[i].value;
	return NULL;
}

__attribute__((format(printf, 3, 4))) static void appendf(char *buf, size_t len, const char *fmt,
							  ...)
{
	size_t used = strlen(buf);
	if (used + 1 >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* One line per value that changed besides the one written, and the same list for
 * the event (cut short with "..." when it does not fit its 256 bytes). */
static void report_side_effects(const char *written, const char *watched, const char *verb,
				const struct disk_settings *before,
				const struct disk_settings *after, struct control_result *r,
				char *summary, size_t len)
{
	char list[2048] = "";
	for (size_t i = 0; i < before->nitems; i++) {
		const char *key = before->items[i].key, *was = before->items[i].value;
		const char *now = state_get(after, key);
		if (strcmp(key, written) == 0 || strcmp(key, watched) == 0 ||
		    (now && strcmp(now, was) == 0))
			continue;
		control_result_line(r, "  %s %s: %s -> %s", verb, key, was, now ? now : "(gone)");
		appendf(list, sizeof list, "%s%s %s -> %s", list[0] ? ", " : "", key, was,
			now ? now : "-");
	}
	for (size_t i = 0; i < after->nitems; i++) {
		const char *key = after->items[i].key;
		if (strcmp(key, written) == 0 || strcmp(key, watched) == 0 ||
		    state_get(before, key))
			continue;
		control_result_line(r, "  %s %s: (new) -> %s", verb, key, after->items[i].value);
		appendf(list, sizeof list, "%s%s - -> %s", list[0] ? ", " : "", key,
			after->items[i].value);
	}
	if (!list[0])
		return;
	size_t used = strlen(summary);
	if (used + 1 >= len)
		return;
	int n = snprintf(summary + used, len - used, "; %s: %s", verb, list);
	if (n >= (int)(len - used) && len > 4)
		strcpy(summary + len - 4, "...");
}

enum event_kind control_key_kind(const char *key)
{
	if (strcmp(key, "scheduler") == 0)
		return EVENT_SCHEDULER;
	if (strcmp(key, "write_cache") == 0)
		return EVENT_WRITE_CACHE;
	return EVENT_TUNABLE;
}

static int read_back(const struct control_dev *d, const char *key, const char *rel, char *buf,
		     size_t len)
{
	if (strcmp(key, "scheduler") != 0)
		return control_dev_read(d, rel, buf, len, NULL);
	char line[SCHED_LINE_MAX], names[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME];
	int cur;
	if (control_dev_read(d, rel, line, sizeof line, NULL) < 0)
		return -1;
	control_scheduler_names(line, names, CONTROL_SCHED_MAX, &cur);
	snprintf(buf, len, "%s", cur >= 0 ? names[cur] : "none");
	return 0;
}

/* The kernel says only EINVAL; say what it means for this key (its row's einval). */
static void refusal_text(const struct knob *k, const char *key, const char *value, int errnum,
			 const char *why, char *buf, size_t len)
{
	const char *hint = errnum == EINVAL && k && k->einval ? k->einval : "";
	if (errnum == EACCES || errnum == EPERM)
		hint = "; needs root";
	snprintf(buf, len, "refused: %s=%s: %s%s", key, value, why, hint);
}

/* A value that asks the kernel for its default, which reads back as a number. */
static bool to_default(const struct control_assign *a)
{
	const struct knob *k = knob_find(a->key);
	return k && k->default_value && strcmp(a->value, k->default_value) == 0;
}

/* bdi.max_bytes and min_bytes are kept as a ratio of the dirty limit of the moment:
 * they read back near what was written, never exactly, and move with memory. */
static bool in_bytes(const struct control_assign *a)
{
	const struct knob *k = knob_find(a->key);
	return k && k->read_back_near;
}

static void verdict_text(const struct control_assign *a, const char *now, char *buf, size_t len)
{
	if (to_default(a))
		snprintf(buf, len, "ok (%s: back to the default, %s)", a->value, now);
	else if (in_bytes(a))
		snprintf(buf, len, "ok (%s now; the dirty limit moves with memory)", now);
	else if (strcmp(now, a->value) == 0 && strcmp(now, a->old) == 0)
		snprintf(buf, len, "ok (unchanged: already %s)", now);
	else if (strcmp(now, a->value) == 0)
		snprintf(buf, len, "ok");
	else if (strcmp(now, a->old) == 0)
		snprintf(buf, len, "accepted, not applied (still %s)", now);
	else
		snprintf(buf, len, "accepted, applied as %s", now);
}

/* The change is made (or refused) whatever its event says: out of memory for the event's
 * texts, the result says so and fails, as a change it cannot vouch for. */
static void event_incomplete(struct control_result *r, const struct event *ev)
{
	control_result_line(r, "out of memory: the event of %s %s is incomplete", ev->object,
			    ev->key);
	r->status = 1;
}

static void fill_event(struct control_result *r, struct event *ev, const char *old,
		       const char *now, const char *result)
{
	if (ev && (event_set_old_value(ev, "%s", old) < 0 || event_set_new_value(ev, "%s", now) < 0 ||
		   event_set_result(ev, "%s", result) < 0))
		event_incomplete(r, ev);
}

/* The value just before the write: the plan's may be stale when someone else changed
 * it since (or when the scheduler this write follows reset it). */
static void current_value(const struct disk_settings *now, const struct control_assign *a,
			  struct control_assign *out)
{
	*out = *a;
	const char *v = strcmp(a->key, "scheduler") == 0 ? now->scheduler : state_get(now, a->key);
	if (v && *v)
		snprintf(out->old, sizeof out->old, "%s", v);
}

/* What one write left, to check it is still in effect after the last one. */
struct applied {
	char now[SETTING_VAL_MAX];   /* read back right after the write */
	size_t event;                /* index in r->events, or SIZE_MAX */
};

/* One write: the file, or the loop device's ioctl.  -1 with errno. */
static int write_setting(const struct control_dev *d, const char *root,
			 const struct control_assign *a, const char *rel, struct error *err)
{
	const struct knob *k = knob_find(a->key);
	if (k && k->write == KNOB_WRITE_LOOP_DIO)
		return control_loop_set_dio(d, root, a->value, err);
	return control_dev_write(d, rel, a->value, err);
}

/* " (bdi.max_ratio_fine 1000000 -> 500000)": the watched setting, when another was written. */
static void watched_change(const struct control_assign *a, const struct disk_settings *before,
			   const struct disk_settings *after, char *buf, size_t len)
{
	const char *was = state_get(before, a->watch), *now = state_get(after, a->watch);
	buf[0] = '\0';
	if (strcmp(a->watch, a->key) != 0 && (was || now))
		snprintf(buf, len, " (%s %s -> %s)", a->watch, was ? was : "-", now ? now : "-");
}

static int apply_one(const struct control_dev *d, const char *root,
		     const struct control_assign *planned, struct control_result *r,
		     struct applied *done)
{
	char rel[SETTING_KEY_MAX + 16], now[SETTING_VAL_MAX], summary[256], watched[192];
	struct error err = { "" };
	struct control_assign a;
	struct disk_settings before, after;
	state_read(d, root, &before);
	current_value(&before, planned, &a);
	knob_file(a.key, rel, sizeof rel);
	const struct knob *k = knob_find(a.key);
	struct event *ev = control_result_event(r, control_key_kind(a.key), d->name, a.watch);
	const char *watch_was = state_get(&before, a.watch);
	char event_old[SETTING_VAL_MAX];
	snprintf(event_old, sizeof event_old, "%s", watch_was ? watch_was : a.old);
	done->event = ev ? (size_t)(ev - r->events) : SIZE_MAX;
	done->now[0] = '\0';
	int wrote = write_setting(d, root, &a, rel, &err);
	/* the change is in effect when the write returns: a queue's nr_requests waits for
	 * its requests in flight first (half a second under a busy writer), and a sample
	 * taken meanwhile still shows the old value */
	if (ev)
		event_stamp(ev);
	if (wrote < 0) {
		/* a file's write says only errno; the ioctl's steps say which failed */
		int errnum = errno;
		refusal_text(k, a.key, a.value, errnum,
			     k && k->write == KNOB_WRITE_LOOP_DIO ? err.msg : strerror(errnum),
			     summary, sizeof summary);
		control_result_line(r, "%s %s: %s -> %s: %s", d->name, a.key, a.old, a.value,
				    summary);
		fill_event(r, ev, event_old, event_old, summary);
		free(before.items);
		return -1;
	}
	if (read_back(d, a.key, rel, now, sizeof now) < 0)
		snprintf(now, sizeof now, "?");
	verdict_text(&a, now, summary, sizeof summary);
	state_read(d, root, &after);
	watched_change(&a, &before, &after, watched, sizeof watched);
	control_result_line(r, "%s %s: %s -> %s: %s%s", d->name, a.key, a.old[0] ? a.old : "-",
			    now, summary, watched);
	bool applied = strcmp(now, a.value) == 0 || strcmp(now, a.old) != 0 || to_default(&a) ||
		       in_bytes(&a);
	/* what the last write's recheck compares: the watched setting */
	const char *watch_now = strcmp(a.watch, a.key) == 0 ? now : state_get(&after, a.watch);
	snprintf(done->now, sizeof done->now, "%s", watch_now ? watch_now : "");
	bool sched = strcmp(a.key, "scheduler") == 0;
	char verdict[sizeof summary];
	snprintf(verdict, sizeof verdict, "%s", summary);
	report_side_effects(a.key, a.watch, sched ? "reset" : "also changed", &before, &after, r,
			    summary, sizeof summary);
	/* the event carries what the write reset or also changed as its resets, not in its
	 * verdict again */
	fill_event(r, ev, event_old, watch_now ? watch_now : now, verdict);
	if (ev && ev->kind == EVENT_SCHEDULER)
		event_resets_between(ev, &before, &after);
	else if (ev)
		event_side_effects_between(ev, &before, &after);   /* their echo is this event's */
	/* the value already there, and nothing else changed: the line says "unchanged", and
	 * there is no event, no mark "kyber → kyber" (issue 41 item 3) */
	if (ev && applied && strcmp(now, a.old) == 0 && strcmp(ev->old_value, ev->new_value) == 0 &&
	    !ev->nresets && !ev->resets_dropped) {
		event_free(&r->events[--r->nevents]);   /* ev, the last one made */
		done->event = SIZE_MAX;
	}
	free(before.items);
	free(after.items);
	return applied ? 0 : -1;
}

/* After the last write, every key written is read again (the setting it changed, for a
 * bdi limit the ratio): a later write may have undone an earlier one (a kernel whose side
 * effects the plan's order does not know).  What is not in effect is reported not
 * applied, and its event says so. */
static void recheck_all(const struct control_dev *d, const struct control_plan *p,
			const struct applied *done, size_t n, struct control_result *r)
{
	char rel[SETTING_KEY_MAX + 16], now[SETTING_VAL_MAX], why[256];
	for (size_t i = 0; i < n; i++) {
		const struct control_assign *a = &p->items[i];
		knob_file(a->watch, rel, sizeof rel);
		if (!done[i].now[0] || read_back(d, a->watch, rel, now, sizeof now) < 0 ||
		    strcmp(now, done[i].now) == 0)
			continue;
		snprintf(why, sizeof why, "not applied: %s after the last write (a later write "
			 "changed it from %s)", now, done[i].now);
		control_result_line(r, "%s %s: %s", d->name, a->key, why);
		r->status = 1;
		if (done[i].event == SIZE_MAX)
			continue;
		struct event *ev = &r->events[done[i].event];
		if (event_set_new_value(ev, "%s", now) < 0 || event_set_result(ev, "%s", why) < 0)
			event_incomplete(r, ev);
	}
}

int control_apply_device(const struct control_plan *p, struct control_result *r)
{
	struct control_dev d;
	struct error err = { "" };
	struct applied done[CONTROL_MAX_ITEMS];
	if (control_dev_open(&d, p->root, p->device, &err) < 0) {
		control_result_line(r, "%s", err.msg);
		r->status = 1;
		return 1;
	}
	size_t attempted = 0;
	for (size_t i = 0; i < p->nitems; i++) {
		attempted = i + 1;
		if (apply_one(&d, p->root, &p->items[i], r, &done[i]) == 0)
			continue;
		r->status = 1;
		for (size_t j = i + 1; j < p->nitems; j++)
			control_result_line(r, "%s %s=%s: not attempted", d.name, p->items[j].key,
					    p->items[j].value);
		break;
	}
	recheck_all(&d, p, done, attempted, r);
	control_dev_close(&d);
	return r->status;
}
