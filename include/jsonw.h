/* jsonw.h - a streaming JSON writer for the per-sample hot path.
 *
 * json-c builds a tree of heap objects and hashes every key; at ioscope's rates
 * (hundreds of numbers per sample, up to 100 samples a second) that alone cost
 * more than reading every file of the sample (docs/performance.md).  This writer
 * appends straight into one reused buffer.  Reading JSON stays with json-c.
 */
#ifndef IOSCOPE_JSONW_H
#define IOSCOPE_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSONW_DEPTH 16

struct jsonw {
	char *buf;
	size_t len, cap;
	int depth;
	bool need_comma[JSONW_DEPTH];
	bool failed;              /* ENOMEM or nesting too deep: the text is unusable */
};

void jsonw_init(struct jsonw *w);
void jsonw_reset(struct jsonw *w);       /* empty the buffer, keep its memory */
void jsonw_free(struct jsonw *w);

void jsonw_object_begin(struct jsonw *w);
void jsonw_object_end(struct jsonw *w);
void jsonw_array_begin(struct jsonw *w);
void jsonw_array_end(struct jsonw *w);
void jsonw_key(struct jsonw *w, const char *key);

void jsonw_string(struct jsonw *w, const char *s);
void jsonw_null(struct jsonw *w);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_uint(struct jsonw *w, uint64_t v);
void jsonw_int(struct jsonw *w, int64_t v);
/* A number with exactly `decimals` decimals (0..9), rounded half away from zero (at an
 * exact binary tie the last digit may differ from printf's); null when not finite. */
void jsonw_fixed(struct jsonw *w, double v, int decimals);
/* A number already formatted (e.g. "1764445200.123456" from a timespec). */
void jsonw_number_text(struct jsonw *w, const char *text);
/* Append a newline (JSON Lines): at the top level the next value starts a new record
 * (no comma).  The text is w->buf[0..len). */
void jsonw_newline(struct jsonw *w);

#endif
