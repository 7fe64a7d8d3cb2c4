/* sampler.c - one sample of one tree, through descriptors kept open.
 *
 * Per sample: one pread of /proc/diskstats (more only past a page), the three
 * counter files through our readers, one pread of pressure/io, per whole disk one
 * pread of each sysfs settings file (live, the knobs only on their cadence: sysfs.h),
 * and the mount table (parsed again only when its text changed).  Devices are described
 * (sysfs, udev database) only when the diskstats names change or a block uevent arrives.
 * The output snapshot's arrays are reused, so a steady sample allocates nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diskstats.h"
#include "loopdev.h"
#include "mountinfo.h"
#include "sampler.h"

static void clear_settings(struct disk_settings *st)
{
	free(st->items);
	memset(st, 0, sizeof *st);
	st->rotational = -1;
	st->inflight_read = st->inflight_write = -1;
}

static int resize_devices(struct snapshot *s, size_t n)
{
	if (n <= s->ndevices) {
		for (size_t i = n; i < s->ndevices; i++)
			clear_settings(&s->devices[i].settings);
		s->ndevices = n;
		return 0;
	}
	struct device *v = realloc(s->devices, snapshot_capacity(n) * sizeof *v);
	if (!v)
		return -1;
	for (size_t i = s->ndevices; i < n; i++) {
		memset(&v[i], 0, sizeof v[i]);
		clear_settings(&v[i].settings);
	}
	s->devices = v;
	s->ndevices = n;
	return 0;
}

static int resize_mounts(struct snapshot *s, size_t n)
{
	if (n > s->nmounts) {
		struct mount *v = realloc(s->mounts, snapshot_capacity(n) * sizeof *v);
		if (!v)
			return -1;
		s->mounts = v;
	}
	s->nmounts = n;
	return 0;
}

static void close_tracked(struct sampler *s)
{
	for (size_t i = 0; i < s->ntracked; i++)
		if (s->tracked[i].has_sysfs)
			sysfs_disk_close(&s->tracked[i].sysfs);
	free(s->tracked);
	s->tracked = NULL;
	s->ntracked = 0;
}

void sampler_close(struct sampler *s)
{
	close_tracked(s);
	procfile_close(&s->diskstats);
	procfile_close(&s->mountinfo);
	vm_reader_close(&s->vm);
	why_sampler_close(&s->why);
	devices_catalog_close(&s->catalog);
	partition_list_close(&s->media);
	snapshot_free(&s->mtab);
	free(s->kept);
	free(s->mount_text);
	free(s->prefix);
	memset(s, 0, sizeof *s);
	procfile_init(&s->diskstats);
	procfile_init(&s->mountinfo);
	partition_list_init(&s->media);
}

static int path_in(const struct sampler *s, const char *rel, char *buf, size_t len)
{
	return path_format(buf, len, "%s%s", s->prefix ? s->prefix : "", rel);
}

int sampler_open(struct sampler *s, const char *prefix, struct error *err)
{
	memset(s, 0, sizeof *s);
	procfile_init(&s->diskstats);
	procfile_init(&s->mountinfo);
	partition_list_init(&s->media);
	snapshot_init(&s->mtab);
	s->rescan = s->mounts_stale = true;
	if (prefix && !(s->prefix = strdup(prefix)))
		return error_set(err, "out of memory");
	char path[4096];
	if (path_in(s, "/proc/diskstats", path, sizeof path) < 0) {
		error_errno(err, prefix, ENAMETOOLONG);
		goto fail;
	}
	if (procfile_open_under(s->prefix, &s->diskstats, path, PROCFILE_SEQ_EOF_HINT, err) < 0)
		goto fail;
	/* Mount lines hold paths of any length: read the table to its end. */
	struct error ignored;
	if (path_in(s, "/proc/self/mountinfo", path, sizeof path) >= 0)
		procfile_open_under(s->prefix, &s->mountinfo, path, 0, &ignored);
	/* Our readers, not libproc2: loading it (libsystemd, libnuma) cost more than a
	 * whole sample; they agree with it on the live /proc (tests/unit/test_vm.c). */
	vm_reader_open(&s->vm, prefix);
	why_sampler_init(&s->why, s->prefix);
	if (devices_catalog_open(&s->catalog, prefix, err) < 0)
		goto fail;
	return 0;
fail:
	sampler_close(s);
	return -1;
}

/* ---- devices -------------------------------------------------------------- */

static bool names_changed(const struct sampler *s, const struct snapshot *out)
{
	if (out->ndevices != s->ntracked)
		return true;
	for (size_t i = 0; i < out->ndevices; i++)
		if (strcmp(out->devices[i].name, s->tracked[i].info.name) != 0)
			return true;
	return false;
}

/* The old entry of that name, taken out of the old array (NULL if none). */
static struct tracked_device *take_old(struct tracked_device *old, size_t n, bool *taken,
				       const char *name)
{
	for (size_t i = 0; i < n; i++) {
		if (!taken[i] && strcmp(old[i].info.name, name) == 0) {
			taken[i] = true;
			return &old[i];
		}
	}
	return NULL;
}

/* A rescan follows a block uevent, and a loop device sends one when it is attached,
 * detached, resized or made read-only.  Which device the uevent was for is not known:
 * a loop device attached, detached or given another file lists its files again (its
 * loop/ group is new or gone); every loop device with a file reads its knobs (its size
 * and read-only flag may have changed).  Loop devices with a file are few. */
static void loop_uevent(struct sysfs_disk *sd, const struct loop_backing *was,
			const struct loop_backing *now)
{
	if (was->present != now->present || strcmp(was->file, now->file) != 0 ||
	    was->offset != now->offset || was->sizelimit != now->sizelimit)
		sysfs_disk_read_all_next(sd);
	else if (now->present)
		sysfs_disk_knobs_now(sd);
}

/* The first knob read of disk i of n, spread over the period so that the disks' knobs
 * are not all read in the same sample. */
static uint64_t knob_offset(size_t i, size_t n)
{
	return SAMPLER_KNOB_PERIOD_NS / (n ? n : 1) * (i + 1);
}

static bool watched(const struct sampler *s, const char *name)
{
	if (strcmp(s->followed, name) == 0)
		return true;
	for (size_t i = 0; i < s->nwatched; i++)
		if (strcmp(s->watched[i], name) == 0)
			return true;
	return false;
}

/* The disk is shown or followed: itself, or one of its partitions. */
static bool knobs_every_sample(const struct sampler *s, const struct tracked_device *disk)
{
	if (watched(s, disk->info.name))
		return true;
	for (size_t i = 0; i < s->ntracked; i++) {
		const struct device_info *p = &s->tracked[i].info;
		if (p->is_partition && strcmp(p->parent, disk->info.name) == 0 && watched(s, p->name))
			return true;
	}
	return false;
}

/* Disk i of n on its cadence: every sample when watched, else every period, its first
 * read spread over the period.  A fixture tree reads every knob every sample. */
static void knob_cadence(struct sampler *s, size_t i, size_t n)
{
	struct tracked_device *t = &s->tracked[i];
	if (s->prefix || !t->has_sysfs)
		return;
	bool every = knobs_every_sample(s, t);
	if (every == !t->sysfs.knob_period_ns)
		return;
	sysfs_disk_knob_cadence(&t->sysfs, every ? 0 : SAMPLER_KNOB_PERIOD_NS,
				every ? 0 : knob_offset(i, n));
}

static void knob_cadences(struct sampler *s)
{
	for (size_t i = 0; i < s->ntracked; i++)
		knob_cadence(s, i, s->ntracked);
}

void sampler_watch(struct sampler *s, const char (*names)[DEV_NAME_MAX], size_t n)
{
	s->nwatched = 0;
	for (size_t i = 0; i < n && s->nwatched < SAMPLER_WATCHED_MAX; i++)
		snprintf(s->watched[s->nwatched++], DEV_NAME_MAX, "%s", names[i]);
	knob_cadences(s);
}

void sampler_follow(struct sampler *s, const char *disk)
{
	if (strcmp(s->followed, disk) == 0)
		return;
	snprintf(s->followed, sizeof s->followed, "%s", disk);
	knob_cadences(s);
}

/* Follow the new set of names: keep the open sysfs files of disks we knew,
 * open those of new disks, close those of vanished ones. */
static int rescan(struct sampler *s, const struct snapshot *out, struct error *err)
{
	size_t n = out->ndevices;
	struct tracked_device *nt = calloc(n ? n : 1, sizeof *nt);
	bool *taken = calloc(s->ntracked ? s->ntracked : 1, sizeof *taken);
	if (!nt || !taken) {
		free(nt);
		free(taken);
		return error_set(err, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(nt[i].info.name, sizeof nt[i].info.name, "%s", out->devices[i].name);
		struct tracked_device *o = take_old(s->tracked, s->ntracked, taken,
						    out->devices[i].name);
		if (o && o->has_sysfs) {
			nt[i].sysfs = o->sysfs;
			nt[i].has_sysfs = true;
			nt[i].info.loop = o->info.loop;   /* to tell a loop device changed */
		}
	}
	for (size_t i = 0; i < s->ntracked; i++)
		if (!taken[i] && s->tracked[i].has_sysfs)
			sysfs_disk_close(&s->tracked[i].sysfs);
	free(taken);
	free(s->tracked);
	s->tracked = nt;
	s->ntracked = n;

	struct device_info *infos = malloc((n ? n : 1) * sizeof *infos);
	if (!infos)
		return error_set(err, "out of memory");
	for (size_t i = 0; i < n; i++)
		infos[i] = nt[i].info;
	devices_describe(&s->catalog, &s->media, infos, n);
	for (size_t i = 0; i < n; i++) {
		struct loop_backing was = nt[i].info.loop;
		nt[i].info = infos[i];
		if (nt[i].has_sysfs)
			loop_uevent(&nt[i].sysfs, &was, &nt[i].info.loop);
		if (nt[i].info.is_disk && !nt[i].has_sysfs) {
			if (sysfs_disk_open(&nt[i].sysfs, s->prefix, nt[i].info.name, err) < 0) {
				free(infos);
				return -1;
			}
			sysfs_disk_skip_empty(&nt[i].sysfs);
			nt[i].sysfs.generations = &s->generations;
			nt[i].has_sysfs = true;
		} else if (!nt[i].info.is_disk && nt[i].has_sysfs) {
			sysfs_disk_close(&nt[i].sysfs);
			nt[i].has_sysfs = false;
		}
	}
	free(infos);
	knob_cadences(s);
	s->rescans++;
	s->mounts_stale = true;
	return 0;
}

static size_t count_lines(const char *buf, size_t len)
{
	size_t n = len && buf[len - 1] != '\n';
	for (const char *p = buf, *end = buf + len; (p = memchr(p, '\n', (size_t)(end - p))); p++)
		n++;
	return n;
}

/* Parse diskstats straight into out's device slots. */
static int parse_devices(struct sampler *s, struct snapshot *out, struct error *err)
{
	if (procfile_read(&s->diskstats, err) < 0)
		return -1;
	const char *p = s->diskstats.buf, *end = p + s->diskstats.len;
	if (resize_devices(out, count_lines(p, s->diskstats.len)) < 0)
		return error_set(err, "out of memory");
	size_t k = 0;
	while (p < end) {
		size_t n;
		const char *line = p;
		p = diskstats_next_line(p, end, &n);
		int r = diskstats_parse_line(line, n, &out->devices[k]);
		if (r >= 0)
			k++;
		s->diskstats_extra_lines += r > 0;
		s->diskstats_malformed_lines += r < 0 && n > 0;
	}
	resize_devices(out, k);
	return 0;
}

/* A loop device detached keeps its queue's files, not its loop/ group: the loop.*
 * settings its sysfs reader kept from before (it keeps the last ones while a disk has
 * no medium), or those of a file it had before the one described now, are not its own.
 * Dropped, the settings are compared again (generation 0): their last read's number
 * does not tell these from the ones read. */
static void drop_stale_loop_settings(struct device *d)
{
	const char *file = device_setting(d, "loop.backing_file");
	/* the setting holds the first SETTING_VAL_MAX - 1 bytes of a long path */
	if (d->loop.present && (!file || strncmp(file, d->loop.file, SETTING_VAL_MAX - 1) == 0))
		return;
	size_t kept = 0;
	for (size_t i = 0; i < d->settings.nitems; i++)
		if (strncmp(d->settings.items[i].key, "loop.", 5) != 0)
			d->settings.items[kept++] = d->settings.items[i];
	if (kept == d->settings.nitems)
		return;
	d->settings.nitems = kept;
	d->settings.generation = 0;
}

static int fill_device(struct device *d, struct tracked_device *t,
		       const struct partition_list *media, struct error *err)
{
	const struct device_info *in = &t->info;
	d->is_partition = in->is_partition;
	memcpy(d->parent, in->parent, sizeof d->parent);
	memcpy(d->dm_name, in->dm_name, sizeof d->dm_name);
	memcpy(d->model, in->model, sizeof d->model);
	memcpy(d->serial, in->serial, sizeof d->serial);
	d->loop = in->loop;
	if (!t->has_sysfs) {
		d->instance = 0;
		clear_settings(&d->settings);
		return 0;
	}
	sysfs_disk_known_empty(&t->sysfs, partition_list_loop_empty(media, in->name));
	int r = sysfs_disk_read(&t->sysfs, &d->settings, err);
	d->instance = t->sysfs.recreations;
	drop_stale_loop_settings(d);
	/* loop/dio changes with no uevent (losetup --direct-io): the setting read this
	 * sample is the one to describe the device with */
	const char *dio = d->loop.present ? device_setting(d, "loop.dio") : NULL;
	if (dio)
		d->loop.dio = sysfs_parse_bool(dio);
	return r;
}

void sampler_settings_changed(struct sampler *s, const char *disk)
{
	for (size_t i = 0; i < s->ntracked; i++)
		if (s->tracked[i].has_sysfs && strcmp(s->tracked[i].info.name, disk) == 0)
			sysfs_disk_knobs_now(&s->tracked[i].sysfs);
}

/* ---- mounts --------------------------------------------------------------- */

/* Re-read the mount table every sample; true when its text differs from what was
 * parsed last.  The table's POLLPRI cannot gate this: the kernel raises it when a
 * mount is added, removed or its per-mount flags change, but not when a superblock
 * is reconfigured (fsconfig(FSCONFIG_CMD_RECONFIGURE), which `ioscope remount` and
 * util-linux 2.39+ `mount -o remount` use), so commit=, barrier and the like would
 * go unseen.  Reading the text costs a few µs (docs/performance.md). */
static bool reload_mounts(struct sampler *s)
{
	struct error ignored;
	if (!procfile_is_open(&s->mountinfo))
		return false;
	const char *text = "";
	size_t len = 0;
	if (procfile_read(&s->mountinfo, &ignored) == 0) {
		text = s->mountinfo.buf;
		len = s->mountinfo.len;
	}
	if (s->mount_text && len == s->mount_text_len && memcmp(text, s->mount_text, len) == 0)
		return false;
	char *copy = malloc(len + 1);
	if (!copy)
		return false;
	memcpy(copy, text, len);
	free(s->mount_text);
	s->mount_text = copy;
	s->mount_text_len = len;
	snapshot_free(&s->mtab);
	mountinfo_parse(text, len, &s->mtab, &ignored);
	return true;
}

static int resolve_mounts(struct sampler *s, const struct snapshot *out, struct error *err)
{
	size_t n = 0;
	struct mount *kept = realloc(s->kept, (s->mtab.nmounts ? s->mtab.nmounts : 1) * sizeof *kept);
	if (!kept)
		return error_set(err, "out of memory");
	s->kept = kept;
	for (size_t i = 0; i < s->mtab.nmounts; i++) {
		struct mount *m = &s->mtab.mounts[i];
		mountinfo_resolve_disk(m, out, s->prefix);
		if (mountinfo_is_block_backed(m) && !m->cut)
			kept[n++] = *m;
	}
	s->nkept = n;
	return 0;
}

static int fill_mounts(struct sampler *s, struct snapshot *out, struct error *err)
{
	if (reload_mounts(s))
		s->mounts_stale = true;
	if (s->mounts_stale) {
		if (resolve_mounts(s, out, err) < 0)
			return -1;
		s->mounts_stale = false;
	}
	if (resize_mounts(out, s->nkept) < 0)
		return error_set(err, "out of memory");
	if (s->nkept)
		memcpy(out->mounts, s->kept, s->nkept * sizeof *s->kept);
	return 0;
}

/* ---- the sample ----------------------------------------------------------- */

/* A disk whose /sys/block entry was missing when it was described (re-created
 * between the diskstats read and the description): describe it again, so a
 * present disk never goes without its settings. */
static bool disk_undescribed(const struct sampler *s)
{
	for (size_t i = 0; i < s->ntracked; i++) {
		const struct device_info *in = &s->tracked[i].info;
		if (!in->is_disk && !in->is_partition && sysfs_is_disk(s->prefix, in->name))
			return true;
	}
	return false;
}

static bool any_loop(const struct snapshot *out)
{
	for (size_t i = 0; i < out->ndevices; i++)
		if (loop_name_whole(out->devices[i].name))
			return true;
	return false;
}

/* The live /proc/partitions, when it can tell something: the devices are described and one
 * is a loop device, or a loop device had no file at its last read (one read for all of
 * them, not each one's size).  Opened the first time; else stale, and every disk reads its
 * own size as it does. */
static void read_media(struct sampler *s, const struct snapshot *out, bool describe)
{
	partition_list_stale(&s->media);
	if (s->prefix)
		return;
	bool wanted = describe && any_loop(out);
	for (size_t i = 0; !wanted && i < s->ntracked; i++)
		wanted = s->tracked[i].has_sysfs && s->tracked[i].sysfs.known_empty;
	struct error ignored;
	if (!wanted)
		return;
	if (procfile_is_open(&s->media.file) || partition_list_open(&s->media, &ignored) == 0)
		partition_list_read(&s->media, &ignored);
}

int sampler_sample(struct sampler *s, struct snapshot *out, struct error *err)
{
	if (parse_devices(s, out, err) < 0)
		return -1;
	if (devices_hotplug_pending(&s->catalog) || disk_undescribed(s))
		s->rescan = true;
	bool describe = s->rescan || names_changed(s, out);
	read_media(s, out, describe);
	if (describe && rescan(s, out, err) < 0)
		return -1;
	s->rescan = false;
	for (size_t i = 0; i < out->ndevices; i++)
		if (fill_device(&out->devices[i], &s->tracked[i], &s->media, err) < 0)
			return -1;
	vm_reader_read(&s->vm, &out->vm);
	if (fill_mounts(s, out, err) < 0)
		return -1;
	const struct procfile *vmstat = &s->vm.vmstat_file;
	if (why_sampler_sample(&s->why, procfile_is_open(vmstat) ? vmstat->buf : NULL,
			       vmstat->len, &s->mtab, out) < 0)
		return error_set(err, "out of memory");
	return 0;
}
