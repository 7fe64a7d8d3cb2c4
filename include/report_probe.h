/* report_probe.h - the responsiveness probe's samples per report phase (docs/reports.md). */
#ifndef IOSCOPE_REPORT_PROBE_H
#define IOSCOPE_REPORT_PROBE_H

#include <stdio.h>

#include "snapshot.h"

struct probe_samples;

/* Add cur's probe samples (if any) to *acc, allocated on first use.  -1 on ENOMEM. */
int report_probe_add(struct probe_samples **acc, const struct snapshot *cur);
/* "  probe    read   n 120  p50 0.412  p99 8.120  max 9.001 ms"; nothing for NULL. */
void report_probe_print(FILE *out, const struct probe_samples *p);
void report_probe_free(struct probe_samples *p);

#endif
