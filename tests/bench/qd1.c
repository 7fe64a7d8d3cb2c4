/* qd1.c - issue 39's tracing line: N random 4 KiB reads of a block device, O_DIRECT, one
 * at a time (pread), each timed on its own (CLOCK_MONOTONIC, the vDSO's: no system call).
 * Prints "p1 p5 p10 p50 mean" in ns.
 *
 * fio's latency percentiles come from bins about 1/64 of their value wide (0.1 µs at the
 * 7 µs a RAM-backed loop device takes): too coarse for a difference of tenths of a µs.
 * Here every request's time is kept and sorted.
 *
 * usage: qd1 DEVICE N
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc == 3 ? atol(argv[2]) : 0;
	if (n < 100) {
		fprintf(stderr, "usage: qd1 DEVICE N (N >= 100)\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY | O_DIRECT | O_CLOEXEC);
	uint64_t size = 0;
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) < 0 || size < 4096) {
		perror(argv[1]);
		return 1;
	}
	uint64_t *ns = malloc((size_t)n * sizeof *ns), blocks = size / 4096, x = 88172645463325252u;
	void *buf;
	if (!ns || posix_memalign(&buf, 4096, 4096) != 0) {
		perror("qd1");
		return 1;
	}
	uint64_t sum = 0;
	for (long i = 0; i < n; i++) {
		x ^= x << 13;   /* xorshift64: the same offsets every run */
		x ^= x >> 7;
		x ^= x << 17;
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (pread(fd, buf, 4096, (off_t)(x % blocks * 4096)) != 4096) {
			perror("qd1: pread");
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns[i] = ns_of(&b) - ns_of(&a);
		sum += ns[i];
	}
	qsort(ns, (size_t)n, sizeof *ns, by_value);
	printf("%llu %llu %llu %llu %llu\n", (unsigned long long)ns[n / 100],
	       (unsigned long long)ns[n / 20], (unsigned long long)ns[n / 10],
	       (unsigned long long)ns[n / 2], (unsigned long long)(sum / (uint64_t)n));
	return 0;
}
