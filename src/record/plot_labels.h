/* plot_labels.h - where a plot's mark labels go (docs/reports.md, "svg and png"): in
 * lanes of a strip above the plot area, so that they never cover the curve, never
 * each other, and no mark's line runs through another's label.  Every mark gets its number there: a label that fits no lane in full is
 * its number alone, and marks too close for their numbers apart share one box ("[3-5]",
 * on the first one's line); the plot then carries a legend under it with every text.
 * Pure geometry: the caller measures the texts (cairo) and draws.
 */
#ifndef IOSCOPE_PLOT_LABELS_H
#define IOSCOPE_PLOT_LABELS_H

#include <stdbool.h>
#include <stddef.h>

/* LABEL_SHARED: the number is in the box of mark `head` (a NUMBER naming head..last). */
enum label_form { LABEL_HIDDEN, LABEL_NUMBER, LABEL_FULL, LABEL_SHARED };

/* The strip: lanes of lane_h pixels from top down, between left and right. */
struct label_strip {
	double left, right, top, lane_h;
	int lanes;
	double gap;                  /* at least this much between two boxes of a lane */
};

struct label_mark {
	double x;                    /* the mark's line */
	double full_w, number_w;     /* widths of "[N] text" and of "[N]" */
};

struct label_place {
	enum label_form form;
	int lane;
	double x, y, w, h;           /* the box; meaningless when shared */
	size_t head, last;           /* the marks a number box names: head..last */
};

/* Places marks[0..n), in time order (x never decreasing): the numbers first, left to
 * right, then the full texts where they fit, earlier ones first. */
void plot_labels_layout(const struct label_strip *s, const struct label_mark *marks, size_t n,
			struct label_place *out);
/* True when some label is not shown in full: the plot needs its legend. */
bool plot_labels_need_legend(const struct label_place *places, size_t n);
/* True when the two boxes overlap (touching edges do not). */
bool plot_labels_intersect(const struct label_place *a, const struct label_place *b);

#endif
