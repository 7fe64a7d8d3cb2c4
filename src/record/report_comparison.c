/* report_comparison.c - the table people used to type by hand at the end of a text
 * report: one row per distinct setting state of a reported device (its scheduler
 * and what else differs between its phases: tunables, write cache, the options of
 * its filesystems), with the time spent in it, MiB moved, MiB/s over the phases' active
 * spans (first to last interval with I/O: no threshold), MiB/s over busy seconds and the
 * 95th percentile of await.  Short phases are left out (docs/reports.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_phases.h"
#include "text.h"

#define LABEL_COLUMN 30
#define LABEL_MAX 1024

/* The value of key in a "k=v\n" state, copied; false when absent. */
static bool state_value(const char *state, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	for (const char *line = state; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t n = eol ? (size_t)(eol - line) : strlen(line);
		if (n > klen && strncmp(line, key, klen) == 0 && line[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - klen - 1), line + klen + 1);
			return true;
		}
		line = eol ? eol + 1 : NULL;
	}
	buf[0] = '\0';
	return false;
}

/* Whether key has the same value in every compared phase. */
static bool key_steady(const char *const *states, size_t n, const char *key)
{
	char a[LABEL_MAX], b[LABEL_MAX];
	bool had = state_value(states[0], key, a, sizeof a);
	for (size_t i = 1; i < n; i++)
		if (state_value(states[i], key, b, sizeof b) != had || strcmp(a, b) != 0)
			return false;
	return true;
}

/* Is option word (len bytes) in the comma list? */
static bool has_option(const char *list, const char *word, size_t len)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && strncmp(p, word, len) == 0)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/* A filesystem's options in this phase that are not in every compared phase
 * (", /mnt nobarrier"); nothing when it has none of its own. */
static void mount_difference(const char *const *states, size_t n, size_t k, const char *key,
			     FILE *f)
{
	char mine[LABEL_MAX], other[LABEL_MAX];
	state_value(states[k], key, mine, sizeof mine);
	bool any = false;
	for (const char *p = mine; *p;) {
		size_t len = strcspn(p, ",");
		bool everywhere = true;
		for (size_t i = 0; i < n && everywhere; i++)
			everywhere = state_value(states[i], key, other, sizeof other) &&
				     has_option(other, p, len);
		if (!everywhere && len) {
			if (!any)
				fprintf(f, ", %s ", key);
			fprintf(f, "%s%.*s", any ? "," : "", (int)len, p);
			any = true;
		}
		p += len + (p[len] == ',');
	}
}

/* "sched bfq, nr_requests 64, /mnt nobarrier" for compared phase k. */
static char *state_label(const char *const *states, size_t n, size_t k)
{
	char *text = NULL, value[LABEL_MAX];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	state_value(states[k], "sched", value, sizeof value);
	fprintf(f, "sched %s", value[0] ? value : "-");
	/* every key of any compared phase, in the order of the first that has it */
	for (size_t i = 0; i < n; i++)
		for (const char *line = states[i]; *line;) {
			size_t klen = strcspn(line, "=\n");
			char key[LABEL_MAX];
			snprintf(key, sizeof key, "%.*s", (int)klen, line);
			line += strcspn(line, "\n");
			line += *line == '\n';
			bool seen_before = false;
			for (size_t j = 0; j < i && !seen_before; j++)
				seen_before = state_value(states[j], key, value, sizeof value);
			if (seen_before || strcmp(key, "sched") == 0 || key_steady(states, n, key))
				continue;
			if (key[0] == '/') {
				mount_difference(states, n, k, key, f);
			} else if (state_value(states[k], key, value, sizeof value)) {
				fprintf(f, ", %s %s", key, value);
			} else {
				fprintf(f, ", %s -", key);
			}
		}
	fclose(f);
	return text;
}

struct state_row {
	char *label;
	size_t phases;
	double dt, busy_dt, busy_kb, kb, active_dt;
	double *awaits;
	size_t nawaits;
};

static int row_add(struct state_row *r, const struct phase_device *s)
{
	double *a = realloc(r->awaits, (r->nawaits + s->nawaits + 1) * sizeof *a);
	if (!a)
		return -1;
	r->awaits = a;
	if (s->nawaits)   /* an idle phase has none, and no array */
		memcpy(r->awaits + r->nawaits, s->awaits, s->nawaits * sizeof *a);
	r->nawaits += s->nawaits;
	r->phases++;
	r->dt += s->dt;
	r->busy_dt += s->busy_dt;
	r->busy_kb += s->busy_rkb + s->busy_wkb;
	r->kb += s->rkb + s->wkb;
	r->active_dt += s->active_dt;
	return 0;
}

static void print_row(struct state_row *r, FILE *out)
{
	char when[32];
	report_duration(r->dt, when, sizeof when);
	if (strlen(r->label) > LABEL_COLUMN) {
		report_print_wrapped(out, "  ", 4, r->label);
		fprintf(out, "  %-*s", LABEL_COLUMN, "");
	} else {
		text_printf(out, "  %-*s", LABEL_COLUMN, r->label);
	}
	fprintf(out, " %6zu %6s %8.*f", r->phases, when, r->kb < 1e9 ? 1 : 0, r->kb / 1024);
	if (r->active_dt > 0)
		fprintf(out, " %7.1f", r->kb / 1024 / r->active_dt);
	else
		fprintf(out, " %7s", "-");
	if (r->busy_dt > 0)
		fprintf(out, " %7.1f", r->busy_kb / 1024 / r->busy_dt);
	else
		fprintf(out, " %7s", "-");
	if (r->nawaits)
		fprintf(out, " %7.2f\n", report_percentile(r->awaits, r->nawaits, 95));
	else
		fprintf(out, " %7s\n", "-");
}

/* The compared phases of device k: long enough, with figures and a state. */
static size_t compared(const struct phase_plan *plan, size_t k, const char **states, size_t *which)
{
	size_t n = 0;
	for (size_t i = 0; i < plan->n; i++) {
		const struct phase *p = &plan->phases[i];
		if (p->is_short || p->dev[k].dt <= 0 || !p->dev[k].state)
			continue;
		states[n] = p->dev[k].state;
		which[n++] = i;
	}
	return n;
}

static void device_comparison(const struct report *rep, const struct phase_plan *plan, size_t k,
			      FILE *out)
{
	const char **states = calloc(plan->n + 1, sizeof *states);
	size_t *which = calloc(plan->n + 1, sizeof *which);
	struct state_row *rows = calloc(plan->n + 1, sizeof *rows);
	size_t nrows = 0, n = states && which && rows ? compared(plan, k, states, which) : 0;
	text_printf(out, "\nComparison of %s (one row per setting state; short phases left out)\n",
		    rep->devices[k]);
	fprintf(out, "  %-*s %6s %6s %8s %7s %7s %7s\n", LABEL_COLUMN, "", "", "", "", "MiB/s",
		"MiB/s", "await");
	fprintf(out, "  %-*s %6s %6s %8s %7s %7s %7s\n", LABEL_COLUMN, "setting state", "phases",
		"time", "MiB", "active", "busy", "p95 ms");
	for (size_t i = 0; i < n; i++) {
		char *label = state_label(states, n, i);
		if (!label)
			break;
		size_t r = 0;
		while (r < nrows && strcmp(rows[r].label, label) != 0)
			r++;
		if (r == nrows)
			rows[nrows++].label = label;
		else
			free(label);
		if (row_add(&rows[r], &plan->phases[which[i]].dev[k]) < 0)
			break;
	}
	if (!n)
		fprintf(out, "  (no phase long enough to compare)\n");
	for (size_t r = 0; r < nrows; r++) {
		print_row(&rows[r], out);
		free(rows[r].label);
		free(rows[r].awaits);
	}
	free(rows);
	free(which);
	free(states);
}

char *report_state_difference(const char *a, const char *b)
{
	char *text = NULL, key[LABEL_MAX], mine[LABEL_MAX], other[LABEL_MAX];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	bool any = false;
	/* a's keys that b lacks or has otherwise, then the keys only b has */
	for (int side = 0; side < 2; side++) {
		const char *from = side ? b : a, *to = side ? a : b;
		for (const char *line = from; *line;) {
			snprintf(key, sizeof key, "%.*s", (int)strcspn(line, "=\n"), line);
			line += strcspn(line, "\n");
			line += *line == '\n';
			state_value(from, key, mine, sizeof mine);
			bool there = state_value(to, key, other, sizeof other);
			if ((side == 1 && there) || (there && strcmp(mine, other) == 0))
				continue;
			fprintf(f, "%s%s %s→%s", any ? ", " : "", key, side ? "-" : mine,
				side ? mine : there ? other : "-");
			any = true;
		}
	}
	fclose(f);
	return text;
}

void report_comparison(const struct report *rep, const struct phase_plan *plan, FILE *out)
{
	for (size_t k = 0; k < rep->ndevices; k++)
		device_comparison(rep, plan, k, out);
}
