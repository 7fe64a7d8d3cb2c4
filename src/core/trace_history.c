/* trace_history.c - the heat map's ring of latency histograms (trace_history.h). */
#include <stdlib.h>
#include <string.h>

#include "trace_history.h"

#define SLOT_COUNTS (TRACE_HISTORY_DIRS * TRACE_LAT_BUCKETS)
#define NOT_HELD UINT64_MAX

struct trace_history_device {
	unsigned major, minor;
	uint64_t first_n;          /* the sample it first showed traced I/O in */
	uint32_t *counts;          /* alloc slots of SLOT_COUNTS, slot n % capacity */
	size_t alloc;
};

struct trace_history {
	size_t capacity;
	uint64_t *slot_n;          /* the sample each slot holds, NOT_HELD: none */
	bool *traced;
	struct trace_history_device devs[TRACE_HISTORY_MAX_DEVICES];
	size_t ndevs;
};

static const uint32_t zeros[TRACE_LAT_BUCKETS];

struct trace_history *trace_history_new(size_t capacity)
{
	struct trace_history *h = calloc(1, sizeof *h);
	if (!h)
		return NULL;
	h->capacity = capacity < 1 ? 1 : capacity > TRACE_HISTORY_MAX_SAMPLES
					? TRACE_HISTORY_MAX_SAMPLES : capacity;
	h->slot_n = malloc(h->capacity * sizeof *h->slot_n);
	h->traced = calloc(h->capacity, sizeof *h->traced);
	if (!h->slot_n || !h->traced) {
		trace_history_free(h);
		return NULL;
	}
	for (size_t i = 0; i < h->capacity; i++)
		h->slot_n[i] = NOT_HELD;
	return h;
}

void trace_history_free(struct trace_history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->ndevs; i++)
		free(h->devs[i].counts);
	free(h->slot_n);
	free(h->traced);
	free(h);
}

size_t trace_history_capacity(const struct trace_history *h) { return h->capacity; }

static struct trace_history_device *device_find(const struct trace_history *h, unsigned major,
						unsigned minor)
{
	for (size_t i = 0; i < h->ndevs; i++)
		if (h->devs[i].major == major && h->devs[i].minor == minor)
			return (struct trace_history_device *)&h->devs[i];
	return NULL;
}

/* Room for slot n % capacity: slots are sample numbers until the ring is full size,
 * so growing (doubling, up to the capacity) keeps every slot where it was. */
static int device_reserve(const struct trace_history *h, struct trace_history_device *d, uint64_t n)
{
	if (d->alloc == h->capacity || n < d->alloc)
		return 0;
	size_t want = d->alloc ? d->alloc : 64;
	while (want <= n && want < h->capacity)
		want *= 2;
	if (want > h->capacity || n >= h->capacity)
		want = h->capacity;
	uint32_t *c = realloc(d->counts, want * SLOT_COUNTS * sizeof *c);
	if (!c)
		return -1;
	memset(c + d->alloc * SLOT_COUNTS, 0, (want - d->alloc) * SLOT_COUNTS * sizeof *c);
	d->counts = c;
	d->alloc = want;
	return 0;
}

/* Disks of t not seen yet (and with traced I/O) get a ring, as long as there is room. */
static void devices_add(struct trace_history *h, uint64_t n, const struct trace_sample *t)
{
	for (size_t i = 0; i < t->ndevices && h->ndevs < TRACE_HISTORY_MAX_DEVICES; i++) {
		const struct trace_device *td = &t->devices[i];
		if (device_find(h, td->major, td->minor))
			continue;
		h->devs[h->ndevs++] =
			(struct trace_history_device){ td->major, td->minor, n, NULL, 0 };
	}
}

static uint32_t clamp32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }

static void slot_fill(uint32_t *slot, const struct trace_device *td)
{
	static const enum trace_dir dirs[TRACE_HISTORY_DIRS] = { TRACE_READ, TRACE_WRITE };
	for (size_t d = 0; d < TRACE_HISTORY_DIRS; d++)
		for (size_t b = 0; b < TRACE_LAT_BUCKETS; b++)
			slot[d * TRACE_LAT_BUCKETS + b] = td ? clamp32(td->d2c[dirs[d]][b]) : 0;
}

int trace_history_append(struct trace_history *h, uint64_t n, const struct trace_sample *t)
{
	size_t at = (size_t)(n % h->capacity);
	h->slot_n[at] = n;
	h->traced[at] = false;
	if (!t)
		return 0;
	devices_add(h, n, t);
	for (size_t i = 0; i < h->ndevs; i++) {
		struct trace_history_device *d = &h->devs[i];
		if (device_reserve(h, d, n) < 0)
			return -1;
		slot_fill(d->counts + at * SLOT_COUNTS, trace_find(t, d->major, d->minor));
	}
	h->traced[at] = true;
	return 0;
}

bool trace_history_traced(const struct trace_history *h, uint64_t n)
{
	size_t at = (size_t)(n % h->capacity);
	return h->slot_n[at] == n && h->traced[at];
}

const uint32_t *trace_history_hist(const struct trace_history *h, unsigned major, unsigned minor,
				   enum trace_dir dir, uint64_t n)
{
	if (!trace_history_traced(h, n) || (dir != TRACE_READ && dir != TRACE_WRITE))
		return NULL;
	const struct trace_history_device *d = device_find(h, major, minor);
	if (!d || n < d->first_n)
		return zeros;
	size_t at = (size_t)(n % h->capacity);
	return d->counts + at * SLOT_COUNTS + (dir == TRACE_WRITE ? TRACE_LAT_BUCKETS : 0);
}

size_t trace_history_memory(const struct trace_history *h)
{
	size_t bytes = sizeof *h + h->capacity * (sizeof *h->slot_n + sizeof *h->traced);
	for (size_t i = 0; i < h->ndevs; i++)
		bytes += h->devs[i].alloc * SLOT_COUNTS * sizeof(uint32_t);
	return bytes;
}
