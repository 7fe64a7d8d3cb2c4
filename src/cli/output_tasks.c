/* output_tasks.c - blocked tasks and per-process I/O in batch text and JSON (--tasks).
 *
 * JSON keys are issue 10's, and `devices` (attribution.h); a figure that is not measured
 * (iodelay with delay accounting off, a wait channel not readable) is null, never 0.
 * Text escapes every comm, user and symbol (text.h): a process names itself.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "numfmt.h"
#include "output_tasks.h"
#include "tasks.h"
#include "text.h"

#define DECIMALS 3
#define GROUPS_MAX 64          /* groups shown; the JSON map has them all up to this */
#define TEXT_BLOCKED_MAX 10    /* blocked tasks listed in text, longest blocked first */

static void number_or_null(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	if (isfinite(v))
		jsonw_fixed(w, v, DECIMALS);
	else
		jsonw_null(w);
}

static void json_devices(struct jsonw *w, const struct attribution *a)
{
	jsonw_key(w, "devices");
	jsonw_array_begin(w);
	for (size_t i = 0; i < a->n; i++)
		jsonw_string(w, a->devices[i]);
	jsonw_array_end(w);
}

static void json_blocked(struct jsonw *w, const struct snapshot *snap,
			 const struct blocked_task *b, uint64_t mono_ns)
{
	jsonw_object_begin(w);
	jsonw_key(w, "pid");
	jsonw_int(w, b->pid);
	jsonw_key(w, "tid");
	jsonw_int(w, b->tid);
	jsonw_key(w, "comm");
	jsonw_string(w, b->comm);
	jsonw_key(w, "wchan");
	if (b->wchan[0])
		jsonw_string(w, b->wchan);
	else
		jsonw_null(w);
	number_or_null(w, "seconds", blocked_task_seconds(b, mono_ns));
	if (b->nframes) {
		jsonw_key(w, "stack");
		jsonw_array_begin(w);
		for (size_t i = 0; i < b->nframes; i++)
			jsonw_string(w, b->stack[i]);
		jsonw_array_end(w);
	}
	struct attribution a;
	attribution_of_blocked(snap, b, &a);
	json_devices(w, &a);
	jsonw_object_end(w);
}

static void json_io(struct jsonw *w, const struct snapshot *snap, const struct task_io *io)
{
	const struct tasks_sample *t = snap->tasks;
	struct task_io_rates r;
	task_io_rates(t, io, &r);
	jsonw_object_begin(w);
	jsonw_key(w, "pid");
	jsonw_int(w, io->pid);
	jsonw_key(w, "comm");
	jsonw_string(w, io->comm);
	jsonw_key(w, "user");
	jsonw_string(w, io->user);
	number_or_null(w, "rkB/s", r.rkB_s);
	number_or_null(w, "wkB/s", r.wkB_s);
	number_or_null(w, "cancelled_wkB/s", r.cancelled_wkB_s);
	number_or_null(w, "syscr/s", r.syscr_s);
	number_or_null(w, "syscw/s", r.syscw_s);
	number_or_null(w, "iodelay_pct", r.iodelay_pct);
	struct attribution a;
	attribution_of_io(snap, io, &a);
	json_devices(w, &a);
	jsonw_object_end(w);
}

static void json_groups(struct jsonw *w, const struct tasks_sample *t, uint64_t mono_ns)
{
	struct tasks_group groups[GROUPS_MAX];
	size_t n = tasks_blocked_groups(t, mono_ns, groups, GROUPS_MAX);
	jsonw_key(w, "blocked_by_wchan");
	jsonw_object_begin(w);
	for (size_t i = 0; i < n && i < GROUPS_MAX; i++) {
		jsonw_key(w, groups[i].wchan[0] ? groups[i].wchan : "?");
		jsonw_uint(w, groups[i].count);
	}
	jsonw_object_end(w);
}

void output_json_tasks(struct jsonw *w, const struct snapshot *snap)
{
	const struct tasks_sample *t = snap->tasks;
	jsonw_key(w, "tasks");
	if (!t) {
		jsonw_null(w);
		return;
	}
	uint64_t mono_ns = tasks_mono_ns(&snap->mono);
	jsonw_object_begin(w);
	jsonw_key(w, "delayacct");
	jsonw_bool(w, t->delayacct);
	jsonw_key(w, "blocked");
	jsonw_array_begin(w);
	for (size_t i = 0; i < t->nkept; i++)
		json_blocked(w, snap, &t->blocked[i], mono_ns);
	jsonw_array_end(w);
	json_groups(w, t, mono_ns);
	jsonw_key(w, "io");
	jsonw_array_begin(w);
	for (size_t i = 0; i < t->nio; i++)
		json_io(w, snap, &t->io[i]);
	jsonw_array_end(w);
	jsonw_object_end(w);
}

/* ---- text ---- */

static void put_num(FILE *out, double v, int width)
{
	char buf[32];
	numfmt_fit(v, width, buf, sizeof buf);
	fprintf(out, " %*s", width, buf);
}

static void text_groups(FILE *out, const struct tasks_sample *t, const bool *keep,
			uint64_t mono_ns)
{
	struct tasks_group groups[GROUPS_MAX];
	size_t n = tasks_blocked_groups_of(t, mono_ns, keep, groups, GROUPS_MAX);
	for (size_t i = 0; i < n && i < GROUPS_MAX; i++) {
		char line[TASKS_COMMS_MAX + TASK_WCHAN_MAX + 32];
		tasks_group_text(&groups[i], line, sizeof line);
		text_printf(out, "  %s, up to %.1f s\n", line, groups[i].max_seconds);
	}
	if (n > GROUPS_MAX)
		fprintf(out, "  and %zu more wait channels\n", n - GROUPS_MAX);
}

/* Indexes of the kept blocked tasks (those of keep), longest blocked first (then pid
 * order). */
static size_t longest_blocked(const struct tasks_sample *t, const bool *keep, size_t *idx,
			      size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nkept; i++) {
		if (!keep[i])
			continue;
		size_t at = n;
		while (at > 0 && t->blocked[i].since_ns < t->blocked[idx[at - 1]].since_ns)
			at--;
		if (at >= max)
			continue;
		size_t last = n < max ? n : max - 1;
		memmove(&idx[at + 1], &idx[at], (last - at) * sizeof *idx);
		idx[at] = i;
		if (n < max)
			n++;
	}
	return n;
}

static void text_blocked_task(FILE *out, const struct blocked_task *b, const char *device,
			      uint64_t mono_ns)
{
	char where[TASK_WCHAN_MAX + TASK_STACK_FRAMES * (TASK_FRAME_MAX + 3)];
	snprintf(where, sizeof where, "%s", b->wchan[0] ? b->wchan : "?");
	for (size_t i = 0; i < b->nframes; i++) {
		if (i == 0 && strcmp(b->stack[0], b->wchan) == 0)
			continue;
		size_t used = strlen(where);
		snprintf(where + used, sizeof where - used, " < %s", b->stack[i]);
	}
	text_printf(out, "%7d %7d %6.1f %-15.15s %-8s %s\n", (int)b->pid, (int)b->tid,
		    blocked_task_seconds(b, mono_ns), b->comm, device[0] ? device : "-", where);
}

/* "blocked: 3 tasks in D state (of ...)", or with devices named "blocked on loop0: 1
 * task in D state (of ...; 2 elsewhere)", then the groups and the longest blocked. */
static void text_blocked(FILE *out, const struct tasks_sample *t, const struct tasks_split *sp,
			 const struct selection *sel, uint64_t mono_ns)
{
	bool split = sel && !selection_all(sel);
	uint32_t mine = split ? sp->blocked[SIDE_MINE] : t->nblocked;
	fputs("blocked", out);
	for (size_t i = 0; split && i < sel->n; i++)
		text_printf(out, "%s%s", i ? ", " : " on ", sel->names[i]);
	fprintf(out, ": %u task%s in D state (of %u processes, %u threads", mine,
		mine == 1 ? "" : "s", t->nprocs, t->nthreads);
	if (split && t->nblocked > mine)
		fprintf(out, "; %u more elsewhere or not attributed", t->nblocked - mine);
	fputs(")\n", out);
	if (!t->nkept)
		return;
	text_groups(out, t, sp->mine, mono_ns);
	for (int side = SIDE_ELSEWHERE; split && side < SIDE_COUNT; side++) {
		char line[512];
		tasks_split_blocked_text(sp, t, (enum attribution_side)side, line, sizeof line);
		if (line[0])
			text_printf(out, "  %s\n", line);
	}
	size_t idx[TEXT_BLOCKED_MAX];
	size_t n = longest_blocked(t, sp->mine, idx, TEXT_BLOCKED_MAX);
	if (!n)
		return;
	fprintf(out, "%7s %7s %6s %-15s %-8s %s\n", "PID", "TID", "SECS", "COMM", "DEVICE",
		t->stack_readable ? "WCHAN < STACK" : "WCHAN");
	for (size_t i = 0; i < n; i++)
		text_blocked_task(out, &t->blocked[idx[i]], sp->device[idx[i]], mono_ns);
	if (mine > n)
		fprintf(out, "%7s and %u more\n", "", mine - (uint32_t)n);
}

/* J: journal, W: writeback thread (their I/O is the filesystem's, not their own). */
static char role_mark(const struct task_io *io)
{
	switch (task_role(io->comm, io->kthread)) {
	case TASK_ROLE_JOURNAL:
		return 'J';
	case TASK_ROLE_WRITEBACK:
		return 'W';
	default:
		return ' ';
	}
}

static void text_io_row(FILE *out, const struct tasks_sample *t, const struct task_io *io,
			const char *device)
{
	struct task_io_rates r;
	task_io_rates(t, io, &r);
	text_printf(out, "%7d %-8.8s %-14.14s", (int)io->pid, io->user, io->comm);
	put_num(out, r.rkB_s, 8);
	put_num(out, r.wkB_s, 8);
	put_num(out, r.cancelled_wkB_s, 7);
	put_num(out, r.syscr_s, 6);
	put_num(out, r.syscw_s, 6);
	put_num(out, r.iodelay_pct, 5);
	text_printf(out, " %c %s\n", role_mark(io), device[0] ? device : "-");
}

static void text_io(FILE *out, const struct tasks_sample *t, const struct tasks_split *sp,
		    bool split)
{
	if (!t->interval_ns) {
		fputs("io: - (a baseline: per-process figures from the next interval)\n", out);
		return;
	}
	fprintf(out, "%7s %-8s %-14s %8s %8s %7s %6s %6s %5s %s\n", "PID", "USER", "COMM", "rkB/s",
		"wkB/s", "cwkB/s", "scr/s", "scw/s", "dly%", "  DEVICE");
	bool marked = false;
	for (size_t i = 0; i < t->nio; i++) {
		if (sp->io_side[i] != SIDE_MINE)
			continue;
		text_io_row(out, t, &t->io[i], sp->io_device[i]);
		marked |= role_mark(&t->io[i]) != ' ';
	}
	if (!sp->processes[SIDE_MINE])
		fputs("        (no process read or wrote)\n", out);
	for (int side = SIDE_ELSEWHERE; split && side < SIDE_COUNT; side++) {
		char line[512];
		tasks_split_io_text(sp, t, (enum attribution_side)side, line, sizeof line);
		if (line[0])
			text_printf(out, "        %s\n", line);
	}
	if (marked)
		fputs("        J: journal, W: writeback thread (the filesystem's I/O, not its own)\n",
		      out);
}

void output_text_tasks(FILE *out, const struct snapshot *snap, const struct selection *sel)
{
	const struct tasks_sample *t = snap->tasks;
	if (!t) {
		fputs("tasks: not sampled (a recording made without --tasks)\n", out);
		return;
	}
	struct tasks_split sp;
	if (tasks_split_build(&sp, snap, sel ? sel : &(struct selection){ .n = 0 }) < 0) {
		fputs("tasks: out of memory\n", out);
		return;
	}
	uint64_t mono_ns = tasks_mono_ns(&snap->mono);
	text_blocked(out, t, &sp, sel, mono_ns);
	text_io(out, t, &sp, sel && !selection_all(sel));
	tasks_split_free(&sp);
}
