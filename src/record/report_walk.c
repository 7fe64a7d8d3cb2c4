/* report_walk.c - what every report format shares: the intervals of the chosen
 * samples with their rates, the chosen devices, the events, the mark labels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "text.h"

int report_walk(struct report *rep, report_interval_fn fn, void *ctx, struct error *err)
{
	struct snapshot prev, cur;
	struct rates rates;
	snapshot_init(&prev);
	snapshot_init(&cur);
	rates_init(&rates);
	bool have_prev = false;
	int rc = 0;
	for (size_t i = rep->first; i <= rep->last && rc == 0; i++) {
		struct error skip;
		if (replay_read(rep->replay, i, &cur, &skip) < 0) {
			text_printf(stderr, "ioscope: warning: %s\n", skip.msg);
			continue;
		}
		if (have_prev) {
			if (rates_compute(&rates, &prev, &cur) < 0) {
				rc = error_set(err, "out of memory");
				break;
			}
			struct report_interval iv = { .sample = i, .cur = &cur, .rates = &rates };
			rc = fn(ctx, &iv);
		}
		snapshot_swap(&prev, &cur);
		have_prev = true;
	}
	rates_free(&rates);
	snapshot_free(&prev);
	snapshot_free(&cur);
	return rc;
}

int report_device_index(const struct report *rep, const char *name)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (strcmp(rep->devices[i], name) == 0)
			return (int)i;
	return -1;
}

bool report_device_wanted(const struct report *rep, const char *name)
{
	return report_device_index(rep, name) >= 0;
}

void report_event(const struct report *rep, size_t k, struct replay_event *out)
{
	replay_event_get(rep->replay, rep->events[k], out);
}

/* The disk a mount point sat on in sample i (a partition's whole disk), "" unknown. */
static void mount_disk(struct report *rep, size_t i, const char *mountpoint, char *disk, size_t len)
{
	struct snapshot s;
	struct error err;
	snapshot_init(&s);
	disk[0] = '\0';
	if (replay_read(rep->replay, i, &s, &err) == 0)
		for (size_t k = 0; k < s.nmounts && !disk[0]; k++) {
			if (strcmp(s.mounts[k].mountpoint, mountpoint) != 0)
				continue;
			const struct device *d = snapshot_find_device(&s, s.mounts[k].disk);
			snprintf(disk, len, "%s", d && d->parent[0] ? d->parent : s.mounts[k].disk);
		}
	snapshot_free(&s);
}

static bool event_concerns_report(struct report *rep, const struct replay_event *ev)
{
	const struct event *e = &ev->event;
	char disk[DEV_NAME_MAX];
	switch (e->kind) {
	case EVENT_USER_MARK:
	case EVENT_CLOCK_BACK:   /* why every figure of its interval is missing */
		return true;
	case EVENT_MOUNT_OPTIONS:
	case EVENT_MOUNT_ADDED:
	case EVENT_MOUNT_REMOVED:
		/* where it is mounted now, or (removed) where it was before */
		mount_disk(rep, ev->sample, e->object, disk, sizeof disk);
		if (!disk[0] && ev->sample > 0)
			mount_disk(rep, ev->sample - 1, e->object, disk, sizeof disk);
		return !disk[0] || report_device_wanted(rep, disk);
	default:
		return report_device_wanted(rep, e->object);
	}
}

/* A change ioscope made is logged when it is made and seen again by the next
 * sample's diff: the report keeps the first (it carries the result). */
static bool seen_already(const struct report *rep, const struct replay_event *ev,
			 struct replay_event *k)
{
	if (!ev->derivable)
		return false;
	for (size_t i = rep->nevents; i-- > 0;) {
		report_event(rep, i, k);
		if (k->sample + 1 < ev->sample)
			break;
		if (!k->derivable && event_echoes(&ev->event, &k->event))
			return true;
	}
	return false;
}

/* rep->events holds indices into the replay's compact events, not decoded ones. */
int report_choose_events(struct report *rep, struct error *err)
{
	size_t from = replay_event_after(rep->replay, rep->first);
	size_t to = replay_event_after(rep->replay, rep->last + 1);
	struct replay_event *ev = malloc(2 * sizeof *ev);
	rep->events = calloc(to - from + 1, sizeof *rep->events);
	if (!rep->events || !ev) {
		free(ev);
		return error_set(err, "out of memory");
	}
	for (size_t i = from; i < to; i++) {
		replay_event_get(rep->replay, i, &ev[0]);
		if (event_concerns_report(rep, &ev[0]) && !seen_already(rep, &ev[0], &ev[1]))
			rep->events[rep->nevents++] = i;
	}
	free(ev);
	return 0;
}

/* Device settings: "sched loop0 mq-deadline→bfq", "loop0 nr_requests 64→128";
 * mounts: "remount /home +barrier"; the rest label themselves. */
void report_mark_label(const struct event *ev, char *buf, size_t len)
{
	char label[MOUNT_OPTS_MAX + 64];
	event_label(ev, label, sizeof label);
	const char *space = strchr(label, ' ');
	switch (ev->kind) {
	case EVENT_SCHEDULER:
	case EVENT_MOUNT_OPTIONS:
		if (space) {
			snprintf(buf, len, "%.*s %s%s", (int)(space - label), label, ev->object, space);
			break;
		}
		/* fall through */
	case EVENT_TUNABLE:
	case EVENT_WRITE_CACHE:
		snprintf(buf, len, "%s %s", ev->object, label);
		break;
	case EVENT_USER_MARK:
		snprintf(buf, len, "mark: %s", label);
		break;
	default:
		snprintf(buf, len, "%s", label);
		break;
	}
	if (ev->result[0] && strlen(buf) + 3 < len)
		snprintf(buf + strlen(buf), len - strlen(buf), " (%s)", ev->result);
}
