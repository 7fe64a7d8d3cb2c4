/* columns.c - the device table's columns and cell formatting (columns.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "numfmt.h"

#define M(n, f, w, l, h) { n, n, COLUMN_METRIC, offsetof(struct device_rates, f), 1.0, w, l, h }
#define MB(n, f, h) { n, n, COLUMN_METRIC, offsetof(struct device_rates, f), 1.0 / 1024, 6, LOAD_NONE, h }
const struct column_def column_defs[] = {
	M("r/s", r_s, 6, LOAD_NONE, "reads completed per second"),
	M("rkB/s", rkB_s, 7, LOAD_NONE, "kilobytes read per second"),
	MB("rMB/s", rkB_s, "megabytes read per second (rkB/s / 1024)"),
	M("rrqm/s", rrqm_s, 6, LOAD_NONE, "read requests merged per second"),
	M("%rrqm", rrqm_pct, 6, LOAD_NONE, "percentage of read requests merged"),
	M("r_await", r_await, 7, LOAD_AWAIT, "average read time, ms (queue and service)"),
	M("rareq-sz", rareq_sz, 8, LOAD_NONE, "average read size, kB"),
	M("w/s", w_s, 6, LOAD_NONE, "writes completed per second"),
	M("wkB/s", wkB_s, 7, LOAD_NONE, "kilobytes written per second"),
	MB("wMB/s", wkB_s, "megabytes written per second (wkB/s / 1024)"),
	M("wrqm/s", wrqm_s, 6, LOAD_NONE, "write requests merged per second"),
	M("%wrqm", wrqm_pct, 6, LOAD_NONE, "percentage of write requests merged"),
	M("w_await", w_await, 7, LOAD_AWAIT, "average write time, ms"),
	M("wareq-sz", wareq_sz, 8, LOAD_NONE, "average write size, kB"),
	M("d/s", d_s, 6, LOAD_NONE, "discards completed per second"),
	M("dkB/s", dkB_s, 7, LOAD_NONE, "kilobytes discarded per second"),
	MB("dMB/s", dkB_s, "megabytes discarded per second"),
	M("drqm/s", drqm_s, 6, LOAD_NONE, "discard requests merged per second"),
	M("%drqm", drqm_pct, 6, LOAD_NONE, "percentage of discard requests merged"),
	M("d_await", d_await, 7, LOAD_AWAIT, "average discard time, ms"),
	M("dareq-sz", dareq_sz, 8, LOAD_NONE, "average discard size, kB"),
	M("f/s", f_s, 6, LOAD_NONE, "flush requests completed per second"),
	M("f_await", f_await, 7, LOAD_AWAIT, "average flush time, ms"),
	M("aqu-sz", aqu_sz, 6, LOAD_NONE, "average queue length"),
	M("%util", util, 5, LOAD_UTIL, "percentage of time the device was busy"),
	{ "in_flight", "infl", COLUMN_IN_FLIGHT, 0, 1.0, 4, LOAD_NONE, "requests in flight now" },
	{ "scheduler", "sched", COLUMN_SCHEDULER, 0, 1.0, 11, LOAD_NONE, "the active I/O scheduler" },
};
const size_t column_defs_count = sizeof column_defs / sizeof column_defs[0];

const struct column_def *column_find(const char *name)
{
	for (size_t i = 0; i < column_defs_count; i++)
		if (strcmp(column_defs[i].name, name) == 0 || strcmp(column_defs[i].header, name) == 0)
			return &column_defs[i];
	return NULL;
}

int columns_parse(const char *text, const struct column_def **out, size_t max, size_t *n,
		  struct error *err)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", text);
	size_t count = 0;
	char *save = NULL;
	for (char *w = strtok_r(buf, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save)) {
		const struct column_def *c = column_find(w);
		if (!c)
			return error_set(err, "unknown column '%s'", w);
		bool dup = false;
		for (size_t i = 0; i < count; i++)
			dup = dup || out[i] == c;
		if (dup)
			continue;
		if (count == max)
			return error_set(err, "more than %zu columns", max);
		out[count++] = c;
	}
	if (count == 0)
		return error_set(err, "no columns given");
	*n = count;
	return 0;
}

double column_value(const struct column_def *c, const struct device_rates *r)
{
	switch (c->kind) {
	case COLUMN_IN_FLIGHT:
		return (double)r->in_flight;
	case COLUMN_METRIC:
		if (!r->valid)
			return NAN;
		return *(const double *)((const char *)r + c->offset) * c->scale;
	case COLUMN_SCHEDULER:
	default:
		return NAN;
	}
}

void column_format(const struct column_def *c, const struct device_rates *r, char *buf, size_t len)
{
	if (c->kind == COLUMN_SCHEDULER) {
		snprintf(buf, len, "%s", r->scheduler[0] ? r->scheduler : "-");
		return;
	}
	if (c->kind == COLUMN_IN_FLIGHT) {
		int n = snprintf(buf, len, "%llu", (unsigned long long)r->in_flight);
		if (n > c->width)
			numfmt_fit((double)r->in_flight, c->width, buf, len);
		return;
	}
	numfmt_fit(column_value(c, r), c->width, buf, len);
}
