/* chunk_stream.c - text kept in chunks that are never moved (chunk_stream.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "chunk_stream.h"
#include "grow.h"

#define CHUNK (2u << 20)   /* a transparent huge page */

static char *new_chunk(void)
{
	char *c = aligned_alloc(CHUNK, CHUNK);
	/* as one huge page where the kernel has them (madvise mode): a hint, no more */
	if (c)
		madvise(c, CHUNK, MADV_HUGEPAGE);
	return c;
}

static ssize_t chunk_write(void *cookie, const char *buf, size_t size)
{
	struct chunk_stream *cs = cookie;
	size_t done = 0;
	while (done < size) {
		if (!cs->nchunks || cs->used == CHUNK) {
			char *c = NULL;
			if (grow_array(&cs->chunks, &cs->cap, cs->nchunks + 1, sizeof *cs->chunks, 8,
				       NULL) < 0 ||
			    !(c = new_chunk())) {
				cs->error = ENOMEM;
				errno = ENOMEM;
				return done ? (ssize_t)done : -1;
			}
			cs->chunks[cs->nchunks++] = c;
			cs->used = 0;
		}
		size_t n = size - done < CHUNK - cs->used ? size - done : CHUNK - cs->used;
		memcpy(cs->chunks[cs->nchunks - 1] + cs->used, buf + done, n);
		cs->used += n;
		done += n;
	}
	return (ssize_t)size;
}

FILE *chunk_stream_open(struct chunk_stream *cs)
{
	memset(cs, 0, sizeof *cs);
	cookie_io_functions_t io = { .write = chunk_write };
	cs->fp = fopencookie(cs, "w", io);
	return cs->fp;
}

int chunk_stream_write(struct chunk_stream *cs, FILE *out)
{
	if (cs->fp)
		fclose(cs->fp);   /* its buffer's last bytes are written to the chunks */
	cs->fp = NULL;
	for (size_t i = 0; i < cs->nchunks; i++)
		fwrite(cs->chunks[i], 1, i + 1 == cs->nchunks ? cs->used : CHUNK, out);
	return cs->error ? -1 : 0;
}

void chunk_stream_free(struct chunk_stream *cs)
{
	if (cs->fp)
		fclose(cs->fp);
	for (size_t i = 0; i < cs->nchunks; i++)
		free(cs->chunks[i]);
	free(cs->chunks);
	memset(cs, 0, sizeof *cs);
}
