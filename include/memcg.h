/* memcg.h - the memory cgroup of a blocked task and its figures (tasks.h, struct
 * task_memcg), read by the tasks sub-sampler: which cgroup from /proc/PID/cgroup, its
 * files under the memory controller's mount (v1 `memory`, or cgroup2 with `memory` in
 * its controllers), found once in the tree's mountinfo.  Docs: docs/metrics.md, "Memory
 * cgroups of blocked writers".
 */
#ifndef IOSCOPE_MEMCG_H
#define IOSCOPE_MEMCG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tasks.h"

struct memcg_roots {
	bool looked;            /* mountinfo was read */
	int v1fd, v2fd;         /* the v1 memory mount, the cgroup2 mount with memory; -1 none */
};

void memcg_roots_init(struct memcg_roots *r);
void memcg_roots_close(struct memcg_roots *r);
/* Find the mounts under prefix (NULL: the live kernel), once. */
void memcg_roots_find(struct memcg_roots *r, const char *prefix);

/* ---- pure: unit-tested on text ---- */
/* The memory cgroup of a /proc/PID/cgroup text: the v1 "memory" line when has_v1, else
 * the v2 "0::" line when has_v2.  false when neither, or the path is not absolute or
 * has a ".." component. */
bool memcg_parse_proc_cgroup(const char *buf, size_t len, bool has_v1, bool has_v2,
			     uint8_t *version, char *path, size_t path_len);
/* memory.stat, memory.events of m->version into m->v and m->present. */
void memcg_parse_stat(const char *buf, size_t len, struct task_memcg *m);
void memcg_parse_events(const char *buf, size_t len, struct task_memcg *m);
/* One number of a file ("max" and v1's no-limit figure: false). */
bool memcg_parse_value(const char *buf, size_t len, uint64_t *out);

/* The files of m (path and version set) into m's figures; on v2 the limit is the lowest
 * memory.max of m and its ancestors, limit_of naming the ancestor's. */
void memcg_read(const struct memcg_roots *r, struct task_memcg *m);

#endif
