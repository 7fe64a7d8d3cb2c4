/* live.c - the live source: the running kernel, or a fixture tree under --root.
 *
 * Live and single-tree samples are paced by a periodic CLOCK_MONOTONIC timerfd
 * armed on absolute deadlines, so a 1 s interval does not drift by the time a
 * sample takes.  Numbered fixture trees ROOT/1, ROOT/2 ... are consumed one per
 * read without pacing; their time is the tree's proc/uptime, so the elapsed
 * time between two samples is exactly what the fixture says.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "pacing.h"
#include "probe.h"
#include "procfile.h"
#include "proctasks.h"
#include "regular_file.h"
#include "sampler.h"
#include "source.h"
#include "trace_source.h"

struct live_source {
	struct source base;
	char *root;                 /* NULL: the live kernel */
	size_t ntrees;              /* numbered trees 1..ntrees; 0: live or one tree */
	size_t next_tree;
	int timerfd;                /* -1 for numbered trees */
	struct timespec origin;     /* the sampling grid starts here (pacing.h) */
	uint64_t seq;
	struct timespec wall0;      /* numbered trees: wall time of the first tree */
	struct timespec mono0;      /* and its uptime */
	struct sampler sampler;
	bool sampler_open;
	struct snapshot primed;     /* the sample that opened the files, for the first read */
	bool have_primed;
	uint64_t primed_extra, primed_malformed;   /* diskstats' counts before it */
	bool tasks_on;              /* --tasks or the why pane: sample snapshot.tasks */
	bool tasks_open;
	bool tasks_relaxed;         /* the why pane alone on this machine (source.h) */
	struct proctasks tasks;
	struct selection watch;     /* numbered trees: given to each tree's sampler */
	struct probe *probe;        /* --probe: its samples come with each snapshot */
	struct trace_source *tracer;   /* NULL: not tracing */
};

static struct timespec seconds_to_timespec(double s)
{
	struct timespec t;
	t.tv_sec = (time_t)floor(s);
	t.tv_nsec = (long)((s - floor(s)) * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	return t;
}

static struct timespec timespec_add(struct timespec a, struct timespec b)
{
	a.tv_sec += b.tv_sec;
	a.tv_nsec += b.tv_nsec;
	if (a.tv_nsec >= 1000000000L) {
		a.tv_sec++;
		a.tv_nsec -= 1000000000L;
	}
	return a;
}

static int check_interval(double seconds, struct error *err)
{
	if (!(seconds >= INTERVAL_MIN && seconds <= INTERVAL_MAX))
		return error_set(err, "interval %g s out of range (%g to %g seconds)", seconds,
				 INTERVAL_MIN, INTERVAL_MAX);
	return 0;
}

/* The next sample at `deadline` (absolute), and every interval after it should
 * nobody read before then; each read sets the next deadline again. */
static int arm_timer_at(struct live_source *ls, struct timespec deadline, double seconds,
			struct error *err)
{
	struct itimerspec its = {
		.it_interval = seconds_to_timespec(seconds),
		.it_value = deadline,
	};
	if (timerfd_settime(ls->timerfd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		return error_errno(err, "timerfd_settime", errno);
	return 0;
}

/* A new grid from `from`: the next deadline is one interval later. */
static int arm_timer_from(struct live_source *ls, struct timespec from, double seconds,
			  struct error *err)
{
	ls->origin = from;
	return arm_timer_at(ls, timespec_add(from, seconds_to_timespec(seconds)), seconds, err);
}

/* The next deadline is one interval from now. */
static int arm_timer(struct live_source *ls, double seconds, struct error *err)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return arm_timer_from(ls, now, seconds, err);
}

/* After a sample taken at `now`: the next grid point at least half an interval
 * away, so a late sample is not followed by a tiny interval. */
static int arm_next(struct live_source *ls, const struct timespec *now, double seconds,
		    struct error *err)
{
	double origin = timespec_seconds(&ls->origin);
	double next = pacing_next_deadline(origin, seconds, timespec_seconds(now));
	struct timespec deadline = timespec_add(ls->origin, seconds_to_timespec(next - origin));
	return arm_timer_at(ls, deadline, seconds, err);
}

/* proc/uptime's first field, as a timespec. */
static int read_uptime(const char *tree, struct timespec *out, struct error *err)
{
	char path[4096], buf[128];
	if (path_format(path, sizeof path, "%s/proc/uptime", tree) < 0)
		return error_errno(err, tree, ENAMETOOLONG);
	int fd = regular_file_openat(AT_FDCWD, path, O_RDONLY);
	if (fd < 0)
		return regular_file_error(err, path, errno);
	ssize_t got = read(fd, buf, sizeof buf - 1);
	close(fd);
	size_t n = got > 0 ? (size_t)got : 0;
	buf[n] = '\0';
	char *end;
	errno = 0;
	double up = strtod(buf, &end);
	if (end == buf || errno || !(up >= 0 && up < 1e12))
		return error_set(err, "%s: no uptime in seconds", path);
	*out = seconds_to_timespec(up);
	return 0;
}

/* What the probe measured since the last sample; never waits for its reads. */
static int take_probe(struct live_source *ls, struct snapshot *out, struct error *err)
{
	if (!ls->probe) {
		if (out->probe)
			probe_samples_free(out->probe);
		free(out->probe);
		out->probe = NULL;
		return 1;
	}
	if (!out->probe && !(out->probe = calloc(1, sizeof *out->probe)))
		return error_set(err, "out of memory");
	return probe_take(ls->probe, out->probe) < 0 ? error_set(err, "out of memory") : 1;
}

/* The eBPF view's interval, when tracing: ended (flipped) right before diskstats was
 * read, so both cover the same interval. */
static int take_trace(struct live_source *ls, struct snapshot *out, struct error *err)
{
	struct trace_sample *t = NULL;
	if (ls->tracer && !(t = trace_source_collect(ls->tracer, err)))
		return -1;
	snapshot_set_trace(out, t);
	return 1;
}

static int live_trace(struct source *src, bool on, struct error *err)
{
	struct live_source *ls = (struct live_source *)src;
	if (!on) {
		trace_source_close(ls->tracer);
		ls->tracer = NULL;
		return 0;
	}
	if (ls->tracer)
		return 0;
	if (ls->root)
		return error_set(err, "tracing: a --root fixture tree cannot be traced");
	ls->tracer = trace_source_open(err);
	return ls->tracer ? 0 : -1;
}

/* The first read is the sample that opened the files (prime) when it was taken less than
 * half an interval ago and nothing it depends on changed since: a one-shot reads every file
 * twice, not three times.  Its mono and wall are when it was taken, and the sampling grid
 * starts there, so its interval is a whole one. */
static bool take_primed(struct live_source *ls, struct snapshot *out)
{
	if (!ls->have_primed)
		return false;
	ls->have_primed = false;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	bool fresh = ls->seq == 0 && timespec_diff(&now, &ls->primed.mono) < ls->base.interval;
	if (fresh)
		snapshot_swap(out, &ls->primed);
	snapshot_free(&ls->primed);
	return fresh;
}

static void drop_primed(struct live_source *ls)
{
	if (ls->have_primed)
		snapshot_free(&ls->primed);
	ls->have_primed = false;
}

static int take_sample(struct live_source *ls, struct snapshot *out, bool primed,
		       struct error *err)
{
	uint64_t extra = primed ? ls->primed_extra : ls->sampler.diskstats_extra_lines;
	uint64_t malformed = primed ? ls->primed_malformed : ls->sampler.diskstats_malformed_lines;
	trace_source_flip(ls->tracer);   /* sampler_sample reads /proc/diskstats first */
	if (!primed && sampler_sample(&ls->sampler, out, err) < 0)
		return -1;
	/* counted here, not in the sampler: numbered trees get a sampler each */
	ls->base.diskstats_extra_lines += ls->sampler.diskstats_extra_lines - extra;
	ls->base.diskstats_malformed_lines += ls->sampler.diskstats_malformed_lines - malformed;
	out->seq = ++ls->seq;
	if (take_probe(ls, out, err) < 0)
		return -1;
	return take_trace(ls, out, err);
}

/* Blocked tasks and per-process I/O into out->tasks when asked for, else none.  The
 * tree is the live kernel or, for --root, the tree just sampled. */
static int take_tasks(struct live_source *ls, const char *tree, struct snapshot *out,
		      struct error *err)
{
	if (!ls->tasks_on) {
		tasks_sample_free(out->tasks);
		out->tasks = NULL;
		return 0;
	}
	int r = 0;
	if (!ls->tasks_open)
		r = proctasks_open(&ls->tasks, tree, err);
	else if (ls->ntrees)
		r = proctasks_retarget(&ls->tasks, tree, err);
	if (r < 0)
		return -1;
	ls->tasks_open = true;
	ls->tasks.relaxed = ls->tasks_relaxed;
	uint64_t mono_ns = (uint64_t)out->mono.tv_sec * 1000000000u + (uint64_t)out->mono.tv_nsec;
	const struct snapshot *mtab = &ls->sampler.mtab;   /* read by this sample's take_sample */
	return proctasks_sample(&ls->tasks, mono_ns, mtab->mounts, mtab->nmounts, &out->tasks, err);
}

static int read_tree(struct live_source *ls, struct snapshot *out, struct error *err)
{
	if (ls->next_tree > ls->ntrees)
		return 0;
	char tree[4096];
	if (path_format(tree, sizeof tree, "%s/%zu", ls->root, ls->next_tree) < 0)
		return error_errno(err, ls->root, ENAMETOOLONG);
	struct timespec up;
	if (read_uptime(tree, &up, err) < 0)
		return -1;
	/* Each tree gets its own sampler, but generations go on counting across them:
	 * restarting at 1 would give two trees' different settings the same number, and
	 * the diff would skip them. */
	uint64_t generations = ls->sampler.generations;
	if (ls->sampler_open)
		sampler_close(&ls->sampler);
	ls->sampler_open = false;
	if (sampler_open(&ls->sampler, tree, err) < 0)
		return -1;
	ls->sampler.generations = generations;
	ls->sampler_open = true;
	why_sampler_watch(&ls->sampler.why, &ls->watch);
	int r = take_sample(ls, out, false, err);
	if (r < 0)
		return -1;
	if (ls->next_tree == 1) {
		ls->mono0 = up;
		clock_gettime(CLOCK_REALTIME, &ls->wall0);
	}
	out->mono = up;
	double since = timespec_diff(&up, &ls->mono0);
	out->wall = timespec_add(ls->wall0, seconds_to_timespec(since > 0 ? since : 0));
	ls->next_tree++;
	if (take_tasks(ls, tree, out, err) < 0)
		return -1;
	return r;
}

static int live_read(struct source *src, struct snapshot *out, struct error *err)
{
	struct live_source *ls = (struct live_source *)src;
	if (ls->ntrees)
		return read_tree(ls, out, err);
	uint64_t expirations;
	/* Consume the deadline that woke us; EAGAIN when read before it (the first). */
	if (read(ls->timerfd, &expirations, sizeof expirations) < 0 && errno != EAGAIN &&
	    errno != EINTR)
		return error_errno(err, "timerfd", errno);
	bool primed = take_primed(ls, out);
	if (!primed) {
		clock_gettime(CLOCK_MONOTONIC, &out->mono);
		clock_gettime(CLOCK_REALTIME, &out->wall);
	}
	/* The grid starts at the first sample (the baseline), so the first
	 * interval is a whole one however long the start-up took. */
	if (ls->seq == 0 && arm_timer_from(ls, out->mono, src->interval, err) < 0)
		return -1;
	if (ls->seq > 0 && arm_next(ls, &out->mono, src->interval, err) < 0)
		return -1;
	if (take_sample(ls, out, primed, err) < 0 || take_tasks(ls, ls->root, out, err) < 0)
		return -1;
	return 1;
}

/* Describe the devices and open their files now, so the first read is as cheap as every
 * later one; the sample is kept for the first read (take_primed). */
static int prime(struct live_source *ls, struct error *err)
{
	snapshot_init(&ls->primed);
	ls->primed_extra = ls->sampler.diskstats_extra_lines;
	ls->primed_malformed = ls->sampler.diskstats_malformed_lines;
	clock_gettime(CLOCK_MONOTONIC, &ls->primed.mono);
	clock_gettime(CLOCK_REALTIME, &ls->primed.wall);
	ls->have_primed = true;
	if (sampler_sample(&ls->sampler, &ls->primed, err) < 0) {
		drop_primed(ls);
		return -1;
	}
	return 0;
}

static int live_wait_fd(struct source *src)
{
	return ((struct live_source *)src)->timerfd;
}

static int live_set_interval(struct source *src, double seconds, struct error *err)
{
	struct live_source *ls = (struct live_source *)src;
	if (check_interval(seconds, err) < 0)
		return -1;
	if (ls->timerfd >= 0 && arm_timer(ls, seconds, err) < 0)
		return -1;
	src->interval = seconds;
	return 0;
}

/* Off closes the sub-sampler: the next time it is on starts with a new baseline, and
 * nothing of /proc is held while nobody looks. */
static int live_set_tasks(struct source *src, enum source_tasks how, struct error *err)
{
	struct live_source *ls = (struct live_source *)src;
	bool on = how != SOURCE_TASKS_OFF;
	if (!on && ls->tasks_open) {
		proctasks_close(&ls->tasks);
		ls->tasks_open = false;
	}
	ls->tasks_on = on;
	/* a --root tree's files are a script each sample must follow */
	ls->tasks_relaxed = how == SOURCE_TASKS_RELAXED && !ls->root;
	return 0;
}

static void live_destroy(struct source *src)
{
	struct live_source *ls = (struct live_source *)src;
	if (ls->tasks_open)
		proctasks_close(&ls->tasks);
	drop_primed(ls);
	probe_stop(ls->probe);
	if (ls->sampler_open)
		sampler_close(&ls->sampler);
	trace_source_close(ls->tracer);
	if (ls->timerfd >= 0)
		close(ls->timerfd);
	free(ls->root);
	free(ls);
}

static void live_watch(struct source *src, const struct selection *sel)
{
	struct live_source *ls = (struct live_source *)src;
	ls->watch = *sel;
	if (sel->n)   /* its knobs and journals are read from now on */
		drop_primed(ls);
	if (!ls->sampler_open)
		return;
	why_sampler_watch(&ls->sampler.why, sel);
	sampler_watch(&ls->sampler, sel->names, sel->n);
}

static void live_follow(struct source *src, const char *disk)
{
	struct live_source *ls = (struct live_source *)src;
	drop_primed(ls);
	if (ls->sampler_open)
		sampler_follow(&ls->sampler, disk);
}

static void live_settings_changed(struct source *src, const char *disk)
{
	struct live_source *ls = (struct live_source *)src;
	drop_primed(ls);
	if (ls->sampler_open)
		sampler_settings_changed(&ls->sampler, disk);
}

static const struct source_ops live_ops = {
	.watch = live_watch,
	.follow = live_follow,
	.settings_changed = live_settings_changed,
	.read = live_read,
	.wait_fd = live_wait_fd,
	.set_interval = live_set_interval,
	.destroy = live_destroy,
	.take_events = NULL,
	.set_tasks = live_set_tasks,
	.trace = live_trace,
};

int source_live_probe(struct source *src, const char *path, double interval, bool exec,
		      struct error *err)
{
	struct live_source *ls = (struct live_source *)src;
	if (src->ops != &live_ops || !src->live)
		return error_set(err, "the probe needs the live kernel");
	probe_stop(ls->probe);
	ls->probe = path ? probe_start(path, interval, exec, err) : NULL;
	return ls->probe || !path ? 0 : -1;
}

void source_live_probe_interval(struct source *src, double interval)
{
	struct live_source *ls = (struct live_source *)src;
	if (src->ops == &live_ops && ls->probe)
		probe_set_interval(ls->probe, interval);
}

const char *source_live_probe_notice(const struct source *src)
{
	const struct live_source *ls = (const struct live_source *)src;
	return src->ops == &live_ops && ls->probe ? probe_notice(ls->probe) : "";
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ROOT/1, ROOT/2 ... up to the first number that is missing. */
static size_t count_trees(const char *root)
{
	char path[4096];
	size_t n = 0;
	for (;;) {
		if (path_format(path, sizeof path, "%s/%zu", root, n + 1) < 0 || !is_dir(path))
			return n;
		n++;
	}
}

struct source *source_live_new(const char *root, double interval, struct error *err)
{
	if (check_interval(interval, err) < 0)
		return NULL;
	if (root && !is_dir(root)) {
		error_set(err, "%s: not a directory", root);
		return NULL;
	}
	struct live_source *ls = calloc(1, sizeof *ls);
	if (!ls || (root && !(ls->root = strdup(root)))) {
		free(ls);
		error_set(err, "out of memory");
		return NULL;
	}
	ls->base.ops = &live_ops;
	ls->base.interval = interval;
	ls->base.live = !root;
	ls->timerfd = -1;
	ls->ntrees = root ? count_trees(root) : 0;
	ls->next_tree = 1;
	ls->base.paced = ls->ntrees == 0;
	if (ls->base.paced) {
		/* Before the sampler opens its files: the timer gets a low number. */
		ls->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (ls->timerfd < 0) {
			error_errno(err, "timerfd_create", errno);
			goto fail;
		}
		if (sampler_open(&ls->sampler, root, err) < 0)
			goto fail;
		ls->sampler_open = true;
		if (prime(ls, err) < 0 || arm_timer(ls, interval, err) < 0)
			goto fail;
	}
	return &ls->base;
fail:
	live_destroy(&ls->base);
	return NULL;
}
