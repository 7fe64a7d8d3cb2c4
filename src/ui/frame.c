/* frame.c - the view model of one frame (pane.h), built by the console loop from
 * its session and view state before anything is drawn.  Panes read only this. */
#include <string.h>

#include "console_state.h"
#include "loopdev.h"
#include "text.h"

/* "RUN 12s output /tmp/ioscope-run-x1Yz9q.out", "EXIT 4 (2.1 s) output ..." */
static void frame_run(const struct console *c, struct frame *f)
{
	const struct run_watch *w = &c->run;
	size_t used = 0;
	if (!c->run_active)
		return;
	if (w->exited)
		used = text_appendf(f->run, sizeof f->run, used, "EXIT %d (%.1f s)",
				    w->exit.exit_code, w->exit.elapsed);
	else
		used = text_appendf(f->run, sizeof f->run, used, "RUN %.0fs",
				    status_clock() - c->run_started);
	/* a long path: its file name (the footer said it whole at the start, the log has it) */
	const char *slash = strrchr(w->output, '/');
	if (strlen(w->output) > 32 && slash)
		text_appendf(f->run, sizeof f->run, used, " output …%s", slash);
	else if (w->output[0])
		text_appendf(f->run, sizeof f->run, used, " output %s", w->output);
}

/* Marks looked at, newest first, for the matrix's: its steps come every few seconds to
 * minutes, so its newest is among the last marks unless something else floods them. */
#define MATRIX_MARKS_SCANNED 1024

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* The newest matrix step mark at or before the sample shown, live (announced by the
 * matrix) or replayed (a run's log): its progress, advanced to the shown sample's time. */
static void frame_matrix(const struct console *c, struct frame *f)
{
	const struct history *h = f->hist;
	if (!h || !f->snap)
		return;
	uint64_t end = c->frozen ? c->frozen_end : history_count(h);
	size_t n = history_mark_count(h);
	for (size_t i = n, looked = 0; i-- > 0 && looked < MATRIX_MARKS_SCANNED; looked++) {
		const struct history_mark *m = history_mark_get(h, i);
		if (m->n >= end || m->kind != EVENT_RUN || strcmp(m->object, "matrix") != 0)
			continue;
		struct matrix_status s;
		if (!matrix_status_parse(m->result, &s))
			return;   /* a log from before marks carried progress */
		double age = seconds_between(&m->wall, &f->snap->wall);
		age = age > 0 ? age : 0;   /* announced after the latest sample */
		if (!matrix_status_current(&s, age))
			return;
		matrix_status_advance(&s, age);
		f->matrix = s;
		f->have_matrix = true;
		return;
	}
}

static void frame_header(const struct console *c, struct frame *f)
{
	f->host = c->host;
	f->kernel = c->kernel;
	f->interval = c->interval;
	console_source_position(c, f->position, sizeof f->position);
	f->frozen = c->frozen;
	f->ended = console_ended(c);
	f->live = c->src->live;   /* as console_controls_enabled() */
	f->recording = record_key_writing(c);
	f->rec_failure = f->recording ? sink_failure(record_key_sink(c)) : NULL;
	f->rec_paused = record_key_paused(c);
	f->rec_path = record_key_path(c);
	frame_run(c, f);
}

/* From the snapshot shown: the source read the chain when it described the device. */
static void frame_loop_backing(struct frame *f)
{
	const struct device *d = f->selected_dev;
	if (d && d->is_partition)
		d = snapshot_find_device(f->snap, d->parent);
	if (!d)
		return;
	loop_backing_describe(d, f->snap, f->loop_backing, sizeof f->loop_backing);
	size_t n = strlen(d->loop.file);
	if (strncmp(f->loop_backing, d->loop.file, n) == 0)
		f->loop_file_len = n;
}

static void frame_table(const struct console *c, struct frame *f)
{
	f->rows = c->rows;
	f->nrows = c->nrows;
	f->selected = c->selected;
	f->following = !c->user_selected && c->selected[0];
	f->selected_dev = console_selected_device(c);
	f->pins = c->pins;
	f->npins = c->npins;
	f->filter = c->filter;
	f->limited = c->nonly > 0 || c->filter[0];
	f->columns = c->columns;
	f->ncolumns = c->ncolumns;
	f->sort = c->sort;
	f->sort_ascending = c->sort_ascending;
	f->cfg = &c->cfg;
	f->table = c->table;   /* the scroll position goes on from the last frame */
}

void frame_build(struct console *c, struct frame *f)
{
	memset(f, 0, sizeof *f);
	f->style = c->style;
	f->glyphs = c->glyphs;
	frame_header(c, f);
	f->snap = console_view_snap(c);
	f->rates = console_view_rates(c);
	f->have_rates = console_have_rates(c);
	f->why = console_view_why(c);
	f->hist = console_hist(c);
	frame_matrix(c, f);
	f->view_end = console_view_end(c);
	f->scroll_back = c->scroll_back;
	f->zoom = c->zoom > 1 ? c->zoom : 1;
	f->mark_selected = c->mark_selected;
	f->marks_top = c->marks_top;   /* the marks panel's place hook keeps the selection in view */
	frame_table(c, f);
	frame_loop_backing(f);
	f->metric = &graph_metrics[c->graph_metric];
	f->tracing = c->tracing;
	f->trace_hist = session_trace_history(c->session);
	double now = status_clock();
	f->status = status_current(&c->status, now);
	f->status_warning = c->status.warning;
	f->scratch = &c->scratch;   /* the graphs reuse it: drawing writes only scratch */
}

bool console_pane_shown(const struct console *c, size_t i)
{
	bool flipped = i < 32 && (c->panes_toggled >> i & 1u);
	return console_panes[i]->hidden == flipped;
}

bool console_pane_drawn(const struct console *c, size_t i)
{
	const struct pane_def *p = console_panes[i];
	if (c->layout.too_small || !layout_slot(&c->layout, p->slot)->h || !console_pane_shown(c, i))
		return false;
	for (size_t j = 0; j < i; j++)
		if (console_panes[j]->slot == p->slot && console_pane_shown(c, j))
			return false;
	return true;
}
