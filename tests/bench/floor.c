/* floor.c - the cheapest possible sampler, the benchmark's yardstick.
 *
 * Re-reads the files ioscope samples (under an optional root prefix) through
 * descriptors it keeps open, paced on the same absolute deadlines (a periodic
 * timerfd), with no parsing and no output.
 *
 * usage: floor ROOT INTERVAL COUNT      (ROOT "" for the live kernel)
 */
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int main(int argc, char **argv)
{
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

	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ns = (long)(interval * 1e9);
	struct itimerspec its = { .it_interval = { ns / 1000000000L, ns % 1000000000L }, .it_value = now };
	timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
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
