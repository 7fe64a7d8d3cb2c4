/* log_spool.h - where a compressed session log is decompressed to, and the room there.
 *
 * An unlinked file in $TMPDIR (else /tmp): the replay's index reads samples at random,
 * which a compressed stream cannot give, and a week's log is gigabytes.  In memory (a
 * memfd) only where no file can be made there; a full $TMPDIR is a refusal, not a move
 * into memory.  Either way the log may grow only while its place keeps a reserve for
 * everyone else (docs/security.md, "Compressed logs").
 */
#ifndef IOSCOPE_LOG_SPOOL_H
#define IOSCOPE_LOG_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct log_spool {
	int fd;
	bool in_memory;         /* a memfd: the room is the memory available */
	char where[512];        /* the directory, or why it is memory: for messages */
};

/* Opens the place for the log of file name (compressed with codec: both for messages).
 * -1 with err: no room in $TMPDIR (ENOSPC, EDQUOT), no memfd either. */
int log_spool_open(struct log_spool *s, const char *name, const char *codec,
		   struct error *err);

/* 0 when len more bytes fit beside the reserve (5 % of a file system, at most 1 GiB; a
 * quarter of the memory), or when the room cannot be told (a tmpfs without a size);
 * otherwise -1 with err saying where, how much of the log (written) came out, the room
 * and what to do. */
int log_spool_check_room(const struct log_spool *s, const char *codec, uint64_t written,
			 size_t len, struct error *err);

#endif
