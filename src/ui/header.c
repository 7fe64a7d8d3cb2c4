/* header.c - the top two lines: who and when (host, kernel, interval, time, state
 * of recording, freezing, scrolling), and the vmstat strip. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "numfmt.h"
#include "pane.h"
#include "text.h"

struct line_writer {
	const struct frame *f;
	int y, x, end;
	bool dry;       /* only measure */
	bool compact;   /* the short forms, for narrow terminals */
};

static void put(struct line_writer *lw, enum theme_role role, const char *text)
{
	if (lw->dry) {
		lw->x += ui_text_width(text);
		return;
	}
	if (lw->x >= lw->end)
		return;
	lw->x += ui_put(lw->y, lw->x, lw->end - lw->x, ui_attr(&lw->f->style, role), text);
}

static void pair(struct line_writer *lw, const char *label, const char *value)
{
	put(lw, TR_HEADER, label);
	put(lw, TR_NORMAL, " ");
	put(lw, TR_HEADER_VALUE, value);
	put(lw, TR_NORMAL, " ");
}

static void format_interval(double s, char *buf, size_t len)
{
	/* a replay's interval is measured: 0.250002 s reads as 0.25s */
	if (s >= 60 && fmod(s, 60) == 0)
		snprintf(buf, len, "%gm", s / 60);
	else if (s < 100)
		snprintf(buf, len, "%.3gs", s);
	else
		snprintf(buf, len, "%.0fs", s);
}

static void format_wall(const struct timespec *t, char *buf, size_t len)
{
	struct tm tm;
	time_t sec = t->tv_sec;
	if (!t->tv_sec || !localtime_r(&sec, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "--:--:--");
}

/* The state flags at the right end: what would surprise an operator if unseen. */
static void state_text(const struct frame *f, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (f->position[0])
		used = text_appendf(buf, len, used, "%s  ", f->position);
	if (f->frozen)
		used = text_appendf(buf, len, used, "FROZEN  ");
	if (f->scroll_back)
		used = text_appendf(buf, len, used, "SCROLLED  ");
	if (f->ended)
		text_appendf(buf, len, used, "END OF DATA  ");
}

/* A matrix watched: the longest form of its progress that fits; coloured as its marks
 * on the graphs while it runs, as a warning once interrupted. */
static void matrix_put(struct line_writer *lw, const struct matrix_status *s, int room)
{
	static const enum theme_role roles[] = {
		[MATRIX_RUNNING] = TR_MARK,
		[MATRIX_DONE] = TR_HEADER_VALUE,
		[MATRIX_INTERRUPTED] = TR_WARNING,
	};
	char text[MATRIX_STATUS_TEXT_MAX];
	matrix_status_header(s, room - 2, text, sizeof text);   /* 2: the gap after it */
	if (!text[0])
		return;
	bool known = (unsigned)s->state < sizeof roles / sizeof roles[0];
	put(lw, known ? roles[s->state] : TR_HEADER_VALUE, text);
	put(lw, TR_NORMAL, "  ");
}

static void header_draw(const struct frame *f, const struct rect *r)
{
	struct line_writer lw = { f, r->y, r->x, r->x + r->w, false, false };
	char buf[128], state[256];
	ui_fill(r->y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	put(&lw, TR_TITLE, "ioscope ");
	put(&lw, TR_HEADER_VALUE, f->host);
	put(&lw, TR_NORMAL, "  ");
	put(&lw, TR_HEADER, f->kernel);
	put(&lw, TR_NORMAL, "  ");
	format_interval(f->interval, buf, sizeof buf);
	pair(&lw, "every", buf);
	put(&lw, TR_NORMAL, " ");
	format_wall(&f->snap->wall, buf, sizeof buf);
	put(&lw, TR_HEADER_VALUE, buf);
	put(&lw, TR_NORMAL, "  ");
	if (f->run[0]) {   /* before the recording: where the output goes must show */
		put(&lw, TR_RECORDING, f->run);
		put(&lw, TR_NORMAL, "  ");
	}
	const char *failure = f->rec_failure;
	if (failure) {
		/* a recording that stopped reaching the disk must not look like one that runs */
		put(&lw, TR_WARNING, ui_sym(&f->style, "✖ REC FAILED: ", "! REC FAILED: "));
		put(&lw, TR_WARNING, failure);
		put(&lw, TR_NORMAL, "  ");
	} else if (f->recording || f->rec_paused) {
		put(&lw, TR_RECORDING, f->recording ? ui_sym(&f->style, "● REC ", "* REC ")
					      : ui_sym(&f->style, "‖ REC paused ", "| REC paused "));
		put(&lw, TR_NORMAL, f->rec_path);
		put(&lw, TR_NORMAL, "  ");
	}
	state_text(f, state, sizeof state);
	int state_w = state[0] ? ui_text_width(state) : 0;
	if (f->have_matrix)   /* in the room the states leave */
		matrix_put(&lw, &f->matrix, r->x + r->w - state_w - lw.x);
	if (state[0]) {
		int x = r->x + r->w - state_w;
		if (x < lw.x)
			x = lw.x;
		ui_put(r->y, x, r->x + r->w - x, ui_attr(&f->style, TR_WARNING), state);
	}
}

static void number(const struct line_writer *lw, char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (lw->compact && v >= 99999.5)
		numfmt_fit(v, 5, buf, len);
	else
		snprintf(buf, len, "%.0f", v);
}

/* Compact, a group is set apart by the space after its last figure alone. */
static void separator(struct line_writer *lw)
{
	if (!lw->compact)
		put(lw, TR_BORDER, ui_sym(&lw->f->style, "│ ", "| "));
}

static void strip_line(struct line_writer *lw, const struct vm_rates *vm, bool have)
{
	char a[32], b[32];
#define FIG(label, field) (number(lw, a, sizeof a, have ? vm->field : NAN), pair(lw, label, a))
	FIG("r", r);
	FIG("b", b);
	separator(lw);
	FIG("bi", bi);
	FIG("bo", bo);
	separator(lw);
	FIG("us", us);
	FIG("sy", sy);
	FIG("id", id);
	FIG("wa", wa);
	separator(lw);
#undef FIG
	graph_format_value(have ? vm->dirty / 1024 : NAN, GRAPH_UNIT_MB, a, sizeof a);
	pair(lw, "dirty", a);
	graph_format_value(have ? vm->writeback / 1024 : NAN, GRAPH_UNIT_MB, a, sizeof a);
	pair(lw, "wb", a);
	separator(lw);
	/* PSI absent is "-", never 0 */
	snprintf(a, sizeof a, "-");
	snprintf(b, sizeof b, "-");
	if (have && vm->have_psi) {   /* compact: whole per cent (34.38/6.62 took 80x24's last 5) */
		snprintf(a, sizeof a, lw->compact ? "%.0f" : "%.2f", vm->psi_some_avg10);
		snprintf(b, sizeof b, lw->compact ? "%.0f" : "%.2f", vm->psi_full_avg10);
	}
	if (lw->compact) {
		char both[80];
		snprintf(both, sizeof both, "%s/%s", a, b);
		pair(lw, "psi", both);
		return;
	}
	put(lw, TR_HEADER, "psi io ");
	pair(lw, "some", a);
	pair(lw, "full", b);
}

static void strip_draw(const struct frame *f, const struct rect *r)
{
	const struct vm_rates *vm = &f->rates->vm;
	bool have = f->have_rates && vm->valid;
	struct line_writer measure = { f, r->y, r->x, r->x + r->w, true, false };
	strip_line(&measure, vm, have);
	struct line_writer lw = { f, r->y, r->x, r->x + r->w, false, measure.x > r->x + r->w };
	ui_fill(r->y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	strip_line(&lw, vm, have);
}

const struct pane_def pane_header = {
	.name = "header",
	.slot = SLOT_HEADER,
	.draw = header_draw,
};
const struct pane_def pane_strip = {
	.name = "strip",
	.slot = SLOT_STRIP,
	.draw = strip_draw,
};
