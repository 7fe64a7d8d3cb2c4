/* report.h - `ioscope report`: a recorded session as text, CSV, JSON, SVG or PNG
 * (docs/reports.md).  report.c picks the samples and devices; one file per output
 * format renders them, each a row of report_formats[] (report_formats.c).
 */
#ifndef IOSCOPE_REPORT_H
#define IOSCOPE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "events.h"
#include "rates.h"
#include "replay.h"
#include "snapshot.h"
#include "why.h"

struct report;

/* `ioscope report --format NAME`: one row each in report_formats[] (report_formats.c).
 * --format's names, its usage line and its error come from the table. */
struct report_format {
	const char *name;
	/* The report on out: 0, or -1 with err set. */
	int (*render)(struct report *rep, FILE *out, struct error *err);
	/* 0 when it can be rendered here, -1 with err saying why not: asked before the log is
	 * read or -o is created.  NULL: always. */
	int (*available)(struct error *err);
	bool binary;    /* not for a terminal: without -o, refused when standard output is one */
};
extern const struct report_format report_formats[];
extern const size_t report_format_count;
/* The row named name; NULL: none. */
const struct report_format *report_format_find(const char *name);
/* The names in the table's order, between them sep, before the last one last ("text, csv
 * or json"); always_only: only those with no available(). */
void report_format_names(char *buf, size_t len, const char *sep, const char *last,
			 bool always_only);

/* The plot's panels (--metrics), in the order of report_metric_names[]. */
enum report_metric { METRIC_MBPS, METRIC_IOPS, METRIC_AWAIT, METRIC_UTIL, METRIC_FS, METRIC_DIRTY,
		     METRIC_BLOCKED, METRIC_JOURNAL,
		     METRIC_LATENCY,   /* the latency heat map of the trace records (report_heat.h) */
		     METRIC_COUNT };
extern const char *const report_metric_names[METRIC_COUNT];

/* The report's events with the sample whose step gave each (replay_event's meaning),
 * packed: record k is at bytes + at[k] (report_events.c). */
struct report_event_store {
	unsigned char *bytes;
	size_t len, cap;
	size_t *at;
	size_t count, at_cap;
};
int report_events_add(struct report_event_store *st, const struct event *ev, size_t sample,
		      bool derivable);
/* Event k as a view of the store (its texts are the store's: valid until it changes). */
void report_events_get(const struct report_event_store *st, size_t k, struct replay_event *out);
/* Keeps event k where keep[k], in order. */
void report_events_keep_only(struct report_event_store *st, const bool *keep);
void report_events_clear(struct report_event_store *st);

struct report {
	const char *path;               /* the session log */
	struct replay *replay;
	size_t first, last;             /* samples in the report; intervals end at first+1..last */
	char (*devices)[DEV_NAME_MAX];  /* the devices reported on */
	size_t ndevices;
	const struct report_format *format;   /* a row of report_formats[] */
	struct report_event_store events;   /* the events reported (report_choose_events) */
	size_t nevents;                 /* events.count */
	const char *out_path;           /* -o, NULL: standard output */
	int width, height;              /* --size for images, 0: default */
	double min_phase;               /* --min-phase seconds, 0: the default */
	bool all;                       /* --all: every device and mount in the machine part */
	enum report_metric metrics[METRIC_COUNT];   /* --metrics, in the order given */
	size_t nmetrics;                /* 0: mbps */
};

/* One interval of the report: its rates (rates->devices follows cur's order). */
struct report_interval {
	size_t sample;                  /* index of the later snapshot */
	const struct snapshot *cur;
	const struct rates *rates;
	const struct why_rates *why;    /* dirty limits, journals (why.h); NULL: none */
	const struct event_list *events;   /* the session's for this sample, every device's */
	const int *column;   /* by rates->devices index: report_device_index(), -1 not reported */
};

/* The whole of rep->path on rep->path's devices (devices: a --devices list, or NULL for
 * the default), its events chosen: 0, or the exit status (1 unreadable, 2 bad usage) with
 * err set.  report_close() frees it either way. */
int report_open(struct report *rep, const char *devices, struct error *err);
void report_close(struct report *rep);

/* What `ioscope report` was asked besides what struct report holds (src/cli/report_cmd.c
 * parses the command line): resolved against the log once it is open. */
struct report_args {
	const char *format, *devices, *from, *to, *size, *min_phase, *metrics;
	bool verbose;
};
/* `ioscope report` on rep->path (its format, size, metrics, --min-phase, --all and
 * output set): opens the log, picks the samples and devices a names, renders and closes;
 * the exit status (1 unreadable or failed, 2 bad usage), the error printed. */
int report_run(struct report *rep, const struct report_args *a);

/* Calls fn for every interval in the report, in order; a damaged sample is skipped
 * (the interval then spans the gap).  Stops when fn returns < 0. */
typedef int (*report_interval_fn)(void *ctx, const struct report_interval *iv);
int report_walk(struct report *rep, report_interval_fn fn, void *ctx, struct error *err);
/* The same from the first sample on (the first's iv may have rates NULL). */
int report_walk_samples(struct report *rep, report_interval_fn fn, void *ctx, struct error *err);

bool report_device_wanted(const struct report *rep, const char *name);
/* Position of the device in rep->devices, or -1. */
int report_device_index(const struct report *rep, const char *name);

/* The events of the report are the session's (session.h: the log replayed as --replay
 * and the console replay it, observed changes derived again, echoes of ioscope's own
 * dropped): report_keep_events() adds a step's (iv->events, cap: rep->events' room) while
 * report.c walks the samples for the devices; report_choose_events() then keeps those
 * that concern the reported devices (their settings, devices coming and going, mounts on
 * them) and every user mark.  -1 on ENOMEM. */
int report_keep_events(struct report *rep, const struct report_interval *iv);
int report_choose_events(struct report *rep, struct error *err);
void report_events_free(struct report *rep);
/* Reported event k (0 <= k < rep->nevents), a view of the report's (not to be freed). */
void report_event(const struct report *rep, size_t k, struct replay_event *out);

/* "sched loop0 mq-deadline→bfq", "loop0 read_ahead_kb 128→4096 (ok)", "mark: text":
 * event_mark_label() and event_verdict() in parentheses (the resets are not in it). */
void report_mark_label(const struct event *ev, char *buf, size_t len);

/* Prints text after prefix, continuing lines at indent within 80 columns; breaks at
 * spaces and after commas.  Both are escaped (text.h). */
void report_print_wrapped(FILE *out, const char *prefix, int indent, const char *raw);

/* Local "HH:MM:SS" (with_date: "YYYY-MM-DD HH:MM:SS"). */
void report_local_time(const struct timespec *wall, bool with_date, char *buf, size_t len);
/* Whether times are given with tenths: the recording's interval is under a second, and
 * to the whole second two rows would share one time. */
bool report_tenths(const struct report *rep);
/* Local "HH:MM:SS", "HH:MM:SS.s" with tenths (report_tenths()). */
void report_clock(const struct report *rep, const struct timespec *wall, char *buf, size_t len);
/* "4m05s", "2h03m", "41s", "2.5s" (tenths under ten seconds). */
void report_duration(double seconds, char *buf, size_t len);

/* Parse a --from / --to argument against the recording's first sample time. */
int report_parse_time(const char *arg, const struct timespec *start, struct timespec *out,
		      struct error *err);

/* A duration: "30", "30s", "2m", "1h30m" (--min-phase). */
int report_parse_seconds(const char *arg, double *out, struct error *err);

/* The renderers; 0 ok, -1 with err set. */
int report_text(struct report *rep, FILE *out, struct error *err);
int report_csv(struct report *rep, FILE *out, struct error *err);
int report_json(struct report *rep, FILE *out, struct error *err);
int report_svg(struct report *rep, FILE *out, struct error *err);
int report_png(struct report *rep, FILE *out, struct error *err);
/* 0 when plots can be drawn here (cairo loads, docs/design.md); -1 with err
 * saying why not.  Asked before the session log is read or -o is created. */
int report_plot_available(struct error *err);

#endif
