/* output_prom.c - the Prometheus / OpenMetrics exposition (include/prom.h, docs/fleet.md).
 *
 * Base units (seconds, bytes, ratios 0-1), counters ending in _total, no per-process
 * series.  Label values pass through the one escaping rule of text output (text.h:
 * no control byte, no invalid UTF-8, which would make Prometheus drop the whole
 * scrape), then the format's own escapes for backslash and double quote.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "grow.h"
#include "prom.h"
#include "prom_writer.h"
#include "rates.h"
#include "selection.h"
#include "text.h"
#include "why.h"

/* ---- the buffer ---- */

void prom_buf_init(struct prom_buf *b)
{
	memset(b, 0, sizeof *b);
}

void prom_buf_reset(struct prom_buf *b)
{
	b->len = 0;
	b->failed = false;
	if (b->buf)
		b->buf[0] = '\0';
}

void prom_buf_free(struct prom_buf *b)
{
	free(b->buf);
	prom_buf_init(b);
}

static bool reserve(struct prom_buf *b, size_t more)
{
	if (b->failed)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	if (grow_array(&b->buf, &b->cap, b->len + more + 1, 1, 4096, NULL) < 0) {
		b->failed = true;
		return false;
	}
	return true;
}

static void put(struct prom_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

static void puts_(struct prom_buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* A label value: escaped as text output is, then \ and " as the format wants. */
static void put_label_value(struct prom_buf *b, const char *value)
{
	char clean[2 * MOUNT_OPTS_MAX + 8];
	text_escape(value, clean, sizeof clean);
	for (const char *p = clean; *p; p++) {
		size_t n = strcspn(p, "\\\"");
		put(b, p, n);
		p += n;
		if (!*p)
			break;
		put(b, "\\", 1);
		put(b, p, 1);
	}
}

/* ---- one series per label value ---- */

struct alike {
	const char *label;     /* raw, then escaped */
	size_t i;
};

static int by_label_then_order(const void *a, const void *b)
{
	const struct alike *x = a, *y = b;
	int d = strcmp(x->label, y->label);
	return d ? d : (x->i > y->i) - (x->i < y->i);
}

bool *prom_last_alike(struct prom_ctx *c, size_t n,
		      const char *(*label)(const struct prom_ctx *c, size_t i))
{
	bool *last = calloc(n ? n : 1, sizeof *last);
	struct alike *a = malloc((n ? n : 1) * sizeof *a);
	size_t m = 0, total = 0;
	for (size_t i = 0; a && i < n; i++) {
		const char *l = label(c, i);
		if (l) {
			a[m++] = (struct alike){ l, i };
			total += strlen(l) + 1;
		}
	}
	char *text = malloc(total ? total : 1);   /* escaping never makes a text longer */
	if (!last || !a || !text) {
		free(last);
		free(a);
		free(text);
		c->b->failed = true;
		return NULL;
	}
	for (size_t k = 0, used = 0; k < m; k++) {
		size_t len = strlen(a[k].label) + 1;
		a[k].label = text_escape(a[k].label, text + used, len);
		used += len;
	}
	qsort(a, m, sizeof *a, by_label_then_order);
	for (size_t k = 0; k < m; k++)
		last[a[k].i] = k + 1 == m || strcmp(a[k].label, a[k + 1].label) != 0;
	free(a);
	free(text);
	return last;
}

/* ---- samples ---- */

void prom_format_value(double v, char *num, size_t len)
{
	if (isnan(v))
		snprintf(num, len, "NaN");
	else if (isinf(v))
		snprintf(num, len, v > 0 ? "+Inf" : "-Inf");
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		snprintf(num, len, "%.0f", v);
	else if (snprintf(num, len, "%.15g", v), strtod(num, NULL) != v)
		snprintf(num, len, "%.17g", v);   /* 15 digits when they say it exactly */
}

static void put_value(struct prom_buf *b, double v)
{
	char num[64];
	prom_format_value(v, num, sizeof num);
	puts_(b, num);
}

void prom_sample(struct prom_ctx *c, const char *suffix, const struct label *labels, size_t n,
		 double v)
{
	puts_(c->b, c->f->name);
	puts_(c->b, suffix);
	for (size_t i = 0; i < n; i++) {
		puts_(c->b, i ? "," : "{");
		puts_(c->b, labels[i].name);
		puts_(c->b, "=\"");
		put_label_value(c->b, labels[i].value);
		puts_(c->b, "\"");
	}
	if (n)
		puts_(c->b, "}");
	puts_(c->b, " ");
	put_value(c->b, v);
	puts_(c->b, "\n");
}

void prom_histogram(struct prom_ctx *c, const struct label *labels, size_t n,
		    const struct prom_hist *h, const double *bounds, size_t nbounds)
{
	struct label l[PROM_LABELS_MAX + 1];
	if (n > PROM_LABELS_MAX)
		n = PROM_LABELS_MAX;
	if (n)
		memcpy(l, labels, n * sizeof *l);
	char le[64];
	l[n] = (struct label){ "le", le };
	for (size_t i = 0; i <= nbounds; i++) {
		prom_format_value(i < nbounds ? bounds[i] : INFINITY, le, sizeof le);
		prom_sample(c, "_bucket", l, n + 1, (double)prom_hist_cumulative(h, i));
	}
	prom_sample(c, "_sum", l, n, h->sum);
	prom_sample(c, "_count", l, n, (double)h->count);
}

static void sample1(struct prom_ctx *c, const char *device, double v)
{
	prom_sample(c, "", &(struct label){ "device", device }, 1, v);
}

/* ---- the families' writers ---- */

static bool shown(const struct prom_ctx *c, size_t i)
{
	return c->v->shown[i];
}

/* The shown devices of the snapshot: the rates and the snapshot list the same
 * devices in the same order (rates.h), and shown[] indexes both. */
static const struct device *shown_device(const struct prom_ctx *c, size_t i)
{
	if (i >= c->v->snap->ndevices || !shown(c, i))
		return NULL;
	return &c->v->snap->devices[i];
}

static void emit_build_info(struct prom_ctx *c)
{
	prom_sample(c, "", &(struct label){ "version", IOSCOPE_VERSION }, 1, 1);
}

static void emit_sample_time(struct prom_ctx *c)
{
	prom_sample(c, "", NULL, 0, timespec_seconds(&c->v->snap->wall));
}

static void emit_interval(struct prom_ctx *c)
{
	if (rates_have_interval(c->v->rates))
		prom_sample(c, "", NULL, 0, c->v->rates->interval);
}

/* "none [mq-deadline] kyber bfq": one series per scheduler, 1 for the active one. */
static void emit_scheduler(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->v->snap->ndevices; i++) {
		const struct device *d = shown_device(c, i);
		if (!d || !d->settings.has_settings)
			continue;
		char line[SCHED_LINE_MAX];
		snprintf(line, sizeof line, "%s", d->settings.scheduler_line);
		bool any = false;
		for (char *save, *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			bool active = t[0] == '[';
			if (active) {
				t++;
				t[strcspn(t, "]")] = '\0';
			}
			struct label l[] = { { "device", d->name }, { "scheduler", t } };
			prom_sample(c, "", l, 2, active);
			any = true;
		}
		if (!any && d->settings.scheduler[0]) {
			struct label l[] = { { "device", d->name }, { "scheduler", d->settings.scheduler } };
			prom_sample(c, "", l, 2, 1);
		}
	}
}

/* A setting's value when it is a number ("write back", "[none]" are not). */
static bool setting_number(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* The settings of the shown disks, one family says which (`which`): SETTINGS_NUMBERS, the
 * value of ioscope_disk_queue_setting; SETTINGS_WORDS, the others but write_cache (its own
 * family) as the label of an info ("write back", a loop device's backing file). */
enum { SETTINGS_NUMBERS, SETTINGS_WORDS };

static void emit_settings(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->v->snap->ndevices; i++) {
		const struct device *d = shown_device(c, i);
		for (size_t k = 0; d && k < d->settings.nitems; k++) {
			const struct setting *s = &d->settings.items[k];
			double v;
			bool number = setting_number(s->value, &v);
			if (number != (c->f->which == SETTINGS_NUMBERS) ||
			    (!number && strcmp(s->key, "write_cache") == 0))
				continue;
			struct label l[] = { { "device", d->name }, { "name", s->key },
					     { "value", s->value } };
			prom_sample(c, "", l, number ? 2 : 3, number ? v : 1);
		}
	}
}

static void emit_write_cache(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->v->snap->ndevices; i++) {
		const struct device *d = shown_device(c, i);
		const char *mode = d ? device_setting(d, "write_cache") : NULL;
		if (!mode)
			continue;
		struct label l[] = { { "device", d->name }, { "mode", mode } };
		prom_sample(c, "", l, 2, 1);
	}
}

static void emit_rotational(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->v->snap->ndevices; i++) {
		const struct device *d = shown_device(c, i);
		if (d && d->settings.has_settings && d->settings.rotational >= 0)
			sample1(c, d->name, d->settings.rotational);
	}
}

/* The whole disk a device name stands for (a partition's parent). */
static const char *whole_disk(const struct snapshot *s, const char *name)
{
	const struct device *d = snapshot_find_device(s, name);
	return d && d->is_partition && d->parent[0] ? d->parent : name;
}

bool prom_disk_shown(const struct prom_ctx *c, const char *name)
{
	const struct snapshot *s = c->v->snap;
	const char *disk = whole_disk(s, name);
	for (size_t i = 0; i < s->ndevices; i++)
		if (shown(c, i) && (strcmp(s->devices[i].name, disk) == 0 ||
				    strcmp(s->devices[i].name, name) == 0))
			return true;
	return false;
}

/* The options in force: the mount's, then the superblock's that it does not repeat. */
static void mount_options(const struct mount *m, char *out, size_t len)
{
	size_t used = text_appendf(out, len, 0, "%s", m->mount_opts);
	char super[MOUNT_OPTS_MAX];
	snprintf(super, sizeof super, "%s", m->super_opts);
	for (char *save, *t = strtok_r(super, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t n = strlen(t);
		const char *p = m->mount_opts;
		bool dup = false;
		while (!dup && (p = strstr(p, t)) != NULL) {
			dup = (p == m->mount_opts || p[-1] == ',') && (p[n] == ',' || !p[n]);
			p += n;
		}
		if (!dup)
			used = text_appendf(out, len, used, "%s%s", used ? "," : "", t);
	}
}

static const char *shown_mountpoint(const struct prom_ctx *c, size_t i)
{
	const struct mount *m = &c->v->snap->mounts[i];
	return m->disk[0] && prom_disk_shown(c, m->disk) ? m->mountpoint : NULL;
}

/* One series per mount point: the visible mount of a stack (`mount --bind d d`) is the
 * last of them in mountinfo, and two names that escape alike are one label value. */
static void emit_mounts(struct prom_ctx *c)
{
	const struct snapshot *s = c->v->snap;
	bool *visible = prom_last_alike(c, s->nmounts, shown_mountpoint);
	for (size_t i = 0; visible && i < s->nmounts; i++) {
		const struct mount *m = &s->mounts[i];
		if (!visible[i])
			continue;
		char opts[2 * MOUNT_OPTS_MAX];
		mount_options(m, opts, sizeof opts);
		struct label l[] = { { "mountpoint", m->mountpoint }, { "device", m->disk },
				     { "fstype", m->fstype }, { "options", opts } };
		prom_sample(c, "", l, 4, 1);
	}
	free(visible);
}

/* Marks and the clock concern no device: they are counted without a device label. */
static bool kind_is_system(int kind)
{
	return kind == EVENT_USER_MARK || kind == EVENT_CLOCK_BACK || kind == EVENT_TRACE;
}

/* A dip is no setting change: it has families of its own (ioscope_dips_total). */
static bool kind_is_change(int kind)
{
	return kind != EVENT_DIP;
}

static const char *const by_names[PROM_BY_COUNT] = { "observed", "ioscope" };

static void emit_changes(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->x->nchanges; i++) {
		const struct prom_changes *ch = &c->x->changes[i];
		bool system = !ch->device[0];
		for (int k = 0; k < EVENT_KIND_COUNT; k++) {
			if (kind_is_system(k) != system || !kind_is_change(k))
				continue;
			for (int by = 0; by < PROM_BY_COUNT; by++) {
				struct label l[] = { { "device", ch->device }, { "kind", event_kind_name(k) },
						     { "by", by_names[by] } };
				prom_sample(c, "", system ? l + 1 : l, system ? 2 : 3, (double)ch->count[k][by]);
			}
		}
	}
}

static void emit_last_change(struct prom_ctx *c)
{
	for (size_t i = 0; i < c->x->nchanges; i++) {
		const struct prom_changes *ch = &c->x->changes[i];
		for (int k = 0; k < EVENT_KIND_COUNT; k++) {
			if ((!ch->last[k].tv_sec && !ch->last[k].tv_nsec) || !kind_is_change(k))
				continue;
			struct label l[] = { { "device", ch->device }, { "kind", event_kind_name(k) } };
			bool system = !ch->device[0];
			prom_sample(c, "", system ? l + 1 : l, system ? 1 : 2, timespec_seconds(&ch->last[k]));
		}
	}
}

/* A figure of the device figure table (include/figures.h) for every shown device that
 * has it this interval (batch JSON: not null), in base units. */
static void emit_figure(struct prom_ctx *c)
{
	const struct device_figure *fig = c->f->figure;
	const struct rates *r = c->v->rates;
	for (size_t i = 0; i < r->ndevices; i++) {
		const struct device_rates *d = &r->devices[i];
		if (shown(c, i) && !device_figure_missing(d, fig))
			sample1(c, d->name, device_figure_value(d, fig) * c->f->scale);
	}
}

/* ---- the table ---- */

#define KB 1024.0
#define MS 0.001
#define PCT 0.01
#define WHY_GAUGE(name, field, help) \
	{ "ioscope_" name, PROM_GAUGE, help, prom_emit_dirty_gauge, NULL, KB, offsetof(struct why_rates, field) }
#define JOURNAL_COUNTER(name, row, help) \
	{ "ioscope_journal_" name, PROM_COUNTER, help, prom_emit_journal_counter, NULL, 1, row }
#define JOURNAL_GAUGE(name, figure, scale, help) \
	{ "ioscope_journal_" name, PROM_GAUGE, help, prom_emit_journal_gauge, NULL, scale, figure }

const struct prom_family prom_families[] = {
	{ "ioscope_build_info", PROM_INFO, "ioscope's version", emit_build_info, NULL, 0, 0 },
	{ "ioscope_sample_timestamp_seconds", PROM_GAUGE,
	  "Wall-clock time of the latest sample, seconds since the epoch", emit_sample_time, NULL, 0, 0 },
	{ "ioscope_interval_seconds", PROM_GAUGE,
	  "Measured time between the latest two samples", emit_interval, NULL, 0, 0 },
	{ "ioscope_disk_scheduler_info", PROM_GAUGE,
	  "I/O schedulers a disk offers, 1 for the active one", emit_scheduler, NULL, 0, 0 },
	{ "ioscope_disk_queue_setting", PROM_GAUGE,
	  "Numeric settings of a disk as sysfs gives them: queue and iosched tunables, bdi limits, "
	  "a loop device's", emit_settings, NULL, 0, SETTINGS_NUMBERS },
	{ "ioscope_disk_setting_info", PROM_INFO,
	  "Settings of a disk that are no number (a loop device's backing file)",
	  emit_settings, NULL, 0, SETTINGS_WORDS },
	{ "ioscope_disk_write_cache_info", PROM_INFO, "The disk's write cache mode",
	  emit_write_cache, NULL, 0, 0 },
	{ "ioscope_disk_rotational", PROM_GAUGE, "1 for a rotational disk, 0 otherwise",
	  emit_rotational, NULL, 0, 0 },
	{ "ioscope_mount_info", PROM_INFO,
	  "A filesystem mounted from a watched disk and the options in force", emit_mounts, NULL, 0, 0 },
	{ "ioscope_setting_changes_total", PROM_COUNTER,
	  "Changes seen, by device, event kind and who made them (observed or ioscope)",
	  emit_changes, NULL, 0, 0 },
	{ "ioscope_last_change_timestamp_seconds", PROM_GAUGE,
	  "When the latest change of a kind was seen, seconds since the epoch", emit_last_change, NULL, 0, 0 },
	{ "ioscope_dips_total", PROM_COUNTER,
	  "Throughput dips seen (below half the median of the 10 s before, with work left)",
	  prom_emit_dips, NULL, 0, 0 },
	{ "ioscope_last_dip_timestamp_seconds", PROM_GAUGE,
	  "When the latest dip of a device was seen, seconds since the epoch", prom_emit_last_dip, NULL, 0, 0 },
	WHY_GAUGE("dirty_bytes", dirty_kb, "Dirty page cache (nr_dirty)"),
	WHY_GAUGE("dirty_writeback_bytes", writeback_kb, "Page cache under writeback (nr_writeback)"),
	WHY_GAUGE("dirty_threshold_bytes", threshold_kb,
		  "Dirty limit: writers are throttled hard above it (nr_dirty_threshold)"),
	WHY_GAUGE("dirty_background_threshold_bytes", background_kb,
		  "Background writeback starts above it (nr_dirty_background_threshold)"),
	WHY_GAUGE("dirty_freerun_bytes", freerun_kb,
		  "Dirty plus writeback below this: writers are never throttled (dirty_freerun_ceiling)"),
	{ "ioscope_dirtied_bytes_total", PROM_COUNTER, "Bytes of page cache dirtied (nr_dirtied)",
	  prom_emit_dirty_counter, NULL, 0, WD_NR_DIRTIED },
	{ "ioscope_dirty_written_bytes_total", PROM_COUNTER,
	  "Bytes of dirty page cache written back (nr_written)", prom_emit_dirty_counter, NULL, 0,
	  WD_NR_WRITTEN },
	JOURNAL_COUNTER("commits_total", 0, "Journal commits (ext4 jbd2 transactions, btrfs commits)"),
	JOURNAL_GAUGE("commit_seconds", JF_COMMIT_MS, MS,
		      "Mean time of the interval's journal commits (ext4 jbd2, btrfs)"),
	JOURNAL_COUNTER("log_writes_total", 1, "xfs log writes"),
	JOURNAL_COUNTER("log_forces_total", 2, "xfs log forces"),
	JOURNAL_COUNTER("log_force_sleeps_total", 3, "xfs log forces that had to sleep"),
	JOURNAL_COUNTER("logspace_sleeps_total", 4, "xfs waits for log space"),
	JOURNAL_COUNTER("push_ail_total", 5, "xfs AIL pushes (the log tail moved on)"),
	JOURNAL_GAUGE("log_used_ratio", JF_LOG_USED_PCT, PCT, "Share of the xfs log in use, 0-1"),
	{ "ioscope_tasks_blocked", PROM_GAUGE,
	  "Tasks in D state by wait channel (--tasks): the 20 largest groups, the rest as other",
	  prom_emit_tasks_blocked, NULL, 0, 0 },
	{ "ioscope_disk_tasks_blocked", PROM_GAUGE,
	  "Tasks in D state attributed to the disk (--tasks): waiting on its files or for it",
	  prom_emit_disk_tasks_blocked, NULL, 0, 0 },
	{ "ioscope_probe_read_latency_seconds", PROM_HISTOGRAM,
	  "The probe's 4 KiB reads that reach the device (--probe), since start",
	  prom_emit_probe_read, NULL, 0, 0 },
	{ "ioscope_probe_exec_latency_seconds", PROM_HISTOGRAM,
	  "The probe's cold program starts (--probe-exec), since start", prom_emit_probe_exec, NULL, 0, 0 },
	{ "ioscope_probe_errors_total", PROM_COUNTER, "Probe reads or starts that failed",
	  prom_emit_probe_errors, NULL, 0, 0 },
	{ "ioscope_probe_stalled_seconds", PROM_GAUGE,
	  "How long a probe read still waiting at the sample has waited (0: none)",
	  prom_emit_probe_stalled, NULL, 0, 0 },
	{ "ioscope_disk_d2c_latency_seconds", PROM_HISTOGRAM,
	  "Block requests from issue to completion (--trace, D2C), since start",
	  prom_emit_trace_d2c, NULL, 0, 0 },
	{ "ioscope_disk_q2c_latency_seconds", PROM_HISTOGRAM,
	  "Block requests from queueing to completion (--trace, Q2C), since start",
	  prom_emit_trace_q2c, NULL, 0, 0 },
};
const size_t prom_families_count = sizeof prom_families / sizeof prom_families[0];

/* The per-device figures' families follow the table's: one gauge a row of the figure
 * table that names one (after every family above, in the table's order). */
bool prom_figure_family(const struct device_figure *fig, struct prom_family *out)
{
	if (!fig->prom_name)
		return false;
	*out = (struct prom_family){ .name = fig->prom_name, .type = PROM_GAUGE,
				     .help = fig->prom_help, .emit = emit_figure, .figure = fig,
				     .scale = device_figure_base_scale(fig) };
	return true;
}

/* ---- the exposition ---- */

static const char *type_name(enum prom_type t, enum prom_format f)
{
	switch (t) {
	case PROM_COUNTER: return "counter";
	case PROM_HISTOGRAM: return "histogram";
	case PROM_INFO: return f == PROM_OPENMETRICS ? "info" : "gauge";
	case PROM_GAUGE: break;
	}
	return "gauge";
}

/* OpenMetrics names a counter's family without _total and an info's without _info;
 * the text format names the samples' series. */
static void family_name(const struct prom_family *fam, enum prom_format f, char *out, size_t len)
{
	size_t n = strlen(fam->name);
	const char *suffix = fam->type == PROM_COUNTER ? "_total" : fam->type == PROM_INFO ? "_info" : "";
	size_t sn = strlen(suffix);
	if (f == PROM_OPENMETRICS && sn && n > sn && strcmp(fam->name + n - sn, suffix) == 0)
		n -= sn;
	snprintf(out, len, "%.*s", (int)n, fam->name);
}

static void family(struct prom_ctx *c)
{
	char name[128];
	family_name(c->f, c->format, name, sizeof name);
	puts_(c->b, "# HELP ");
	puts_(c->b, name);
	puts_(c->b, " ");
	puts_(c->b, c->f->help);
	puts_(c->b, "\n# TYPE ");
	puts_(c->b, name);
	puts_(c->b, " ");
	puts_(c->b, type_name(c->f->type, c->format));
	puts_(c->b, "\n");
	c->f->emit(c);
}

int prom_render(const struct prom_exporter *x, const struct interval_view *v, enum prom_format f,
		struct prom_buf *b)
{
	prom_buf_reset(b);
	struct prom_ctx c = { .b = b, .x = x, .v = v, .format = f };
	for (size_t i = 0; i < prom_families_count; i++) {
		c.f = &prom_families[i];
		family(&c);
	}
	for (size_t i = 0; x->iostat && i < device_figures_count; i++) {
		struct prom_family fam;
		if (!prom_figure_family(&device_figures[i], &fam))
			continue;
		c.f = &fam;
		family(&c);
	}
	if (f == PROM_OPENMETRICS)
		puts_(b, "# EOF\n");
	return b->failed ? -1 : 0;
}

/* ---- the exporter's state: change counters ---- */

void prom_exporter_init(struct prom_exporter *x, bool iostat)
{
	memset(x, 0, sizeof *x);
	x->iostat = iostat;
}

void prom_exporter_free(struct prom_exporter *x)
{
	free(x->changes);
	prom_latency_free(x);
	prom_exporter_init(x, false);
}

/* The counters of device ("" for the system), created at 0; NULL on ENOMEM or past
 * PROM_DEVICES_MAX. */
static struct prom_changes *changes_of(struct prom_exporter *x, const char *device)
{
	for (size_t i = 0; i < x->nchanges; i++)
		if (strcmp(x->changes[i].device, device) == 0)
			return &x->changes[i];
	if (x->nchanges == PROM_DEVICES_MAX)
		return NULL;
	if (grow_array(&x->changes, &x->cap, x->nchanges + 1, sizeof *x->changes, 16, NULL) < 0)
		return NULL;
	struct prom_changes *ch = &x->changes[x->nchanges++];
	memset(ch, 0, sizeof *ch);
	snprintf(ch->device, sizeof ch->device, "%s", device);
	return ch;
}

static int count_event(struct prom_exporter *x, const struct event *ev, const struct snapshot *at,
		       const struct snapshot *before)
{
	char dev[DEV_NAME_MAX] = "";
	if (!kind_is_system(ev->kind)) {
		selection_event_device(at, before, ev, dev, sizeof dev);
		if (!dev[0])
			return 0;
		const struct snapshot *where = snapshot_find_device(at, dev) ? at : before;
		const char *disk = where ? whole_disk(where, dev) : dev;
		if (disk != dev)
			snprintf(dev, sizeof dev, "%s", disk);
	}
	if ((unsigned)ev->kind >= EVENT_KIND_COUNT)
		return 0;
	struct prom_changes *ch = changes_of(x, dev);
	if (!ch)
		return x->nchanges == PROM_DEVICES_MAX ? 0 : -1;
	ch->count[ev->kind][strcmp(ev->by, "ioscope") == 0 ? PROM_BY_IOSCOPE : PROM_BY_OBSERVED]++;
	ch->last[ev->kind] = ev->wall;
	return 0;
}

int prom_exporter_update(struct prom_exporter *x, const struct interval_view *v,
			 const struct snapshot *prev)
{
	if (!changes_of(x, "") && x->nchanges < PROM_DEVICES_MAX)
		return -1;
	for (size_t i = 0; i < v->snap->ndevices; i++)
		if (v->shown[i] && !changes_of(x, v->snap->devices[i].name) &&
		    x->nchanges < PROM_DEVICES_MAX)
			return -1;
	for (size_t i = 0; v->events && i < v->events->count; i++)
		if (count_event(x, &v->events->items[i], v->snap, prev) < 0)
			return -1;
	return prom_latency_update(x, v);
}

/* ---- content negotiation ---- */

/* One media range of an Accept header: its type, whether it names OpenMetrics 1.0.0
 * (or any version), and its q (1 when absent). */
static double range_q(const char *range, size_t n, const char *type, bool *version_ok)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), range);
	double q = 1;
	bool matched = false;
	*version_ok = true;
	char *save;
	for (char *p = strtok_r(buf, ";", &save); p; p = strtok_r(NULL, ";", &save)) {
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t");
		if (!matched) {
			matched = len == strlen(type) && strncasecmp(p, type, len) == 0;
			if (!matched)
				return -1;
		} else if (strncasecmp(p, "q=", 2) == 0) {
			q = strtod(p + 2, NULL);
		} else if (strncasecmp(p, "version=", 8) == 0) {
			*version_ok = strncmp(p + 8, "1.0.0", 5) == 0 && strcspn(p + 8, " \t") == 5;
		}
	}
	return matched ? q : -1;
}

enum prom_format prom_negotiate(const char *accept)
{
	double om = -1, text = -1;
	for (const char *p = accept; p && *p;) {
		size_t n = strcspn(p, ",");
		bool version_ok;
		double q = range_q(p, n, "application/openmetrics-text", &version_ok);
		if (q > om && version_ok)
			om = q;
		q = range_q(p, n, "text/plain", &version_ok);
		if (q > text)
			text = q;
		q = range_q(p, n, "*/*", &version_ok);
		if (q > text)
			text = q;
		p += n + (p[n] == ',');
	}
	return om > 0 && om >= text ? PROM_OPENMETRICS : PROM_TEXT;
}
