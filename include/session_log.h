/* session_log.h - the records of a session log (docs/session-log.md) as json-c
 * objects: built by the recorder, parsed back by replay.  Both directions live in
 * one module so that what is written and what is read cannot drift apart.
 */
#ifndef IOSCOPE_SESSION_LOG_H
#define IOSCOPE_SESSION_LOG_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "events.h"
#include "jsonw.h"
#include "replay.h"
#include "snapshot.h"

enum session_record {
	RECORD_HEADER, RECORD_DEVICES, RECORD_MOUNTS, RECORD_SAMPLE, RECORD_EVENT,
	/* more of the sample before them (session_log.c's sample_records[]) */
	RECORD_TASKS,     /* blocked tasks and per-process I/O (tasks.h) */
	RECORD_WHY,       /* dirty limits, journals, cgroups (why.h) */
	RECORD_PROBE,     /* the responsiveness probe's samples (probe.h) */
	RECORD_TRACE,     /* the eBPF block-layer view's interval (trace.h) */
	/* a change ioscope announced as about to be made, or withdrew: what the session
	 * held observations for (expect.h), so that a replay holds them too */
	RECORD_ANNOUNCED,
	RECORD_UNKNOWN,   /* a JSON object of a type this version does not know: skipped */
};

/* The "type" of a parsed record; -1 when o is not an object with a string "type". */
int session_record_type(json_object *o);
/* The "type" string as written ("" when none): names unknown types for --verbose. */
const char *session_record_type_name(json_object *o);
const char *session_record_name(enum session_record type);
/* Whether records of this type carry more of the sample before them (tasks, why...). */
bool session_record_attaches(enum session_record type);
/* Every such record of snap, each a line, appended to w after its sample; -1 ENOMEM. */
int session_log_format_attached(const struct snapshot *snap, struct jsonw *w);
/* Such a record into out; -1 when malformed (err set), out then has none of its data. */
int session_log_parse_attached(enum session_record type, json_object *o, struct snapshot *out,
			       struct error *err);

/* The arrays of a sample record: a device's "c" holds these disk_counters fields
 * (diskstats order); "vm" holds one array per group, present when its flag is. */
#define SESSION_NCOUNTERS 17
extern const size_t session_counter_fields[SESSION_NCOUNTERS];
struct session_u64_group {
	const char *key;        /* "stat", "vmstat", "meminfo" */
	size_t flag;            /* offset of the have_* bool in struct vm_counters */
	const size_t *fields;   /* offsets of the uint64_t fields */
	size_t n;
};
#define SESSION_NVM_GROUPS 3
extern const struct session_u64_group session_vm_groups[SESSION_NVM_GROUPS];
static inline uint64_t *session_u64_at(void *base, size_t offset)
{
	return (uint64_t *)((char *)base + offset);
}

/* Nanoseconds since the epoch (or boot), how the log stores every time. */
int64_t timespec_to_ns(const struct timespec *t);
struct timespec ns_to_timespec(int64_t ns);

/* ---- writing: each returns a new object (NULL on ENOMEM) ---- */
json_object *session_log_header(const struct replay_machine *m, const struct snapshot *snap);
json_object *session_log_devices(const struct snapshot *snap);
json_object *session_log_mounts(const struct snapshot *snap);
/* Append the sample record, one line with its newline, to w.  Written with the
 * streaming writer rather than json-c objects: this runs every sample, the others
 * rarely.  -1 on ENOMEM. */
int session_log_format_sample(const struct snapshot *snap, struct jsonw *w);
/* The probe record that follows a sample with snap->probe (docs/session-log.md). */
int session_log_format_probe(const struct snapshot *snap, struct jsonw *w);
json_object *session_log_event(const struct event *ev, uint64_t seq);
/* An announced change: the event record under type "announced", with "withdrawn": true
 * when its job ended without it. */
json_object *session_log_announced(const struct event *ev, uint64_t seq, bool withdrawn);
/* An announcement (announce.h) is one event record: this codec writes and reads it. */
extern const struct announce_codec session_log_announce_codec;
/* Append the `tasks` record of snap (nothing when snap->tasks is NULL), one line, to w;
 * -1 on ENOMEM (session_log_tasks.c). */
int session_log_format_tasks(const struct snapshot *snap, struct jsonw *w);
/* Append the sample's `why` record (nothing when it has none) to w. */
int session_log_format_why(const struct snapshot *snap, struct jsonw *w);
/* The `trace` record of a traced snapshot, appended like the sample (nothing when the
 * snapshot is not traced).  -1 on ENOMEM. */
int session_log_format_trace(const struct snapshot *snap, struct jsonw *w);
/* A scheduler event's resets: {"nr_requests": ["64", "256"], "iosched.x": ["1", null]},
 * null for a setting absent before (new) or after (gone). */
json_object *session_log_resets(const struct event *ev);

/* What a devices / mounts record would hold is the same in a and b. */
bool session_devices_equal(const struct snapshot *a, const struct snapshot *b);
bool session_mounts_equal(const struct snapshot *a, const struct snapshot *b);

/* ---- reading: -1 with err set to what is wrong (the caller adds line/offset) ---- */
/* A probe record into *out (its old values replaced). */
struct probe_samples;
int session_log_parse_probe(json_object *o, struct probe_samples *out, struct error *err);
/* A whole line as one JSON value, nothing but blanks after it; NULL (err) when not. */
json_object *session_log_parse_line(json_tokener *tok, const char *text, size_t len,
				    struct error *err);
/* Line 1, the next line s gives (a fresh scanner), parsed as the log's header into *m
 * and *state (session_log_parse_header), *line its place.  -1 with err naming name and
 * why the file is not a session log this version reads (src/record/session_log_header.c):
 * empty, a first line over 1 MiB, torn, not JSON, not a header, a newer version. */
struct line_scanner;
struct scanned_line;
int session_log_read_header(struct line_scanner *s, json_tokener *tok, const char *name,
			    struct replay_machine *m, struct snapshot *state,
			    struct scanned_line *line, struct error *err);
/* The same check on the file open at fd (read with pread from offset 0): 0 when it
 * begins with a header this version reads. */
int session_log_check_header(int fd, const char *name, struct error *err);
/* Checks format and version, fills *m and the device list and mounts of *state. */
int session_log_parse_header(json_object *o, struct replay_machine *m, struct snapshot *state,
			     struct error *err);
/* Replace the device list (identity and settings) / the mounts of *state. */
int session_log_parse_devices(json_object *o, struct snapshot *state, struct error *err);
int session_log_parse_mounts(json_object *o, struct snapshot *state, struct error *err);
/* Times only (the index): mono and wall in ns. */
int session_log_parse_sample_times(json_object *o, int64_t *mono, int64_t *wall, struct error *err);
/* A whole sample: the devices named in the record, in its order, take identity and
 * settings from devices (the device list in force); mounts are copied from mounts. */
int session_log_parse_sample(json_object *o, const struct snapshot *devices,
			     const struct snapshot *mounts, struct snapshot *out, struct error *err);
/* A `why` record into out->why (allocated when NULL). */
int session_log_parse_why(json_object *o, struct snapshot *out, struct error *err);
/* A `trace` record into out->trace (replacing it). */
int session_log_parse_trace(json_object *o, struct snapshot *out, struct error *err);
/* 0, -1 when malformed (err set), or 1 for an event kind this version does not know
 * (err holds the kind's name): readers skip it silently.  *ev is overwritten and,
 * whatever the result, the caller's to event_free(). */
int session_log_parse_event(json_object *o, struct event *ev, struct error *err);
/* A `tasks` record into a new *out (the old one freed); -1 when malformed (err set). */
int session_log_parse_tasks(json_object *o, struct tasks_sample **out, struct error *err);

#endif
