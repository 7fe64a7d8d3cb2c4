/* test_chunk_stream.c - what is written to a chunk stream comes out whole and in order, across
 * its 2 MiB chunks, and an empty one writes nothing. */
#include "unit.h"

#include <string.h>

#include "chunk_stream.h"

static void test_across_chunks(void **state)
{
	(void)state;
	struct chunk_stream cs;
	FILE *fp = chunk_stream_open(&cs);
	assert_non_null(fp);
	char *want = NULL;
	size_t want_len = 0;
	FILE *ref = open_memstream(&want, &want_len);
	assert_non_null(ref);
	for (int i = 0; i < 300000; i++) {   /* ~5 MB: three chunks, lines across their edges */
		fprintf(fp, "%06d %-*s|\n", i, i % 37, "x");
		fprintf(ref, "%06d %-*s|\n", i, i % 37, "x");
	}
	fclose(ref);
	char *got = NULL;
	size_t got_len = 0;
	FILE *out = open_memstream(&got, &got_len);
	assert_non_null(out);
	assert_int_equal(chunk_stream_write(&cs, out), 0);
	fclose(out);
	assert_true(want_len > 4u << 20);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
	chunk_stream_free(&cs);
	free(got);
	free(want);
}

static void test_empty(void **state)
{
	(void)state;
	struct chunk_stream cs;
	assert_non_null(chunk_stream_open(&cs));
	char *got = NULL;
	size_t got_len = 0;
	FILE *out = open_memstream(&got, &got_len);
	assert_int_equal(chunk_stream_write(&cs, out), 0);
	fclose(out);
	assert_int_equal(got_len, 0);
	chunk_stream_free(&cs);
	free(got);
	struct chunk_stream never_written;
	assert_non_null(chunk_stream_open(&never_written));
	chunk_stream_free(&never_written);   /* closed without being read */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_across_chunks),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
