/* pane.h - what a pane gets and what it gives back.
 *
 * Once per frame the console loop builds a struct frame (the view model: the
 * figures, the rows, the selection, the marks, the status line, the style) from
 * its session and view state (src/ui/frame.c).  A pane draws from the frame into
 * its rect and changes nothing; a click on it returns a struct ui_action that the
 * loop applies.  Panes include this header and ui_draw.h, never the console's
 * state (console_state.h), and never call each other: tests/e2e/test_ui_layers.sh
 * checks both.
 *
 * Adding a pane: one file defining a `const struct pane_def pane_NAME`, a row in
 * console_panes[] (src/ui/panes.c, pane_table.h), and what it draws as fields of
 * struct frame, filled in frame_build() (src/ui/frame.c).  See docs/design.md.
 */
#ifndef IOSCOPE_PANE_H
#define IOSCOPE_PANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "columns.h"
#include "console_config.h"
#include "graph.h"
#include "history.h"
#include "layout.h"
#include "matrix_status.h"
#include "rates.h"
#include "snapshot.h"
#include "trace_history.h"
#include "ui_draw.h"
#include "why.h"

#define CONSOLE_PINS_MAX 8

/* A row of the device table this frame. */
struct table_row {
	const struct device *dev;          /* from the shown snapshot */
	const struct device_rates *rates;  /* NULL before the first interval */
	bool partition;
};

/* Where the table's columns and rows went (the table's place hook); the loop keeps
 * it for the scroll position and the page size. */
struct table_geometry {
	int header_y;
	struct rect body;
	int top;                           /* first device row on screen */
	int column_x[COLUMNS_MAX + 1], column_w[COLUMNS_MAX + 1];
	size_t ncolumns_shown;
};

/* Scratch memory the graphs reuse from frame to frame (owned by the loop). */
struct graph_scratch {
	float *values;
	size_t values_cap;
	struct graph_cell *cells;
	size_t cells_cap;
	uint32_t *heat;                    /* the heat map's columns (heatmap.h) */
	bool *heat_traced;
	size_t heat_cap;                   /* columns */
	bool short_of_memory;              /* set by the graphs' place hook */
};

struct frame {
	struct ui_style style;
	enum graph_glyphs glyphs;

	/* who and when (the header) */
	const char *host, *kernel;
	double interval;
	char position[128];                /* a replay's "REPLAY 13/120 ...", "" live */
	bool frozen, ended, live;          /* live: controls enabled (not a replay/fixture) */
	const char *rec_failure;           /* the recording stopped reaching the disk */
	bool recording, rec_paused;
	const char *rec_path;
	char run[384];                     /* `ioscope run`: "RUN 12s output FILE", "" none */
	/* `ioscope matrix` watched (or a run's log replayed): where it stood at the sample
	 * shown, from its newest step mark (advanced by the time since); have_matrix false
	 * when there is none or it is stale (matrix_status_current) */
	bool have_matrix;
	struct matrix_status matrix;

	/* the figures shown (the frozen view while frozen) */
	const struct snapshot *snap;
	const struct rates *rates;
	bool have_rates;
	const struct why_rates *why;       /* dirty limits, journals (why.h); NULL: none yet */
	const struct history *hist;        /* samples, and the marks */
	uint64_t view_end;                 /* one past the newest sample the graphs show */
	uint64_t scroll_back;
	int zoom;                          /* history samples per dot column of the graphs */
	uint64_t mark_selected;            /* the marks panel's selection (its number), 0 none */
	int marks_top;                     /* the marks panel's first row (its place hook) */

	/* the table and the selection */
	const struct table_row *rows;
	size_t nrows;
	const char *selected;              /* "" when none */
	bool following;                    /* the selection follows the busiest disk (no choice yet) */
	const struct device *selected_dev; /* NULL when none */
	/* What the selected device (a partition: its disk) is backed by, in words
	 * (loop_backing_describe: file, its disk and filesystem, direct I/O); "" none. */
	char loop_backing[MOUNT_PATH_MAX * 2 + 128];
	size_t loop_file_len;              /* its first so many bytes are the file's path */
	const char (*pins)[DEV_NAME_MAX];
	size_t npins;
	const char *filter;
	bool limited;                      /* DEVICE arguments or a filter limit the table */
	const struct device_figure *const *columns;
	size_t ncolumns;
	const struct device_figure *sort;     /* NULL: kernel order */
	bool sort_ascending;
	const struct console_config *cfg;  /* load thresholds */

	const struct graph_metric *metric;
	/* the eBPF view: whether it is on now, and the heat map's histograms */
	bool tracing;
	const struct trace_history *trace_hist;

	/* the footer */
	const char *status;                /* NULL: none, the key bar shows */
	bool status_warning;

	/* settled by the place hooks, before drawing */
	struct table_geometry table;
	struct graph_scratch *scratch;
};

struct pane_def {
	const char *name;
	enum layout_slot slot;
	/* Starts hidden; an action UA_TOGGLE_PANE naming it shows it (and hides it again).
	 * Of the panes shown in one slot, the first in the table is drawn: a hidden pane
	 * listed before another one of its slot takes the slot's place while shown. */
	bool hidden;
	/* While shown, the source reads processes (snapshot.tasks): the why pane. */
	bool reads_tasks;
	/* Optional, before drawing: settle what the frame leaves to the pane (the
	 * table's columns and scroll, the graphs' scratch).  Changes only the frame. */
	void (*place)(struct frame *f, const struct rect *r);
	void (*draw)(const struct frame *f, const struct rect *r);
	/* Optional: the rows its draw would fill at `width` columns (its title row counted),
	 * so that a layout short of rows gives it what it shows and no more (layout_want). */
	int (*rows)(const struct frame *f, int width);
	/* Optional: a click at (y, x) inside the pane's rect. */
	struct ui_action (*click)(const struct frame *f, const struct rect *r, int y, int x);
	/* Optional: the mouse wheel over the pane (dir -1 up, +1 down); without it the
	 * wheel moves the table's selection. */
	struct ui_action (*wheel)(const struct frame *f, const struct rect *r, int dir);
};

/* ---- questions about a frame (src/ui/frame_query.c) ---- */
/* The device an event is about ("" when none: a user mark); mounts map to their device. */
void frame_mark_device(const struct frame *f, const struct history_mark *m, char *out, size_t len);
/* While the table is limited (DEVICE arguments, a filter), only the events about the
 * devices it shows (and user marks, and ioscope's own changes) are marked. */
bool frame_mark_shown(const struct frame *f, const struct history_mark *m);
/* The history index of the shown mark numbered `number` (history_mark_number), -1 when
 * it is not held or not shown. */
long frame_mark_index(const struct frame *f, uint64_t number);
/* The marks panel's rows: the shown marks, newest first.  The row of history index i,
 * and how many there are. */
size_t frame_mark_row(const struct frame *f, size_t i);
size_t frame_marks_shown(const struct frame *f);

#endif
