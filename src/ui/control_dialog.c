/* control_dialog.c - one dialog per change: choose -> confirm the risks -> pending -> result.
 *
 * The change runs on the control module's worker thread (control_job_*).  While it
 * is pending, the job's descriptor is in the console's poll set (dialog_fd); when it
 * becomes readable the main loop calls dialog_ready, which takes the result, marks
 * its events (console_add_event: history, marks panel, recording) and shows what
 * happened.  Drawing only draws: a terminal too small for the dialog loses nothing.
 * Samples and drawing go on meanwhile: nothing in the console waits for the queue.
 */
#include <limits.h>
#include <ncurses.h>
#include <stdlib.h>
#include <string.h>

#include "announce.h"
#include "control_ui.h"
#include "session_log.h"

#define BOX_MAX_W 100

struct control_dialog *control_dialog_new(enum control_dialog_kind kind, const char *root,
					  const char *device, const char *title)
{
	struct control_dialog *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->kind = kind;
	d->phase = CD_LIST;
	snprintf(d->root, sizeof d->root, "%s", root ? root : "");
	snprintf(d->device, sizeof d->device, "%s", device);
	snprintf(d->title, sizeof d->title, "%s", title);
	return d;
}

void control_dialog_add_item(struct control_dialog *d, const char *label, const char *value,
			     const char *extra)
{
	if (d->nitems == CD_ITEMS_MAX)
		return;
	snprintf(d->labels[d->nitems], sizeof d->labels[0], "%s", label);
	snprintf(d->values[d->nitems], sizeof d->values[0], "%s", value);
	snprintf(d->extra[d->nitems], sizeof d->extra[0], "%s", extra ? extra : "");
	d->nitems++;
}

static void edit_begin(struct control_dialog *d, const char *text)
{
	d->phase = CD_EDIT;
	line_edit_set(&d->edit, text, MOUNT_OPTS_MAX - 1, true);
	d->hint[0] = '\0';
}

void control_dialog_edit_mount(struct control_dialog *d, const char *mountpoint, const char *fstype,
			       const char *mount_opts, const char *super_opts)
{
	snprintf(d->mountpoint, sizeof d->mountpoint, "%s", mountpoint);
	snprintf(d->fstype, sizeof d->fstype, "%s", fstype);
	snprintf(d->info[0], sizeof d->info[0], "mount options: %s", mount_opts);
	snprintf(d->info[1], sizeof d->info[1], "fs options:    %s", super_opts);
	snprintf(d->title, sizeof d->title, "Remount %s (%s)", mountpoint, fstype);
	edit_begin(d, "");
	snprintf(d->hint, sizeof d->hint,
		 "opt, +opt, -opt, opt=value, comma separated; Tab completes");
}

/* ---- the steps after choosing ---- */

static void fail(struct control_dialog *d, const char *msg)
{
	snprintf(d->error, sizeof d->error, "%s", msg);
	d->phase = CD_RESULT;
}

/* The job ended or never started: what it did not make is not coming, and a sample must
 * not go on holding what it sees of those objects (someone else's change) for
 * EXPECT_WAIT_SECONDS, here nor in the instances it was announced to.  What it made came
 * as its events, and stays announced: a dip that follows is timed from the announcement,
 * here and in an instance that takes the withdrawal with those events. */
static void withdraw_pending(struct console *c, struct control_dialog *d,
			     const struct control_result *made)
{
	if (made)
		control_pending_unanswered(&d->pending, made);
	session_announce_withdrawn(c->session, &session_log_announce_codec, d->pending.events,
				   d->pending.n);
	control_pending_free(&d->pending);
}

static void start(struct console *c, struct control_dialog *d)
{
	struct error err = { "" };
	/* a sample taken while the job writes holds what it sees until the job's events */
	control_pending_free(&d->pending);
	control_pending_of(d->plan, &d->pending);
	session_announce_pending(c->session, &session_log_announce_codec, d->pending.events,
				 d->pending.n);
	d->job = control_job_start(d->plan, &err);
	if (!d->job) {
		withdraw_pending(c, d, NULL);
		fail(d, err.msg);
		return;
	}
	d->phase = CD_PENDING;
	d->started = console_now();
	c->need_redraw = true;
}

static void proceed(struct console *c, struct control_dialog *d)
{
	struct error err = { "" };
	if (control_check_privilege(d->plan, &err) < 0) {
		fail(d, err.msg);
		console_message(c, true, "%s", err.msg);
		return;
	}
	if (d->plan->nrisks && !c->opts->yes) {
		d->phase = CD_CONFIRM;
		return;
	}
	start(c, d);   /* risky or not: -y answered */
}

/* Plan the change; an invalid one keeps the dialog where it is, with the reason. */
static void submit(struct console *c, struct control_dialog *d, const char *assignment)
{
	struct error err = { "" };
	if (!d->plan && !(d->plan = malloc(sizeof *d->plan))) {
		fail(d, "out of memory");
		return;
	}
	int r;
	if (d->kind == CD_MOUNT) {
		r = control_plan_remount(d->plan, d->mountpoint, assignment, &err);
	} else {
		char *args[1] = { (char *)assignment };
		r = control_plan_device(d->plan, d->root, d->device, args, 1, &err);
	}
	if (r == 0) {
		proceed(c, d);
		return;
	}
	if (d->phase == CD_EDIT) {
		snprintf(d->hint, sizeof d->hint, "%s", err.msg);
		d->hint_warning = true;
	} else {
		fail(d, err.msg);
	}
}

static void finish(struct console *c, struct control_dialog *d)
{
	d->result = control_job_finish(d->job);
	d->job = NULL;
	d->phase = CD_RESULT;
	if (!d->result) {
		withdraw_pending(c, d, NULL);
		snprintf(d->error, sizeof d->error, "out of memory");
		return;
	}
	for (size_t i = 0; i < d->result->nevents; i++)
		console_add_event(c, &d->result->events[i]);
	/* the events the job made before the withdrawal of the rest: told the other way
	 * round, another instance could hand back what it held (an echo of these) as
	 * observed in a sample taken between the two */
	announce_events(&session_log_announce_codec, d->result->events, d->result->nevents);   /* other instances watching */
	withdraw_pending(c, d, d->result);
	char what[256];
	control_plan_describe(d->plan, what, sizeof what);
	bool unasked = d->plan->nrisks > 0 && c->opts->yes;
	console_message(c, d->result->status != 0 || unasked, "%s: %s%s", what,
			d->result->status ? "not every change was applied (see the dialog)"
					  : "done",
			unasked ? " (risky, not asked: -y)" : "");
}

/* The main loop polls the job's descriptor (dialog_fd) and calls this when the job
 * is done, also while the terminal is too small to draw the dialog. */
static int dialog_fd(void *state)
{
	struct control_dialog *d = state;
	return d->phase == CD_PENDING && d->job ? control_job_fd(d->job) : -1;
}

static void dialog_ready(struct console *c, void *state)
{
	struct control_dialog *d = state;
	if (d->phase == CD_PENDING && d->job)
		finish(c, d);
}

/* ---- drawing ---- */

/* Lines of text wrapped at w cells (ASCII-wise; longer words are cut). */
static int put_wrapped(int y, int x, int w, int max_lines, unsigned long attr, const char *text)
{
	int lines = 0;
	size_t len = strlen(text);
	const char *p = text;
	while (lines < max_lines && (size_t)(p - text) < len) {
		size_t n = strlen(p);
		if (n > (size_t)w) {
			n = (size_t)w;
			for (size_t k = n; k > (size_t)w / 2; k--)
				if (p[k] == ' ' || p[k] == ',') {
					n = k + 1;
					break;
				}
		}
		char line[BOX_MAX_W + 1];
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		ui_put(y + lines, x, w, attr, line);
		lines++;
		p += n;
	}
	return lines;
}

/* Centred, as wide as the content wants within BOX_MAX_W and the screen. */
static struct rect dialog_box(int want_h, int want_w)
{
	int w = want_w < 40 ? 40 : want_w;
	if (w > BOX_MAX_W)
		w = BOX_MAX_W;
	if (w > COLS - 4)
		w = COLS - 4;
	int h = want_h > LINES - 2 ? LINES - 2 : want_h;
	return (struct rect){ (LINES - h) / 2, (COLS - w) / 2, h, w };
}

static int widest(const char *title, const char (*lines)[CONTROL_LINE_MAX], size_t n)
{
	int w = ui_text_width(title) + 8;
	for (size_t i = 0; i < n; i++)
		if (ui_text_width(lines[i]) + 4 > w)
			w = ui_text_width(lines[i]) + 4;
	return w;
}

static void draw_list(const struct console *c, struct control_dialog *d)
{
	int w = ui_text_width(d->title) + 8;
	for (size_t i = 0; i < d->nitems; i++)
		if (ui_text_width(d->labels[i]) + 6 > w)
			w = ui_text_width(d->labels[i]) + 6;
	struct rect r = dialog_box((int)d->nitems + 4, w);
	ui_box(&c->style, &r, d->title);
	int rows = r.h - 4;
	console_list_scroll(d->current, &d->top, rows);
	for (int i = 0; i < rows && d->top + (size_t)i < d->nitems; i++) {
		size_t idx = d->top + (size_t)i;
		unsigned long a = ui_attr(&c->style, idx == d->current ? TR_SELECTED : TR_NORMAL);
		ui_fill(r.y + 1 + i, r.x + 1, r.w - 2, a);
		ui_put(r.y + 1 + i, r.x + 2, r.w - 4, a, d->labels[idx]);
	}
	ui_put(r.y + r.h - 2, r.x + 2, r.w - 4, ui_attr(&c->style, TR_DIM),
	       "Enter choose   Esc cancel");
}

static void draw_edit(const struct console *c, struct control_dialog *d)
{
	struct rect r =
		dialog_box(d->kind == CD_MOUNT ? 10 : 7, d->kind == CD_MOUNT ? BOX_MAX_W : 72);
	ui_box(&c->style, &r, d->title);
	int y = r.y + 1, w = r.w - 4;
	unsigned long normal = ui_attr(&c->style, TR_NORMAL);
	for (int i = 0; i < 2 && d->info[i][0]; i++)
		y += put_wrapped(y, r.x + 2, w, 2, ui_attr(&c->style, TR_DIM), d->info[i]);
	char label[SETTING_KEY_MAX + 8];
	snprintf(label, sizeof label, "%s", d->kind == CD_MOUNT ? "> " : d->edit_key);
	if (d->kind != CD_MOUNT)
		strcat(label, " = ");
	int x = r.x + 2 + ui_put(y, r.x + 2, w, ui_attr(&c->style, TR_TITLE), label);
	int room = r.x + r.w - 2 - x - 1;
	char text[MOUNT_OPTS_MAX * MB_LEN_MAX];
	size_t cursor = line_edit_text(&d->edit, text, sizeof text);
	size_t from = cursor > (size_t)room ? cursor - (size_t)room : 0;
	ui_put(y, x, room + 1, normal, text + from);
	int cx = x + (int)(cursor - from);
	char under[2] = { text[cursor] ? text[cursor] : ' ', 0 };
	ui_put(y, cx, 1, normal ^ A_REVERSE, under);
	y += 2;
	put_wrapped(y, r.x + 2, w, r.y + r.h - 2 - y,
		    ui_attr(&c->style, d->hint_warning ? TR_WARNING : TR_DIM), d->hint);
	ui_put(r.y + r.h - 2, r.x + 2, w, ui_attr(&c->style, TR_DIM),
	       d->kind == CD_MOUNT ? "Enter apply   Tab complete   Esc cancel"
				   : "Enter apply   Esc cancel");
}

static void draw_confirm(const struct console *c, struct control_dialog *d)
{
	struct rect r = dialog_box((int)d->plan->nrisks * 2 + 7, 80);
	ui_box(&c->style, &r, "Risky change");
	char what[512];
	control_plan_describe(d->plan, what, sizeof what);
	int y = r.y + 1, w = r.w - 4;
	y += put_wrapped(y, r.x + 2, w, 2, ui_attr(&c->style, TR_TITLE), what);
	for (size_t i = 0; i < d->plan->nrisks && y < r.y + r.h - 3; i++)
		y += put_wrapped(y, r.x + 2, w, r.y + r.h - 3 - y, ui_attr(&c->style, TR_WARNING),
				 d->plan->risks[i]);
	ui_put(r.y + r.h - 2, r.x + 2, w, ui_attr(&c->style, TR_NORMAL),
	       "y  make this change     any other key  cancel");
}

static void draw_pending(const struct console *c, struct control_dialog *d)
{
	static const char spin[] = "|/-\\";
	struct rect r = dialog_box(5, 76);
	ui_box(&c->style, &r, "Applying");
	char what[512];
	control_plan_describe(d->plan, what, sizeof what);
	double t = console_now() - d->started;
	ui_putf(r.y + 1, r.x + 2, r.w - 4, ui_attr(&c->style, TR_NORMAL), "%c %s",
		spin[(int)(t * 8) % 4],
		what);
	ui_putf(r.y + 3, r.x + 2, r.w - 4, ui_attr(&c->style, TR_DIM),
		"pending for %.1fs (a scheduler switch waits for the queue to drain)", t);
}

static void draw_result(const struct console *c, struct control_dialog *d)
{
	const struct control_result *res = d->result;
	int want = res ? (int)res->nlines + 4 : 5;
	struct rect r =
		dialog_box(want, res ? widest("Not applied", res->lines, res->nlines) : BOX_MAX_W);
	bool bad = !res || res->status != 0;
	ui_box(&c->style, &r, bad ? "Not applied" : "Applied");
	int y = r.y + 1, w = r.w - 4;
	if (!res)
		put_wrapped(y, r.x + 2, w, r.h - 3, ui_attr(&c->style, TR_WARNING), d->error);
	for (size_t i = 0; res && i < res->nlines && y < r.y + r.h - 2; i++) {
		bool warn =
			strstr(res->lines[i], "refused") || strstr(res->lines[i], "not applied");
		char line[CONTROL_LINE_MAX];
		ui_text_for_terminal(&c->style, res->lines[i], line, sizeof line);
		y += put_wrapped(y, r.x + 2, w, r.y + r.h - 2 - y,
				 ui_attr(&c->style, warn ? TR_WARNING : TR_NORMAL), line);
	}
	ui_put(r.y + r.h - 2, r.x + 2, w, ui_attr(&c->style, TR_DIM), "any key  close");
}

static void dialog_draw(const struct console *c, void *state)
{
	struct control_dialog *d = state;
	if (c->layout.too_small)
		return;
	switch (d->phase) {
	case CD_LIST:
		draw_list(c, d);
		break;
	case CD_EDIT:
		draw_edit(c, d);
		break;
	case CD_CONFIRM:
		draw_confirm(c, d);
		break;
	case CD_PENDING:
		draw_pending(c, d);
		break;
	case CD_RESULT:
		draw_result(c, d);
		break;
	}
}

/* ---- keys ---- */

/* The options as the latest sample shows them (the top mount at that point). */
static void edit_mount_of(struct console *c, struct control_dialog *d, const char *mountpoint)
{
	const struct mount *m = NULL;
	for (size_t i = 0; i < console_latest(c)->nmounts; i++)
		if (strcmp(console_latest(c)->mounts[i].mountpoint, mountpoint) == 0)
			m = &console_latest(c)->mounts[i];
	if (!m) {
		fail(d, "that filesystem is no longer mounted");
		return;
	}
	control_dialog_edit_mount(d, m->mountpoint, m->fstype, m->mount_opts, m->super_opts);
}

static void choose(struct console *c, struct control_dialog *d)
{
	char assignment[SETTING_KEY_MAX + SETTING_VAL_MAX + 2];
	const char *value = d->values[d->current];
	switch (d->kind) {
	case CD_SCHEDULER:
		snprintf(assignment, sizeof assignment, "scheduler=%s", value);
		submit(c, d, assignment);
		break;
	case CD_WRITE_CACHE:
		snprintf(assignment, sizeof assignment, "write_cache=%s", value);
		submit(c, d, assignment);
		break;
	case CD_TUNABLE:
		snprintf(d->edit_key, sizeof d->edit_key, "%s", value);
		snprintf(d->title, sizeof d->title, "%s %s", d->device, value);
		edit_begin(d, d->extra[d->current]);
		break;
	case CD_MOUNT:
		edit_mount_of(c, d, value);
		break;
	}
}

static bool list_key(struct console *c, struct control_dialog *d, int key)
{
	switch (key) {
	case KEYC_ESC:
	case 'q':
		return false;
	case '\n':
	case '\r':
	case KC(KEY_ENTER):
		if (d->nitems)
			choose(c, d);
		return true;
	default:
		console_list_move(&d->current, d->nitems, key);
		return true;
	}
}

static void edit_complete(struct control_dialog *d)
{
	char text[MOUNT_OPTS_MAX * MB_LEN_MAX];
	if (d->kind != CD_MOUNT || line_edit_text(&d->edit, text, sizeof text) != strlen(text))
		return;
	char candidates[CONTROL_LINE_MAX];
	size_t n = control_mount_opts_complete(text, MOUNT_OPTS_MAX,
					       control_mount_option_names(d->fstype), candidates,
					       sizeof candidates);
	line_edit_set(&d->edit, text, MOUNT_OPTS_MAX - 1, true);
	d->hint_warning = false;
	if (n == 0)
		snprintf(d->hint, sizeof d->hint,
			 "no known %s option starts so (any option may be tried)", d->fstype);
	else if (n > 1)
		snprintf(d->hint, sizeof d->hint, "%s", candidates);
	else
		d->hint[0] = '\0';
}

static void edit_submit(struct console *c, struct control_dialog *d)
{
	char text[MOUNT_OPTS_MAX * MB_LEN_MAX];
	line_edit_text(&d->edit, text, sizeof text);
	if (d->kind == CD_MOUNT) {
		submit(c, d, text);
		return;
	}
	char assignment[SETTING_KEY_MAX + MOUNT_OPTS_MAX + 2];
	snprintf(assignment, sizeof assignment, "%s=%s", d->edit_key, text);
	submit(c, d, assignment);
}

static bool edit_key(struct console *c, struct control_dialog *d, int key)
{
	if (key == '\t') {
		edit_complete(d);
		return true;
	}
	switch (line_edit_key(&d->edit, key)) {
	case LINE_EDIT_CANCEL:
		return false;
	case LINE_EDIT_ACCEPT:
		edit_submit(c, d);
		return true;
	case LINE_EDIT_EDITING:
		break;
	}
	return true;
}

static bool dialog_key(struct console *c, void *state, int key)
{
	struct control_dialog *d = state;
	switch (d->phase) {
	case CD_LIST:
		return list_key(c, d, key);
	case CD_EDIT:
		return edit_key(c, d, key);
	case CD_CONFIRM:
		if (key == 'y' || key == 'Y') {
			start(c, d);
			return true;
		}
		console_message(c, false, "nothing changed");
		return false;
	case CD_PENDING:
		console_message(c, false, "the change is being applied; it cannot be interrupted");
		return true;
	case CD_RESULT:
		return false;
	}
	return false;
}

static void dialog_free(void *state)
{
	struct control_dialog *d = state;
	/* the console is closing with a change in flight: wait for it, it cannot be undone */
	if (d->job)
		control_result_free(control_job_finish(d->job));
	control_pending_free(&d->pending);
	control_result_free(d->result);
	free(d->plan);
	free(d);
}

static const struct modal_ops dialog_ops = { dialog_draw, dialog_key, dialog_free, dialog_fd,
					      dialog_ready };

int control_dialog_open(struct console *c, struct control_dialog *d)
{
	return console_modal_open(c, &dialog_ops, d);
}
