/* utf8.c - UTF-8 validity and the repair of JSON text (see utf8.h for why). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

size_t utf8_sequence_length(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	if (n == 0 || (n == 3 && p[0] > 0xef))
		return 0;
	for (size_t i = 1; i < n; i++)   /* a NUL ends the loop too: it is not 10xxxxxx */
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	uint32_t cp = n == 2 ? (p[0] & 0x1fu) : n == 3 ? (p[0] & 0x0fu) : (p[0] & 0x07u);
	for (size_t i = 1; i < n; i++)
		cp = cp << 6 | (p[i] & 0x3fu);
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Like utf8_sequence_length, but never reads past end: s need not be NUL-terminated. */
static size_t sequence_within(const unsigned char *p, const unsigned char *end)
{
	if (p[0] < 0x80)
		return 1;
	unsigned char seq[5] = { 0 };
	size_t room = (size_t)(end - p) < 4 ? (size_t)(end - p) : 4;
	memcpy(seq, p, room);
	return utf8_sequence_length(seq);
}

size_t utf8_valid_prefix(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		if (*p < 0x80) {   /* JSON is nearly all ASCII */
			p++;
			continue;
		}
		size_t n = sequence_within(p, end);
		if (n == 0)
			break;
		p += n;
	}
	return (size_t)(p - (const unsigned char *)s);
}

const char *utf8_json_repair(const char *s, size_t len, size_t *out_len)
{
	size_t valid = utf8_valid_prefix(s, len);
	*out_len = len;
	if (valid == len)
		return s;
	const size_t grow = sizeof UTF8_JSON_REPLACEMENT - 1;
	char *out = malloc(valid + (len - valid) * grow + 1);
	if (!out)
		return NULL;
	memcpy(out, s, valid);
	size_t o = valid;
	const unsigned char *p = (const unsigned char *)s + valid, *end = (const unsigned char *)s + len;
	while (p < end) {
		size_t n = sequence_within(p, end);
		if (n == 0) {
			memcpy(out + o, UTF8_JSON_REPLACEMENT, grow);
			o += grow;
			p++;
			continue;
		}
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	out[o] = '\0';
	*out_len = o;
	return out;
}
