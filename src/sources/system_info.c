/* system_info.c - the machine's memory and CPU model (system_info.h), read once when they
 * are asked for: a file opened, read whole and closed.
 */
#include <string.h>

#include "procfile.h"
#include "system_info.h"
#include "textscan.h"
#include "vmsource.h"

/* The whole of a /proc file into pf->buf; -1 when it cannot be read. */
static int read_whole(struct procfile *pf, const char *path)
{
	struct error ignored;
	procfile_init(pf);
	if (procfile_open(pf, path, 0, &ignored) < 0 || procfile_read(pf, &ignored) < 0) {
		procfile_close(pf);
		return -1;
	}
	return 0;
}

int system_memory_read(struct system_memory *out)
{
	struct procfile pf;
	memset(out, 0, sizeof *out);
	if (read_whole(&pf, "/proc/meminfo") < 0)
		return -1;
	system_memory_parse(pf.buf, pf.len, out);
	procfile_close(&pf);
	return 0;
}

void system_memory_parse(const char *text, size_t len, struct system_memory *out)
{
	vm_parse_meminfo_keys(text, len, (const struct vm_meminfo_key[]){
		{ "MemTotal", &out->total_kb, &out->have_total },
		{ "MemAvailable", &out->available_kb, &out->have_available },
	}, 2);
}

/* The line is "key<blanks>: value"; *value points at the value, its blanks skipped. */
static bool key_line(const char *line, size_t n, const char *key, const char **value)
{
	size_t k = strlen(key);
	const char *colon = memchr(line, ':', n);
	if (!colon || (size_t)(colon - line) < k || strncmp(line, key, k) != 0)
		return false;
	for (const char *p = line + k; p < colon; p++)
		if (*p != ' ' && *p != '\t')
			return false;
	*value = colon + 1;
	while (*value < line + n && (**value == ' ' || **value == '\t'))
		(*value)++;
	return true;
}

void system_parse_cpu_model(const char *text, size_t len, char *out, size_t outlen)
{
	static const char *const keys[] = { "model name", "Hardware", "cpu model", "cpu", "Processor" };
	size_t best = sizeof keys / sizeof keys[0];
	const char *p = text, *end = text + len, *line, *value;
	size_t n;
	out[0] = '\0';
	while (best > 0 && textscan_line(&p, end, &line, &n))
		for (size_t k = 0; k < best; k++) {
			if (!key_line(line, n, keys[k], &value))
				continue;
			size_t vlen = (size_t)(line + n - value);
			if (vlen >= outlen)
				vlen = outlen - 1;
			memcpy(out, value, vlen);
			out[vlen] = '\0';
			best = k;
			break;
		}
}

void system_cpu_model(char *out, size_t len)
{
	struct procfile pf;
	out[0] = '\0';
	if (read_whole(&pf, "/proc/cpuinfo") < 0)
		return;
	system_parse_cpu_model(pf.buf, pf.len, out, len);
	procfile_close(&pf);
}
