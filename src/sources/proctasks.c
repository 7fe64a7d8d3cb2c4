/* proctasks.c - the tasks sub-sampler: blocked tasks and per-process I/O from /proc.
 *
 * Cost is what matters here: a machine has a thousand sleeping processes for every one
 * doing I/O.  Per task: its schedstat, through a descriptor kept open (one pread: the
 * gate), and only when one of its process's moved, or a task was not asleep, the process's
 * stat and its threads' io (open, read, close).  A task that was not scheduled in since
 * the last sample made no system call: its stat and io are what they were (docs/design.md,
 * "The process list's gate").  Threads are listed only for processes with more than one;
 * wchan, stack and the file a system call waits on are read only for tasks in D state; a
 * process's owner (one fstatat) and the devices of its open files only for the twenty in
 * the I/O list.
 *
 * The files' devices are procfiles.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "procfile.h"
#include "proctasks.h"
#include "regular_file.h"

/* A task's descriptors kept open: a fixture tree's schedstat, and its line at the last
 * read (run time, run delay, times scheduled in: "%llu %llu %lu\n"), or the live kernel's
 * process clock at the last read; and the live kernel's stat and io of the task, read
 * again with a pread each when it moved (not opened and closed each time). */
#define GATE_MAX 64
struct gate {
	int fd;                         /* schedstat; -1: none */
	int stat_fd, io_fd;             /* -1: none */
	uint8_t len;                    /* 0: no line (or run time) to compare with */
	char line[GATE_MAX];
	uint64_t ran_ns;                /* the live kernel's: the process's CPU clock */
};

/* A thread of a multi-threaded process other than its leader, at its last read. */
struct proctasks_thread {
	int32_t tid;
	char state;
	struct gate gate;
};

struct proctasks_proc {
	int32_t pid;
	bool kthread, has_io, has_blkio;
	char state;                     /* stat field 3 at the last full read */
	uint32_t num_threads;
	uint64_t starttime, blkio_ticks;
	struct procpid_io io;
	char comm[TASK_COMM_MAX];
	struct gate gate;               /* the leader's */
	struct proctasks_thread *threads;   /* the others read, tid order; owned */
	uint32_t nthreads_read;
};

struct proctasks_seen {
	int32_t tid;
	uint64_t since_ns;
	char wchan[TASK_WCHAN_MAX];   /* what it waited on then */
	uint64_t runs;                /* times it had been given a CPU then; 0: not known */
};

struct proctasks_user {
	uint32_t uid;
	char name[TASK_USER_MAX];
};

#define CAP_SYS_ADMIN_BIT 21

/* Reads a small file whole (up to the buffer); its length, or -1.  careful: a fixture
 * tree's files are opened the careful way (no FIFO can hang us). */
static ssize_t read_small(int dirfd, const char *path, bool careful, char *buf, size_t len)
{
	if (careful)
		return regular_file_read_at(dirfd, path, buf, len);
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* A file relative to prefix/proc. */
static ssize_t read_rel(struct proctasks *p, const char *rel, char *buf, size_t len)
{
	return read_small(p->procfd, rel, p->prefix != NULL, buf, len);
}

bool proctasks_delayacct(const char *prefix)
{
	char path[4096], buf[32];
	if (path_format(path, sizeof path, "%s/proc/sys/kernel/task_delayacct",
			prefix ? prefix : "") < 0)
		return false;
	ssize_t n = read_small(AT_FDCWD, path, true, buf, sizeof buf);
	if (n < 0)
		return errno == ENOENT;
	return buf[0] == '1';
}

/* CAP_SYS_ADMIN in the effective set: /proc/PID/stack is readable. */
static bool have_cap_sys_admin(void)
{
	char buf[4096];
	ssize_t n = read_small(AT_FDCWD, "/proc/self/status", true, buf, sizeof buf);
	if (n < 0)
		return false;
	const char *cap = strstr(buf, "\nCapEff:");
	if (!cap)
		return false;
	unsigned long long bits = strtoull(cap + 8, NULL, 16);
	return (bits >> CAP_SYS_ADMIN_BIT) & 1;
}

static void close_fd(struct proctasks *p, int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		p->ngates--;
	}
	*fd = -1;
}

static void close_gate(struct proctasks *p, struct gate *g)
{
	close_fd(p, &g->fd);
	close_fd(p, &g->stat_fd);
	close_fd(p, &g->io_fd);
	g->len = 0;
}

static const struct gate no_gate = { .fd = -1, .stat_fd = -1, .io_fd = -1 };

static void free_threads(struct proctasks *p, struct proctasks_thread *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close_gate(p, &v[i].gate);
	free(v);
}

/* The descriptors and threads of processes no longer followed. */
static void close_gates(struct proctasks *p, struct proctasks_proc *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		close_gate(p, &v[i].gate);
		free_threads(p, v[i].threads, v[i].nthreads_read);
		v[i].threads = NULL;
		v[i].nthreads_read = 0;
	}
}

static int open_tree(struct proctasks *p, const char *prefix, struct error *err)
{
	char path[4096];
	if (path_format(path, sizeof path, "%s/proc", prefix ? prefix : "") < 0)
		return error_errno(err, prefix, ENAMETOOLONG);
	int fd = prefix ? regular_file_openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY)
			: open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return regular_file_error(err, path, errno);
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return error_errno(err, path, errno);
	}
	if (p->procdir)
		closedir(p->procdir);
	p->procdir = d;
	p->procfd = fd;
	close_gates(p, p->prev, p->nprev);   /* another tree's files say nothing of this one */
	procfiles_init(&p->files, fd, prefix != NULL);
	memcg_roots_close(&p->memcg);   /* another tree: its own mounts */
	char *copy = prefix ? strdup(prefix) : NULL;
	if (prefix && !copy)
		return error_set(err, "out of memory");
	free(p->prefix);
	p->prefix = copy;
	return 0;
}

int proctasks_open(struct proctasks *p, const char *prefix, struct error *err)
{
	memset(p, 0, sizeof *p);
	p->procfd = -1;
	memcg_roots_init(&p->memcg);
	if (open_tree(p, prefix, err) < 0) {
		proctasks_close(p);
		return -1;
	}
	p->stack_allowed = prefix || have_cap_sys_admin();
	p->clk_tck = sysconf(_SC_CLK_TCK);
	if (p->clk_tck <= 0)
		p->clk_tck = 100;
	struct rlimit r;
	p->nofile = getrlimit(RLIMIT_NOFILE, &r) == 0 ? r.rlim_cur : 0;
	return 0;
}

int proctasks_retarget(struct proctasks *p, const char *prefix, struct error *err)
{
	return open_tree(p, prefix, err);
}

void proctasks_close(struct proctasks *p)
{
	close_gates(p, p->prev, p->nprev);
	close_gates(p, p->cur, p->ncur);
	if (p->procdir)
		closedir(p->procdir);
	free(p->prefix);
	free(p->prev);
	free(p->cur);
	free(p->seen);
	free(p->kept_runs);
	free(p->users);
	tasks_sample_free(p->last);
	procfiles_close(&p->files);
	memcg_roots_close(&p->memcg);
	memset(p, 0, sizeof *p);
	p->procfd = -1;
	memcg_roots_init(&p->memcg);
}

static bool parse_pid(const char *name, int32_t *out)
{
	long v = 0;
	if (!*name)
		return false;
	for (const char *c = name; *c; c++) {
		if (*c < '0' || *c > '9' || v > INT32_MAX / 10)
			return false;
		v = v * 10 + (*c - '0');
	}
	*out = (int32_t)v;
	return v > 0;
}

/* --- blocked tasks --- */

/* Since when the task has waited on what it waits on now: the time it was first seen in D,
 * when the sample before saw it in D on the same wait channel and it was not given a CPU
 * since (runs: schedstat's count, 0 when not known); else now.  A writer that goes in and
 * out of short waits on other things between samples is not "blocked for 4 s" 0.1 s after
 * a freeze; nor is one whose every fsync waits on the same channel (an xfs log's waiter:
 * "commit running for 10 s" 2 s after the log stopped). */
static uint64_t seen_since(const struct proctasks *p, int32_t tid, const char *wchan,
			   uint64_t runs, uint64_t mono_ns)
{
	size_t lo = 0, hi = p->nseen;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct proctasks_seen *s = &p->seen[mid];
		if (s->tid == tid)
			return strcmp(s->wchan, wchan) == 0 && (!runs || !s->runs || s->runs == runs)
				       ? s->since_ns : mono_ns;
		if (s->tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return mono_ns;
}

static void read_wait(struct proctasks *p, int32_t pid, int32_t tid, struct blocked_task *b)
{
	char rel[64];
	snprintf(rel, sizeof rel, "%d/task/%d/wchan", pid, tid);
	/* "0" when it was woken just then (a task in D between two waits, a journal thread
	 * going round its loop): read once more before it is "?" */
	for (int tries = 0; tries < 2 && !b->wchan[0]; tries++) {
		ssize_t n = read_rel(p, rel, p->buf, sizeof p->buf);
		if (n > 0)
			procpid_parse_wchan(p->buf, (size_t)n, b->wchan, sizeof b->wchan);
	}
	if (!p->stack_allowed)
		return;
	snprintf(rel, sizeof rel, "%d/task/%d/stack", pid, tid);
	ssize_t n = read_rel(p, rel, p->buf, sizeof p->buf);
	if (n > 0)
		b->nframes = (uint8_t)procpid_parse_stack(p->buf, (size_t)n, b->stack,
							  TASK_STACK_FRAMES);
}

/* The memory cgroup of a blocked user task, its figures read the first time in the sample
 * it is met: memcgs[index - 1], 0 for the root cgroup or none readable. */
static uint8_t blocked_memcg(struct proctasks *p, struct tasks_sample *t, int32_t pid)
{
	char rel[64];
	snprintf(rel, sizeof rel, "%d/cgroup", pid);
	memcg_roots_find(&p->memcg, p->prefix);
	struct task_memcg m = { .present = 0 };
	ssize_t n = read_rel(p, rel, p->buf, sizeof p->buf);
	if (n <= 0 || !memcg_parse_proc_cgroup(p->buf, (size_t)n, p->memcg.v1fd >= 0,
					       p->memcg.v2fd >= 0, &m.version, m.path,
					       sizeof m.path) || strcmp(m.path, "/") == 0)
		return 0;
	for (size_t i = 0; i < t->nmemcgs; i++)
		if (t->memcgs[i].version == m.version && strcmp(t->memcgs[i].path, m.path) == 0)
			return (uint8_t)(i + 1);
	if (t->nmemcgs >= TASKS_MEMCG_MAX)
		return 0;
	memcg_read(&p->memcg, &m);
	if (!(m.present & (1u << MEMCG_LIMIT)))
		return 0;   /* without a limit it holds nobody back: every process has a cgroup */
	t->memcgs[t->nmemcgs++] = m;
	return (uint8_t)t->nmemcgs;
}

#define MEMCG_WATCH_NS (10ull * 1000000000ull)

static bool same_memcg(uint8_t version, const char *path, const struct task_memcg *m)
{
	return m->version == version && strcmp(m->path, path) == 0;
}

/* Note the cgroups of this sample's blocked tasks, memcgs[0..n) (the oldest note gives
 * way when all are taken). */
static void note_memcgs(struct proctasks *p, const struct tasks_sample *t, size_t n,
			uint64_t mono_ns)
{
	for (size_t i = 0; i < n; i++) {
		const struct task_memcg *m = &t->memcgs[i];
		size_t k = 0, oldest = 0;
		for (; k < p->nwatched && !same_memcg(p->watched[k].version, p->watched[k].path, m);
		     k++)
			if (p->watched[k].blocked_ns < p->watched[oldest].blocked_ns)
				oldest = k;
		if (k == p->nwatched)
			k = p->nwatched < TASKS_MEMCG_MAX ? p->nwatched++ : oldest;
		p->watched[k].version = m->version;
		snprintf(p->watched[k].path, sizeof p->watched[k].path, "%s", m->path);
		p->watched[k].blocked_ns = mono_ns;
	}
}

/* A memory cgroup's counters (failcnt, reclaim scans) are shown as rates, which need the
 * reading of the sample before; a writer held in its cgroup is blocked in some samples and
 * not in others.  So a cgroup that held a blocked task in the last 10 s is read every
 * sample, after those of this sample's blocked tasks: no blocked task names it, and the
 * views show only the cgroups blocked tasks name (why.c). */
static void watch_memcgs(struct proctasks *p, struct tasks_sample *t, uint64_t mono_ns)
{
	size_t n = t->nmemcgs, kept = 0;
	note_memcgs(p, t, n, mono_ns);
	if (p->nwatched)
		memcg_roots_find(&p->memcg, p->prefix);   /* again after a retarget */
	for (size_t k = 0; k < p->nwatched; k++) {
		const struct proctasks_memcg_watch *w = &p->watched[k];
		if (mono_ns - w->blocked_ns > MEMCG_WATCH_NS)
			continue;
		p->watched[kept++] = *w;
		bool read = false;
		for (size_t i = 0; i < n && !read; i++)
			read = same_memcg(w->version, w->path, &t->memcgs[i]);
		if (read || t->nmemcgs >= TASKS_MEMCG_MAX)
			continue;
		struct task_memcg m = { .version = w->version };
		snprintf(m.path, sizeof m.path, "%s", w->path);
		memcg_read(&p->memcg, &m);
		if (m.present & (1u << MEMCG_LIMIT))
			t->memcgs[t->nmemcgs++] = m;
	}
	p->nwatched = kept;
}

/* How many times the thread was given a CPU; 0: not known. */
static uint64_t read_runs(struct proctasks *p, int32_t pid, int32_t tid)
{
	char rel[64];
	snprintf(rel, sizeof rel, "%d/task/%d/schedstat", pid, tid);
	ssize_t n = read_rel(p, rel, p->buf, sizeof p->buf);
	return n > 0 ? procpid_parse_schedstat_runs(p->buf, (size_t)n) : 0;
}

static int add_blocked(struct proctasks *p, struct tasks_sample *t, int32_t pid,
		       const struct procpid_stat *st, uint64_t mono_ns)
{
	t->nblocked++;
	if (t->nkept >= TASKS_BLOCKED_MAX) {
		t->blocked_more++;
		return 0;
	}
	struct blocked_task *b = tasks_sample_add_blocked(t);
	if (!b)
		return -1;
	b->pid = pid;
	b->tid = st->pid;
	snprintf(b->comm, sizeof b->comm, "%s", st->comm);
	b->kthread = st->flags & PROCPID_PF_KTHREAD;
	read_wait(p, pid, st->pid, b);
	/* read in D, then running again before its wait could be read (no wait channel, its
	 * syscall "running"): a throttled writer between two pauses, on a loaded machine in
	 * 2-9 % of its samples.  Nothing of it says what it waits on: it is not blocked. */
	if (!b->kthread && !procfiles_waited(&p->files, pid, st->pid, &b->waits) &&
	    !b->wchan[0]) {
		t->nkept--;
		t->nblocked--;
		return 0;
	}
	uint64_t runs = read_runs(p, pid, st->pid);
	if (grow_array(&p->kept_runs, &p->capkept_runs, t->nkept, sizeof *p->kept_runs, 64,
		       NULL) < 0)
		return -1;
	p->kept_runs[t->nkept - 1] = runs;
	t->runs_read = t->runs_read && runs;
	b->since_ns = seen_since(p, st->pid, b->wchan, runs, mono_ns);
	if (!b->kthread)
		b->memcg = blocked_memcg(p, t, pid);
	return 0;
}

/* --- the gate --- */

/* Room for one more kept descriptor: below half the soft limit, which is raised once to
 * the hard one (at most GATE_NOFILE_CAP) when the gates need it.  Without room a process
 * is read whole every sample, as it would be without a gate. */
#define GATE_NOFILE_CAP 65536
static bool gate_room(struct proctasks *p)
{
	if (p->ngates < p->nofile / 2)
		return true;
	if (p->nofile_raised)
		return false;
	p->nofile_raised = true;
	struct rlimit r;
	if (getrlimit(RLIMIT_NOFILE, &r) < 0)
		return false;
	rlim_t want = r.rlim_max < GATE_NOFILE_CAP ? r.rlim_max : GATE_NOFILE_CAP;
	if (want > r.rlim_cur) {
		r.rlim_cur = want;
		if (setrlimit(RLIMIT_NOFILE, &r) == 0)
			p->nofile = want;
	}
	return p->ngates < p->nofile / 2;
}

/* Reads the task's schedstat (rel) again through its kept descriptor, or a new one: true
 * when the line is the one of the last read.  Read before the task's stat and io, so that
 * a task that runs after it shows at the next sample.  A line of zeros (the kernel's when
 * it keeps no schedule statistics) is no gate. */
static bool gate_still(struct proctasks *p, const char *rel, struct gate *g)
{
	if (g->fd < 0 && gate_room(p)) {
		g->fd = p->prefix ? regular_file_openat(p->procfd, rel, O_RDONLY)
				  : openat(p->procfd, rel, O_RDONLY | O_CLOEXEC);
		g->len = 0;
		if (g->fd >= 0)
			p->ngates++;
	}
	char line[GATE_MAX];
	ssize_t n = g->fd >= 0 ? pread(g->fd, line, sizeof line, 0) : -1;
	if (n <= 0 || (size_t)n >= sizeof line) {   /* gone (ESRCH), or not a gate */
		close_fd(p, &g->fd);
		g->len = 0;
		return false;
	}
	bool same = g->len && (size_t)n == g->len && memcmp(line, g->line, g->len) == 0;
	memcpy(g->line, line, (size_t)n);
	g->len = strncmp(line, "0 0 0", 5) != 0 ? (uint8_t)n : 0;
	return same && g->len;
}

/* A task's stat or io (rel) into p->buf: on the live kernel through its descriptor kept in
 * *fd, by name when it fails (the task is gone, or its pid is another's now) or in a
 * fixture tree.  The descriptor is opened (while there is room) when keep: the task was
 * read at an earlier sample already and moved since, so it will likely move again; a
 * thousand sleepers read once at the first sample hold none (each would pin a page of
 * the kernel's for its buffer).  Its length, or -1. */
static ssize_t read_kept(struct proctasks *p, int *fd, bool keep, const char *rel)
{
	if (p->prefix)
		return read_rel(p, rel, p->buf, sizeof p->buf);
	if (*fd < 0 && keep && gate_room(p)) {
		*fd = openat(p->procfd, rel, O_RDONLY | O_CLOEXEC);
		if (*fd >= 0)
			p->ngates++;
	}
	if (*fd >= 0) {
		ssize_t n = pread(*fd, p->buf, sizeof p->buf - 1, 0);
		if (n > 0) {
			p->buf[n] = '\0';
			return n;
		}
		close_fd(p, fd);
	}
	return read_rel(p, rel, p->buf, sizeof p->buf);
}

/* The live kernel's gate of a whole process: its CPU clock (the run time of all its
 * threads, the dead ones' included), read with one clock_gettime and no file: true when it
 * is the one of the last read.  Any thread scheduled in adds to it, so it moves whenever
 * one of the process's schedstat lines would; and a pid reused since is another process,
 * which ran.  clock_getcpuclockid() would ask the kernel once more (clock_getres); the
 * clock's id is the kernel's MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED).  A process's
 * clock is readable by anyone; a thread's only by its own process, hence the process's. */
static bool clock_still(int32_t pid, struct gate *g)
{
	clockid_t id = (clockid_t)((~(uint32_t)pid) << 3) | 2;
	struct timespec ts;
	if (clock_gettime(id, &ts) < 0) {   /* gone, or not in our pid namespace */
		g->len = 0;
		return false;
	}
	uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	bool same = g->len && g->ran_ns == ns;
	g->ran_ns = ns;
	g->len = 1;
	return same;
}

static bool asleep(char state)
{
	return state == 'S' || state == 'I';
}

/* A process whose tasks were all asleep at their last read, and whose schedstat lines did
 * not move, was not scheduled in since: it made no system call, did no I/O, changed
 * neither state, name nor threads (a thread is made, or ends, by running).  A task in D is
 * read again all the same (its wait may end before it runs), and so is a running one (its
 * run time moves only at the scheduler's ticks).  proc has the leader's gate already. */
static bool still_asleep(struct proctasks *p, const struct proctasks_proc *before,
			 bool leader_still)
{
	if (!before || !leader_still || !asleep(before->state) ||
	    before->num_threads != before->nthreads_read + 1)
		return false;
	for (uint32_t i = 0; i < before->nthreads_read; i++) {
		struct proctasks_thread *th = &before->threads[i];
		if (!asleep(th->state))
			return false;
		if (!p->prefix)   /* the process's clock was its threads' gate */
			continue;
		char rel[64];
		snprintf(rel, sizeof rel, "%d/task/%d/schedstat", before->pid, th->tid);
		if (!gate_still(p, rel, &th->gate))
			return false;
	}
	return true;
}

/* Process pid in v[0..n), sorted by pid; NULL if not there. */
static struct proctasks_proc *find_pid(struct proctasks_proc *v, size_t n, int32_t pid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid].pid == pid)
			return &v[mid];
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* --- threads --- */

/* Add one thread's /proc/PID/task/TID/io to sum (its descriptor kept in g); false when it
 * cannot be read. */
static bool add_thread_io(struct proctasks *p, int32_t pid, int32_t tid, struct gate *g,
			  bool keep, struct procpid_io *sum)
{
	char rel[64];
	struct procpid_io io;
	snprintf(rel, sizeof rel, "%d/task/%d/io", pid, tid);
	ssize_t n = read_kept(p, &g->io_fd, keep, rel);
	if (n <= 0 || procpid_parse_io(p->buf, (size_t)n, &io) < 0)
		return false;
	sum->syscr += io.syscr;
	sum->syscw += io.syscw;
	sum->read_bytes += io.read_bytes;
	sum->write_bytes += io.write_bytes;
	sum->cancelled_write_bytes += io.cancelled_write_bytes;
	return true;
}

/* The gate of thread tid at the last read, taken over from before's threads (NULL: none). */
static struct gate take_thread_gate(struct proctasks_proc *before, int32_t tid)
{
	struct gate g = no_gate;
	for (uint32_t i = 0; before && i < before->nthreads_read; i++)
		if (before->threads[i].tid == tid) {
			g = before->threads[i].gate;
			before->threads[i].gate = no_gate;
			break;
		}
	return g;
}

/* One thread other than the leader: its gate, state, and io added to the process's. */
static int scan_thread(struct proctasks *p, struct tasks_sample *t, struct proctasks_proc *proc,
		       struct proctasks_proc *before, int32_t tid, uint64_t mono_ns, size_t *cap)
{
	char rel[64];
	struct gate g = take_thread_gate(before, tid);
	if (p->prefix) {   /* the live kernel's threads are gated by their process's clock */
		snprintf(rel, sizeof rel, "%d/task/%d/schedstat", proc->pid, tid);
		gate_still(p, rel, &g);
	}
	snprintf(rel, sizeof rel, "%d/task/%d/stat", proc->pid, tid);
	ssize_t n = read_kept(p, &g.stat_fd, before != NULL, rel);
	struct procpid_stat st;
	if (n <= 0 || procpid_parse_stat(p->buf, (size_t)n, &st) < 0 ||
	    grow_array(&proc->threads, cap, proc->nthreads_read + 1, sizeof *proc->threads, 8,
		       NULL) < 0) {
		close_gate(p, &g);
		return 0;
	}
	struct proctasks_thread *th = &proc->threads[proc->nthreads_read++];
	*th = (struct proctasks_thread){ tid, st.state, g };
	if (proc->has_io)
		add_thread_io(p, proc->pid, tid, &th->gate, before != NULL, &proc->io);
	return st.state == 'D' ? add_blocked(p, t, proc->pid, &st, mono_ns) : 0;
}

/* The threads of a multi-threaded process other than its leader (read already): their
 * state, and their io added to the process's.  The gates of before's threads are taken
 * over; those of threads gone are closed. */
static int scan_threads(struct proctasks *p, struct tasks_sample *t, int32_t pid,
			uint64_t mono_ns, struct proctasks_proc *proc, struct proctasks_proc *before)
{
	char rel[64];
	snprintf(rel, sizeof rel, "%d/task", pid);
	int fd = p->prefix ? regular_file_openat(p->procfd, rel, O_RDONLY | O_DIRECTORY)
			   : openat(p->procfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	int rc = 0;
	size_t cap = 0;
	struct dirent *e;
	while (d && rc == 0 && (e = readdir(d))) {
		int32_t tid;
		if (!parse_pid(e->d_name, &tid) || tid == pid)
			continue;
		t->nthreads++;
		rc = scan_thread(p, t, proc, before, tid, mono_ns, &cap);
	}
	if (d)
		closedir(d);
	if (before) {
		free_threads(p, before->threads, before->nthreads_read);
		before->threads = NULL;
		before->nthreads_read = 0;
	}
	return rc;
}

/* Remember when each kept blocked task was first seen, for the next sample. */
static int remember_blocked(struct proctasks *p, const struct tasks_sample *t)
{
	p->nseen = 0;
	for (size_t i = 0; i < t->nkept; i++) {
		if (grow_array(&p->seen, &p->capseen, p->nseen + 1, sizeof *p->seen, 256, NULL) < 0)
			return -1;
		struct proctasks_seen *seen = &p->seen[p->nseen++];
		seen->tid = t->blocked[i].tid;
		seen->since_ns = t->blocked[i].since_ns;
		memcpy(seen->wchan, t->blocked[i].wchan, sizeof seen->wchan);
		seen->runs = p->kept_runs[i];
	}
	for (size_t i = 1; i < p->nseen; i++)       /* threads come in their process's order */
		for (size_t j = i; j > 0 && p->seen[j - 1].tid > p->seen[j].tid; j--) {
			struct proctasks_seen tmp = p->seen[j];
			p->seen[j] = p->seen[j - 1];
			p->seen[j - 1] = tmp;
		}
	return 0;
}

/* --- one process --- */

static int scan_process(struct proctasks *p, struct tasks_sample *t, int32_t pid,
			uint64_t mono_ns)
{
	if (grow_array(&p->cur, &p->capcur, p->ncur + 1, sizeof *p->cur, 256, NULL) < 0)
		return -1;
	struct proctasks_proc *proc = &p->cur[p->ncur];
	struct proctasks_proc *before = find_pid(p->prev, p->nprev, pid);
	char rel[64];
	proc->gate = no_gate;
	proc->threads = NULL;
	proc->nthreads_read = 0;
	if (before) {   /* its descriptors are this sample's now */
		proc->gate = before->gate;
		before->gate = no_gate;
	}
	bool leader_still;
	if (p->prefix) {   /* a fixture tree has no clocks: its schedstat files */
		snprintf(rel, sizeof rel, "%d/schedstat", pid);
		leader_still = gate_still(p, rel, &proc->gate);
	} else {
		leader_still = clock_still(pid, &proc->gate);
	}
	if (still_asleep(p, before, leader_still)) {
		struct gate g = proc->gate;
		*proc = *before;
		proc->gate = g;
		before->threads = NULL;
		before->nthreads_read = 0;
		p->ncur++;
		t->nprocs++;
		t->nthreads += 1 + proc->nthreads_read;
		return 0;
	}
	snprintf(rel, sizeof rel, "%d/stat", pid);
	ssize_t n = read_kept(p, &proc->gate.stat_fd, before != NULL, rel);
	struct procpid_stat st;
	if (n <= 0 || procpid_parse_stat(p->buf, (size_t)n, &st) < 0) {
		close_gate(p, &proc->gate);
		return 0;
	}
	p->ncur++;
	proc->pid = pid;
	proc->kthread = st.flags & PROCPID_PF_KTHREAD;
	proc->state = st.state;
	proc->num_threads = st.num_threads;
	proc->starttime = st.starttime;
	proc->has_blkio = st.has_blkio;
	proc->blkio_ticks = st.blkio_ticks;
	snprintf(proc->comm, sizeof proc->comm, "%s", st.comm);
	memset(&proc->io, 0, sizeof proc->io);
	t->nprocs++;
	t->nthreads++;
	/* /proc/PID/io would add what every reaped child did: the threads' own io only */
	proc->has_io = add_thread_io(p, pid, pid, &proc->gate, before != NULL, &proc->io);
	if (st.state == 'D' && add_blocked(p, t, pid, &st, mono_ns) < 0)
		return -1;
	if (st.num_threads > 1 && scan_threads(p, t, pid, mono_ns, proc, before) < 0)
		return -1;
	return 0;
}

static int scan_all(struct proctasks *p, struct tasks_sample *t, uint64_t mono_ns)
{
	close_gates(p, p->cur, p->ncur);   /* a sample that failed half way */
	p->ncur = 0;
	rewinddir(p->procdir);
	struct dirent *e;
	while ((e = readdir(p->procdir))) {
		int32_t pid;
		if (parse_pid(e->d_name, &pid) && scan_process(p, t, pid, mono_ns) < 0)
			return -1;
	}
	return 0;
}

/* --- per-process I/O --- */

static int proc_cmp(const void *pa, const void *pb)
{
	const struct proctasks_proc *a = pa, *b = pb;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

static uint64_t diff(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : 0;
}

static uint64_t io_bytes(const struct task_io *io)
{
	return io->read_bytes + io->write_bytes + io->cancelled_write_bytes;
}

/* Most bytes first, then the lower pid. */
static bool io_before(const struct task_io *a, const struct task_io *b)
{
	uint64_t x = io_bytes(a), y = io_bytes(b);
	return x != y ? x > y : a->pid < b->pid;
}

static void offer_top(struct tasks_sample *t, const struct task_io *io)
{
	if (!io_bytes(io))
		return;
	size_t at = t->nio;
	while (at > 0 && io_before(io, &t->io[at - 1]))
		at--;
	if (at >= TASKS_IO_TOP)
		return;
	size_t last = t->nio < TASKS_IO_TOP ? t->nio : TASKS_IO_TOP - 1;
	memmove(&t->io[at + 1], &t->io[at], (last - at) * sizeof t->io[0]);
	t->io[at] = *io;
	if (t->nio < TASKS_IO_TOP)
		t->nio++;
}

/* A process's differences: against its last read, or from zero when it was born since
 * (its pid not seen, or seen with another start time). */
static void io_of(const struct proctasks_proc *c, const struct proctasks_proc *before,
		  struct task_io *out)
{
	memset(out, 0, sizeof *out);
	out->pid = c->pid;
	out->kthread = c->kthread;
	snprintf(out->comm, sizeof out->comm, "%s", c->comm);
	struct proctasks_proc zero = { 0 };
	if (!before || before->starttime != c->starttime || !before->has_io)
		before = &zero;
	out->read_bytes = diff(c->io.read_bytes, before->io.read_bytes);
	out->write_bytes = diff(c->io.write_bytes, before->io.write_bytes);
	out->cancelled_write_bytes = diff(c->io.cancelled_write_bytes,
					  before->io.cancelled_write_bytes);
	out->syscr = diff(c->io.syscr, before->io.syscr);
	out->syscw = diff(c->io.syscw, before->io.syscw);
	out->blkio_ticks = diff(c->blkio_ticks, before->blkio_ticks);
}

static void rank_io(struct proctasks *p, struct tasks_sample *t)
{
	size_t j = 0;
	for (size_t i = 0; i < p->ncur; i++) {
		const struct proctasks_proc *c = &p->cur[i];
		while (j < p->nprev && p->prev[j].pid < c->pid)
			j++;
		const struct proctasks_proc *before =
			j < p->nprev && p->prev[j].pid == c->pid ? &p->prev[j] : NULL;
		if (!c->has_io)
			continue;
		struct task_io io;
		io_of(c, before, &io);
		offer_top(t, &io);
	}
}

/* --- owners --- */

static void load_users(struct proctasks *p)
{
	p->users_loaded = true;
	char path[4096];
	if (path_format(path, sizeof path, "%s/etc/passwd", p->prefix ? p->prefix : "") < 0)
		return;
	FILE *f = NULL;
	int fd = regular_file_openat(AT_FDCWD, path, O_RDONLY);
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	char line[1024];
	size_t cap = 0;
	while (fgets(line, sizeof line, f) && p->nusers < 65536) {
		char *name = strtok(line, ":"), *pw = strtok(NULL, ":"), *uid = strtok(NULL, ":");
		if (!name || !pw || !uid)
			continue;
		if (grow_array(&p->users, &cap, p->nusers + 1, sizeof *p->users, 256, NULL) < 0)
			break;
		struct proctasks_user *v = p->users;
		v[p->nusers].uid = (uint32_t)strtoul(uid, NULL, 10);
		snprintf(v[p->nusers].name, sizeof v[p->nusers].name, "%s", name);
		p->nusers++;
	}
	fclose(f);
}

static void user_name(struct proctasks *p, uint32_t uid, char *out, size_t len)
{
	if (!p->users_loaded)
		load_users(p);
	for (size_t i = 0; i < p->nusers; i++)
		if (p->users[i].uid == uid) {
			snprintf(out, len, "%s", p->users[i].name);
			return;
		}
	snprintf(out, len, "%u", uid);
}

/* The devices of the listed processes' open files (kernel threads have none); this
 * sample's processes are sorted by pid. */
static void read_open_files(struct proctasks *p, struct tasks_sample *t)
{
	for (size_t i = 0; i < t->nio; i++) {
		struct task_io *io = &t->io[i];
		const struct proctasks_proc *c = find_pid(p->cur, p->ncur, io->pid);
		if (!io->kthread && c)
			io->nfiles = procfiles_open(&p->files, io->pid, c->starttime, io->files,
						    TASK_IO_FILES);
	}
}

static void name_owners(struct proctasks *p, struct tasks_sample *t)
{
	for (size_t i = 0; i < t->nio; i++) {
		char rel[32];
		struct stat st;
		snprintf(rel, sizeof rel, "%d", t->io[i].pid);
		t->io[i].uid = fstatat(p->procfd, rel, &st, 0) == 0 ? st.st_uid : 0;
		user_name(p, t->io[i].uid, t->io[i].user, sizeof t->io[i].user);
	}
}

/* --- the sample --- */

static bool sorted_by_pid(const struct proctasks_proc *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i - 1].pid > v[i].pid)
			return false;
	return true;
}

/* The why pane's relaxed pace: while nothing is blocked, every other sample is a copy of
 * the read before (its I/O figures are rates over their own interval, so they stay true;
 * the next read's span two samples).  A task that blocks is seen one sample later at most;
 * once one is, every sample is read.  NULL: read this sample. */
static struct tasks_sample *held_copy(struct proctasks *p)
{
	if (!p->relaxed || p->held || !p->last || !p->last->interval_ns || p->last->nblocked) {
		p->held = false;
		return NULL;
	}
	struct tasks_sample *copy = tasks_sample_dup(p->last);
	p->held = copy != NULL;
	return copy;
}

/* Keep a copy of this read for the relaxed pace's next sample. */
static void keep_last(struct proctasks *p, const struct tasks_sample *t)
{
	tasks_sample_free(p->last);
	p->last = p->relaxed ? tasks_sample_dup(t) : NULL;
}

int proctasks_sample(struct proctasks *p, uint64_t mono_ns, const struct mount *mounts,
		     size_t nmounts, struct tasks_sample **out, struct error *err)
{
	struct tasks_sample *held = held_copy(p);
	if (held) {
		tasks_sample_free(*out);
		*out = held;
		return 0;
	}
	struct tasks_sample *t = tasks_sample_new();
	if (!t)
		return error_set(err, "out of memory");
	t->clk_tck = (uint32_t)p->clk_tck;
	procfiles_new_sample(&p->files, mounts, nmounts);
	t->delayacct = proctasks_delayacct(p->prefix);
	t->stack_readable = p->stack_allowed;
	t->runs_read = true;
	int scanned = scan_all(p, t, mono_ns);
	watch_memcgs(p, t, mono_ns);
	close_gates(p, p->prev, p->nprev);   /* the processes gone since (the others moved on) */
	if (scanned < 0 || remember_blocked(p, t) < 0) {
		tasks_sample_free(t);
		return error_set(err, "tasks: out of memory");
	}
	if (!sorted_by_pid(p->cur, p->ncur))
		qsort(p->cur, p->ncur, sizeof *p->cur, proc_cmp);
	if (p->have_baseline && mono_ns > p->last_mono_ns) {
		t->interval_ns = mono_ns - p->last_mono_ns;
		rank_io(p, t);
		name_owners(p, t);
		read_open_files(p, t);
	}
	struct proctasks_proc *swap = p->prev;
	size_t swapcap = p->capprev;
	p->prev = p->cur;
	p->nprev = p->ncur;
	p->capprev = p->capcur;
	p->cur = swap;
	p->capcur = swapcap;
	p->ncur = 0;
	p->have_baseline = true;
	p->last_mono_ns = mono_ns;
	keep_last(p, t);
	tasks_sample_free(*out);
	*out = t;
	return 0;
}
