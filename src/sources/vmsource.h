/* vmsource.h - system-wide figures: /proc/stat, /proc/vmstat, /proc/meminfo
 * and /proc/pressure/io, read by our own readers (tests/unit/libproc2_ref.h holds
 * the reference they are tested against).
 */
#ifndef IOSCOPE_VMSOURCE_H
#define IOSCOPE_VMSOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "procfile.h"
#include "snapshot.h"

struct vm_reader {
	struct procfile stat_file, vmstat_file, meminfo_file, psi_file;
};

/* root NULL or "": the live /proc, else a fixture tree's.  A file that is absent is
 * not an error: its have_* flag stays false. */
void vm_reader_open(struct vm_reader *r, const char *root);
/* Fill *out (every field replaced). */
void vm_reader_read(struct vm_reader *r, struct vm_counters *out);
void vm_reader_close(struct vm_reader *r);

/* Our own parsers; each fills its part of *out and sets its have_* flag when
 * the file held what it must (cpu line; pgpgin+pgpgout; MemFree; some+full). */
void vm_parse_stat(const char *buf, size_t len, struct vm_counters *out);
void vm_parse_vmstat(const char *buf, size_t len, struct vm_counters *out);
void vm_parse_meminfo(const char *buf, size_t len, struct vm_counters *out);
/* The kB of the /proc/meminfo lines keys[i].key into *keys[i].kb (0 when absent); seen
 * (NULL: not wanted) says whether the line was there.  vm_parse_meminfo's, and the
 * machine's memory's (system_info.h). */
struct vm_meminfo_key {
	const char *key;
	uint64_t *kb;
	bool *seen;
};
void vm_parse_meminfo_keys(const char *buf, size_t len, const struct vm_meminfo_key *keys,
			   size_t nkeys);
void vm_parse_psi(const char *buf, size_t len, struct vm_counters *out);

#endif
