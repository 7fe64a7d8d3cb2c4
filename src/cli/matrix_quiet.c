/* matrix_quiet.c - a quiet device before each measurement of `ioscope matrix`.
 *
 * A fresh ext4 made by a plain `mkfs.ext4` has the kernel's ext4lazyinit thread writing
 * its inode tables for seconds after the mount (64 MiB on 4 GiB), a journal commits a
 * few seconds after the last change, a flusher writes back what the mkfs or the last
 * run left dirty: a run started then was charged with all of it (a `sleep 2` "moved"
 * 67 MB).  So before the idle probe and before each run the matrix waits until the
 * device has had no I/O for MATRIX_QUIET_SECONDS, the probe's own reads aside, for at
 * most --quiet-timeout; when it never settles, the run starts anyway and is flagged.
 *
 * Meanwhile it samples every MATRIX_QUIET_STEP with the tasks sub-sampler on (tasks.h),
 * and names what was at work on the device as the why view does (attribution.h): the
 * blocked tasks and the processes with I/O attributed to it, and the kernel threads that
 * serve every filesystem of a kind and so name none (quiet_unnamed_threads[]).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attribution.h"
#include "matrix_ctx.h"
#include "procpid.h"
#include "text.h"

#define MATRIX_QUIET_STEP 0.2   /* seconds between the samples of the wait */

/* Kernel threads that do a filesystem's I/O without its device in their names: seen
 * blocked, or alive, while the device under test moved, they are named.  Alive while the
 * filesystem under test is of their type, the device must be quiet for longer
 * (MATRIX_QUIET_LAZY_SECONDS): their work may be still to come.  Whose work it is the
 * kernel does not say (one thread serves every ext4), so a thread kept alive by another
 * filesystem costs that much, not the whole --quiet-timeout. */
static const struct quiet_thread {
	const char *comm;
	const char *fstype;
} quiet_unnamed_threads[] = {
	/* zeroes a fresh ext4's inode tables after the mount (mkfs.ext4 without -E
	 * lazy_itable_init=0) and reads its block bitmaps ahead, after a random delay of
	 * up to 5 s: a device can be quiet for seconds before it starts, and between two
	 * groups it sleeps 10 times what the last took; it ends once every ext4 is done */
	{ "ext4lazyinit", "ext4" },
};
#define QUIET_THREADS (sizeof quiet_unnamed_threads / sizeof quiet_unnamed_threads[0])

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* The device's I/O since base, the probe's reads (probe_reads, one more for a read
 * finished between the two counts) aside. */
static bool moved(const struct disk_counters *base, const struct disk_counters *now,
		  size_t probe_reads, bool *wrote)
{
	*wrote = now->wr_ios != base->wr_ios || now->dc_ios != base->dc_ios ||
		 now->fl_ios != base->fl_ios;
	uint64_t reads = now->rd_ios - base->rd_ios;
	uint64_t allowed = probe_reads ? probe_reads + 1 : 0;
	return *wrote || now->rd_ios < base->rd_ios || reads > allowed;
}

/* "kworker/u8:2+flush-7:0" by its work, "flush-7:0"; any other task by its comm. */
static void add_writer(struct matrix_quiet_watch *w, const char *comm)
{
	const char *plus = strchr(comm, '+');
	const char *name = plus && plus[1] ? plus + 1 : comm;
	size_t n = strlen(name), used = strlen(w->writers);
	for (const char *p = w->writers; (p = strstr(p, name)); p += n)
		if ((p == w->writers || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return;   /* named already */
	if (used + n + 3 >= sizeof w->writers)
		return;
	snprintf(w->writers + used, sizeof w->writers - used, "%s%s", used ? ", " : "", name);
}

static bool unnamed_thread(const char *comm)
{
	for (size_t i = 0; i < QUIET_THREADS; i++)
		if (strcmp(comm, quiet_unnamed_threads[i].comm) == 0)
			return true;
	return false;
}

/* A thread of the table for a filesystem of this type is alive: the one named, or NULL. */
static const char *pending_thread(const char *fstype)
{
	for (size_t i = 0; fstype && i < QUIET_THREADS; i++)
		if (strcmp(fstype, quiet_unnamed_threads[i].fstype) == 0 &&
		    procpid_kthread_alive(quiet_unnamed_threads[i].comm))
			return quiet_unnamed_threads[i].comm;
	return NULL;
}

/* Who the sample's tasks say was at work on the device: blocked on it, or with I/O on
 * its files; ioscope itself (the probe) is not. */
static void name_writers(struct matrix_ctx *m, const struct snapshot *s)
{
	const struct tasks_sample *t = s->tasks;
	if (!t)
		return;
	for (size_t i = 0; i < t->nkept; i++) {
		const struct blocked_task *b = &t->blocked[i];
		struct attribution a;
		attribution_of_blocked(s, b, &a);
		bool ours = attribution_serves(&a, s, m->name) ||
			    (!a.n && b->kthread && unnamed_thread(b->comm));
		if (ours && b->pid != getpid())
			add_writer(&m->quiet, b->comm);
	}
	for (size_t i = 0; i < t->nio; i++) {
		const struct task_io *io = &t->io[i];
		struct attribution a;
		if (io->pid == getpid() || !(io->read_bytes || io->write_bytes))
			continue;
		attribution_of_io(s, io, &a);
		if (attribution_serves(&a, s, m->name))
			add_writer(&m->quiet, io->comm);
	}
}

void matrix_quiet_observe(struct matrix_ctx *m)
{
	struct matrix_quiet_watch *w = &m->quiet;
	const struct snapshot *s = w->active ? session_snapshot(m->session) : NULL;
	const struct device *d = s ? snapshot_find_device(s, m->name) : NULL;
	if (!d)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	bool wrote = false;
	if (w->have_base &&
	    !moved(&w->base, &d->counters, m->probe_taken - w->base_probe, &wrote))
		return;
	if (w->have_base) {
		w->moved = true;
		w->wrote |= wrote;
		w->since = now;
		name_writers(m, s);
	}
	w->have_base = true;
	w->base = d->counters;
	w->base_probe = m->probe_taken;
}

/* "waited 4.2 s for loop3 to go quiet: ext4lazyinit writing" */
static void say(struct matrix_ctx *m, const struct matrix_quiet *q)
{
	const struct matrix_quiet_watch *w = &m->quiet;
	char who[MATRIX_WRITERS_MAX + 64];
	if (w->writers[0])
		snprintf(who, sizeof who, "%s %s", w->writers, w->wrote ? "writing" : "reading");
	else   /* a task too quick for the samples, or not attributed to it */
		snprintf(who, sizeof who, "%s by no task seen", w->wrote ? "writes" : "reads");
	if (q->busy) {
		matrix_mark(m, "busy", "%s not quiet after %.1f s: %s; started on a busy device",
			    m->name, q->waited_s, who);
		text_printf(stderr, "ioscope matrix: %s not quiet after %.1f s: %s; went on "
			    "(flagged: started on a busy device)\n", m->name, q->waited_s, who);
	} else if (w->moved) {
		matrix_mark(m, "quiet", "waited %.1f s for %s to go quiet: %s", q->waited_s,
			    m->name, who);
		if (!m->tty)
			text_printf(stderr, "ioscope matrix: waited %.1f s for %s to go quiet: %s\n",
				    q->waited_s, m->name, who);
	} else {
		matrix_mark(m, "quiet", "%s quiet for %.1f s", m->name, q->waited_s);
	}
}

int matrix_quiet_wait(struct matrix_ctx *m, const char *fstype, struct matrix_quiet *q)
{
	q->waited_s = NAN;
	q->busy = false;
	q->writers[0] = '\0';
	if (!(m->o->quiet_timeout > 0))
		return 0;
	struct error ignored;
	source_set_tasks(m->src, true, &ignored);   /* without them the wait is not named */
	memset(&m->quiet, 0, sizeof m->quiet);
	m->quiet.active = true;
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	m->quiet.since = t0;
	int rc = 0;
	for (;;) {
		matrix_exec_sample(m);
		clock_gettime(CLOCK_MONOTONIC, &now);
		/* while such a thread lives, its I/O on this device may still be to come */
		const char *pending = pending_thread(fstype);
		double needed = pending ? MATRIX_QUIET_LAZY_SECONDS : MATRIX_QUIET_SECONDS;
		if (pending && m->quiet.moved)
			add_writer(&m->quiet, pending);
		if (m->failed || m->stop_signal) {
			rc = -1;
			break;
		}
		if (seconds_between(&m->quiet.since, &now) >= needed)
			break;
		if (seconds_between(&t0, &now) >= m->o->quiet_timeout) {
			q->busy = true;
			break;
		}
		if (matrix_exec_idle(m, MATRIX_QUIET_STEP) < 0) {
			rc = -1;
			break;
		}
	}
	m->quiet.active = false;
	source_set_tasks(m->src, false, &ignored);
	q->waited_s = seconds_between(&t0, &now);
	snprintf(q->writers, sizeof q->writers, "%s", m->quiet.writers);
	if (rc == 0)
		say(m, q);
	return rc;
}
