/* line_scanner.h - reading a file line by line in large chunks (session-log index). */
#ifndef IOSCOPE_LINE_SCANNER_H
#define IOSCOPE_LINE_SCANNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Lines longer than this are skipped, not buffered: a sample of 4096 devices is under
 * 0.5 MiB, and the JSON parser holds ~35 times a line's size (a crafted 62 MB line took
 * 2.2 GB). */
#define LINE_SCANNER_MAX (1u << 20)

struct scanned_line {
	const char *text;     /* not NUL-terminated; valid until the next call */
	size_t len;           /* without the newline */
	uint64_t offset;      /* of the first byte in the file */
	uint64_t number;      /* 1-based */
	bool complete;        /* ended by a newline (false: the file's torn last line) */
	bool too_long;        /* longer than LINE_SCANNER_MAX: text NULL, skipped */
};

struct line_scanner {
	int fd;
	char *buf;
	size_t cap, start, end;   /* buf[start..end) is read, not yet returned */
	uint64_t base;            /* file offset of buf[0] */
	uint64_t lines;
	bool eof;
};

void line_scanner_init(struct line_scanner *s, int fd);
void line_scanner_free(struct line_scanner *s);
/* 1: *line filled; 0: end of file; -1: read error (*errnum set). */
int line_scanner_next(struct line_scanner *s, struct scanned_line *line, int *errnum);

#endif
