/* replay_main.c - runs a fuzz target once over each file named on its command line, for
 * the regression pass of `make check`: what fuzzing once found stays fixed.
 *
 * Linked with the same ASan+UBSan library the unit suites use (gcc), not with libFuzzer:
 * a pass over a corpus needs no coverage instrumentation, and the library is then built
 * once for every test instead of twice (`make fuzz`, which searches for new inputs, still
 * builds the libFuzzer targets with clang).  A sanitizer report ends the process with a
 * non-zero status, as libFuzzer's would. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The whole of path (a corpus file) in a buffer of exactly its size, so that a read past
 * the end is the sanitizer's to see; NULL with errno. */
static uint8_t *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat st;
	uint8_t *buf = NULL;
	if (fstat(fileno(f), &st) == 0 && (buf = malloc(st.st_size ? (size_t)st.st_size : 1))) {
		*size = fread(buf, 1, (size_t)st.st_size, f);
		if (*size != (size_t)st.st_size) {
			free(buf);
			buf = NULL;
			errno = EIO;
		}
	}
	int err = errno;
	fclose(f);
	errno = err;
	return buf;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t size = 0;
		uint8_t *data = read_whole(argv[i], &size);
		if (!data) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i], strerror(errno));
			return 1;
		}
		LLVMFuzzerTestOneInput(data, size);
		free(data);
	}
	printf("%d inputs run\n", argc - 1);
	return 0;
}
