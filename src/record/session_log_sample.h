/* session_log_sample.h - what the two readers of a sample record share: the JSON
 * reader (session_log_read.c) and the scanner of the recorder's own lines
 * (session_log_scan.c).  Whatever either reads goes through these, so a sample
 * reads the same both ways.  Internal to src/record.
 */
#ifndef IOSCOPE_SESSION_LOG_SAMPLE_H
#define IOSCOPE_SESSION_LOG_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "session_log.h"
#include "snapshot.h"

/* A device entry of a sample record, as read. */
struct sample_device_fields {
	const char *name;
	int64_t nf;                      /* "nf" (-1: missing or not an integer) */
	int64_t inst;                    /* "inst", 0 when absent (-1: not an integer) */
	uint64_t c[SESSION_NCOUNTERS];   /* "c", the missing tail 0 */
	bool has_inflight;
	int64_t inflight[2];
};

/* Into *d (identity and settings from the device list in force; index is where the
 * device usually is in it).  -1 with err set when the entry does not fit the list. */
int session_log_sample_device(const struct sample_device_fields *f, size_t index,
			      const struct snapshot *devices, struct device *d, struct error *err);
/* The PSI averages read are shares of time; sets have_psi when they are. */
int session_log_check_psi(struct vm_counters *vm, struct error *err);
/* The mounts in force into a sample being read. */
int session_log_sample_mounts(struct snapshot *out, const struct snapshot *mounts, struct error *err);

/* A sample line in exactly the shape session_log_format_sample writes, read
 * without a JSON parser: 1 read into *out (replacing it), 0 not that shape or not
 * valid (the JSON reader is to judge it, and say what is wrong), -1 out of memory. */
int session_log_scan_sample(const char *line, size_t len, const struct snapshot *devices,
			    const struct snapshot *mounts, struct snapshot *out, struct error *err);

#endif
