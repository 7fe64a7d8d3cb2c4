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
	dst->number = src->number;
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
	[EVENT_LOOP_BACKING] = "loop_backing",
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

static int walk_settings(const struct disk_settings *p, const struct disk_settings *c,
			 bool equal_too, int (*fn)(void *, const char *, const char *, const char *),
			 void *arg);

/* Walk two key-sorted settings lists together: fn(key, old or NULL, new or NULL) for
 * every key whose value differs (absent counts as a value). */
static int merge_settings(const struct disk_settings *p, const struct disk_settings *c,
			  int (*fn)(void *, const char *, const char *, const char *), void *arg)
{
	return walk_settings(p, c, false, fn, arg);
}

/* The same, with equal_too every key of either list. */
static int walk_settings(const struct disk_settings *p, const struct disk_settings *c,
			 bool equal_too, int (*fn)(void *, const char *, const char *, const char *),
			 void *arg)
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
		if (!equal_too && old_value && new_value && strcmp(old_value, new_value) == 0)
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
	if (event_label_has_resets(ev))
		return;
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

/* ---- a loop device's file: one event when it is attached, detached or changed ---- */

static bool is_loop_key(const char *key)
{
	return strncmp(key, "loop.", 5) == 0;
}

/* The file a loop device reads and writes, "" none: what the source read from its loop/
 * group, else (a log written before the source kept it) its loop.backing_file setting. */
static const char *loop_file(const struct device *d)
{
	if (d->loop.present)
		return d->loop.file;
	const char *f = device_setting(d, "loop.backing_file");
	return f ? f : "";
}

static bool same_settings(const struct device *p, const struct device *c)
{
	return p->settings.generation && p->settings.generation == c->settings.generation;
}

static bool loop_file_changed(const struct device *p, const struct device *c)
{
	if (!p->loop.present && !c->loop.present && same_settings(p, c))
		return false;   /* both from settings that did not change: no lookup by name */
	return strcmp(loop_file(p), loop_file(c)) != 0;
}

bool event_label_has_resets(const struct event *ev)
{
	return ev->kind == EVENT_LOOP_BACKING || ev->kind == EVENT_DEVICE_ADDED ||
	       ev->kind == EVENT_DEVICE_REMOVED || ev->kind == EVENT_MOUNT_OPTIONS;
}

struct loop_reset_target {
	struct event_list *out;
	size_t index;            /* the event they go to (the list may move) */
	bool with_file;          /* loop.backing_file too (a device added or removed) */
};

static int add_loop_reset(void *arg, const char *key, const char *old_value, const char *new_value)
{
	struct loop_reset_target *l = arg;
	if (is_loop_key(key) && (l->with_file || strcmp(key, "loop.backing_file") != 0))
		event_add_reset(&l->out->items[l->index], key, old_value, new_value);
	return 0;
}

/* The loop.* settings that came or went with the event just added (from a device's
 * settings before, `was`, to after, `now`; NULL: none), every one of them: a file given
 * in place of another says all its flags, those the same as the other's too. */
static void loop_resets(struct event_list *out, const struct device *was, const struct device *now,
			bool with_file)
{
	static const struct disk_settings none;
	struct loop_reset_target l = { out, out->count - 1, with_file };
	walk_settings(was ? &was->settings : &none, now ? &now->settings : &none, true,
		      add_loop_reset, &l);
}

/* "loop7 detached from A, attached B (dio 0, ro 0, 64 MiB)": one event, whatever the
 * sample saw of the loop.* settings (they are its resets).  Compared whatever the
 * settings' generations: a replay, which has none, finds the same. */
static int diff_loop(struct event_list *out, const struct snapshot *cur, const struct device *p,
		     const struct device *c)
{
	if (!loop_file_changed(p, c))
		return 0;
	if (add(out, cur, EVENT_LOOP_BACKING, c->name, "backing_file", loop_file(p),
		loop_file(c)) < 0)
		return -1;
	loop_resets(out, p, c, false);
	return 1;
}

struct settings_diff {
	struct event_list *out;
	const struct snapshot *cur;
	const struct device *dev;
	struct event *sched;     /* the switch the resets belong to, or NULL */
	size_t sched_index;
	bool loop_changed;       /* the loop device's file: its loop.* are that event's */
	int n;
};

/* A loop.* setting is a change of its own only while the device keeps its file: dio
 * switched (losetup --direct-io), the size read again (--set-capacity), made read-only.
 * One that comes or goes comes or goes with the file (a sample late, maybe: the event
 * of the file says it), and the file is the loop_backing event's. */
static bool loop_setting_of_its_own(const struct settings_diff *d, const char *key,
				    const char *old_value, const char *new_value)
{
	return !d->loop_changed && old_value && new_value &&
	       strcmp(key, "loop.backing_file") != 0;
}

static int add_setting_change(void *arg, const char *key, const char *old_value,
			      const char *new_value)
{
	struct settings_diff *d = arg;
	if (is_loop_key(key) && !loop_setting_of_its_own(d, key, old_value, new_value))
		return 0;
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
	if (same_settings(p, c))
		return 0;
	struct settings_diff d = { .out = out, .cur = cur, .dev = c,
				   .loop_changed = loop_file_changed(p, c) };
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
			if (r > 0)
				loop_resets(out, NULL, c, true);
		} else {
			r = counters_reset(out, cur, c, why);
			int loop = r < 0 ? -1 : diff_loop(out, cur, p, c);
			r = loop < 0 ? -1 : r + loop;
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
		loop_resets(out, &prev->devices[i], NULL, true);
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

/* Whether a column's options begin with ro or rw as given (mountinfo says it first). */
static bool begins_ro(const char *opts)
{
	return strncmp(opts, "ro", 2) == 0 && (opts[2] == ',' || opts[2] == '\0');
}

/* The options after the first (ro or rw): "relatime" of "rw,relatime". */
static const char *after_ro_rw(const char *opts)
{
	const char *comma = strchr(opts, ',');
	return comma ? comma + 1 : "";
}

/* The mount flags taking on the ro or rw the filesystem took a sample before, and nothing
 * else: the second half of one remount (mount -o remount,ro and ioscope's remount set the
 * superblock first, then the mount's flag), whose event the filesystem's change was. */
static bool flags_catch_up(const struct mount *p, const struct mount *c)
{
	return strcmp(p->super_opts, c->super_opts) == 0 &&
	       begins_ro(p->mount_opts) != begins_ro(p->super_opts) &&
	       begins_ro(c->mount_opts) == begins_ro(c->super_opts) &&
	       strcmp(after_ro_rw(p->mount_opts), after_ro_rw(c->mount_opts)) == 0;
}

/* One remount, one event (issue 41): the per-mount flags' change, the filesystem's with it
 * in a reset (remount,ro changes both columns: "+ro -rw" once); or the one that changed.
 * A sample read between the two halves of a remount has the filesystem's change: the
 * flags' after it is no event of its own. */
static int diff_mount(struct event_list *out, const struct snapshot *cur, const struct mount *p,
		      const struct mount *c)
{
	bool flags = strcmp(p->mount_opts, c->mount_opts) != 0,
	     fs = strcmp(p->super_opts, c->super_opts) != 0;
	if ((!flags && !fs) || flags_catch_up(p, c))
		return 0;
	if (add(out, cur, EVENT_MOUNT_OPTIONS, c->mountpoint, flags ? "mount_opts" : "super_opts",
		flags ? p->mount_opts : p->super_opts, flags ? c->mount_opts : c->super_opts) < 0)
		return -1;
	if (flags && fs)
		event_add_options_reset(&out->items[out->count - 1], "super_opts", p->super_opts,
					c->super_opts);
	return 1;
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

static void options_changed(const char *old_opts, const char *new_opts, char *gone,
			    size_t gone_len, char *came, size_t came_len);

/* A remount's column seen alone, own's other column (its reset): a sample read between
 * ioscope's reconfigure of the filesystem and its mount_setattr sees the one without the
 * other. */
static bool is_other_column(const struct event *observed, const struct event *own)
{
	if (observed->kind != EVENT_MOUNT_OPTIONS || own->kind != EVENT_MOUNT_OPTIONS)
		return false;
	for (size_t i = 0; i < own->nresets; i++) {
		const struct event_reset *r = &own->resets[i];
		if (strcmp(r->key, observed->key) != 0)
			continue;
		char gone[EVENT_RESET_VAL_MAX], came[EVENT_RESET_VAL_MAX];
		options_changed(observed->old_value, observed->new_value, gone, sizeof gone, came,
				sizeof came);
		return strcmp(gone, r->old_value) == 0 && strcmp(came, r->new_value) == 0;
	}
	return false;
}

bool event_echoes(const struct event *observed, const struct event *own)
{
	if (strcmp(observed->by, "observed") != 0 || strcmp(own->by, "observed") == 0 ||
	    strcmp(observed->object, own->object) != 0)
		return false;
	return (observed->kind == own->kind && strcmp(observed->key, own->key) == 0 &&
		strcmp(observed->new_value, own->new_value) == 0) ||
	       is_side_effect(observed, own) || is_other_column(observed, own);
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

/* tok appended to a comma list in buf, whole or not at all (a reset's value is short). */
static void append_token(char *buf, size_t len, const char *tok)
{
	size_t used = strlen(buf), need = strlen(tok) + (used ? 1 : 0);
	if (used + need < len)
		snprintf(buf + used, len - used, "%s%s", used ? "," : "", tok);
}

/* Whether the space-separated words of s have word. */
static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(s, word); p; p = strstr(p + 1, word))
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
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

/* The options a change took off (*gone: as they were) and put on (*came: as they are), a
 * comma list each: "commit=5" and "commit=30,ro". */
static void options_changed(const char *old_opts, const char *new_opts, char *gone,
			    size_t gone_len, char *came, size_t came_len)
{
	struct option_list *o = malloc(sizeof *o), *n = malloc(sizeof *n);
	gone[0] = came[0] = '\0';
	if (o && n) {
		option_list_split(o, old_opts);
		option_list_split(n, new_opts);
		for (size_t i = 0; i < o->n; i++) {
			const char *now = option_find(n, o->items[i]);
			if (!now || strcmp(now, o->items[i]) != 0)
				append_token(gone, gone_len, o->items[i]);
		}
		for (size_t i = 0; i < n->n; i++) {
			const char *was = option_find(o, n->items[i]);
			if (!was || strcmp(was, n->items[i]) != 0)
				append_token(came, came_len, n->items[i]);
		}
	}
	free(o);
	free(n);
}

void event_add_options_reset(struct event *ev, const char *key, const char *old_opts,
			     const char *new_opts)
{
	char gone[EVENT_RESET_VAL_MAX], came[EVENT_RESET_VAL_MAX];
	options_changed(old_opts, new_opts, gone, sizeof gone, came, sizeof came);
	event_add_reset(ev, key, gone, came);
}

/* A remount's "+ro -rw commit=5→30": its column's change, then what the other column's
 * (its reset) adds to it, each option once (ro/rw is in both). */
static void remount_diff(const struct event *ev, char *buf, size_t len)
{
	char more[MOUNT_OPTS_MAX];
	options_diff_label(ev->old_value, ev->new_value, buf, len);
	for (size_t i = 0; i < ev->nresets; i++) {
		options_diff_label(ev->resets[i].old_value, ev->resets[i].new_value, more,
				   sizeof more);
		for (char *save = NULL, *tok = strtok_r(more, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save))
			if (!has_word(buf, tok))
				append(buf, len, " %s%s", tok, "");
	}
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

/* ---- a refused change: what was tried, and the kernel's words ---- */

bool event_refused(const struct event *ev)
{
	return strcmp(ev->by, "ioscope") == 0 && strncmp(ev->result, "refused", 7) == 0;
}

/* The result of a refused change is "refused: TRIED: WHY" (TRIED: "nr_requests=99999"
 * for a setting, "+nobarrier -discard" for a remount) or, in logs written before a
 * remount's said what it tried, "refused: WHY".  tried gets TRIED ("" when not said);
 * returns WHY. */
static const char *refusal_parts(const struct event *ev, char *tried, size_t len)
{
	const char *after = ev->result + 7;
	after += strspn(after, ": ");
	tried[0] = '\0';
	const char *end = strstr(after, ": ");
	if (!end)
		return after;
	size_t n = (size_t)(end - after);
	bool said = ev->kind == EVENT_MOUNT_OPTIONS ? *after == '+' || *after == '-'
						   : memchr(after, '=', n) != NULL;
	if (!said)
		return after;
	snprintf(tried, len, "%.*s", (int)n, after);
	return end + 2;
}

/* How refused_change() says what was tried. */
enum refused_form {
	REFUSED_VALUE,   /* "64→99999: refused: WHY": the setting's value before, the one tried */
	REFUSED_TRIED,   /* "+nobarrier: refused: WHY", "bdi.max_bytes=1: refused: WHY" */
	REFUSED_UNSAID,  /* "refused: WHY": the result does not say */
};

/* What a refused change tried, and the refusal: a setting's as its value before and the
 * one tried when it is the event's own key (bdi.max_bytes is tried for the fine ratio the
 * event watches: said as tried), a remount's as its options. */
static enum refused_form refused_change(const struct event *ev, char *buf, size_t len)
{
	char tried[EVENT_RESULT_MAX];
	const char *why = refusal_parts(ev, tried, sizeof tried);
	const char *eq = strchr(tried, '=');
	size_t klen = strlen(ev->key);
	if (!tried[0]) {
		snprintf(buf, len, "refused: %s", why);
		return REFUSED_UNSAID;
	}
	if (ev->kind != EVENT_MOUNT_OPTIONS && eq &&
	    (ev->kind == EVENT_SCHEDULER ||
	     ((size_t)(eq - tried) == klen && strncmp(tried, ev->key, klen) == 0))) {
		snprintf(buf, len, "%s→%s: refused: %s", ev->old_value[0] ? ev->old_value : "-",
			 eq + 1, why);
		return REFUSED_VALUE;
	}
	snprintf(buf, len, "%s: refused: %s", tried, why);
	return REFUSED_TRIED;
}

/* "ok", "refused: ...": the result, less the list a switch made before its resets were
 * recorded apart ("ok; reset: nr_requests 64 -> 256, ..."), which the resets say.  A
 * refused change's label says the refusal (event_label): its verdict is "". */
void event_verdict(const struct event *ev, char *buf, size_t len)
{
	if (event_refused(ev)) {
		buf[0] = '\0';
		return;
	}
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
	case EVENT_LOOP_BACKING:
	case EVENT_DEVICE_ADDED:
	case EVENT_DEVICE_REMOVED:
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

static void ev_label_plain(const struct event *ev, char *buf, size_t len);

/* The label of a refused change: what was tried, and the refusal. */
static void refused_label(const struct event *ev, char *buf, size_t len)
{
	char change[EVENT_RESULT_MAX + EVENT_VALUE_MAX];
	char label[MOUNT_OPTS_MAX + 64];
	enum refused_form form = refused_change(ev, change, sizeof change);
	switch (ev->kind) {
	case EVENT_SCHEDULER:
		snprintf(buf, len, "sched %s", change);   /* "sched kyber→bfq: refused: ..." */
		break;
	case EVENT_TUNABLE:
	case EVENT_WRITE_CACHE:
		if (form == REFUSED_TRIED)
			snprintf(buf, len, "%s", change);   /* "bdi.max_bytes=1: refused: ..." */
		else
			snprintf(buf, len, "%s %s", ev->key, change);
		break;
	case EVENT_MOUNT_OPTIONS:
		snprintf(buf, len, "remount %s", change);   /* "remount +nobarrier: refused: ..." */
		break;
	default:
		ev_label_plain(ev, label, sizeof label);
		snprintf(buf, len, "%s: %s", label, ev->result);
		break;
	}
}

void event_label(const struct event *ev, char *buf, size_t len)
{
	if (event_refused(ev))
		refused_label(ev, buf, len);
	else
		ev_label_plain(ev, buf, len);
}

/* ---- a loop device's file ---- */

/* A reset of ev by key, or NULL. */
static const struct event_reset *reset_of(const struct event *ev, const char *key)
{
	for (size_t i = 0; i < ev->nresets; i++)
		if (strcmp(ev->resets[i].key, key) == 0)
			return &ev->resets[i];
	return NULL;
}

/* "64 MiB", "1.5 GiB": 512-byte sectors as people say a size. */
static void sectors_text(const char *sectors, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = strtod(sectors, NULL) * 512;
	size_t u = 0;
	while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, v == (double)(long long)v ? "%.0f %s" : "%.1f %s", v, units[u]);
}

/* " (dio 0, ro 0, 64 MiB)": how a loop device got its file (its loop.* settings that
 * came with it), "" when none are known. */
static void attached_flags(const struct event *ev, char *buf, size_t len)
{
	const struct event_reset *dio = reset_of(ev, "loop.dio"), *ro = reset_of(ev, "loop.ro"),
				 *sectors = reset_of(ev, "loop.sectors");
	char size[32] = "";
	buf[0] = '\0';
	if (dio && dio->has_new)
		append(buf, len, "%sdio %s", buf[0] ? ", " : " (", dio->new_value);
	if (ro && ro->has_new)
		append(buf, len, "%sro %s", buf[0] ? ", " : " (", ro->new_value);
	if (sectors && sectors->has_new) {
		sectors_text(sectors->new_value, size, sizeof size);
		append(buf, len, "%s%s", buf[0] ? ", " : " (", size);
	}
	if (buf[0])
		append(buf, len, "%s%s", ")", "");
}

/* "attached FILE (dio 0, ro 0, 64 MiB)", "detached from FILE", "detached from A,
 * attached B (...)"; after "added, " / "removed, " the file is in the resets. */
static void backing_label(const struct event *ev, const char *was, const char *now,
			  char *buf, size_t len)
{
	char flags[128];
	attached_flags(ev, flags, sizeof flags);
	if (was[0] && now[0])
		snprintf(buf, len, "detached from %s, attached %s%s", was, now, flags);
	else if (was[0])
		snprintf(buf, len, "detached from %s", was);
	else if (now[0])
		snprintf(buf, len, "attached %s%s", now, flags);
	else
		snprintf(buf, len, "no file");
}

/* "added", "added, attached FILE (...)", "removed", "removed, detached from FILE". */
static void device_label(const struct event *ev, bool added, char *buf, size_t len)
{
	const struct event_reset *file = reset_of(ev, "loop.backing_file");
	const char *what = added ? "added" : "removed";
	if (!file || (added ? !file->has_new : !file->had_old)) {
		snprintf(buf, len, "%s", what);
		return;
	}
	char backing[MOUNT_PATH_MAX + 192];
	backing_label(ev, added ? "" : file->old_value, added ? file->new_value : "", backing,
		      sizeof backing);
	snprintf(buf, len, "%s, %s", what, backing);
}

static void ev_label_plain(const struct event *ev, char *buf, size_t len)
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
		remount_diff(ev, diff, sizeof diff);
		snprintf(buf, len, "remount%s", diff[0] ? diff : " (same options)");
		break;
	case EVENT_LOOP_BACKING:
		backing_label(ev, ev->old_value, ev->new_value, buf, len);
		break;
	case EVENT_MOUNT_ADDED:
		snprintf(buf, len, "mount %s", ev->object);
		break;
	case EVENT_MOUNT_REMOVED:
		snprintf(buf, len, "umount %s", ev->object);
		break;
	case EVENT_DEVICE_ADDED:
	case EVENT_DEVICE_REMOVED:
		device_label(ev, ev->kind == EVENT_DEVICE_ADDED, buf, len);
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
