/* race_swap.c - an LD_PRELOAD library that wins a race for the tests: another user's
 * rename landing at the worst moment, every time (test_hostile_probe.sh,
 * test_hostile_tracer.sh).
 *
 * Right before ioscope calls fsync(fd) or dlopen(name) on a file whose path contains
 * RACE_MATCH, RACE_FROM is renamed over that path (once): after ioscope made or checked
 * the file, before it uses the name again.  A dlopen of /proc/self/fd/N counts as one of
 * the file behind it.  Built by the tests with `cc -shared -fPIC`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void swap_if(const char *path)
{
	static int done;
	const char *match = getenv("RACE_MATCH"), *from = getenv("RACE_FROM");
	if (done || !match || !from || !strstr(path, match))
		return;
	done = 1;
	if (rename(from, path) < 0)
		perror("race_swap: rename");
	else
		fprintf(stderr, "race_swap: %s renamed over %s\n", from, path);
}

/* where a descriptor, or a /proc/self/fd/N name, leads; "" when nowhere */
static void resolve(const char *link, char *path, size_t len)
{
	ssize_t n = readlink(link, path, len - 1);
	path[n > 0 ? n : 0] = '\0';
}

int fsync(int fd)
{
	static int (*real)(int);
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	char link[64], path[PATH_MAX];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	resolve(link, path, sizeof path);
	swap_if(path);
	return real(fd);
}

void *dlopen(const char *name, int flags)
{
	static void *(*real)(const char *, int);
	if (!real)
		real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	char path[PATH_MAX];
	if (name && strncmp(name, "/proc/self/fd/", 14) == 0)
		resolve(name, path, sizeof path);
	else
		snprintf(path, sizeof path, "%s", name ? name : "");
	swap_if(path);
	return real(name, flags);
}
