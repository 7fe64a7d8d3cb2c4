/* snapshot.c - ownership of a snapshot's arrays. */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "probe.h"
#include "snapshot.h"
#include "why.h"
#include "trace.h"

void snapshot_init(struct snapshot *s)
{
	memset(s, 0, sizeof *s);
}

static void device_free_settings(struct device *d)
{
	free(d->settings.items);
	d->settings.items = NULL;
	d->settings.nitems = 0;
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->ndevices; i++)
		device_free_settings(&s->devices[i]);
	free(s->devices);
	free(s->mounts);
	tasks_sample_free(s->tasks);
	free(s->why);
	if (s->probe)
		probe_samples_free(s->probe);
	free(s->probe);
	snapshot_set_trace(s, NULL);
	snapshot_init(s);
}

void snapshot_set_trace(struct snapshot *s, struct trace_sample *t)
{
	if (s->trace)
		trace_sample_free(s->trace);
	free(s->trace);
	s->trace = t;
}

void snapshot_swap(struct snapshot *a, struct snapshot *b)
{
	struct snapshot t = *a;
	*a = *b;
	*b = t;
}

bool disk_settings_equal(const struct disk_settings *a, const struct disk_settings *b)
{
	if (a->has_settings != b->has_settings || a->rotational != b->rotational ||
	    a->nitems != b->nitems || strcmp(a->scheduler, b->scheduler) != 0 ||
	    strcmp(a->scheduler_line, b->scheduler_line) != 0)
		return false;
	for (size_t i = 0; i < a->nitems; i++)
		if (strcmp(a->items[i].key, b->items[i].key) != 0 ||
		    strcmp(a->items[i].value, b->items[i].value) != 0)
			return false;
	return true;
}

int device_set_settings(struct device *d, const struct setting *items, size_t n)
{
	struct setting *copy = NULL;
	if (n) {
		copy = malloc(n * sizeof *copy);
		if (!copy)
			return -1;
		memcpy(copy, items, n * sizeof *copy);
	}
	free(d->settings.items);
	d->settings.items = copy;
	d->settings.nitems = n;
	return 0;
}

int snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	struct snapshot tmp = *src;
	tmp.devices = NULL;
	tmp.mounts = NULL;
	tmp.ndevices = tmp.nmounts = 0;
	tmp.tasks = NULL;
	tmp.why = NULL;
	tmp.probe = NULL;
	if (src->tasks && !(tmp.tasks = tasks_sample_dup(src->tasks)))
		goto fail;
	if (why_sample_copy(&tmp.why, src->why) < 0)
		goto fail;
	tmp.trace = NULL;
	if (src->probe && (!(tmp.probe = calloc(1, sizeof *tmp.probe)) ||
			   probe_samples_copy(tmp.probe, src->probe) < 0))
		goto fail;
	if (trace_sample_dup(&tmp.trace, src->trace) < 0)
		goto fail;
	if (src->ndevices) {
		tmp.devices = calloc(snapshot_capacity(src->ndevices), sizeof *tmp.devices);
		if (!tmp.devices)
			goto fail;
		for (size_t i = 0; i < src->ndevices; i++) {
			tmp.devices[i] = src->devices[i];
			tmp.devices[i].settings.items = NULL;
			tmp.devices[i].settings.nitems = 0;
			tmp.ndevices = i + 1;
			if (device_set_settings(&tmp.devices[i], src->devices[i].settings.items,
						src->devices[i].settings.nitems) < 0)
				goto fail;
		}
	}
	if (src->nmounts) {
		tmp.mounts = malloc(snapshot_capacity(src->nmounts) * sizeof *tmp.mounts);
		if (!tmp.mounts)
			goto fail;
		memcpy(tmp.mounts, src->mounts, src->nmounts * sizeof *tmp.mounts);
		tmp.nmounts = src->nmounts;
	}
	snapshot_free(dst);
	*dst = tmp;
	return 0;
fail:
	snapshot_free(&tmp);
	return -1;
}

size_t snapshot_capacity(size_t count)
{
	size_t cap = 8;
	while (cap < count)
		cap *= 2;
	return cap;
}

/* Arrays grow by doubling from 8; the capacity is implied by the count
 * (snapshot_capacity), so whoever sizes an array sizes it to that. */
static void *grow(void *arr, size_t count, size_t size)
{
	size_t cap = arr ? snapshot_capacity(count) : 0;
	if (grow_array(&arr, &cap, count + 1, size, snapshot_capacity(0), NULL) < 0)
		return NULL;
	return arr;
}

struct device *snapshot_add_device(struct snapshot *s)
{
	struct device *v = grow(s->devices, s->ndevices, sizeof *v);
	if (!v)
		return NULL;
	s->devices = v;
	struct device *d = &v[s->ndevices++];
	memset(d, 0, sizeof *d);
	d->settings.rotational = -1;
	d->settings.inflight_read = d->settings.inflight_write = -1;
	return d;
}

struct mount *snapshot_add_mount(struct snapshot *s)
{
	struct mount *v = grow(s->mounts, s->nmounts, sizeof *v);
	if (!v)
		return NULL;
	s->mounts = v;
	struct mount *m = &v[s->nmounts++];
	memset(m, 0, sizeof *m);
	return m;
}

const struct device *snapshot_find_device(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->ndevices; i++)
		if (strcmp(s->devices[i].name, name) == 0)
			return &s->devices[i];
	return NULL;
}

bool snapshot_on_disk(const struct snapshot *s, const char *name, const char *disk)
{
	if (strcmp(name, disk) == 0)
		return true;
	const struct device *d = snapshot_find_device(s, name);
	return d && d->is_partition && strcmp(d->parent, disk) == 0;
}

const char *device_setting(const struct device *d, const char *key)
{
	for (size_t i = 0; i < d->settings.nitems; i++)
		if (strcmp(d->settings.items[i].key, key) == 0)
			return d->settings.items[i].value;
	return NULL;
}

static const char *const group_prefixes[SETTING_GROUPS] = {
	[SETTING_QUEUE] = "", [SETTING_IOSCHED] = "iosched.", [SETTING_BDI] = "bdi.",
	[SETTING_LOOP] = "loop.",
};

const char *setting_group_prefix(enum setting_group g)
{
	return (unsigned)g < SETTING_GROUPS ? group_prefixes[g] : "";
}

enum setting_group setting_group_of(const char *key)
{
	for (int g = SETTING_IOSCHED; g < SETTING_GROUPS; g++)
		if (strncmp(key, group_prefixes[g], strlen(group_prefixes[g])) == 0)
			return (enum setting_group)g;
	return SETTING_QUEUE;
}

double timespec_seconds(const struct timespec *t)
{
	return (double)t->tv_sec + (double)t->tv_nsec / 1e9;
}

double timespec_diff(const struct timespec *later, const struct timespec *earlier)
{
	return (double)(later->tv_sec - earlier->tv_sec) +
	       (double)(later->tv_nsec - earlier->tv_nsec) / 1e9;
}
