/* log_limits.h - how far a compressed session log may expand (docs/security.md).
 *
 * A 67 KB zstd file expands to 2 GiB of zeros; behind a real header line it used to be
 * written out whole and reported.  Session logs compress 20 to 50 times (a measured
 * recording: 46 with xz -9 and zstd -19), so a file that expands far more is refused
 * before it fills a disk or, in a memfd, the memory.  Two limits, both named in the
 * refusal and both raised through the environment: a fixed size, and a ratio to the
 * compressed file's size.
 */
#ifndef IOSCOPE_LOG_LIMITS_H
#define IOSCOPE_LOG_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct log_limits {
	uint64_t max_bytes;   /* the decompressed log never grows past this... */
	uint64_t max_ratio;   /* ...nor past this many times the compressed file */
};

#define LOG_LIMIT_BYTES_DEFAULT (16ull << 30)
#define LOG_LIMIT_RATIO_DEFAULT 1000u
#define LOG_LIMIT_BYTES_ENV "IOSCOPE_DECOMPRESS_MAX"
#define LOG_LIMIT_RATIO_ENV "IOSCOPE_DECOMPRESS_RATIO"

/* The defaults, replaced by the environment's values (read with secure_getenv: a set-id
 * ioscope keeps the defaults).  -1 with err naming the variable when a value is not a
 * size (a whole number of bytes, or with K, M, G or T: binary units) or a ratio. */
int log_limits_from_env(struct log_limits *lim, struct error *err);

/* The most a file of compressed_size bytes may expand to under lim. */
uint64_t log_limits_cap(const struct log_limits *lim, uint64_t compressed_size);

/* "16 GiB", "1.5 MiB", "67 KiB", "512 bytes": sizes as the messages give them. */
void log_size_format(uint64_t bytes, char *buf, size_t len);

/* "1048576", "64K", "1M", "16G", "1T" (or "64KiB"...: binary units); 0 and values that
 * do not fit 64 bits are refused.  0 or -1. */
int log_size_parse(const char *text, uint64_t *bytes);

#endif
