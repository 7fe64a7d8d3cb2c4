/* compare_cmd.c - `ioscope compare A.log B.log [options]`: its command line, parsed here
 * and handed to the comparison (src/record/report_compare.c, docs/reports.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "compare.h"
#include "report.h"
#include "text.h"

static void compare_usage(FILE *out)
{
	fputs("usage: ioscope compare A.log B.log [--phase N] [--devices DEV,...]\n"
	      "                       [--pair A_DEV=B_DEV]... [--pair-phases A_N=B_M,...]\n"
	      "                       [--min-phase SEC]\n"
	      "two recorded sessions side by side, phase by phase, differences in percent;\n"
	      "phases paired by what the marks that open them are (their labels without\n"
	      "figures, the device under test and its mount point as one token each), a\n"
	      "repeated one by its ordinal (mark: step#2), the others listed as unpaired\n"
	      "with the reason.\n"
	      "  --pair-phases A_N=B_M,...  pair phase N of A with phase M of B by hand\n"
	      "                             (the others still by their marks)\n"
	      "See ioscope(1), REPORTS.\n", out);
}

/* --pair A_DEV=B_DEV */
static int parse_pair(struct compare_request *o, const char *arg, struct error *err)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1] || (size_t)(eq - arg) >= DEV_NAME_MAX ||
	    strlen(eq + 1) >= DEV_NAME_MAX || strchr(arg, ','))
		return error_set(err, "invalid --pair '%s': give A_DEV=B_DEV (loop0=loop1)", arg);
	if (o->npairs == COMPARE_MAX_PAIRS)
		return error_set(err, "--pair: at most %d", COMPARE_MAX_PAIRS);
	struct compare_pair *p = &o->pairs[o->npairs++];
	snprintf(p->a, sizeof p->a, "%.*s", (int)(eq - arg), arg);
	snprintf(p->b, sizeof p->b, "%s", eq + 1);
	return 0;
}

/* One phase's number, from 1. */
static bool phase_number(const char *text, size_t n, size_t *out)
{
	char buf[32], *end;
	if (n == 0 || n >= sizeof buf || text[0] == '-' || text[0] == '+')
		return false;
	memcpy(buf, text, n);
	buf[n] = '\0';
	unsigned long v = strtoul(buf, &end, 10);
	*out = v;
	return *end == '\0' && v >= 1 && v < 1000000;
}

/* --pair-phases A_N=B_M,...: a phase of either log paired once at most. */
static int parse_phase_pairs(struct compare_request *o, const char *arg, struct error *err)
{
	for (const char *p = arg; ; ) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(end - p));
		struct compare_phase_pair h;
		if (!eq || !phase_number(p, (size_t)(eq - p), &h.a) ||
		    !phase_number(eq + 1, (size_t)(end - eq - 1), &h.b))
			return error_set(err, "invalid --pair-phases '%s': give A_N=B_M,... (the "
					 "phases' numbers as compare prints them: 2=3,4=4)", arg);
		for (size_t k = 0; k < o->nphase_pairs; k++)
			if (o->phase_pairs[k].a == h.a || o->phase_pairs[k].b == h.b)
				return error_set(err, "--pair-phases: phase %zu of %s is paired twice",
						 o->phase_pairs[k].a == h.a ? h.a : h.b,
						 o->phase_pairs[k].a == h.a ? "A" : "B");
		if (o->nphase_pairs == COMPARE_MAX_PHASE_PAIRS)
			return error_set(err, "--pair-phases: at most %d pairs", COMPARE_MAX_PHASE_PAIRS);
		o->phase_pairs[o->nphase_pairs++] = h;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* 0 parsed, 1 --help, -1 bad usage (err). */
static int parse_args(int argc, char **argv, struct compare_request *o, struct error *err)
{
	static const struct option longopts[] = {
		{ "phase", required_argument, NULL, 'p' }, { "devices", required_argument, NULL, 'd' },
		{ "min-phase", required_argument, NULL, 'm' },
		{ "pair", required_argument, NULL, 'P' },
		{ "pair-phases", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1 && !err->msg[0]) {
		char *end;
		switch (c) {
		case 'p':
			o->only = strtol(optarg, &end, 10);
			if (*end || end == optarg || o->only < 1)
				error_set(err, "invalid phase '%s': give its number (1, 2, ...)", optarg);
			break;
		case 'd': o->devices = optarg; break;
		case 'm': report_parse_seconds(optarg, &o->min_phase, err); break;
		case 'P': parse_pair(o, optarg, err); break;
		case 'Q': parse_phase_pairs(o, optarg, err); break;
		case 'h': compare_usage(stdout); return 1;
		default:
			error_set(err, "unknown option '%s' (see ioscope compare --help)",
				  argv[optind - 1]);
		}
	}
	if (!err->msg[0] && optind != argc - 2)
		error_set(err, "compare: give two session logs");
	if (!err->msg[0] && o->devices && o->npairs)
		error_set(err, "compare: give --devices or --pair, not both");
	if (err->msg[0])
		return -1;
	o->path_a = argv[optind];
	o->path_b = argv[optind + 1];
	return 0;
}


int cmd_compare(int argc, char **argv)
{
	struct compare_request q = { .only = -1 };
	struct error err = { "" };
	int r = parse_args(argc, argv, &q, &err);
	if (r != 0) {
		if (r < 0) {
			text_printf(stderr, "ioscope: %s\n", err.msg);
			compare_usage(stderr);
		}
		return r < 0 ? 2 : 0;
	}
	return compare_run(&q);
}
