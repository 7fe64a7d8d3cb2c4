/* options.c - command line of the watching modes. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "source.h"

#define COUNT_MAX 1000000000L

void options_usage(FILE *out)
{
	fputs("usage: ioscope [options] [DEVICE|PATH...]          the console\n"
	      "       ioscope --batch [options] [DEVICE...]       headless, one report per interval\n"
	      "       ioscope --replay FILE [--batch] [options]   a recorded session\n"
	      "       ioscope set DEVICE KEY=VALUE...             change scheduler and queue tunables\n"
	      "       ioscope remount MOUNTPOINT OPTIONS          change mount options, keep the rest\n"
	      "       ioscope show DEVICE|MOUNTPOINT              scheduler, tunables, mounts\n"
	      "       ioscope report FILE [--format F] ...        report or plot a recorded session\n"
	      "\n"
	      "options:\n"
	      "  -b, --batch            print figures instead of opening the console\n"
	      "  -i, --interval SEC     seconds between samples, 0.01 to 3600 (default 1)\n"
	      "  -c, --count N          stop after N intervals (default: until interrupted or q)\n"
	      "  -f, --format FMT       batch output: text, json or csv (default text)\n"
	      "      --root DIR         read /proc and /sys from a fixture tree under DIR\n"
	      "  -t, --theme NAME       console colour theme\n"
	      "  -r, --record FILE      record the session to a new FILE (- or a FIFO: stream it)\n"
	      "      --record-append FILE  add this session to the end of FILE\n"
	      "      --record-sync      flush the recording to disk after every sample\n"
	      "      --replay FILE      replay a recorded session instead of sampling\n"
	      "      --tasks            batch: blocked tasks by wait channel and the processes\n"
	      "                         doing the most I/O (reads /proc/PID/*; docs/metrics.md)\n"
	      "  -y, --yes              console: do not ask before risky changes\n"
	      "  -v, --verbose          with --replay: also say what the log held that this\n"
	      "                         version skips (record types, event kinds it does not know);\n"
	      "                         live: say once when /proc/diskstats has more fields than\n"
	      "                         a known layout\n"
	      "  -h, --help             this text\n"
	      "  -V, --version          the version\n"
	      "\n"
	      "See ioscope(1).\n", out);
}

static int parse_interval(const char *arg, double *out, struct error *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < INTERVAL_MIN || v > INTERVAL_MAX)
		return error_set(err, "invalid interval '%s': give seconds from %g to %g",
				 arg, INTERVAL_MIN, INTERVAL_MAX);
	*out = v;
	return 0;
}

static int parse_count(const char *arg, long *out, struct error *err)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 1 || v > COUNT_MAX)
		return error_set(err, "invalid count '%s': give a whole number from 1 to %ld",
				 arg, COUNT_MAX);
	*out = v;
	return 0;
}

static int parse_format(const char *arg, enum output_format *out, struct error *err)
{
	static const char *const names[] = { [FORMAT_TEXT] = "text", [FORMAT_JSON] = "json", [FORMAT_CSV] = "csv" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(arg, names[i]) == 0) {
			*out = (enum output_format)i;
			return 0;
		}
	return error_set(err, "invalid format '%s': give text, json or csv", arg);
}

enum { OPT_ROOT = 256, OPT_RECORD_SYNC, OPT_RECORD_APPEND, OPT_REPLAY, OPT_TASKS };

int options_parse(struct options *o, int argc, char **argv, struct error *err)
{
	static const struct option longopts[] = {
		{ "batch", no_argument, NULL, 'b' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'f' },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "theme", required_argument, NULL, 't' },
		{ "record", required_argument, NULL, 'r' },
		{ "record-sync", no_argument, NULL, OPT_RECORD_SYNC },
		{ "record-append", required_argument, NULL, OPT_RECORD_APPEND },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "tasks", no_argument, NULL, OPT_TASKS },
		{ "yes", no_argument, NULL, 'y' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof *o);
	o->interval = 1.0;
	o->format = FORMAT_TEXT;
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "+bi:c:f:t:r:yvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->batch = true; break;
		case 'i':
			if (parse_interval(optarg, &o->interval, err) < 0)
				return -1;
			o->interval_set = true;
			break;
		case 'c':
			if (parse_count(optarg, &o->count, err) < 0)
				return -1;
			break;
		case 'f':
			if (parse_format(optarg, &o->format, err) < 0)
				return -1;
			break;
		case OPT_ROOT: o->root = optarg; break;
		case 't': o->theme = optarg; break;
		case 'r':
		case OPT_RECORD_APPEND:
			if (o->record_path)
				return error_set(err, "give one of --record and --record-append, once");
			o->record_path = optarg;
			o->record_append = c == OPT_RECORD_APPEND;
			break;
		case OPT_RECORD_SYNC: o->record_sync = true; break;
		case OPT_REPLAY: o->replay_path = optarg; break;
		case OPT_TASKS: o->tasks = true; break;
		case 'y': o->yes = true; break;
		case 'v': o->verbose = true; break;
		case 'h': options_usage(stdout); return 1;
		case 'V': printf("ioscope %s\n", IOSCOPE_VERSION); return 1;
		case ':':
			return error_set(err, "option '%s' needs a value", argv[optind - 1]);
		default:
			return error_set(err, "unknown option '%s' (see ioscope --help)", argv[optind - 1]);
		}
	}
	if (o->replay_path && o->root)
		return error_set(err, "--replay and --root cannot be combined");
	if (o->replay_path && o->record_path)
		return error_set(err, "--replay and --record cannot be combined");
	if (o->batch && o->record_path && strcmp(o->record_path, "-") == 0)
		return error_set(err, "--batch and --record - both write to standard output: "
				 "record to a file or a FIFO");
	o->devices = argv + optind;
	o->ndevices = argc - optind;
	return 0;
}
