/* session_log.c - what writing and reading a session log share: record types,
 * times in nanoseconds, and the field order of the arrays in a sample record. */
#include <stddef.h>
#include <string.h>

#include "session_log.h"

static const char *const record_names[] = {
	[RECORD_HEADER] = "header", [RECORD_DEVICES] = "devices", [RECORD_MOUNTS] = "mounts",
	[RECORD_SAMPLE] = "sample", [RECORD_EVENT] = "event",   [RECORD_TASKS] = "tasks",
	[RECORD_WHY] = "why",
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
