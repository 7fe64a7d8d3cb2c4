/* partitions.c - the names /proc/partitions lists (include/partitions.h says why).
 *
 * "major minor  #blocks  name", a header line and a blank one first.  Names are the
 * kernel's, as in /proc/diskstats.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "loopdev.h"
#include "partitions.h"
#include "textscan.h"

void partition_list_init(struct partition_list *p)
{
	memset(p, 0, sizeof *p);
	procfile_init(&p->file);
}

int partition_list_open(struct partition_list *p, struct error *err)
{
	return procfile_open_kernel(&p->file, "/proc/partitions", PROCFILE_SEQ_EOF_HINT, err);
}

/* The name of a line of four fields whose first three are numbers; false else (the
 * header, the blank line). */
static bool line_name(const char *line, size_t len, const char **name, size_t *nlen)
{
	const char *s = line, *end = line + len;
	uint64_t v;
	for (int i = 0; i < 3; i++)
		if (!textscan_u64(&s, end, &v))
			return false;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	size_t n = 0;
	while (s + n < end && s[n] != ' ' && s[n] != '\t')
		n++;
	if (n == 0 || n >= DEV_NAME_MAX)
		return false;
	*name = s;
	*nlen = n;
	return true;
}

int partition_list_parse(struct partition_list *p, const char *text, size_t len,
			 struct error *err)
{
	const char *s = text, *end = text + len, *line, *name;
	size_t n, nlen;
	p->n = 0;
	p->fresh = false;
	while (textscan_line(&s, end, &line, &n)) {
		if (!line_name(line, n, &name, &nlen))
			continue;
		if (grow_array(&p->names, &p->cap, p->n + 1, sizeof *p->names, 32, err) < 0)
			return -1;
		memcpy(p->names[p->n], name, nlen);
		p->names[p->n++][nlen] = '\0';
	}
	p->fresh = true;
	return 0;
}

int partition_list_read(struct partition_list *p, struct error *err)
{
	p->fresh = false;
	if (procfile_read(&p->file, err) < 0)
		return -1;
	return partition_list_parse(p, p->file.buf, p->file.len, err);
}

bool partition_list_loop_empty(const struct partition_list *p, const char *name)
{
	if (!p->fresh || !loop_name_whole(name))
		return false;
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->names[i], name) == 0)
			return false;
	return true;
}

void partition_list_close(struct partition_list *p)
{
	procfile_close(&p->file);
	free(p->names);
	p->names = NULL;
	p->n = p->cap = 0;
	p->fresh = false;
}
