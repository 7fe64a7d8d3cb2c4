/* chunk_stream.h - a FILE * that keeps what is written to it in memory, for text that must
 * wait for what is printed before it (a report's per-interval tables, written during the walk
 * that computes the phases printed first).
 *
 * open_memstream keeps one buffer and grows it by allocating twice the size, zeroing the new
 * half and copying the old: a day's tables (60 MB) cost 32,000 first touches of a page,
 * ~7 µs each on a VM, and as much copying.  This one appends to chunks of 2 MiB that are
 * never moved, asked of the kernel as transparent huge pages where it gives them (a fault a
 * chunk, not 512).
 */
#ifndef IOSCOPE_CHUNK_STREAM_H
#define IOSCOPE_CHUNK_STREAM_H

#include <stddef.h>
#include <stdio.h>

struct chunk_stream {
	char **chunks;
	size_t nchunks, cap;
	size_t used;          /* bytes in the last chunk */
	FILE *fp;             /* what is written to, until chunk_stream_write */
	int error;            /* errno of a failed allocation: the write failed */
};

/* NULL with errno set when the stream cannot be made. */
FILE *chunk_stream_open(struct chunk_stream *cs);
/* Close the stream and copy all it holds to out (out's errors are out's: ferror): 0, or -1
 * when an allocation failed while it was written to (what it holds is then cut). */
int chunk_stream_write(struct chunk_stream *cs, FILE *out);
/* Free it (closing the stream when still open). */
void chunk_stream_free(struct chunk_stream *cs);

#endif
