/* dirty_threshold.c - the background writeback threshold (dirty_threshold.h).
 *
 * The kernel computes it from vm.dirty_background_ratio or _bytes and the memory
 * available for the page cache, and /proc/vmstat shows the result: reading it
 * beats re-deriving the kernel's arithmetic.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dirty_threshold.h"

int dirty_background_threshold_kb(uint64_t *kb)
{
	FILE *f = fopen("/proc/vmstat", "re");
	char line[128];
	unsigned long long pages;
	int rc = -1;
	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof line, f))
		if (sscanf(line, "nr_dirty_background_threshold %llu", &pages) == 1) {
			*kb = (uint64_t)pages * ((uint64_t)sysconf(_SC_PAGESIZE) / 1024);
			rc = 0;
		}
	fclose(f);
	return rc;
}
