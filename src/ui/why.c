/* why.c - the why pane: who is stuck and on what, who does the I/O (issue 10).
 *
 * Draws snapshot.tasks of the shown sample (frozen or live), which the source reads only
 * while this pane is shown (pane_def.reads_tasks) or a recording holds.  Groups of blocked tasks
 * first (what the throughput is waiting on), then the processes by bytes moved.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "pane.h"
#include "tasks.h"

#define WHY_GROUPS_MAX 8

struct why_writer {
	const struct frame *f;
	const struct rect *r;
	int y;
};

/* The next line of the pane, or false when the pane is full. */
static bool line(struct why_writer *w, enum theme_role role, const char *text)
{
	if (++w->y >= w->r->y + w->r->h)
		return false;
	ui_put(w->y, w->r->x + 1, w->r->w - 2, ui_attr(&w->f->style, role), text);
	return true;
}

static void blocked_lines(struct why_writer *w, const struct tasks_sample *t, uint64_t mono)
{
	char text[TASKS_COMMS_MAX + TASK_WCHAN_MAX + 64];
	snprintf(text, sizeof text, "blocked: %u task%s in D state (of %u processes)", t->nblocked,
		 t->nblocked == 1 ? "" : "s", t->nprocs);
	line(w, t->nblocked ? TR_WARNING : TR_NORMAL, text);
	struct tasks_group g[WHY_GROUPS_MAX];
	size_t n = tasks_blocked_groups(t, mono, g, WHY_GROUPS_MAX);
	for (size_t i = 0; i < n && i < WHY_GROUPS_MAX; i++) {
		char group[TASKS_COMMS_MAX + TASK_WCHAN_MAX + 32];
		tasks_group_text(&g[i], group, sizeof group);
		snprintf(text, sizeof text, "  %s, up to %.1f s", group, g[i].max_seconds);
		if (!line(w, TR_NORMAL, text))
			return;
	}
	if (n > WHY_GROUPS_MAX) {
		snprintf(text, sizeof text, "  and %zu more wait channels", n - WHY_GROUPS_MAX);
		line(w, TR_DIM, text);
	}
	if (t->nblocked && !t->stack_readable)
		line(w, TR_DIM, tasks_stack_note);
}

static void num(char *buf, size_t len, double v, int width)
{
	char cell[32];
	column_format_number(v, width, cell, sizeof cell);
	size_t used = strlen(buf);
	snprintf(buf + used, len - used, " %*s", width, cell);
}

static void io_lines(struct why_writer *w, const struct tasks_sample *t)
{
	if (!t->delayacct)
		line(w, TR_DIM, tasks_delayacct_note);
	if (!t->interval_ns) {
		line(w, TR_DIM, "processes by I/O: from the next sample");
		return;
	}
	char text[256];
	snprintf(text, sizeof text, "%7s %-8s %-15s %8s %8s %7s %5s", "PID", "USER", "COMM", "rkB/s",
		 "wkB/s", "cwkB/s", "dly%");
	line(w, TR_TABLE_HEADER, text);
	if (!t->nio)
		line(w, TR_DIM, "no process read or wrote");
	for (size_t i = 0; i < t->nio; i++) {
		const struct task_io *io = &t->io[i];
		struct task_io_rates r;
		task_io_rates(t, io, &r);
		snprintf(text, sizeof text, "%7d %-8.8s %-15.15s", (int)io->pid, io->user, io->comm);
		num(text, sizeof text, r.rkB_s, 8);
		num(text, sizeof text, r.wkB_s, 8);
		num(text, sizeof text, r.cancelled_wkB_s, 7);
		num(text, sizeof text, r.iodelay_pct, 5);
		const char *role = task_role_name(task_role(io->comm, io->kthread));
		if (*role) {
			size_t used = strlen(text);
			snprintf(text + used, sizeof text - used, " %s", role);
		}
		if (!line(w, TR_NORMAL, text))
			return;
	}
}

static void why_draw(const struct frame *f, const struct rect *r)
{
	const struct snapshot *s = f->snap;
	for (int y = r->y; y < r->y + r->h; y++)
		ui_fill(y, r->x, r->w, ui_attr(&f->style, TR_NORMAL));
	ui_title(&f->style, r, "Why: blocked tasks, processes by I/O", "W hides");
	struct why_writer w = { f, r, r->y };
	if (!s || !s->tasks) {
		line(&w, TR_DIM, f->live
				 ? "reading processes: from the next sample"
				 : "this recording has no process figures (recorded without --tasks "
				   "or the why pane)");
		return;
	}
	blocked_lines(&w, s->tasks, tasks_mono_ns(&s->mono));
	io_lines(&w, s->tasks);
}

const struct pane_def pane_why = {
	.name = "why",
	.slot = SLOT_GRAPHS,
	.hidden = true,
	.reads_tasks = true,
	.draw = why_draw,
};
