/* panes.c - the pane table: every pane of the console, in drawing order.  A pane
 * is drawn when its slot of the layout has room this frame (layout.c).  Adding
 * one: its file defines `const struct pane_def pane_NAME` (pane.h), and a row
 * here names it.  Panes see only the frame and each their own file. */
#include "pane_table.h"

extern const struct pane_def pane_header, pane_strip, pane_table, pane_detail, pane_why,
	pane_graphs, pane_marks, pane_footer;

const struct pane_def *const console_panes[] = {
	&pane_header,
	&pane_strip,
	&pane_table,
	&pane_detail,
	&pane_why,      /* hidden until W: then in the graphs' place */
	&pane_graphs,
	&pane_marks,
	&pane_footer,
};
const size_t console_panes_count = sizeof console_panes / sizeof console_panes[0];
