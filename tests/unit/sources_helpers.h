/* sources_helpers.h - what the sources suites share: temp trees and a loop
 * device of our own that detaches itself (LO_FLAGS_AUTOCLEAR) when the test
 * process closes it or dies, so a crash never leaves it behind. */
#ifndef IOSCOPE_SOURCES_HELPERS_H
#define IOSCOPE_SOURCES_HELPERS_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static inline int rm_entry(const char *p, const struct stat *st, int type, struct FTW *f)
{
	(void)st, (void)type, (void)f;
	return remove(p);
}

static inline void rm_tree(const char *dir)
{
	if (dir && dir[0])
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p of dirname(path), then write text to path. */
static inline void write_file(const char *path, const char *text)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		abort();
	}
	fputs(text, f);
	fclose(f);
}

/* Write to a sysfs attribute; 0 or -errno. */
static inline int write_attr(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	int e = n < 0 ? -errno : 0;
	close(fd);
	return e;
}

/* Read a sysfs attribute, its trailing newline cut; 0 or -errno. */
static inline int read_attr_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = n < 0 ? -errno : 0;
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return e;
}

/* The twin of tests/e2e/lib.sh's pick_elevators: up to n different elevators that
 * /sys/block/NAME/queue/scheduler offers, those with tunables (all but none) first, in
 * the kernel's order, never by name (a kernel without bfq offers "none mq-deadline
 * kyber"); how many it found, or -1 when the line cannot be read.  A test that switches
 * between two with tunables wants 2 and out[1] not "none". */
static inline int pick_elevators(const char *name, char out[][32], int n)
{
	char path[4096], line[512];
	snprintf(path, sizeof path, "/sys/block/%s/queue/scheduler", name);
	if (read_attr_text(path, line, sizeof line) < 0)
		return -1;
	int found = 0;
	for (int none_pass = 0; none_pass < 2; none_pass++) {
		char copy[512], *save = NULL;
		snprintf(copy, sizeof copy, "%s", line);
		for (char *e = strtok_r(copy, " []", &save); e && found < n;
		     e = strtok_r(NULL, " []", &save))
			if ((strcmp(e, "none") == 0) == none_pass)
				snprintf(out[found++], 32, "%s", e);
	}
	return found;
}

/* The active elevator's tunables, the files in /sys/block/NAME/queue/iosched, sorted:
 * up to max names in out; how many (0 with none), or -1 when there are more. */
static inline int iosched_tunables(const char *name, char out[][32], int max)
{
	char path[4096];
	snprintf(path, sizeof path, "/sys/block/%s/queue/iosched", name);
	struct dirent **list;
	int n = scandir(path, &list, NULL, alphasort), found = 0;
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.') {
			if (found < max)
				snprintf(out[found], 32, "%s", list[i]->d_name);
			found++;
		}
		free(list[i]);
	}
	free(list);
	return found <= max ? found : -1;
}

/* A loop device on a new sparse file in dir: returns its open descriptor (the
 * device lives as long as it stays open) and its kernel name, or -1 (not root,
 * no loop support). */
static inline int loopdev_create(const char *dir, unsigned mb, char *name, size_t len)
{
	if (geteuid() != 0)
		return -1;
	char img[4096];
	snprintf(img, sizeof img, "%s/loop.img", dir);
	int backing = open(img, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (backing < 0 || ftruncate(backing, (off_t)mb << 20) < 0)
		return -1;
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		close(backing);
		return -1;
	}
	int fd = -1;
	for (int attempt = 0; attempt < 20 && fd < 0; attempt++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (n < 0)
			break;
		char dev[64];
		snprintf(dev, sizeof dev, "/dev/loop%d", n);
		int lfd = open(dev, O_RDWR | O_CLOEXEC);
		if (lfd < 0)
			continue;
		struct loop_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.fd = (unsigned)backing;
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
			fd = lfd;
			snprintf(name, len, "loop%d", n);
		} else {
			close(lfd);      /* another test took it first: try the next free one */
		}
	}
	close(ctl);
	close(backing);
	return fd;
}

#endif
