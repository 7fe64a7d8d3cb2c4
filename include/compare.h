/* compare.h - `ioscope compare A.log B.log`: what its command line asks (parsed by
 * src/cli/compare_cmd.c) and the comparison that answers it (src/record/report_compare.c,
 * docs/reports.md "compare"). */
#ifndef IOSCOPE_COMPARE_H
#define IOSCOPE_COMPARE_H

#include <stddef.h>

#include "snapshot.h"

#define COMPARE_MAX_PAIRS 16     /* given with --pair */
#define COMPARE_MAX_PHASE_PAIRS 64   /* given with --pair-phases */

struct compare_pair {
	char a[DEV_NAME_MAX], b[DEV_NAME_MAX];
};

/* Phase a of A with phase b of B (numbers from 1, as printed). */
struct compare_phase_pair {
	size_t a, b;
};

struct compare_request {
	const char *path_a, *path_b;
	const char *devices;                              /* --devices; NULL: not given */
	long only;                                        /* --phase N; -1: every phase */
	double min_phase;                                 /* --min-phase; 0: not given */
	struct compare_pair pairs[COMPARE_MAX_PAIRS];     /* --pair A_DEV=B_DEV */
	size_t npairs;
	struct compare_phase_pair phase_pairs[COMPARE_MAX_PHASE_PAIRS];   /* --pair-phases */
	size_t nphase_pairs;
};

/* The two sessions compared on standard output: the exit status (1 unreadable or a
 * write error, 2 a phase or device they do not have), the error printed. */
int compare_run(const struct compare_request *q);

#endif
