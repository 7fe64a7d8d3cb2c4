/* system_info.h - the machine's memory (/proc/meminfo) and CPU model (/proc/cpuinfo), read
 * by src/sources for the layers above: a session log's header (machine.h), the room a
 * decompressed log may take in memory (log_spool.h).  The sampler's figures of the same
 * /proc/meminfo are vmsource.h's, parsed by the same code (vm.c).
 */
#ifndef IOSCOPE_SYSTEM_INFO_H
#define IOSCOPE_SYSTEM_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct system_memory {
	bool have_total, have_available;   /* the lines were there */
	uint64_t total_kb;                 /* MemTotal */
	uint64_t available_kb;             /* MemAvailable (kernel 3.14 and later) */
};

/* The running kernel's /proc/meminfo: 0, or -1 when it cannot be read. */
int system_memory_read(struct system_memory *out);
/* The text of a /proc/meminfo into *out (every field replaced). */
void system_memory_parse(const char *text, size_t len, struct system_memory *out);

/* The running machine's CPU model ("Intel(R) Xeon(R) ...", "ARMv7 Processor rev 4 (v7l)")
 * into out; "" when /proc/cpuinfo cannot be read or says none. */
void system_cpu_model(char *out, size_t len);
/* The same from the text of a /proc/cpuinfo: the value of the first line whose key is
 * "model name", else "Hardware", "cpu model", "cpu", "Processor" (architectures name it
 * differently); "" when none is there. */
void system_parse_cpu_model(const char *text, size_t len, char *out, size_t outlen);

#endif
