/* compare_settings.c - the settings of the devices `ioscope compare` pairs, side by side
 * (src/record/compare_settings.h).  Two sessions whose figures differ differ in something:
 * the header says what, before any figure, so that "xfs on loop1 vs ext4 on loop0,
 * bfq vs mq-deadline" is read first and not guessed from the log names. */
#include <stdint.h>
#include <string.h>

#include "compare_settings.h"
#include "text.h"

#define COLUMN 32

static bool is_run_start(const struct event *ev)
{
	return ev->kind == EVENT_RUN && strcmp(ev->object, "run") == 0 &&
	       strcmp(ev->key, "start") == 0;
}

/* The sample the first command's start came with, within the report; SIZE_MAX: none. */
static size_t command_sample(const struct report *rep)
{
	struct replay_event ev;
	for (size_t i = 0; i < replay_event_count(rep->replay); i++) {
		size_t s = replay_event_sample(rep->replay, i);
		if (s == SIZE_MAX || s < rep->first || s > rep->last)
			continue;
		if (replay_event_get(rep->replay, i, &ev) == 0 && is_run_start(&ev.event))
			return s;
	}
	return SIZE_MAX;
}

int compare_state_read(const struct report *rep, struct compare_state *st, struct error *err)
{
	snapshot_init(&st->snap);
	size_t s = command_sample(rep);
	st->at_command = s != SIZE_MAX;
	return replay_read(rep->replay, st->at_command ? s : rep->first, &st->snap, err);
}

void compare_state_free(struct compare_state *st)
{
	snapshot_free(&st->snap);
}

/* The next line of text, at most COLUMN bytes, broken after a comma or a slash or at a
 * space when it has to be (a path breaks between its components: "/tmp/test.az27ga/" and
 * "mnt-loop0", not "mnt-loo" and "p0"), at the last such place however early in the line
 * ("front_merges=1" then "prio_aging_expire=10000", not "...prio_aging_expire" then
 * "=10000"), cut only where there is none; *p moves past it. */
static void next_piece(const char **p, char *piece)
{
	const char *s = *p;
	size_t n = strlen(s);
	if (n > COLUMN) {
		n = COLUMN;
		while (n > 0 && s[n - 1] != ',' && s[n - 1] != '/' && s[n] != ' ')
			n--;
		if (n == 0)
			n = COLUMN;
	}
	memcpy(piece, s, n);
	piece[n] = '\0';
	s += n;
	while (*s == ' ')
		s++;
	*p = s;
}

void compare_row(FILE *out, const char *label, const char *a, const char *b)
{
	char ea[1024], eb[1024];
	const char *pa = text_escape(a, ea, sizeof ea), *pb = text_escape(b, eb, sizeof eb);
	bool first = true;
	do {
		char la[COLUMN + 1], lb[COLUMN + 1];
		next_piece(&pa, la);
		next_piece(&pb, lb);
		if (lb[0])
			text_printf(out, "  %-10s %-32s %s\n", first ? label : "", la, lb);
		else   /* no spaces at the end of the line */
			text_printf(out, "  %-10s %s\n", first ? label : "", la);
		first = false;
	} while (*pa || *pb);
}

static const struct mount *mount_of(const struct snapshot *s, const char *dev, size_t *more)
{
	const struct mount *found = NULL;
	*more = 0;
	for (size_t i = 0; i < s->nmounts; i++) {
		const struct mount *m = &s->mounts[i];
		if (!m->disk[0] || !snapshot_on_disk(s, m->disk, dev))
			continue;
		if (found)
			(*more)++;
		else
			found = m;
	}
	return found;
}

const char *compare_state_mount(const struct compare_state *st, const char *dev)
{
	size_t more;
	const struct mount *m = mount_of(&st->snap, dev, &more);
	return m ? m->mountpoint : "";
}

static void fs_rows(FILE *out, const struct snapshot *a, const char *dev_a,
		    const struct snapshot *b, const char *dev_b)
{
	size_t more_a, more_b;
	const struct mount *ma = mount_of(a, dev_a, &more_a), *mb = mount_of(b, dev_b, &more_b);
	char pa[MOUNT_PATH_MAX + 16] = "-", pb[MOUNT_PATH_MAX + 16] = "-";
	if (ma)
		snprintf(pa, sizeof pa, "%s%s", ma->mountpoint, more_a ? " (and more)" : "");
	if (mb)
		snprintf(pb, sizeof pb, "%s%s", mb->mountpoint, more_b ? " (and more)" : "");
	compare_row(out, "fs", ma ? ma->fstype : "-", mb ? mb->fstype : "-");
	compare_row(out, "mounted on", pa, pb);
	compare_row(out, "mount opts", ma ? ma->mount_opts : "-", mb ? mb->mount_opts : "-");
	compare_row(out, "fs options", ma ? ma->super_opts : "-", mb ? mb->super_opts : "-");
}

static void side_value(const struct device *d, const char *key, char *buf, size_t len)
{
	const char *v = d ? device_setting(d, key) : NULL;
	snprintf(buf, len, v ? "%s=%s" : "%s -", key, v ? v : "");
}

/* A scheduler's own tunable, which the other side's scheduler does not have. */
static bool own_iosched(const struct device *d, const struct device *other, const char *key)
{
	return strncmp(key, "iosched.", 8) == 0 && (!other || !device_setting(other, key)) &&
	       d && device_setting(d, key);
}

/* A tunable of either side, once: its value on each, when they differ. */
static void tunable_row(FILE *out, const struct device *da, const struct device *db,
			const char *key, bool *first)
{
	const char *va = da ? device_setting(da, key) : NULL;
	const char *vb = db ? device_setting(db, key) : NULL;
	if ((va && vb && strcmp(va, vb) == 0) || own_iosched(da, db, key) ||
	    own_iosched(db, da, key))
		return;
	char a[SETTING_KEY_MAX + SETTING_VAL_MAX + 4], b[sizeof a];
	side_value(da, key, a, sizeof a);
	side_value(db, key, b, sizeof b);
	compare_row(out, *first ? "tunables" : "", a, b);
	*first = false;
}

/* Both sides' tunables in key order (each list is sorted), each key once. */
static void tunable_rows(FILE *out, const struct device *da, const struct device *db)
{
	bool first = true;
	size_t na = da ? da->settings.nitems : 0, nb = db ? db->settings.nitems : 0, i = 0, j = 0;
	while (i < na || j < nb) {
		int order = i == na ? 1 : j == nb ? -1
				: strcmp(da->settings.items[i].key, db->settings.items[j].key);
		const char *key = order <= 0 ? da->settings.items[i].key : db->settings.items[j].key;
		tunable_row(out, da, db, key, &first);
		i += order <= 0;
		j += order >= 0;
	}
	if (first)
		compare_row(out, "tunables", "(the same)", "(the same)");
}

/* "fifo_batch=16 read_expire=500 ...": the tunables of d's scheduler that other's has not. */
static void own_iosched_text(const struct device *d, const struct device *other, char *buf,
			     size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; d && i < d->settings.nitems; i++) {
		const struct setting *s = &d->settings.items[i];
		if (own_iosched(d, other, s->key))
			used = text_appendf(buf, len, used, "%s%s=%s", used ? " " : "", s->key + 8,
					    s->value);
	}
	if (!used)
		snprintf(buf, len, "-");
}

/* Two schedulers: each one's own tunables, on one wrapped row. */
static void iosched_row(FILE *out, const struct device *da, const struct device *db)
{
	char a[1024], b[1024];
	own_iosched_text(da, db, a, sizeof a);
	own_iosched_text(db, da, b, sizeof b);
	if (strcmp(a, "-") != 0 || strcmp(b, "-") != 0)
		compare_row(out, "iosched", a, b);
}

void compare_settings_print(FILE *out, const struct compare_state *a, const char *dev_a,
			    const struct compare_state *b, const char *dev_b)
{
	const struct device *da = snapshot_find_device(&a->snap, dev_a);
	const struct device *db = snapshot_find_device(&b->snap, dev_b);
	fputs("\n", out);
	compare_row(out, "device", dev_a, dev_b);
	compare_row(out, "as of", a->at_command ? "its command's start" : "the recording's start",
		    b->at_command ? "its command's start" : "the recording's start");
	fs_rows(out, &a->snap, dev_a, &b->snap, dev_b);
	compare_row(out, "scheduler", da && da->settings.has_settings ? da->settings.scheduler : "-",
		    db && db->settings.has_settings ? db->settings.scheduler : "-");
	tunable_rows(out, da, db);
	iosched_row(out, da, db);
}
