/* memcg.c - the memory cgroup of a blocked task and its figures (memcg.h).
 *
 * Read only for blocked user tasks outside the root cgroup, each cgroup once a sample
 * (and for 10 s after its last blocked task, proctasks.c): a machine has few of them, and
 * none when nothing has been blocked lately.  The files are opened
 * below the controller's mount, a descriptor kept from the first look (a cgroup's
 * directory is the kernel's; a path from /proc/PID/cgroup with ".." is refused).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "memcg.h"
#include "mountinfo.h"
#include "regular_file.h"
#include "snapshot.h"
#include "textscan.h"

/* v1 prints PAGE_COUNTER_MAX rounded to pages for "no limit": anything this large is none */
#define MEMCG_NO_LIMIT (1ull << 62)

void memcg_roots_init(struct memcg_roots *r)
{
	r->looked = false;
	r->v1fd = r->v2fd = -1;
}

void memcg_roots_close(struct memcg_roots *r)
{
	if (r->v1fd >= 0)
		close(r->v1fd);
	if (r->v2fd >= 0)
		close(r->v2fd);
	memcg_roots_init(r);
}

static int open_dir(const char *prefix, const char *path)
{
	char full[4096];
	if (snprintf(full, sizeof full, "%s%s", prefix ? prefix : "", path) >= (int)sizeof full)
		return -1;
	return open(full, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
}

static bool has_option(const char *opts, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = opts; (p = strstr(p, name)) != NULL; p += n)
		if ((p == opts || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
			return true;
	return false;
}

/* A word of a blank-separated list ("cpuset cpu io memory pids"). */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

/* The cgroup2 mount is the memory controller's when its cgroup.controllers says so (a
 * hybrid hierarchy keeps memory on v1). */
static void take_v2(struct memcg_roots *r, int fd)
{
	char buf[512];
	if (regular_file_read_at(fd, "cgroup.controllers", buf, sizeof buf) > 0 && has_word(buf, "memory"))
		r->v2fd = fd;
	else
		close(fd);
}

void memcg_roots_find(struct memcg_roots *r, const char *prefix)
{
	if (r->looked)
		return;
	r->looked = true;
	char path[4096], *buf = malloc(1 << 20);
	if (!buf)
		return;
	snprintf(path, sizeof path, "%s/proc/self/mountinfo", prefix ? prefix : "");
	ssize_t n = regular_file_read_at(AT_FDCWD, path, buf, 1 << 20);
	struct snapshot s;
	snapshot_init(&s);
	struct error err;
	if (n > 0 && mountinfo_parse(buf, (size_t)n, &s, &err) > 0) {
		for (size_t i = 0; i < s.nmounts; i++) {
			const struct mount *m = &s.mounts[i];
			if (r->v1fd < 0 && strcmp(m->fstype, "cgroup") == 0 &&
			    has_option(m->super_opts, "memory"))
				r->v1fd = open_dir(prefix, m->mountpoint);
			else if (r->v2fd < 0 && strcmp(m->fstype, "cgroup2") == 0) {
				int fd = open_dir(prefix, m->mountpoint);
				if (fd >= 0)
					take_v2(r, fd);
			}
		}
	}
	snapshot_free(&s);
	free(buf);
}

/* ---- parsing ---- */

bool memcg_parse_value(const char *buf, size_t len, uint64_t *out)
{
	const char *p = buf;
	return textscan_u64(&p, buf + len, out) && *out < MEMCG_NO_LIMIT;
}

/* Copy an absolute path without a ".." component (the files are opened below it). */
static bool take_path(const char *from, size_t len, char *path, size_t path_len)
{
	if (!len || from[0] != '/' || len >= path_len)
		return false;
	memcpy(path, from, len);
	path[len] = '\0';
	for (const char *c = path; (c = strstr(c, "/..")) != NULL; c += 3)
		if (c[3] == '/' || c[3] == '\0')
			return false;
	return true;
}

/* "4:memory:/untar" (v1, the controller may share its line: "4:cpu,memory:/x"), "0::/x" */
bool memcg_parse_proc_cgroup(const char *buf, size_t len, bool has_v1, bool has_v2,
			     uint8_t *version, char *path, size_t path_len)
{
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	const char *v2 = NULL;
	size_t v2len = 0;
	while (textscan_line(&p, end, &line, &n)) {
		const char *c1 = memchr(line, ':', n);
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(line + n - c1 - 1)) : NULL;
		if (!c2)
			continue;
		const char *rest = c2 + 1;
		size_t rlen = (size_t)(line + n - rest);
		char controllers[256];
		size_t clen = (size_t)(c2 - c1 - 1);
		if (clen >= sizeof controllers)
			continue;
		memcpy(controllers, c1 + 1, clen);
		controllers[clen] = '\0';
		for (char *q = controllers; *q; q++)
			*q = *q == ',' ? ' ' : *q;
		if (has_v1 && has_word(controllers, "memory")) {
			*version = 1;
			return take_path(rest, rlen, path, path_len);
		}
		if (clen == 0 && line[0] == '0' && c1 == line + 1) {
			v2 = rest;
			v2len = rlen;
		}
	}
	*version = 2;
	return has_v2 && v2 && take_path(v2, v2len, path, path_len);
}

struct memcg_key {
	const char *key;
	enum memcg_field field;
};

static void parse_keys(const char *buf, size_t len, const struct memcg_key *keys, size_t nkeys,
		       struct task_memcg *m)
{
	const char *p = buf, *end = buf + len, *line, *rest;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		for (size_t i = 0; i < nkeys; i++) {
			uint64_t v;
			if (!textscan_key(line, n, keys[i].key, &rest) ||
			    !textscan_u64(&rest, line + n, &v))
				continue;
			m->v[keys[i].field] = v;
			m->present |= 1u << keys[i].field;
		}
	}
}

void memcg_parse_stat(const char *buf, size_t len, struct task_memcg *m)
{
	/* v1: the hierarchy's totals (the cgroup and those below it, as usage counts them) */
	static const struct memcg_key v1[] = {
		{ "total_dirty", MEMCG_DIRTY }, { "total_writeback", MEMCG_WRITEBACK },
		{ "hierarchical_memory_limit", MEMCG_LIMIT },
	};
	static const struct memcg_key v2[] = {
		{ "file_dirty", MEMCG_DIRTY }, { "file_writeback", MEMCG_WRITEBACK },
		{ "pgscan", MEMCG_PGSCAN },
	};
	if (m->version == 1) {
		/* the limit of a cgroup with none of its own is its closest parent's */
		bool own = m->present & (1u << MEMCG_LIMIT);
		uint64_t limit = m->v[MEMCG_LIMIT];
		parse_keys(buf, len, v1, sizeof v1 / sizeof v1[0], m);
		if (own)
			m->v[MEMCG_LIMIT] = limit;
		else if (m->v[MEMCG_LIMIT] >= MEMCG_NO_LIMIT)
			m->present &= ~(1u << MEMCG_LIMIT);
	}
	else
		parse_keys(buf, len, v2, sizeof v2 / sizeof v2[0], m);
}

void memcg_parse_events(const char *buf, size_t len, struct task_memcg *m)
{
	static const struct memcg_key keys[] = { { "high", MEMCG_HIGH }, { "max", MEMCG_MAX } };
	parse_keys(buf, len, keys, sizeof keys / sizeof keys[0], m);
}

/* ---- reading ---- */

static bool read_number(int dirfd, const char *dir, const char *file, uint64_t *v)
{
	char path[MEMCG_PATH_MAX + 64], buf[64];
	snprintf(path, sizeof path, "%s/%s", dir, file);
	ssize_t n = regular_file_read_at(dirfd, path, buf, sizeof buf);
	return n > 0 && memcg_parse_value(buf, (size_t)n, v);
}

static void read_value(int dirfd, const char *dir, const char *file, struct task_memcg *m,
		       enum memcg_field f)
{
	if (read_number(dirfd, dir, file, &m->v[f]))
		m->present |= 1u << f;
}

/* v2 has no hierarchical_memory_limit: a cgroup whose memory.max is "max" is still held
 * by its ancestors' (memory.max applies to a cgroup and everything below it).  The lowest
 * of its own and theirs is its limit; limit_of names the ancestor that sets it.  The root
 * cgroup has no memory.max. */
static void v2_ancestors_limit(int fd, struct task_memcg *m)
{
	char dir[MEMCG_PATH_MAX];
	snprintf(dir, sizeof dir, "%s", m->path);
	m->limit_of[0] = '\0';
	for (char *slash; (slash = strrchr(dir, '/')) != NULL && slash != dir;) {
		*slash = '\0';
		uint64_t v;
		if (!read_number(fd, dir + 1, "memory.max", &v) ||
		    ((m->present & (1u << MEMCG_LIMIT)) && v >= m->v[MEMCG_LIMIT]))
			continue;
		m->v[MEMCG_LIMIT] = v;
		m->present |= 1u << MEMCG_LIMIT;
		snprintf(m->limit_of, sizeof m->limit_of, "%s", dir);
	}
}

void memcg_read(const struct memcg_roots *r, struct task_memcg *m)
{
	int fd = m->version == 1 ? r->v1fd : r->v2fd;
	if (fd < 0)
		return;
	const char *dir = m->path[1] ? m->path + 1 : ".";
	char path[MEMCG_PATH_MAX + 64], buf[8192];
	if (m->version == 1) {
		read_value(fd, dir, "memory.limit_in_bytes", m, MEMCG_LIMIT);
		read_value(fd, dir, "memory.usage_in_bytes", m, MEMCG_USAGE);
		read_value(fd, dir, "memory.failcnt", m, MEMCG_FAILCNT);
	} else {
		read_value(fd, dir, "memory.max", m, MEMCG_LIMIT);
		v2_ancestors_limit(fd, m);
		read_value(fd, dir, "memory.current", m, MEMCG_USAGE);
		snprintf(path, sizeof path, "%s/memory.events", dir);
		ssize_t n = regular_file_read_at(fd, path, buf, sizeof buf);
		if (n > 0)
			memcg_parse_events(buf, (size_t)n, m);
	}
	snprintf(path, sizeof path, "%s/memory.stat", dir);
	ssize_t n = regular_file_read_at(fd, path, buf, sizeof buf);
	if (n > 0)
		memcg_parse_stat(buf, (size_t)n, m);
}
