/* options.c - command line of the watching modes. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_format.h"
#include "options.h"
#include "prom_sink.h"
#include "source.h"
#include "trace_source.h"

#define COUNT_MAX 1000000000L
#ifndef IOSCOPE_WORKLOADS_DIR   /* where `make install` puts workloads/ */
#define IOSCOPE_WORKLOADS_DIR "/usr/local/share/ioscope/workloads"
#endif

void options_usage(FILE *out)
{
	fputs("usage: ioscope [options] [DEVICE|PATH...]        the console\n"
	      "       ioscope --batch [options] [DEVICE...]     headless, a report per interval\n"
	      "       ioscope --replay FILE [--batch] [options] a recorded session\n"
	      "       ioscope set DEVICE KEY=VALUE...           change scheduler and tunables\n"
	      "       ioscope remount MOUNTPOINT OPTIONS        change mount options\n"
	      "       ioscope show DEVICE|MOUNTPOINT            scheduler, tunables, mounts\n"
	      "       ioscope report FILE [--format F] ...      report or plot a recording\n"
	      "       ioscope run [options] [DEVICE... --] COMMAND [ARG...]\n"
	      "                          watch a command: its start, exit, cost and the\n"
	      "                          writeback after it (ready-made: WORKLOADS/*.sh)\n"
	      "       ioscope mark TEXT...                      mark every running ioscope\n"
	      "       ioscope matrix --device DEV --mount DIR [matrix options] -- COMMAND...\n"
	      "                          COMMAND per filesystem x scheduler x options x cache,\n"
	      "                          recorded (see ioscope matrix --help)\n"
	      "       ioscope compare A.log B.log [--phase N]   two sessions, phase by phase\n"
	      "\n"
	      "options:\n"
	      "  -b, --batch            print figures instead of opening the console\n"
	      "  -i, --interval SEC     seconds between samples, 0.01 to 3600 (default 1)\n"
	      "  -c, --count N          stop after N intervals (default: until stopped or q)\n",
	      out);
	char names[256];
	batch_format_names(names, sizeof names);
	fprintf(out, "  -f, --format FMT       batch output: %s\n"
		     "                         (default %s)\n", names, batch_formats[0].name);
	fputs(	      "      --textfile PATH    headless: the Prometheus exposition to PATH, replaced\n"
	      "                         whole each interval (node_exporter's textfile\n"
	      "                         collector)\n"
	      "      --listen [ADDR:]PORT  headless: serve it on http://ADDR:PORT/metrics\n"
	      "                         (ADDR default 127.0.0.1; [::1]:PORT for IPv6)\n"
	      "      --no-iostat        the exposition without the iostat figures\n"
	      "      --root DIR         read /proc and /sys from a fixture tree under DIR\n"
	      "  -t, --theme NAME       console colour theme\n"
	      "  -r, --record FILE      record the session to a new FILE (- or a FIFO: stream\n"
	      "                         it)\n"
	      "      --record-append FILE  add this session to the end of FILE\n"
	      "      --record-sync      flush the recording to disk after every sample\n"
	      "      --replay FILE      replay a recorded session instead of sampling\n"
	      "      --tasks            batch: blocked tasks by wait channel and the processes\n"
	      "                         doing the most I/O (reads /proc/PID/*;\n"
	      "                         docs/metrics.md); console: read them all along (the\n"
	      "                         D-tasks graph)\n"
	      "      --trace            eBPF block-layer view: latency and size histograms,\n"
	      "                         seeks, who queued the I/O (root or\n"
	      "                         CAP_BPF+CAP_PERFMON); console: b turns it on/off,\n"
	      "                         graph metric latency is its heat map\n"
	      "  -y, --yes              console: do not ask before risky changes\n"
	      "      --probe PATH       time one 4 KiB read that reaches the device every\n"
	      "                         probe interval, at a random offset of PATH (a file, a\n"
	      "                         directory: a 16 MiB working set made there, or a\n"
	      "                         block device)\n"
	      "      --probe-interval SEC  seconds between probe reads, 0.1 to 3600 (default 1)\n"
	      "      --probe-exec       with --probe: also time the cold start of a small\n"
	      "                         program\n"
	      "      --linger SEC       run: keep watching SEC seconds after COMMAND exits\n"
	      "                         (default: the console until q; batch 10 s, longer while\n"
	      "                         dirty+writeback are above the background threshold)\n"
	      "      --output FILE      run: COMMAND's stdout and stderr go to FILE (the\n"
	      "                         console default: a new $TMPDIR/ioscope-run-XXXXXX.out)\n"
	      "  -v, --verbose          with --replay: also say what the log held that this\n"
	      "                         version skips (record types, event kinds it does not\n"
	      "                         know); live: say once when /proc/diskstats has more\n"
	      "                         fields than a known layout\n"
	      "  -h, --help             this text\n"
	      "  -V, --version          the version\n"
	      "\n"
	      "WORKLOADS: " IOSCOPE_WORKLOADS_DIR "\n"
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

static int parse_format(const char *arg, const struct batch_format **out, struct error *err)
{
	*out = batch_format_find(arg);
	if (*out)
		return 0;
	char names[256];
	batch_format_names(names, sizeof names);
	return error_set(err, "invalid format '%s': give %s", arg, names);
}

static int parse_seconds(const char *what, const char *arg, double min, double max, double *out,
			 struct error *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < min || v > max)
		return error_set(err, "invalid %s '%s': give seconds from %g to %g", what, arg,
				 min, max);
	*out = v;
	return 0;
}

/* --textfile and --listen run headless and write nothing else; --no-iostat shapes
 * their exposition. */
static int check_export(struct options *o, bool format_set, struct error *err)
{
	bool exporting = o->textfile || o->listen;
	if (o->textfile && !o->textfile[0])
		return error_set(err, "--textfile needs a file name: it was given an empty one");
	if (exporting && format_set)
		return error_set(err, "--textfile and --listen write the Prometheus exposition "
				 "themselves: leave out --format");
	const struct batch_format *exporter = batch_format_exporter();
	if (exporting)
		o->format = exporter;   /* and nothing on standard output */
	if (o->no_iostat && !o->format->exporter)
		return error_set(err, "--no-iostat applies to --format %s, --textfile and "
				 "--listen", exporter->name);
	struct sockaddr_storage sa;
	socklen_t len;
	if (o->listen && prom_listen_address(o->listen, &sa, &len, err) < 0)
		return -1;
	if (exporting)
		o->batch = true;
	if (o->format->exporter && !o->batch)
		return error_set(err, "--format %s is a batch format: add --batch", o->format->name);
	return 0;
}

enum { OPT_ROOT = 256, OPT_RECORD_SYNC, OPT_RECORD_APPEND, OPT_REPLAY, OPT_TASKS, OPT_TRACE, OPT_PROBE,
       OPT_PROBE_INTERVAL, OPT_PROBE_EXEC, OPT_LINGER, OPT_OUTPUT, OPT_TEXTFILE, OPT_LISTEN,
       OPT_NO_IOSTAT };

/* Options only `ioscope run` takes, and those that need the live kernel. */
static int check_combinations(const struct options *o, bool run, bool run_only_given,
			      struct error *err)
{
	if (run_only_given && !run)
		return error_set(err, "--linger and --output are options of `ioscope run`");
	if (o->probe_path && (o->replay_path || o->root))
		return error_set(err, "--probe samples the live kernel: not with --replay or --root");
	if (o->probe_exec && !o->probe_path)
		return error_set(err, "--probe-exec needs --probe PATH");
	if (run && (o->replay_path || o->root))
		return error_set(err, "`ioscope run` watches the live kernel: no --replay or --root");
	return 0;
}

/* `ioscope run [options] [DEVICE... --] COMMAND [ARG...]`: the devices are those before a
 * `--`, as batch mode takes them; without one (or with getopt's, right after the options)
 * everything is the command, and every device is watched: the command may touch any. */
static int split_run_args(struct options *o, int argc, char **argv, struct error *err)
{
	int sep = -1;
	bool getopt_took_it = optind > 1 && strcmp(argv[optind - 1], "--") == 0;
	for (int i = optind; !getopt_took_it && i < argc && sep < 0; i++)
		if (strcmp(argv[i], "--") == 0)
			sep = i;
	int first = sep < 0 ? optind : sep + 1;
	if (first >= argc)
		return error_set(err, "run: give the COMMAND to watch (ioscope run [options] "
				 "[DEVICE... --] COMMAND [ARG...])");
	o->command = argv + first;
	o->devices = argv + optind;
	o->ndevices = sep < 0 ? 0 : sep - optind;
	return 0;
}

static int parse(struct options *o, int argc, char **argv, bool run, struct error *err)
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
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "yes", no_argument, NULL, 'y' },
		{ "probe", required_argument, NULL, OPT_PROBE },
		{ "probe-interval", required_argument, NULL, OPT_PROBE_INTERVAL },
		{ "probe-exec", no_argument, NULL, OPT_PROBE_EXEC },
		{ "linger", required_argument, NULL, OPT_LINGER },
		{ "output", required_argument, NULL, OPT_OUTPUT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "textfile", required_argument, NULL, OPT_TEXTFILE },
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "no-iostat", no_argument, NULL, OPT_NO_IOSTAT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof *o);
	o->interval = 1.0;
	o->format = &batch_formats[0];
	o->linger = -1;
	o->probe_interval = 1.0;
	bool run_only_given = false;
	opterr = 0;
	optind = 1;
	int c;
	bool format_set = false;
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
			format_set = true;
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
		case OPT_TRACE: o->trace = true; break;
		case OPT_TEXTFILE: o->textfile = optarg; break;
		case OPT_LISTEN: o->listen = optarg; break;
		case OPT_NO_IOSTAT: o->no_iostat = true; break;
		case 'y': o->yes = true; break;
		case OPT_PROBE: o->probe_path = optarg; break;
		case OPT_PROBE_INTERVAL:
			if (parse_seconds("probe interval", optarg, PROBE_INTERVAL_MIN,
					  PROBE_INTERVAL_MAX, &o->probe_interval, err) < 0)
				return -1;
			break;
		case OPT_PROBE_EXEC: o->probe_exec = true; break;
		case OPT_LINGER:
			if (parse_seconds("linger", optarg, 0, LINGER_MAX, &o->linger, err) < 0)
				return -1;
			run_only_given = true;
			break;
		case OPT_OUTPUT: o->output_path = optarg; run_only_given = true; break;
		case 'v': o->verbose = true; break;
		case 'h': options_usage(stdout); return 1;
		case 'V':
			printf("ioscope %s\ntracing (--trace): %s\n", IOSCOPE_VERSION,
			       trace_compiled_in() ? "built in" : "compiled out");
			return 1;
		case ':':
			return error_set(err, "option '%s' needs a value", argv[optind - 1]);
		default:
			return error_set(err, "unknown option '%s' (see ioscope --help)", argv[optind - 1]);
		}
	}
	if (check_export(o, format_set, err) < 0)
		return -1;
	if (o->replay_path && o->root)
		return error_set(err, "--replay and --root cannot be combined");
	if (o->trace && (o->replay_path || o->root))
		return error_set(err, "--trace watches the live kernel: not with --replay or --root");
	if (o->replay_path && o->record_path)
		return error_set(err, "--replay and --record cannot be combined");
	if (o->batch && o->record_path && strcmp(o->record_path, "-") == 0)
		return error_set(err, "--batch and --record - both write to standard output: "
				 "record to a file or a FIFO");
	if (check_combinations(o, run, run_only_given, err) < 0)
		return -1;
	if (run)
		return split_run_args(o, argc, argv, err);
	o->devices = argv + optind;
	o->ndevices = argc - optind;
	return 0;
}

int options_parse(struct options *o, int argc, char **argv, struct error *err)
{
	return parse(o, argc, argv, false, err);
}

int options_parse_run(struct options *o, int argc, char **argv, struct error *err)
{
	return parse(o, argc, argv, true, err);
}
