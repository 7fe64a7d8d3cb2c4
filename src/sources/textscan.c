/* textscan.c - lines, keys and numbers of kernel text files (src/sources/textscan.h). */
#include <string.h>

#include "textscan.h"

bool textscan_line(const char **p, const char *end, const char **line, size_t *len)
{
	if (*p >= end)
		return false;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = (size_t)((nl ? nl : end) - *p);
	*p = nl ? nl + 1 : end;
	return true;
}

bool textscan_u64(const char **s, const char *end, uint64_t *out)
{
	const char *p = *s;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p < '0' || *p > '9')
		return false;
	uint64_t v = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	*s = p;
	return true;
}

bool textscan_key(const char *line, size_t len, const char *key, const char **rest)
{
	size_t k = strlen(key);
	if (len <= k || memcmp(line, key, k) != 0)
		return false;
	if (line[k] != ' ' && line[k] != '\t' && line[k] != ':')
		return false;
	*rest = line + k + (line[k] == ':');
	return true;
}
