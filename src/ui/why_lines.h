/* why_lines.h - what the why pane says, line by line (src/ui/why_lines.c), and which
 * lines give way when the pane is short.
 *
 * The pane (why.c) builds the text from the frame, fits it to its height and draws it.
 * Built apart from drawing so that a unit test reads the text without a screen.
 */
#ifndef IOSCOPE_WHY_LINES_H
#define IOSCOPE_WHY_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "pane.h"

#define WHY_LINE_MAX 256
#define WHY_LINES_MAX 96

/* The parts of the pane, in the order they are drawn. */
enum why_part {
	WP_BLOCKED,        /* "blocked: 3 tasks in D state": always shown */
	WP_GROUP,          /* one wait channel's tasks */
	WP_NOTE,           /* what needs privilege, what is off */
	WP_DIRTY,          /* dirty against its limits, the rates, "writers throttled" */
	WP_JOURNAL,        /* the journals of the selected device's filesystems */
	WP_PROC_HEAD,      /* the process list's column heading */
	WP_PROC,           /* one process */
	WP_COUNT
};

struct why_line {
	enum why_part part;
	enum theme_role role;
	bool hidden;
	char text[WHY_LINE_MAX];
};

struct why_text {
	size_t n;
	struct why_line lines[WHY_LINES_MAX];
	size_t hidden[WP_COUNT];           /* lines of each part that did not fit */
};

/* The pane's text for the frame, flowed to `width` cells. */
void why_text_build(struct why_text *t, const struct frame *f, int width);
/* Hide lines until the rest fits in `rows`, the processes first, then the wait channels,
 * the notes, the journals, the dirty lines.  When any is hidden the last row is the
 * summary (written to `summary`: "hidden: 4 processes, 1 wait channel ...") and true is
 * returned. */
bool why_text_fit(struct why_text *t, size_t rows, char *summary, size_t len);

#endif
