/* output_text.c - iostat -x and vmstat style text, 80 columns wide.
 *
 * iostat -x's 23 columns do not fit 80 columns side by side, so each device gets
 * one row per operation (r, w, d, f) holding that operation's six figures under
 * shared headings; aqu-sz, %util, in-flight and the scheduler sit at the right.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "numfmt.h"
#include "output.h"
#include "output_tasks.h"
#include "probe.h"
#include "text.h"

void format_local_time(const struct timespec *wall, char *buf, size_t len, bool with_date)
{
	struct tm tm;
	time_t t = wall->tv_sec;
	localtime_r(&t, &tm);
	strftime(buf, len, with_date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm);
}

/* A switch's resets under its one line, indented, one a line ("-": absent). */
static void print_resets(FILE *out, const struct event *ev)
{
	if (event_label_has_resets(ev))
		return;   /* "attached FILE (dio 0, ro 0, 64 MiB)" */
	for (size_t i = 0; i < ev->nresets; i++) {
		const struct event_reset *r = &ev->resets[i];
		text_printf(out, "     reset %s %s→%s\n", r->key, r->had_old ? r->old_value : "-",
			r->has_new ? r->new_value : "-");
	}
	if (ev->resets_dropped)
		fprintf(out, "     reset ... %zu more\n", ev->resets_dropped);
}

/* Columns of an event's line: people read it beside 80-column tables, and a mount
 * point, a mark's text or a dip's reasons may be long. */
#define EVENT_LINE_COLS 99

static size_t columns(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s (len bytes) cut to at most cols characters, the last "…" when something was cut. */
static void cut_to_columns(char *s, size_t len, size_t cols)
{
	size_t n = 0;
	char *at = s;
	for (char *p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) == 0x80)
			continue;
		if (++n == cols)
			at = p;
		if (n > cols && (size_t)(at - s) + sizeof "…" <= len) {
			memcpy(at, "…", sizeof "…");
			return;
		}
	}
}

/* s (len bytes) kept to its last cols - 1 characters after a "…" when longer: a mount
 * point's end names it best. */
static void keep_tail(char *s, size_t len, size_t cols)
{
	size_t n = columns(s);
	if (n <= cols || cols < 2 || len < sizeof "…")
		return;
	char *p = s;
	for (size_t skip = n - (cols - 1); skip > 0 || ((unsigned char)*p & 0xc0) == 0x80; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			skip--;
	memmove(s + strlen("…"), p, strlen(p) + 1);
	memcpy(s, "…", strlen("…"));
}

/* "---- 13:41:31 loop0 sched bfq→mq-deadline: ok ----": what changed and what came of
 * it; the resets of a switch are the lines under it.  A line too wide gives up the start
 * of a long object's name first, then the end of what it says. */
static void print_events(FILE *out, const struct event_list *events)
{
	char when[32], label[MOUNT_OPTS_MAX + 64], verdict[EVENT_RESULT_MAX];
	char what[MOUNT_OPTS_MAX + EVENT_RESULT_MAX + 16], object[EVENT_OBJECT_MAX + 8];
	char line[sizeof what + sizeof object + 64], shown[sizeof line];
	const size_t cols = EVENT_LINE_COLS - strlen("----  ----");
	for (size_t i = 0; events && i < events->count; i++) {
		const struct event *ev = &events->items[i];
		format_local_time(&ev->wall, when, sizeof when, false);
		event_label(ev, label, sizeof label);
		event_verdict(ev, verdict, sizeof verdict);
		snprintf(line, sizeof line, "%s%s%s", label, verdict[0] ? ": " : "", verdict);
		text_escape(line, what, sizeof what);
		text_escape(ev->object, object, sizeof object - strlen("…"));
		size_t used = strlen(when) + 2 + columns(what);
		size_t room = cols > used ? cols - used : 0;
		keep_tail(object, sizeof object, room > 16 ? room : 16);
		snprintf(shown, sizeof shown, "%s %s %s", when, object, what);
		cut_to_columns(shown, sizeof shown, cols);
		fprintf(out, "---- %s ----\n", shown);
		print_resets(out, ev);
	}
}

/* The widths of the figures after "Device op": /s kB/s rqm/s %rqm await areq-sz, then
 * aqu-sz and %util (the w row: in-flight and the scheduler under them). */
#define NAME_W 8
static const int op_widths[6] = { 8, 9, 7, 6, 7, 7 };
#define AQU_W 6
#define UTIL_W 6

/* A figure right-aligned in its column: iostat's two decimals when they fit, then fewer,
 * then k/M/G, so that a wide value (10000 w/s) never pushes the columns after it.
 * NaN (a figure this kernel does not give) is "-". */
static void put_num(FILE *out, double v, int width)
{
	char buf[32];
	numfmt_fit(v, width, buf, sizeof buf);
	fprintf(out, " %*s", width, buf);
}

/* Never an empty column: "-" for a disk without a scheduler (bio-based: zram,
 * dm; a partition; a fixture without sys/). */
static const char *scheduler_or_dash(const struct device_rates *r)
{
	return r->scheduler[0] ? r->scheduler : "-";
}

static const char *no_figures_reason(const struct device_rates *r)
{
	switch (r->why) {
	case COUNTERS_NEW:
		return "new";
	case COUNTERS_WENT_BACK:
	case COUNTERS_RECREATED:
		return counters_break_reason(r->why);
	default:
		return "no interval";
	}
}

/* A gauge (in flight): a whole number while it fits. */
static void put_count(FILE *out, uint64_t n, int width)
{
	char buf[32];
	if (snprintf(buf, sizeof buf, "%llu", (unsigned long long)n) > width)
		numfmt_fit((double)n, width, buf, sizeof buf);
	fprintf(out, " %*s", width, buf);
}

/* The name column is the caller's: the device's name on its first row, blank after. */
static void put_op(FILE *out, const char *name, const char *op, const double v[6])
{
	text_printf(out, "%-*s %1s", NAME_W, name, op);
	for (size_t i = 0; i < 6; i++)
		put_num(out, v[i], op_widths[i]);
}

/* Every device gets the same four rows, r w d f, so that the table has one shape; a
 * figure the kernel does not count (discards before 4.18, flushes before 5.5) is "-". */
static void print_device(FILE *out, const struct device_rates *r)
{
	if (!r->valid) {
		text_printf(out, "%-*s   (no figures this interval: %s)  sched %s\n", NAME_W, r->name,
			    no_figures_reason(r), scheduler_or_dash(r));
		return;
	}
	/* a long name (dm, nvme partitions) gets a line of its own: the columns stay put */
	bool own_line = strlen(r->name) > NAME_W;
	if (own_line)
		text_printf(out, "%s\n", r->name);
	const double rd[6] = { r->r_s, r->rkB_s, r->rrqm_s, r->rrqm_pct, r->r_await, r->rareq_sz };
	const double wr[6] = { r->w_s, r->wkB_s, r->wrqm_s, r->wrqm_pct, r->w_await, r->wareq_sz };
	const double dc[6] = { r->d_s, r->dkB_s, r->drqm_s, r->drqm_pct, r->d_await, r->dareq_sz };
	const double none[6] = { NAN, NAN, NAN, NAN, NAN, NAN };
	put_op(out, own_line ? "" : r->name, "r", rd);
	put_num(out, r->aqu_sz, AQU_W);
	put_num(out, r->util, UTIL_W);
	fputc('\n', out);
	put_op(out, "", "w", wr);
	put_count(out, r->in_flight, AQU_W);
	text_printf(out, " %s\n", scheduler_or_dash(r));
	put_op(out, "", "d", r->have_discard ? dc : none);
	fputc('\n', out);
	fprintf(out, "%-*s f", NAME_W, "");
	put_num(out, r->have_flush ? r->f_s : NAN, op_widths[0]);
	fprintf(out, " %*s %*s %*s", op_widths[1], "", op_widths[2], "", op_widths[3], "");
	put_num(out, r->have_flush ? r->f_await : NAN, op_widths[4]);
	fputc('\n', out);
}

/* vmstat's columns, with memory in MiB (vmstat -S M) so that a machine with more than
 * a few GB still fits 80 columns.  One table gives the heading and the line, so they
 * cannot drift; a figure wider than its column is shortened with k/M (as the device
 * table does), so the columns stay aligned.  id gets three cells: an idle machine is
 * at 100. */
struct vm_column {
	const char *name;
	int width;
	size_t offset;    /* of the double in struct vm_rates */
	double divisor;
};
#define VM_COL(name, width, field, div) { name, width, offsetof(struct vm_rates, field), div }
static const struct vm_column vm_columns[] = {
	VM_COL("r", 2, r, 1), VM_COL("b", 2, b, 1),
	VM_COL("swpd", 5, swpd, 1024), VM_COL("free", 6, free, 1024),
	VM_COL("buff", 5, buff, 1024), VM_COL("cache", 6, cache, 1024),
	VM_COL("si", 4, si, 1), VM_COL("so", 4, so, 1),
	VM_COL("bi", 5, bi, 1), VM_COL("bo", 5, bo, 1),
	VM_COL("in", 4, in, 1), VM_COL("cs", 4, cs, 1),
	VM_COL("us", 2, us, 1), VM_COL("sy", 2, sy, 1), VM_COL("id", 3, id, 1),
	VM_COL("wa", 2, wa, 1), VM_COL("st", 2, st, 1),
};
#define VM_NCOLUMNS (sizeof vm_columns / sizeof vm_columns[0])

/* A whole number in width cells; k/M only from 1000 on (100 procs in two cells is
 * rarer than a 0k would be confusing). */
static void put_whole(FILE *out, double v, int width, bool first)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%.0f", v);
	if (n > width && v >= 1000)
		numfmt_fit(round(v), width, buf, sizeof buf);
	fprintf(out, "%s%*s", first ? "" : " ", width, buf);
}

static void print_vm(FILE *out, const struct vm_rates *v)
{
	fputs("procs -----memory (MiB)------ ---swap-- -----io---- -system-- --------cpu------\n", out);
	for (size_t i = 0; i < VM_NCOLUMNS; i++)
		fprintf(out, "%s%*s", i ? " " : "", vm_columns[i].width, vm_columns[i].name);
	fputc('\n', out);
	if (!v->valid) {
		fputs("(no system figures this interval)\n", out);
		return;
	}
	for (size_t i = 0; i < VM_NCOLUMNS; i++) {
		const struct vm_column *c = &vm_columns[i];
		double value = *(const double *)((const char *)v + c->offset) / c->divisor;
		put_whole(out, value, c->width, i == 0);
	}
	fputc('\n', out);
	fprintf(out, "dirty %.0f kB, writeback %.0f kB; ", v->dirty, v->writeback);
	if (v->have_psi)
		fprintf(out, "psi io some %.2f%% full %.2f%% (%.0f/%.0f ms)\n",
			v->psi_some_avg10, v->psi_full_avg10, v->psi_some_us / 1000, v->psi_full_us / 1000);
	else
		fputs("psi io: not available\n", out);
}

/* How long a read has been in progress: us, ms or s as it grows. */
static void put_duration(FILE *out, uint64_t us)
{
	if (us < 1000)
		fprintf(out, "%llu us", (unsigned long long)us);
	else if (us < 1000000)
		fprintf(out, "%llu ms", (unsigned long long)(us / 1000));
	else
		fprintf(out, "%.1f s", (double)us / 1e6);
}

/* "probe: 3 reads p50 412 max 2950 us; 3 starts p50 30112 max 41001 us"; a read still in
 * progress is said with how long so far, and without a "0 reads" before it (a log of an
 * older version has only stalled_us, a read waiting longer than a probe interval). */
static void print_probe(FILE *out, const struct probe_samples *p)
{
	uint64_t reading = p->reading_us ? p->reading_us : p->stalled_us;
	fputs("probe: ", out);
	if (p->nread || !reading)
		fprintf(out, "%zu read%s", p->nread, p->nread == 1 ? "" : "s");
	if (p->nread)
		fprintf(out, " p50 %llu max %llu us",
			(unsigned long long)probe_percentile(p->read_us, p->nread, 50),
			(unsigned long long)probe_percentile(p->read_us, p->nread, 100));
	if (reading) {
		fputs(p->nread ? "; a read in progress for " : "a read in progress for ", out);
		put_duration(out, reading);
	}
	if (p->nexec)
		fprintf(out, "; %zu start%s p50 %llu max %llu us", p->nexec, p->nexec == 1 ? "" : "s",
			(unsigned long long)probe_percentile(p->exec_us, p->nexec, 50),
			(unsigned long long)probe_percentile(p->exec_us, p->nexec, 100));
	if (p->errors)
		fprintf(out, "; %llu failed", (unsigned long long)p->errors);
	fputc('\n', out);
}

void output_text(FILE *out, const struct interval_view *v)
{
	char when[32];
	format_local_time(&v->rates->wall, when, sizeof when, true);
	if (rates_have_interval(v->rates))
		fprintf(out, "%s  interval %.3f s\n", when, v->rates->interval);
	else
		fprintf(out, "%s  interval - (the clock did not advance: a new baseline)\n", when);
	print_events(out, v->events);
	fprintf(out, "%-10s %8s %9s %7s %6s %7s %7s %6s %6s\n", "Device op", "/s", "kB/s",
		"rqm/s", "%rqm", "await", "areq-sz", "aqu-sz", "%util");
	fprintf(out, "%-10s %8s %9s %7s %6s %7s %7s %6s %s\n", "", "", "", "", "", "", "", "infl",
		"sched");
	for (size_t i = 0; i < v->rates->ndevices; i++)
		if (v->shown[i])
			print_device(out, &v->rates->devices[i]);
	output_text_trace(out, v);
	print_vm(out, &v->rates->vm);
	if (v->with_tasks)
		output_text_tasks(out, v->snap, v->sel);
	output_text_why(out, v->why);
	if (v->snap->probe)
		print_probe(out, v->snap->probe);
	fputc('\n', out);
}
