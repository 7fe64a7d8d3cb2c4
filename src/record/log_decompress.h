/* log_decompress.h - session logs compressed with gzip, xz or zstd, opened as they are.
 *
 * docs/session-log.md tells users to compress old logs (they shrink to 3-5 %); a
 * report, a compare or a replay of one should not need a manual step first.  The
 * kind is told by the file's magic bytes, not its name.  The log is decompressed
 * once into an unlinked temporary file (src/record/log_spool.h), because replay reads
 * samples at random through its index.  zlib, liblzma and libzstd are opened only
 * here, when such a file is met (include/dynlib.h).
 *
 * A file does not expand past the limits (src/record/log_limits.h) nor into the room its
 * place keeps for others, both checked as it grows; and as soon as line 1 is out, it must
 * be a session-log header (session_log_check_header), so that no other data expand.
 */
#ifndef IOSCOPE_LOG_DECOMPRESS_H
#define IOSCOPE_LOG_DECOMPRESS_H

#include <stddef.h>

#include "error.h"
#include "log_limits.h"

/* The compression of the file open at fd ("gzip", "xz", "zstd"), or NULL: none
 * (also when fd cannot be read or holds less than a magic number). */
const char *log_compression(int fd);

/* fd itself when the file is not compressed; otherwise a new descriptor of the
 * decompressed log (the caller closes both).  Damage or an early end after some
 * of the log came out is not fatal: what came out is kept, and warning (size
 * warning_len) says what happened; it is "" otherwise.  -1 with err naming the
 * file: a library missing, nothing readable, no room for the temporary file, more
 * than limits allow, a first line that is not a session-log header. */
int log_decompress(int fd, const char *name, const struct log_limits *limits, char *warning,
		   size_t warning_len, struct error *err);

#endif
