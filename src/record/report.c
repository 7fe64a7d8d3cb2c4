/* report.c - `ioscope report FILE [options]`: which samples, which devices, which
 * format, where to; the renderers do the rest (docs/reports.md). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devsel.h"
#include "outfile.h"
#include "report.h"
#include "text.h"

const char *const report_metric_names[METRIC_COUNT] = {
	[METRIC_MBPS] = "mbps", [METRIC_IOPS] = "iops", [METRIC_AWAIT] = "await",
	[METRIC_UTIL] = "util", [METRIC_FS] = "fs", [METRIC_DIRTY] = "dirty",
	[METRIC_BLOCKED] = "blocked", [METRIC_JOURNAL] = "journal",
	[METRIC_LATENCY] = "latency",
};

/* The sample range from --from / --to.  -1: bad usage. */
static int choose_samples(struct report *rep, const struct report_args *a, struct error *err)
{
	size_t n = replay_count(rep->replay);
	struct timespec start = replay_sample_wall(rep->replay, 0), t;
	rep->first = 0;
	rep->last = n - 1;
	if (a->from) {
		if (report_parse_time(a->from, &start, &t, err) < 0)
			return -1;
		rep->first = replay_find_wall(rep->replay, &t);
	}
	if (a->to) {
		if (report_parse_time(a->to, &start, &t, err) < 0)
			return -1;
		t.tv_nsec++;   /* a sample exactly at --to is in */
		size_t after = replay_find_wall(rep->replay, &t);
		rep->last = after ? after - 1 : 0;
	}
	if (rep->first >= n || rep->last <= rep->first) {
		struct timespec end = replay_sample_wall(rep->replay, n - 1);
		char a_text[32], b_text[32];
		report_local_time(&start, true, a_text, sizeof a_text);
		report_local_time(&end, true, b_text, sizeof b_text);
		return error_set(err, "the time range holds no interval: the recording runs from "
				 "%s to %s (local time)", a_text, b_text);
	}
	return 0;
}

static int add_device(struct report *rep, const char *name)
{
	for (size_t i = 0; i < rep->ndevices; i++)
		if (strcmp(rep->devices[i], name) == 0)
			return 0;
	void *v = realloc(rep->devices, (rep->ndevices + 1) * sizeof *rep->devices);
	if (!v)
		return -1;
	rep->devices = v;
	snprintf(rep->devices[rep->ndevices++], DEV_NAME_MAX, "%s", name);
	return 0;
}

static uint64_t io_count(const struct device *d)
{
	const struct disk_counters *c = &d->counters;
	return c->rd_ios + c->wr_ios + c->dc_ios + c->fl_ios;
}

/* Every device seen in the chosen range, gone by its end or not (a hot-plugged disk
 * that did most of the I/O and left must be in the report): `all` holds each one
 * as first seen, in order of first appearance. */
struct range_devices {
	struct snapshot all;
	uint64_t *last_io;     /* io_count when last seen */
	bool *at_start;        /* present in the range's first sample */
};

static void range_devices_free(struct range_devices *rd)
{
	snapshot_free(&rd->all);
	free(rd->last_io);
	free(rd->at_start);
}

static int range_devices_note(struct range_devices *rd, const struct snapshot *s, bool first)
{
	for (size_t i = 0; i < s->ndevices; i++) {
		const struct device *d = &s->devices[i];
		/* At the same index while the device set is steady: O(1) per device. */
		const struct device *known =
			i < rd->all.ndevices && strcmp(rd->all.devices[i].name, d->name) == 0
				? &rd->all.devices[i]
				: snapshot_find_device(&rd->all, d->name);
		if (known) {
			rd->last_io[known - rd->all.devices] = io_count(d);
			continue;
		}
		size_t n = rd->all.ndevices + 1;
		uint64_t *io = realloc(rd->last_io, n * sizeof *io);
		if (io)
			rd->last_io = io;
		bool *st = io ? realloc(rd->at_start, n * sizeof *st) : NULL;
		if (st)
			rd->at_start = st;
		struct device *slot = st ? snapshot_add_device(&rd->all) : NULL;
		if (!slot)
			return -1;
		*slot = *d;
		memset(&slot->settings, 0, sizeof slot->settings);   /* names and counters only */
		rd->last_io[n - 1] = io_count(d);
		rd->at_start[n - 1] = first;
	}
	return 0;
}

struct range_scan {
	struct report *rep;
	struct range_devices *rd;
};

static int range_sample(void *ctx, const struct report_interval *iv)
{
	struct range_scan *sc = ctx;
	if (range_devices_note(sc->rd, iv->cur, iv->sample == sc->rep->first) < 0)
		return -1;
	return report_keep_events(sc->rep, iv);
}

/* The one pass over the range before the report: its devices, and the session's events
 * (report_choose_events() picks the reported devices' once these are chosen). */
static int range_devices_collect(struct report *rep, struct range_devices *rd, struct error *err)
{
	memset(rd, 0, sizeof *rd);
	snapshot_init(&rd->all);
	struct range_scan sc = { rep, rd };
	err->msg[0] = '\0';
	int rc = report_walk_samples(rep, range_sample, &sc, err);
	if (rc < 0 && !err->msg[0])
		error_set(err, "out of memory");
	return rc;
}

static int devices_from_list(struct report *rep, const char *list, const struct snapshot *snap,
			     struct error *err)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return error_set(err, "out of memory");
	int rc = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok && rc == 0; tok = strtok_r(NULL, ",", &save)) {
		char name[DEV_NAME_MAX];
		rc = devsel_resolve(snap, tok, name, sizeof name, err);
		if (rc == 0 && add_device(rep, name) < 0)
			rc = error_set(err, "out of memory");
	}
	free(copy);
	return rc;
}

/* Without --devices: whole disks that did I/O within the range (all whole disks
 * when none did); one that came or left within the range counts as busy. */
static int default_devices(struct report *rep, const struct range_devices *rd, struct error *err)
{
	for (int pass = 0; pass < 2 && rep->ndevices == 0; pass++)
		for (size_t i = 0; i < rd->all.ndevices; i++) {
			const struct device *d = &rd->all.devices[i];
			bool idle = rd->at_start[i] && io_count(d) == rd->last_io[i];
			if (d->is_partition || (pass == 0 && idle))
				continue;
			if (add_device(rep, d->name) < 0)
				return error_set(err, "out of memory");
		}
	return 0;
}

/* A recording made for named devices reports on them. */
static int devices_from_selection(struct report *rep, const struct replay_machine *m, struct error *err)
{
	for (size_t i = 0; i < m->nselection; i++)
		if (add_device(rep, m->selection[i]) < 0)
			return error_set(err, "out of memory");
	return 0;
}

/* -1: bad usage (unknown device). */
static int choose_devices(struct report *rep, const struct report_args *a, struct error *err)
{
	struct range_devices rd;
	int rc = range_devices_collect(rep, &rd, err);
	const struct replay_machine *m = replay_machine(rep->replay);
	if (rc == 0 && a->devices)
		rc = devices_from_list(rep, a->devices, &rd.all, err);
	else if (rc == 0 && m->nselection)
		rc = devices_from_selection(rep, m, err);
	else if (rc == 0)
		rc = default_devices(rep, &rd, err);
	range_devices_free(&rd);
	return rc;
}

static void print_warnings(const struct report *rep)
{
	for (size_t i = 0; i < replay_warning_count(rep->replay); i++)
		text_printf(stderr, "ioscope: warning: %s\n", replay_warning(rep->replay, i));
	size_t more = replay_warnings_total(rep->replay) - replay_warning_count(rep->replay);
	if (more)
		text_printf(stderr, "ioscope: warning: %s: %zu more damaged records\n", rep->path, more);
}

static int render(struct report *rep, struct error *err)
{
	if (!rep->out_path && rep->format->binary && isatty(STDOUT_FILENO)) {
		char upper[16];
		size_t i = 0;
		for (; rep->format->name[i] && i + 1 < sizeof upper; i++)
			upper[i] = (char)toupper((unsigned char)rep->format->name[i]);
		upper[i] = '\0';
		return error_set(err, "report: a %s goes to a file: give -o FILE", upper);
	}
	struct stat input;
	struct outfile out;
	if (stat(rep->path, &input) < 0)
		return error_errno(err, rep->path, errno);
	if (outfile_open(&out, rep->out_path, &input, err) < 0)
		return -1;
	int rc = rep->format->render(rep, out.fp, err);
	/* a write error is told with its cause; the renderers only see that one failed */
	if (out.write_errno || rc == 0)
		return outfile_commit(&out, err);
	outfile_abort(&out);
	return rc;
}

int report_open(struct report *rep, const char *devices, struct error *err)
{
	struct report_args args = { .devices = devices };
	rep->replay = replay_open(rep->path, err);
	if (!rep->replay)
		return 1;
	print_warnings(rep);
	if (replay_count(rep->replay) < 2) {
		error_set(err, "%s: %zu samples: a report needs at least two", rep->path,
			  replay_count(rep->replay));
		return 1;
	}
	if (choose_samples(rep, &args, err) < 0 || choose_devices(rep, &args, err) < 0)
		return 2;
	return report_choose_events(rep, err) < 0 ? 1 : 0;
}

void report_close(struct report *rep)
{
	free(rep->devices);
	report_events_free(rep);
	replay_close(rep->replay);
	rep->devices = NULL;
	rep->replay = NULL;
}

int report_run(struct report *rep, const struct report_args *a)
{
	struct error err = { "" };
	if (rep->format->available && rep->format->available(&err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 1;
	}
	rep->replay = replay_open(rep->path, &err);
	if (!rep->replay) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 1;
	}
	print_warnings(rep);
	if (a->verbose)
		replay_print_skipped(rep->replay, rep->path, stderr);
	int status = 1;
	if (replay_count(rep->replay) < 2) {
		error_set(&err, "%s: %zu samples: a report needs at least two", rep->path,
			  replay_count(rep->replay));
		goto out;
	}
	status = 2;
	if (choose_samples(rep, a, &err) < 0 || choose_devices(rep, a, &err) < 0)
		goto out;
	status = 1;
	if (report_choose_events(rep, &err) < 0)
		goto out;
	if (render(rep, &err) < 0)
		goto out;
	status = 0;
out:
	if (status)
		text_printf(stderr, "ioscope: %s\n", err.msg);
	report_close(rep);
	return status;
}
