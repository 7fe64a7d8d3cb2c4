/* header.c - the top two lines: who and when (host, kernel, interval, time, state
 * of recording, freezing, scrolling), and the vmstat strip. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "console.h"
#include "text.h"

struct line_writer {
	const struct console *c;
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
	lw->x += ui_put(lw->y, lw->x, lw->end - lw->x, ui_attr(lw->c, role), text);
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
static void state_text(const struct console *c, char *buf, size_t len)
{
	char pos[128];
	size_t used = 0;
	buf[0] = '\0';
	console_source_position(c, pos, sizeof pos);
	if (pos[0])
		used = text_appendf(buf, len, used, "%s  ", pos);
	if (c->frozen)
		used = text_appendf(buf, len, used, "FROZEN  ");
	if (c->scroll_back)
		used = text_appendf(buf, len, used, "SCROLLED  ");
	if (console_ended(c))
		text_appendf(buf, len, used, "END OF DATA  ");
}

void header_draw(const struct console *c, const struct rect *r)
{
	struct line_writer lw = { c, r->y, r->x, r->x + r->w, false, false };
	char buf[128], state[256];
	ui_fill(r->y, r->x, r->w, ui_attr(c, TR_NORMAL));
	put(&lw, TR_TITLE, "ioscope ");
	put(&lw, TR_HEADER_VALUE, c->host);
	put(&lw, TR_NORMAL, "  ");
	put(&lw, TR_HEADER, c->kernel);
	put(&lw, TR_NORMAL, "  ");
	format_interval(c->interval, buf, sizeof buf);
	pair(&lw, "every", buf);
	put(&lw, TR_NORMAL, " ");
	format_wall(&console_view_snap(c)->wall, buf, sizeof buf);
	put(&lw, TR_HEADER_VALUE, buf);
	put(&lw, TR_NORMAL, "  ");
	const char *failure = recorder_failure(session_recorder(c->session));
	if (failure) {
		/* a recording that stopped reaching the disk must not look like one that runs */
		put(&lw, TR_WARNING, ui_sym(c, "✖ REC FAILED: ", "! REC FAILED: "));
		put(&lw, TR_WARNING, failure);
		put(&lw, TR_NORMAL, "  ");
	} else if (session_recording(c->session) || record_key_paused(c)) {
		put(&lw, TR_RECORDING, session_recording(c->session) ? ui_sym(c, "● REC ", "* REC ")
					      : ui_sym(c, "‖ REC paused ", "| REC paused "));
		put(&lw, TR_NORMAL, record_key_path(c));
		put(&lw, TR_NORMAL, "  ");
	}
	state_text(c, state, sizeof state);
	if (state[0]) {
		int w = ui_text_width(state);
		int x = r->x + r->w - w;
		if (x < lw.x)
			x = lw.x;
		ui_put(r->y, x, r->x + r->w - x, ui_attr(c, TR_WARNING), state);
	}
}

static void number(const struct line_writer *lw, char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (lw->compact && v >= 99999.5)
		column_format_number(v, 5, buf, len);
	else
		snprintf(buf, len, "%.0f", v);
}

static void separator(struct line_writer *lw)
{
	put(lw, TR_BORDER, lw->compact ? " " : ui_sym(lw->c, "│ ", "| "));
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
	if (have && vm->have_psi) {
		snprintf(a, sizeof a, "%.2f", vm->psi_some_avg10);
		snprintf(b, sizeof b, "%.2f", vm->psi_full_avg10);
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

void strip_draw(const struct console *c, const struct rect *r)
{
	const struct vm_rates *vm = &console_view_rates(c)->vm;
	bool have = console_have_rates(c) && vm->valid;
	struct line_writer measure = { c, r->y, r->x, r->x + r->w, true, false };
	strip_line(&measure, vm, have);
	struct line_writer lw = { c, r->y, r->x, r->x + r->w, false, measure.x > r->x + r->w };
	ui_fill(r->y, r->x, r->w, ui_attr(c, TR_NORMAL));
	strip_line(&lw, vm, have);
}
