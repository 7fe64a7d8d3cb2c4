/* options.h - the command line of the watching modes (console, batch, replay). */
#ifndef IOSCOPE_OPTIONS_H
#define IOSCOPE_OPTIONS_H

#include <stdbool.h>

#include <stdio.h>

#include "error.h"

struct batch_format;   /* src/cli/batch_format.h */

struct options {
	double interval;          /* seconds, INTERVAL_MIN..INTERVAL_MAX */
	bool interval_set;        /* given on the command line (beats the config file) */
	long count;               /* intervals to show (batch and console); 0 = until stopped */
	bool batch;
	/* --format's row (batch mode's output); --textfile, --listen: the exporter's */
	const struct batch_format *format;
	const char *root;         /* --root fixture tree, NULL for the live kernel */
	const char *theme;        /* --theme NAME */
	const char *record_path;  /* --record FILE or --record-append FILE */
	bool record_append;       /* --record-append: add a session to an existing log */
	bool record_sync;         /* --record-sync: fdatasync after every sample */
	const char *replay_path;  /* --replay FILE */
	bool yes;                 /* --yes: no confirmation questions */
	bool verbose;             /* --verbose: say what a replayed log held that is skipped */
	bool tasks;               /* --tasks: blocked tasks and per-process I/O (batch) */
	bool trace;               /* --trace: the eBPF block-layer view (trace_source.h) */
	const char *textfile;     /* --textfile PATH: the exposition, replaced each interval */
	const char *listen;       /* --listen [ADDR:]PORT: serve /metrics (docs/fleet.md) */
	bool no_iostat;           /* --no-iostat: the exposition without the iostat gauges */
	char **devices;           /* DEVICE... (names or paths), NULL-terminated */
	int ndevices;
	/* `ioscope run` (options_parse_run): the command watched and how */
	char **command;           /* COMMAND ARG..., NULL-terminated; NULL: not `run` */
	double linger;            /* --linger SEC after it exits; < 0: the mode's default */
	const char *output_path;  /* --output FILE for its stdout and stderr */
	/* the responsiveness probe (docs/metrics.md) */
	const char *probe_path;   /* --probe PATH; NULL: off */
	double probe_interval;    /* --probe-interval SEC, PROBE_INTERVAL_MIN.. */
	bool probe_exec;          /* --probe-exec: time a cold program start too */
};

#define PROBE_INTERVAL_MIN 0.1
#define PROBE_INTERVAL_MAX 3600.0
#define LINGER_MAX 86400.0

/* 0: parsed; 1: --help or --version printed, exit 0; -1: bad usage (err set), exit 2. */
int options_parse(struct options *o, int argc, char **argv, struct error *err);
/* `ioscope run [options] [--] COMMAND [ARG...]`; argv[0] is "run".  Same results. */
int options_parse_run(struct options *o, int argc, char **argv, struct error *err);
void options_usage(FILE *out);

#endif
