/* floor.c - the cheapest possible sampler, the benchmark's yardstick.
 *
 * Re-reads the files ioscope samples (under an optional root prefix) through
 * descriptors it keeps open, paced on the same absolute deadlines (a periodic
 * timerfd), with no parsing and no output.
 *
 * usage: floor ROOT INTERVAL COUNT      (ROOT "" for the live kernel)
 *
 * The process list's floors (bench part (t)), on the same deadlines, listing /proc each
 * sample:
 *        floor --tasks INTERVAL COUNT       one pread of each task's schedstat through a
 *                                           descriptor kept open (ioscope's gate), and a
 *                                           process's stat and io opened, read and closed
 *                                           when one of its tasks moved or was not asleep
 *                                           (S or I); then, when it has other threads,
 *                                           their list and each one's stat and io (a
 *                                           process's own I/O is its live threads' sum)
 *        floor --tasks-open INTERVAL COUNT  open, read, close of each process's stat and
 *                                           its thread's io (what ioscope did before)
 */
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/timerfd.h>
#include <unistd.h>

#define MAX_FILES 65536

struct files {
	int fd[MAX_FILES];
	int n;
};

static void add(struct files *f, const char *root, const char *path)
{
	char full[4096];
	snprintf(full, sizeof full, "%s%s", root, path);
	int fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && f->n < MAX_FILES)
		f->fd[f->n++] = fd;
}

/* ioscope reads only `size` of a disk with no medium (docs/sources.md). */
static bool no_medium(const char *root, const char *disk)
{
	char path[4096], buf[32] = "";
	snprintf(path, sizeof path, "%s/sys/block/%s/size", root, disk);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return false;
	bool empty = fgets(buf, sizeof buf, fp) && strcmp(buf, "0\n") == 0;
	fclose(fp);
	return empty;
}

static void add_disk(struct files *f, const char *root, const char *disk)
{
	static const char *const queue[] = { "scheduler", "nr_requests", "read_ahead_kb", "max_sectors_kb",
					     "rotational", "write_cache" };
	char path[1024];
	snprintf(path, sizeof path, "/sys/block/%s/size", disk);
	add(f, root, path);
	if (no_medium(root, disk))
		return;
	for (size_t i = 0; i < sizeof queue / sizeof queue[0]; i++) {
		snprintf(path, sizeof path, "/sys/block/%s/queue/%s", disk, queue[i]);
		add(f, root, path);
	}
	snprintf(path, sizeof path, "/sys/block/%s/inflight", disk);
	add(f, root, path);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/sys/block/%s/queue/iosched", root, disk);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/sys/block/%s/queue/iosched/%s", disk, e->d_name);
		add(f, root, path);
	}
	if (d)
		closedir(d);
}

static int timer(double interval)
{
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ns = (long)(interval * 1e9);
	struct itimerspec its = { .it_interval = { ns / 1000000000L, ns % 1000000000L }, .it_value = now };
	timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
	return tfd;
}

static void read_closed(int dirfd, const char *rel, char *buf, size_t len)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
}

struct kept {
	int fd;                 /* the task's schedstat; 0: none yet */
	char state;             /* at its last stat read */
	uint64_t hash;          /* of its schedstat line */
	int32_t *tids;          /* a multi-threaded process's other threads, at its last read */
	int ntids;
};

static uint64_t hash_of(const char *s, ssize_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (ssize_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

/* Whether the task must be read: its schedstat (rel, kept open) moved, or it was not
 * asleep. */
static bool gate_moved(int dir, const char *rel, struct kept *k)
{
	char buf[128];
	ssize_t n = k->fd > 0 ? pread(k->fd, buf, sizeof buf, 0) : -1;
	if (n <= 0) {
		if (k->fd > 0)
			close(k->fd);   /* gone, or the pid taken again */
		k->fd = openat(dir, rel, O_RDONLY | O_CLOEXEC);
		n = k->fd > 0 ? pread(k->fd, buf, sizeof buf, 0) : -1;
		k->state = 0;
	}
	uint64_t h = hash_of(buf, n);
	bool moved = h != k->hash || (k->state != 'S' && k->state != 'I');
	k->hash = h;
	return moved;
}

/* The state letter and the thread count of a stat line. */
static char stat_state(const char *buf, long *threads)
{
	const char *paren = strrchr(buf, ')');
	*threads = 1;
	if (!paren || !paren[1])
		return 0;
	const char *s = paren + 2;
	for (int field = 3; *s && field < 20; field++) {   /* num_threads is field 20 */
		s = strchr(s, ' ');
		if (!s)
			return paren[2];
		s++;
	}
	*threads = strtol(s, NULL, 10);
	return paren[2];
}

/* Whether another thread of process pid (as at its last read) moved: the first that did
 * ends the look (the process is read whole, its threads' gates with it). */
static bool threads_moved(int dir, long pid, struct kept *kept)
{
	for (int i = 0; i < kept[pid].ntids; i++) {
		char rel[64];
		long tid = kept[pid].tids[i];
		snprintf(rel, sizeof rel, "%ld/task/%ld/schedstat", pid, tid);
		if (gate_moved(dir, rel, &kept[tid]))
			return true;
	}
	return false;
}

/* A multi-threaded process that moved: each other thread's gate, stat and io (a process's
 * own I/O is the sum of its live threads'). */
static void read_threads(int dir, long pid, struct kept *kept, char *buf, size_t len)
{
	char rel[64];
	snprintf(rel, sizeof rel, "%ld/task", pid);
	int fd = openat(dir, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	kept[pid].ntids = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		long tid = strtol(e->d_name, NULL, 10);
		if (tid <= 0 || tid == pid)
			continue;
		snprintf(rel, sizeof rel, "%ld/task/%ld/schedstat", pid, tid);
		gate_moved(dir, rel, &kept[tid]);
		snprintf(rel, sizeof rel, "%ld/task/%ld/stat", pid, tid);
		read_closed(dir, rel, buf, len);
		long ignored;
		kept[tid].state = stat_state(buf, &ignored);
		snprintf(rel, sizeof rel, "%ld/task/%ld/io", pid, tid);
		read_closed(dir, rel, buf, len);
		int32_t *v = realloc(kept[pid].tids, (size_t)(kept[pid].ntids + 1) * sizeof *v);
		if (v) {
			kept[pid].tids = v;
			v[kept[pid].ntids++] = (int32_t)tid;
		}
	}
	if (d)
		closedir(d);
}

/* One pass over /proc: kept[pid] is the process's gate, kept[tid] a thread's. */
static void tasks_pass(DIR *proc, struct kept *kept, long pid_max, bool gate)
{
	static char buf[4096];
	rewinddir(proc);
	for (struct dirent *e; (e = readdir(proc));) {
		long pid = strtol(e->d_name, NULL, 10), threads;
		if (pid <= 0 || pid >= pid_max)
			continue;
		char rel[64];
		snprintf(rel, sizeof rel, "%ld/schedstat", pid);
		if (gate && !gate_moved(dirfd(proc), rel, &kept[pid]) &&
		    !threads_moved(dirfd(proc), pid, kept))
			continue;
		snprintf(rel, sizeof rel, "%ld/stat", pid);
		buf[0] = '\0';
		read_closed(dirfd(proc), rel, buf, sizeof buf);
		kept[pid].state = stat_state(buf, &threads);
		snprintf(rel, sizeof rel, "%ld/task/%ld/io", pid, pid);
		read_closed(dirfd(proc), rel, buf, sizeof buf);
		if (gate && threads > 1)
			read_threads(dirfd(proc), pid, kept, buf, sizeof buf);
	}
}

static int tasks_floor(bool gate, double interval, long count)
{
	long pid_max = 4194304;
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	if (f) {
		if (fscanf(f, "%ld", &pid_max) != 1)
			pid_max = 4194304;
		fclose(f);
	}
	struct kept *kept = calloc((size_t)pid_max, sizeof *kept);
	DIR *proc = opendir("/proc");
	if (!kept || !proc)
		return 1;
	struct rlimit r;
	if (getrlimit(RLIMIT_NOFILE, &r) == 0) {
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
	int tfd = timer(interval);
	for (long s = 0; s < count + 1; s++) {   /* +1: ioscope's baseline sample */
		uint64_t exp;
		if (read(tfd, &exp, sizeof exp) < 0)
			return 1;
		tasks_pass(proc, kept, pid_max, gate);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && (strcmp(argv[1], "--tasks") == 0 || strcmp(argv[1], "--tasks-open") == 0))
		return tasks_floor(strcmp(argv[1], "--tasks") == 0, atof(argv[2]), atol(argv[3]));
	if (argc != 4) {
		fprintf(stderr, "usage: floor ROOT INTERVAL COUNT\n");
		return 2;
	}
	const char *root = argv[1];
	double interval = atof(argv[2]);
	long count = atol(argv[3]);
	static struct files f;
	static const char *const procs[] = { "/proc/diskstats", "/proc/stat", "/proc/vmstat", "/proc/meminfo",
					     "/proc/pressure/io", "/proc/self/mountinfo", "/proc/uptime" };
	for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++)
		add(&f, root, procs[i]);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/sys/block", root);
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.')
			add_disk(&f, root, e->d_name);
	if (d)
		closedir(d);

	int tfd = timer(interval);
	static char buf[1 << 20];
	for (long s = 0; s < count + 1; s++) {   /* +1: ioscope's baseline sample */
		uint64_t exp;
		if (read(tfd, &exp, sizeof exp) < 0)
			return 1;
		for (int i = 0; i < f.n; i++)
			if (pread(f.fd[i], buf, sizeof buf, 0) < 0)
				continue;
	}
	printf("%d files\n", f.n);
	return 0;
}
