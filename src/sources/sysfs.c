/* sysfs.c - scheduler, queue tunables, iosched tunables and inflight of a disk.
 *
 * Every file is opened once and re-read with pread at offset 0, which makes
 * kernfs call the attribute's show() again.  Attributes are opened with
 * O_NOFOLLOW: a symlink where a tunable should be is not the tunable (the
 * control layer writes these same names).  libudev's sysattr cache is not used
 * because it never re-reads a value.  Live, each file is one openat
 * (regular_file_openat_kernel); a --root tree's are checked as regular files.
 * Nothing is opened before the first read, and in the sampler (sysfs_disk_skip_empty)
 * a disk that has no medium then opens only its size, or nothing when the sampler
 * knows it has none (sysfs_disk_known_empty).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "grow.h"
#include "kname.h"
#include "knobs.h"
#include "procfile.h"
#include "sysfs.h"

#define VALUE_BUF 512

size_t sysfs_parse_value(const char *buf, size_t len, char *out, size_t outlen)
{
	if (outlen == 0)
		return 0;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' ' ||
			   buf[len - 1] == '\t' || buf[len - 1] == '\r' || buf[len - 1] == '\0'))
		len--;
	if (len > outlen - 1)
		len = outlen - 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		out[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	out[len] = '\0';
	return len;
}

static void copy_word(char *dst, size_t dstlen, const char *s, size_t n)
{
	if (n > dstlen - 1)
		n = dstlen - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

int sysfs_parse_scheduler(const char *line, char *active, size_t len)
{
	if (len == 0)
		return -1;
	active[0] = '\0';
	const char *open = strchr(line, '[');
	if (open) {
		const char *close = strchr(open + 1, ']');
		if (!close || close == open + 1)
			return -1;
		copy_word(active, len, open + 1, (size_t)(close - open - 1));
		return 0;
	}
	/* A queue without a choice prints just its one elevator, e.g. "none". */
	const char *s = line + strspn(line, " \t\n");
	size_t n = strcspn(s, " \t\n");
	if (n == 0 || s[n + strspn(s + n, " \t\n")] != '\0')
		return -1;
	copy_word(active, len, s, n);
	return 0;
}

static int parse_long(const char **p, long *out)
{
	const char *s = *p + strspn(*p, " \t");
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno)
		return -1;
	*out = v;
	*p = end;
	return 0;
}

int sysfs_parse_inflight(const char *line, long *reads, long *writes)
{
	const char *p = line;
	long r, w;
	if (parse_long(&p, &r) < 0 || parse_long(&p, &w) < 0)
		return -1;
	if (p[strspn(p, " \t\n")] != '\0')
		return -1;
	*reads = r;
	*writes = w;
	return 0;
}

int sysfs_parse_bool(const char *line)
{
	const char *s = line + strspn(line, " \t");
	if ((s[0] != '0' && s[0] != '1') || s[1 + strspn(s + 1, " \t\n")] != '\0')
		return -1;
	return s[0] - '0';
}

bool sysfs_is_disk(const char *root, const char *name)
{
	char path[4096], sysname[DEV_NAME_MAX];
	struct stat st;
	kname_to_sysfs(name, sysname, sizeof sysname);
	return path_format(path, sizeof path, "%s/sys/block/%s", root ? root : "", sysname) >= 0 &&
	       stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Read a small attribute; the length, or -1 with errno. */
static ssize_t read_attr(int fd, char *buf, size_t len)
{
	if (fd < 0) {
		errno = ENOENT;
		return -1;
	}
	ssize_t n;
	do
		n = pread(fd, buf, len - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* A file or directory of the disk: live, the kernel's sysfs (one openat); else a tree's
 * file, checked (regular_file.h). */
static int open_in(bool kernel, int dirfd, const char *rel, int flags)
{
	return kernel ? procfile_openat_kernel(dirfd, rel, flags)
		      : procfile_openat(dirfd, rel, flags);
}

static int open_attr(bool kernel, int dirfd, const char *rel)
{
	return open_in(kernel, dirfd, rel, O_RDONLY | O_NOFOLLOW);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_files(struct sysfs_disk *d, size_t from)
{
	for (size_t i = from; i < d->nfiles; i++)
		close_fd(&d->files[i].fd);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in queue/iosched, sorted; *n = 0 when there is none (elevator none). */
static char **list_iosched(bool kernel, int qfd, size_t *n)
{
	*n = 0;
	int fd = open_in(kernel, qfd, "iosched", O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	DIR *dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return NULL;
	}
	char **names = NULL;
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) + 8 >= SETTING_KEY_MAX)
			continue;
		if (grow_array(&names, &cap, *n + 1, sizeof *names, 16, NULL) < 0)
			break;
		if (!(names[*n] = strdup(e->d_name)))
			break;
		(*n)++;
	}
	closedir(dir);
	if (*n)
		qsort(names, *n, sizeof *names, cmp_names);
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int cmp_files(const void *a, const void *b)
{
	return strcmp(((const struct sysfs_file *)a)->key, ((const struct sysfs_file *)b)->key);
}

/* The directories the knobs' files are in, opened once per listing: the disk's, queue/,
 * loop/ (no link followed) and bdi/, the kernel's own link (to /sys/devices/virtual/bdi/
 * MAJ:MIN), followed as /sys/block/NAME is.  -1 for one that is not there. */
struct setting_dirs {
	bool kernel;                 /* the live sysfs (open_in) */
	int disk, queue, bdi, loop;
	bool loop_attached;          /* loop/backing_file: a loop device with a file */
};

static void setting_dirs_open(struct setting_dirs *dirs, bool kernel, int dfd, int qfd)
{
	dirs->kernel = kernel;
	dirs->disk = dfd;
	dirs->queue = qfd;
	dirs->bdi = dfd < 0 ? -1 : open_in(kernel, dfd, "bdi", O_RDONLY | O_DIRECTORY);
	dirs->loop = dfd < 0 ? -1
			     : open_in(kernel, dfd, "loop", O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	dirs->loop_attached = dirs->loop >= 0 &&
			      faccessat(dirs->loop, "backing_file", F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

static void setting_dirs_close(struct setting_dirs *dirs)
{
	close_fd(&dirs->bdi);
	close_fd(&dirs->loop);
}

/* The directory of a knob's file ("bdi/max_ratio": bdi/), and the name in it. */
static int dir_of(const struct setting_dirs *dirs, const char *rel, const char **name)
{
	const char *slash = strchr(rel, '/');
	*name = slash ? slash + 1 : rel;
	if (!slash)
		return dirs->disk;
	size_t n = (size_t)(slash - rel);
	return strncmp(rel, "queue", n) == 0 ? dirs->queue
	       : strncmp(rel, "bdi", n) == 0 ? dirs->bdi
	       : strncmp(rel, "loop", n) == 0 ? dirs->loop
					       : -1;
}

/* A knob's file, its last component opened without following a link; -1 when the knob
 * does not apply to this disk. */
static int open_knob(const struct setting_dirs *dirs, const struct knob *k)
{
	const char *name;
	if (k->loop_only && !dirs->loop_attached)
		return -1;
	int finer = k->finer ? dir_of(dirs, k->finer, &name) : -1;
	if (finer >= 0 && faccessat(finer, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return -1;
	int dir = dir_of(dirs, k->file, &name);
	return dir < 0 ? -1 : open_attr(dirs->kernel, dir, name);
}

/* Read through the table: a knob of one file, sampled.  The scheduler is read with the
 * gauges (its line says which iosched files to open), and the iosched. row stands for
 * the files listed in queue/iosched/. */
static bool sampled_file(const struct knob *k)
{
	return k->cadence != KNOB_CADENCE_SHOWN && k->value != KNOB_ELEVATOR &&
	       k->value != KNOB_IOSCHED;
}

static int open_disk_dir(const struct sysfs_disk *d)
{
	return open_in(d->kernel, AT_FDCWD, d->dir, O_RDONLY | O_DIRECTORY);
}

/* (Re)build files[]: iosched.* of the scheduler now active and the knobs (knob_table[])
 * that this disk has, sorted by key.  dfd: the disk's directory, or -1 to open it here. */
static int open_settings_in(struct sysfs_disk *d, int dfd, const char *active,
			    struct error *err)
{
	close_files(d, 0);
	d->nfiles = 0;
	snprintf(d->iosched_of, sizeof d->iosched_of, "%s", active);

	int own = dfd < 0 ? open_disk_dir(d) : -1;
	if (own >= 0)
		dfd = own;
	int qfd = dfd < 0 ? -1
			  : open_in(d->kernel, dfd, "queue", O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	size_t nsched = 0;
	char **sched = qfd < 0 ? NULL : list_iosched(d->kernel, qfd, &nsched);

	struct sysfs_file *v = realloc(d->files, (nsched + knob_count + 1) * sizeof *v);
	if (!v) {
		free_names(sched, nsched);
		if (qfd >= 0)
			close(qfd);
		if (own >= 0)
			close(own);
		return error_set(err, "%s: out of memory", d->dir);
	}
	d->files = v;
	/* Only files that opened take a place: an absent one (zram has no
	 * nr_requests) must not make every sample resize the items array. */
	char rel[SETTING_KEY_MAX + 16];
	for (size_t i = 0; i < nsched && qfd >= 0; i++) {
		struct sysfs_file *f = &d->files[d->nfiles];
		snprintf(f->key, sizeof f->key, "iosched.%s", sched[i]);
		snprintf(rel, sizeof rel, "iosched/%s", sched[i]);
		f->iosched = true;
		f->knob = false;
		if ((f->fd = open_attr(d->kernel, qfd, rel)) >= 0)
			d->nfiles++;
	}
	struct setting_dirs dirs;
	setting_dirs_open(&dirs, d->kernel, dfd, qfd);
	for (size_t i = 0; i < knob_count && dfd >= 0; i++) {
		const struct knob *k = &knob_table[i];
		struct sysfs_file *f = &d->files[d->nfiles];
		if (!sampled_file(k))
			continue;
		snprintf(f->key, sizeof f->key, "%s", k->key);
		f->iosched = false;
		f->knob = k->cadence == KNOB_CADENCE_KNOB;
		if ((f->fd = open_knob(&dirs, k)) >= 0)
			d->nfiles++;
	}
	setting_dirs_close(&dirs);
	if (d->nfiles)
		qsort(d->files, d->nfiles, sizeof *d->files, cmp_files);
	free_names(sched, nsched);
	if (qfd >= 0)
		close(qfd);
	if (own >= 0)
		close(own);
	return 0;
}

static int open_settings(struct sysfs_disk *d, const char *active, struct error *err)
{
	return open_settings_in(d, -1, active, err);
}

/* The files read every sample but the settings' (size may be open already). */
static void open_gauges(struct sysfs_disk *d, int dfd)
{
	if (dfd < 0)
		return;
	d->scheduler_fd = open_attr(d->kernel, dfd, "queue/scheduler");
	d->rotational_fd = open_attr(d->kernel, dfd, "queue/rotational");
	d->inflight_fd = open_attr(d->kernel, dfd, "inflight");
	if (d->size_fd < 0)
		d->size_fd = open_attr(d->kernel, dfd, "size");
}

static void active_scheduler(struct sysfs_disk *d, char *line, size_t linelen,
			     char *active, size_t len)
{
	char buf[VALUE_BUF];
	active[0] = line[0] = '\0';
	ssize_t n = read_attr(d->scheduler_fd, buf, sizeof buf);
	if (n < 0)
		return;
	sysfs_parse_value(buf, (size_t)n, line, linelen);
	sysfs_parse_scheduler(line, active, len);
}

static void close_all(struct sysfs_disk *d)
{
	close_files(d, 0);
	free(d->files);
	close_fd(&d->scheduler_fd);
	close_fd(&d->rotational_fd);
	close_fd(&d->inflight_fd);
	close_fd(&d->size_fd);
	d->have_last = false;
	d->files = NULL;
	d->nfiles = 0;
	d->iosched_of[0] = '\0';
	d->opened = false;
}

static int open_all(struct sysfs_disk *d, struct error *err)
{
	int dfd = open_disk_dir(d);
	open_gauges(d, dfd);
	char line[SCHED_LINE_MAX], active[32];
	active_scheduler(d, line, sizeof line, active, sizeof active);
	int r = open_settings_in(d, dfd, active, err);
	if (dfd >= 0)
		close(dfd);
	d->opened = true;
	return r;
}

int sysfs_disk_open(struct sysfs_disk *d, const char *root, const char *name, struct error *err)
{
	memset(d, 0, sizeof *d);
	d->scheduler_fd = d->rotational_fd = d->inflight_fd = d->size_fd = -1;
	d->last.rotational = -1;
	d->last.inflight_read = d->last.inflight_write = -1;
	d->kernel = !root || !root[0];
	char sysname[DEV_NAME_MAX];
	kname_to_sysfs(name, sysname, sizeof sysname);
	if (asprintf(&d->dir, "%s/sys/block/%s", root ? root : "", sysname) < 0) {
		d->dir = NULL;
		return error_set(err, "sysfs: out of memory");
	}
	return 0;
}

void sysfs_disk_skip_empty(struct sysfs_disk *d)
{
	d->skip_empty = true;
}

void sysfs_disk_close(struct sysfs_disk *d)
{
	close_all(d);
	free(d->last.items);
	d->last.items = NULL;
	free(d->dir);
	d->dir = NULL;
}

/* The disk was deleted and created again under the same name: our descriptors
 * point at the dead kernfs nodes (ENODEV).  Open the new ones. */
static int reopen(struct sysfs_disk *d, struct error *err)
{
	d->recreations++;
	close_all(d);
	return open_all(d, err);
}

static int ensure_items(struct disk_settings *out, size_t n, struct error *err)
{
	if (out->nitems == n && (n == 0 || out->items))
		return 0;
	if (n == 0) {
		free(out->items);
		out->items = NULL;
		out->nitems = 0;
		return 0;
	}
	struct setting *v = realloc(out->items, n * sizeof *v);
	if (!v)
		return error_set(err, "sysfs: out of memory");
	out->items = v;
	out->nitems = n;
	return 0;
}

static bool is_iosched_key(const char *key)
{
	return strncmp(key, "iosched.", 8) == 0;
}

/* A knob's value between its reads: the last full read's (both lists are in key
 * order, *cursor walks d->last once per read); NULL when it had none. */
static const char *last_value(const struct sysfs_disk *d, const char *key, size_t *cursor)
{
	const struct disk_settings *l = &d->last;
	while (d->have_last && *cursor < l->nitems && strcmp(l->items[*cursor].key, key) < 0)
		(*cursor)++;
	if (!d->have_last || *cursor == l->nitems || strcmp(l->items[*cursor].key, key) != 0)
		return NULL;
	return l->items[*cursor].value;
}

/* Read files[] into out->items (the knobs only when d->reading_knobs, or when the
 * last read had none of theirs).  1 when an iosched file has vanished (the scheduler
 * changed between our reads), else 0; -1 on ENOMEM.  Another file gone (ENODEV: a loop
 * device detached, its loop/ group removed) makes the next read list the files again. */
static int read_items(struct sysfs_disk *d, struct disk_settings *out, struct error *err)
{
	if (ensure_items(out, d->nfiles, err) < 0)
		return -1;
	char buf[VALUE_BUF];
	size_t n = 0, cursor = 0;
	for (size_t i = 0; i < d->nfiles; i++) {
		const struct sysfs_file *f = &d->files[i];
		const char *v =
			f->knob && !d->reading_knobs ? last_value(d, f->key, &cursor) : NULL;
		if (v) {   /* a file new since the last read (none there) is read now */
			struct setting *s = &out->items[n++];
			memcpy(s->key, f->key, sizeof s->key);
			snprintf(s->value, sizeof s->value, "%s", v);
			continue;
		}
		ssize_t len = read_attr(f->fd, buf, sizeof buf);
		if (len < 0) {
			if (f->iosched && (errno == ENODEV || errno == ENOENT) && f->fd >= 0) {
				out->nitems = n;
				return 1;
			}
			if (errno == ENODEV)
				d->iosched_of[0] = '\1';
			continue;
		}
		struct setting *s = &out->items[n++];
		memcpy(s->key, f->key, sizeof s->key);
		sysfs_parse_value(buf, (size_t)len, s->value, sizeof s->value);
	}
	out->nitems = n;
	return 0;
}

static void read_gauges(struct sysfs_disk *d, struct disk_settings *out)
{
	char buf[VALUE_BUF];
	out->rotational = -1;
	out->inflight_read = out->inflight_write = -1;
	if (read_attr(d->rotational_fd, buf, sizeof buf) >= 0)
		out->rotational = sysfs_parse_bool(buf);
	if (read_attr(d->inflight_fd, buf, sizeof buf) < 0 ||
	    sysfs_parse_inflight(buf, &out->inflight_read, &out->inflight_write) < 0)
		out->inflight_read = out->inflight_write = -1;
}

/* Copy a disk's settings, reusing dst's items array. */
static int settings_copy(struct disk_settings *dst, const struct disk_settings *src, struct error *err)
{
	struct setting *items = dst->items;
	size_t nitems = dst->nitems;
	*dst = *src;
	dst->items = items;
	dst->nitems = nitems;
	if (ensure_items(dst, src->nitems, err) < 0)
		return -1;
	if (src->nitems)
		memcpy(dst->items, src->items, src->nitems * sizeof *src->items);
	return 0;
}

/* 1: a size of 0 sectors, no medium; 0: a medium (unknown, no size file, counts
 * as one); -1: the size node is gone (ENODEV), the disk was deleted and created
 * again under the same name.  The size is read every sample, scheduler or not
 * (bio-based disks such as zram have none), so it is what tells. */
static int medium_state(struct sysfs_disk *d)
{
	char buf[VALUE_BUF];
	ssize_t n = read_attr(d->size_fd, buf, sizeof buf);
	if (n < 0 && errno == ENODEV)
		return -1;
	return n > 0 && buf[0] == '0' && (buf[1] == '\n' || buf[1] == '\0');
}

/* The known elevator (knob_elevators[]) whose tunable `name` is, or NULL: a listing of
 * queue/iosched that holds another elevator's files still holds the previous elevator's
 * (newer kernels point the queue at the new elevator before they remove the old one's
 * directory). */
static const char *elevator_of_tunable(const char *name)
{
	for (size_t e = 0; e < knob_nelevators; e++)
		for (const char *const *t = knob_elevators[e].tunables; *t; t++)
			if (strcmp(*t, name) == 0)
				return knob_elevators[e].name;
	return NULL;
}

/* An iosched file that belongs to another elevator than `active`. */
static bool has_foreign_tunable(const struct disk_settings *st, const char *active)
{
	for (size_t i = 0; i < st->nitems; i++) {
		if (!is_iosched_key(st->items[i].key))
			continue;
		const char *owner = elevator_of_tunable(st->items[i].key + 8);
		if (owner && strcmp(owner, active) != 0)
			return true;
	}
	return false;
}

static size_t count_iosched(const struct disk_settings *st)
{
	size_t n = 0;
	for (size_t i = 0; i < st->nitems; i++)
		n += is_iosched_key(st->items[i].key);
	return n;
}

/* The scheduler line, and the name in brackets, as they are now. */
static void read_scheduler(struct disk_settings *out, ssize_t n, const char *buf)
{
	out->scheduler_line[0] = out->scheduler[0] = '\0';
	if (n < 0)
		return;
	sysfs_parse_value(buf, (size_t)n, out->scheduler_line, sizeof out->scheduler_line);
	sysfs_parse_scheduler(out->scheduler_line, out->scheduler, sizeof out->scheduler);
}

/* True when the scheduler file says the same line as `line`. */
static bool scheduler_still(struct sysfs_disk *d, const char *line)
{
	char buf[VALUE_BUF], now[SCHED_LINE_MAX];
	ssize_t n = read_attr(d->scheduler_fd, buf, sizeof buf);
	if (n < 0)
		return line[0] == '\0';
	sysfs_parse_value(buf, (size_t)n, now, sizeof now);
	return strcmp(now, line) == 0;
}

static bool elevator_known(const char *name)
{
	return knob_iosched_names(name) != NULL;
}

/* The most tunables a whole listing of this elevator had on this disk (an
 * elevator's set of files does not change while it runs); 0 if never seen. */
static size_t *seen_tunables(struct sysfs_disk *d, const char *elevator)
{
	for (size_t i = 0; i < d->nseen; i++)
		if (strcmp(d->seen[i].elevator, elevator) == 0)
			return &d->seen[i].ntunables;
	if (d->nseen == SYSFS_ELEVATORS_SEEN || elevator[0] == '\0')
		return NULL;
	snprintf(d->seen[d->nseen].elevator, sizeof d->seen[d->nseen].elevator, "%s", elevator);
	d->seen[d->nseen].ntunables = 0;
	return &d->seen[d->nseen++].ntunables;
}

/* A read taken while the elevator was being switched: the scheduler line changed
 * during it, the iosched files are another elevator's (its directory not removed
 * yet), or fewer than this elevator has (its directory not, or not wholly, there
 * yet). */
static bool read_is_torn(struct sysfs_disk *d, const struct disk_settings *out)
{
	if (!scheduler_still(d, out->scheduler_line) || has_foreign_tunable(out, out->scheduler))
		return true;
	size_t n = count_iosched(out);
	const size_t *seen = seen_tunables(d, out->scheduler);
	return (seen && n < *seen) || (n == 0 && elevator_known(out->scheduler));
}

static void remember_tunables(struct sysfs_disk *d, const struct disk_settings *out)
{
	size_t *seen = seen_tunables(d, out->scheduler);
	size_t n = count_iosched(out);
	if (seen && n > *seen)
		*seen = n;
}

#define READ_ATTEMPTS 4

/* One consistent read of scheduler and items: 1, or 0 when every attempt was torn
 * by a scheduler switch (out then holds the last attempt); -1 on ENOMEM. */
static int read_consistent(struct sysfs_disk *d, struct disk_settings *out, struct error *err)
{
	char buf[VALUE_BUF];
	for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
		ssize_t n = read_attr(d->scheduler_fd, buf, sizeof buf);
		if (n < 0 && errno == ENODEV && attempt == 0) {
			if (reopen(d, err) < 0)
				return -1;
			n = read_attr(d->scheduler_fd, buf, sizeof buf);
		}
		read_scheduler(out, n, buf);
		/* A switch changes more than its tunables (the knobs whose on_switch is not
		 * KNOB_SWITCH_KEEPS: to bfq and back, wbt_lat_usec): read the knobs with it,
		 * so that the diff finds them in the same sample. */
		if (d->have_last && strcmp(out->scheduler, d->last.scheduler) != 0)
			d->reading_knobs = true;
		if (strcmp(out->scheduler, d->iosched_of) != 0 &&
		    open_settings(d, out->scheduler, err) < 0)
			return -1;
		int vanished = read_items(d, out, err);
		if (vanished < 0)
			return -1;
		bool torn = vanished || read_is_torn(d, out);
		/* List again next time: the files open may be another elevator's, and an
		 * elevator (not none) without files may only be half registered. */
		if (torn || (count_iosched(out) == 0 && strcmp(out->scheduler, "none") != 0 &&
			     out->scheduler[0] != '\0'))
			d->iosched_of[0] = '\1';
		if (!torn) {
			remember_tunables(d, out);
			return 1;
		}
	}
	return 0;
}

/* 0, or 1 when the read was torn by a scheduler switch every time and the last
 * full read's settings were given instead; -1 on ENOMEM. */
static int read_full(struct sysfs_disk *d, struct disk_settings *out, struct error *err)
{
	out->has_settings = true;
	int r = read_consistent(d, out, err);
	if (r < 0)
		return -1;
	if (r == 0 && d->have_last) {
		if (settings_copy(out, &d->last, err) < 0)
			return -1;
		read_gauges(d, out);
		return 1;
	}
	read_gauges(d, out);
	return 0;
}

void sysfs_disk_knob_cadence(struct sysfs_disk *d, uint64_t period_ns, uint64_t first_ns)
{
	d->knob_period_ns = period_ns;
	d->knob_first_ns = first_ns;
}

void sysfs_disk_knobs_now(struct sysfs_disk *d)
{
	d->reading_knobs = true;
}

void sysfs_disk_read_all_next(struct sysfs_disk *d)
{
	d->iosched_of[0] = '\1';
	d->reading_knobs = true;
}

static uint64_t monotonic_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The knobs are due: every read without a cadence, else when their time came. */
static uint64_t knobs_begin(struct sysfs_disk *d)
{
	uint64_t now = d->knob_period_ns ? monotonic_ns() : 0;
	if (!d->knob_period_ns || !d->have_last || now >= d->knobs_due_ns)
		d->reading_knobs = true;
	return now;
}

static void knobs_end(struct sysfs_disk *d, uint64_t now)
{
	if (d->reading_knobs && d->knob_period_ns) {
		d->knobs_due_ns = now + (d->knob_first_ns ? d->knob_first_ns : d->knob_period_ns);
		d->knob_first_ns = 0;
	}
	d->reading_knobs = false;
}

/* No settings: a disk first read with no medium (skip_empty) has none until it has one. */
static void forget_last(struct sysfs_disk *d)
{
	struct disk_settings *l = &d->last;
	l->has_settings = false;
	l->scheduler_line[0] = l->scheduler[0] = '\0';
	l->rotational = -1;
	l->inflight_read = l->inflight_write = -1;
	l->nitems = 0;
	l->generation = 0;
}

/* Before the first read (or after the disk was created again): everything, or with
 * skip_empty the size alone when it reads 0 (no_medium set). */
static int open_first(struct sysfs_disk *d, struct error *err)
{
	if (d->skip_empty && d->known_empty) {
		d->no_medium = true;
		forget_last(d);
		return 0;
	}
	if (d->skip_empty) {
		char path[4096];
		if (d->size_fd < 0 && path_format(path, sizeof path, "%s/size", d->dir) >= 0)
			d->size_fd = open_in(d->kernel, AT_FDCWD, path, O_RDONLY | O_NOFOLLOW);
		if (medium_state(d) > 0) {
			d->no_medium = true;
			forget_last(d);
			return 0;
		}
	}
	return open_all(d, err);
}

/* 1: no medium, 0: a medium (or not known), -1 on ENOMEM. */
static int medium_now(struct sysfs_disk *d, struct error *err)
{
	if (!d->opened && !d->no_medium)   /* the first read */
		return open_first(d, err) < 0 ? -1 : d->no_medium;
	if (d->known_empty && d->no_medium)
		return 1;
	int medium = d->have_last || d->no_medium ? medium_state(d) : 0;
	if (medium >= 0)
		return medium;
	/* gone (ENODEV): the disk was deleted and created again under the same name */
	d->recreations++;
	close_all(d);
	d->no_medium = false;
	return open_first(d, err) < 0 ? -1 : d->no_medium;
}

int sysfs_disk_read(struct sysfs_disk *d, struct disk_settings *out, struct error *err)
{
	int medium = medium_now(d, err);
	if (medium < 0)
		return -1;
	if (medium > 0) {
		d->no_medium = true;
		if (out->generation && out->generation == d->last.generation)
			return 0;   /* out holds these settings already */
		return settings_copy(out, &d->last, err);
	}
	if (d->no_medium) {   /* a loop device attached again: maybe its loop/ group is new */
		d->no_medium = false;
		sysfs_disk_read_all_next(d);
		if (!d->opened && open_all(d, err) < 0)
			return -1;
	}
	uint64_t now = knobs_begin(d);
	int r = read_full(d, out, err);
	knobs_end(d, now);
	if (r < 0)
		return -1;
	if (r > 0 || (d->have_last && disk_settings_equal(out, &d->last))) {
		out->generation = d->last.generation;
		return 0;
	}
	out->generation = d->generations ? ++*d->generations : 0;
	if (settings_copy(&d->last, out, err) < 0)
		return -1;
	d->have_last = true;
	return 0;
}
