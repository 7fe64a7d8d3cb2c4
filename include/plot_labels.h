/* plot_labels.h - where a plot's mark labels go (docs/reports.md, "svg and png"): in
 * lanes of a strip above the plot area, so that they never cover the curve, never
 * each other; a label that fits no lane in full is shown as its number alone, or
 * not at all, and the plot then carries a legend under it.  Pure geometry: the
 * caller measures the texts (cairo) and draws.
 */
#ifndef IOSCOPE_PLOT_LABELS_H
#define IOSCOPE_PLOT_LABELS_H

#include <stdbool.h>
#include <stddef.h>

enum label_form { LABEL_HIDDEN, LABEL_NUMBER, LABEL_FULL };

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
	double x, y, w, h;           /* the box; meaningless when hidden */
};

/* Places marks[0..n) (in any order; earlier ones get the first choice). */
void plot_labels_layout(const struct label_strip *s, const struct label_mark *marks, size_t n,
			struct label_place *out);
/* True when some label is not shown in full: the plot needs its legend. */
bool plot_labels_need_legend(const struct label_place *places, size_t n);
/* True when the two boxes overlap (touching edges do not). */
bool plot_labels_intersect(const struct label_place *a, const struct label_place *b);

#endif
