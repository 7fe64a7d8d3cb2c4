/* events.c - what changed between two snapshots, whoever changed it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "events.h"
#include "grow.h"
#include "knobs.h"
#include "rates.h"

/* ---- the payload: texts and resets in one block the event owns ---- */

enum event_text { TEXT_OBJECT, TEXT_OLD, TEXT_NEW, TEXT_RESULT, TEXT_REASONS, TEXT_SCOPE,
		  TEXT_COUNT };

static const size_t text_max[TEXT_COUNT] = {
	[TEXT_OBJECT] = EVENT_OBJECT_MAX, [TEXT_OLD] = EVENT_VALUE_MAX,
	[TEXT_NEW] = EVENT_VALUE_MAX, [TEXT_RESULT] = EVENT_RESULT_MAX,
	[TEXT_REASONS] = EVENT_REASONS_MAX, [TEXT_SCOPE] = DEV_NAME_MAX,
};

/* What goes into a payload: an event's parts, some of them replaced. */
struct event_parts {
	const char *text[TEXT_COUNT];
	const struct event_reset *resets;
	size_t nresets;
	const struct event_reset *extra;   /* one more reset after them, or NULL */
};

static struct event_parts parts_of(const struct event *ev)
{
	return (struct event_parts){
		.text = { ev->object, ev->old_value, ev->new_value, ev->result, ev->reasons,
			  ev->scope },
		.resets = ev->resets, .nresets = ev->nresets,
	};
}

static const char **text_field(struct event *ev, enum event_text t)
{
	const char **field[TEXT_COUNT] = { &ev->object, &ev->old_value, &ev->new_value,
					   &ev->result, &ev->reasons, &ev->scope };
	return field[t];
}

static size_t text_len(const struct event_parts *p, enum event_text t)
{
	return p->text[t] ? strnlen(p->text[t], text_max[t] - 1) : 0;
}

/* A new payload for ev from p (which may point into ev's old one, released after):
 * resets first (aligned as malloc aligns), then the texts that are not empty, each
 * cut to its maximum.  Nothing to hold: no block. */
static int pack(struct event *ev, const struct event_parts *p)
{
	size_t nresets = p->nresets + (p->extra != NULL), size = nresets * sizeof(struct event_reset);
	size_t len[TEXT_COUNT];
	for (int t = 0; t < TEXT_COUNT; t++) {
		len[t] = text_len(p, (enum event_text)t);
		size += len[t] ? len[t] + 1 : 0;
	}
	char *block = size ? malloc(size) : NULL;
	if (size && !block)
		return -1;
	struct event_reset *resets = (struct event_reset *)block;
	if (p->nresets)
		memcpy(resets, p->resets, p->nresets * sizeof *resets);
	if (p->extra)
		resets[p->nresets] = *p->extra;
	size_t at = nresets * sizeof *resets;
	for (int t = 0; t < TEXT_COUNT; t++) {
		*text_field(ev, (enum event_text)t) = len[t] ? block + at : "";
		if (!len[t])
			continue;
		memcpy(block + at, p->text[t], len[t]);
		block[at + len[t]] = '\0';
		at += len[t] + 1;
	}
	ev->resets = nresets ? resets : NULL;
	ev->nresets = nresets;
	free(ev->payload);
	ev->payload = block;
	return 0;
}

void event_init(struct event *ev)
{
	memset(ev, 0, sizeof *ev);
	for (int t = 0; t < TEXT_COUNT; t++)
		*text_field(ev, (enum event_text)t) = "";
}

void event_free(struct event *ev)
{
	free(ev->payload);
	event_init(ev);
}

int event_copy(struct event *dst, const struct event *src)
{
	struct event_parts p = parts_of(src);
	*dst = *src;
	dst->payload = NULL;   /* src's, not to be released by pack() */
	if (pack(dst, &p) == 0)
		return 0;
	event_init(dst);
	dst->wall = src->wall;
	dst->mono = src->mono;
	dst->kind = src->kind;
	memcpy(dst->key, src->key, sizeof dst->key);
	memcpy(dst->by, src->by, sizeof dst->by);
	return -1;
}

/* The texts are formatted first: an argument may be one of ev's own texts. */
static int set_text(struct event *ev, enum event_text t, const char *fmt, va_list ap)
{
	char text[EVENT_VALUE_MAX];   /* the largest of text_max */
	vsnprintf(text, text_max[t] < sizeof text ? text_max[t] : sizeof text, fmt, ap);
	struct event_parts p = parts_of(ev);
	p.text[t] = text;
	return pack(ev, &p);
}

/* One setter a text, each a printf of its own (the format attribute is in events.h). */
#define EVENT_TEXT_SETTER(name, text)                                  \
	int name(struct event *ev, const char *fmt, ...)               \
	{                                                              \
		va_list ap;                                            \
		va_start(ap, fmt);                                     \
		int rc = set_text(ev, text, fmt, ap);                  \
		va_end(ap);                                            \
		return rc;                                             \
	}
EVENT_TEXT_SETTER(event_set_object, TEXT_OBJECT)
EVENT_TEXT_SETTER(event_set_old_value, TEXT_OLD)
EVENT_TEXT_SETTER(event_set_new_value, TEXT_NEW)
EVENT_TEXT_SETTER(event_set_result, TEXT_RESULT)
EVENT_TEXT_SETTER(event_set_scope, TEXT_SCOPE)

/* ---- a dip's reasons ---- */

/* Reasons are kept one a line: a reason never holds a control character (they are
 * made printable when added). */
bool event_add_reason(struct event *ev, const char *reason)
{
	size_t used = strlen(ev->reasons), n = strlen(reason);
	if (n == 0 || used + (used > 0) + n >= EVENT_REASONS_MAX)
		return false;
	char reasons[EVENT_REASONS_MAX];
	memcpy(reasons, ev->reasons, used);
	char *p = reasons + used;
	if (used)
		*p++ = '\n';
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)reason[i] < 0x20 || reason[i] == 0x7f ? '?' : reason[i];
	p[n] = '\0';
	struct event_parts parts = parts_of(ev);
	parts.text[TEXT_REASONS] = reasons;
	return pack(ev, &parts) == 0;
}

bool event_reason(const struct event *ev, size_t i, char *buf, size_t len)
{
	const char *p = ev->reasons;
	if (!*p)
		return false;
	for (; i > 0; i--) {
		p = strchr(p, '\n');
		if (!p)
			return false;
		p++;
	}
	size_t n = strcspn(p, "\n");
	snprintf(buf, len, "%.*s", (int)n, p);
	return true;
}

/* "dip 212→38 MB/s: 14 tasks in jbd2_log_wait_commit; jbd2 commit 2.1 s (was 0.3 s)" */
static void dip_label(const struct event *ev, char *buf, size_t len)
{
	int n = snprintf(buf, len, "dip %s→%s MB/s", ev->old_value, ev->new_value);
	char reason[EVENT_REASONS_MAX];
	for (size_t i = 0; n > 0 && (size_t)n < len && event_reason(ev, i, reason, sizeof reason); i++)
		n += snprintf(buf + n, len - (size_t)n, "%s%s", i ? "; " : ": ", reason);
}

static const char *const kind_names[EVENT_KIND_COUNT] = {
	[EVENT_SCHEDULER] = "scheduler",
	[EVENT_TUNABLE] = "tunable",
	[EVENT_WRITE_CACHE] = "write_cache",
	[EVENT_MOUNT_OPTIONS] = "mount_options",
	[EVENT_MOUNT_ADDED] = "mount_added",
	[EVENT_MOUNT_REMOVED] = "mount_removed",
	[EVENT_DEVICE_ADDED] = "device_added",
	[EVENT_DEVICE_REMOVED] = "device_removed",
	[EVENT_USER_MARK] = "mark",
	[EVENT_COUNTERS_RESET] = "counters_reset",
	[EVENT_CLOCK_BACK] = "clock_back",
	[EVENT_DIP] = "dip",
	[EVENT_RUN] = "run",
	[EVENT_TRACE] = "trace",
};

const char *event_kind_name(enum event_kind kind)
{
	return (unsigned)kind < EVENT_KIND_COUNT ? kind_names[kind] : "unknown";
}

int event_kind_from_name(const char *name)
{
	for (int i = 0; i < EVENT_KIND_COUNT; i++)
		if (strcmp(kind_names[i], name) == 0)
			return i;
	return -1;
}

void event_list_init(struct event_list *l)
{
	memset(l, 0, sizeof *l);
}

void event_list_free(struct event_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		event_free(&l->items[i]);
	free(l->items);
	event_list_init(l);
}

void event_list_clear(struct event_list *l)
{
	for (size_t i = 0; i < l->count; i++)
		event_free(&l->items[i]);
	l->count = 0;
	if (l->cap <= EVENT_LIST_KEEP)
		return;
	struct event *v = realloc(l->items, EVENT_LIST_KEEP * sizeof *v);
	if (!v)
		return;   /* kept as it is: still a list */
	l->items = v;
	l->cap = EVENT_LIST_KEEP;
}

struct event *event_list_add(struct event_list *l)
{
	if (grow_array(&l->items, &l->cap, l->count + 1, sizeof *l->items, 8, NULL) < 0)
		return NULL;
	struct event *ev = &l->items[l->count++];
	event_init(ev);
	return ev;
}

void event_stamp(struct event *ev)
{
	clock_gettime(CLOCK_REALTIME, &ev->wall);
	clock_gettime(CLOCK_MONOTONIC, &ev->mono);
}

void event_own(struct event *ev, enum event_kind kind, const char *object, const char *key)
{
	event_init(ev);
	event_stamp(ev);
	ev->kind = kind;
	event_set_object(ev, "%s", object);
	snprintf(ev->key, sizeof ev->key, "%s", key);
	snprintf(ev->by, sizeof ev->by, "ioscope");
}

static int add(struct event_list *out, const struct snapshot *cur, enum event_kind kind,
	       const char *object, const char *key, const char *old_value, const char *new_value)
{
	struct event *ev = event_list_add(out);
	if (!ev)
		return -1;
	ev->wall = cur->wall;
	ev->mono = cur->mono;
	ev->kind = kind;
	snprintf(ev->key, sizeof ev->key, "%s", key);
	snprintf(ev->by, sizeof ev->by, "observed");
	struct event_parts p = { .text = { object, old_value, new_value } };
	return pack(ev, &p) < 0 ? -1 : 1;   /* the list frees what it holds */
}

static enum event_kind setting_kind(const char *key)
{
	return strcmp(key, "write_cache") == 0 ? EVENT_WRITE_CACHE : EVENT_TUNABLE;
}

/* What a switch sets anew, by the knob table (on_switch).  A knob that only some
 * switches reset (wbt_lat_usec: bfq turns writeback throttling off, and a switch away
 * from it back on) counts for every switch: its change in a switch's sample is the
 * switch's reset. */
bool event_key_is_reset(const char *key)
{
	const struct knob *k = knob_find(key);
	return k && k->on_switch != KNOB_SWITCH_KEEPS;
}

void event_add_reset(struct event *ev, const char *key, const char *old_value,
		     const char *new_value)
{
	struct event_reset r;
	memset(&r, 0, sizeof r);
	snprintf(r.key, sizeof r.key, "%s", key);
	r.had_old = old_value != NULL;
	r.has_new = new_value != NULL;
	snprintf(r.old_value, sizeof r.old_value, "%s", old_value ? old_value : "");
	snprintf(r.new_value, sizeof r.new_value, "%s", new_value ? new_value : "");
	struct event_parts p = parts_of(ev);
	p.extra = &r;
	if (ev->nresets == EVENT_RESETS_MAX || pack(ev, &p) < 0)
		ev->resets_dropped++;
}

/* Walk two key-sorted settings lists together: fn(key, old or NULL, new or NULL) for
 * every key whose value differs (absent counts as a value). */
static int merge_settings(const struct disk_settings *p, const struct disk_settings *c,
			  int (*fn)(void *, const char *, const char *, const char *), void *arg)
{
	size_t i = 0, j = 0;
	const struct setting *a = p->items, *b = c->items;
	while (i < p->nitems || j < c->nitems) {
		int cmp = i == p->nitems ? 1 : j == c->nitems ? -1 : strcmp(a[i].key, b[j].key);
		const char *key = cmp <= 0 ? a[i].key : b[j].key;
		const char *old_value = cmp <= 0 ? a[i].value : NULL;
		const char *new_value = cmp >= 0 ? b[j].value : NULL;
		i += cmp <= 0;
		j += cmp >= 0;
		if (old_value && new_value && strcmp(old_value, new_value) == 0)
			continue;
		if (fn(arg, key, old_value, new_value) < 0)
			return -1;
	}
	return 0;
}

static int add_reset_of(void *arg, const char *key, const char *old_value, const char *new_value)
{
	if (event_key_is_reset(key))
		event_add_reset(arg, key, old_value, new_value);
	return 0;
}

void event_resets_between(struct event *ev, const struct disk_settings *before,
			  const struct disk_settings *after)
{
	merge_settings(before, after, add_reset_of, ev);
}

static int add_side_effect_of(void *arg, const char *key, const char *old_value,
			      const char *new_value)
{
	struct event *ev = arg;
	if (strcmp(key, ev->key) != 0)
		event_add_reset(ev, key, old_value, new_value);
	return 0;
}

void event_side_effects_between(struct event *ev, const struct disk_settings *before,
				const struct disk_settings *after)
{
	merge_settings(before, after, add_side_effect_of, ev);
}

void event_resets_text(const struct event *ev, char *buf, size_t len)
{
	if (len == 0)
		return;
	buf[0] = '\0';
	size_t used = 0;
	for (size_t i = 0; i < ev->nresets && used + 1 < len; i++) {
		const struct event_reset *r = &ev->resets[i];
		int n = snprintf(buf + used, len - used, "%s%s %s→%s", i ? ", " : "", r->key,
				 r->had_old ? r->old_value : "-", r->has_new ? r->new_value : "-");
		used += n > 0 ? (size_t)n : 0;
	}
	if (ev->resets_dropped && used + 1 < len)
		snprintf(buf + used, len - used, ", %zu more", ev->resets_dropped);
}

struct settings_diff {
	struct event_list *out;
	const struct snapshot *cur;
	const struct device *dev;
	struct event *sched;     /* the switch the resets belong to, or NULL */
	size_t sched_index;
	int n;
};

static int add_setting_change(void *arg, const char *key, const char *old_value,
			      const char *new_value)
{
	struct settings_diff *d = arg;
	if (d->sched && event_key_is_reset(key)) {
		/* The list may have moved since the switch was added. */
		event_add_reset(&d->out->items[d->sched_index], key, old_value, new_value);
		return 0;
	}
	if (add(d->out, d->cur, setting_kind(key), d->dev->name, key, old_value ? old_value : "",
		new_value ? new_value : "") < 0)
		return -1;
	d->n++;
	return 0;
}

/* Both lists are sorted by key: one merge pass.  A scheduler switch resets
 * nr_requests and the iosched.* tunables: they are the switch's details, not
 * changes of their own (one change, one mark). */
static int diff_settings(struct event_list *out, const struct snapshot *cur, const struct device *p,
			 const struct device *c)
{
	if (p->settings.generation && p->settings.generation == c->settings.generation)
		return 0;
	struct settings_diff d = { .out = out, .cur = cur, .dev = c };
	if (strcmp(p->settings.scheduler, c->settings.scheduler) != 0) {
		if (add(out, cur, EVENT_SCHEDULER, c->name, "scheduler", p->settings.scheduler,
			c->settings.scheduler) < 0)
			return -1;
		d.sched = &out->items[out->count - 1];
		d.sched_index = out->count - 1;
		d.n = 1;
	}
	if (merge_settings(&p->settings, &c->settings, add_setting_change, &d) < 0)
		return -1;
	return d.n;
}

static const struct device *find_prev(const struct snapshot *prev, size_t index, const char *name)
{
	if (index < prev->ndevices && strcmp(prev->devices[index].name, name) == 0)
		return &prev->devices[index];
	return snapshot_find_device(prev, name);
}

/* Why a device's row is empty for the interval (docs/metrics.md): its counters
 * started again, which rates_compute tells the same way. */
static int counters_reset(struct event_list *out, const struct snapshot *cur,
			  const struct device *c, enum counters_break why)
{
	if (why != COUNTERS_WENT_BACK && why != COUNTERS_RECREATED)
		return 0;
	return add(out, cur, EVENT_COUNTERS_RESET, c->name, "counters", "", counters_break_reason(why));
}

static int diff_devices(struct event_list *out, const struct snapshot *prev, const struct snapshot *cur)
{
	int n = 0, r;
	struct counters_walk walk;
	counters_walk_init(&walk);
	for (size_t i = 0; i < cur->ndevices; i++) {
		const struct device *c = &cur->devices[i], *p;
		enum counters_break why = counters_walk_next(&walk, prev, i, c, &p);
		if (!p) {
			r = add(out, cur, EVENT_DEVICE_ADDED, c->name, "device", "", "added");
		} else {
			r = counters_reset(out, cur, c, why);
			if (r >= 0 && p->settings.has_settings && c->settings.has_settings) {
				int changes = diff_settings(out, cur, p, c);
				r = changes < 0 ? -1 : r + changes;
			}
		}
		if (r < 0)
			return -1;
		n += r;
	}
	for (size_t i = 0; i < prev->ndevices; i++) {
		if (find_prev(cur, i, prev->devices[i].name))
			continue;
		if (add(out, cur, EVENT_DEVICE_REMOVED, prev->devices[i].name, "device", "present", "removed") < 0)
			return -1;
		n++;
	}
	return n;
}

static const struct mount *find_mount(const struct snapshot *s, size_t index, const struct mount *m)
{
	if (index < s->nmounts && strcmp(s->mounts[index].mountpoint, m->mountpoint) == 0 &&
	    strcmp(s->mounts[index].source, m->source) == 0)
		return &s->mounts[index];
	for (size_t i = 0; i < s->nmounts; i++)
		if (strcmp(s->mounts[i].mountpoint, m->mountpoint) == 0 &&
		    strcmp(s->mounts[i].source, m->source) == 0)
			return &s->mounts[i];
	return NULL;
}

static void mount_summary(const struct mount *m, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s", m->source, m->fstype, m->super_opts);
}

static int diff_mount(struct event_list *out, const struct snapshot *cur, const struct mount *p,
		      const struct mount *c)
{
	int n = 0;
	if (strcmp(p->mount_opts, c->mount_opts) != 0) {
		if (add(out, cur, EVENT_MOUNT_OPTIONS, c->mountpoint, "mount_opts", p->mount_opts, c->mount_opts) < 0)
			return -1;
		n++;
	}
	if (strcmp(p->super_opts, c->super_opts) != 0) {
		if (add(out, cur, EVENT_MOUNT_OPTIONS, c->mountpoint, "super_opts", p->super_opts, c->super_opts) < 0)
			return -1;
		n++;
	}
	return n;
}

static int diff_mounts(struct event_list *out, const struct snapshot *prev, const struct snapshot *cur)
{
	char summary[MOUNT_OPTS_MAX];
	int n = 0, r;
	for (size_t i = 0; i < cur->nmounts; i++) {
		const struct mount *c = &cur->mounts[i];
		const struct mount *p = find_mount(prev, i, c);
		if (p) {
			r = diff_mount(out, cur, p, c);
		} else {
			mount_summary(c, summary, sizeof summary);
			r = add(out, cur, EVENT_MOUNT_ADDED, c->mountpoint, "mount", "", summary);
		}
		if (r < 0)
			return -1;
		n += r;
	}
	for (size_t i = 0; i < prev->nmounts; i++) {
		const struct mount *p = &prev->mounts[i];
		if (find_mount(cur, i, p))
			continue;
		mount_summary(p, summary, sizeof summary);
		if (add(out, cur, EVENT_MOUNT_REMOVED, p->mountpoint, "mount", summary, "") < 0)
			return -1;
		n++;
	}
	return n;
}

/* A clock that went back (a fixture, a log replayed across a reboot, a restored
 * VM snapshot) makes no interval: say why the report of it is empty. */
static int diff_clock(struct event_list *out, const struct snapshot *prev, const struct snapshot *cur)
{
	if (timespec_diff(&cur->mono, &prev->mono) >= 0)
		return 0;
	char was[32], now[32];
	snprintf(was, sizeof was, "%.3f", timespec_seconds(&prev->mono));
	snprintf(now, sizeof now, "%.3f", timespec_seconds(&cur->mono));
	return add(out, cur, EVENT_CLOCK_BACK, "system", "clock", was, now);
}

int events_diff(struct event_list *out, const struct snapshot *prev, const struct snapshot *cur)
{
	int c = diff_clock(out, prev, cur);
	if (c < 0)
		return -1;
	int a = diff_devices(out, prev, cur);
	if (a < 0)
		return -1;
	int b = diff_mounts(out, prev, cur);
	if (b < 0)
		return -1;
	return a + b + c;
}

/* A setting the kernel changed with own's (its resets: read_ahead_kb reset by a
 * max_sectors_kb write), to the value own says. */
static bool is_side_effect(const struct event *observed, const struct event *own)
{
	if (observed->kind != EVENT_TUNABLE && observed->kind != EVENT_WRITE_CACHE)
		return false;
	for (size_t i = 0; i < own->nresets; i++) {
		const struct event_reset *r = &own->resets[i];
		if (r->has_new && strcmp(r->key, observed->key) == 0 &&
		    strcmp(r->new_value, observed->new_value) == 0)
			return true;
	}
	return false;
}

bool event_is_derivable(const struct event *ev)
{
	/* a dip is found by ioscope's detector, never by a diff */
	return ev->kind != EVENT_USER_MARK && ev->kind != EVENT_DIP && strcmp(ev->by, "observed") == 0;
}

bool event_answers(const struct event *made, enum event_kind kind, const char *object,
		   const char *key)
{
	return made->kind == kind && strcmp(made->object, object) == 0 &&
	       (kind == EVENT_MOUNT_OPTIONS || strcmp(made->key, key) == 0);
}

bool event_echoes(const struct event *observed, const struct event *own)
{
	if (strcmp(observed->by, "observed") != 0 || strcmp(own->by, "observed") == 0 ||
	    strcmp(observed->object, own->object) != 0)
		return false;
	return (observed->kind == own->kind && strcmp(observed->key, own->key) == 0 &&
		strcmp(observed->new_value, own->new_value) == 0) ||
	       is_side_effect(observed, own);
}

void events_drop_echoes(struct event_list *l, const struct event *own, size_t nown)
{
	size_t kept = 0;
	for (size_t i = 0; i < l->count; i++) {
		bool echo = false;
		for (size_t j = 0; j < nown && !echo; j++)
			echo = event_echoes(&l->items[i], &own[j]);
		if (echo)
			event_free(&l->items[i]);
		else
			l->items[kept++] = l->items[i];   /* moved */
	}
	l->count = kept;
}

void events_sort_by_time(struct event_list *l)
{
	/* insertion sort: stable, and a sample's events are few and nearly in order */
	for (size_t i = 1; i < l->count; i++) {
		struct event e = l->items[i];
		size_t j = i;
		for (; j > 0 && timespec_diff(&l->items[j - 1].mono, &e.mono) > 0; j--)
			l->items[j] = l->items[j - 1];
		l->items[j] = e;
	}
}

void echo_filter_init(struct echo_filter *f)
{
	event_list_init(&f->own);
	f->last = f->fresh = 0;
}

void echo_filter_free(struct echo_filter *f)
{
	event_list_free(&f->own);
	f->last = f->fresh = 0;
}

void echo_filter_clear(struct echo_filter *f)
{
	event_list_clear(&f->own);
	f->last = f->fresh = 0;
}

void echo_filter_remember(struct echo_filter *f, const struct event *ev)
{
	if (strcmp(ev->by, "observed") == 0 || ev->kind == EVENT_USER_MARK || ev->kind == EVENT_RUN ||
	    ev->kind == EVENT_TRACE)
		return;   /* no diff ever sees these again */
	struct event *kept = event_list_add(&f->own);
	if (!kept)
		return;   /* out of memory: at worst a change is marked twice */
	event_copy(kept, ev);
	f->fresh++;
}

void echo_filter_sample(struct echo_filter *f, struct event_list *events, size_t derived)
{
	for (size_t i = derived; i < events->count; i++)
		echo_filter_remember(f, &events->items[i]);
	size_t kept = f->last + f->fresh, old = f->own.count - kept;
	for (size_t i = 0; i < old; i++)
		event_free(&f->own.items[i]);
	if (old && kept)
		memmove(f->own.items, f->own.items + old, kept * sizeof *f->own.items);
	f->own.count = kept;
	f->last = f->fresh;
	f->fresh = 0;
	events_drop_echoes(events, f->own.items, f->own.count);
}

/* ---- labels ---- */

struct option_list {
	char buf[MOUNT_OPTS_MAX];
	char *items[128];
	size_t n;
};

static void option_list_split(struct option_list *l, const char *opts)
{
	snprintf(l->buf, sizeof l->buf, "%s", opts);
	l->n = 0;
	for (char *save = NULL, *tok = strtok_r(l->buf, ",", &save); tok && l->n < 128;
	     tok = strtok_r(NULL, ",", &save))
		l->items[l->n++] = tok;
}

static size_t option_name_len(const char *opt)
{
	const char *eq = strchr(opt, '=');
	return eq ? (size_t)(eq - opt) : strlen(opt);
}

/* The option of the same name in l ("commit" matches "commit=30"), or NULL. */
static const char *option_find(const struct option_list *l, const char *opt)
{
	size_t len = option_name_len(opt);
	for (size_t i = 0; i < l->n; i++)
		if (option_name_len(l->items[i]) == len && strncmp(l->items[i], opt, len) == 0)
			return l->items[i];
	return NULL;
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, fmt, a, b);
}

/* "+noatime -relatime commit=5→30" */
static void options_diff_label(const char *old_opts, const char *new_opts, char *buf, size_t len)
{
	struct option_list *o = malloc(sizeof *o), *n = malloc(sizeof *n);
	buf[0] = '\0';
	if (!o || !n)
		goto out;
	option_list_split(o, old_opts);
	option_list_split(n, new_opts);
	for (size_t i = 0; i < n->n; i++) {
		const char *was = option_find(o, n->items[i]);
		if (!was)
			append(buf, len, " +%s%s", n->items[i], "");
		else if (strcmp(was, n->items[i]) != 0)
			append(buf, len, " %s→%s", was, n->items[i] + option_name_len(n->items[i]) + 1);
	}
	for (size_t i = 0; i < o->n; i++)
		if (!option_find(n, o->items[i]))
			append(buf, len, " -%s%s", o->items[i], "");
out:
	free(o);
	free(n);
}

/* "start tar x", "exit 0 (2.1 s)"; a matrix step whose text begins with its key says it
 * once: "cell 2/4 repeat 1: ...", "sync -f /mnt/t", not "cell cell 2/4 ...". */
static void run_label(const struct event *ev, char *buf, size_t len)
{
	size_t k = strlen(ev->key);
	if (k && strncmp(ev->new_value, ev->key, k) == 0 &&
	    (ev->new_value[k] == ' ' || ev->new_value[k] == '\0'))
		snprintf(buf, len, "%s", ev->new_value);
	else
		snprintf(buf, len, "%s %s", ev->key, ev->new_value);
}

/* "ok", "refused: ...": the result, less the list a switch made before its resets were
 * recorded apart ("ok; reset: nr_requests 64 -> 256, ..."), which the resets say. */
void event_verdict(const struct event *ev, char *buf, size_t len)
{
	const char *list = ev->kind == EVENT_SCHEDULER && (ev->nresets || ev->resets_dropped)
		? strstr(ev->result, "; reset: ") : NULL;
	int keep = list ? (int)(list - ev->result) : (int)strlen(ev->result);
	snprintf(buf, len, "%.*s", keep, ev->result);
}

void event_mark_label(const struct event *ev, char *buf, size_t len)
{
	char label[MOUNT_OPTS_MAX + 64];
	event_label(ev, label, sizeof label);
	const char *space = strchr(label, ' ');
	switch (ev->kind) {
	case EVENT_SCHEDULER:
	case EVENT_MOUNT_OPTIONS:
		if (space) {
			snprintf(buf, len, "%.*s %s%s", (int)(space - label), label, ev->object,
				 space);
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
}

void event_label(const struct event *ev, char *buf, size_t len)
{
	char diff[MOUNT_OPTS_MAX];
	switch (ev->kind) {
	case EVENT_SCHEDULER:
		snprintf(buf, len, "sched %s→%s", ev->old_value, ev->new_value);
		break;
	case EVENT_TUNABLE:
	case EVENT_WRITE_CACHE:
		snprintf(buf, len, "%s %s→%s", ev->key, ev->old_value[0] ? ev->old_value : "-",
			 ev->new_value[0] ? ev->new_value : "-");
		break;
	case EVENT_MOUNT_OPTIONS:
		options_diff_label(ev->old_value, ev->new_value, diff, sizeof diff);
		snprintf(buf, len, "remount%s", diff[0] ? diff : " (same options)");
		break;
	case EVENT_MOUNT_ADDED:
		snprintf(buf, len, "mount %s", ev->object);
		break;
	case EVENT_MOUNT_REMOVED:
		snprintf(buf, len, "umount %s", ev->object);
		break;
	case EVENT_DEVICE_ADDED:
		snprintf(buf, len, "+dev %s", ev->object);
		break;
	case EVENT_DEVICE_REMOVED:
		snprintf(buf, len, "-dev %s", ev->object);
		break;
	case EVENT_USER_MARK:
		snprintf(buf, len, "%s", ev->new_value);
		break;
	case EVENT_COUNTERS_RESET:
		snprintf(buf, len, "reset %s (%s)", ev->object, ev->new_value);
		break;
	case EVENT_CLOCK_BACK:
		snprintf(buf, len, "clock back %s→%s s", ev->old_value, ev->new_value);
		break;
	case EVENT_DIP:
		dip_label(ev, buf, len);
		break;
	case EVENT_TRACE:
		snprintf(buf, len, "trace %s", ev->new_value);   /* "trace on" */
		break;
	case EVENT_RUN:
		run_label(ev, buf, len);
		break;
	default:
		snprintf(buf, len, "%s %s→%s", ev->key, ev->old_value, ev->new_value);
		break;
	}
}
