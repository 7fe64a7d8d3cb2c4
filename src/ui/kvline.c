/* kvline.c - "key = value" lines, shared by the config and theme parsers. */
#include <ctype.h>
#include <string.h>

#include "kvline.h"

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Quotes around a value are allowed, as in btop's themes. */
static char *unquote(char *v)
{
	size_t n = strlen(v);
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v[n - 1] = '\0';
		return trim(v + 1);
	}
	return v;
}

int kvline_split(char *line, char **key, char **value)
{
	char *s = trim(line);
	if (!*s || *s == '#' || *s == ';')
		return 0;
	char *eq = strchr(s, '=');
	if (!eq)
		return -1;
	*eq = '\0';
	*key = trim(s);
	*value = unquote(trim(eq + 1));
	return 1;
}
