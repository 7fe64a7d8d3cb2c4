/* why_lines.c - the why pane's text (why_lines.h): the blocked-task groups, the dirty
 * line with its limits, the journals of the selected device's filesystems and the
 * processes by I/O, from the frame's snapshot (tasks) and why figures (session_why).
 * With a device selected, its blocked tasks and processes (attribution.h) come first and
 * the others are a line each: elsewhere, not attributed.
 *
 * The short figures come before the process list, which can be long: on a short
 * terminal the processes give way first (why_text_fit), never the dirty line.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "attribution.h"
#include "columns.h"
#include "numfmt.h"
#include "tasks.h"
#include "text.h"
#include "why_lines.h"

#define WHY_GROUPS_MAX 8
#define WHY_MOUNT_CELLS 28

/* What the summary calls the hidden lines of a part, and how soon they give way (the
 * highest rank first; rank 0 never). */
static const struct {
	const char *one, *many;
	int rank;
} why_parts[WP_COUNT] = {
	[WP_BLOCKED] = { NULL, NULL, 0 },
	[WP_GROUP] = { "wait channel", "wait channels", 3 },
	[WP_NOTE] = { "note", "notes", 2 },
	[WP_DIRTY] = { "dirty line", "dirty lines", 1 },
	[WP_JOURNAL] = { "journal line", "journal lines", 1 },
	[WP_PROC_HEAD] = { NULL, NULL, 4 },
	[WP_PROC] = { "process", "processes", 4 },
};

static struct why_line *add(struct why_text *t, enum why_part part, enum theme_role role)
{
	if (t->n >= WHY_LINES_MAX)
		return NULL;
	struct why_line *l = &t->lines[t->n++];
	memset(l, 0, sizeof *l);
	l->part = part;
	l->role = role;
	return l;
}

__attribute__((format(printf, 4, 5)))
static void addf(struct why_text *t, enum why_part part, enum theme_role role, const char *fmt, ...)
{
	struct why_line *l = add(t, part, role);
	if (!l)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof l->text, fmt, ap);
	va_end(ap);
}

/* Pieces of text laid on lines of `width` cells: a piece that does not fit the line
 * starts the next one, indented. */
struct flow {
	struct why_text *t;
	enum why_part part;
	enum theme_role role;
	int width;
	struct why_line *cur;
	int used;
};

static void flow_add(struct flow *fl, const char *sep, const char *piece)
{
	int need = ui_text_width(sep) + ui_text_width(piece);
	if (fl->cur && fl->used + need > fl->width) {
		fl->cur = NULL;
		sep = "";
	}
	if (!fl->cur) {
		if (!(fl->cur = add(fl->t, fl->part, fl->role)))
			return;
		bool first = fl->used == 0 && !*sep;
		fl->used = text_appendf(fl->cur->text, sizeof fl->cur->text, 0, "%s", first ? "" : "  ");
		need = ui_text_width(piece);
	}
	size_t len = strlen(fl->cur->text);
	text_appendf(fl->cur->text, sizeof fl->cur->text, len, "%s%s", sep, piece);
	fl->used += need;
}

/* ---- blocked tasks ---- */

/* "blocked: 3 tasks in D state (of 412 processes)", or for the selected device "blocked
 * on loop0: 1 task in D state (of 412 processes; 2 more elsewhere or not attributed)",
 * then its tasks by wait channel and a line for each of the others. */
static void blocked_lines(struct why_text *t, const struct tasks_sample *s,
			  const struct tasks_split *sp, const char *selected, uint64_t mono)
{
	uint32_t mine = selected[0] ? sp->blocked[SIDE_MINE] : s->nblocked;
	struct why_line *l = add(t, WP_BLOCKED, mine ? TR_WARNING : TR_NORMAL);
	if (l) {
		size_t used = text_appendf(l->text, sizeof l->text, 0, "blocked%s%s: %u task%s in D "
					   "state (of %u processes", selected[0] ? " on " : "",
					   selected, mine, mine == 1 ? "" : "s", s->nprocs);
		if (s->nblocked > mine)
			used = text_appendf(l->text, sizeof l->text, used, "; %u more elsewhere or "
					    "not attributed", s->nblocked - mine);
		text_appendf(l->text, sizeof l->text, used, ")");
	}
	struct tasks_group g[WHY_GROUPS_MAX];
	size_t n = tasks_blocked_groups_of(s, mono, sp->mine, g, WHY_GROUPS_MAX);
	for (size_t i = 0; i < n && i < WHY_GROUPS_MAX; i++) {
		char group[TASKS_COMMS_MAX + TASK_WCHAN_MAX + 32];
		tasks_group_text(&g[i], group, sizeof group);
		addf(t, WP_GROUP, TR_NORMAL, "  %s, up to %.1f s", group, g[i].max_seconds);
	}
	if (n > WHY_GROUPS_MAX)
		addf(t, WP_GROUP, TR_DIM, "  and %zu more wait channels", n - WHY_GROUPS_MAX);
	for (int side = SIDE_ELSEWHERE; selected[0] && side < SIDE_COUNT; side++) {
		char line[WHY_LINE_MAX];
		tasks_split_blocked_text(sp, s, (enum attribution_side)side, line, sizeof line);
		if (line[0])
			addf(t, WP_GROUP, TR_DIM, "  %s", line);
	}
	if (s->nblocked && !s->stack_readable)
		addf(t, WP_NOTE, TR_DIM, "no kernel stacks: /proc/PID/stack needs CAP_SYS_ADMIN "
		     "(run ioscope as root)");
	if (selected[0] && sp->blocked[SIDE_UNATTRIBUTED] && !s->stack_readable)
		addf(t, WP_NOTE, TR_DIM, "not attributed: what another user's task waits on is "
		     "read as root only");
}

/* ---- dirty memory against the kernel's limits ---- */

static void size_piece(char *buf, size_t len, const char *label, double kb, const char *unit)
{
	char v[32];
	graph_format_value(kb / 1024, GRAPH_UNIT_MB, v, sizeof v);
	snprintf(buf, len, "%s %s%s", label, v, unit);
}

static void dirty_lines(struct why_text *t, const struct why_rates *y, int width)
{
	if (!y->have_dirty) {
		addf(t, WP_DIRTY, TR_DIM, "dirty limits: not read (no nr_dirty_threshold in "
		     "/proc/vmstat)");
		return;
	}
	static const char sep[] = "  ";
	struct flow fl = { t, WP_DIRTY, TR_NORMAL, width, NULL, 0 };
	char p[64];
	size_piece(p, sizeof p, "dirty", y->dirty_kb, "");
	flow_add(&fl, "", p);
	size_piece(p, sizeof p, "writeback", y->writeback_kb, "");
	flow_add(&fl, sep, p);
	size_piece(p, sizeof p, "background", y->background_kb, "");
	flow_add(&fl, sep, p);
	size_piece(p, sizeof p, "freerun", y->freerun_kb, "");
	flow_add(&fl, sep, p);
	size_piece(p, sizeof p, "threshold", y->threshold_kb, "");
	flow_add(&fl, sep, p);
	if (y->have_dirty_rates) {
		/* the rates on a line of their own, under the sizes */
		struct flow rates = { t, WP_DIRTY, TR_NORMAL, width, NULL, 0 };
		size_piece(p, sizeof p, "dirtied", y->dirtied_kBs, "/s");
		flow_add(&rates, "", p);
		size_piece(p, sizeof p, "written", y->written_kBs, "/s");
		flow_add(&rates, sep, p);
	}
	if (y->throttled)
		addf(t, WP_DIRTY, TR_WARNING, "writers throttled: dirty+writeback above freerun, "
		     "dirtying paced to writeback");
	else if (y->throttled_tasks)
		addf(t, WP_DIRTY, TR_WARNING, "writers throttled: %u task%s in balance_dirty_pages "
		     "(a device's own dirty limit)", y->throttled_tasks,
		     y->throttled_tasks == 1 ? "" : "s");
}

/* ---- memory cgroups of the blocked writers ---- */

/* A memory cgroup is shown when one of its blocked tasks is the selected device's (all
 * of them without a selection). */
static bool memcg_shown(const struct tasks_sample *s, const struct tasks_split *sp, size_t k)
{
	for (size_t i = 0; i < s->nkept && i < sp->nblocked; i++)
		if (s->blocked[i].memcg == k + 1 && sp->mine[i])
			return true;
	return false;
}

static void memcg_lines(struct why_text *t, const struct why_rates *y,
			const struct tasks_sample *s, const struct tasks_split *sp)
{
	for (size_t k = 0; k < y->nmemcgs; k++) {
		if (!memcg_shown(s, sp, k))
			continue;
		char line[WHY_LINE_MAX];
		memcg_rates_text(&y->memcgs[k], line, sizeof line);
		addf(t, WP_DIRTY, memcg_pressed(&y->memcgs[k]) ? TR_WARNING : TR_NORMAL, "%s", line);
	}
}

/* ---- journals of the selected device's filesystems ---- */

/* The journal is on the selected device, or on a partition of it. */
static bool journal_on(const struct frame *f, const struct journal_rates *j)
{
	if (!f->snap)
		return strcmp(j->device, f->selected) == 0;
	return snapshot_on_disk(f->snap, j->device, f->selected);
}

static void journal_lines(struct why_text *t, const struct frame *f,
			  const struct journal_rates *j, int width)
{
	char mnt[WHY_MOUNT_CELLS * 4 + 8], head[sizeof mnt + DEV_NAME_MAX + 48];
	ui_ellipsize_middle(&f->style, j->mountpoint, WHY_MOUNT_CELLS, mnt, sizeof mnt);
	snprintf(head, sizeof head, "%s %s %s:", journal_fs_defs[j->fs].fstype, j->device, mnt);
	struct flow fl = { t, WP_JOURNAL, TR_NORMAL, width, NULL, 0 };
	flow_add(&fl, "", head);
	const char *sep = " ";
	for (int i = 0; i < JF_COUNT; i++) {
		if (!(j->present & (1u << i)))
			continue;
		const struct journal_figure_def *d = &journal_figures[i];
		char piece[96];
		snprintf(piece, sizeof piece, "%s %.*f%s", d->label, j->f[i] < 10 ? 1 : 0, j->f[i],
			 d->unit);
		flow_add(&fl, sep, piece);
		sep = ", ";
	}
	if (!j->present)
		flow_add(&fl, " ", "- (from the next interval)");
}

static void journals(struct why_text *t, const struct frame *f, const struct why_rates *y,
		     int width)
{
	if (!f->selected[0]) {
		addf(t, WP_JOURNAL, TR_DIM, "journals: no device selected");
		return;
	}
	size_t shown = 0;
	for (size_t i = 0; i < y->njournals; i++) {
		if (!journal_on(f, &y->journals[i]))
			continue;
		journal_lines(t, f, &y->journals[i], width);
		shown++;
	}
	if (!shown)
		addf(t, WP_JOURNAL, TR_DIM, "journal: no ext4, xfs or btrfs mounted on %s", f->selected);
}

/* ---- processes by I/O ---- */

static void num(char *buf, size_t len, double v, int width)
{
	char cell[32];
	numfmt_fit(v, width, cell, sizeof cell);
	size_t used = strlen(buf);
	snprintf(buf + used, len - used, " %*s", width, cell);
}

static void io_lines(struct why_text *t, const struct tasks_sample *s,
		     const struct tasks_split *sp, const char *selected)
{
	if (!s->delayacct)
		addf(t, WP_NOTE, TR_DIM, "delay accounting is off: no dly%% (sysctl "
		     "kernel.task_delayacct=1 turns it on)");
	if (!s->interval_ns) {
		addf(t, WP_PROC_HEAD, TR_DIM, "processes by I/O: from the next sample");
		return;
	}
	addf(t, WP_PROC_HEAD, TR_TABLE_HEADER, "%7s %-8s %-15s %8s %8s %7s %5s", "PID", "USER",
	     "COMM", "rkB/s", "wkB/s", "cwkB/s", "dly%");
	if (!sp->processes[SIDE_MINE])
		addf(t, WP_PROC_HEAD, TR_DIM, "no process read or wrote%s%s", selected[0] ? " on " : "",
		     selected);
	for (size_t i = 0; i < s->nio; i++) {
		const struct task_io *io = &s->io[i];
		if (sp->io_side[i] != SIDE_MINE)
			continue;
		struct task_io_rates r;
		task_io_rates(s, io, &r);
		struct why_line *l = add(t, WP_PROC, TR_NORMAL);
		if (!l)
			return;
		snprintf(l->text, sizeof l->text, "%7d %-8.8s %-15.15s", (int)io->pid, io->user,
			 io->comm);
		num(l->text, sizeof l->text, r.rkB_s, 8);
		num(l->text, sizeof l->text, r.wkB_s, 8);
		num(l->text, sizeof l->text, r.cancelled_wkB_s, 7);
		num(l->text, sizeof l->text, r.iodelay_pct, 5);
		const char *role = task_role_name(task_role(io->comm, io->kthread));
		if (*role)
			text_appendf(l->text, sizeof l->text, strlen(l->text), " %s", role);
	}
	for (int side = SIDE_ELSEWHERE; selected[0] && side < SIDE_COUNT; side++) {
		char line[WHY_LINE_MAX];
		tasks_split_io_text(sp, s, (enum attribution_side)side, line, sizeof line);
		if (line[0])
			addf(t, WP_PROC, TR_DIM, "%s", line);
	}
}

void why_text_build(struct why_text *t, const struct frame *f, int width)
{
	memset(t->hidden, 0, sizeof t->hidden);
	t->n = 0;
	const struct snapshot *s = f->snap;
	struct selection sel = { .n = 0 };
	if (f->selected[0])
		selection_add(&sel, f->selected);
	struct tasks_split sp = { 0 };
	bool split = s && s->tasks && tasks_split_build(&sp, s, &sel) == 0;
	if (split)
		blocked_lines(t, s->tasks, &sp, f->selected, tasks_mono_ns(&s->mono));
	else if (s && s->tasks)
		addf(t, WP_BLOCKED, TR_WARNING, "blocked tasks: out of memory");
	else
		addf(t, WP_BLOCKED, TR_DIM, "%s", f->live
			     ? "blocked tasks and processes: from the next sample"
			     : "no process figures in this recording (made without --tasks or "
			       "the why pane)");
	if (f->why && s && s->why) {
		dirty_lines(t, f->why, width);
		if (split)
			memcg_lines(t, f->why, s->tasks, &sp);
		journals(t, f, f->why, width);
	} else {
		addf(t, WP_DIRTY, TR_DIM, "%s", f->live || (s && s->why)
			     ? "dirty limits and journals: from the next sample"
			     : "no dirty limits or journals in this recording (an older ioscope)");
	}
	if (split)
		io_lines(t, s->tasks, &sp, f->selected);
	tasks_split_free(&sp);
}

/* ---- fitting ---- */

/* The last shown line of a part of this rank, or -1. */
static long last_of_rank(const struct why_text *t, int rank)
{
	for (size_t i = t->n; i-- > 0;)
		if (!t->lines[i].hidden && why_parts[t->lines[i].part].rank == rank)
			return (long)i;
	return -1;
}

static void summary_text(const struct why_text *t, char *buf, size_t len)
{
	size_t used = text_appendf(buf, len, 0, "hidden:");
	const char *sep = " ";
	for (int p = 0; p < WP_COUNT; p++) {
		if (!t->hidden[p] || !why_parts[p].one)
			continue;
		used = text_appendf(buf, len, used, "%s%zu %s", sep, t->hidden[p],
				    t->hidden[p] == 1 ? why_parts[p].one : why_parts[p].many);
		sep = ", ";
	}
	text_appendf(buf, len, used, " (a taller terminal shows them)");
}

bool why_text_fit(struct why_text *t, size_t rows, char *summary, size_t len)
{
	size_t shown = t->n;
	if (shown <= rows)
		return false;
	size_t room = rows ? rows - 1 : 0;
	for (int rank = 4; rank >= 0 && shown > room; rank--) {
		long i;
		while (shown > room && (i = last_of_rank(t, rank)) >= 0) {
			t->lines[i].hidden = true;
			t->hidden[t->lines[i].part]++;
			shown--;
		}
	}
	/* a heading over no row is no use */
	for (size_t i = 0; i < t->n; i++)
		if (t->lines[i].part == WP_PROC_HEAD && !t->lines[i].hidden && t->hidden[WP_PROC] &&
		    !(i + 1 < t->n && t->lines[i + 1].part == WP_PROC && !t->lines[i + 1].hidden))
			t->lines[i].hidden = true;
	summary_text(t, summary, len);
	return true;
}
