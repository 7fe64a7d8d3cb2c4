/* report_compare.c - `ioscope compare A.log B.log [--phase N]`: two sessions side by side
 * (before and after a kernel upgrade, or a setting), phase by phase, with the differences
 * in percent (docs/reports.md, "compare").  A phase of A is aligned with the phase of B
 * opened by the same marks (same labels), else with the phase of B in the same place.
 *
 * Devices are paired, not matched by name: ext4 on loop0 against xfs on loop1 is the
 * classic question.  A log made for one device (a matrix run's, a recording of one
 * device) has it as its device under test, and two such logs are paired on them;
 * --pair A_DEV=B_DEV pairs by hand; else the devices of A are paired with those of B of
 * the same name.  The header sets the pairs' settings side by side
 * (compare_settings.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_settings.h"
#include "report_phases.h"
#include "text.h"

/* A session shorter than this many times the default --min-phase is short: its phases
 * are all short ones, and both short, they are compared (an interactive session). */
#define SHORT_SESSION_PHASES 10
#define COMPARE_EVERY_PHASE 1e-9   /* a --min-phase no phase is under */

struct side {
	struct report rep;
	struct phase_plan plan;
	char **keys;                 /* per phase: its opening marks' labels */
	struct compare_state state;  /* its settings, for the header */
	bool have_state;
};

struct compare_args {
	const char *devices;
	long only;
	double min_phase;            /* 0: not given */
	struct compare_pair *pairs;          /* --pair, then the pairs compared (one per device of A) */
	size_t npairs;
	bool paired_by_hand;
	bool both_short;             /* short phases compared by default */
	double short_under;          /* seconds: what a short session is under */
};

/* "sched loop0 mq-deadline→bfq; mark: untar" */
static char *phase_key(const struct report *rep, const struct phase *p, struct replay_event *ev)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < p->nopens; i++) {
		char label[MOUNT_OPTS_MAX + 256];
		report_event(rep, p->opens[i], ev);
		report_mark_label(&ev->event, label, sizeof label);
		fprintf(f, "%s%s", i ? "; " : "", label);
	}
	fclose(f);
	return text;
}

/* An unknown device is said with the log it is not in. */
static int side_open(struct side *s, const char *path, const char *devices, struct error *err)
{
	s->rep = (struct report){ .path = path };
	int status = report_open(&s->rep, devices, err);
	if (status == 2) {
		struct error why = *err;
		error_set(err, "%s: %s", path, why.msg);
	}
	return status;
}

/* Its phases (rep.min_phase decided) and their keys, and its settings. */
static int side_build(struct side *s, double min_phase, struct error *err)
{
	s->rep.min_phase = min_phase;
	if (report_phases_build(&s->rep, &s->plan, err) < 0)
		return 1;
	struct replay_event *ev = malloc(sizeof *ev);
	s->keys = calloc(s->plan.n, sizeof *s->keys);
	for (size_t i = 0; ev && s->keys && i < s->plan.n; i++)
		if (!(s->keys[i] = phase_key(&s->rep, &s->plan.phases[i], ev)))
			break;
	bool ok = ev && s->keys && (s->plan.n == 0 || s->keys[s->plan.n - 1]);
	free(ev);
	if (!ok)
		return error_set(err, "out of memory"), 1;
	s->have_state = true;   /* initialised by the read: freed whatever it gives */
	return compare_state_read(&s->rep, &s->state, err) < 0 ? 1 : 0;
}

static void side_close(struct side *s)
{
	if (s->have_state)
		compare_state_free(&s->state);
	for (size_t i = 0; s->keys && i < s->plan.n; i++)
		free(s->keys[i]);
	free(s->keys);
	report_phases_free(&s->plan, &s->rep);
	report_close(&s->rep);
}

/* match[i]: the phase of b aligned with phase i of a (SIZE_MAX: none); first those
 * opened by the same marks, then, among the rest, the phase in the same place. */
static void align(const struct side *a, const struct side *b, size_t *match, bool *by_mark,
		  bool *used)
{
	for (size_t i = 0; i < a->plan.n; i++) {
		match[i] = SIZE_MAX;
		by_mark[i] = false;
		for (size_t j = 0; a->keys[i][0] && j < b->plan.n && match[i] == SIZE_MAX; j++)
			if (!used[j] && strcmp(a->keys[i], b->keys[j]) == 0) {
				match[i] = j;
				by_mark[i] = used[j] = true;
			}
	}
	for (size_t i = 0; i < a->plan.n; i++)
		if (match[i] == SIZE_MAX && i < b->plan.n && !used[i])
			used[match[i] = i] = true;
}

static void figure_row(FILE *out, const char *device, const char *name, bool have_a, double va,
		       bool have_b, double vb, int prec)
{
	text_printf(out, "  %-8s %-14s", device, name);
	if (have_a && isfinite(va))
		fprintf(out, " %11.*f", prec, va);
	else
		fprintf(out, " %11s", "-");
	if (have_b && isfinite(vb))
		fprintf(out, " %11.*f", prec, vb);
	else
		fprintf(out, " %11s", "-");
	if (have_a && have_b && isfinite(va) && isfinite(vb) && va != 0)
		fprintf(out, " %+10.1f%%\n", (vb - va) / fabs(va) * 100);
	else
		fprintf(out, " %11s\n", "-");
}

/* The rows of one pair: A's device named on the first, B's on the second when it is
 * another device. */
static void device_figures(FILE *out, const struct compare_pair *pr, struct phase_device *x,
			   struct phase_device *y)
{
	char other[DEV_NAME_MAX + 2] = "";
	if (strcmp(pr->a, pr->b) != 0)
		snprintf(other, sizeof other, "B %s", pr->b);
	const char *name = pr->a;
	bool a = x && x->dt > 0, b = y && y->dt > 0;
	bool ab = a && x->busy_dt > 0, bb = b && y->busy_dt > 0;
	bool aw = a && x->nawaits, bw = b && y->nawaits;
	figure_row(out, name, "MB moved", a, a ? (x->rkb + x->wkb) / 1024 : 0, b,
		   b ? (y->rkb + y->wkb) / 1024 : 0, 1);
	figure_row(out, other, "MB/s mean", a, a ? (x->rkb + x->wkb) / 1024 / x->dt : 0, b,
		   b ? (y->rkb + y->wkb) / 1024 / y->dt : 0, 1);
	figure_row(out, "", "MB/s busy", ab, ab ? (x->busy_rkb + x->busy_wkb) / 1024 / x->busy_dt : 0,
		   bb, bb ? (y->busy_rkb + y->busy_wkb) / 1024 / y->busy_dt : 0, 1);
	figure_row(out, "", "IOPS busy", ab, ab ? x->busy_ios / x->busy_dt : 0, bb,
		   bb ? y->busy_ios / y->busy_dt : 0, 0);
	figure_row(out, "", "await p50 ms", aw, aw ? report_percentile(x->awaits, x->nawaits, 50) : 0,
		   bw, bw ? report_percentile(y->awaits, y->nawaits, 50) : 0, 2);
	figure_row(out, "", "await p95 ms", aw, aw ? report_percentile(x->awaits, x->nawaits, 95) : 0,
		   bw, bw ? report_percentile(y->awaits, y->nawaits, 95) : 0, 2);
	figure_row(out, "", "%util mean", a, a ? x->util_s / x->dt : 0, b, b ? y->util_s / y->dt : 0, 1);
}

static void phase_heading(FILE *out, const struct phase *p, const char *which, const char *key)
{
	char from[32], span[32];
	report_local_time(&p->from, false, from, sizeof from);
	report_duration(timespec_diff(&p->to, &p->from), span, sizeof span);
	char line[MOUNT_OPTS_MAX + 128];
	snprintf(line, sizeof line, "%s (%s)%s%s%s", from, span, p->is_short ? ", short" : "",
		 key[0] ? ", after " : "", key);
	char head[16];
	snprintf(head, sizeof head, "  %s ", which);
	report_print_wrapped(out, head, 5, line);
}

static void compare_phase(FILE *out, struct side *a, struct side *b, const struct compare_args *o,
			  size_t i, size_t j, bool by_mark)
{
	struct phase *pa = &a->plan.phases[i], *pb = j == SIZE_MAX ? NULL : &b->plan.phases[j];
	fprintf(out, "\nPhase %zu of A", i + 1);
	if (pb)
		fprintf(out, " and phase %zu of B (aligned by %s)\n", j + 1,
			by_mark ? "their marks" : "order");
	else
		fprintf(out, ": no phase of B to align it with\n");
	phase_heading(out, pa, "A", a->keys[i]);
	if (pb)
		phase_heading(out, pb, "B", b->keys[j]);
	if (pa->is_short || (pb && pb->is_short)) {
		fprintf(out, "  short: not compared (--min-phase)\n");
		return;
	}
	fprintf(out, "  %-8s %-14s %11s %11s %11s\n", "device", "figure", "A", "B", "B vs A");
	for (size_t k = 0; k < o->npairs; k++) {
		int ka = report_device_index(&a->rep, o->pairs[k].a);
		int kb = report_device_index(&b->rep, o->pairs[k].b);
		device_figures(out, &o->pairs[k], ka >= 0 ? &pa->dev[ka] : NULL,
			       pb && kb >= 0 ? &pb->dev[kb] : NULL);
	}
}

/* Which phases are compared, and why. */
static void min_phase_line(FILE *out, const struct side *a, const struct compare_args *o)
{
	char min[32], under[32];
	report_duration(o->both_short ? report_min_phase_default(&a->rep) : a->plan.min_phase, min,
			sizeof min);
	report_duration(o->short_under, under, sizeof under);
	fputs("\n", out);
	if (o->both_short)
		fprintf(out, "  Short phases compared: both sessions last under %s (--min-phase %s\n"
			"  leaves out the phases under %s).\n", under, min, min);
	else
		fprintf(out, "  Phases under %s are not compared (--min-phase%s).\n", min,
			o->min_phase > 0 ? "" : ", its default");
}

static void compare_heading(FILE *out, const struct side *a, const struct side *b,
			    const struct compare_args *o)
{
	const struct replay_machine *ma = replay_machine(a->rep.replay);
	const struct replay_machine *mb = replay_machine(b->rep.replay);
	fputs("ioscope compare\n\n", out);
	text_printf(out, "  A  %s\n", a->rep.path);
	text_printf(out, "  B  %s\n\n", b->rep.path);
	fprintf(out, "  %-10s %-32s %s\n", "", "A", "B");
	text_printf(out, "  %-10s %-32.32s %.32s\n", "host", ma->host, mb->host);
	text_printf(out, "  %-10s %-32.32s %.32s\n", "kernel", ma->kernel, mb->kernel);
	char ta[32], tb[32];
	struct timespec wa = replay_sample_wall(a->rep.replay, 0), wb = replay_sample_wall(b->rep.replay, 0);
	report_local_time(&wa, true, ta, sizeof ta);
	report_local_time(&wb, true, tb, sizeof tb);
	fprintf(out, "  %-10s %-32s %s\n", "recorded", ta, tb);
	fprintf(out, "  %-10s %-32zu %zu\n", "phases", a->plan.n, b->plan.n);
	for (size_t k = 0; k < o->npairs; k++)
		compare_settings_print(out, &a->state, o->pairs[k].a, &b->state, o->pairs[k].b);
	min_phase_line(out, a, o);
}

static int compare(FILE *out, struct side *a, struct side *b, const struct compare_args *o)
{
	long only = o->only;
	bool *used = calloc(b->plan.n + 1, sizeof *used), *by_mark = calloc(a->plan.n + 1, sizeof *by_mark);
	size_t *match = calloc(a->plan.n + 1, sizeof *match);
	if (!used || !by_mark || !match) {
		free(used);
		free(by_mark);
		free(match);
		return -1;
	}
	align(a, b, match, by_mark, used);
	compare_heading(out, a, b, o);
	for (size_t i = 0; i < a->plan.n; i++)
		if (only < 0 || (size_t)only == i + 1)
			compare_phase(out, a, b, o, i, match[i], by_mark[i]);
	for (size_t j = 0; only < 0 && j < b->plan.n; j++)
		if (!used[j])
			fprintf(out, "\nPhase %zu of B: no phase of A to align it with\n", j + 1);
	free(used);
	free(by_mark);
	free(match);
	return 0;
}

static int add_pair(struct compare_args *o, const char *a, const char *b)
{
	struct compare_pair *p = realloc(o->pairs, (o->npairs + 1) * sizeof *p);
	if (!p)
		return -1;
	o->pairs = p;
	snprintf(p[o->npairs].a, DEV_NAME_MAX, "%s", a);
	snprintf(p[o->npairs].b, DEV_NAME_MAX, "%s", b);
	o->npairs++;
	return 0;
}

/* The devices of one side named by the pairs: "loop0,loop2". */
static void pair_devices(const struct compare_args *o, bool b_side, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < o->npairs; i++)
		used = text_appendf(buf, len, used, "%s%s", i ? "," : "",
				    b_side ? o->pairs[i].b : o->pairs[i].a);
}

/* Without --pair: each log's one device under test, else A's devices by name.  -1 on
 * ENOMEM. */
static int plan_pairs(struct compare_args *o, const struct side *a, const struct side *b)
{
	if (o->paired_by_hand)
		return 0;
	const struct replay_machine *ma = replay_machine(a->rep.replay);
	const struct replay_machine *mb = replay_machine(b->rep.replay);
	if (!o->devices && ma->nselection == 1 && mb->nselection == 1)
		return add_pair(o, ma->selection[0], mb->selection[0]);
	for (size_t k = 0; k < a->rep.ndevices; k++)
		if (add_pair(o, a->rep.devices[k], a->rep.devices[k]) < 0)
			return -1;
	return 0;
}

static double session_seconds(const struct report *rep)
{
	struct timespec from = replay_sample_wall(rep->replay, rep->first);
	struct timespec to = replay_sample_wall(rep->replay, rep->last);
	return timespec_diff(&to, &from);
}

/* --min-phase, or by default: every phase when both sessions are short. */
static double min_phase_of(struct compare_args *o, const struct side *a, const struct side *b)
{
	o->short_under = SHORT_SESSION_PHASES *
			 fmax(report_min_phase_default(&a->rep), report_min_phase_default(&b->rep));
	if (o->min_phase > 0)
		return o->min_phase;
	o->both_short = session_seconds(&a->rep) < o->short_under &&
			session_seconds(&b->rep) < o->short_under;
	return o->both_short ? COMPARE_EVERY_PHASE : 0;
}

static int compare_sessions(struct compare_args *o, struct side *a, struct side *b,
			    const char *path_a, const char *path_b, struct error *err)
{
	char devs_a[COMPARE_MAX_PAIRS * DEV_NAME_MAX], devs_b[sizeof devs_a];
	pair_devices(o, false, devs_a, sizeof devs_a);
	pair_devices(o, true, devs_b, sizeof devs_b);
	int status = side_open(a, path_a, o->npairs ? devs_a : o->devices, err);
	if (status == 0)
		status = side_open(b, path_b, o->npairs ? devs_b : o->devices, err);
	if (status)
		return status;
	if (plan_pairs(o, a, b) < 0)
		return error_set(err, "out of memory"), 1;
	double min_phase = min_phase_of(o, a, b);
	status = side_build(a, min_phase, err);
	if (status == 0)
		status = side_build(b, min_phase, err);
	if (status == 0 && o->only > (long)a->plan.n)
		status = (error_set(err, "phase %ld: %s has %zu", o->only, a->rep.path, a->plan.n), 2);
	if (status == 0 && (compare(stdout, a, b, o) < 0 || fflush(stdout) != 0 || ferror(stdout)))
		status = (error_set(err, "standard output: write error"), 1);
	return status;
}

int compare_run(const struct compare_request *q)
{
	struct compare_args o = { .devices = q->devices, .only = q->only, .min_phase = q->min_phase,
				  .paired_by_hand = q->npairs > 0 };
	struct error err = { "" };
	int status = 0;
	for (size_t i = 0; i < q->npairs && !status; i++)
		if (add_pair(&o, q->pairs[i].a, q->pairs[i].b) < 0)
			status = (error_set(&err, "out of memory"), 1);
	struct side a = { .keys = NULL }, b = { .keys = NULL };
	if (!status)
		status = compare_sessions(&o, &a, &b, q->path_a, q->path_b, &err);
	if (status)
		text_printf(stderr, "ioscope: %s\n", err.msg);
	side_close(&a);
	side_close(&b);
	free(o.pairs);
	return status;
}
