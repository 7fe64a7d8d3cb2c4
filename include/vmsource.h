/* vmsource.h - system-wide figures: /proc/stat, /proc/vmstat, /proc/meminfo
 * (our readers; libproc2 as the reference they are tested against) and
 * /proc/pressure/io.
 */
#ifndef IOSCOPE_VMSOURCE_H
#define IOSCOPE_VMSOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "procfile.h"
#include "snapshot.h"

struct stat_info;
struct vmstat_info;
struct meminfo_info;
struct libproc2;

struct vm_reader {
	bool libproc2;                 /* false: our own readers (fixture trees) */
	struct libproc2 *lib;          /* libproc2's functions, opened by vm_reader_open */
	struct stat_info *stat;
	struct vmstat_info *vmstat;
	struct meminfo_info *meminfo;
	struct procfile stat_file, vmstat_file, meminfo_file, psi_file;
};

/* root NULL: the live /proc; with use_libproc2 the three counter files go
 * through libproc2 (_select, which re-reads on every call; the library is
 * opened here, and when it cannot be, our readers are used), else through our
 * own readers, which are the only choice under a root prefix.  A file that is
 * absent is not an error: its have_* flag stays false.  -1 when libproc2
 * cannot be set up. */
int vm_reader_open(struct vm_reader *r, const char *root, bool use_libproc2, struct error *err);
/* Fill *out (every field replaced). */
void vm_reader_read(struct vm_reader *r, struct vm_counters *out);
void vm_reader_close(struct vm_reader *r);

/* Our own parsers; each fills its part of *out and sets its have_* flag when
 * the file held what it must (cpu line; pgpgin+pgpgout; MemFree; some+full). */
void vm_parse_stat(const char *buf, size_t len, struct vm_counters *out);
void vm_parse_vmstat(const char *buf, size_t len, struct vm_counters *out);
void vm_parse_meminfo(const char *buf, size_t len, struct vm_counters *out);
void vm_parse_psi(const char *buf, size_t len, struct vm_counters *out);

#endif
