/* bdi_limits.c - a disk's own dirty limits (/sys/block/NAME/bdi): what they are now, which
 * setting the sampler watches for each, and the rules that hold them together.
 *
 * The kernel keeps each limit as one ratio in millionths of the dirty limit
 * (mm/backing-dev.c, BDI_RATIO_SCALE): bdi/max_ratio, max_ratio_fine and max_bytes are
 * three ways to write it, so a plan gives one of them per limit and its event is the
 * ratio's.  A minimum above the maximum is refused (EINVAL), and so is a minimum that
 * would make all devices' minimums together reach 100 %.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "knobs.h"

#define PERCENT 10000   /* millionths in one percent */

static long read_number(const struct control_dev *d, const char *rel)
{
	char buf[64], *end;
	if (control_dev_read(d, rel, buf, sizeof buf, NULL) < 0)
		return -1;
	long v = strtol(buf, &end, 10);
	return end == buf || v < 0 ? -1 : v;
}

/* A limit in millionths: the fine file, else the whole percent; -1 none. */
static long read_limit(const struct control_dev *d, const char *fine, const char *coarse)
{
	long v = read_number(d, fine);
	if (v >= 0)
		return v;
	v = read_number(d, coarse);
	return v < 0 ? -1 : v * PERCENT;
}

/* A bdi directory's minimum in millionths, or -1. */
static long other_minimum(int dirfd, const char *name)
{
	char rel[300], buf[64];
	long scale = 1;
	snprintf(rel, sizeof rel, "%s/min_ratio_fine", name);
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(rel, sizeof rel, "%s/min_ratio", name);
		fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
		scale = PERCENT;
	}
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10) * scale;
}

/* Every other bdi's minimum added up (ROOT/sys/class/bdi/ST), or -1 when unknown. */
static long others_minimum(const struct control_dev *d, const char *root)
{
	char own[PATH_MAX], path[PATH_MAX];
	ssize_t n = readlinkat(d->dirfd, "bdi", own, sizeof own - 1);
	own[n > 0 ? n : 0] = '\0';
	const char *own_name = strrchr(own, '/') ? strrchr(own, '/') + 1 : own;
	snprintf(path, sizeof path, "%s/sys/class/bdi", root ? root : "");
	DIR *dir = opendir(path);
	if (!dir)
		return -1;
	long sum = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, own_name) == 0)
			continue;
		long v = other_minimum(dirfd(dir), e->d_name);
		sum += v > 0 ? v : 0;
	}
	closedir(dir);
	return sum;
}

void control_bdi_limits_read(const struct control_dev *d, const char *root,
			     struct control_limits *lim)
{
	lim->bdi_fine = control_dev_exists(d, "bdi/max_ratio_fine");
	lim->bdi_max = read_limit(d, "bdi/max_ratio_fine", "bdi/max_ratio");
	lim->bdi_min = read_limit(d, "bdi/min_ratio_fine", "bdi/min_ratio");
	lim->bdi_min_others = lim->bdi_min >= 0 ? others_minimum(d, root) : -1;
}

/* "max" or "min" for a key that writes one of the two limits, else NULL. */
static const char *limit_of(const char *key)
{
	static const char *const forms[] = { "ratio", "ratio_fine", "bytes" };
	const char *limit = strncmp(key, "bdi.max_", 8) == 0   ? "max"
			    : strncmp(key, "bdi.min_", 8) == 0 ? "min"
							       : NULL;
	for (size_t i = 0; limit && i < sizeof forms / sizeof forms[0]; i++)
		if (strcmp(key + 8, forms[i]) == 0)
			return limit;
	return NULL;
}

void control_bdi_watch(const struct control_limits *lim, const char *key, char *watch,
		       size_t len)
{
	const char *limit = limit_of(key);
	if (limit)
		snprintf(watch, len, "bdi.%s_ratio%s", limit, lim->bdi_fine ? "_fine" : "");
	else
		snprintf(watch, len, "%s", key);
}

/* The limit an assignment sets, in millionths; -1 for bytes (the kernel converts them
 * with the dirty limit of the moment). */
static long planned_limit(const struct control_assign *a)
{
	if (strstr(a->key, "_bytes"))
		return -1;
	long v = strtol(a->value, NULL, 10);
	return strstr(a->key, "_fine") ? v : v * PERCENT;
}

static const struct control_assign *find_limit(const struct control_plan *p, const char *limit)
{
	for (size_t i = 0; i < p->nitems; i++) {
		const char *l = limit_of(p->items[i].key);
		if (l && strcmp(l, limit) == 0)
			return &p->items[i];
	}
	return NULL;
}

/* "50 %", "12.5 %" */
static void percent_text(long millionths, char *buf, size_t len)
{
	char frac[8];
	snprintf(frac, sizeof frac, "%04ld", millionths % PERCENT);
	for (size_t n = strlen(frac); n > 0 && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	snprintf(buf, len, "%ld%s%s %%", millionths / PERCENT, frac[0] ? "." : "", frac);
}

int control_bdi_check(const struct control_plan *p, const struct control_limits *lim,
		      struct error *err)
{
	const struct control_assign *max = find_limit(p, "max"), *min = find_limit(p, "min");
	long new_max = max ? planned_limit(max) : lim->bdi_max;
	long new_min = min ? planned_limit(min) : lim->bdi_min;
	char a[32], b[32];
	if ((max || min) && new_max >= 0 && new_min > new_max) {
		percent_text(new_min, a, sizeof a);
		percent_text(new_max, b, sizeof b);
		return error_set(err,
				 "%s: the minimum (%s) would be above the maximum (%s); the kernel "
				 "refuses that",
				 (min ? min : max)->key, a, b);
	}
	if (min && new_min >= 0 && lim->bdi_min_others >= 0 &&
	    lim->bdi_min_others + new_min >= KNOB_BDI_RATIO_FINE_MAX) {
		percent_text(lim->bdi_min_others, a, sizeof a);
		return error_set(err,
				 "%s=%s: the minimums of all devices together must stay under "
				 "100 %% (the others hold %s)",
				 min->key, min->value, a);
	}
	return 0;
}

void control_bdi_order(struct control_plan *p, const struct control_limits *lim)
{
	const struct control_assign *max = find_limit(p, "max"), *min = find_limit(p, "min");
	if (!max || !min)
		return;
	long new_max = planned_limit(max);
	/* lower the minimum first when the new maximum is below the minimum now */
	bool min_first = new_max >= 0 && lim->bdi_min > new_max;
	struct control_assign *first = (struct control_assign *)(max < min ? max : min);
	struct control_assign *second = (struct control_assign *)(max < min ? min : max);
	if ((first == min) != min_first) {
		struct control_assign t = *first;
		*first = *second;
		*second = t;
	}
}
