/* report_cmd.c - `ioscope report FILE [options]`: its command line, parsed here and
 * handed to the report (src/record/report.c, docs/reports.md). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "text.h"

#define SIZE_MIN 200
#define SIZE_MAX_PX 16000

static void report_usage(FILE *out)
{
	char names[128];
	report_format_names(names, sizeof names, "|", "|", false);
	fprintf(out, "usage: ioscope report FILE [--format %s] [--devices DEV,...]\n", names);
	fputs("                            [--from TIME] [--to TIME] [--min-phase SEC] [--all]\n"
	      "                            [--metrics mbps,iops,await,util,fs,dirty,blocked,\n"
	      "                                       journal,latency]\n"
	      "                            [--size WxH] [-o OUT] [-v]\n"
	      "TIME: HH:MM[:SS] (local), YYYY-MM-DD HH:MM[:SS], @UNIXSECONDS, or +OFFSET from\n"
	      "the start (90, 90s, 5m, 1h30m).  See ioscope(1), REPORTS.\n", out);
}

static int parse_format(const char *arg, const struct report_format **out, struct error *err)
{
	*out = report_format_find(arg);
	if (*out)
		return 0;
	char names[128];
	report_format_names(names, sizeof names, ", ", " or ", false);
	return error_set(err, "invalid format '%s': give %s", arg, names);
}

static int parse_size(const char *arg, int *w, int *h, struct error *err)
{
	char tail;
	if (sscanf(arg, "%dx%d%c", w, h, &tail) != 2 || *w < SIZE_MIN || *h < SIZE_MIN ||
	    *w > SIZE_MAX_PX || *h > SIZE_MAX_PX)
		return error_set(err, "invalid size '%s': give WIDTHxHEIGHT in pixels, %d to %d each",
				 arg, SIZE_MIN, SIZE_MAX_PX);
	return 0;
}


static int parse_metrics(const char *arg, struct report *rep, struct error *err)
{
	rep->nmetrics = 0;
	for (const char *p = arg; *p;) {
		size_t n = strcspn(p, ","), m = 0;
		while (m < METRIC_COUNT && (strlen(report_metric_names[m]) != n ||
					   strncmp(p, report_metric_names[m], n) != 0))
			m++;
		if (m == METRIC_COUNT)
			return error_set(err, "invalid metric '%.*s': give mbps, iops, await, util, fs, "
					 "dirty, blocked, journal or latency", (int)n, p);
		bool seen = false;
		for (size_t i = 0; i < rep->nmetrics; i++)
			seen |= rep->metrics[i] == (enum report_metric)m;
		if (!seen)
			rep->metrics[rep->nmetrics++] = (enum report_metric)m;
		p += n + (p[n] == ',');
	}
	return rep->nmetrics ? 0 : error_set(err, "--metrics: give at least one metric");
}

/* 0: parsed; 1: --help printed; -1: bad usage. */
static int parse_args(int argc, char **argv, struct report *rep, struct report_args *a,
		      struct error *err)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' }, { "devices", required_argument, NULL, 'd' },
		{ "from", required_argument, NULL, 'F' },   { "to", required_argument, NULL, 'T' },
		{ "output", required_argument, NULL, 'o' }, { "size", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },      { "help", no_argument, NULL, 'h' },
		{ "min-phase", required_argument, NULL, 'm' }, { "all", no_argument, NULL, 'a' },
		{ "metrics", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "f:d:o:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': a->format = optarg; break;
		case 'd': a->devices = optarg; break;
		case 'F': a->from = optarg; break;
		case 'T': a->to = optarg; break;
		case 'o': rep->out_path = optarg; break;
		case 's': a->size = optarg; break;
		case 'v': a->verbose = true; break;
		case 'm': a->min_phase = optarg; break;
		case 'a': rep->all = true; break;
		case 'M': a->metrics = optarg; break;
		case 'h': report_usage(stdout); return 1;
		case ':': return error_set(err, "option '%s' needs a value", argv[optind - 1]);
		default: return error_set(err, "unknown option '%s' (see ioscope report --help)", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return error_set(err, optind == argc ? "report: give the session log to report on"
						     : "report: give exactly one session log");
	rep->path = argv[optind];
	if (a->format && parse_format(a->format, &rep->format, err) < 0)
		return -1;
	if (a->size && parse_size(a->size, &rep->width, &rep->height, err) < 0)
		return -1;
	if (a->metrics && parse_metrics(a->metrics, rep, err) < 0)
		return -1;
	if (a->min_phase && report_parse_seconds(a->min_phase, &rep->min_phase, err) < 0)
		return -1;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report rep = { .format = &report_formats[0] };
	struct report_args args = { .format = NULL };
	struct error err = { "" };
	int r = parse_args(argc, argv, &rep, &args, &err);
	if (r != 0) {
		if (r < 0) {
			text_printf(stderr, "ioscope: %s\n", err.msg);
			report_usage(stderr);
		}
		return r < 0 ? 2 : 0;
	}
	return report_run(&rep, &args);
}
