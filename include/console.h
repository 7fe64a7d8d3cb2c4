/* console.h - the interactive console's context and the pieces of src/ui that
 * share it: layout, panes, key table, modal dialogs.
 *
 * Everything the console knows lives in struct console, owned by console_run()'s
 * stack frame: no global mutable state.  The data (snapshots, rates, events,
 * history, recording) belong to its session (session.h); the rest is view state.
 * Panes only draw from it; actions (keys) only change its view state; samples
 * arrive through console_take_sample().
 *
 * Extension points for other areas:
 *  - keys: add a line to console_bindings[] (src/ui/keys.c).  Give it KEYF_CONTROL
 *    when it changes the kernel: it is then refused while console_controls_enabled()
 *    is false (a replay, a fixture tree).  KEYF_REPLAY bindings act only in a replay.
 *  - dialogs: console_modal_open() with your own draw/key functions, or the
 *    ready-made console_prompt().
 *  - changes ioscope makes itself: console_add_event() marks them on the graphs,
 *    lists them in the marks panel and records them.
 *  - a replay position indicator: console_source_position() (src/ui/position.c).
 */
#ifndef IOSCOPE_CONSOLE_H
#define IOSCOPE_CONSOLE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "announce.h"
#include "columns.h"
#include "console_config.h"
#include "events.h"
#include "graph.h"
#include "history.h"
#include "options.h"
#include "rates.h"
#include "session.h"
#include "recorder.h"
#include "replay_view.h"
#include "snapshot.h"
#include "source.h"
#include "status.h"
#include "theme.h"

/* A key as the console sees it: a character (Unicode code point), or a curses
 * function key (KEY_UP, KEY_F(1)...) tagged with KEYC_FN. */
#define KEYC_FN 0x40000000
#define KC(k) (KEYC_FN | (k))
#define KEYC_CTRL(c) ((c) & 0x1f)
#define KEYC_ESC 27

struct rect {
	int y, x, h, w;
};

/* Where each pane goes this frame; h == 0: not shown. */
struct layout {
	bool too_small;
	struct rect header, strip, table, detail, graphs, marks, footer;
	struct rect why;     /* the why pane, in the graphs' place while shown */
};

struct layout_want {
	int lines, cols;
	int table_rows;      /* device rows there are (the header row not counted) */
	bool detail_zoom;    /* the detail pane replaces the graphs */
	bool show_marks;
	bool show_why;       /* the why pane replaces the graphs */
};

#define CONSOLE_MIN_LINES 24
#define CONSOLE_MIN_COLS 80
void layout_compute(struct layout *l, const struct layout_want *want);

/* A row of the device table this frame. */
struct table_row {
	const struct device *dev;          /* from the shown snapshot */
	const struct device_rates *rates;  /* NULL before the first interval */
	bool partition;
};

struct console;

/* A modal dialog: drawn over everything, gets every key until it closes. */
struct modal_ops {
	void (*draw)(const struct console *c, void *state);   /* draws only */
	/* false: close the dialog */
	bool (*key)(struct console *c, void *state, int key);
	void (*free)(void *state);
	/* Optional: a descriptor the dialog waits on (-1: none now); the main loop
	 * polls it and calls ready() when it is readable.  Drawing never does. */
	int (*fd)(void *state);
	void (*ready)(struct console *c, void *state);
};

struct console_modal {
	const struct modal_ops *ops;
	void *state;
};

#define CONSOLE_MODALS_MAX 4
#define CONSOLE_PINS_MAX 8
#define CONSOLE_ONLY_MAX 32

struct console {
	const struct options *opts;
	struct source *src;
	struct recorder *rec;          /* --record's recorder (main closes it) */
	struct console_config cfg;

	/* data: the one pipeline (session.h) owns snapshots, rates, events, history
	 * and the recording; the console keeps only what it shows */
	struct session *session;
	double interval;

	/* space: the view stops, sampling goes on */
	bool frozen;
	struct rates frozen_rates;
	struct snapshot frozen_snap;
	uint64_t frozen_end;           /* newest history sample shown while frozen */

	/* view */
	char selected[DEV_NAME_MAX];
	bool user_selected;            /* false: follow the busiest disk */
	char pins[CONSOLE_PINS_MAX][DEV_NAME_MAX];   /* devices pinned on the graphs */
	size_t npins;
	char only[CONSOLE_ONLY_MAX][DEV_NAME_MAX];   /* DEVICE arguments: the table shows these */
	size_t nonly;
	char filter[64];
	bool show_partitions;
	const struct column_def *columns[COLUMNS_MAX];
	size_t ncolumns;
	const struct column_def *sort;  /* NULL: kernel order */
	bool sort_ascending;
	size_t graph_metric;           /* index in graph_metrics[] */
	enum graph_glyphs glyphs;
	bool utf8;
	uint64_t scroll_back;          /* samples the graphs end before the newest (0: live) */
	int table_top;                 /* first device row on screen */
	bool detail_zoom;
	bool show_marks;
	bool show_why;                 /* the why pane: the source samples tasks meanwhile */
	int marks_top;                 /* marks panel scroll */

	/* this frame */
	struct layout layout;
	struct table_row *rows;
	size_t nrows, rows_cap;
	struct rect table_body;        /* where rows were drawn, for the mouse */
	int table_header_y;
	int column_x[COLUMNS_MAX + 1], column_w[COLUMNS_MAX + 1];
	size_t ncolumns_shown;
	float *graph_values;           /* reused by every frame's graphs */
	size_t graph_values_cap;
	struct graph_cell *graph_cells;
	size_t graph_cells_cap;

	/* theme */
	struct theme theme;
	struct theme_attrs attrs;
	enum theme_depth depth;

	/* terminal and loop */
	void *screen;                  /* SCREEN * */
	FILE *term_out;                /* where curses draws: stdout, or /dev/tty with --record - */
	bool term_started;
	sigset_t saved_mask;
	int sigfd, timerfd;
	struct announce_listener *announce;   /* changes `ioscope set` made from a shell */
	long intervals;                /* samples after the first, for -c */
	uint64_t diskstats_said[2];    /* odd /proc/diskstats lines said once */
	bool running;
	bool need_redraw;
	int exit_status;
	struct error fatal;
	bool have_fatal;
	double last_draw;              /* monotonic seconds */
	char host[65], kernel[65];

	/* footer status line and the clock (status.h) */
	struct status_line status;

	struct console_modal modals[CONSOLE_MODALS_MAX];
	size_t nmodals;

	/* the replay view and the record key (include/replay_view.h) */
	struct replay_view_state replay;
	struct record_key_state recording;
};

/* ---- console.c: the loop ---- */
double console_now(void);                 /* CLOCK_MONOTONIC seconds */
void console_set_interval(struct console *c, double seconds);
void console_redraw(struct console *c);   /* draw the whole frame now */
/* Read the source's next sample as the clock does: 1 a sample, 0 the end, -1 fatal (c->fatal). */
int console_take_sample(struct console *c);
bool console_controls_enabled(const struct console *c);
/* An event that did not come from comparing snapshots (a user mark, a change made
 * by ioscope): into the history, the marks panel, and the recording. */
void console_add_event(struct console *c, const struct event *ev);
/* Show a line in the footer for a few seconds. */
void console_message(struct console *c, bool warning, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The session's latest snapshot and history (the view may be frozen: view.c). */
static inline const struct snapshot *console_latest(const struct console *c) { return session_snapshot(c->session); }
static inline struct history *console_hist(const struct console *c) { return session_history(c->session); }
static inline bool console_ended(const struct console *c) { return session_ended(c->session); }

/* ---- view.c: what is shown ---- */
bool console_have_rates(const struct console *c);   /* an interval is shown */
const struct rates *console_view_rates(const struct console *c);
const struct snapshot *console_view_snap(const struct console *c);
uint64_t console_view_end(const struct console *c);   /* newest sample the graphs show, +1 */
void console_build_rows(struct console *c);
const struct device *console_selected_device(const struct console *c);
const struct device_rates *console_rates_of(const struct console *c, const char *name);
void console_select(struct console *c, const char *name, bool by_user);
void console_select_busiest(struct console *c);
void console_move_selection(struct console *c, int delta);
void console_freeze(struct console *c, bool on);
/* The device an event is about ("" when none: a user mark); mounts map to their device. */
void console_mark_device(const struct console *c, const struct history_mark *m, char *out, size_t len);
/* While the table is limited (DEVICE arguments, a filter), only the events about the
 * devices it shows (and user marks, and ioscope's own changes) are marked. */
bool console_mark_shown(const struct console *c, const struct history_mark *m);
int console_apply_columns(struct console *c, const char *text, struct error *err);
int console_apply_theme(struct console *c, const char *name);

/* ---- the panes (one file each) ----
 * Drawing changes no state: panes get the console read-only.  What a frame
 * decides (the rows, the layout, the table's columns and scroll, kept for the
 * mouse, the graphs' scratch buffers) is settled before drawing by console_redraw,
 * table_place and graphs_place. */
void header_draw(const struct console *c, const struct rect *r);
void strip_draw(const struct console *c, const struct rect *r);
/* Where the table's columns go and which rows it shows this frame (before drawing). */
void table_place(struct console *c, const struct rect *r);
void table_draw(const struct console *c, const struct rect *r);
void detail_draw(const struct console *c, const struct rect *r);
/* The why pane (src/ui/why.c): blocked tasks by wait channel, processes by I/O. */
void why_draw(const struct console *c, const struct rect *r);
/* The graphs' scratch buffers, sized for this frame (before drawing). */
void graphs_place(struct console *c, const struct rect *r);
void graphs_draw(const struct console *c, const struct rect *r);
void marks_draw(const struct console *c, const struct rect *r);
void footer_draw(const struct console *c, const struct rect *r);
/* Mouse: a click at (y, x) in the table; true when it hit a row or a header. */
bool table_click(struct console *c, int y, int x);

/* ---- position.c: a replay's position, "" while live ---- */
void console_source_position(const struct console *c, char *buf, size_t len);

/* ---- keys.c / actions.c ---- */
#define KEYF_CONTROL 0x01u   /* changes the kernel: refused while controls are disabled */
#define KEYF_REPLAY  0x02u   /* acts only on a replay */
#define KEY_BINDING_KEYS 4

struct console_binding {
	int keys[KEY_BINDING_KEYS];   /* 0-terminated */
	const char *names;            /* as help and the man page show them: "q, F10" */
	const char *help;             /* what it does, one line */
	const char *footer;           /* short label for the footer bar, or NULL */
	const char *section;          /* help screen grouping */
	unsigned flags;
	void (*action)(struct console *c);
};

extern const struct console_binding console_bindings[];
extern const size_t console_bindings_count;
const struct console_binding *console_binding_for(int key);
/* The sections of the help screen and man page, in order. */
const char *const *console_binding_sections(size_t *n);
/* The CONSOLE key list of ioscope(1), in mdoc (tests compare it to the man page). */
void console_bindings_mdoc(FILE *out);
/* Run the binding of key (or say why not). */
void console_dispatch_key(struct console *c, int key);

void action_quit(struct console *c);
void action_help(struct console *c);
void action_up(struct console *c);
void action_down(struct console *c);
void action_page_up(struct console *c);
void action_page_down(struct console *c);
void action_first(struct console *c);
void action_last(struct console *c);
void action_pin(struct console *c);
void action_metric_next(struct console *c);
void action_metric_prev(struct console *c);
void action_faster(struct console *c);
void action_slower(struct console *c);
void action_freeze(struct console *c);
void action_mark(struct console *c);
void action_filter(struct console *c);
void action_partitions(struct console *c);
void action_sort_next(struct console *c);
void action_sort_prev(struct console *c);
void action_sort_invert(struct console *c);
void action_columns(struct console *c);
void action_theme_next(struct console *c);
void action_detail(struct console *c);
void action_marks(struct console *c);
void action_why(struct console *c);
void action_scroll_back(struct console *c);
void action_scroll_forward(struct console *c);
void action_live(struct console *c);
void action_glyphs(struct console *c);
void action_refresh(struct console *c);

/* ---- term.c: the terminal and the signals that concern it ---- */
/* Block the signals we handle and read them from a signalfd (c->sigfd). */
int term_signals_open(struct console *c, struct error *err);
void term_signals_close(struct console *c);
/* curses on, in the state the console wants; -1 when there is no usable terminal. */
int term_start(struct console *c, struct error *err);
int term_check(const struct options *o, struct error *err);
/* Leave the terminal as we found it.  Safe to call twice. */
void term_stop(struct console *c);
/* ^Z: give the terminal back, stop, and take it again on SIGCONT. */
void term_suspend(struct console *c);
void term_resize(struct console *c);

/* ---- input.c ---- */
/* Next key from the terminal, -1 when none is waiting.  Mouse events come back as
 * KC(KEY_MOUSE) with the event in *mouse. */
struct console_mouse {
	int y, x;
	bool click, wheel_up, wheel_down;
};
int console_read_key(struct console_mouse *mouse);
void console_handle_mouse(struct console *c, const struct console_mouse *m);

/* What the samples left: the session, the frozen view, rows (console.c). */
void console_samples_free(struct console *c);
/* A control job or other descriptor a dialog waits on: the main loop polls it and
 * calls the dialog's ready() (modal.c). */
void console_modals_collect(struct console *c);

/* ---- modal.c ---- */
int console_modal_open(struct console *c, const struct modal_ops *ops, void *state);
void console_modal_close(struct console *c);   /* the topmost */
void console_modals_draw(const struct console *c);
/* true when a dialog took the key */
bool console_modal_key(struct console *c, int key);
void console_modals_free(struct console *c);

/* Lists in dialogs: Up/k, Down/j, Home, End move *current within n items (true when
 * key was one of them); scroll keeps *current in the rows shown from *top. */
bool console_list_move(size_t *current, size_t n, int key);
void console_list_scroll(size_t current, size_t *top, int rows);

typedef void (*prompt_done_fn)(struct console *c, const char *text, void *arg);
/* A one-line prompt in the footer: Enter calls done(text), Esc cancels. */
int console_prompt(struct console *c, const char *label, const char *initial,
		   prompt_done_fn done, void *arg);
/* The help screen (help.c) and the column chooser (column_chooser.c). */
int help_open(struct console *c);
int column_chooser_open(struct console *c);

/* ---- draw.c: drawing helpers ---- */
unsigned long ui_attr(const struct console *c, enum theme_role role);
/* Text clipped to w cells at (y, x); returns the cells used. */
int ui_put(int y, int x, int w, unsigned long attr, const char *text);
int ui_putf(int y, int x, int w, unsigned long attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void ui_fill(int y, int x, int w, unsigned long attr);
int ui_text_width(const char *text);
/* A pane title line: "─ Title ───" across the rect's first row. */
void ui_title(const struct console *c, const struct rect *r, const char *title, const char *right);
void ui_box(const struct console *c, const struct rect *r, const char *title);
/* A symbol in UTF-8 when the terminal speaks it, else its ASCII stand-in. */
const char *ui_sym(const struct console *c, const char *utf8, const char *ascii);
/* Text that fits in w cells: long paths keep their start and end around "…". */
void ui_ellipsize_middle(const struct console *c, const char *in, int w, char *out, size_t len);
/* Copy text, replacing "→" by "->" when the terminal is not UTF-8. */
void ui_text_for_terminal(const struct console *c, const char *in, char *out, size_t len);

#endif
