/* session_log_why.c - the `why` record (docs/session-log.md): the raw why figures of a
 * sample (why.h), written after its sample line and read back into the same field,
 * integers only, so a replay reproduces them exactly.
 *
 * {"type":"why","seq":N,
 *  "dirty":[page_kb,nr_dirty,nr_writeback,threshold,background,nr_dirtied,nr_written],
 *  "journals":[{"mountpoint":M,"device":D,"fs":"xfs","v":{"log_writes":N,...}}],
 *  "cgroups":{"io":"ok","groups":[{"path":P,"pressure":[some_c,full_c,some_us,full_us],
 *             "devices":[[major,minor,rbytes,wbytes,rios,wios]]}]}}
 */
#include <string.h>

#include "json_get.h"
#include "session_log.h"
#include "why.h"

static void put_dirty(struct jsonw *w, const struct why_dirty *d)
{
	if (!d->have)
		return;
	jsonw_key(w, "dirty");
	jsonw_array_begin(w);
	jsonw_uint(w, d->page_kb);
	for (int i = 0; i < WD_COUNT; i++)
		jsonw_uint(w, d->v[i]);
	jsonw_array_end(w);
}

static void put_journal(struct jsonw *w, const struct journal_raw *j)
{
	const struct journal_fs_def *def = &journal_fs_defs[j->fs];
	jsonw_object_begin(w);
	jsonw_key(w, "mountpoint");
	jsonw_string(w, j->mountpoint);
	jsonw_key(w, "device");
	jsonw_string(w, j->device);
	jsonw_key(w, "fs");
	jsonw_string(w, def->fstype);
	jsonw_key(w, "v");
	jsonw_object_begin(w);
	for (size_t f = 0; f < def->nfields; f++) {
		if (!(j->present & (1u << f)))
			continue;
		jsonw_key(w, def->fields[f]);
		jsonw_uint(w, j->v[f]);
	}
	jsonw_object_end(w);
	jsonw_object_end(w);
}

static void put_cgroup(struct jsonw *w, const struct cgroup_io *c)
{
	jsonw_object_begin(w);
	jsonw_key(w, "path");
	jsonw_string(w, c->path);
	if (c->have_pressure) {
		jsonw_key(w, "pressure");
		jsonw_array_begin(w);
		jsonw_uint(w, c->some_avg10_c);
		jsonw_uint(w, c->full_avg10_c);
		jsonw_uint(w, c->some_total);
		jsonw_uint(w, c->full_total);
		jsonw_array_end(w);
	}
	jsonw_key(w, "devices");
	jsonw_array_begin(w);
	for (size_t i = 0; i < c->ndevs; i++) {
		const struct cgroup_io_dev *d = &c->devs[i];
		jsonw_array_begin(w);
		jsonw_uint(w, d->major);
		jsonw_uint(w, d->minor);
		jsonw_uint(w, d->rbytes);
		jsonw_uint(w, d->wbytes);
		jsonw_uint(w, d->rios);
		jsonw_uint(w, d->wios);
		jsonw_array_end(w);
	}
	jsonw_array_end(w);
	jsonw_object_end(w);
}

int session_log_format_why(const struct snapshot *snap, struct jsonw *w)
{
	const struct why_sample *y = snap->why;
	if (!y)
		return 0;
	jsonw_object_begin(w);
	jsonw_key(w, "type");
	jsonw_string(w, "why");
	jsonw_key(w, "seq");
	jsonw_uint(w, snap->seq);
	put_dirty(w, &y->dirty);
	jsonw_key(w, "journals");
	jsonw_array_begin(w);
	for (size_t i = 0; i < y->njournals; i++)
		put_journal(w, &y->journals[i]);
	jsonw_array_end(w);
	jsonw_key(w, "cgroups");
	jsonw_object_begin(w);
	jsonw_key(w, "io");
	jsonw_string(w, cgroup_io_state_names[y->cgroup_state]);
	jsonw_key(w, "groups");
	jsonw_array_begin(w);
	for (size_t i = 0; i < y->ncgroups; i++)
		put_cgroup(w, &y->cgroups[i]);
	jsonw_array_end(w);
	jsonw_object_end(w);
	jsonw_object_end(w);
	jsonw_newline(w);
	return w->failed ? -1 : 0;
}

/* ---- reading ---- */

/* An array of exactly n unsigned integers. */
static bool u64_array(json_object *a, uint64_t *out, size_t n)
{
	if (!json_object_is_type(a, json_type_array) || json_object_array_length(a) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!json_get_u64(json_object_array_get_idx(a, i), &out[i]))
			return false;
	return true;
}

static bool copy_string(json_object *o, const char *key, char *dst, size_t len)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string) ||
	    (size_t)json_object_get_string_len(v) >= len)
		return false;
	memcpy(dst, json_object_get_string(v), (size_t)json_object_get_string_len(v) + 1);
	return true;
}

static int parse_dirty(json_object *o, struct why_dirty *d, struct error *err)
{
	json_object *a;
	memset(d, 0, sizeof *d);
	if (!json_object_object_get_ex(o, "dirty", &a))
		return 0;
	uint64_t v[1 + WD_COUNT];
	if (!u64_array(a, v, 1 + WD_COUNT))
		return error_set(err, "why: \"dirty\" is not %d counters", 1 + WD_COUNT);
	d->have = true;
	d->page_kb = v[0];
	memcpy(d->v, v + 1, sizeof d->v);
	return 0;
}

static int parse_journal(json_object *o, struct journal_raw *j, struct error *err)
{
	char fs[16];
	json_object *v;
	memset(j, 0, sizeof *j);
	if (!json_object_is_type(o, json_type_object) ||
	    !copy_string(o, "mountpoint", j->mountpoint, sizeof j->mountpoint) ||
	    !copy_string(o, "device", j->device, sizeof j->device) ||
	    !copy_string(o, "fs", fs, sizeof fs) || journal_fs_of(fs) < 0 ||
	    !json_object_object_get_ex(o, "v", &v) || !json_object_is_type(v, json_type_object))
		return error_set(err, "why: a journal without mountpoint, device, fs or v");
	j->fs = (enum journal_fs)journal_fs_of(fs);
	const struct journal_fs_def *def = &journal_fs_defs[j->fs];
	for (size_t f = 0; f < def->nfields; f++) {
		json_object *x;
		if (!json_object_object_get_ex(v, def->fields[f], &x))
			continue;   /* absent: not read */
		if (!json_get_u64(x, &j->v[f]))
			return error_set(err, "why: journal figure %s is not a counter", def->fields[f]);
		j->present |= 1u << f;
	}
	return 0;
}

static int parse_cgroup(json_object *o, struct cgroup_io *c, struct error *err)
{
	json_object *p, *devs;
	memset(c, 0, sizeof *c);
	if (!json_object_is_type(o, json_type_object) || !copy_string(o, "path", c->path, sizeof c->path))
		return error_set(err, "why: a cgroup without its path");
	if (json_object_object_get_ex(o, "pressure", &p)) {
		uint64_t v[4];
		if (!u64_array(p, v, 4) || v[0] > 10000 || v[1] > 10000)
			return error_set(err, "why: cgroup %s: bad pressure", c->path);
		c->have_pressure = true;
		c->some_avg10_c = v[0];
		c->full_avg10_c = v[1];
		c->some_total = v[2];
		c->full_total = v[3];
	}
	if (!json_object_object_get_ex(o, "devices", &devs) || !json_object_is_type(devs, json_type_array))
		return 0;
	size_t n = json_object_array_length(devs);
	for (size_t i = 0; i < n && c->ndevs < CGROUP_DEVS_MAX; i++) {
		uint64_t v[6];
		if (!u64_array(json_object_array_get_idx(devs, i), v, 6) || v[0] > UINT32_MAX ||
		    v[1] > UINT32_MAX)
			return error_set(err, "why: cgroup %s: bad device entry", c->path);
		c->devs[c->ndevs++] = (struct cgroup_io_dev){ (unsigned)v[0], (unsigned)v[1], v[2],
							      v[3], v[4], v[5] };
	}
	return 0;
}

static int parse_cgroups(json_object *o, struct why_sample *y, struct error *err)
{
	json_object *cg, *io, *groups;
	y->cgroup_state = CGROUP_IO_UNKNOWN;
	y->ncgroups = 0;
	if (!json_object_object_get_ex(o, "cgroups", &cg) || !json_object_is_type(cg, json_type_object))
		return 0;
	if (json_object_object_get_ex(cg, "io", &io) && json_object_is_type(io, json_type_string))
		for (int s = 0; s <= CGROUP_IO_OK; s++)
			if (strcmp(json_object_get_string(io), cgroup_io_state_names[s]) == 0)
				y->cgroup_state = (enum cgroup_io_state)s;
	if (!json_object_object_get_ex(cg, "groups", &groups) ||
	    !json_object_is_type(groups, json_type_array))
		return 0;
	size_t n = json_object_array_length(groups);
	for (size_t i = 0; i < n && y->ncgroups < WHY_CGROUPS_MAX; i++)
		if (parse_cgroup(json_object_array_get_idx(groups, i), &y->cgroups[y->ncgroups++], err) < 0)
			return -1;
	return 0;
}

int session_log_parse_why(json_object *o, struct snapshot *out, struct error *err)
{
	if (!out->why && !(out->why = why_sample_new()))
		return error_set(err, "out of memory");
	struct why_sample *y = out->why;
	if (parse_dirty(o, &y->dirty, err) < 0)
		return -1;
	json_object *a;
	y->njournals = 0;
	if (json_object_object_get_ex(o, "journals", &a) && json_object_is_type(a, json_type_array)) {
		size_t n = json_object_array_length(a);
		for (size_t i = 0; i < n && y->njournals < WHY_JOURNALS_MAX; i++)
			if (parse_journal(json_object_array_get_idx(a, i), &y->journals[y->njournals++],
					  err) < 0)
				return -1;
	}
	return parse_cgroups(o, y, err);
}
