/* report_phases.c - where a report's phases begin and end, and their figures.
 *
 * A phase begins at its mark: an observed change at the sample that saw it (it
 * happened somewhere in the interval before, which is therefore left out of both
 * phases), a user mark, a run or a change ioscope made at its own time (the interval
 * it falls in is left out, unless it falls exactly on a sample).  Splitting a
 * straddling interval by time would guess how the I/O was spread around the change,
 * which is what the phases are meant to tell apart.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_phases.h"
#include "report_probe.h"

#define MIN_PHASE_SECONDS 10.0
#define MIN_PHASE_INTERVALS 5
/* Less than this at a phase's edges is noise (a journal commit), not its I/O: 0.1 MiB,
 * the least the reports print. */
#define PHASE_EDGE_MIN_KB 102.4

/* The kinds that begin a phase; the rest (devices, mounts coming and going, counter
 * resets, dips) are listed within theirs.  By name: `run` is a kind of a later
 * revision, and a kind this version does not know never reaches here. */
static const char *const cutting_kinds[] = {
	"scheduler", "tunable", "write_cache", "mount_options", "mark", "run",
};

bool report_event_cuts(const struct event *ev)
{
	const char *name = event_kind_name(ev->kind);
	for (size_t i = 0; name && i < sizeof cutting_kinds / sizeof cutting_kinds[0]; i++)
		if (strcmp(name, cutting_kinds[i]) == 0)
			return true;
	return false;
}

double report_min_phase_default(const struct report *rep)
{
	double interval = replay_machine(rep->replay)->interval;
	return fmax(MIN_PHASE_SECONDS, MIN_PHASE_INTERVALS * interval);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void swap_double(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/* Puts the k-th smallest of v[0..n) at v[k], the smaller before it and the larger after
 * (Hoare's selection, median of three): O(n) where a sort of a day's 86,400 awaits was a
 * twentieth of a report's time.  A range still long after 2 log2(n) rounds (values
 * placed to defeat the pivot) is sorted instead, so it is never quadratic. */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;   /* k in [lo, hi) */
	int rounds = 0;
	for (size_t m = n; m > 1; m >>= 1)
		rounds += 2;
	while (hi - lo > 2) {
		if (rounds-- == 0) {
			qsort(v + lo, hi - lo, sizeof *v, cmp_double);
			return;
		}
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			swap_double(&v[mid], &v[lo]);
		if (v[hi - 1] < v[lo])
			swap_double(&v[hi - 1], &v[lo]);
		if (v[hi - 1] < v[mid])
			swap_double(&v[hi - 1], &v[mid]);
		double pivot = v[mid];
		size_t i = lo, j = hi - 1;
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i >= j)
				break;
			swap_double(&v[i++], &v[j--]);
		}
		/* v[lo..j] <= pivot <= v[j+1..hi) */
		if (k <= j)
			hi = j + 1;
		else
			lo = j + 1;
	}
	if (hi - lo == 2 && v[lo + 1] < v[lo])
		swap_double(&v[lo], &v[lo + 1]);
}

/* Reorders v (the k-th smallest to its place; callers ask for several of the same). */
double report_percentile(double *v, size_t n, double p)
{
	if (n == 0)
		return NAN;
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	size_t k = rank ? rank - 1 : 0;
	select_kth(v, n, k);
	return v[k];
}

double report_active_mbps(const struct phase_device *s)
{
	return s->active_dt > 0 ? (s->rkb + s->wkb) / 1024 / s->active_dt : 0;
}

void report_rate_range(double amount, double t, double one_interval, double *lo, double *hi)
{
	*lo = amount / (t + one_interval);
	*hi = t > one_interval ? amount / (t - one_interval) : INFINITY;
}

/* ---- planning ---- */

/* Where a cutting event begins its phase: the first interval wholly after it, the
 * interval it falls in (0: none), and the phase's start time. */
struct cut {
	size_t first, left_out;
	enum phase_left_out why;
	struct timespec at;
};

static struct cut cut_of(const struct report *rep, const struct replay_event *ev)
{
	struct cut c = { .why = LEFT_OUT_NONE };
	if (ev->derivable) {
		c.first = ev->sample + 1;
		c.left_out = ev->sample;
		c.why = LEFT_OUT_OBSERVED;
		c.at = replay_sample_wall(rep->replay, ev->sample);
	} else {
		size_t j = ev->sample;
		struct timespec w = replay_sample_wall(rep->replay, j);
		while (j <= rep->last && timespec_diff(&w, &ev->event.wall) < 0)
			if (++j <= rep->last)
				w = replay_sample_wall(rep->replay, j);
		c.first = j + 1;
		c.at = ev->event.wall;
		if (j <= rep->last && timespec_diff(&w, &ev->event.wall) > 0) {
			c.left_out = j;
			c.why = LEFT_OUT_MARK;
		}
	}
	if (c.left_out <= rep->first) {   /* not an interval of the report */
		c.left_out = 0;
		c.why = LEFT_OUT_NONE;
	}
	if (c.first <= rep->first + 1) {
		c.first = rep->first + 1;
		c.at = replay_sample_wall(rep->replay, rep->first);
	}
	return c;
}

static int append_index(size_t **v, size_t *n, size_t k)
{
	size_t *grown = realloc(*v, (*n + 1) * sizeof *grown);
	if (!grown)
		return -1;
	*v = grown;
	(*v)[(*n)++] = k;
	return 0;
}

/* A cutting event opens a new phase, or joins the opening marks of the one whose
 * first interval it shares; one after the last sample is listed in the last phase
 * (one seen by the last sample opens a phase without intervals: the interval it
 * happened in is still left out of the phase before). */
static int add_cut(struct phase_plan *plan, const struct report *rep, const struct cut *c,
		   size_t k)
{
	struct phase *p = &plan->phases[plan->n - 1];
	if (c->first > rep->last + 1)
		return append_index(&p->listed, &p->nlisted, k);
	if (c->first > p->first) {
		p = &plan->phases[plan->n++];
		*p = (struct phase){ .from = c->at, .first = c->first };
	}
	if (c->left_out > p->left_out) {
		p->left_out = c->left_out;
		p->why_left_out = c->why;
	}
	return append_index(&p->opens, &p->nopens, k);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* The last intervals and end times, from where the next phase begins. */
static void close_phases(struct phase_plan *plan, const struct report *rep)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct phase *p = &plan->phases[i];
		if (i + 1 < plan->n) {
			const struct phase *next = &plan->phases[i + 1];
			p->last = (next->left_out ? next->left_out : next->first) - 1;
			p->to = next->from;
		} else {
			p->last = rep->last;
			p->to = replay_sample_wall(rep->replay, rep->last);
		}
		p->is_short = timespec_diff(&p->to, &p->from) < plan->min_phase;
	}
}

/* Events that do not cut go to the phase whose time span holds them. */
static int list_others(struct phase_plan *plan, const struct report *rep, struct replay_event *ev)
{
	size_t k = 0;
	for (size_t i = 0; i < rep->nevents; i++) {
		report_event(rep, i, ev);
		if (report_event_cuts(&ev->event))
			continue;
		while (k + 1 < plan->n && timespec_diff(&ev->event.wall, &plan->phases[k + 1].from) >= 0)
			k++;
		struct phase *p = &plan->phases[k];
		if (append_index(&p->listed, &p->nlisted, i) < 0)
			return -1;
	}
	struct phase *last = &plan->phases[plan->n - 1];   /* marks after the end came first */
	if (last->nlisted)
		qsort(last->listed, last->nlisted, sizeof *last->listed, cmp_size);
	return 0;
}

int report_phases_plan(struct report *rep, struct phase_plan *plan, struct error *err)
{
	memset(plan, 0, sizeof *plan);
	plan->min_phase = rep->min_phase > 0 ? rep->min_phase : report_min_phase_default(rep);
	plan->phases = calloc(rep->nevents + 1, sizeof *plan->phases);
	struct replay_event *ev = malloc(sizeof *ev);
	if (!plan->phases || !ev) {
		free(ev);
		return error_set(err, "out of memory");
	}
	plan->phases[0] = (struct phase){ .from = replay_sample_wall(rep->replay, rep->first),
					  .first = rep->first + 1 };
	plan->n = 1;
	for (size_t i = 0; i < rep->nevents; i++) {
		report_event(rep, i, ev);
		if (!report_event_cuts(&ev->event))
			continue;
		struct cut c = cut_of(rep, ev);
		if (add_cut(plan, rep, &c, i) < 0) {
			free(ev);
			return error_set(err, "out of memory");
		}
	}
	close_phases(plan, rep);
	int rc = list_others(plan, rep, ev);
	if (rc == 0 && !(plan->totals = calloc(rep->ndevices + 1, sizeof *plan->totals)))
		rc = -1;
	for (size_t i = 0; rc == 0 && i < plan->n; i++)
		if (!(plan->phases[i].dev = calloc(rep->ndevices + 1, sizeof *plan->phases[i].dev)))
			rc = -1;
	free(ev);
	return rc < 0 ? error_set(err, "out of memory") : 0;
}

/* ---- figures ---- */

static int add_await(struct phase_device *s, double v)
{
	if (grow_array(&s->awaits, &s->awaits_cap, s->nawaits + 1, sizeof *s->awaits, 64, NULL) < 0)
		return -1;
	s->awaits[s->nawaits++] = v;
	return 0;
}

static void accumulate_trace(struct phase_device *s, const struct snapshot *cur,
			     const struct device *dev, double dt)
{
	if (!cur->trace || dev->is_partition || dt <= 0)
		return;
	s->trace_dt += dt;
	const struct trace_device *d = trace_find(cur->trace, dev->major, dev->minor);
	if (!d)
		return;
	for (size_t dir = 0; dir < TRACE_SIZE_DIRS; dir++)
		for (size_t b = 0; b < TRACE_LAT_BUCKETS; b++) {
			s->d2c[dir][b] += d->d2c[dir][b];
			s->q2c[dir][b] += d->q2c[dir][b];
		}
	s->seeks += d->seeks;
}

static int accumulate(struct phase_device *s, const struct device_rates *r, double dt)
{
	if (!r->valid || dt <= 0)
		return 0;
	double iops = r->r_s + r->w_s + r->d_s;
	s->dt += dt;
	s->longest_dt = fmax(s->longest_dt, dt);
	if (r->rkB_s + r->wkB_s > 0) {
		s->active_dt += (s->active_dt > 0 ? s->idle_since_active : 0) + dt;
		s->idle_since_active = 0;
	} else {
		s->idle_since_active += dt;
	}
	s->rkb += r->rkB_s * dt;
	s->wkb += r->wkB_s * dt;
	s->ios += iops * dt;
	s->util_s += r->util * dt;
	if (r->util > PHASE_BUSY_UTIL) {
		s->busy_dt += dt;
		s->busy_rkb += r->rkB_s * dt;
		s->busy_wkb += r->wkB_s * dt;
		s->busy_ios += iops * dt;
	}
	s->rpeak = fmax(s->rpeak, r->rkB_s);
	s->wpeak = fmax(s->wpeak, r->wkB_s);
	s->iops_peak = fmax(s->iops_peak, iops);
	if (r->have_flush) {
		s->have_flush = true;
		s->flushes += r->f_s * dt;
	}
	double rq = r->r_s + r->w_s;
	return rq > 0 ? add_await(s, (r->r_await * r->r_s + r->w_await * r->w_s) / rq) : 0;
}

/* What a comparison tells phases apart by: the scheduler, write cache and queue
 * tunables (not iosched.*, which belong to their scheduler), and the options of
 * the filesystems on the device, one "key=value" a line. */
static char *setting_state(const struct snapshot *s, const char *name)
{
	const struct device *d = snapshot_find_device(s, name);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (d && d->settings.has_settings) {
		fprintf(f, "sched=%s\n", d->settings.scheduler);
		for (size_t i = 0; i < d->settings.nitems; i++)
			if (strncmp(d->settings.items[i].key, "iosched.", 8) != 0)
				fprintf(f, "%s=%s\n", d->settings.items[i].key, d->settings.items[i].value);
	}
	for (size_t i = 0; i < s->nmounts; i++) {
		const struct mount *m = &s->mounts[i];
		const struct device *md = m->disk[0] ? snapshot_find_device(s, m->disk) : NULL;
		if (md && (strcmp(md->name, name) == 0 || strcmp(md->parent, name) == 0))
			fprintf(f, "%s=%s,%s\n", m->mountpoint, m->mount_opts, m->super_opts);
	}
	fclose(f);
	return text;
}

/* Every interval counts in the totals; one left out of the phases (it straddles a mark)
 * counts between them and at the edge of the phase that mark opens. */
static void add_totals(struct phase_plan *plan, const struct report *rep,
		       const struct report_interval *iv, bool left_out)
{
	struct phase *opened = NULL;
	for (size_t j = plan->current + 1; left_out && !opened && j < plan->n; j++)
		if (plan->phases[j].left_out == iv->sample)
			opened = &plan->phases[j];
	for (size_t i = 0; i < iv->rates->ndevices; i++) {
		const struct device_rates *r = &iv->rates->devices[i];
		int k = iv->column[i];
		double dt = iv->rates->interval;
		if (k < 0 || !r->valid || dt <= 0)
			continue;
		struct phase_total *t = &plan->totals[k];
		t->rkb += r->rkB_s * dt;
		t->wkb += r->wkB_s * dt;
		if (!left_out)
			continue;
		t->between_rkb += r->rkB_s * dt;
		t->between_wkb += r->wkB_s * dt;
		if (opened) {
			opened->dev[k].edge_rkb += r->rkB_s * dt;
			opened->dev[k].edge_wkb += r->wkB_s * dt;
		}
	}
}

double report_phase_edge_kb(const struct phase_plan *plan, size_t i, size_t k)
{
	const struct phase_device *s = &plan->phases[i].dev[k];
	double kb = s->edge_rkb + s->edge_wkb;
	if (i + 1 < plan->n)
		kb += plan->phases[i + 1].dev[k].edge_rkb + plan->phases[i + 1].dev[k].edge_wkb;
	return kb;
}

bool report_phase_mostly_edges(const struct phase_plan *plan, size_t i, size_t k)
{
	const struct phase_device *s = &plan->phases[i].dev[k];
	double edges = report_phase_edge_kb(plan, i, k);
	return edges >= PHASE_EDGE_MIN_KB && edges > s->rkb + s->wkb;
}

int report_phases_add(struct phase_plan *plan, const struct report *rep,
		      const struct report_interval *iv)
{
	while (plan->current + 1 < plan->n && iv->sample >= plan->phases[plan->current + 1].first)
		plan->current++;
	struct phase *p = &plan->phases[plan->current];
	bool left_out = iv->sample < p->first || iv->sample > p->last;
	add_totals(plan, rep, iv, left_out);
	if (left_out)
		return 0;
	for (size_t i = 0; i < iv->rates->ndevices; i++) {
		int k = iv->column[i];
		if (k < 0)
			continue;
		struct phase_device *s = &p->dev[k];
		if (!s->state && !(s->state = setting_state(iv->cur, rep->devices[k])))
			return -1;
		if (accumulate(s, &iv->rates->devices[i], iv->rates->interval) < 0)
			return -1;
		if (i < iv->cur->ndevices)
			accumulate_trace(s, iv->cur, &iv->cur->devices[i], iv->rates->interval);
	}
	return report_probe_add(&p->probe, iv->cur);
}

struct build {
	struct phase_plan *plan;
	const struct report *rep;
};

static int add_interval(void *ctx, const struct report_interval *iv)
{
	struct build *b = ctx;
	return report_phases_add(b->plan, b->rep, iv);
}

int report_phases_build(struct report *rep, struct phase_plan *plan, struct error *err)
{
	if (report_phases_plan(rep, plan, err) < 0)
		return -1;
	struct build b = { plan, rep };
	int rc = report_walk(rep, add_interval, &b, err);
	if (rc < 0 && !err->msg[0])
		error_set(err, "out of memory");
	return rc;
}

void report_phases_free(struct phase_plan *plan, const struct report *rep)
{
	for (size_t i = 0; plan->phases && i < plan->n; i++) {
		struct phase *p = &plan->phases[i];
		for (size_t k = 0; p->dev && k < rep->ndevices; k++) {
			free(p->dev[k].awaits);
			free(p->dev[k].state);
		}
		free(p->dev);
		report_probe_free(p->probe);
		free(p->opens);
		free(p->listed);
	}
	free(plan->phases);
	free(plan->totals);
	memset(plan, 0, sizeof *plan);
}
