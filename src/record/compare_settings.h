/* compare_settings.h - what `ioscope compare` sets side by side in its header
 * (docs/reports.md, "compare"): for each pair of devices compared, the filesystem on
 * each, its mount options, the scheduler and every queue tunable that differs, as
 * each session had them when its command started (the first `run start` of the log:
 * `ioscope run`, a matrix run), else at the report's first sample.
 */
#ifndef IOSCOPE_COMPARE_SETTINGS_H
#define IOSCOPE_COMPARE_SETTINGS_H

#include <stdio.h>

#include "error.h"
#include "report.h"
#include "snapshot.h"

/* One session's state, read once. */
struct compare_state {
	struct snapshot snap;
	bool at_command;        /* read when the command started, not at the start */
};

/* -1 with err when the sample cannot be read. */
int compare_state_read(const struct report *rep, struct compare_state *st, struct error *err);
void compare_state_free(struct compare_state *st);
/* The mount point of dev's filesystem (or its first partition's) in that state, the
 * "mounted on" row; "" when none. */
const char *compare_state_mount(const struct compare_state *st, const char *dev);

/* A row of the header: label, then A's and B's text in columns of 32, each wrapped at
 * commas and spaces onto as many lines as it needs; escaped. */
void compare_row(FILE *out, const char *label, const char *a, const char *b);

/* The rows of device dev_a of A and dev_b of B: device, filesystem, mount point, mount
 * options, scheduler, each tunable that differs ("key=value", "-" where a side has no such
 * key), and when the schedulers differ, each one's own iosched tunables on one row. */
void compare_settings_print(FILE *out, const struct compare_state *a, const char *dev_a,
			    const struct compare_state *b, const char *dev_b);

#endif
