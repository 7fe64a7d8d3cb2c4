/* why.c - the why pane: who is stuck and on what, the dirty memory against its limits,
 * the journals of the selected device's filesystems, who does the I/O (issue 10).
 *
 * Draws the frame's snapshot (its tasks: the source reads processes only while this pane
 * is shown, pane_def.reads_tasks, or --tasks is given) and its why figures, live or
 * frozen alike.  The text is built and fitted in why_lines.c: on a short terminal the
 * processes give way first and the last row says what is hidden.
 */
#include <stdio.h>

#include "pane.h"
#include "why_lines.h"

static void why_draw(const struct frame *f, const struct rect *r)
{
	for (int y = r->y; y < r->y + r->h; y++)
		ui_fill(y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	char title[DEV_NAME_MAX + 64];
	snprintf(title, sizeof title, "Why%s%s: blocked, dirty, journals, processes by I/O",
		 f->selected[0] ? " " : "", f->selected);
	ui_title(&f->style, r, title, "W hides");
	struct why_text t;   /* 26 kB, rebuilt every frame */
	why_text_build(&t, f, r->w - 2);
	char summary[WHY_LINE_MAX];
	bool cut = why_text_fit(&t, r->h > 1 ? (size_t)r->h - 1 : 0, summary, sizeof summary);
	int y = r->y + 1;
	for (size_t i = 0; i < t.n; i++) {
		if (t.lines[i].hidden)
			continue;
		ui_put(y++, r->x + 1, r->w - 2, ui_attr(&f->style, t.lines[i].role), t.lines[i].text);
	}
	if (cut)
		ui_put_ellipsis(&f->style, y, r->x + 1, r->w - 2, ui_attr(&f->style, TR_DIM), summary);
}

const struct pane_def pane_why = {
	.name = "why",
	.slot = SLOT_GRAPHS,
	.hidden = true,
	.reads_tasks = true,
	.draw = why_draw,
};
