/* jsonw.c - streaming JSON writer (see jsonw.h for why not json-c here). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "jsonw.h"
#include "utf8.h"

void jsonw_init(struct jsonw *w)
{
	memset(w, 0, sizeof *w);
}

void jsonw_reset(struct jsonw *w)
{
	w->len = 0;
	w->depth = 0;
	w->need_comma[0] = false;
	w->failed = false;
}

void jsonw_free(struct jsonw *w)
{
	free(w->buf);
	jsonw_init(w);
}

static bool reserve(struct jsonw *w, size_t more)
{
	if (w->failed)
		return false;
	if (w->len + more + 1 <= w->cap)
		return true;
	if (grow_array(&w->buf, &w->cap, w->len + more + 1, 1, 4096, NULL) < 0) {
		w->failed = true;
		return false;
	}
	return true;
}

/* The hot path: room is there almost always. */
static inline void put(struct jsonw *w, const char *s, size_t n)
{
	if (w->len + n + 1 > w->cap && !reserve(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
}

static void putc1(struct jsonw *w, char c)
{
	put(w, &c, 1);
}

/* A value (or key) starts: separate it from the previous one at this level. */
static void value_start(struct jsonw *w)
{
	if (w->need_comma[w->depth])
		putc1(w, ',');
	w->need_comma[w->depth] = true;
}

static void container_begin(struct jsonw *w, char c)
{
	value_start(w);
	putc1(w, c);
	if (w->depth + 1 >= JSONW_DEPTH) {
		w->failed = true;
		return;
	}
	w->need_comma[++w->depth] = false;
}

static void container_end(struct jsonw *w, char c)
{
	if (w->depth > 0)
		w->depth--;
	putc1(w, c);
}

void jsonw_object_begin(struct jsonw *w) { container_begin(w, '{'); }
void jsonw_object_end(struct jsonw *w) { container_end(w, '}'); }
void jsonw_array_begin(struct jsonw *w) { container_begin(w, '['); }
void jsonw_array_end(struct jsonw *w) { container_end(w, ']'); }

static void quoted(struct jsonw *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	putc1(w, '"');
	const char *run = s;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x80) {   /* valid UTF-8 stays as it is; see utf8.h */
			size_t n = utf8_sequence_length((const unsigned char *)s);
			if (n > 0) {
				s += n - 1;
				continue;
			}
		} else if (c >= 0x20 && c != '"' && c != '\\') {
			continue;
		}
		put(w, run, (size_t)(s - run));
		run = s + 1;
		if (c >= 0x80) {
			put(w, UTF8_JSON_REPLACEMENT, sizeof UTF8_JSON_REPLACEMENT - 1);
		} else if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };
			put(w, esc, 2);
		} else {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			put(w, esc, 6);
		}
	}
	put(w, run, (size_t)(s - run));
	putc1(w, '"');
}

static bool plain(const char *s, size_t *len)
{
	const char *p = s;
	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x80 || *p == '"' || *p == '\\')
			return false;
	*len = (size_t)(p - s);
	return true;
}

void jsonw_key(struct jsonw *w, const char *key)
{
	size_t n;
	value_start(w);
	if (plain(key, &n) && w->len + n + 4 <= w->cap) {   /* "key": in one copy */
		char *p = w->buf + w->len;
		*p++ = '"';
		memcpy(p, key, n);
		p += n;
		*p++ = '"';
		*p++ = ':';
		*p = '\0';
		w->len += n + 3;
	} else {
		quoted(w, key);
		putc1(w, ':');
	}
	w->need_comma[w->depth] = false;   /* the value follows the colon directly */
}

/* After a key the value must not get a comma; after it, the next key does. */
static void scalar_start(struct jsonw *w)
{
	value_start(w);
}

void jsonw_string(struct jsonw *w, const char *s)
{
	scalar_start(w);
	quoted(w, s);
}

void jsonw_null(struct jsonw *w)
{
	scalar_start(w);
	put(w, "null", 4);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	scalar_start(w);
	put(w, v ? "true" : "false", v ? 4 : 5);
}

static size_t utoa(uint64_t v, char *end)
{
	char *p = end;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return (size_t)(end - p);
}

void jsonw_uint(struct jsonw *w, uint64_t v)
{
	char buf[24];
	size_t n = utoa(v, buf + sizeof buf);
	scalar_start(w);
	put(w, buf + sizeof buf - n, n);
}

void jsonw_int(struct jsonw *w, int64_t v)
{
	if (v >= 0) {
		jsonw_uint(w, (uint64_t)v);
		return;
	}
	char buf[24];
	size_t n = utoa(-(uint64_t)v, buf + sizeof buf);
	buf[sizeof buf - n - 1] = '-';
	scalar_start(w);
	put(w, buf + sizeof buf - n - 1, n + 1);
}

/* DBL_MAX in %f is 309 digits; with sign, point and 9 decimals it fits. */
#define FIXED_MAX (DBL_MAX_10_EXP + 1 + 16)

/* snprintf's return is what it wanted to write, not what it wrote: a number that
 * did not fit (or an encoding error) is null, never the bytes after the buffer. */
static void put_formatted(struct jsonw *w, const char *buf, size_t size, int n)
{
	if (n < 0 || (size_t)n >= size) {
		jsonw_null(w);
		return;
	}
	scalar_start(w);
	put(w, buf, (size_t)n);
}

void jsonw_fixed(struct jsonw *w, double v, int decimals)
{
	static const double scale[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	if (!isfinite(v)) {
		jsonw_null(w);
		return;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	double scaled = fabs(v) * scale[decimals] + 0.5;
	if (scaled >= 9e18) {      /* beyond integer arithmetic: printf knows best */
		char buf[FIXED_MAX];
		put_formatted(w, buf, sizeof buf, snprintf(buf, sizeof buf, "%.*f", decimals, v));
		return;
	}
	uint64_t units = (uint64_t)scaled;
	bool negative = v < 0 && units != 0;   /* no "-0.000" */
	char buf[48];
	char *end = buf + sizeof buf, *p = end;
	for (int i = 0; i < decimals; i++) {
		*--p = (char)('0' + units % 10);
		units /= 10;
	}
	if (decimals)
		*--p = '.';
	p -= utoa(units, p);
	if (negative)
		*--p = '-';
	scalar_start(w);
	put(w, p, (size_t)(end - p));
}

void jsonw_number_text(struct jsonw *w, const char *text)
{
	scalar_start(w);
	put(w, text, strlen(text));
}

/* Ends a JSON Lines record: the next top-level value starts a line of its own. */
void jsonw_newline(struct jsonw *w)
{
	putc1(w, '\n');
	if (w->depth == 0)
		w->need_comma[0] = false;   /* the next record is a line of its own */
}
