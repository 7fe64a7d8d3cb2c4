/* session_log_tasks.c - the `tasks` record: snapshot.tasks written after its sample and
 * read back (docs/session-log.md).  Everything in it is an integer or a string, so a
 * replayed tasks sample is the recorded one exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_get.h"
#include "session_log.h"

static void key_uint(struct jsonw *w, const char *key, uint64_t v)
{
	jsonw_key(w, key);
	jsonw_uint(w, v);
}

static void key_string(struct jsonw *w, const char *key, const char *s)
{
	jsonw_key(w, key);
	jsonw_string(w, s);
}

static void key_bool(struct jsonw *w, const char *key, bool v)
{
	jsonw_key(w, key);
	jsonw_bool(w, v);
}

/* "fs 7:4" (a file on the filesystem of device 7:4), "dev 7:0" (the block device). */
static const char *const file_kinds[] = { [TASK_FILE_ON_FS] = "fs", [TASK_FILE_BLOCKDEV] = "dev" };

static void put_file(struct jsonw *w, const struct task_file *f)
{
	char text[48];
	snprintf(text, sizeof text, "%s %u:%u", file_kinds[f->kind == TASK_FILE_BLOCKDEV ?
							   TASK_FILE_BLOCKDEV : TASK_FILE_ON_FS],
		 (unsigned)f->major, (unsigned)f->minor);
	jsonw_string(w, text);
}

static void put_blocked(struct jsonw *w, const struct blocked_task *b)
{
	jsonw_object_begin(w);
	key_uint(w, "pid", (uint64_t)b->pid);
	key_uint(w, "tid", (uint64_t)b->tid);
	key_string(w, "comm", b->comm);
	key_string(w, "wchan", b->wchan);
	key_bool(w, "kthread", b->kthread);
	key_uint(w, "since", b->since_ns);
	if (b->nframes) {
		jsonw_key(w, "stack");
		jsonw_array_begin(w);
		for (size_t i = 0; i < b->nframes && i < TASK_STACK_FRAMES; i++)
			jsonw_string(w, b->stack[i]);
		jsonw_array_end(w);
	}
	if (b->waits.kind != TASK_FILE_NONE) {
		jsonw_key(w, "waits");
		put_file(w, &b->waits);
	}
	if (b->memcg)
		key_uint(w, "memcg", b->memcg);
	jsonw_object_end(w);
}

/* {"path", "version", and each figure read} */
static void put_memcg(struct jsonw *w, const struct task_memcg *m)
{
	jsonw_object_begin(w);
	key_string(w, "path", m->path);
	if (m->limit_of[0])
		key_string(w, "limit_of", m->limit_of);
	key_uint(w, "version", m->version);
	for (int f = 0; f < MEMCG_FIELDS; f++)
		if (m->present & (1u << f))
			key_uint(w, memcg_field_keys[f], m->v[f]);
	jsonw_object_end(w);
}

static void put_io(struct jsonw *w, const struct task_io *io)
{
	jsonw_object_begin(w);
	key_uint(w, "pid", (uint64_t)io->pid);
	key_uint(w, "uid", io->uid);
	key_string(w, "comm", io->comm);
	key_string(w, "user", io->user);
	key_bool(w, "kthread", io->kthread);
	key_uint(w, "read_bytes", io->read_bytes);
	key_uint(w, "write_bytes", io->write_bytes);
	key_uint(w, "cancelled_write_bytes", io->cancelled_write_bytes);
	key_uint(w, "syscr", io->syscr);
	key_uint(w, "syscw", io->syscw);
	key_uint(w, "blkio_ticks", io->blkio_ticks);
	if (io->nfiles) {
		jsonw_key(w, "files");
		jsonw_array_begin(w);
		for (size_t i = 0; i < io->nfiles && i < TASK_IO_FILES; i++)
			put_file(w, &io->files[i]);
		jsonw_array_end(w);
	}
	jsonw_object_end(w);
}

int session_log_format_tasks(const struct snapshot *snap, struct jsonw *w)
{
	const struct tasks_sample *t = snap->tasks;
	if (!t)
		return 0;
	jsonw_object_begin(w);
	key_string(w, "type", "tasks");
	key_uint(w, "seq", snap->seq);
	key_uint(w, "interval_ns", t->interval_ns);
	key_uint(w, "clk_tck", t->clk_tck);
	key_bool(w, "delayacct", t->delayacct);
	key_bool(w, "stack_readable", t->stack_readable);
	key_bool(w, "runs_read", t->runs_read);
	key_uint(w, "procs", t->nprocs);
	key_uint(w, "threads", t->nthreads);
	key_uint(w, "blocked_total", t->nblocked);
	key_uint(w, "blocked_more", t->blocked_more);
	jsonw_key(w, "blocked");
	jsonw_array_begin(w);
	for (size_t i = 0; i < t->nkept; i++)
		put_blocked(w, &t->blocked[i]);
	jsonw_array_end(w);
	jsonw_key(w, "io");
	jsonw_array_begin(w);
	for (size_t i = 0; i < t->nio; i++)
		put_io(w, &t->io[i]);
	jsonw_array_end(w);
	if (t->nmemcgs) {
		jsonw_key(w, "memcgs");
		jsonw_array_begin(w);
		for (size_t i = 0; i < t->nmemcgs; i++)
			put_memcg(w, &t->memcgs[i]);
		jsonw_array_end(w);
	}
	jsonw_object_end(w);
	jsonw_newline(w);
	return w->failed ? -1 : 0;
}

/* ---- reading ---- */

static int need_u64(json_object *o, const char *key, uint64_t max, uint64_t *out,
		    struct error *err)
{
	json_object *v = json_member(o, key);
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return error_set(err, "tasks: \"%s\" is %s", key, v ? "not a counter" : "missing");
	*out = json_object_get_uint64(v);
	if (*out > max)
		return error_set(err, "tasks: \"%s\" is out of range", key);
	return 0;
}

static int need_u32(json_object *o, const char *key, uint32_t *out, struct error *err)
{
	uint64_t v;
	if (need_u64(o, key, UINT32_MAX, &v, err) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int need_pid(json_object *o, const char *key, int32_t *out, struct error *err)
{
	uint64_t v;
	if (need_u64(o, key, INT32_MAX, &v, err) < 0)
		return -1;
	*out = (int32_t)v;
	return 0;
}

static int need_bool(json_object *o, const char *key, bool *out, struct error *err)
{
	json_object *v = json_member(o, key);
	if (!json_object_is_type(v, json_type_boolean))
		return error_set(err, "tasks: \"%s\" is %s", key, v ? "not true or false" : "missing");
	*out = json_object_get_boolean(v);
	return 0;
}

/* A key added later: absent in older logs, which keep the default already in *out. */
static int opt_bool(json_object *o, const char *key, bool *out, struct error *err)
{
	return json_member(o, key) ? need_bool(o, key, out, err) : 0;
}

static int need_str(json_object *o, const char *key, char *out, size_t len, struct error *err)
{
	json_object *v = json_member(o, key);
	if (!json_object_is_type(v, json_type_string))
		return error_set(err, "tasks: \"%s\" is %s", key, v ? "not a string" : "missing");
	snprintf(out, len, "%s", json_object_get_string(v));
	return 0;
}

static int parse_stack(json_object *o, struct blocked_task *b, struct error *err)
{
	json_object *a = json_member(o, "stack");
	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > TASK_STACK_FRAMES)
		return error_set(err, "tasks: \"stack\" is not an array of at most %d frames",
				 TASK_STACK_FRAMES);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *f = json_object_array_get_idx(a, i);
		if (!json_object_is_type(f, json_type_string))
			return error_set(err, "tasks: \"stack\"[%zu] is not a string", i);
		snprintf(b->stack[i], sizeof b->stack[i], "%s", json_object_get_string(f));
		b->nframes = (uint8_t)(i + 1);
	}
	return 0;
}

static int parse_file(json_object *v, struct task_file *f, struct error *err)
{
	const char *text = json_object_is_type(v, json_type_string) ? json_object_get_string(v)
								     : NULL;
	char kind[4];
	unsigned major, minor;
	int end = 0;
	memset(f, 0, sizeof *f);
	if (!text || strspn(text, "fsdev 0123456789:") != strlen(text) ||
	    sscanf(text, "%3s %u:%u%n", kind, &major, &minor, &end) != 3 || text[end] != '\0')
		return error_set(err, "tasks: a file device is not \"fs|dev MAJ:MIN\"");
	if (strcmp(kind, file_kinds[TASK_FILE_ON_FS]) == 0)
		f->kind = TASK_FILE_ON_FS;
	else if (strcmp(kind, file_kinds[TASK_FILE_BLOCKDEV]) == 0)
		f->kind = TASK_FILE_BLOCKDEV;
	else
		return error_set(err, "tasks: a file device is not \"fs|dev MAJ:MIN\"");
	f->major = major;
	f->minor = minor;
	return 0;
}

static int parse_files(json_object *o, struct task_io *io, struct error *err)
{
	json_object *a = json_member(o, "files");
	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) > TASK_IO_FILES)
		return error_set(err, "tasks: \"files\" is not an array of at most %d devices",
				 TASK_IO_FILES);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		if (parse_file(json_object_array_get_idx(a, i), &io->files[i], err) < 0)
			return -1;
		io->nfiles = (uint8_t)(i + 1);
	}
	return 0;
}

static int parse_blocked(json_object *o, struct blocked_task *b, struct error *err)
{
	if (need_pid(o, "pid", &b->pid, err) < 0 || need_pid(o, "tid", &b->tid, err) < 0 ||
	    need_str(o, "comm", b->comm, sizeof b->comm, err) < 0 ||
	    need_str(o, "wchan", b->wchan, sizeof b->wchan, err) < 0 ||
	    need_bool(o, "kthread", &b->kthread, err) < 0 ||
	    need_u64(o, "since", UINT64_MAX, &b->since_ns, err) < 0)
		return -1;
	json_object *waits = json_member(o, "waits");
	if (waits && parse_file(waits, &b->waits, err) < 0)
		return -1;
	uint64_t memcg = 0;
	if (json_member(o, "memcg") && need_u64(o, "memcg", TASKS_MEMCG_MAX, &memcg, err) < 0)
		return -1;
	b->memcg = (uint8_t)memcg;
	return parse_stack(o, b, err);
}

static int parse_io(json_object *o, struct task_io *io, struct error *err)
{
	const struct { const char *key; uint64_t *at; } counters[] = {
		{ "read_bytes", &io->read_bytes }, { "write_bytes", &io->write_bytes },
		{ "cancelled_write_bytes", &io->cancelled_write_bytes },
		{ "syscr", &io->syscr }, { "syscw", &io->syscw }, { "blkio_ticks", &io->blkio_ticks },
	};
	if (need_pid(o, "pid", &io->pid, err) < 0 || need_u32(o, "uid", &io->uid, err) < 0 ||
	    need_str(o, "comm", io->comm, sizeof io->comm, err) < 0 ||
	    need_str(o, "user", io->user, sizeof io->user, err) < 0 ||
	    need_bool(o, "kthread", &io->kthread, err) < 0)
		return -1;
	for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++)
		if (need_u64(o, counters[i].key, UINT64_MAX, counters[i].at, err) < 0)
			return -1;
	return parse_files(o, io, err);
}

static json_object *need_array(json_object *o, const char *key, size_t max, struct error *err)
{
	json_object *a = json_member(o, key);
	if (!json_object_is_type(a, json_type_array)) {
		error_set(err, "tasks: \"%s\" is %s", key, a ? "not an array" : "missing");
		return NULL;
	}
	if (json_object_array_length(a) > max) {
		error_set(err, "tasks: \"%s\" has more than %zu entries", key, max);
		return NULL;
	}
	return a;
}

static int parse_memcg(json_object *o, struct task_memcg *m, struct error *err)
{
	uint64_t version;
	if (need_str(o, "path", m->path, sizeof m->path, err) < 0 ||
	    need_u64(o, "version", 2, &version, err) < 0 ||
	    (json_member(o, "limit_of") &&
	     need_str(o, "limit_of", m->limit_of, sizeof m->limit_of, err) < 0))
		return -1;
	if (version < 1)
		return error_set(err, "tasks: a memory cgroup's \"version\" is not 1 or 2");
	m->version = (uint8_t)version;
	for (int f = 0; f < MEMCG_FIELDS; f++) {
		if (!json_member(o, memcg_field_keys[f]))
			continue;
		if (need_u64(o, memcg_field_keys[f], UINT64_MAX, &m->v[f], err) < 0)
			return -1;
		m->present |= 1u << f;
	}
	return 0;
}

/* "memcgs" (absent before issue 24): the blocked tasks' indexes must name one of them */
static int parse_memcgs(json_object *o, struct tasks_sample *t, struct error *err)
{
	if (!json_member(o, "memcgs"))
		t->nmemcgs = 0;
	else {
		json_object *a = need_array(o, "memcgs", TASKS_MEMCG_MAX, err);
		if (!a)
			return -1;
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			if (!json_object_is_type(json_object_array_get_idx(a, i), json_type_object))
				return error_set(err, "tasks: \"memcgs\"[%zu] is not an object", i);
			if (parse_memcg(json_object_array_get_idx(a, i), &t->memcgs[i], err) < 0)
				return -1;
			t->nmemcgs = i + 1;
		}
	}
	for (size_t i = 0; i < t->nkept; i++)
		if (t->blocked[i].memcg > t->nmemcgs)
			return error_set(err, "tasks: a blocked task's \"memcg\" is not in \"memcgs\"");
	return 0;
}

static int parse_lists(json_object *o, struct tasks_sample *t, struct error *err)
{
	json_object *blocked = need_array(o, "blocked", TASKS_BLOCKED_MAX, err);
	json_object *io = blocked ? need_array(o, "io", TASKS_IO_TOP, err) : NULL;
	if (!io)
		return -1;
	for (size_t i = 0; i < json_object_array_length(blocked); i++) {
		struct blocked_task *b = tasks_sample_add_blocked(t);
		if (!b)
			return error_set(err, "out of memory");
		if (parse_blocked(json_object_array_get_idx(blocked, i), b, err) < 0)
			return -1;
	}
	for (size_t i = 0; i < json_object_array_length(io); i++) {
		if (parse_io(json_object_array_get_idx(io, i), &t->io[i], err) < 0)
			return -1;
		t->nio = i + 1;
	}
	return parse_memcgs(o, t, err);
}

static int parse_head(json_object *o, struct tasks_sample *t, struct error *err)
{
	if (need_u64(o, "interval_ns", UINT64_MAX, &t->interval_ns, err) < 0 ||
	    need_u32(o, "clk_tck", &t->clk_tck, err) < 0 ||
	    need_bool(o, "delayacct", &t->delayacct, err) < 0 ||
	    need_bool(o, "stack_readable", &t->stack_readable, err) < 0 ||
	    opt_bool(o, "runs_read", &t->runs_read, err) < 0 ||
	    need_u32(o, "procs", &t->nprocs, err) < 0 ||
	    need_u32(o, "threads", &t->nthreads, err) < 0 ||
	    need_u32(o, "blocked_total", &t->nblocked, err) < 0 ||
	    need_u32(o, "blocked_more", &t->blocked_more, err) < 0)
		return -1;
	return 0;
}

int session_log_parse_tasks(json_object *o, struct tasks_sample **out, struct error *err)
{
	struct tasks_sample *t = tasks_sample_new();
	if (!t)
		return error_set(err, "out of memory");
	if (parse_head(o, t, err) < 0 || parse_lists(o, t, err) < 0) {
		tasks_sample_free(t);
		return -1;
	}
	if (t->nkept + t->blocked_more != t->nblocked) {
		tasks_sample_free(t);
		return error_set(err, "tasks: \"blocked_total\" is not the blocked listed and "
				 "\"blocked_more\"");
	}
	tasks_sample_free(*out);
	*out = t;
	return 0;
}
