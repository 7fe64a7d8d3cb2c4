/* queue_apply.c - writing queue settings, reading every one back, one event each.
 *
 * "Accepted" is not "applied": some drivers take a write and keep their value, the
 * kernel rounds read_ahead_kb to pages and clamps iosched values.  The event's new
 * value is always what the kernel shows afterwards.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

/* Every writable queue value a write can change as a side effect: a scheduler switch
 * resets nr_requests and the iosched tunables, a max_sectors_kb write recomputes
 * read_ahead_kb. */
struct queue_state {
	struct setting items[48];
	size_t n;
};

static void state_add(const struct control_dev *d, struct queue_state *s, const char *key, const char *rel)
{
	if (s->n == sizeof s->items / sizeof s->items[0])
		return;
	struct setting *it = &s->items[s->n];
	snprintf(it->key, sizeof it->key, "%s", key);
	if (control_dev_read(d, rel, it->value, sizeof it->value, NULL) == 0)
		s->n++;
}

static int compare_settings(const void *a, const void *b)
{
	return strcmp(((const struct setting *)a)->key, ((const struct setting *)b)->key);
}

static void state_read(const struct control_dev *d, struct queue_state *s)
{
	static const char *const plain[] = { "nr_requests", "read_ahead_kb", "max_sectors_kb", "write_cache" };
	s->n = 0;
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		char rel[64];
		snprintf(rel, sizeof rel, "queue/%s", plain[i]);
		state_add(d, s, plain[i], rel);
	}
	DIR *dir = control_dev_opendir(d, "queue/iosched");
	struct dirent *e;
	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= SETTING_KEY_MAX - 8)
			continue;
		char key[SETTING_KEY_MAX + 8], rel[SETTING_KEY_MAX + 16];
		snprintf(key, sizeof key, "iosched.%s", e->d_name);
		snprintf(rel, sizeof rel, "queue/iosched/%s", e->d_name);
		state_add(d, s, key, rel);
	}
	if (dir)
		closedir(dir);
	qsort(s->items, s->n, sizeof s->items[0], compare_settings);
}

static const char *state_get(const struct queue_state *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].key, key) == 0)
			return s->items[i].value;
	return NULL;
}

__attribute__((format(printf, 3, 4)))
static void appendf(char *buf, size_t len, const char *fmt, ...)
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
static void report_side_effects(const char *written, const char *verb, const struct queue_state *before,
				const struct queue_state *after, struct control_result *r, char *summary,
				size_t len)
{
	char list[2048] = "";
	for (size_t i = 0; i < before->n; i++) {
		const char *key = before->items[i].key, *was = before->items[i].value;
		const char *now = state_get(after, key);
		if (strcmp(key, written) == 0 || (now && strcmp(now, was) == 0))
			continue;
		control_result_line(r, "  %s %s: %s -> %s", verb, key, was, now ? now : "(gone)");
		appendf(list, sizeof list, "%s%s %s -> %s", list[0] ? ", " : "", key, was, now ? now : "-");
	}
	for (size_t i = 0; i < after->n; i++) {
		const char *key = after->items[i].key;
		if (strcmp(key, written) == 0 || state_get(before, key))
			continue;
		control_result_line(r, "  %s %s: (new) -> %s", verb, key, after->items[i].value);
		appendf(list, sizeof list, "%s%s - -> %s", list[0] ? ", " : "", key, after->items[i].value);
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

static enum event_kind kind_of(const char *key)
{
	if (strcmp(key, "scheduler") == 0)
		return EVENT_SCHEDULER;
	if (strcmp(key, "write_cache") == 0)
		return EVENT_WRITE_CACHE;
	return EVENT_TUNABLE;
}

static int read_back(const struct control_dev *d, const char *key, const char *rel, char *buf, size_t len)
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

/* The kernel says only EINVAL; say what it means for this key. */
static void refusal_text(const char *key, const char *value, int errnum, char *buf, size_t len)
{
	const char *hint = "";
	if (errnum == EINVAL && strcmp(key, "nr_requests") == 0)
		hint = "; allowed: 4..queue depth with none, 4..2048 with a scheduler";
	else if (errnum == EINVAL && strcmp(key, "max_sectors_kb") == 0)
		hint = "; allowed: page size..max_hw_sectors_kb, 0 = default";
	else if (errnum == EINVAL && strncmp(key, "iosched.", 8) == 0)
		hint = "; out of range for this scheduler";
	else if (errnum == EACCES || errnum == EPERM)
		hint = "; needs root";
	snprintf(buf, len, "refused: %s=%s: %s%s", key, value, strerror(errnum), hint);
}

static void verdict_text(const struct control_assign *a, const char *now, char *buf, size_t len)
{
	if (strcmp(a->key, "max_sectors_kb") == 0 && strcmp(a->value, "0") == 0)
		snprintf(buf, len, "ok (0: back to the default, %s)", now);
	else if (strcmp(now, a->value) == 0)
		snprintf(buf, len, strcmp(now, a->old) == 0 ? "ok (unchanged: already %s)" : "ok", now);
	else if (strcmp(now, a->old) == 0)
		snprintf(buf, len, "accepted, not applied (still %s)", now);
	else
		snprintf(buf, len, "accepted, applied as %s", now);
}

static int apply_one(const struct control_dev *d, const struct control_assign *a, struct control_result *r)
{
	char rel[SETTING_KEY_MAX + 16], now[SETTING_VAL_MAX], summary[256];
	struct error err = { "" };
	bool sched = strcmp(a->key, "scheduler") == 0;
	struct queue_state before, after;
	if (strncmp(a->key, "iosched.", 8) == 0)
		snprintf(rel, sizeof rel, "queue/iosched/%s", a->key + 8);
	else
		snprintf(rel, sizeof rel, "queue/%s", a->key);
	state_read(d, &before);

	struct event *ev = control_result_event(r, kind_of(a->key), d->name, a->key);
	if (control_dev_write(d, rel, a->value, &err) < 0) {
		int errnum = errno;
		char msg[256];
		refusal_text(a->key, a->value, errnum, msg, sizeof msg);
		control_result_line(r, "%s %s: %s -> %s: %s", d->name, a->key, a->old, a->value, msg);
		if (ev) {
			snprintf(ev->old_value, sizeof ev->old_value, "%s", a->old);
			snprintf(ev->new_value, sizeof ev->new_value, "%s", a->old);
			snprintf(ev->result, sizeof ev->result, "%s", msg);
		}
		return -1;
	}
	if (read_back(d, a->key, rel, now, sizeof now) < 0)
		snprintf(now, sizeof now, "?");
	verdict_text(a, now, summary, sizeof summary);
	control_result_line(r, "%s %s: %s -> %s: %s", d->name, a->key, a->old[0] ? a->old : "-", now, summary);
	bool applied = strcmp(now, a->value) == 0 || strcmp(now, a->old) != 0 ||
		       (strcmp(a->key, "max_sectors_kb") == 0 && strcmp(a->value, "0") == 0);
	state_read(d, &after);
	report_side_effects(a->key, sched ? "reset" : "also changed", &before, &after, r, summary,
			    sizeof summary);
	if (ev) {
		snprintf(ev->old_value, sizeof ev->old_value, "%s", a->old);
		snprintf(ev->new_value, sizeof ev->new_value, "%s", now);
		snprintf(ev->result, sizeof ev->result, "%s", summary);
	}
	return applied ? 0 : -1;
}

int control_apply_device(const struct control_plan *p, struct control_result *r)
{
	struct control_dev d;
	struct error err = { "" };
	if (control_dev_open(&d, p->root, p->device, &err) < 0) {
		control_result_line(r, "%s", err.msg);
		r->status = 1;
		return 1;
	}
	for (size_t i = 0; i < p->nitems; i++) {
		if (apply_one(&d, &p->items[i], r) == 0)
			continue;
		r->status = 1;
		for (size_t j = i + 1; j < p->nitems; j++)
			control_result_line(r, "%s %s=%s: not attempted", d.name, p->items[j].key,
					    p->items[j].value);
		break;
	}
	control_dev_close(&d);
	return r->status;
}
