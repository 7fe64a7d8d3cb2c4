/* console.c - the interactive console: its context, the main loop, and what
 * happens on each sample.
 *
 * One poll() waits on the terminal, the signalfd, and the sample clock (the
 * source's own timer, or ours for sources that are not paced: fixture sequences,
 * replays).  Keys are handled and drawn at once, never behind a sample; samples
 * redraw at most every MIN_FRAME so a 10 ms interval does not mean 100 frames a
 * second.  Per sample: session_step() (read -> events -> rates -> history -> recorder,
 * src/core/session.c) -> rows -> redraw.  A dialog's descriptor (a control job) is in
 * the poll set too: its completion is handled here, never while drawing.
 */
#include <errno.h>
#include <math.h>
#include <ncurses.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "console.h"
#include "session_log.h"
#include "console_state.h"
#include "procpid.h"
#include "text.h"

#define MIN_FRAME 0.04        /* seconds between redraws caused by samples */

double console_now(void)
{
	return status_clock();
}

bool console_controls_enabled(const struct console *c)
{
	return c->src->live;
}

void console_message(struct console *c, bool warning, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	status_post(&c->status, console_now(), warning, fmt, ap);
	va_end(ap);
	c->need_redraw = true;
}

void console_add_event(struct console *c, const struct event *ev)
{
	struct error err;
	if (session_add_own_event(c->session, ev, &err) < 0)
		console_message(c, true, "%s", err.msg);
	c->need_redraw = true;
}

/* ---- changes announced by `ioscope set` / `remount` from a shell ---- */

/* Heard between samples: as the dialogs' changes, ioscope's, marked at once. */
static void on_announced(struct console *c)
{
	struct error err;
	if (session_take_announced(c->session, &err) < 0)
		console_message(c, true, "%s", err.msg);
	c->need_redraw = true;
}

static void announce_open(struct console *c)
{
	struct error err;
	if (c->src->live)
		c->announce = announce_listen(&session_log_announce_codec, &err);   /* without it, such changes are "observed" */
	session_listen(c->session, c->announce, true);
}

/* After a sample: say what a burst of announcements cost (announce.h). */
static void announce_interval_note(struct console *c)
{
	char note[160];
	if (announce_interval_end(c->announce, note, sizeof note))
		console_message(c, true, "%s", note);
}

/* ---- `ioscope run`: the command watched (run_watch.h) ---- */

/* Its output goes to a file, never onto the screen; its start is a mark. */
static int run_start(struct console *c, struct error *err)
{
	struct event start;
	struct run_watch_opts o = { .command = c->opts->command, .output_path = c->opts->output_path,
				    .to_file = true, .linger = c->opts->linger, .console = true,
				    .proc = &procpid_reader };
	int rc = run_watch_start(&c->run, &o, &start, err);
	if (rc < 0)
		return rc;
	c->run_active = true;
	c->run_started = console_now();
	console_add_event(c, &start);
	console_message(c, false, "running %s: output in %s", start.new_value, c->run.output);
	event_free(&start);
	return 0;
}

/* The pidfd became readable: the exit is a mark, collected here, never while drawing. */
static void on_run_exit(struct console *c)
{
	struct error err;
	struct event ev;
	int r = run_watch_collect(&c->run, &ev, &err);
	if (r < 0)
		console_message(c, true, "run: %s", err.msg);
	if (r <= 0)
		return;
	console_add_event(c, &ev);
	console_message(c, false, "%s exited: %s%s", c->opts->command[0], ev.new_value,
			c->run.linger < 0 ? "; q quits" : "");
	event_free(&ev);
}

/* After a sample: the command's orphans that exited reaped; the linger after the exit
 * is over (--linger). */
static void run_check_done(struct console *c)
{
	if (!c->run_active)
		return;
	run_watch_reap(&c->run);
	if (run_watch_done(&c->run, console_latest(c)))
		c->running = false;
}

/* ---- the sample clock for sources that do not pace themselves ---- */

static int timer_arm(struct console *c, double seconds)
{
	struct itimerspec its;
	memset(&its, 0, sizeof its);
	its.it_interval.tv_sec = (time_t)seconds;
	its.it_interval.tv_nsec = (long)((seconds - floor(seconds)) * 1e9);
	its.it_value = its.it_interval;
	return timerfd_settime(c->timerfd, 0, &its, NULL);
}

static bool own_clock(struct console *c)
{
	return !c->src->paced || c->src->ops->wait_fd(c->src) < 0;
}

static int sample_fd(struct console *c)
{
	if (console_ended(c))
		return -1;
	return own_clock(c) ? c->timerfd : c->src->ops->wait_fd(c->src);
}

void console_set_interval(struct console *c, double seconds)
{
	struct error err;
	if (c->src->ops->set_interval(c->src, seconds, &err) < 0) {
		console_message(c, true, "interval: %s", err.msg);
		return;
	}
	c->interval = seconds;
	if (c->timerfd >= 0 && own_clock(c))
		timer_arm(c, replay_view_timer_period(c, seconds));   /* a replay's speed */
	/* the same span of history at the new interval; a replay's samples keep theirs */
	if (!source_can_seek(c->src) &&
	    session_set_history_capacity(c->session,
					 history_capacity_for(c->cfg.history, seconds), &err) < 0) {
		console_message(c, true, "interval %g s; %s", seconds, err.msg);
		return;
	}
	console_message(c, false, "interval %g s", seconds);
}

/* ---- samples ---- */

/* 1: a sample; 0: the source has no more; -1: fatal (c->fatal). */
static int take_sample(struct console *c)
{
	bool had_rates = session_rates(c->session) != NULL;
	int r = session_step(c->session, &c->fatal);
	if (r < 0)
		return -1;
	if (r == 0) {
		console_message(c, false, "end of data: the last sample stays on screen (q quits)");
		return 0;
	}
	/* a scrolled-back view stays on the moment it shows */
	if (had_rates && c->scroll_back && !c->frozen)
		c->scroll_back++;
	announce_interval_note(c);
	struct error err;
	if (session_sink_error(c->session, record_key_sink(c), &err))
		console_message(c, true, "recording: %s", err.msg);
	char note[160];
	if (source_diskstats_notice(c->src, c->opts->verbose, c->diskstats_said, note, sizeof note))
		console_message(c, true, "%s", note);
	console_build_rows(c);
	console_select_busiest(c);
	c->need_redraw = true;
	return 1;
}

int console_take_sample(struct console *c)
{
	return take_sample(c);
}

/* ---- drawing ---- */

/* One line centred, cut with an ellipsis where even that is too narrow. */
static void put_centred(const struct console *c, int y, enum theme_role role, const char *text)
{
	int w = ui_text_width(text);
	if (y >= 0 && y < LINES)
		ui_put_ellipsis(&c->style, y, COLS > w ? (COLS - w) / 2 : 0, COLS, ui_attr(&c->style, role),
				text);
}

/* "terminal too small: 70x20, ioscope needs 80x24" on one line, or its two halves on two
 * where it does not fit (40 columns), and how to quit. */
static void draw_too_small(const struct console *c)
{
	char size[48], need[48], msg[96];
	snprintf(size, sizeof size, "terminal too small: %dx%d", COLS, LINES);
	snprintf(need, sizeof need, "ioscope needs %dx%d", CONSOLE_MIN_COLS, CONSOLE_MIN_LINES);
	snprintf(msg, sizeof msg, "%s, %s", size, need);
	int y = LINES / 2;
	if (ui_text_width(msg) <= COLS) {
		put_centred(c, y, TR_WARNING, msg);
	} else {
		put_centred(c, --y, TR_WARNING, size);
		put_centred(c, ++y, TR_WARNING, need);
	}
	put_centred(c, y + 1, TR_DIM, "q to quit");
}

/* The panes' place hooks settle the table's columns and scroll and size the graphs'
 * scratch in the frame; the loop keeps what must outlive it. */
static void place_panes(struct console *c, struct frame *f)
{
	for (size_t i = 0; i < console_panes_count; i++) {
		const struct pane_def *p = console_panes[i];
		if (p->place && console_pane_drawn(c, i))
			p->place(f, layout_slot(&c->layout, p->slot));
	}
	c->table = f->table;
	c->marks_top = f->marks_top;
	if (c->scratch.short_of_memory) {
		c->scratch.short_of_memory = false;
		console_message(c, true, "out of memory: graphs not drawn");
	}
}

/* The rows the pane shown in slot would fill at width (pane_def rows); 0: not known. */
static int slot_rows(const struct console *c, const struct frame *f, enum layout_slot slot, int width)
{
	for (size_t i = 0; i < console_panes_count; i++) {
		const struct pane_def *p = console_panes[i];
		if (p->slot == slot && console_pane_shown(c, i))
			return p->rows ? p->rows(f, width) : 0;
	}
	return 0;
}

void console_redraw(struct console *c)
{
	console_build_rows(c);
	struct frame f;
	frame_build(c, &f);
	struct layout_want want = { LINES, COLS, (int)c->nrows, c->detail_zoom, c->show_marks,
				    slot_rows(c, &f, SLOT_DETAIL, COLS) };
	layout_compute(&c->layout, &want);
	if (!c->layout.too_small)
		place_panes(c, &f);
	erase();
	if (c->layout.too_small) {
		draw_too_small(c);
	} else {
		for (size_t i = 0; i < console_panes_count; i++) {
			const struct pane_def *p = console_panes[i];
			if (console_pane_drawn(c, i))
				p->draw(&f, layout_slot(&c->layout, p->slot));
		}
		console_modals_draw(c);
	}
	refresh();
	c->need_redraw = false;
	c->last_draw = console_now();
}

/* A click, and the wheel over a pane that takes it (the marks panel), go to the pane
 * under the pointer, which says what they mean; elsewhere the wheel moves the table's
 * selection. */
static void handle_mouse(struct console *c, const struct console_mouse *m)
{
	struct ui_action a = { UA_NONE, 0, "" };
	if (c->nmodals || c->layout.too_small)
		return;
	bool wheel = m->wheel_up || m->wheel_down;
	if (!wheel && !m->click)
		return;
	struct frame f;
	frame_build(c, &f);
	for (size_t i = 0; i < console_panes_count && a.kind == UA_NONE; i++) {
		const struct pane_def *p = console_panes[i];
		const struct rect *r = layout_slot(&c->layout, p->slot);
		bool inside = m->y >= r->y && m->y < r->y + r->h && m->x >= r->x &&
			      m->x < r->x + r->w;
		if (!inside || !console_pane_drawn(c, i))
			continue;
		if (wheel && p->wheel)
			a = p->wheel(&f, r, m->wheel_up ? -1 : 1);
		else if (!wheel && p->click)
			a = p->click(&f, r, m->y, m->x);
	}
	if (wheel && a.kind == UA_NONE)
		a = (struct ui_action){ UA_MOVE, m->wheel_up ? -1 : 1, "" };
	console_apply(c, &a);
}

/* ---- input and signals ---- */

#define KEYS_PER_WAKEUP 256

static void handle_keys(struct console *c)
{
	struct console_mouse mouse;
	int key;
	/* bounded: a terminal that never stops sending must not starve the samples */
	for (int i = 0; i < KEYS_PER_WAKEUP && (key = console_read_key(&mouse)) != -1; i++) {
		if (key == KC(KEY_MOUSE))
			handle_mouse(c, &mouse);
		else if (key == KC(KEY_RESIZE))
			continue;   /* SIGWINCH comes through the signalfd; resizeterm queues these */
		else if (c->layout.too_small && c->nmodals == 0)
			c->running = key != 'q' && key != KC(KEY_F(10));   /* only q works there */
		else
			console_dispatch_key(c, key);
		if (!c->running)
			return;
	}
}

static void handle_signals(struct console *c)
{
	struct signalfd_siginfo si;
	while (read(c->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
		switch (si.ssi_signo) {
		case SIGWINCH:
			term_resize(c);
			break;
		case SIGTSTP:
			term_suspend(c);
			break;
		case SIGCONT:
			clearok(curscr, TRUE);
			c->need_redraw = true;
			break;
		default:   /* INT TERM HUP QUIT: leave cleanly */
			c->running = false;
			break;
		}
	}
}

static void consume_timer(int fd)
{
	uint64_t expirations;
	if (read(fd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
		return;
}

static int poll_timeout(const struct console *c)
{
	double now = console_now(), wait = -1;
	if (c->need_redraw)
		wait = c->last_draw + MIN_FRAME - now;
	double expires = status_wait(&c->status, now);
	if (expires >= 0 && (wait < 0 || expires < wait))
		wait = expires;
	if (wait < 0 && !c->need_redraw)
		return -1;
	return wait <= 0 ? 0 : (int)ceil(wait * 1000);
}

/* -c N: like top -n N, the console ends after N intervals (the first sample is the
 * baseline, as in batch mode), with the last one drawn. */
static void count_interval(struct console *c)
{
	if (c->opts->count == 0 || ++c->intervals < c->opts->count)
		return;
	console_redraw(c);
	c->running = false;
}

static void on_sample_due(struct console *c, int fd)
{
	struct error err;
	if (fd == c->timerfd)
		consume_timer(fd);
	else if (source_wait(c->src, &err) < 0)
		return;   /* EINTR or not due after all: poll again */
	if (replay_view_paused(c))
		return;   /* the replay view holds its position */
	/* A change that finished is taken before the sample, so that it is known as
	 * ioscope's before this sample's diff sees it too. */
	console_modals_collect(c);
	int r = take_sample(c);
	if (r < 0) {
		c->have_fatal = true;
		c->exit_status = 1;
		c->running = false;
	} else if (r > 0) {
		count_interval(c);
		run_check_done(c);
	}
}

/* The descriptors open dialogs wait on (a control job's), into fds. */
static nfds_t modal_fds(struct console *c, struct pollfd *fds)
{
	nfds_t n = 0;
	for (size_t i = 0; i < c->nmodals; i++) {
		const struct console_modal *m = &c->modals[i];
		int fd = m->ops->fd ? m->ops->fd(m->state) : -1;
		if (fd >= 0)
			fds[n++] = (struct pollfd){ fd, POLLIN, 0 };
	}
	return n;
}

static void main_loop(struct console *c)
{
	while (c->running) {
		if (status_expire(&c->status, console_now()))
			c->need_redraw = true;   /* the footer goes back to the key bar */
		if (c->need_redraw && console_now() - c->last_draw >= MIN_FRAME)
			console_redraw(c);
		int sfd = sample_fd(c);
		struct pollfd fds[5 + CONSOLE_MODALS_MAX] = {
			{ STDIN_FILENO, POLLIN, 0 }, { c->sigfd, POLLIN, 0 }, { sfd, POLLIN, 0 },
			{ announce_fd(c->announce), POLLIN, 0 },
			{ c->run_active ? run_watch_fd(&c->run) : -1, POLLIN, 0 },
		};
		nfds_t nfds = 5 + modal_fds(c, fds + 5);
		int n = poll(fds, nfds, poll_timeout(c));
		if (n < 0 && errno != EINTR) {
			error_errno(&c->fatal, "poll", errno);
			c->have_fatal = true;
			c->exit_status = 1;
			return;
		}
		if (n <= 0)
			continue;
		if (fds[1].revents & POLLIN)
			handle_signals(c);
		if (fds[3].revents & POLLIN)
			on_announced(c);
		if (fds[4].revents & (POLLIN | POLLHUP))
			on_run_exit(c);
		if (fds[0].revents & (POLLHUP | POLLERR)) {
			c->running = false;   /* the terminal went away */
			return;
		}
		if (fds[0].revents & POLLIN) {
			handle_keys(c);
			if (c->running)
				console_redraw(c);   /* input is answered now, not at the next sample */
		}
		if (c->running && nfds > 5)
			console_modals_collect(c);   /* a control job finished */
		if (c->running && sfd >= 0 && (fds[2].revents & POLLIN))
			on_sample_due(c, sfd);
	}
}

/* ---- setting up ---- */

static void load_config(struct console *c, char *msg, size_t len)
{
	char path[4096], warn[512] = "";
	unsigned nwarn = 0;
	struct error err;
	console_config_default(&c->cfg);
	console_config_path(path, sizeof path);
	int bad = console_config_load(&c->cfg, path, &err, warn, sizeof warn, &nwarn);
	if (bad)
		snprintf(msg, len, "%s%s", err.msg, bad > 1 ? " (and more)" : "");
	else if (nwarn)
		snprintf(msg, len, "%s", warn);
}

static void apply_config(struct console *c)
{
	struct error err;
	if (console_apply_columns(c, c->cfg.columns, &err) < 0)
		console_apply_columns(c, COLUMNS_DEFAULT, &err);
	const struct graph_metric *m = graph_metric_find(c->cfg.graph);
	c->graph_metric = m ? graph_metric_index(m) : 0;
	c->sort = c->cfg.sort[0] ? column_find(c->cfg.sort) : NULL;
	c->sort_ascending = c->cfg.sort_reverse;
	c->show_partitions = c->cfg.partitions;
	c->show_marks = true;
}

static int choose_interval(struct console *c, struct error *err)
{
	c->interval = c->src->interval > 0 ? c->src->interval : c->opts->interval;
	if (c->opts->interval_set || !c->cfg.interval_set || c->cfg.interval == c->interval)
		return 0;
	if (c->src->ops->set_interval(c->src, c->cfg.interval, err) < 0)
		return -1;
	c->interval = c->cfg.interval;
	return 0;
}

/* The machine the figures come from: this one, or the one a replay recorded. */
static void host_identity(struct console *c)
{
	struct utsname u;
	struct source_info info;
	if (c->src->ops->describe) {
		c->src->ops->describe(c->src, &info);
		snprintf(c->host, sizeof c->host, "%s", info.host);
		snprintf(c->kernel, sizeof c->kernel, "%s", info.kernel);
	} else if (c->src->live && uname(&u) == 0) {
		snprintf(c->host, sizeof c->host, "%s", u.nodename);
		snprintf(c->kernel, sizeof c->kernel, "Linux %s", u.release);
	} else {
		snprintf(c->host, sizeof c->host, "fixture");
		c->kernel[0] = '\0';
	}
}

/* A damaged replay skips records; say so in the footer, not on stderr under curses. */
static void replay_warnings(struct console *c)
{
	struct source_info info;
	if (!c->src->ops->describe)
		return;
	c->src->ops->describe(c->src, &info);
	if (info.warnings)
		console_message(c, true, "%zu damaged record(s) skipped; first: %s", info.warnings,
				info.first_warning);
}

static enum graph_glyphs choose_glyphs(const struct console *c)
{
	if (!c->style.utf8)
		return GLYPHS_ASCII;
	switch (c->cfg.graph_style) {
	case GRAPH_STYLE_BLOCK: return GLYPHS_BLOCK;
	case GRAPH_STYLE_ASCII: return GLYPHS_ASCII;
	default: return GLYPHS_BRAILLE;
	}
}

/* DEVICE arguments (names or paths, resolved on the first snapshot), else the
 * devices a replayed recording was made for: the table shows those, and the
 * first is selected.  -1: unknown. */
static int resolve_devices(struct console *c, struct error *err)
{
	if (session_select(c->session, c->opts->devices, c->opts->ndevices, err) < 0)
		return -1;
	const struct selection *sel = session_selection(c->session);
	for (size_t i = 0; i < sel->n && c->nonly < CONSOLE_ONLY_MAX; i++)
		snprintf(c->only[c->nonly++], sizeof c->only[0], "%s", sel->names[i]);
	if (sel->n) {
		console_select(c, sel->names[0], true);
		const struct device *d = snapshot_find_device(console_latest(c), sel->names[0]);
		if (d && d->is_partition)
			c->show_partitions = true;
	}
	return 0;
}

static int console_init(struct console *c, const struct options *o, struct source *src,
			struct recorder *rec, char *config_msg, size_t len)
{
	memset(c, 0, sizeof *c);
	c->opts = o;
	c->src = src;
	c->rec = rec;
	c->sigfd = c->timerfd = -1;
	c->announce = NULL;
	c->zoom = 1;
	snapshot_init(&c->frozen_snap);
	rates_init(&c->frozen_rates);
	load_config(c, config_msg, len);
	apply_config(c);
	c->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	c->running = true;
	return 0;
}

void console_samples_free(struct console *c)
{
	session_close(c->session);   /* recorders belong to main and the record key */
	c->session = NULL;
	snapshot_free(&c->frozen_snap);
	rates_free(&c->frozen_rates);
	free(c->frozen_why);
	c->frozen_why = NULL;
	free(c->rows);
	free(c->scratch.values);
	free(c->scratch.cells);
	free(c->scratch.heat);
	free(c->scratch.heat_traced);
	c->scratch.heat = NULL;
	c->scratch.heat_traced = NULL;
	c->rows = NULL;
	c->scratch.values = NULL;
	c->scratch.cells = NULL;
}

static void console_cleanup(struct console *c)
{
	if (c->run_active)
		run_watch_close(&c->run);   /* still running: SIGTERM, then SIGKILL */
	c->run_active = false;
	console_modals_free(c);
	record_key_close(c);
	term_stop(c);
	term_signals_close(c);
	announce_close(c->announce);
	if (c->timerfd >= 0)
		close(c->timerfd);
	console_samples_free(c);
}

/* Everything before the terminal is taken, so that mistakes print plainly. */
static int console_prepare(struct console *c)
{
	struct error err;
	if (choose_interval(c, &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 2;
	}
	/* sized for the interval chosen: an hour at 0.1 s is 36000 samples */
	struct session_opts so = { history_capacity_for(c->cfg.history, c->interval) };
	c->session = session_open(c->src, &so, &err);
	if (!c->session) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 1;
	}
	/* our clock only for sources that do not pace themselves: no needless wake-ups */
	if (c->timerfd < 0 || (own_clock(c) && timer_arm(c, c->interval) < 0)) {
		fprintf(stderr, "ioscope: timerfd: %s\n", strerror(errno));
		return 1;
	}
	int r = take_sample(c);
	if (r <= 0) {
		text_printf(stderr, "ioscope: %s\n", r < 0 ? c->fatal.msg : "the source has no samples");
		return 1;
	}
	if (resolve_devices(c, &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 2;
	}
	host_identity(c);
	announce_open(c);
	return 0;
}

int console_run(const struct options *o, struct source *src, struct recorder *rec)
{
	struct console c;
	char config_msg[600] = "";
	struct error err;
	if (term_check(o, &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 2;
	}
	/* the recording starts once arguments and terminal are known good */
	if (console_init(&c, o, src, NULL, config_msg, sizeof config_msg) < 0) {
		fprintf(stderr, "ioscope: out of memory\n");
		console_cleanup(&c);
		return 1;
	}
	int status = console_prepare(&c);
	src->quiet = true;   /* from here, warnings go to the footer, not under curses */
	if (status == 0 && (term_signals_open(&c, &err) < 0 || term_start(&c, &err) < 0)) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		status = 2;
	}
	c.rec = rec;
	if (status == 0 && rec && session_add_sink(c.session, recorder_sink(rec), &err) < 0)
		console_message(&c, true, "recording: %s", err.msg);
	int run_rc = status == 0 && o->command ? run_start(&c, &err) : 0;
	if (run_rc < 0) {
		recorder_discard(rec);
		console_cleanup(&c);
		text_printf(stderr, "ioscope: run: %s\n", err.msg);
		return run_rc == RUN_WATCH_REFUSED ? 1 : 127;
	}
	if (status != 0) {
		console_cleanup(&c);
		return status;
	}
	c.glyphs = choose_glyphs(&c);
	console_apply_theme(&c, o->theme ? o->theme : c.cfg.theme);
	if (!c.status.warning)
		c.status.text[0] = '\0';   /* "theme default" is not news at start */
	if (config_msg[0])
		console_message(&c, true, "%s", config_msg);
	replay_warnings(&c);
	/* --trace: refused (rights, build, kernel), the console goes on without it and says why */
	if (o->trace && source_trace(src, true, &err) < 0)
		console_message(&c, true, "%s", err.msg);
	else
		c.tracing = o->trace;
	/* --tasks: processes read all along (the D-tasks graph), not only under the why pane */
	if (o->tasks && source_set_tasks(src, SOURCE_TASKS_EVERY_SAMPLE, &err) < 0)
		console_message(&c, true, "processes: %s", err.msg);
	if (source_live_probe_notice(src)[0])
		console_message(&c, true, "probe: %s", source_live_probe_notice(src));
	console_build_rows(&c);
	console_select_busiest(&c);
	console_redraw(&c);
	main_loop(&c);
	status = c.exit_status;
	if (c.run_active && status == 0 && !c.have_fatal)
		status = run_watch_status(&c.run);   /* the command's, as a shell gives it */
	bool fatal = c.have_fatal, ran = c.run_active;
	struct error fatal_err = c.fatal;
	console_cleanup(&c);
	if (fatal)
		text_printf(stderr, "ioscope: %s\n", fatal_err.msg);
	char note[256];
	if (ran && child_stop_note(&c.run.stopped, note, sizeof note))
		fprintf(stderr, "ioscope: run: %s\n", note);   /* the screen is the shell's again */
	return status;
}
