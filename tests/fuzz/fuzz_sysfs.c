/* fuzz_sysfs.c - the sysfs value parsers (scheduler line, inflight, booleans,
 * plain values) on arbitrary bytes; the first byte picks the output size. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	size_t outlen = data[0] % 40;
	data++, size--;
	char *line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';

	char value[SETTING_VAL_MAX], active[40];
	size_t n = sysfs_parse_value(line, size, value, outlen ? outlen : sizeof value);
	if (n >= (outlen ? outlen : sizeof value) || strlen(value) != n)
		__builtin_trap();
	if (sysfs_parse_scheduler(line, active, outlen) == 0 && strlen(active) >= outlen)
		__builtin_trap();
	sysfs_parse_scheduler(value, active, sizeof active);
	long r, w;
	sysfs_parse_inflight(line, &r, &w);
	int b = sysfs_parse_bool(line);
	if (b < -1 || b > 1)
		__builtin_trap();
	free(line);
	return 0;
}
