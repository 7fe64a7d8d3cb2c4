/* options.h - the command line of the watching modes (console, batch, replay). */
#ifndef IOSCOPE_OPTIONS_H
#define IOSCOPE_OPTIONS_H

#include <stdbool.h>

#include <stdio.h>

#include "error.h"

enum output_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV };

struct options {
	double interval;          /* seconds, INTERVAL_MIN..INTERVAL_MAX */
	bool interval_set;        /* given on the command line (beats the config file) */
	long count;               /* intervals to show (batch and console); 0 = until stopped */
	bool batch;
	enum output_format format;
	const char *root;         /* --root fixture tree, NULL for the live kernel */
	const char *theme;        /* --theme NAME */
	const char *record_path;  /* --record FILE or --record-append FILE */
	bool record_append;       /* --record-append: add a session to an existing log */
	bool record_sync;         /* --record-sync: fdatasync after every sample */
	const char *replay_path;  /* --replay FILE */
	bool yes;                 /* --yes: no confirmation questions */
	bool verbose;             /* --verbose: say what a replayed log held that is skipped */
	bool tasks;               /* --tasks: blocked tasks and per-process I/O (batch) */
	char **devices;           /* DEVICE... (names or paths), NULL-terminated */
	int ndevices;
};

/* 0: parsed; 1: --help or --version printed, exit 0; -1: bad usage (err set), exit 2. */
int options_parse(struct options *o, int argc, char **argv, struct error *err);
void options_usage(FILE *out);

#endif
