/* text.c - the escaping rule of every text output (see text.h for why '?'). */
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "utf8.h"

static bool is_c1_control(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;   /* U+0080-U+009F */
}

/* U+FFFD is what the JSON writers put for a byte that is not UTF-8 (utf8.h), so a replay
 * reads it where the live run had that byte: both are '?', and the two print the same. */
static bool is_replacement(const unsigned char *p)
{
	return p[0] == 0xef && p[1] == 0xbf && p[2] == 0xbd;
}

/* Length of the valid, non-control UTF-8 sequence at p; 0 when p starts something a
 * terminal could act on (C0, DEL, a C1 control, a malformed or overlong sequence) or
 * U+FFFD. */
static size_t printable_sequence(const unsigned char *p)
{
	if (p[0] >= 0x20 && p[0] < 0x7f)
		return 1;
	if (p[0] < 0x80)
		return 0;   /* C0 and DEL */
	if (is_c1_control(p) || is_replacement(p))
		return 0;
	return utf8_sequence_length(p);
}

/* How many input bytes a '?' stands for: a C1 control or U+FFFD is one character. */
static size_t unprintable_length(const unsigned char *p)
{
	return is_c1_control(p) ? 2 : is_replacement(p) ? 3 : 1;
}

char *text_escape(const char *s, char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	while (*p) {
		size_t n = printable_sequence(p);
		if (n == 0) {
			if (o + 1 >= len)
				break;
			size_t skip = unprintable_length(p);   /* before out, which may be p, changes */
			out[o++] = '?';
			p += skip;
			continue;
		}
		if (o + n >= len)
			break;
		memmove(out + o, p, n);   /* out may be s itself */
		o += n;
		p += n;
	}
	out[o] = '\0';
	return out;
}

bool text_is_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = printable_sequence(p);
		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

void text_escape_inplace(char *s)
{
	/* the escaped text is never longer than s, so it can be written over it */
	text_escape(s, s, strlen(s) + 1);
}

int text_fputs(const char *s, FILE *out)
{
	if (text_is_clean(s))
		return fputs(s, out);
	size_t len = strlen(s) + 1;
	char *copy = malloc(len);
	if (!copy)
		return EOF;
	int rc = fputs(text_escape(s, copy, len), out);
	free(copy);
	return rc;
}

/* The newlines fmt itself begins and ends with: the only ones that stay. */
static void restore_own_newlines(const char *fmt, char *text, size_t n)
{
	size_t lead = strspn(fmt, "\n"), flen = strlen(fmt), trail = 0;
	while (trail < flen - lead && fmt[flen - 1 - trail] == '\n')
		trail++;
	for (size_t i = 0; i < lead && i < n; i++)
		text[i] = '\n';
	for (size_t i = 0; i < trail && i < n; i++)
		text[n - 1 - i] = '\n';
}

int text_vprintf(FILE *out, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small) {
		text = malloc((size_t)n + 1);
		if (text)
			vsnprintf(text, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	if (n < 0 || !text)
		return -1;
	/* '?' replaces whole sequences, so the escaped text is never longer */
	text_escape(text, text, (size_t)n + 1);
	size_t len = strlen(text);
	restore_own_newlines(fmt, text, len);
	int rc = fwrite(text, 1, len, out) == len ? (int)len : -1;
	if (text != small)
		free(text);
	return rc;
}

int text_printf(FILE *out, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = text_vprintf(out, fmt, ap);
	va_end(ap);
	return rc;
}

size_t text_appendf(char *buf, size_t len, size_t used, const char *fmt, ...)
{
	if (len == 0)
		return 0;
	if (used >= len)
		return len - 1;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (n < 0) {
		buf[used] = '\0';
		return used;
	}
	return (size_t)n >= len - used ? len - 1 : used + (size_t)n;
}

void text_duration(long s, char *buf, size_t len)
{
	if (s < 60)
		snprintf(buf, len, "%lds", s > 0 ? s : 0);
	else if (s < 3600)
		snprintf(buf, len, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
}

void text_join(char *buf, size_t len, const char *const *items, size_t n, const char *sep,
	       const char *last)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		used = text_appendf(buf, len, used, "%s%s", i == 0 ? "" : i + 1 == n ? last : sep,
				    items[i]);
}
