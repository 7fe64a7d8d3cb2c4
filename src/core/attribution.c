/* attribution.c - which device a task's wait and a process's I/O are for (attribution.h).
 *
 * Only the snapshot is looked at: device numbers and names the sources read, the
 * snapshot's devices (with their partitions and loop backing) and mounts.  Nothing here
 * reads /proc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "kname.h"

const struct thread_name_rule attribution_thread_names[] = {
	{ "flush-", NAMES_NUMBER, "writeback of a device's dirty pages (kworker/u8:2+flush-7:0)" },
	{ "jbd2/", NAMES_DEVICE_INODE, "ext4's journal (jbd2/loop0-8)" },
	{ "xfsaild/", NAMES_DEVICE, "xfs's log tail pusher (xfsaild/loop1)" },
	{ "xfs-", NAMES_DEVICE_AFTER_SLASH,
	  "xfs's per-filesystem work queues (kworker/1:2+xfs-cil/loop1, xfs-buf/, xfs-conv/...)" },
	{ "kdmflush/", NAMES_DEVICE, "device mapper's flush (kdmflush/dm-0)" },
	{ "", NAMES_DEVICE, "a work queue named after the device: the loop driver's (kworker/u8:5+loop5)" },
};
const size_t attribution_thread_names_count =
	sizeof attribution_thread_names / sizeof attribution_thread_names[0];

/* ---- devices ---- */

static const struct device *device_by_number(const struct snapshot *s, unsigned major,
					      unsigned minor)
{
	for (size_t i = 0; i < s->ndevices; i++)
		if (s->devices[i].major == major && s->devices[i].minor == minor)
			return &s->devices[i];
	/* btrfs's anonymous device numbers (0:N): the mount table knows its disk */
	for (size_t i = 0; i < s->nmounts; i++)
		if (s->mounts[i].major == major && s->mounts[i].minor == minor && s->mounts[i].disk[0])
			return snapshot_find_device(s, s->mounts[i].disk);
	return NULL;
}

static bool has_device(const struct attribution *a, const char *name)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->devices[i], name) == 0)
			return true;
	return false;
}

static bool add_device(struct attribution *a, const char *name)
{
	if (has_device(a, name))
		return false;
	if (a->n == ATTRIBUTION_DEVICES_MAX)
		return false;
	snprintf(a->devices[a->n++], DEV_NAME_MAX, "%s", name);
	return true;
}

/* d, then the disks under it: a loop device's backing file's device, and on. */
static void add_chain(struct attribution *a, const struct snapshot *s, const struct device *d)
{
	while (d && add_device(a, d->name)) {
		const struct device *whole = d->is_partition ? snapshot_find_device(s, d->parent) : d;
		if (!whole || !whole->loop.present || !whole->loop.disk[0])
			return;
		d = snapshot_find_device(s, whole->loop.disk);
	}
}

void attribution_of_device(const struct snapshot *s, const char *name, struct attribution *out)
{
	memset(out, 0, sizeof *out);
	add_chain(out, s, snapshot_find_device(s, name));
}

static void add_file(struct attribution *a, const struct snapshot *s, const struct task_file *f)
{
	if (f->kind == TASK_FILE_NONE)
		return;
	const struct device *d = device_by_number(s, f->major, f->minor);
	if (!d)
		return;
	if (a->how == ATTR_NONE)
		a->how = f->kind == TASK_FILE_BLOCKDEV ? ATTR_BLOCK_DEVICE : ATTR_FILE;
	add_chain(a, s, d);
}

/* ---- kernel threads by name ---- */

/* The work a kernel thread does: a kworker's current work item (after the '+', or '-'
 * for the last one), else the thread's own name. */
static const char *thread_work(const char *comm)
{
	static const char kworker[] = "kworker/";
	if (strncmp(comm, kworker, sizeof kworker - 1) != 0)
		return comm;
	const char *w = comm + strcspn(comm, "+-");
	return *w ? w + 1 : NULL;
}

/* The device rule r names in work (after its prefix), into name; NULL if none. */
static const struct device *named_device(const struct snapshot *s, const struct thread_name_rule *r,
					 const char *rest)
{
	char name[DEV_NAME_MAX];
	unsigned major, minor;
	int end = 0;
	switch (r->how) {
	case NAMES_NUMBER:
		if (sscanf(rest, "%u:%u%n", &major, &minor, &end) != 2 || rest[end])
			return NULL;
		return device_by_number(s, major, minor);
	case NAMES_DEVICE_AFTER_SLASH:
		if (!(rest = strchr(rest, '/')))
			return NULL;
		rest++;
		break;
	default:
		break;
	}
	kname_from_sysfs(rest, name, sizeof name);   /* jbd2 and xfs write cciss!c0d0 */
	if (r->how == NAMES_DEVICE_INODE) {
		char *dash = strrchr(name, '-');
		if (!dash || strspn(dash + 1, "0123456789") != strlen(dash + 1))
			return NULL;
		*dash = '\0';
	}
	return name[0] ? snapshot_find_device(s, name) : NULL;
}

void attribution_of_thread(const struct snapshot *s, const char *comm, bool kthread,
			   struct attribution *out)
{
	memset(out, 0, sizeof *out);
	const char *work = kthread ? thread_work(comm) : NULL;
	for (size_t i = 0; work && i < attribution_thread_names_count; i++) {
		const struct thread_name_rule *r = &attribution_thread_names[i];
		size_t n = strlen(r->prefix);
		if (strncmp(work, r->prefix, n) != 0)
			continue;
		const struct device *d = named_device(s, r, work + n);
		if (!d)
			continue;
		out->how = ATTR_THREAD_NAME;
		add_chain(out, s, d);
		return;
	}
}

void attribution_of_blocked(const struct snapshot *s, const struct blocked_task *b,
			    struct attribution *out)
{
	attribution_of_thread(s, b->comm, b->kthread, out);
	if (!b->kthread)
		add_file(out, s, &b->waits);
}

void attribution_of_io(const struct snapshot *s, const struct task_io *io, struct attribution *out)
{
	attribution_of_thread(s, io->comm, io->kthread, out);
	for (size_t i = 0; !io->kthread && i < io->nfiles && i < TASK_IO_FILES; i++)
		add_file(out, s, &io->files[i]);
}

bool attribution_serves(const struct attribution *a, const struct snapshot *s, const char *device)
{
	for (size_t i = 0; i < a->n; i++)
		if (snapshot_on_disk(s, a->devices[i], device))
			return true;
	return false;
}

bool attribution_in(const struct attribution *a, const struct snapshot *s,
		    const struct selection *sel)
{
	for (size_t i = 0; i < a->n; i++)
		if (selection_covers_device(sel, s, a->devices[i]))
			return true;
	return false;
}

/* Whether name is under top: its loop device's backing file's device, and on down. */
static bool under(const struct snapshot *s, const char *top, const char *name)
{
	const struct device *d = snapshot_find_device(s, top);
	for (int depth = 0; d && depth < ATTRIBUTION_DEVICES_MAX; depth++) {
		const struct device *whole = d->is_partition ? snapshot_find_device(s, d->parent) : d;
		if (!whole || !whole->loop.present || !whole->loop.disk[0])
			return false;
		d = snapshot_find_device(s, whole->loop.disk);
		if (d && snapshot_on_disk(s, name, d->name))
			return true;
	}
	return false;
}

const char *attribution_device(const struct attribution *a, const struct snapshot *s)
{
	for (size_t i = 0; i < a->n; i++) {
		bool below = false;
		for (size_t j = 0; j < a->n && !below; j++)
			below = j != i && under(s, a->devices[j], a->devices[i]);
		if (!below)
			return a->devices[i];
	}
	return a->n ? a->devices[0] : "";
}

/* ---- a sample split by a selection ---- */

static enum attribution_side side_of(const struct attribution *a, const struct snapshot *s,
				     const struct selection *sel)
{
	if (selection_all(sel))
		return SIDE_MINE;
	if (!a->n)
		return SIDE_UNATTRIBUTED;
	return attribution_in(a, s, sel) ? SIDE_MINE : SIDE_ELSEWHERE;
}

int tasks_split_build(struct tasks_split *out, const struct snapshot *s,
		      const struct selection *sel)
{
	memset(out, 0, sizeof *out);
	const struct tasks_sample *t = s->tasks;
	if (!t)
		return 0;
	size_t n = t->nkept ? t->nkept : 1;
	out->mine = calloc(n, sizeof *out->mine);
	out->side = calloc(n, sizeof *out->side);
	out->device = calloc(n, sizeof *out->device);
	if (!out->mine || !out->side || !out->device) {
		tasks_split_free(out);
		return -1;
	}
	out->nblocked = t->nkept;
	struct attribution a;
	for (size_t i = 0; i < t->nkept; i++) {
		attribution_of_blocked(s, &t->blocked[i], &a);
		out->side[i] = (uint8_t)side_of(&a, s, sel);
		out->mine[i] = out->side[i] == SIDE_MINE;
		snprintf(out->device[i], DEV_NAME_MAX, "%s", attribution_device(&a, s));
		out->blocked[out->side[i]]++;
	}
	for (size_t i = 0; i < t->nio && i < TASKS_IO_TOP; i++) {
		attribution_of_io(s, &t->io[i], &a);
		out->io_side[i] = (uint8_t)side_of(&a, s, sel);
		snprintf(out->io_device[i], DEV_NAME_MAX, "%s", attribution_device(&a, s));
		out->processes[out->io_side[i]]++;
	}
	return 0;
}

void tasks_split_free(struct tasks_split *sp)
{
	free(sp->mine);
	free(sp->side);
	free(sp->device);
	memset(sp, 0, sizeof *sp);
}

/* "dd on loop3" / "2 kworker on loop5" / "sync": one name and device with its count. */
struct who_count {
	char name[TASK_COMM_MAX];
	char device[DEV_NAME_MAX];
	uint32_t count;
};

static void count_who(struct who_count *v, size_t *n, size_t max, const char *name,
		      const char *device)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(v[i].name, name) == 0 && strcmp(v[i].device, device) == 0) {
			v[i].count++;
			return;
		}
	if (*n == max)
		return;
	snprintf(v[*n].name, sizeof v[*n].name, "%s", name);
	snprintf(v[*n].device, sizeof v[*n].device, "%s", device);
	v[(*n)++].count = 1;
}

static int who_cmp(const void *pa, const void *pb)
{
	const struct who_count *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	int c = strcmp(a->name, b->name);
	return c ? c : strcmp(a->device, b->device);
}

#define WHO_MAX 16
#define WHO_SHOWN 4

/* "(dd on loop3, 2 kworker on loop5, ...)" after what is in buf already. */
static void append_who(char *buf, size_t len, struct who_count *v, size_t n)
{
	qsort(v, n, sizeof *v, who_cmp);
	size_t used = strlen(buf);
	for (size_t i = 0; i < n && i < WHO_SHOWN && used < len; i++) {
		char count[16] = "";
		if (v[i].count > 1)
			snprintf(count, sizeof count, "%u ", v[i].count);
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s%s", i ? ", " : " (", count,
					  v[i].name, v[i].device[0] ? " on " : "", v[i].device);
	}
	if (n > WHO_SHOWN && used < len)
		used += (size_t)snprintf(buf + used, len - used, ", ...");
	if (n && used < len)
		snprintf(buf + used, len - used, ")");
}

static const char *side_title(enum attribution_side side)
{
	return side == SIDE_UNATTRIBUTED ? "not attributed" : side == SIDE_ELSEWHERE ? "elsewhere"
										   : "here";
}

void tasks_split_blocked_text(const struct tasks_split *sp, const struct tasks_sample *t,
			      enum attribution_side side, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!t || !sp->blocked[side])
		return;
	struct who_count v[WHO_MAX];
	size_t n = 0;
	for (size_t i = 0; i < sp->nblocked && i < t->nkept; i++) {
		if (sp->side[i] != side)
			continue;
		char name[TASK_COMM_MAX];
		tasks_summary_name(t->blocked[i].comm, t->blocked[i].kthread, name);
		count_who(v, &n, WHO_MAX, name, sp->device[i]);
	}
	snprintf(buf, len, "%s: %u blocked", side_title(side), sp->blocked[side]);
	append_who(buf, len, v, n);
}

void tasks_split_io_text(const struct tasks_split *sp, const struct tasks_sample *t,
			 enum attribution_side side, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!t || !sp->processes[side])
		return;
	struct who_count v[WHO_MAX];
	size_t n = 0;
	double kBs = 0;
	for (size_t i = 0; i < t->nio && i < TASKS_IO_TOP; i++) {
		if (sp->io_side[i] != side)
			continue;
		struct task_io_rates r;
		task_io_rates(t, &t->io[i], &r);
		kBs += r.rkB_s + r.wkB_s;
		char name[TASK_COMM_MAX];
		tasks_summary_name(t->io[i].comm, t->io[i].kthread, name);
		count_who(v, &n, WHO_MAX, name, sp->io_device[i]);
	}
	snprintf(buf, len, "%s: %u process%s, %.1f MB/s", side_title(side), sp->processes[side],
		 sp->processes[side] == 1 ? "" : "es", kBs / 1024);
	append_who(buf, len, v, n);
}
