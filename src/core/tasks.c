/* tasks.c - a tasks sample's ownership, its rates and its blocked-task groups. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "tasks.h"

const char tasks_delayacct_note[] =
	"delay accounting is off, so iodelay is not measured: turn it on with "
	"`sysctl kernel.task_delayacct=1` (or boot with `delayacct`)";
const char tasks_stack_note[] =
	"kernel stacks of blocked tasks are not shown: reading /proc/PID/stack needs "
	"CAP_SYS_ADMIN (run ioscope as root)";
const char tasks_attribution_note[] =
	"what another user's blocked task waits on is read as root only: such tasks are "
	"not attributed to a device";

/* The wait channels people meet when a disk is slow, said as what they mean. */
const struct wchan_words tasks_wchan_words[] = {
	{ "add_transaction_credits", "journal full, waiting for log space", { NULL } },
	{ "__jbd2_log_wait_for_space", "journal full, waiting for log space", { NULL } },
	{ "jbd2_log_wait_commit", "waiting for a journal commit", { NULL } },
	{ "xlog_grant_head_wait", "xfs log full", { NULL } },
	/* an fsync or log force whose checkpoint was handed to the log: the CIL push work is
	 * done, the wait is for the log's own write (its device slow or stuck) */
	{ "xlog_wait_on_iclog", "waiting for an xfs log write", { NULL } },
	{ "balance_dirty_pages", "throttled, dirty above the limit", { NULL } },
	{ "blk_mq_get_tag", "queue full, all nr_requests in use", { NULL } },
	{ "rq_qos_wait", "held back by writeback throttling (wbt)", { NULL } },
	{ "folio_wait_bit", "waiting for a page under writeback", { NULL } },
	{ "folio_wait_writeback", "waiting for a page under writeback", { NULL } },
	{ "percpu_rwsem_wait", "filesystem frozen",
	  { "__sb_start_write", "sb_start_write", "mnt_want_write", "mnt_want_write_file",
	    "vfs_write", "vfs_writev", "vfs_fallocate", "do_truncate", "vfs_truncate",
	    "vfs_iter_write", "file_start_write", "kiocb_start_write", "lo_rw_aio", NULL } },
	{ "reclaim_throttle", "memory reclaim throttling", { NULL } },
};
const size_t tasks_wchan_words_count = sizeof tasks_wchan_words / sizeof tasks_wchan_words[0];

/* "lo_rw_aio.isra.0" is lo_rw_aio: the compiler's clone suffixes are no other function. */
static bool frame_is(const char *frame, const char *name)
{
	size_t n = strlen(name);
	return strncmp(frame, name, n) == 0 && (frame[n] == '\0' || frame[n] == '.');
}

static bool stack_has(const struct blocked_task *b, const char *const *frames)
{
	for (size_t i = 0; i < b->nframes && i < TASK_STACK_FRAMES; i++)
		for (size_t k = 0; k < WCHAN_WORDS_FRAMES && frames[k]; k++)
			if (frame_is(b->stack[i], frames[k]))
				return true;
	return false;
}

const char *blocked_task_words(const struct blocked_task *b)
{
	for (size_t i = 0; i < tasks_wchan_words_count; i++) {
		const struct wchan_words *w = &tasks_wchan_words[i];
		if (strcmp(w->wchan, b->wchan) != 0)
			continue;
		return !w->frames[0] || stack_has(b, w->frames) ? w->words : NULL;
	}
	return NULL;
}

const char *const memcg_field_keys[MEMCG_FIELDS] = {
	[MEMCG_LIMIT] = "limit", [MEMCG_USAGE] = "usage", [MEMCG_DIRTY] = "dirty",
	[MEMCG_WRITEBACK] = "writeback", [MEMCG_FAILCNT] = "failcnt", [MEMCG_PGSCAN] = "pgscan",
	[MEMCG_HIGH] = "high", [MEMCG_MAX] = "max",
};

struct tasks_sample *tasks_sample_new(void)
{
	return calloc(1, sizeof(struct tasks_sample));
}

void tasks_sample_free(struct tasks_sample *t)
{
	if (!t)
		return;
	free(t->blocked);
	free(t);
}

/* The blocked array grows by doubling from 8: its capacity is implied by nkept. */
static size_t blocked_capacity(size_t n)
{
	size_t cap = 8;
	while (cap < n)
		cap *= 2;
	return cap;
}

struct tasks_sample *tasks_sample_dup(const struct tasks_sample *t)
{
	if (!t)
		return NULL;
	struct tasks_sample *d = malloc(sizeof *d);
	if (!d)
		return NULL;
	*d = *t;
	d->blocked = NULL;
	if (t->nkept) {
		d->blocked = malloc(blocked_capacity(t->nkept) * sizeof *d->blocked);
		if (!d->blocked) {
			free(d);
			return NULL;
		}
		memcpy(d->blocked, t->blocked, t->nkept * sizeof *d->blocked);
	}
	return d;
}

struct blocked_task *tasks_sample_add_blocked(struct tasks_sample *t)
{
	size_t cap = t->blocked ? blocked_capacity(t->nkept) : 0;
	if (grow_array(&t->blocked, &cap, t->nkept + 1, sizeof *t->blocked, blocked_capacity(0),
		       NULL) < 0)
		return NULL;
	struct blocked_task *b = &t->blocked[t->nkept++];
	memset(b, 0, sizeof *b);
	return b;
}

double blocked_task_seconds(const struct blocked_task *b, uint64_t mono_ns)
{
	if (mono_ns <= b->since_ns)
		return 0;
	return (double)(mono_ns - b->since_ns) / 1e9;
}

void task_io_rates(const struct tasks_sample *t, const struct task_io *io,
		   struct task_io_rates *out)
{
	double s = (double)t->interval_ns / 1e9;
	if (!(s > 0)) {
		*out = (struct task_io_rates){ NAN, NAN, NAN, NAN, NAN, NAN };
		return;
	}
	out->rkB_s = (double)io->read_bytes / 1024.0 / s;
	out->wkB_s = (double)io->write_bytes / 1024.0 / s;
	out->cancelled_wkB_s = (double)io->cancelled_write_bytes / 1024.0 / s;
	out->syscr_s = (double)io->syscr / s;
	out->syscw_s = (double)io->syscw / s;
	out->iodelay_pct = NAN;
	if (t->delayacct && t->clk_tck)
		out->iodelay_pct = (double)io->blkio_ticks / t->clk_tck / s * 100.0;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

enum task_role task_role(const char *comm, bool kthread)
{
	if (!kthread)
		return TASK_ROLE_PROCESS;
	if (has_prefix(comm, "jbd2/") || has_prefix(comm, "xfsaild/") ||
	    has_prefix(comm, "xfs-log/") || has_prefix(comm, "btrfs-transaction"))
		return TASK_ROLE_JOURNAL;
	if (has_prefix(comm, "kworker/") || has_prefix(comm, "flush-"))
		return TASK_ROLE_WRITEBACK;
	return TASK_ROLE_PROCESS;
}

const char *task_role_name(enum task_role r)
{
	switch (r) {
	case TASK_ROLE_JOURNAL:
		return "journal";
	case TASK_ROLE_WRITEBACK:
		return "writeback";
	default:
		return "";
	}
}

struct comm_count {
	char name[TASK_COMM_MAX];
	bool kthread;
	uint32_t count;
};

void tasks_summary_name(const char *comm, bool kthread, char out[TASK_COMM_MAX])
{
	snprintf(out, TASK_COMM_MAX, "%s", comm);
	if (kthread)
		out[strcspn(out, "/")] = '\0';
}

static int comm_count_cmp(const void *pa, const void *pb)
{
	const struct comm_count *a = pa, *b = pb;
	if (a->kthread != b->kthread)
		return a->kthread ? 1 : -1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Count the comms of the kept tasks in wchan into counts (at most max names). */
static size_t count_comms(const struct tasks_sample *t, const bool *keep, const char *wchan,
			  struct comm_count *counts, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nkept; i++) {
		const struct blocked_task *b = &t->blocked[i];
		if ((keep && !keep[i]) || strcmp(b->wchan, wchan) != 0)
			continue;
		char name[TASK_COMM_MAX];
		tasks_summary_name(b->comm, b->kthread, name);
		size_t j = 0;
		while (j < n && !(counts[j].kthread == b->kthread && !strcmp(counts[j].name, name)))
			j++;
		if (j == n) {
			if (n == max)
				continue;
			snprintf(counts[n].name, sizeof counts[n].name, "%s", name);
			counts[n].kthread = b->kthread;
			counts[n++].count = 0;
		}
		counts[j].count++;
	}
	qsort(counts, n, sizeof *counts, comm_count_cmp);
	return n;
}

static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s", text);
}

#define SUMMARY_NAMES 16

static void group_comms(const struct tasks_sample *t, const bool *keep, struct tasks_group *g)
{
	struct comm_count counts[SUMMARY_NAMES];
	size_t n = count_comms(t, keep, g->wchan, counts, SUMMARY_NAMES);
	g->comms[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char item[TASK_COMM_MAX + 16];
		if (counts[i].count > 1)
			snprintf(item, sizeof item, "%s%u %s", i ? ", " : "", counts[i].count,
				 counts[i].name);
		else
			snprintf(item, sizeof item, "%s%s", i ? ", " : "", counts[i].name);
		if (strlen(g->comms) + strlen(item) + 5 >= sizeof g->comms) {
			append(g->comms, sizeof g->comms, ", ...");
			return;
		}
		append(g->comms, sizeof g->comms, item);
	}
}

static int group_cmp(const void *pa, const void *pb)
{
	const struct tasks_group *a = pa, *b = pb;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->wchan, b->wchan);
}

/* The distinct wait channels of the kept blocked tasks, with their counts. */
static size_t distinct_wchans(const struct tasks_sample *t, uint64_t mono_ns, const bool *keep,
			      struct tasks_group *groups)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nkept; i++) {
		const struct blocked_task *b = &t->blocked[i];
		if (keep && !keep[i])
			continue;
		size_t j = 0;
		while (j < n && strcmp(groups[j].wchan, b->wchan) != 0)
			j++;
		const char *words = blocked_task_words(b);
		if (j == n) {
			memset(&groups[n], 0, sizeof groups[n]);
			snprintf(groups[n].wchan, sizeof groups[n].wchan, "%s", b->wchan);
			groups[n].words = words;
			n++;
		}
		if (groups[j].words != words)   /* said only when it is every task's */
			groups[j].words = NULL;
		groups[j].count++;
		double s = blocked_task_seconds(b, mono_ns);
		if (s > groups[j].max_seconds)
			groups[j].max_seconds = s;
	}
	return n;
}

size_t tasks_blocked_groups_of(const struct tasks_sample *t, uint64_t mono_ns, const bool *keep,
			       struct tasks_group *out, size_t max)
{
	if (!t || !t->nkept)
		return 0;
	struct tasks_group *groups = malloc(t->nkept * sizeof *groups);
	if (!groups)
		return 0;
	size_t n = distinct_wchans(t, mono_ns, keep, groups);
	qsort(groups, n, sizeof *groups, group_cmp);
	for (size_t i = 0; i < n && i < max; i++) {
		out[i] = groups[i];
		group_comms(t, keep, &out[i]);
	}
	free(groups);
	return n;
}

size_t tasks_blocked_groups(const struct tasks_sample *t, uint64_t mono_ns,
			    struct tasks_group *out, size_t max)
{
	return tasks_blocked_groups_of(t, mono_ns, NULL, out, max);
}

void tasks_group_text(const struct tasks_group *g, char *buf, size_t len)
{
	snprintf(buf, len, "%u %s in %s%s%s (%s)", g->count, g->count == 1 ? "task" : "tasks",
		 g->wchan[0] ? g->wchan : "?", g->words ? ", " : "", g->words ? g->words : "",
		 g->comms);
}
