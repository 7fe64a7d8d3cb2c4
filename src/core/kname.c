/* kname.c - kernel block device names and their sysfs spelling ('/' <-> '!'). */
#include "kname.h"

static void map_char(const char *in, char *out, size_t len, char from, char to)
{
	if (len == 0)
		return;
	size_t i = 0;
	for (; in[i] && i < len - 1; i++)
		out[i] = in[i] == from ? to : in[i];
	out[i] = '\0';
}

void kname_to_sysfs(const char *name, char *out, size_t len)
{
	map_char(name, out, len, '/', '!');
}

void kname_from_sysfs(const char *sysname, char *out, size_t len)
{
	map_char(sysname, out, len, '!', '/');
}
