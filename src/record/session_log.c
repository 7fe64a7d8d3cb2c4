/* session_log.c - what writing and reading a session log share: record types,
 * times in nanoseconds, and the field order of the arrays in a sample record. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "session_log.h"
#include "tasks.h"
#include "why.h"

static const char *const record_names[] = {
	[RECORD_HEADER] = "header", [RECORD_DEVICES] = "devices", [RECORD_MOUNTS] = "mounts",
	[RECORD_SAMPLE] = "sample", [RECORD_EVENT] = "event",   [RECORD_TASKS] = "tasks",
	[RECORD_WHY] = "why",       [RECORD_PROBE] = "probe",
	[RECORD_TRACE] = "trace",   [RECORD_ANNOUNCED] = "announced",
	[RECORD_UNKNOWN] = "unknown",
};

const char *session_record_name(enum session_record type)
{
	return (unsigned)type <= RECORD_UNKNOWN ? record_names[type] : "unknown";
}

int session_record_type(json_object *o)
{
	json_object *t;
	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "type", &t) ||
	    !json_object_is_type(t, json_type_string))
		return -1;
	const char *name = json_object_get_string(t);
	for (int i = 0; i < RECORD_UNKNOWN; i++)
		if (strcmp(name, record_names[i]) == 0)
			return i;
	return RECORD_UNKNOWN;
}

/* ---- records with more of the sample before them (docs/session-log.md) ---- */

static int parse_tasks(json_object *o, struct snapshot *out, struct error *err)
{
	return session_log_parse_tasks(o, &out->tasks, err);
}

static void clear_tasks(struct snapshot *s)
{
	tasks_sample_free(s->tasks);
	s->tasks = NULL;
}

static int format_probe(const struct snapshot *snap, struct jsonw *w)
{
	return snap->probe ? session_log_format_probe(snap, w) : 0;
}

static int parse_probe(json_object *o, struct snapshot *out, struct error *err)
{
	if (!out->probe && !(out->probe = calloc(1, sizeof *out->probe)))
		return error_set(err, "out of memory");
	return session_log_parse_probe(o, out->probe, err);
}

static void clear_probe(struct snapshot *s)
{
	if (s->probe)
		probe_samples_free(s->probe);
	free(s->probe);
	s->probe = NULL;
}

static void clear_trace(struct snapshot *s)
{
	snapshot_set_trace(s, NULL);
}

static void clear_why(struct snapshot *s)
{
	free(s->why);
	s->why = NULL;
}

/* One row per record type: written after the sample line in this order, read back by
 * the replay (src/record/replay.c) only when its sample is. */
static const struct sample_record {
	enum session_record type;
	int (*format)(const struct snapshot *snap, struct jsonw *w);   /* nothing when absent */
	int (*parse)(json_object *o, struct snapshot *out, struct error *err);
	void (*clear)(struct snapshot *s);   /* what a damaged record leaves: none of it */
} sample_records[] = {
	{ RECORD_TASKS, session_log_format_tasks, parse_tasks, clear_tasks },
	{ RECORD_WHY, session_log_format_why, session_log_parse_why, clear_why },
	{ RECORD_PROBE, format_probe, parse_probe, clear_probe },
	{ RECORD_TRACE, session_log_format_trace, session_log_parse_trace, clear_trace },
};
#define NSAMPLE_RECORDS (sizeof sample_records / sizeof sample_records[0])

static const struct sample_record *sample_record(enum session_record type)
{
	for (size_t i = 0; i < NSAMPLE_RECORDS; i++)
		if (sample_records[i].type == type)
			return &sample_records[i];
	return NULL;
}

bool session_record_attaches(enum session_record type)
{
	return sample_record(type) != NULL;
}

int session_log_format_attached(const struct snapshot *snap, struct jsonw *w)
{
	for (size_t i = 0; i < NSAMPLE_RECORDS; i++)
		if (sample_records[i].format(snap, w) < 0)
			return -1;
	return 0;
}

int session_log_parse_attached(enum session_record type, json_object *o, struct snapshot *out,
			       struct error *err)
{
	const struct sample_record *rec = sample_record(type);
	if (!rec)
		return error_set(err, "not a record of a sample");
	if (rec->parse(o, out, err) == 0)
		return 0;
	rec->clear(out);
	return -1;
}

const char *session_record_type_name(json_object *o)
{
	json_object *t;
	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "type", &t) ||
	    !json_object_is_type(t, json_type_string))
		return "";
	return json_object_get_string(t);
}

int64_t timespec_to_ns(const struct timespec *t)
{
	const int64_t limit = INT64_MAX / 1000000000 - 1;
	int64_t sec = t->tv_sec > limit ? limit : t->tv_sec < -limit ? -limit : t->tv_sec;
	return sec * 1000000000 + t->tv_nsec;
}

struct timespec ns_to_timespec(int64_t ns)
{
	int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
	if (nsec < 0) {
		nsec += 1000000000;
		sec--;
	}
	return (struct timespec){ .tv_sec = (time_t)sec, .tv_nsec = (long)nsec };
}

/* ---- the field orders of the arrays in a sample record ---- */

#define C(f) offsetof(struct disk_counters, f)
/* /proc/diskstats order, from field 4 on. */
const size_t session_counter_fields[SESSION_NCOUNTERS] = {
	C(rd_ios), C(rd_merges), C(rd_sectors), C(rd_ticks), C(wr_ios), C(wr_merges), C(wr_sectors),
	C(wr_ticks), C(in_flight), C(io_ticks), C(time_in_queue), C(dc_ios), C(dc_merges),
	C(dc_sectors), C(dc_ticks), C(fl_ios), C(fl_ticks),
};

#define V(f) offsetof(struct vm_counters, f)
static const size_t stat_fields[] = {
	V(cpu_user), V(cpu_nice), V(cpu_system), V(cpu_idle), V(cpu_iowait), V(cpu_irq),
	V(cpu_softirq), V(cpu_steal), V(cpu_guest), V(cpu_guest_nice), V(intr), V(ctxt),
	V(procs_running), V(procs_blocked),
};
static const size_t vmstat_fields[] = { V(pgpgin), V(pgpgout), V(pswpin), V(pswpout) };
static const size_t meminfo_fields[] = {
	V(mem_free), V(buffers), V(cached), V(sreclaimable), V(swap_total), V(swap_free), V(dirty),
	V(writeback),
};

const struct session_u64_group session_vm_groups[SESSION_NVM_GROUPS] = {
	{ "stat", V(have_stat), stat_fields, sizeof stat_fields / sizeof stat_fields[0] },
	{ "vmstat", V(have_vmstat), vmstat_fields, sizeof vmstat_fields / sizeof vmstat_fields[0] },
	{ "meminfo", V(have_meminfo), meminfo_fields, sizeof meminfo_fields / sizeof meminfo_fields[0] },
};
