/* report_probe.h - the responsiveness probe's samples per report phase (docs/reports.md). */
#ifndef IOSCOPE_REPORT_PROBE_H
#define IOSCOPE_REPORT_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "snapshot.h"

struct probe_samples;

/* Add cur's probe samples (if any) to *acc, allocated on first use.  -1 on ENOMEM. */
int report_probe_add(struct probe_samples **acc, const struct snapshot *cur);
/* "  probe    read   n 120  p50 0.412  p99 8.120  max 9.001 ms"; nothing for NULL. */
void report_probe_print(FILE *out, const struct probe_samples *p);
void report_probe_free(struct probe_samples *p);

/* The same figures for the CSV and JSON reports, one table for both: the CSV's columns are
 * "probe_" NAME, the keys of a phase's JSON "probe" object are NAME. */
enum { REPORT_PROBE_FIGURES = 10 };
extern const char *const report_probe_figure_names[REPORT_PROBE_FIGURES];
/* Figure i of p into *v; false when there is none (no probe, no such sample in the phase). */
bool report_probe_figure(const struct probe_samples *p, size_t i, uint64_t *v);

#endif
