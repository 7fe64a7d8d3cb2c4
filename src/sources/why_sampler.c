/* why_sampler.c - one sample of the why figures (why_sampler.h).
 *
 * Cost (docs/performance.md): the dirty limits are parsed out of the /proc/vmstat
 * text the vm reader read anyway; per watched ext4/xfs/btrfs mount one pread of its
 * journal statistics (xfs: three more of log/; ext4: one more of its jbd2 thread's stat,
 * journal_thread.c); cgroup v2 io only where the io controller exists.  Journal files
 * are opened when the watched mounts change.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "regular_file.h"
#include "why_sampler.h"

void why_sampler_init(struct why_sampler *w, const char *prefix)
{
	memset(w, 0, sizeof *w);
	w->prefix = prefix;
	long page = sysconf(_SC_PAGESIZE);
	w->page_kb = page >= 1024 ? (uint64_t)page / 1024 : 4;
}

static void close_journal(struct why_journal_files *j)
{
	procfile_close(&j->stats);
	procfile_close(&j->head);
	procfile_close(&j->tail);
	procfile_close(&j->grant);
	journal_thread_close(&j->thread);
}

static void close_journals(struct why_sampler *w)
{
	for (size_t i = 0; i < w->njournals; i++)
		close_journal(&w->journals[i]);
	w->njournals = 0;
}

void why_sampler_close(struct why_sampler *w)
{
	close_journals(w);
	free(w->journals);
	w->journals = NULL;
}

void why_sampler_watch(struct why_sampler *w, const struct selection *sel)
{
	/* the next sample opens the journals of the new set when it differs (same_journals):
	 * a batch selects its devices after the first sample, most often the same set */
	w->watch = sel ? *sel : (struct selection){ .n = 0 };
}

/* ---- which mounts ---- */

static bool journal_wanted(const struct why_sampler *w, const struct snapshot *s,
			   const struct mount *m)
{
	return m->disk[0] && journal_fs_of(m->fstype) >= 0 &&
	       selection_covers_device(&w->watch, s, m->disk);
}

/* The same mounts, in the same order, as the files open. */
static bool same_journals(const struct why_sampler *w, const struct snapshot *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nmounts; i++) {
		const struct mount *m = &s->mounts[i];
		if (!journal_wanted(w, s, m))
			continue;
		if (k == w->njournals || k == WHY_JOURNALS_MAX)
			return k == WHY_JOURNALS_MAX;
		const struct journal_raw *id = &w->journals[k++].id;
		if (strcmp(id->mountpoint, m->mountpoint) != 0 || strcmp(id->device, m->disk) != 0 ||
		    (int)id->fs != journal_fs_of(m->fstype))
			return false;
	}
	return k == w->njournals;
}

static void open_rel(const struct why_sampler *w, struct procfile *pf, const char *fmt,
		     const char *a, const char *b)
{
	char path[4096];
	struct error ignored;
	if (path_format(path, sizeof path, fmt, w->prefix ? w->prefix : "", a, b) >= 0)
		procfile_open_under(w->prefix, pf, path, 0, &ignored);
}

/* The btrfs filesystem a disk belongs to: /sys/fs/btrfs/UUID/devices/DISK. */
static bool btrfs_uuid(const struct why_sampler *w, const char *disk, char *uuid, size_t len)
{
	char dir[4096], probe[4096];
	if (path_format(dir, sizeof dir, "%s/sys/fs/btrfs", w->prefix ? w->prefix : "") < 0)
		return false;
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool found = false;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) != 36)
			continue;
		found = path_format(probe, sizeof probe, "%s/%s/devices/%s", dir, e->d_name, disk) >= 0 &&
			access(probe, F_OK) == 0;
		if (found)
			snprintf(uuid, len, "%s", e->d_name);
	}
	closedir(d);
	return found;
}

/* XFS_IOC_FSGEOMETRY_V1 (xfs/xfs_fs.h, not installed everywhere): the log's size. */
struct xfs_geometry_v1 {
	uint32_t blocksize, rtextsize, agblocks, agcount, logblocks, sectsize, inodesize, imaxpct;
	uint64_t datablocks, rtblocks, rtextents, logstart;
	unsigned char uuid[16];
	uint32_t sunit, swidth;
	int32_t version;
	uint32_t flags, logsectsize, rtsectsize, dirblocksize;
};
#define XFS_IOC_FSGEOMETRY_V1 _IOR('X', 100, struct xfs_geometry_v1)

/* The log's size from the filesystem's geometry, through its mount point.  Opening an xfs
 * directory takes its inode's lock (xfs_dir_open's read-ahead), which a task creating a file
 * there holds while it waits for a block: on a device whose I/O does not complete (over a
 * frozen filesystem, a dead path) that open sleeps in D until it does, and every ioscope of
 * the machine hung at its first samples beside such a filesystem (a run of the suite did,
 * 2026-12-05).  So it is opened only at a sample where the device has no request in flight
 * (nothing can then be waiting for its I/O), once. */
static uint64_t xfs_log_size(const char *mountpoint)
{
	int fd = open(mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	struct xfs_geometry_v1 g;
	uint64_t size = 0;
	if (ioctl(fd, XFS_IOC_FSGEOMETRY_V1, &g) == 0)
		size = (uint64_t)g.logblocks * g.blocksize;
	close(fd);
	return size;
}

static void open_xfs(struct why_sampler *w, struct why_journal_files *j)
{
	const char *dev = j->id.device;
	open_rel(w, &j->stats, "%s/sys/fs/xfs/%s/stats/stats", dev, "");
	open_rel(w, &j->head, "%s/sys/fs/xfs/%s/log/log_head_lsn", dev, "");
	open_rel(w, &j->tail, "%s/sys/fs/xfs/%s/log/log_tail_lsn", dev, "");
	/* the grant head is a byte count since 6.11, a cycle:bytes position before */
	open_rel(w, &j->grant, "%s/sys/fs/xfs/%s/log/reserve_grant_head_bytes", dev, "");
	j->grant_bytes = procfile_is_open(&j->grant);
	if (!j->grant_bytes)
		open_rel(w, &j->grant, "%s/sys/fs/xfs/%s/log/reserve_grant_head", dev, "");
}

static bool device_idle(const struct snapshot *s, const char *device)
{
	const struct device *d = snapshot_find_device(s, device);
	return d && d->counters.in_flight == 0;
}

static void open_journal(struct why_sampler *w, struct why_journal_files *j, const struct mount *m)
{
	memset(j, 0, sizeof *j);
	procfile_init(&j->stats);
	procfile_init(&j->head);
	procfile_init(&j->tail);
	procfile_init(&j->grant);
	journal_thread_init(&j->thread);
	snprintf(j->id.mountpoint, sizeof j->id.mountpoint, "%s", m->mountpoint);
	snprintf(j->id.device, sizeof j->id.device, "%s", m->disk);
	j->id.fs = (enum journal_fs)journal_fs_of(m->fstype);
	char uuid[64];
	switch (j->id.fs) {
	case JOURNAL_EXT4:   /* the journal inode is 8 unless it is external */
		open_rel(w, &j->stats, "%s/proc/fs/jbd2/%s-8/info", m->disk, "");
		break;
	case JOURNAL_XFS:
		open_xfs(w, j);
		break;
	case JOURNAL_BTRFS:
		if (btrfs_uuid(w, m->disk, uuid, sizeof uuid))
			open_rel(w, &j->stats, "%s/sys/fs/btrfs/%s/commit_stats", uuid, "");
		break;
	default:
		break;
	}
}

static void open_journals(struct why_sampler *w, const struct snapshot *s)
{
	close_journals(w);
	for (size_t i = 0; i < s->nmounts && w->njournals < WHY_JOURNALS_MAX; i++) {
		if (!journal_wanted(w, s, &s->mounts[i]))
			continue;
		if (!w->journals && !(w->journals = calloc(WHY_JOURNALS_MAX, sizeof *w->journals)))
			return;   /* out of memory: no journal figures */
		open_journal(w, &w->journals[w->njournals++], &s->mounts[i]);
	}
}

/* ---- reading ---- */

static bool read_file(struct procfile *pf)
{
	struct error ignored;
	return procfile_is_open(pf) && procfile_read(pf, &ignored) == 0;
}

static void put(struct journal_raw *j, int field, uint64_t v)
{
	j->v[field] = v;
	j->present |= 1u << field;
}

/* Bytes from the tail to the head, and what running transactions reserved past it. */
static void read_xfs_fill(const struct why_sampler *w, struct why_journal_files *f,
			  struct journal_raw *j, const struct snapshot *s)
{
	if (!f->log_size_tried && !w->prefix && device_idle(s, f->id.device)) {
		f->log_size_tried = true;
		f->log_size = xfs_log_size(f->id.mountpoint);
	}
	uint64_t hc, hb, tc, tb, gc, gb;
	if (!f->log_size || !read_file(&f->head) || !read_file(&f->tail) || !read_file(&f->grant) ||
	    !journal_parse_xfs_lsn(f->head.buf, f->head.len, &hc, &hb) ||
	    !journal_parse_xfs_lsn(f->tail.buf, f->tail.len, &tc, &tb) ||
	    !journal_parse_xfs_lsn(f->grant.buf, f->grant.len, &gc, &gb))
		return;
	double size = (double)f->log_size;
	double used;
	if (f->grant_bytes)    /* log space pinned by the AIL plus what is reserved */
		used = ((double)hc - (double)tc) * size + ((double)hb - (double)tb) * 512.0 + (double)gb;
	else                   /* the reserve grant head's distance ahead of the tail */
		used = ((double)gc - (double)tc) * size + (double)gb - (double)tb * 512.0;
	if (used < 0)
		used = 0;
	if (used > size)
		used = size;
	put(j, JX_LOG_USED, (uint64_t)used);
	put(j, JX_LOG_SIZE, f->log_size);
}

/* jbd2's info file copies the journal's statistics when it is opened (its seq_file's
 * open), so a kept descriptor would give the same figures for ever: open it again,
 * keeping the buffer. */
static bool reopen(const struct why_sampler *w, struct procfile *pf)
{
	if (!procfile_is_open(pf))
		return false;
	close(pf->fd);
	pf->fd = w->prefix ? procfile_openat(AT_FDCWD, pf->path, O_RDONLY)
			   : procfile_openat_kernel(AT_FDCWD, pf->path, O_RDONLY);
	return pf->fd >= 0;
}

/* A journal in a commit that has not ended says nothing in its own files (docs/metrics.md,
 * "A commit in progress"): its thread's state does, without the tasks sub-sampler. */
static void read_ext4_thread(const struct why_sampler *w, struct why_journal_files *f,
			     struct journal_raw *j, uint64_t mono_ns)
{
	bool have = j->present & (1u << J4_TRANSACTIONS);
	bool went_on = have && f->have_transactions && j->v[J4_TRANSACTIONS] != f->transactions;
	f->have_transactions = have;
	f->transactions = j->v[J4_TRANSACTIONS];
	uint64_t ms;
	if (procfile_is_open(&f->stats) &&
	    journal_thread_blocked_ms(&f->thread, w->prefix, j->device, went_on, mono_ns, &ms))
		put(j, J4_THREAD_D_MS, ms);
}

static void read_journal(const struct why_sampler *w, struct why_journal_files *f,
			 struct journal_raw *j, const struct snapshot *s)
{
	uint64_t mono_ns = tasks_mono_ns(&s->mono);
	*j = f->id;
	j->present = 0;
	memset(j->v, 0, sizeof j->v);
	bool got = (j->fs != JOURNAL_EXT4 || reopen(w, &f->stats)) && read_file(&f->stats);
	switch (j->fs) {
	case JOURNAL_EXT4:
		if (got)
			journal_parse_jbd2(f->stats.buf, f->stats.len, j);
		read_ext4_thread(w, f, j, mono_ns);
		break;
	case JOURNAL_XFS:
		read_xfs_fill(w, f, j, s);
		if (got)
			journal_parse_xfs_stats(f->stats.buf, f->stats.len, j);
		break;
	case JOURNAL_BTRFS:
		if (got)
			journal_parse_btrfs(f->stats.buf, f->stats.len, j);
		break;
	default:
		break;
	}
}

/* ---- cgroup v2 ---- */

static const struct mount *cgroup2_mount(const struct snapshot *mtab)
{
	for (size_t i = 0; mtab && i < mtab->nmounts; i++)
		if (strcmp(mtab->mounts[i].fstype, "cgroup2") == 0)
			return &mtab->mounts[i];
	return NULL;
}

/* Read a small file whole (cgroup files are re-opened: the tree changes). */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
	return regular_file_read_fd(regular_file_openat(AT_FDCWD, path, O_RDONLY | O_NOFOLLOW),
				    buf, len);
}

static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = text; (p = strstr(p, word)); p += n)
		if ((p == text || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static void read_cgroup(struct why_sample *out, const char *dir, const char *rel)
{
	if (out->ncgroups == WHY_CGROUPS_MAX)
		return;
	char path[4096], buf[8192];
	struct cgroup_io *c = &out->cgroups[out->ncgroups];
	memset(c, 0, sizeof *c);
	snprintf(c->path, sizeof c->path, "%s", rel[0] ? rel : "/");
	ssize_t n;
	if (path_format(path, sizeof path, "%s/io.stat", dir) >= 0 &&
	    (n = slurp(path, buf, sizeof buf)) >= 0)
		cgroup_parse_io_stat(buf, (size_t)n, c);
	if (path_format(path, sizeof path, "%s/io.pressure", dir) >= 0 &&
	    (n = slurp(path, buf, sizeof buf)) >= 0)
		cgroup_parse_io_pressure(buf, (size_t)n, c);
	if (c->ndevs || c->have_pressure)
		out->ncgroups++;
}

/* Depth first, a few levels: the cgroups that did I/O (io.stat lists only those
 * devices), the first WHY_CGROUPS_MAX of them. */
static void walk_cgroups(struct why_sample *out, const char *dir, const char *rel, int depth)
{
	read_cgroup(out, dir, rel);
	if (depth == 0)
		return;
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char sub[4096], subrel[CGROUP_PATH_MAX];
	while ((e = readdir(d)) && out->ncgroups < WHY_CGROUPS_MAX) {
		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		if (path_format(sub, sizeof sub, "%s/%s", dir, e->d_name) < 0 ||
		    path_format(subrel, sizeof subrel, "%s/%s", rel, e->d_name) < 0)
			continue;
		walk_cgroups(out, sub, subrel, depth - 1);
	}
	closedir(d);
}

/* Whether the io controller is there is looked at again every so many samples: a
 * controller moves between hierarchies rarely, and without it there is nothing to read. */
#define CGROUP_RECHECK 64

static enum cgroup_io_state cgroup_state(const char *root)
{
	char path[4096], buf[1024];
	if (path_format(path, sizeof path, "%s/cgroup.controllers", root) < 0 ||
	    slurp(path, buf, sizeof buf) < 0 || !has_word(buf, "io"))
		return CGROUP_IO_NO_CONTROLLER;
	return CGROUP_IO_OK;
}

static void read_cgroups(struct why_sampler *w, const struct snapshot *mtab, struct why_sample *out)
{
	out->ncgroups = 0;
	const struct mount *m = cgroup2_mount(mtab);
	char root[4096];
	if (!m || path_format(root, sizeof root, "%s%s", w->prefix ? w->prefix : "",
			      m->mountpoint) < 0) {
		out->cgroup_state = w->cgroup_state = CGROUP_IO_NO_V2;
		return;
	}
	if (w->cgroup_state == CGROUP_IO_UNKNOWN || w->cgroup_state == CGROUP_IO_NO_V2 ||
	    ++w->cgroup_age >= CGROUP_RECHECK) {
		w->cgroup_state = cgroup_state(root);
		w->cgroup_age = 0;
	}
	out->cgroup_state = w->cgroup_state;
	if (w->cgroup_state == CGROUP_IO_OK)
		walk_cgroups(out, root, "", 3);
}

int why_sampler_sample(struct why_sampler *w, const char *vmstat, size_t vmstat_len,
		       const struct snapshot *mtab, struct snapshot *out)
{
	if (!out->why && !(out->why = why_sample_new()))
		return -1;
	struct why_sample *ws = out->why;
	ws->dirty.page_kb = w->page_kb;
	why_parse_vmstat(vmstat ? vmstat : "", vmstat ? vmstat_len : 0, &ws->dirty);
	if (!same_journals(w, out))
		open_journals(w, out);
	ws->njournals = w->njournals;
	for (size_t i = 0; i < w->njournals; i++)
		read_journal(w, &w->journals[i], &ws->journals[i], out);
	read_cgroups(w, mtab, ws);
	return 0;
}
