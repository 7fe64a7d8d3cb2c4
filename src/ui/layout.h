/* layout.h - where the panes go for a terminal size (src/ui/layout.c).  The layout
 * has one rect per slot; a pane names its slot in the pane table (pane.h). */
#ifndef IOSCOPE_LAYOUT_H
#define IOSCOPE_LAYOUT_H

#include <stdbool.h>

#include "ui_draw.h"

#define CONSOLE_MIN_LINES 24
#define CONSOLE_MIN_COLS 80

enum layout_slot { SLOT_HEADER, SLOT_STRIP, SLOT_TABLE, SLOT_DETAIL, SLOT_GRAPHS, SLOT_MARKS,
		   SLOT_FOOTER, SLOT_COUNT };

/* Where each slot goes this frame; h == 0: not shown. */
struct layout {
	bool too_small;
	struct rect header, strip, table, detail, graphs, marks, footer;
};

struct layout_want {
	int lines, cols;
	int table_rows;      /* device rows there are (the header row not counted) */
	bool detail_zoom;    /* the detail slot replaces the graphs */
	bool show_marks;
	int detail_rows;     /* rows the detail pane fills at the full width (its rows()); 0:
				not known */
};

void layout_compute(struct layout *l, const struct layout_want *want);
const struct rect *layout_slot(const struct layout *l, enum layout_slot slot);

#endif
