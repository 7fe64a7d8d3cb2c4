/* line_scanner.c - the lines of a file, read in large chunks with pread.
 *
 * Indexing a day-long session log means looking at every line once; reading it
 * through stdio or line by line would cost more than the look itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "line_scanner.h"

#define CHUNK (256u << 10)

void line_scanner_init(struct line_scanner *s, int fd)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
}

void line_scanner_free(struct line_scanner *s)
{
	free(s->buf);
	s->buf = NULL;
}

/* Reads more after what the buffer holds, moving the unread part to the front and
 * growing the buffer when a line does not fit.  0 at end of file. */
static int fill(struct line_scanner *s, int *errnum)
{
	if (s->start > 0) {
		memmove(s->buf, s->buf + s->start, s->end - s->start);
		s->base += s->start;
		s->end -= s->start;
		s->start = 0;
	}
	if (grow_array(&s->buf, &s->cap, s->end + 1, 1, CHUNK, NULL) < 0) {
		*errnum = errno;
		return -1;
	}
	for (;;) {
		ssize_t n = pread(s->fd, s->buf + s->end, s->cap - s->end, (off_t)(s->base + s->end));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*errnum = errno;
			return -1;
		}
		s->end += (size_t)n;
		return n > 0;
	}
}

/* Drops the rest of an over-long line, up to and including its newline. */
static int skip_line(struct line_scanner *s, int *errnum)
{
	for (;;) {
		char *nl = memchr(s->buf + s->start, '\n', s->end - s->start);
		if (nl) {
			s->start = (size_t)(nl - s->buf) + 1;
			return 1;
		}
		s->start = s->end;
		int r = fill(s, errnum);
		if (r <= 0)
			return r;
	}
}

int line_scanner_next(struct line_scanner *s, struct scanned_line *line, int *errnum)
{
	for (;;) {
		char *p = s->buf ? s->buf + s->start : NULL;
		char *nl = p ? memchr(p, '\n', s->end - s->start) : NULL;
		if (nl || (s->eof && s->start < s->end)) {
			line->text = p;
			line->len = nl ? (size_t)(nl - p) : s->end - s->start;
			line->offset = s->base + s->start;
			line->number = ++s->lines;
			line->complete = nl != NULL;
			line->too_long = false;
			s->start = nl ? (size_t)(nl - s->buf) + 1 : s->end;
			return 1;
		}
		if (s->eof)
			return 0;
		if (s->end - s->start >= LINE_SCANNER_MAX) {
			line->text = NULL;
			line->len = 0;
			line->offset = s->base + s->start;
			line->number = ++s->lines;
			line->complete = true;
			line->too_long = true;
			int r = skip_line(s, errnum);
			if (r < 0)
				return -1;
			s->eof = r == 0;
			return 1;
		}
		int r = fill(s, errnum);
		if (r < 0)
			return -1;
		s->eof = r == 0;
	}
}
