/* plot_labels.c - mark labels in lanes (plot_labels.h).  A box goes right of its line,
 * or left of it where it would run past the plot's right edge; into the first lane where
 * it meets no other box.  First every mark's number, left to right: one that fits no
 * lane joins the box of the marks before it ("[3-5]", as wide as "[3][5]"), which is
 * placed again, joining the one before it in turn while it does not fit.  Then a mark
 * whose number is alone in its box gets its full text instead where that fits.  A mark's
 * line runs from its box down through the lanes under it: no box there may span it. */
#include <math.h>

#include "plot_labels.h"

#define LINE_GAP 3.0

bool plot_labels_intersect(const struct label_place *a, const struct label_place *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* Whether the line at x runs through the box (its gap around it included). */
static bool crosses(const struct label_strip *s, double x, const struct label_place *box)
{
	return x > box->x - s->gap / 2 && x < box->x + box->w + s->gap / 2;
}

/* A box meets no other box, and no mark's line runs through it: a boxed mark's line goes
 * from its box down through the lanes under it (report_plot.c, draw_marks), so a box in
 * a lower lane must not span it, and the box's own line (at line_x) must not run through
 * a box under it.  The lines of the marks a shared box names start below the strip. */
static bool box_fits(const struct label_strip *s, const struct label_place *box, double line_x,
		     const struct label_mark *marks, const struct label_place *placed, size_t n)
{
	if (box->x < s->left || box->x + box->w > s->right)
		return false;
	struct label_place wide = *box;
	wide.x -= s->gap / 2;
	wide.w += s->gap;
	for (size_t i = 0; i < n; i++) {
		const struct label_place *o = &placed[i];
		if (o->form != LABEL_NUMBER && o->form != LABEL_FULL)
			continue;
		if (plot_labels_intersect(&wide, o) ||
		    (o->lane < box->lane && crosses(s, marks[i].x, box)) ||
		    (o->lane > box->lane && crosses(s, line_x, o)))
			return false;
	}
	return true;
}

/* Right of the line, else left of it; in the first lane where it fits.  line_x: the line
 * of the mark that owns the box (a shared box may go left of its last mark's line). */
static bool place(const struct label_strip *s, double x, double w, enum label_form form,
		  double line_x, const struct label_mark *marks, const struct label_place *placed,
		  size_t n, struct label_place *out)
{
	const double xs[2] = { x + LINE_GAP, x - LINE_GAP - w };
	for (int lane = 0; lane < s->lanes; lane++)
		for (size_t side = 0; side < 2; side++) {
			struct label_place box = { form, lane, xs[side], s->top + lane * s->lane_h, w,
						   s->lane_h, 0, 0 };
			if (box_fits(s, &box, line_x, marks, placed, n)) {
				*out = box;
				return true;
			}
		}
	return false;
}

/* The box of the marks head..last: their numbers right of head's line, else left of
 * last's.  Placed against out[0..n) but for those marks' own. */
static bool place_group(const struct label_strip *s, const struct label_mark *marks,
			size_t head, size_t last, struct label_place *out, size_t n)
{
	double w = marks[head].number_w + (last > head ? marks[last].number_w : 0);
	for (size_t i = head; i <= last; i++)
		out[i] = (struct label_place){ .form = LABEL_HIDDEN, .lane = -1 };
	struct label_place box;
	bool ok = place(s, marks[head].x, w, LABEL_NUMBER, marks[head].x, marks, out, n, &box);
	if (!ok && last > head)
		ok = place(s, marks[last].x - w - 2 * LINE_GAP, w, LABEL_NUMBER, marks[head].x,
			   marks, out, n, &box);
	if (!ok)
		return false;
	box.head = head;
	box.last = last;
	out[head] = box;
	for (size_t i = head + 1; i <= last; i++)
		out[i] = (struct label_place){ .form = LABEL_SHARED, .lane = -1, .head = head };
	return true;
}

void plot_labels_layout(const struct label_strip *s, const struct label_mark *marks, size_t n,
			struct label_place *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t head = i;
		while (!place_group(s, marks, head, i, out, i + 1) && head > 0)
			head = out[head - 1].form == LABEL_SHARED ? out[head - 1].head : head - 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (out[i].form != LABEL_NUMBER || out[i].last != i)
			continue;
		struct label_place number = out[i], full;
		out[i].form = LABEL_HIDDEN;
		if (place(s, marks[i].x, marks[i].full_w, LABEL_FULL, marks[i].x, marks, out, n,
			  &full)) {
			full.head = full.last = i;
			out[i] = full;
		} else {
			out[i] = number;
		}
	}
}

bool plot_labels_need_legend(const struct label_place *places, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (places[i].form != LABEL_FULL)
			return true;
	return false;
}
