/* console_state.h - the console loop's own state and the files that change it:
 * the loop (console.c), the view state (view.c), the frame builder (frame.c), the
 * actions (actions.c), the terminal (term.c), the dialogs (modal.c, prompt.c,
 * help.c, column_chooser.c, control_*.c) and the replay view.  Panes never include
 * it: they get a struct frame (pane.h) and return actions (action.h).
 *
 * Everything the console knows lives in struct console, owned by console_run()'s
 * stack frame: no global mutable state.  The data (snapshots, rates, events,
 * history, recording) belong to its session (session.h); the rest is view state.
 *
 * Extension points for other areas:
 *  - panes: pane.h.  Keys: a line in console_bindings[] (keys.c) with its action.
 *  - dialogs: console_modal_open() with your own draw/key functions, or the
 *    ready-made console_prompt().
 *  - changes ioscope makes itself: console_add_event() marks them on the graphs,
 *    lists them in the marks panel and records them.
 */
#ifndef IOSCOPE_CONSOLE_STATE_H
#define IOSCOPE_CONSOLE_STATE_H

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
#include "keys.h"
#include "layout.h"
#include "options.h"
#include "pane.h"
#include "pane_table.h"
#include "rates.h"
#include "recorder.h"
#include "replay_view.h"
#include "run_watch.h"
#include "session.h"
#include "snapshot.h"
#include "source.h"
#include "status.h"
#include "theme.h"
#include "ui_draw.h"

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
	struct why_rates *frozen_why;  /* the why figures frozen with them (NULL: none) */
	bool frozen_have_why;
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
	const struct device_figure *columns[COLUMNS_MAX];
	size_t ncolumns;
	const struct device_figure *sort;  /* NULL: kernel order */
	bool sort_ascending;
	size_t graph_metric;           /* index in graph_metrics[] */
	bool tracing;                  /* the source traces (--trace, the b key) */
	enum graph_glyphs glyphs;
	uint64_t scroll_back;          /* samples the graphs end before the newest (0: live) */
	int zoom;                      /* history samples per dot column of the graphs (z, Z) */
	bool detail_zoom;
	bool show_marks;
	uint32_t panes_toggled;        /* bit i: console_panes[i] is shown/hidden unlike at start */
	int marks_top;                 /* marks panel scroll: the first row shown */
	uint64_t mark_selected;        /* history_mark_number() of the marks panel's selection, 0 none */

	/* what the last frame settled: where the panes went, the table's columns and
	 * scroll (for the mouse and the page keys), the graphs' scratch memory */
	struct layout layout;
	struct table_geometry table;
	struct graph_scratch scratch;
	struct table_row *rows;        /* rebuilt on every sample and frame (view.c) */
	size_t nrows, rows_cap;

	/* theme and terminal look */
	struct theme theme;
	struct ui_style style;
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

	/* `ioscope run`: the command watched (run_watch.h) */
	struct run_watch run;
	bool run_active;
	double run_started;            /* monotonic seconds */

	/* the replay view and the record key (replay_view.h) */
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

/* ---- frame.c: the view model of one frame (pane.h) ---- */
void frame_build(struct console *c, struct frame *f);
/* Whether console_panes[i] is drawn this frame: shown, first of its slot, and room there. */
bool console_pane_drawn(const struct console *c, size_t i);
/* Pane i is shown (hidden panes toggled on, the others not toggled off). */
bool console_pane_shown(const struct console *c, size_t i);

/* ---- view.c: what is shown ---- */
bool console_have_rates(const struct console *c);   /* an interval is shown */
const struct rates *console_view_rates(const struct console *c);
const struct snapshot *console_view_snap(const struct console *c);
const struct why_rates *console_view_why(const struct console *c);   /* NULL: none yet */
uint64_t console_view_end(const struct console *c);   /* newest sample the graphs show, +1 */
void console_build_rows(struct console *c);
const struct device *console_selected_device(const struct console *c);
const struct device_rates *console_rates_of(const struct console *c, const char *name);
void console_select(struct console *c, const char *name, bool by_user);
void console_select_busiest(struct console *c);
void console_move_selection(struct console *c, int delta);
void console_freeze(struct console *c, bool on);
int console_apply_columns(struct console *c, const char *text, struct error *err);
int console_apply_theme(struct console *c, const char *name);

/* ---- position.c: a replay's position, "" while live ---- */
void console_source_position(const struct console *c, char *buf, size_t len);

/* ---- actions.c: what the user asked for, applied ---- */
void console_apply(struct console *c, const struct ui_action *a);
/* A key: a dialog's if one is open, else the key table's action (or why not). */
void console_dispatch_key(struct console *c, int key);

void action_quit(struct console *c);
void action_help(struct console *c);
void action_pin(struct console *c);
void action_freeze(struct console *c);
void action_mark(struct console *c);
void action_filter(struct console *c);
void action_partitions(struct console *c);
void action_sort_invert(struct console *c);
void action_columns(struct console *c);
void action_theme_next(struct console *c);
void action_detail(struct console *c);
void action_marks(struct console *c);
void action_live(struct console *c);
void action_glyphs(struct console *c);
void action_refresh(struct console *c);
/* Samples the graphs show across (their plot, at the zoom). */
uint64_t console_graph_window(const struct console *c);
/* The zoom steps: history samples per dot column of the graphs, 1 the finest. */
void action_zoom_out(struct console *c);
void action_zoom_in(struct console *c);

/* ---- mark_select.c: the marks panel's selection, and the graphs going to it ---- */
void mark_select_older(struct console *c);   /* the next row down the marks panel */
void mark_select_newer(struct console *c);
void mark_select_number(struct console *c, uint64_t number);
void mark_select_clear(struct console *c);

/* trace_key.c: the eBPF view turned on or off by the source, marked as an event */
void action_trace(struct console *c);

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
/* The same with a suggested text, shown selected: Enter takes it, the first character
 * typed (or a deletion) replaces it, a cursor move keeps it to edit. */
int console_prompt_suggest(struct console *c, const char *label, const char *suggestion,
			   prompt_done_fn done, void *arg);
/* The help screen (help.c) and the column chooser (column_chooser.c). */
int help_open(struct console *c);
int column_chooser_open(struct console *c);

#endif
