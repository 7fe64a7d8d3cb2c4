/* plot_labels.c - mark labels in lanes (plot_labels.h).  A label goes right of its
 * line, or left of it where it would run past the plot's right edge; into the first
 * lane where it meets no other box.  Failing that, the mark's number alone is tried
 * the same way; failing that, the line stays unlabelled and the legend names it. */
#include <math.h>

#include "plot_labels.h"

#define LINE_GAP 3.0

bool plot_labels_intersect(const struct label_place *a, const struct label_place *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static bool box_fits(const struct label_strip *s, const struct label_place *box,
		     const struct label_place *placed, size_t n)
{
	if (box->x < s->left || box->x + box->w > s->right)
		return false;
	struct label_place wide = *box;
	wide.x -= s->gap / 2;
	wide.w += s->gap;
	for (size_t i = 0; i < n; i++)
		if (placed[i].form != LABEL_HIDDEN && plot_labels_intersect(&wide, &placed[i]))
			return false;
	return true;
}

/* Right of the line, else left of it; in the first lane where it fits. */
static bool place(const struct label_strip *s, double x, double w, enum label_form form,
		  const struct label_place *placed, size_t n, struct label_place *out)
{
	const double xs[2] = { x + LINE_GAP, x - LINE_GAP - w };
	for (int lane = 0; lane < s->lanes; lane++)
		for (size_t side = 0; side < 2; side++) {
			struct label_place box = { form, lane, xs[side], s->top + lane * s->lane_h, w,
						   s->lane_h };
			if (box_fits(s, &box, placed, n)) {
				*out = box;
				return true;
			}
		}
	return false;
}

void plot_labels_layout(const struct label_strip *s, const struct label_mark *marks, size_t n,
			struct label_place *out)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = (struct label_place){ .form = LABEL_HIDDEN, .lane = -1 };
		const struct label_mark *m = &marks[i];
		if (!place(s, m->x, m->full_w, LABEL_FULL, out, i, &out[i]))
			place(s, m->x, m->number_w, LABEL_NUMBER, out, i, &out[i]);
	}
}

bool plot_labels_need_legend(const struct label_place *places, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (places[i].form != LABEL_FULL)
			return true;
	return false;
}
