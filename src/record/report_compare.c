/* report_compare.c - `ioscope compare A.log B.log [--phase N]`: two sessions side by side
 * (before and after a kernel upgrade, or a setting), phase by phase, with the differences
 * in percent (docs/reports.md, "compare").  A phase of A is paired with the phase of B
 * opened by the same marks (same labels; a repeated label by its ordinal), and a phase
 * without a partner is listed as unpaired.
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
	size_t *ordinal;             /* per phase: 1 + the earlier phases with its key */
	char **shown;                /* per phase: its key, "#2" after it when a key repeats */
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
	for (size_t i = 0; s->shown && i < s->plan.n; i++)
		free(s->shown[i]);
	free(s->keys);
	free(s->shown);
	free(s->ordinal);
	report_phases_free(&s->plan, &s->rep);
	report_close(&s->rep);
}

static size_t key_count(const struct side *s, const char *key)
{
	size_t n = 0;
	for (size_t i = 0; i < s->plan.n; i++)
		n += strcmp(s->keys[i], key) == 0;
	return n;
}

/* Each phase's ordinal among those its side has with its key, and the key as shown: with
 * the ordinal ("mark: step#2") when either side has the key more than once.  -1 on ENOMEM. */
static int name_phases(struct side *s, const struct side *other)
{
	s->ordinal = calloc(s->plan.n + 1, sizeof *s->ordinal);
	s->shown = calloc(s->plan.n + 1, sizeof *s->shown);
	if (!s->ordinal || !s->shown)
		return -1;
	for (size_t i = 0; i < s->plan.n; i++) {
		s->ordinal[i] = 1;
		for (size_t j = 0; j < i; j++)
			s->ordinal[i] += strcmp(s->keys[j], s->keys[i]) == 0;
		bool repeated = key_count(s, s->keys[i]) > 1 || key_count(other, s->keys[i]) > 1;
		int rc = repeated ? asprintf(&s->shown[i], "%s#%zu", s->keys[i], s->ordinal[i])
				  : asprintf(&s->shown[i], "%s", s->keys[i]);
		if (rc < 0) {
			s->shown[i] = NULL;
			return -1;
		}
	}
	return 0;
}

/* match[i]: the phase of b paired with phase i of a (SIZE_MAX: none): the one opened by
 * marks of the same labels, a repeated label by its ordinal (the second "step" of A with
 * the second of B).  Never by position: an extra phase on one side would shift every pair
 * after it. */
static void pair_phases(const struct side *a, const struct side *b, size_t *match, bool *used)
{
	for (size_t i = 0; i < a->plan.n; i++) {
		match[i] = SIZE_MAX;
		for (size_t j = 0; j < b->plan.n && match[i] == SIZE_MAX; j++)
			if (!used[j] && a->ordinal[i] == b->ordinal[j] &&
			    strcmp(a->keys[i], b->keys[j]) == 0)
				used[match[i] = j] = true;
	}
}

/* A figure of one side, and the range one interval's placement allows it: a burst that
 * straddles a sample spans one interval more (or one less), one at a phase's edge is left
 * out of it.  lo == hi == v: exact. */
struct figure {
	bool have;
	double v, lo, hi;
};

static struct figure exact(bool have, double v)
{
	return (struct figure){ have && isfinite(v), v, v, v };
}

/* amount over t seconds of whole intervals, the longest one_interval long */
static struct figure rate(bool have, double amount, double t, double one_interval)
{
	struct figure f = { have && t > 0, t > 0 ? amount / t : 0, 0, 0 };
	if (f.have)
		report_rate_range(amount, t, one_interval, &f.lo, &f.hi);
	return f;
}

static double rounded(double v, int prec)
{
	double scale = pow(10, prec);
	return round(v * scale) / scale;
}

/* B's difference from A in percent of the figures as printed (so that the reader gets the
 * same from them), "~" before it when one interval's placement can explain it. */
static void difference(FILE *out, struct figure a, struct figure b, int prec)
{
	double va = rounded(a.v, prec), vb = rounded(b.v, prec);
	if (!a.have || !b.have || va == 0) {
		fprintf(out, " %11s\n", "-");
		return;
	}
	double pct = rounded((vb - va) / fabs(va) * 100, 1);
	/* one interval placed otherwise on one side would give the other's figure */
	bool placement = (b.v >= a.lo && b.v <= a.hi) || (a.v >= b.lo && a.v <= b.hi);
	char text[32];
	if (pct == 0)
		snprintf(text, sizeof text, "0.0%%");
	else
		snprintf(text, sizeof text, "%s%+.1f%%", placement ? "~" : "", pct);
	fprintf(out, " %11s\n", text);
}

static void figure_row(FILE *out, const char *device, const char *name, struct figure a,
		       struct figure b, int prec)
{
	text_printf(out, "  %-8s %-14s", device, name);
	if (a.have)
		fprintf(out, " %11.*f", prec, a.v);
	else
		fprintf(out, " %11s", "-");
	if (b.have)
		fprintf(out, " %11.*f", prec, b.v);
	else
		fprintf(out, " %11s", "-");
	difference(out, a, b, prec);
}

/* MiB moved, and as much again as moved in the intervals left out at the phase's edges:
 * part of that may be the phase's. */
static struct figure moved(const struct phase_plan *plan, size_t i, int k)
{
	if (k < 0 || plan->phases[i].dev[k].dt <= 0)
		return exact(false, 0);
	const struct phase_device *s = &plan->phases[i].dev[k];
	struct figure f = exact(true, (s->rkb + s->wkb) / 1024);
	f.hi += report_phase_edge_kb(plan, i, (size_t)k) / 1024;
	return f;
}

/* One figure of a side for figure_row(); s NULL (a device the phase does not have) or
 * without intervals: no figure. */
static struct figure active_mbps(const struct phase_device *s)
{
	bool have = s && s->dt > 0 && s->active_dt > 0;
	return have ? rate(true, (s->rkb + s->wkb) / 1024, s->active_dt, s->longest_dt)
		    : exact(false, 0);
}

static struct figure active_seconds(const struct phase_device *s)
{
	if (!s || s->dt <= 0 || s->active_dt <= 0)
		return exact(false, 0);
	struct figure f = exact(true, s->active_dt);
	f.lo -= s->longest_dt;
	f.hi += s->longest_dt;
	return f;
}

static struct figure busy_mbps(const struct phase_device *s)
{
	bool have = s && s->dt > 0 && s->busy_dt > 0;
	return have ? rate(true, (s->busy_rkb + s->busy_wkb) / 1024, s->busy_dt, s->longest_dt)
		    : exact(false, 0);
}

static struct figure busy_iops(const struct phase_device *s)
{
	bool have = s && s->dt > 0 && s->busy_dt > 0;
	return have ? rate(true, s->busy_ios, s->busy_dt, s->longest_dt) : exact(false, 0);
}

static struct figure await_ms(struct phase_device *s, double p)
{
	bool have = s && s->dt > 0 && s->nawaits;
	return exact(have, have ? report_percentile(s->awaits, s->nawaits, p) : 0);
}

static struct figure util_mean(const struct phase_device *s)
{
	bool have = s && s->dt > 0;
	return exact(have, have ? s->util_s / s->dt : 0);
}

/* The rows of one pair: A's device named on the first, B's on the second when it is
 * another device.  The figures that do not hinge on a threshold lead: MiB moved, MiB/s
 * over the active span (first to last interval with I/O); then the busy ones. */
static void device_figures(FILE *out, const struct compare_pair *pr, const struct phase_plan *pa,
			   size_t i, int ka, const struct phase_plan *pb, size_t j, int kb)
{
	char other[DEV_NAME_MAX + 2] = "";
	if (strcmp(pr->a, pr->b) != 0)
		snprintf(other, sizeof other, "B %s", pr->b);
	struct phase_device *x = ka >= 0 ? &pa->phases[i].dev[ka] : NULL;
	struct phase_device *y = kb >= 0 ? &pb->phases[j].dev[kb] : NULL;
	figure_row(out, pr->a, "MiB moved", moved(pa, i, ka), moved(pb, j, kb), 1);
	figure_row(out, other, "MiB/s active", active_mbps(x), active_mbps(y), 1);
	figure_row(out, "", "active s", active_seconds(x), active_seconds(y), 1);
	figure_row(out, "", "MiB/s busy", busy_mbps(x), busy_mbps(y), 1);
	figure_row(out, "", "IOPS busy", busy_iops(x), busy_iops(y), 0);
	figure_row(out, "", "await p50 ms", await_ms(x, 50), await_ms(y, 50), 2);
	figure_row(out, "", "await p95 ms", await_ms(x, 95), await_ms(y, 95), 2);
	figure_row(out, "", "%util mean", util_mean(x), util_mean(y), 1);
}

/* "  settings loop0: loop.dio 0→1, wbt_lat_usec 2000→0" when the two phases' setting
 * states of a device differ (every setting a report compares, docs/reports.md), nothing
 * otherwise. */
static void setting_difference(FILE *out, const char *device, const char *a, const char *b)
{
	if (!a || !b)
		return;
	char *diff = report_state_difference(a, b);
	if (diff && diff[0]) {
		char line[DEV_NAME_MAX + 16];
		snprintf(line, sizeof line, "  settings %s: ", device);
		report_print_wrapped(out, line, 4, diff);
	}
	free(diff);
}

static void phase_heading(FILE *out, const struct side *s, const struct phase *p,
			  const char *which, const char *key)
{
	char from[32], span[32];
	report_clock(&s->rep, &p->from, from, sizeof from);
	report_duration(timespec_diff(&p->to, &p->from), span, sizeof span);
	char line[MOUNT_OPTS_MAX + 128];
	snprintf(line, sizeof line, "%s (%s)%s%s%s", from, span, p->is_short ? ", short" : "",
		 key[0] ? ", after " : "", key);
	char head[16];
	snprintf(head, sizeof head, "  %s ", which);
	report_print_wrapped(out, head, 5, line);
}

/* A phase of one side that the other has no partner for. */
static void unpaired_phase(FILE *out, const struct side *s, size_t i, const char *which,
			   const char *other)
{
	fprintf(out, "\nPhase %zu of %s: unpaired, %s has no phase opened by %s\n", i + 1, which,
		other, s->keys[i][0] ? "the same marks" : "no mark");
	phase_heading(out, s, &s->plan.phases[i], which, s->shown[i]);
}

static void compare_phase(FILE *out, struct side *a, struct side *b, const struct compare_args *o,
			  size_t i, size_t j)
{
	if (j == SIZE_MAX) {
		unpaired_phase(out, a, i, "A", "B");
		return;
	}
	struct phase *pa = &a->plan.phases[i], *pb = &b->plan.phases[j];
	fprintf(out, "\nPhase %zu of A and phase %zu of B (%s)\n", i + 1, j + 1,
		a->keys[i][0] ? "paired by their marks" : "paired: the first, opened by no mark");
	phase_heading(out, a, pa, "A", a->shown[i]);
	phase_heading(out, b, pb, "B", b->shown[j]);
	if (pa->is_short || (pb && pb->is_short)) {
		fprintf(out, "  short: not compared (--min-phase)\n");
		return;
	}
	fprintf(out, "  %-8s %-14s %11s %11s %11s\n", "device", "figure", "A", "B", "B vs A");
	for (size_t k = 0; k < o->npairs; k++) {
		int ka = report_device_index(&a->rep, o->pairs[k].a);
		int kb = report_device_index(&b->rep, o->pairs[k].b);
		device_figures(out, &o->pairs[k], &a->plan, i, ka, &b->plan, j, kb);
	}
	/* A pair of two devices differs in their mounts and backing files in every phase, and
	 * the header already sets their settings side by side: only a device compared with
	 * itself gets the line. */
	for (size_t k = 0; pb && k < o->npairs; k++) {
		int ka = report_device_index(&a->rep, o->pairs[k].a);
		int kb = report_device_index(&b->rep, o->pairs[k].b);
		if (ka >= 0 && kb >= 0 && strcmp(o->pairs[k].a, o->pairs[k].b) == 0)
			setting_difference(out, o->pairs[k].a, pa->dev[ka].state,
					   pb->dev[kb].state);
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

/* How the phases were paired, and how many were not. */
static void pairing_line(FILE *out, const struct side *a, const struct side *b, const size_t *match,
			 const bool *used)
{
	size_t pairs = 0, only_b = 0;
	for (size_t i = 0; i < a->plan.n; i++)
		pairs += match[i] != SIZE_MAX;
	for (size_t j = 0; j < b->plan.n; j++)
		only_b += !used[j];
	char line[256];
	snprintf(line, sizeof line, "%zu by the labels of the marks that open them (a label "
		 "repeated: by its ordinal, as step#2); unpaired: %zu of A, %zu of B", pairs,
		 a->plan.n - pairs, only_b);
	report_print_wrapped(out, "  paired     ", 13, line);
}

static void compare_heading(FILE *out, const struct side *a, const struct side *b,
			    const struct compare_args *o, const size_t *match, const bool *used)
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
	pairing_line(out, a, b, match, used);
	report_print_wrapped(out, "  figures    ", 13,
			     "MiB moved and MiB/s over the active span (first to last interval "
			     "with I/O) lead, then the busy figures (intervals at %util above 5); "
			     "~: a difference that one interval's placement can explain (a burst "
			     "straddling a sample, I/O at a phase's edge), not a finding");
	for (size_t k = 0; k < o->npairs; k++)
		compare_settings_print(out, &a->state, o->pairs[k].a, &b->state, o->pairs[k].b);
	min_phase_line(out, a, o);
}

static int compare(FILE *out, struct side *a, struct side *b, const struct compare_args *o)
{
	long only = o->only;
	bool *used = calloc(b->plan.n + 1, sizeof *used);
	size_t *match = calloc(a->plan.n + 1, sizeof *match);
	if (!used || !match || name_phases(a, b) < 0 || name_phases(b, a) < 0) {
		free(used);
		free(match);
		return -1;
	}
	pair_phases(a, b, match, used);
	compare_heading(out, a, b, o, match, used);
	for (size_t i = 0; i < a->plan.n; i++)
		if (only < 0 || (size_t)only == i + 1)
			compare_phase(out, a, b, o, i, match[i]);
	for (size_t j = 0; only < 0 && j < b->plan.n; j++)
		if (!used[j])
			unpaired_phase(out, b, j, "B", "A");
	free(used);
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
