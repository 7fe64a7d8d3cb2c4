/* fuzz_text_escape.c - the escaping rule of every text output (include/text.h) on any
 * bytes: the result is never longer than the input, holds no C0 control, DEL or C1
 * control, no invalid UTF-8 and no U+FFFD (a replayed invalid byte), and escaping it again
 * changes nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1), *out = malloc(size + 1), *again = malloc(size + 1);
	if (!in || !out || !again)
		goto done;
	memcpy(in, data, size);
	in[size] = '\0';
	text_escape(in, out, size + 1);
	size_t n = strlen(out);
	if (n > strlen(in) || !text_is_clean(out) || strstr(out, "\xef\xbf\xbd"))
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		if (c < 0x20 || c == 0x7f || (c == 0xc2 && (unsigned char)out[i + 1] >= 0x80 &&
					       (unsigned char)out[i + 1] <= 0x9f))
			abort();
	}
	if (strcmp(text_escape(out, again, size + 1), out) != 0)
		abort();
done:
	free(in);
	free(out);
	free(again);
	return 0;
}
