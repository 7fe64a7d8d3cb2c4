/* output_prom_why.c - the exposition's "why" figures (docs/fleet.md): dirty memory and
 * its limits, the journals of the watched filesystems, blocked tasks by wait channel,
 * dips.  The figures are the batch JSON's (why.h, tasks.h, dip.h), in base units. */
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "prom_writer.h"
#include "text.h"
#include "why.h"

/* ---- dirty memory ---- */

void prom_emit_dirty_gauge(struct prom_ctx *c)
{
	const struct why_rates *y = c->v->why;
	if (!y || !y->have_dirty)
		return;
	double kb = *(const double *)((const char *)y + c->f->which);
	prom_sample(c, "", NULL, 0, kb * c->f->scale);
}

/* The kernel's page counters as they are (since boot): rate() makes them bytes/s. */
void prom_emit_dirty_counter(struct prom_ctx *c)
{
	const struct why_sample *w = c->v->snap->why;
	if (!w || !w->dirty.have || c->f->which >= WD_COUNT)
		return;
	double pages = (double)w->dirty.v[c->f->which];
	prom_sample(c, "", NULL, 0, pages * (double)w->dirty.page_kb * 1024);
}

/* ---- journals ---- */

/* The raw counter each filesystem has for a family (-1: none). */
static const int journal_counters[][JOURNAL_FS_COUNT] = {
	{ [JOURNAL_EXT4] = J4_TRANSACTIONS, [JOURNAL_XFS] = -1, [JOURNAL_BTRFS] = JB_COMMITS },
	{ [JOURNAL_EXT4] = -1, [JOURNAL_XFS] = JX_LOG_WRITES, [JOURNAL_BTRFS] = -1 },
	{ [JOURNAL_EXT4] = -1, [JOURNAL_XFS] = JX_FORCES, [JOURNAL_BTRFS] = -1 },
	{ [JOURNAL_EXT4] = -1, [JOURNAL_XFS] = JX_FORCE_SLEEPS, [JOURNAL_BTRFS] = -1 },
	{ [JOURNAL_EXT4] = -1, [JOURNAL_XFS] = JX_SLEEP_LOGSPACE, [JOURNAL_BTRFS] = -1 },
	{ [JOURNAL_EXT4] = -1, [JOURNAL_XFS] = JX_PUSH_AIL, [JOURNAL_BTRFS] = -1 },
};

static void journal_sample(struct prom_ctx *c, const char *mountpoint, const char *device,
			   enum journal_fs fs, double v)
{
	struct label l[] = { { "mountpoint", mountpoint }, { "device", device },
			     { "fstype", journal_fs_defs[fs].fstype } };
	prom_sample(c, "", l, 3, v);
}

/* The raw counter of the family's row journal i has, -1 when none (or not read). */
static int journal_raw_of(const struct prom_ctx *c, size_t i)
{
	const struct journal_raw *j = &c->v->snap->why->journals[i];
	if ((unsigned)j->fs >= JOURNAL_FS_COUNT || !prom_disk_shown(c, j->device))
		return -1;
	int raw = journal_counters[c->f->which][j->fs];
	return raw >= 0 && (j->present & (1u << raw)) ? raw : -1;
}

static const char *counted_mountpoint(const struct prom_ctx *c, size_t i)
{
	return journal_raw_of(c, i) >= 0 ? c->v->snap->why->journals[i].mountpoint : NULL;
}

/* Journals are watched per mount (why_sampler.c): one series per mount point, the
 * visible mount's, as ioscope_mount_info. */
void prom_emit_journal_counter(struct prom_ctx *c)
{
	const struct why_sample *w = c->v->snap->why;
	if (!w || c->f->which >= sizeof journal_counters / sizeof journal_counters[0])
		return;
	size_t n = w->njournals < WHY_JOURNALS_MAX ? w->njournals : WHY_JOURNALS_MAX;
	bool *visible = prom_last_alike(c, n, counted_mountpoint);
	for (size_t i = 0; visible && i < n; i++) {
		const struct journal_raw *j = &w->journals[i];
		if (visible[i])
			journal_sample(c, j->mountpoint, j->device, j->fs,
				       (double)j->v[journal_raw_of(c, i)]);
	}
	free(visible);
}

static const char *measured_mountpoint(const struct prom_ctx *c, size_t i)
{
	const struct journal_rates *j = &c->v->why->journals[i];
	bool has = (unsigned)j->fs < JOURNAL_FS_COUNT && (j->present & (1u << c->f->which)) &&
		   prom_disk_shown(c, j->device);
	return has ? j->mountpoint : NULL;
}

void prom_emit_journal_gauge(struct prom_ctx *c)
{
	const struct why_rates *y = c->v->why;
	size_t f = c->f->which;
	if (!y || f >= JF_COUNT)
		return;
	size_t n = y->njournals < WHY_JOURNALS_MAX ? y->njournals : WHY_JOURNALS_MAX;
	bool *visible = prom_last_alike(c, n, measured_mountpoint);
	for (size_t i = 0; visible && i < n; i++) {
		const struct journal_rates *j = &y->journals[i];
		if (visible[i])
			journal_sample(c, j->mountpoint, j->device, j->fs, j->f[f] * c->f->scale);
	}
	free(visible);
}

/* ---- blocked tasks by wait channel ---- */

static int by_count_then_name(const void *a, const void *b)
{
	const struct prom_wchan *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The group of an escaped name in g[0..*n), added at 0 when new. */
static struct prom_wchan *group_of(struct prom_wchan *g, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(g[i].name, name) == 0)
			return &g[i];
	struct prom_wchan *w = &g[(*n)++];
	snprintf(w->name, sizeof w->name, "%s", name);
	w->count = 0;
	return w;
}

int prom_wchan_top(const struct tasks_sample *t, struct prom_wchan out[PROM_WCHAN_TOP],
		   uint32_t *other)
{
	*other = 0;
	if (!t)
		return 0;
	struct prom_wchan *g = calloc(t->nkept ? t->nkept : 1, sizeof *g);
	if (!g)
		return -1;
	size_t n = 0;
	uint32_t kept = 0;
	for (size_t i = 0; i < t->nkept; i++) {
		char name[TASK_WCHAN_MAX];
		text_escape(t->blocked[i].wchan[0] ? t->blocked[i].wchan : "?", name, sizeof name);
		kept++;
		if (strcmp(name, "other") == 0)
			(*other)++;
		else
			group_of(g, &n, name)->count++;
	}
	qsort(g, n, sizeof *g, by_count_then_name);
	size_t top = n < PROM_WCHAN_TOP ? n : PROM_WCHAN_TOP;
	memcpy(out, g, top * sizeof *g);
	for (size_t i = top; i < n; i++)
		*other += g[i].count;
	if (t->nblocked > kept)
		*other += t->nblocked - kept;   /* not kept: their channel is not known */
	free(g);
	return (int)top;
}

/* Only with --tasks, as batch mode; "other" is always there, so a series set that
 * has 20 groups and a sum() over it stay whole. */
void prom_emit_tasks_blocked(struct prom_ctx *c)
{
	const struct tasks_sample *t = c->v->snap->tasks;
	if (!c->v->with_tasks || !t)
		return;
	struct prom_wchan top[PROM_WCHAN_TOP];
	uint32_t other;
	int n = prom_wchan_top(t, top, &other);
	if (n < 0) {
		c->b->failed = true;
		return;
	}
	for (int i = 0; i < n; i++)
		prom_sample(c, "", &(struct label){ "wchan", top[i].name }, 1, top[i].count);
	prom_sample(c, "", &(struct label){ "wchan", "other" }, 1, other);
}

/* Per shown disk, the blocked tasks attributed to it (attribution.h): a task on a loop
 * device counts for the disk under it too.  0 for a disk with none, so the series stay. */
void prom_emit_disk_tasks_blocked(struct prom_ctx *c)
{
	const struct snapshot *s = c->v->snap;
	const struct tasks_sample *t = s->tasks;
	if (!c->v->with_tasks || !t)
		return;
	struct attribution *of = calloc(t->nkept ? t->nkept : 1, sizeof *of);
	if (!of) {
		c->b->failed = true;
		return;
	}
	for (size_t i = 0; i < t->nkept; i++)
		attribution_of_blocked(s, &t->blocked[i], &of[i]);
	for (size_t d = 0; d < s->ndevices; d++) {
		if (!c->v->shown[d] || s->devices[d].is_partition)
			continue;
		uint32_t n = 0;
		for (size_t i = 0; i < t->nkept; i++)
			n += attribution_serves(&of[i], s, s->devices[d].name);
		prom_sample(c, "", &(struct label){ "device", s->devices[d].name }, 1, n);
	}
	free(of);
}

/* ---- dips ---- */

/* Every device that has change counters has its dip counter (at 0 from the start). */
void prom_emit_dips(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->x->nchanges; i++) {
		const struct prom_changes *ch = &c->x->changes[i];
		if (!ch->device[0])
			continue;
		uint64_t n = 0;
		for (int by = 0; by < PROM_BY_COUNT; by++)
			n += ch->count[EVENT_DIP][by];
		prom_sample(c, "", &(struct label){ "device", ch->device }, 1, (double)n);
	}
}

void prom_emit_last_dip(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->x->nchanges; i++) {
		const struct prom_changes *ch = &c->x->changes[i];
		const struct timespec *t = &ch->last[EVENT_DIP];
		if (!ch->device[0] || (!t->tv_sec && !t->tv_nsec))
			continue;
		prom_sample(c, "", &(struct label){ "device", ch->device }, 1, timespec_seconds(t));
	}
}
