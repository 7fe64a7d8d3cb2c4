/* fuzz_log_decompress.c - the decompressor of compressed session logs on arbitrary bytes,
 * under limits small enough to be met (1 MiB, 64 times the input): what comes out never
 * passes them, and a decompressed log whose first line is whole begins with a header.
 * Seeds (tests/fuzz/corpus/log_decompress/): a log in each format, a bomb behind a real
 * header, data that are not a log, a torn file, a zstd --long=31 frame. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log_decompress.h"
#include "session_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Line 1 of the file at fd is whole (a newline within the first 1 MiB). */
static int first_line_whole(int fd)
{
	static char head[1 << 20];
	ssize_t n = pread(fd, head, sizeof head, 0);
	return n > 0 && memchr(head, '\n', (size_t)n) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct log_limits limits = { .max_bytes = 1u << 20, .max_ratio = 64 };
	int fd = memfd_create("compressed", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char warning[1024];
	struct error err;
	int out = log_decompress(fd, "fuzz.log", &limits, warning, sizeof warning, &err);
	if (out >= 0 && out != fd) {
		struct stat st;
		if (fstat(out, &st) < 0 || (uint64_t)st.st_size > log_limits_cap(&limits, size))
			abort();
		if (first_line_whole(out) && session_log_check_header(out, "fuzz.log", &err) < 0)
			abort();
		close(out);
	}
	close(fd);
	return 0;
}
