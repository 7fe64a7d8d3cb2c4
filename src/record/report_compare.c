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
#include "compare_keys.h"
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
	char **labels;               /* per phase: its opening marks' labels, as shown */
	char **keys;                 /* per phase: what it is, for pairing (compare_keys.h) */
	char **dropped;              /* per phase: the keys of its marks left out of its key */
	size_t *ordinal;             /* per phase: 1 + the earlier phases with its key */
	char **shown;                /* per phase: its labels, "#2" after them when a key repeats */
	struct compare_subject *subj;   /* its devices under test, as tokens in the keys */
	size_t nsubj;
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
	const struct compare_phase_pair *phase_pairs;   /* --pair-phases */
	size_t nphase_pairs;
	bool both_short;             /* short phases compared by default */
	double short_under;          /* seconds: what a short session is under */
};

/* A text built with open_memstream; NULL on ENOMEM. */
struct text_buf {
	char *text;
	size_t len;
	FILE *f;
};

static bool text_open(struct text_buf *t)
{
	t->text = NULL;
	t->f = open_memstream(&t->text, &t->len);
	return t->f != NULL;
}

static char *text_close(struct text_buf *t)
{
	if (t->f && fclose(t->f) != 0) {
		free(t->text);
		return NULL;
	}
	return t->f ? t->text : NULL;
}

/* Phase p's labels ("start untar.sh /mnt/a; mark: untar"), its key ("mark: untar") and
 * the keys its key leaves out ("start untar.sh <mount>"), one a line: every moment but
 * the last of those opening it is left out, as what the phase holds followed that one
 * (compare_keys.h).  -1 on ENOMEM. */
static int phase_texts(struct side *s, size_t i, struct replay_event *ev)
{
	const struct phase *p = &s->plan.phases[i];
	size_t last_moment = SIZE_MAX;
	for (size_t k = 0; k < p->nopens; k++) {
		report_event(&s->rep, p->opens[k], ev);
		if (compare_mark_is_moment(&ev->event))
			last_moment = k;
	}
	struct text_buf label, key, dropped;
	bool ok = text_open(&label) & text_open(&key) & text_open(&dropped);
	bool first_key = true;
	for (size_t k = 0; ok && k < p->nopens; k++) {
		char text[COMPARE_KEY_MAX];
		report_event(&s->rep, p->opens[k], ev);
		report_mark_label(&ev->event, text, sizeof text);
		fprintf(label.f, "%s%s", k ? "; " : "", text);
		compare_mark_key(&ev->event, s->subj, s->nsubj, text, sizeof text);
		if (compare_mark_is_moment(&ev->event) && k < last_moment) {
			fprintf(dropped.f, "%s\n", text);
			continue;
		}
		fprintf(key.f, "%s%s", first_key ? "" : "; ", text);
		first_key = false;
	}
	s->labels[i] = text_close(&label);
	s->keys[i] = text_close(&key);
	s->dropped[i] = text_close(&dropped);
	return ok && s->labels[i] && s->keys[i] && s->dropped[i] ? 0 : -1;
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

/* Its devices under test (those of the pairs, one side's), each with its mount point
 * as the state has it: one token each in the keys, numbered when there are several. */
static int side_subjects(struct side *s, const struct compare_args *o, bool b_side)
{
	s->subj = calloc(o->npairs + 1, sizeof *s->subj);
	if (!s->subj)
		return -1;
	s->nsubj = o->npairs;
	for (size_t k = 0; k < o->npairs; k++) {
		struct compare_subject *c = &s->subj[k];
		const char *dev = b_side ? o->pairs[k].b : o->pairs[k].a;
		snprintf(c->device, sizeof c->device, "%s", dev);
		snprintf(c->mount, sizeof c->mount, "%s", compare_state_mount(&s->state, dev));
		if (o->npairs == 1) {
			snprintf(c->device_token, sizeof c->device_token, "<device>");
			snprintf(c->mount_token, sizeof c->mount_token, "<mount>");
		} else {
			snprintf(c->device_token, sizeof c->device_token, "<device %zu>", k + 1);
			snprintf(c->mount_token, sizeof c->mount_token, "<mount %zu>", k + 1);
		}
	}
	return 0;
}

/* Its phases (rep.min_phase decided), its settings, and its phases' labels and keys. */
static int side_build(struct side *s, double min_phase, const struct compare_args *o, bool b_side,
		      struct error *err)
{
	s->rep.min_phase = min_phase;
	if (report_phases_build(&s->rep, &s->plan, err) < 0)
		return 1;
	s->have_state = true;   /* initialised by the read: freed whatever it gives */
	if (compare_state_read(&s->rep, &s->state, err) < 0)
		return 1;
	struct replay_event *ev = malloc(sizeof *ev);
	s->labels = calloc(s->plan.n + 1, sizeof *s->labels);
	s->keys = calloc(s->plan.n + 1, sizeof *s->keys);
	s->dropped = calloc(s->plan.n + 1, sizeof *s->dropped);
	bool ok = ev && s->labels && s->keys && s->dropped && side_subjects(s, o, b_side) == 0;
	for (size_t i = 0; ok && i < s->plan.n; i++)
		ok = phase_texts(s, i, ev) == 0;
	free(ev);
	if (!ok)
		return error_set(err, "out of memory"), 1;
	return 0;
}

static void free_texts(char **texts, size_t n)
{
	for (size_t i = 0; texts && i < n; i++)
		free(texts[i]);
	free(texts);
}

static void side_close(struct side *s)
{
	if (s->have_state)
		compare_state_free(&s->state);
	free_texts(s->labels, s->plan.n);
	free_texts(s->keys, s->plan.n);
	free_texts(s->dropped, s->plan.n);
	free_texts(s->shown, s->plan.n);
	free(s->ordinal);
	free(s->subj);
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

/* Each phase's ordinal among those its side has with its key, and its labels as shown:
 * with the ordinal ("mark: step#2") when either side has its key more than once.  -1 on
 * ENOMEM. */
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
		int rc = repeated ? asprintf(&s->shown[i], "%s#%zu", s->labels[i], s->ordinal[i])
				  : asprintf(&s->shown[i], "%s", s->labels[i]);
		if (rc < 0) {
			s->shown[i] = NULL;
			return -1;
		}
	}
	return 0;
}

/* The pairing: match[i] is the phase of b paired with phase i of a (SIZE_MAX: none),
 * used[j] whether phase j of b is paired, by_hand[i] whether phase i of a was paired by
 * --pair-phases. */
struct pairing {
	size_t *match;
	bool *used, *by_hand;
};

/* --pair-phases first; then each phase of a with the one of b of the same key (what the
 * marks that open it are, compare_keys.h), a repeated key by its ordinal (the second
 * "step" of A with the second of B).  Never by position: an extra phase on one side would
 * shift every pair after it. */
static void pair_phases(const struct side *a, const struct side *b, const struct compare_args *o,
			struct pairing *pr)
{
	for (size_t i = 0; i < a->plan.n; i++)
		pr->match[i] = SIZE_MAX;
	for (size_t k = 0; k < o->nphase_pairs; k++) {
		size_t i = o->phase_pairs[k].a - 1, j = o->phase_pairs[k].b - 1;
		pr->match[i] = j;
		pr->used[j] = pr->by_hand[i] = true;
	}
	for (size_t i = 0; i < a->plan.n; i++)
		for (size_t j = 0; j < b->plan.n && pr->match[i] == SIZE_MAX; j++)
			if (!pr->used[j] && a->ordinal[i] == b->ordinal[j] &&
			    strcmp(a->keys[i], b->keys[j]) == 0)
				pr->used[pr->match[i] = j] = true;
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

static bool has_interval(const struct phase *p)
{
	return p->first <= p->last;
}

static const char *ordinal_suffix(size_t n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* The phase of o paired with phase j of o's side (SIZE_MAX: none); o_is_a: o is A. */
static size_t partner_of(const struct pairing *pr, size_t n_a, bool o_is_a, size_t j)
{
	if (o_is_a)
		return pr->match[j];
	for (size_t i = 0; i < n_a; i++)
		if (pr->match[i] == j)
			return i;
	return SIZE_MAX;
}

/* Why phase i of s has no partner in o (named other): the partner its key and ordinal
 * give is paired by hand with another; o has fewer phases of its key; in o its marks
 * had no interval of their own (the marks after them fell in the same one); else o has
 * no phase opened by the same marks. */
static void unpaired_why(const struct side *s, size_t i, const struct side *o, const char *which,
			 const char *other, const struct pairing *pr, size_t n_a, char *buf,
			 size_t len)
{
	const char *key = s->keys[i];
	for (size_t j = 0; j < o->plan.n; j++) {
		if (o->ordinal[j] != s->ordinal[i] || strcmp(o->keys[j], key) != 0)
			continue;
		size_t with = partner_of(pr, n_a, strcmp(other, "A") == 0, j);
		snprintf(buf, len, "%s's phase %zu, opened by the same marks, is paired by hand "
			 "(--pair-phases) with phase %zu of %s", other, j + 1, with + 1, which);
		return;
	}
	size_t count = key_count(o, key);
	if (count) {
		snprintf(buf, len, "%s has only %zu phase%s opened by the same marks, this is "
			 "%s's %zu%s", other, count, count == 1 ? "" : "s", which, s->ordinal[i],
			 ordinal_suffix(s->ordinal[i]));
		return;
	}
	size_t klen = strlen(key);
	for (size_t j = 0; klen && j < o->plan.n; j++) {
		for (const char *d = o->dropped[j]; *d; d = strchr(d, '\n') + 1) {
			if (strncmp(d, key, klen) != 0 || d[klen] != '\n')
				continue;
			snprintf(buf, len, "%s has no interval of it alone: there its mark and the "
				 "next fell within one interval, which opens phase %zu of %s", other,
				 j + 1, other);
			return;
		}
	}
	snprintf(buf, len, "%s has no phase opened by %s", other, key[0] ? "the same marks"
									   : "no mark");
}

/* A phase of one side that the other has no partner for, and why. */
static void unpaired_phase(FILE *out, const struct side *s, size_t i, const char *which,
			   const struct side *o, const char *other, const struct pairing *pr,
			   size_t n_a)
{
	char why[COMPARE_KEY_MAX + 320], head[64];
	size_t used = 0;
	if (!has_interval(&s->plan.phases[i]))
		used = (size_t)snprintf(why, sizeof why, "no interval of its own, nothing to "
					"compare; ");
	unpaired_why(s, i, o, which, other, pr, n_a, why + used, sizeof why - used);
	snprintf(head, sizeof head, "Phase %zu of %s: unpaired, ", i + 1, which);
	fputs("\n", out);
	report_print_wrapped(out, head, 2, why);
	phase_heading(out, s, &s->plan.phases[i], which, s->shown[i]);
}

static void compare_phase(FILE *out, struct side *a, struct side *b, const struct compare_args *o,
			  const struct pairing *pr, size_t i)
{
	size_t j = pr->match[i];
	if (j == SIZE_MAX) {
		unpaired_phase(out, a, i, "A", b, "B", pr, a->plan.n);
		return;
	}
	struct phase *pa = &a->plan.phases[i], *pb = &b->plan.phases[j];
	fprintf(out, "\nPhase %zu of A and phase %zu of B (%s)\n", i + 1, j + 1,
		pr->by_hand[i] ? "paired by hand: --pair-phases"
		: a->keys[i][0] ? "paired by their marks" : "paired: the first, opened by no mark");
	phase_heading(out, a, pa, "A", a->shown[i]);
	phase_heading(out, b, pb, "B", b->shown[j]);
	/* marks of other labels paired: what made them the same */
	if (!pr->by_hand[i] && strcmp(a->labels[i], b->labels[j]) != 0)
		report_print_wrapped(out, "  paired as ", 5, a->keys[i]);
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

/* How the phases were paired, and how many were not: a phase without an interval of
 * its own (its mark and the next fell within one, as a command's start and its first
 * mark often do) has nothing to compare, and is counted apart. */
static void pairing_line(FILE *out, const struct side *a, const struct side *b,
			 const struct pairing *pr)
{
	size_t pairs = 0, by_hand = 0, only_a = 0, only_b = 0, empty_a = 0, empty_b = 0;
	for (size_t i = 0; i < a->plan.n; i++) {
		pairs += pr->match[i] != SIZE_MAX;
		by_hand += pr->by_hand[i];
		if (pr->match[i] == SIZE_MAX)
			*(has_interval(&a->plan.phases[i]) ? &only_a : &empty_a) += 1;
	}
	for (size_t j = 0; j < b->plan.n; j++)
		if (!pr->used[j])
			*(has_interval(&b->plan.phases[j]) ? &only_b : &empty_b) += 1;
	char line[400], hand[64] = "", empty[128] = "";
	if (by_hand)
		snprintf(hand, sizeof hand, ": %zu by hand (--pair-phases), the others", by_hand);
	if (empty_a || empty_b)
		snprintf(empty, sizeof empty, " (and without an interval of their own, nothing to "
			 "compare: %zu of A, %zu of B)", empty_a, empty_b);
	snprintf(line, sizeof line, "%zu%s by the labels of the marks that open them (a label "
		 "repeated: by its ordinal, as step#2); unpaired: %zu of A, %zu of B%s", pairs, hand,
		 only_a, only_b, empty);
	report_print_wrapped(out, "  paired     ", 13, line);
}

static void compare_heading(FILE *out, const struct side *a, const struct side *b,
			    const struct compare_args *o, const struct pairing *pr)
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
	pairing_line(out, a, b, pr);
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
	struct pairing pr = {
		.match = calloc(a->plan.n + 1, sizeof *pr.match),
		.used = calloc(b->plan.n + 1, sizeof *pr.used),
		.by_hand = calloc(a->plan.n + 1, sizeof *pr.by_hand),
	};
	int rc = -1;
	if (!pr.match || !pr.used || !pr.by_hand || name_phases(a, b) < 0 || name_phases(b, a) < 0)
		goto out;
	pair_phases(a, b, o, &pr);
	compare_heading(out, a, b, o, &pr);
	for (size_t i = 0; i < a->plan.n; i++)
		if (only < 0 || (size_t)only == i + 1)
			compare_phase(out, a, b, o, &pr, i);
	for (size_t j = 0; only < 0 && j < b->plan.n; j++)
		if (!pr.used[j])
			unpaired_phase(out, b, j, "B", a, "A", &pr, a->plan.n);
	rc = 0;
out:
	free(pr.match);
	free(pr.used);
	free(pr.by_hand);
	return rc;
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
	status = side_build(a, min_phase, o, false, err);
	if (status == 0)
		status = side_build(b, min_phase, o, true, err);
	if (status == 0 && o->only > (long)a->plan.n)
		status = (error_set(err, "phase %ld: %s has %zu", o->only, a->rep.path, a->plan.n), 2);
	for (size_t k = 0; status == 0 && k < o->nphase_pairs; k++) {
		const struct compare_phase_pair *h = &o->phase_pairs[k];
		const struct side *s = h->a > a->plan.n ? a : h->b > b->plan.n ? b : NULL;
		if (s)
			status = (error_set(err, "--pair-phases %zu=%zu: %s has %zu phase%s", h->a,
					    h->b, s->rep.path, s->plan.n, s->plan.n == 1 ? "" : "s"), 2);
	}
	if (status == 0 && (compare(stdout, a, b, o) < 0 || fflush(stdout) != 0 || ferror(stdout)))
		status = (error_set(err, "standard output: write error"), 1);
	return status;
}

int compare_run(const struct compare_request *q)
{
	struct compare_args o = { .devices = q->devices, .only = q->only, .min_phase = q->min_phase,
				  .paired_by_hand = q->npairs > 0, .phase_pairs = q->phase_pairs,
				  .nphase_pairs = q->nphase_pairs };
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
