/* history.c - the ring of recent figures and events (see history.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "history.h"
#include "tasks.h"
#include "trace.h"
#include "why.h"

#define HISTORY_MAX_MARKS 100000u

struct history_slot {
	double mono, wall;
	float interval;
	float sys[HSM_COUNT];
};

struct history_device {
	char name[DEV_NAME_MAX];
	uint64_t first_n, last_n;  /* samples it was first and last present in */
	float *values;             /* alloc_slots * HM_COUNT, NULL while it has been idle */
};

struct history {
	size_t capacity;           /* slots in the full ring */
	size_t alloc_slots;        /* slots allocated so far (grows up to capacity) */
	uint64_t count;            /* samples appended */
	uint64_t base;             /* the n of slot 0 (a resize or a start elsewhere moves it) */
	struct history_slot *slots;
	struct history_device *devs;
	size_t ndevs, devs_cap;
	size_t *map;               /* rates index -> devs index, from the last append */
	size_t map_cap;
	struct history_mark **marks;
	size_t marks_start, marks_count, marks_cap;
	uint64_t marks_dropped;    /* marks ever dropped: numbers stay the same while held */
	uint64_t grows;            /* times the rings were reallocated: bounded by log2(capacity) */
};

static size_t clamp_capacity(size_t c)
{
	if (c < HISTORY_MIN_CAPACITY)
		return HISTORY_MIN_CAPACITY;
	if (c > HISTORY_MAX_CAPACITY)
		return HISTORY_MAX_CAPACITY;
	return c;
}

/* A sample with HISTORY_BUSY_DEVICES devices doing I/O: what the memory bound counts. */
static size_t sample_bytes(void)
{
	return sizeof(struct history_slot) + HISTORY_BUSY_DEVICES * HM_COUNT * sizeof(float);
}

size_t history_capacity_for(double seconds, double interval)
{
	if (!(interval > 0) || !(seconds > 0))
		return HISTORY_MIN_CAPACITY;
	double n = ceil(seconds / interval);
	double budget = (double)(HISTORY_BUDGET_BYTES / sample_bytes());
	if (n > budget)
		n = budget;
	if (n > HISTORY_MAX_CAPACITY)
		return HISTORY_MAX_CAPACITY;
	return clamp_capacity((size_t)n);
}

struct history *history_new(size_t capacity)
{
	struct history *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->capacity = clamp_capacity(capacity);
	return h;
}

void history_free(struct history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->ndevs; i++)
		free(h->devs[i].values);
	for (size_t i = 0; i < h->marks_count; i++)
		free(h->marks[h->marks_start + i]);
	free(h->marks);
	free(h->devs);
	free(h->map);
	free(h->slots);
	free(h);
}

size_t history_capacity(const struct history *h) { return h->capacity; }
uint64_t history_count(const struct history *h) { return h->count; }

uint64_t history_oldest(const struct history *h)
{
	return h->count - h->base > h->capacity ? h->count - h->capacity : h->base;
}

bool history_has(const struct history *h, uint64_t n)
{
	return n < h->count && n >= history_oldest(h);
}

static size_t slot_of(const struct history *h, uint64_t n)
{
	return (size_t)((n - h->base) % h->capacity);
}

static void fill_nan(float *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = NAN;
}

/* Make room for sample n: rings double until they reach the capacity.  While
 * n - base < capacity the ring has not wrapped, so growing keeps every index valid.
 * A full ring wraps without moving base, so n - base keeps growing: it is full-size
 * that ends the growing, or every later sample would reallocate every ring. */
static int grow_for(struct history *h, uint64_t n)
{
	if (n - h->base < h->alloc_slots || h->alloc_slots == h->capacity)
		return 0;
	size_t want = h->alloc_slots ? h->alloc_slots * 2 : 64;
	if (want > h->capacity)
		want = h->capacity;
	struct history_slot *s = realloc(h->slots, want * sizeof *s);
	if (!s)
		return -1;
	h->slots = s;
	for (size_t i = 0; i < h->ndevs; i++) {
		struct history_device *d = &h->devs[i];
		if (!d->values)
			continue;
		float *v = realloc(d->values, want * HM_COUNT * sizeof *v);
		if (!v)
			return -1;
		fill_nan(v + h->alloc_slots * HM_COUNT, (want - h->alloc_slots) * HM_COUNT);
		d->values = v;
	}
	h->alloc_slots = want;
	h->grows++;
	return 0;
}

uint64_t history_grows(const struct history *h) { return h->grows; }

static int device_add(struct history *h, const char *name, uint64_t n)
{
	if (grow_array(&h->devs, &h->devs_cap, h->ndevs + 1, sizeof *h->devs, 16, NULL) < 0)
		return -1;
	struct history_device *d = &h->devs[h->ndevs];
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "%s", name);
	d->first_n = d->last_n = n;
	return (int)h->ndevs++;
}

int history_device_find(const struct history *h, const char *name)
{
	for (size_t i = 0; i < h->ndevs; i++)
		if (strcmp(h->devs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Index of rates device i in devs; the order rarely changes, so try last time's. */
static int device_index(struct history *h, const struct rates *r, size_t i, uint64_t n)
{
	const char *name = r->devices[i].name;
	if (i < h->map_cap && h->map[i] < h->ndevs && strcmp(h->devs[h->map[i]].name, name) == 0)
		return (int)h->map[i];
	int d = history_device_find(h, name);
	if (d < 0)
		d = device_add(h, name, n);
	if (d >= 0 && i < h->map_cap)
		h->map[i] = (size_t)d;
	return d;
}

static int ensure_map(struct history *h, size_t n)
{
	if (n <= h->map_cap)
		return 0;
	size_t *m = realloc(h->map, n * sizeof *m);
	if (!m)
		return -1;
	for (size_t i = h->map_cap; i < n; i++)
		m[i] = SIZE_MAX;
	h->map = m;
	h->map_cap = n;
	return 0;
}

static void device_figures(const struct device_rates *dr, float *out)
{
	out[HM_IN_FLIGHT] = (float)dr->in_flight;
	if (!dr->valid) {
		for (int m = 0; m < HM_COUNT; m++)
			if (m != HM_IN_FLIGHT)
				out[m] = NAN;
		return;
	}
	out[HM_READ_MBS] = (float)(dr->rkB_s / 1024.0);
	out[HM_WRITE_MBS] = (float)(dr->wkB_s / 1024.0);
	out[HM_READ_IOPS] = (float)dr->r_s;
	out[HM_WRITE_IOPS] = (float)dr->w_s;
	out[HM_READ_AWAIT] = (float)dr->r_await;
	out[HM_WRITE_AWAIT] = (float)dr->w_await;
	out[HM_UTIL] = (float)dr->util;
	out[HM_FLUSH_S] = dr->have_flush ? (float)dr->f_s : NAN;
	out[HM_DISCARD_S] = dr->have_discard ? (float)dr->d_s : NAN;
	fill_nan(out + HM_SEEKS_S, HM_COUNT - HM_SEEKS_S);   /* history_add_signals' */
}

static bool all_idle(const float *v)
{
	for (int m = 0; m < HM_COUNT; m++)
		if (v[m] != 0 && !isnan(v[m]))
			return false;
	return true;
}

/* What an idle device reads as while it has no ring: the diskstats figures 0, seeks 0
 * where the sample was traced, the journals nothing (no commit ended). */
static float idle_value(const struct history *h, enum history_metric m, uint64_t n)
{
	if (m < HM_SEEKS_S)
		return 0.0f;
	if (m == HM_SEEKS_S && history_sys_value(h, HSM_TRACED, n) > 0)
		return 0.0f;
	return NAN;
}

/* A device's ring comes into being at its first activity; the samples before read as idle
 * where it was present and NaN before it appeared. */
static int device_materialise(struct history *h, struct history_device *d)
{
	d->values = malloc(h->alloc_slots * HM_COUNT * sizeof *d->values);
	if (!d->values)
		return -1;
	fill_nan(d->values, h->alloc_slots * HM_COUNT);
	uint64_t from = d->first_n > history_oldest(h) ? d->first_n : history_oldest(h);
	for (uint64_t n = from; n < h->count; n++) {
		float *v = d->values + slot_of(h, n) * HM_COUNT;
		for (int m = 0; m < HM_COUNT; m++)
			v[m] = idle_value(h, (enum history_metric)m, n);
	}
	return 0;
}

static void sys_figures(const struct vm_rates *vm, float *out)
{
	out[HSM_DIRTY_MB] = (float)(vm->dirty / 1024.0);
	out[HSM_WRITEBACK_MB] = (float)(vm->writeback / 1024.0);
	out[HSM_BI] = vm->valid ? (float)vm->bi : NAN;
	out[HSM_BO] = vm->valid ? (float)vm->bo : NAN;
	out[HSM_WA] = vm->valid ? (float)vm->wa : NAN;
	out[HSM_PSI_SOME] = vm->have_psi ? (float)vm->psi_some_avg10 : NAN;
	out[HSM_PSI_FULL] = vm->have_psi ? (float)vm->psi_full_avg10 : NAN;
	out[HSM_PROBE_P50_MS] = (float)vm->probe_p50_ms;
	out[HSM_PROBE_MAX_MS] = (float)vm->probe_max_ms;
	fill_nan(out + HSM_DIRTY_BG_MB, HSM_COUNT - HSM_DIRTY_BG_MB);   /* history_add_signals' */
}

/* Marks outlive the samples they were drawn at: the marks panel lists a day's changes
 * while the graphs hold the last hour.  Only their number is bounded. */
static void drop_old_marks(struct history *h)
{
	while (h->marks_count && h->marks_count >= HISTORY_MAX_MARKS) {
		free(h->marks[h->marks_start]);
		h->marks_start++;
		h->marks_count--;
		h->marks_dropped++;
	}
}

int history_append(struct history *h, const struct rates *r)
{
	uint64_t n = h->count;
	if (grow_for(h, n) < 0 || ensure_map(h, r->ndevices) < 0)
		return -1;
	size_t slot = slot_of(h, n);
	struct history_slot *s = &h->slots[slot];
	/* Rates carry measured intervals, not a monotonic stamp: their sum is one, and
	 * unlike wall time it never jumps. */
	double prev_mono = n > 0 && history_has(h, n - 1) ? h->slots[slot_of(h, n - 1)].mono : 0;
	s->mono = prev_mono + (r->interval > 0 ? r->interval : 0);
	s->wall = timespec_seconds(&r->wall);
	s->interval = (float)r->interval;
	sys_figures(&r->vm, s->sys);

	/* Absent devices read as missing in this slot. */
	for (size_t i = 0; i < h->ndevs; i++)
		if (h->devs[i].values)
			fill_nan(h->devs[i].values + slot * HM_COUNT, HM_COUNT);

	float fig[HM_COUNT];
	for (size_t i = 0; i < r->ndevices; i++) {
		int di = device_index(h, r, i, n);
		if (di < 0)
			return -1;
		struct history_device *d = &h->devs[di];
		d->last_n = n;
		device_figures(&r->devices[i], fig);
		if (!d->values && all_idle(fig))
			continue;
		if (!d->values && device_materialise(h, d) < 0)
			return -1;
		memcpy(d->values + slot * HM_COUNT, fig, sizeof fig);
	}
	h->count = n + 1;
	drop_old_marks(h);
	return 0;
}

double history_mono(const struct history *h, uint64_t n)
{
	return history_has(h, n) ? h->slots[slot_of(h, n)].mono : NAN;
}

float history_value(const struct history *h, size_t dev, enum history_metric m, uint64_t n)
{
	if (dev >= h->ndevs || !history_has(h, n) || (unsigned)m >= HM_COUNT)
		return NAN;
	const struct history_device *d = &h->devs[dev];
	if (d->values)
		return d->values[slot_of(h, n) * HM_COUNT + m];
	return n >= d->first_n && n <= d->last_n ? idle_value(h, m, n) : NAN;
}

float history_sys_value(const struct history *h, enum history_sys_metric m, uint64_t n)
{
	if (!history_has(h, n) || (unsigned)m >= HSM_COUNT)
		return NAN;
	return h->slots[slot_of(h, n)].sys[m];
}

/* ---- the figures rates do not carry (history_add_signals) ---- */

static void dirty_limits(const struct why_rates *why, float *sys)
{
	bool have = why && why->have_dirty;
	sys[HSM_DIRTY_BG_MB] = have ? (float)(why->background_kb / 1024.0) : NAN;
	sys[HSM_DIRTY_FREERUN_MB] = have ? (float)(why->freerun_kb / 1024.0) : NAN;
	sys[HSM_DIRTY_LIMIT_MB] = have ? (float)(why->threshold_kb / 1024.0) : NAN;
}

/* The longest commit time and the sum of the log forces of the device's journals. */
static void journal_signals(const struct snapshot *cur, const struct why_rates *why,
			    const char *dev, float *out)
{
	out[HM_JOURNAL_COMMIT_MS] = out[HM_JOURNAL_FORCES_S] = NAN;
	for (size_t i = 0; why && i < why->njournals; i++) {
		const struct journal_rates *j = &why->journals[i];
		if (!snapshot_on_disk(cur, j->device, dev))
			continue;
		float *c = &out[HM_JOURNAL_COMMIT_MS], *f = &out[HM_JOURNAL_FORCES_S];
		if (j->present & 1u << JF_COMMIT_MS && !(*c >= (float)j->f[JF_COMMIT_MS]))
			*c = (float)j->f[JF_COMMIT_MS];
		if (j->present & 1u << JF_LOG_FORCES_S)
			*f = (isnan(*f) ? 0.0f : *f) + (float)j->f[JF_LOG_FORCES_S];
	}
}

/* Seeks/s of a whole disk in a traced sample: a disk the trace does not list issued nothing. */
static float seeks_of(const struct snapshot *cur, const struct device *d, double interval)
{
	if (!cur->trace || d->is_partition || !(interval > 0))
		return NAN;
	const struct trace_device *t = trace_find(cur->trace, d->major, d->minor);
	return t ? (float)((double)t->seeks / interval) : 0.0f;
}

/* Into the device's ring at sample n; a device still without one gets it only for a
 * figure an idle device would not read as. */
static int store_signals(struct history *h, uint64_t n, const char *name, const float *fig)
{
	int di = history_device_find(h, name);
	if (di < 0)
		return 0;
	struct history_device *d = &h->devs[di];
	bool idle = true;
	for (int m = HM_SEEKS_S; m < HM_COUNT; m++) {
		float iv = idle_value(h, (enum history_metric)m, n);
		idle &= isnan(fig[m]) ? isnan(iv) : fig[m] == iv;
	}
	if (!d->values && idle)
		return 0;
	if (!d->values && device_materialise(h, d) < 0)
		return -1;
	float *v = d->values + slot_of(h, n) * HM_COUNT;
	memcpy(v + HM_SEEKS_S, fig + HM_SEEKS_S, (HM_COUNT - HM_SEEKS_S) * sizeof *v);
	return 0;
}

int history_add_signals(struct history *h, const struct snapshot *cur, const struct why_rates *why)
{
	if (!h->count)
		return 0;
	uint64_t n = h->count - 1;
	struct history_slot *s = &h->slots[slot_of(h, n)];
	dirty_limits(why, s->sys);
	s->sys[HSM_D_TASKS] = cur->tasks ? (float)cur->tasks->nblocked : NAN;
	s->sys[HSM_TRACED] = cur->trace ? 1.0f : NAN;
	for (size_t i = 0; i < cur->ndevices; i++) {
		const struct device *d = &cur->devices[i];
		float fig[HM_COUNT];
		fig[HM_SEEKS_S] = seeks_of(cur, d, s->interval);
		journal_signals(cur, why, d->name, fig);
		if (store_signals(h, n, d->name, fig) < 0)
			return -1;
	}
	return 0;
}

static char *pack(char **p, const char *s)
{
	size_t len = strlen(s) + 1;
	char *at = *p;
	memcpy(at, s, len);
	*p += len;
	return at;
}

/* One allocation per mark: the struct, then its strings. */
static struct history_mark *mark_new(const struct event *ev, uint64_t n)
{
	char label[MOUNT_OPTS_MAX + 64], resets[2048];
	event_label(ev, label, sizeof label);
	event_resets_text(ev, resets, sizeof resets);
	size_t len = sizeof(struct history_mark) + strlen(ev->object) + strlen(ev->key) +
		     strlen(ev->old_value) + strlen(ev->new_value) + strlen(ev->by) +
		     strlen(ev->result) + strlen(label) + strlen(resets) + strlen(ev->scope) + 9;
	struct history_mark *m = malloc(len);
	if (!m)
		return NULL;
	char *p = (char *)(m + 1);
	m->n = n;
	m->number = ev->number;
	m->wall = ev->wall;
	m->kind = ev->kind;
	m->refused = event_refused(ev);
	m->both_columns = ev->kind == EVENT_MOUNT_OPTIONS && ev->nresets > 0;
	m->object = pack(&p, ev->object);
	m->key = pack(&p, ev->key);
	m->old_value = pack(&p, ev->old_value);
	m->new_value = pack(&p, ev->new_value);
	m->by = pack(&p, ev->by);
	m->result = pack(&p, ev->result);
	m->label = pack(&p, label);
	m->resets = pack(&p, resets);
	m->scope = pack(&p, ev->scope);
	return m;
}

static int marks_room(struct history *h)
{
	if (h->marks_start + h->marks_count < h->marks_cap)
		return 0;
	if (h->marks_start > 0) {
		memmove(h->marks, h->marks + h->marks_start, h->marks_count * sizeof *h->marks);
		h->marks_start = 0;
		if (h->marks_count < h->marks_cap)
			return 0;
	}
	return grow_array(&h->marks, &h->marks_cap, h->marks_count + 1, sizeof *h->marks, 64, NULL);
}

int history_add_event_at(struct history *h, const struct event *ev, uint64_t n)
{
	drop_old_marks(h);
	if (marks_room(h) < 0)
		return -1;
	struct history_mark *m = mark_new(ev, n);
	if (!m)
		return -1;
	h->marks[h->marks_start + h->marks_count++] = m;
	return 0;
}

int history_add_event(struct history *h, const struct event *ev)
{
	return history_add_event_at(h, ev, h->count > h->base ? h->count - 1 : h->base);
}

void history_start_at(struct history *h, uint64_t n)
{
	if (h->count == h->base)
		h->count = h->base = n;
}

/* ---- a new capacity: the newest samples that fit, copied to a ring of that size ---- */

struct history_resized {
	struct history_slot *slots;
	float **values;            /* per device, NULL where it has none */
	size_t alloc;
};

static void resized_free(struct history_resized *r, size_t ndevs)
{
	for (size_t i = 0; r->values && i < ndevs; i++)
		free(r->values[i]);
	free(r->values);
	free(r->slots);
}

static int resized_alloc(const struct history *h, struct history_resized *r)
{
	r->slots = malloc(r->alloc * sizeof *r->slots);
	r->values = calloc(h->ndevs ? h->ndevs : 1, sizeof *r->values);
	if (!r->slots || !r->values)
		return -1;
	for (size_t i = 0; i < h->ndevs; i++) {
		if (!h->devs[i].values)
			continue;
		r->values[i] = malloc(r->alloc * HM_COUNT * sizeof(float));
		if (!r->values[i])
			return -1;
		fill_nan(r->values[i], r->alloc * HM_COUNT);
	}
	return 0;
}

int history_resize(struct history *h, size_t capacity)
{
	capacity = clamp_capacity(capacity);
	if (capacity == h->capacity)
		return 0;
	uint64_t from = history_oldest(h);
	if (h->count - from > capacity)
		from = h->count - capacity;
	size_t keep = (size_t)(h->count - from);
	struct history_resized r = { .alloc = keep > 64 ? keep : 64 };
	if (r.alloc > capacity)
		r.alloc = capacity;
	if (resized_alloc(h, &r) < 0) {
		resized_free(&r, h->ndevs);
		return -1;
	}
	for (uint64_t n = from; n < h->count; n++) {
		size_t old = slot_of(h, n), to = (size_t)(n - from);
		r.slots[to] = h->slots[old];
		for (size_t i = 0; i < h->ndevs; i++)
			if (r.values[i])
				memcpy(r.values[i] + to * HM_COUNT, h->devs[i].values + old * HM_COUNT,
				       HM_COUNT * sizeof(float));
	}
	free(h->slots);
	h->slots = r.slots;
	for (size_t i = 0; i < h->ndevs; i++) {
		free(h->devs[i].values);
		h->devs[i].values = r.values[i];
	}
	free(r.values);
	h->alloc_slots = r.alloc;
	h->capacity = capacity;
	h->base = from;
	return 0;
}

size_t history_mark_count(const struct history *h) { return h->marks_count; }

uint64_t history_mark_number(const struct history *h, size_t i)
{
	const struct history_mark *m = history_mark_get(h, i);
	return m && m->number ? m->number : h->marks_dropped + i + 1;
}

const struct history_mark *history_mark_get(const struct history *h, size_t i)
{
	return i < h->marks_count ? h->marks[h->marks_start + i] : NULL;
}

size_t history_memory(const struct history *h)
{
	size_t bytes = sizeof *h + h->alloc_slots * sizeof *h->slots +
		       h->devs_cap * sizeof *h->devs + h->map_cap * sizeof *h->map +
		       h->marks_cap * sizeof *h->marks;
	for (size_t i = 0; i < h->ndevs; i++)
		if (h->devs[i].values)
			bytes += h->alloc_slots * HM_COUNT * sizeof(float);
	for (size_t i = 0; i < h->marks_count; i++)
		bytes += sizeof(struct history_mark) + 64;
	return bytes;
}
