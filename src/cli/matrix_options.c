/* matrix_options.c - the command line of `ioscope matrix` (include/matrix.h).
 * Everything is checked here, before the device is looked at. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

/* The one table: parser and --help read it (the man page lists the same). */
static const struct matrix_option {
	const char *name;
	const char *arg;
	const char *help;
} matrix_options[] = {
	{ "device", "DEV", "the block device (required)" },
	{ "mount", "DIR", "its mount point, COMMAND's working directory\n"
			  "(required; no symlink but root's on the way)" },
	{ "mkfs", "'CMD'", "a fresh filesystem per run: CMD /dev/DEV (a loop\n"
			    "device over a file, or with --destroy-data-on)" },
	{ "fs", "NAME='CMD'", "repeatable: the filesystems compared, each made\n"
			      "fresh per run by CMD as with --mkfs (the\n"
			      "outermost dimension, e.g. 'xfs=mkfs.xfs -q -f')" },
	{ "destroy-data-on", "DEV", "allow --mkfs or --fs to destroy DEV's data: the\n"
				    "device itself when not a loop device, else the\n"
				    "one at the bottom of what it stands on" },
	{ "schedulers", "a,b,...", "schedulers to compare (default: the current one;\n"
				   "none on a bio-based device: zram, dm, md)" },
	{ "mount-options", "'o1;o2'", "option sets to compare, ';' between sets,\n"
				       "'defaults' for none (default: defaults);\n"
				       "'NAME:opts' for filesystem NAME only" },
	{ "cache", "cold|hot|both", "drop the page cache before each run (cold,\n"
					  "the default), or not (hot), or both" },
	{ "repeat", "N", "runs per cell, 1 to 100 (default 3)" },
	{ "max-repeat", "M", "runs of a noisy cell: CoV of elapsed > 3.5%\n(default 2N)" },
	{ "probe", "PATH", "time small reads of PATH during each run and idle\n"
			   "(with --mkfs/--fs: under --mount, made after\n"
			   "each mount, or the device itself)" },
	{ "probe-interval", "SEC", "seconds between the probe's reads, 0.1 to 10\n"
				    "(default 0.1: 10 reads a second; the runs\n"
				    "read less often when its own load is over 1%)" },
	{ "quiet-timeout", "SEC", "wait up to SEC, 0 to 600, for the device to\n"
				   "have no I/O for 1 s before the idle probe and\n"
				   "each run (default 30; 0: no wait)" },
	{ "out", "PREFIX", "write PREFIX.txt .csv .json .png and the runs'\n"
				  "logs PREFIX-cNN-rM.log (default ioscope-matrix)" },
	{ "baseline", "[FS:]SCHED:OPTS", "the cell ratios are to (default: the first)" },
	{ "help", NULL, "this text" },
};
#define NOPTIONS (sizeof matrix_options / sizeof matrix_options[0])

void matrix_usage(FILE *out)
{
	fputs("usage: ioscope matrix --device DEV --mount DIR [options] -- COMMAND [ARG...]\n"
	      "Runs COMMAND in DIR once per filesystem x scheduler x mount-option set x cache\n"
	      "state and repeat, records each run, and writes one result to share.\n\noptions:\n",
	      out);
	for (size_t i = 0; i < NOPTIONS; i++) {
		char head[64];
		const struct matrix_option *m = &matrix_options[i];
		snprintf(head, sizeof head, "--%s%s%s", m->name, m->arg ? " " : "",
			 m->arg ? m->arg : "");
		const char *h = m->help;
		fprintf(out, "  %-28s", head);
		if (strlen(head) > 28)
			fprintf(out, "\n  %-28s", "");
		while (*h) {
			size_t n = strcspn(h, "\n");
			fprintf(out, "%.*s\n", (int)n, h);
			h += n;
			if (*h == '\n' && *++h)
				fprintf(out, "  %-28s", "");
		}
	}
	fputs("\nSee ioscope(1) and docs/experiments.md.\n", out);
}

static int parse_int(const char *name, const char *arg, int lo, int hi, int *out,
		     struct error *err)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return error_set(err, "invalid --%s '%s': give a whole number from %d to %d",
				 name, arg, lo, hi);
	*out = (int)v;
	return 0;
}

static int parse_seconds(const char *name, const char *arg, double lo, double hi, double *out,
			 struct error *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= lo && v <= hi))
		return error_set(err, "invalid --%s '%s': give seconds from %g to %g", name, arg,
				 lo, hi);
	*out = v;
	return 0;
}

static bool sched_name_ok(const char *s)
{
	return s[0] && strlen(s) < MATRIX_SCHED_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(s);
}

static int parse_scheds(struct matrix_opts *o, const char *arg, struct error *err)
{
	const char *p = arg;
	o->nscheds = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		if (o->nscheds == MATRIX_MAX_SCHEDS)
			return error_set(err, "--schedulers: at most %d", MATRIX_MAX_SCHEDS);
		if (n >= MATRIX_SCHED_MAX)
			return error_set(err, "--schedulers: name too long in '%s'", arg);
		char *s = o->scheds[o->nscheds++];
		memcpy(s, p, n);
		s[n] = '\0';
		if (!sched_name_ok(s))
			return error_set(err, "--schedulers: invalid scheduler name '%s'", s);
		p += n + (p[n] == ',');
	}
	if (!o->nscheds)
		return error_set(err, "--schedulers: give at least one name");
	return 0;
}

static bool fs_name_ok(const char *s)
{
	return s[0] && strlen(s) < MATRIX_FS_NAME_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-.") == strlen(s);
}

/* --fs NAME=CMD */
static int parse_fs(struct matrix_opts *o, const char *arg, struct error *err)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return error_set(err, "invalid --fs '%s': give NAME='MKFS COMMAND', e.g. "
				 "--fs 'xfs=mkfs.xfs -q -f'", arg);
	if (o->nfs == MATRIX_MAX_FS)
		return error_set(err, "--fs: at most %d filesystems", MATRIX_MAX_FS);
	struct matrix_fs_opt *f = &o->fs[o->nfs];
	snprintf(f->name, sizeof f->name, "%.*s", (int)(eq - arg), arg);
	if ((size_t)(eq - arg) >= sizeof f->name || !fs_name_ok(f->name))
		return error_set(err, "invalid --fs name '%.*s': lower-case letters, digits, '.', "
				 "'_' and '-', up to %d", (int)(eq - arg), arg, MATRIX_FS_NAME_MAX - 1);
	for (size_t i = 0; i < o->nfs; i++)
		if (strcmp(o->fs[i].name, f->name) == 0)
			return error_set(err, "--fs %s is given twice", f->name);
	f->mkfs = eq + 1;
	o->nfs++;
	o->fs_given = true;
	return 0;
}

/* A set "NAME:opts" where NAME is a --fs name applies to that filesystem only; known
 * once every option is read (--fs may come after --mount-options). */
static void split_fs_prefixes(struct matrix_opts *o)
{
	for (size_t i = 0; i < o->noptsets; i++) {
		char *s = o->optsets[i], *colon = strchr(s, ':');
		o->optset_fs[i][0] = '\0';
		if (!colon)
			continue;
		for (size_t f = 0; f < o->nfs && o->fs_given; f++)
			if (strlen(o->fs[f].name) == (size_t)(colon - s) &&
			    strncmp(s, o->fs[f].name, (size_t)(colon - s)) == 0) {
				snprintf(o->optset_fs[i], sizeof o->optset_fs[i], "%s", o->fs[f].name);
				memmove(s, colon + 1, strlen(colon + 1) + 1);
				if (!s[0])
					snprintf(s, MOUNT_OPTS_MAX, "defaults");
				break;
			}
	}
}

bool matrix_optset_applies(const struct matrix_opts *o, size_t i, const char *fs)
{
	return !o->optset_fs[i][0] || strcmp(o->optset_fs[i], fs) == 0;
}

size_t matrix_cells_count(const struct matrix_opts *o)
{
	size_t sets = 0, caches = o->cache == MATRIX_BOTH ? 2 : 1;
	for (size_t f = 0; f < o->nfs; f++)
		for (size_t i = 0; i < o->noptsets; i++)
			sets += matrix_optset_applies(o, i, o->fs[f].name);
	return sets * (o->nscheds ? o->nscheds : 1) * caches;
}

/* Spaces around a set are dropped; "" and "defaults" both mean no option. */
static int parse_optsets(struct matrix_opts *o, const char *arg, struct error *err)
{
	const char *p = arg;
	o->noptsets = 0;
	for (;;) {
		size_t n = strcspn(p, ";");
		const char *q = p;
		while (n && *q == ' ')
			q++, n--;
		while (n && q[n - 1] == ' ')
			n--;
		if (o->noptsets == MATRIX_MAX_OPTSETS)
			return error_set(err, "--mount-options: at most %d sets", MATRIX_MAX_OPTSETS);
		if (n >= MOUNT_OPTS_MAX)
			return error_set(err, "--mount-options: a set is too long");
		char *s = o->optsets[o->noptsets++];
		if (n)
			snprintf(s, MOUNT_OPTS_MAX, "%.*s", (int)n, q);
		else
			snprintf(s, MOUNT_OPTS_MAX, "defaults");
		p += strcspn(p, ";");
		if (!*p || !p[1])
			break;   /* a ';' at the end adds no set */
		p++;
	}
	return 0;
}

static int parse_cache(const char *arg, enum matrix_cache *out, struct error *err)
{
	static const char *const names[] = { [MATRIX_COLD] = "cold", [MATRIX_HOT] = "hot",
					     [MATRIX_BOTH] = "both" };
	for (int i = MATRIX_COLD; i <= MATRIX_BOTH; i++)
		if (strcmp(arg, names[i]) == 0)
			return *out = (enum matrix_cache)i, 0;
	return error_set(err, "invalid --cache '%s': give cold, hot or both", arg);
}

/* [FS:]SCHED:OPTS, FS when the first field is a --fs name and another ':' follows. */
static int parse_baseline(struct matrix_opts *o, const char *arg, struct error *err)
{
	const char *colon = strchr(arg, ':');
	o->baseline_fs[0] = '\0';
	for (size_t f = 0; colon && strchr(colon + 1, ':') && f < o->nfs && o->fs_given; f++)
		if (strlen(o->fs[f].name) == (size_t)(colon - arg) &&
		    strncmp(arg, o->fs[f].name, (size_t)(colon - arg)) == 0) {
			snprintf(o->baseline_fs, sizeof o->baseline_fs, "%s", o->fs[f].name);
			arg = colon + 1;
			colon = strchr(arg, ':');
			break;
		}
	if (!colon || colon == arg || (size_t)(colon - arg) >= MATRIX_SCHED_MAX)
		return error_set(err, "invalid --baseline '%s': give SCHEDULER:OPTIONS", arg);
	snprintf(o->baseline_sched, sizeof o->baseline_sched, "%.*s", (int)(colon - arg), arg);
	snprintf(o->baseline_opts, sizeof o->baseline_opts, "%s", colon[1] ? colon + 1 : "defaults");
	o->has_baseline = true;
	return 0;
}

static int parse_one(struct matrix_opts *o, int idx, const char *arg, struct error *err)
{
	const char *name = matrix_options[idx].name;
	if (strcmp(name, "device") == 0) o->device = arg;
	else if (strcmp(name, "mount") == 0) o->mount = arg;
	else if (strcmp(name, "mkfs") == 0) o->mkfs = arg;
	else if (strcmp(name, "destroy-data-on") == 0) o->destroy_data_on = arg;
	else if (strcmp(name, "schedulers") == 0) return parse_scheds(o, arg, err);
	else if (strcmp(name, "mount-options") == 0) return parse_optsets(o, arg, err);
	else if (strcmp(name, "cache") == 0) return parse_cache(arg, &o->cache, err);
	else if (strcmp(name, "repeat") == 0)
		return parse_int(name, arg, 1, MATRIX_MAX_REPEAT, &o->repeat, err);
	else if (strcmp(name, "max-repeat") == 0)
		return parse_int(name, arg, 1, MATRIX_MAX_REPEAT, &o->max_repeat, err);
	else if (strcmp(name, "probe") == 0) o->probe = arg;
	else if (strcmp(name, "probe-interval") == 0)
		return parse_seconds(name, arg, MATRIX_PROBE_INTERVAL_MIN, MATRIX_PROBE_INTERVAL_MAX,
				     &o->probe_interval, err);
	else if (strcmp(name, "quiet-timeout") == 0)
		return parse_seconds(name, arg, 0, MATRIX_QUIET_TIMEOUT_MAX, &o->quiet_timeout, err);
	else if (strcmp(name, "out") == 0) o->out = arg;
	else if (strcmp(name, "baseline") == 0) o->baseline_arg = arg;
	else if (strcmp(name, "fs") == 0) return parse_fs(o, arg, err);
	return 0;
}

static bool baseline_in_plan(const struct matrix_opts *o)
{
	bool sched = o->nscheds == 0;
	const char *fs = o->baseline_fs[0] ? o->baseline_fs : o->fs[0].name;
	for (size_t i = 0; i < o->nscheds; i++)
		sched |= strcmp(o->scheds[i], o->baseline_sched) == 0;
	for (size_t i = 0; sched && i < o->noptsets; i++)
		if (strcmp(o->optsets[i], o->baseline_opts) == 0 && matrix_optset_applies(o, i, fs))
			return true;
	return false;
}

/* The filesystems: --fs as given; else one, named when it is found (--mkfs or the
 * filesystem at --mount). */
static int check_filesystems(struct matrix_opts *o, struct error *err)
{
	if (o->fs_given && o->mkfs)
		return error_set(err, "--mkfs and --fs do not go together: --fs NAME='CMD' is "
				 "--mkfs for several filesystems");
	if (!o->fs_given) {
		memset(&o->fs[0], 0, sizeof o->fs[0]);
		o->fs[0].mkfs = o->mkfs;
		o->nfs = 1;
	}
	split_fs_prefixes(o);
	for (size_t i = 0; i < o->noptsets; i++) {
		/* "btrfs:compress" names a filesystem; "context=a:b" is an option */
		size_t head = strcspn(o->optsets[i], ":");
		if (!o->optset_fs[i][0] && o->optsets[i][head] && strcspn(o->optsets[i], "=,") > head)
			return error_set(err, "--mount-options: '%.*s' in '%s' is not a filesystem "
					 "given with --fs", (int)head, o->optsets[i], o->optsets[i]);
	}
	for (size_t f = 0; f < o->nfs; f++) {
		bool any = false;
		for (size_t i = 0; i < o->noptsets; i++)
			any |= matrix_optset_applies(o, i, o->fs[f].name);
		if (!any)
			return error_set(err, "--mount-options: no option set for filesystem %s (give "
					 "one for every filesystem, or one without a NAME:)",
					 o->fs[f].name);
	}
	if (matrix_cells_count(o) > MATRIX_MAX_CELLS)
		return error_set(err, "%zu cells: at most %d (fewer filesystems, schedulers, "
				 "option sets or cache states)", matrix_cells_count(o),
				 MATRIX_MAX_CELLS);
	return 0;
}

static int check(struct matrix_opts *o, struct error *err)
{
	if (!o->device || !o->mount)
		return error_set(err, "matrix needs --device DEV and --mount DIR");
	if (o->ncommand == 0)
		return error_set(err, "matrix needs a command after --");
	if (o->mkfs && !o->mkfs[0])
		return error_set(err, "--mkfs needs a command, e.g. --mkfs 'mkfs.ext4 -q -F'");
	if (o->destroy_data_on && !o->mkfs && !o->fs_given)
		return error_set(err, "--destroy-data-on only goes with --mkfs or --fs");
	if (check_filesystems(o, err) < 0)
		return -1;
	if (o->baseline_arg && parse_baseline(o, o->baseline_arg, err) < 0)
		return -1;
	if (!o->max_repeat)
		o->max_repeat = o->repeat * 2 > MATRIX_MAX_REPEAT ? MATRIX_MAX_REPEAT : o->repeat * 2;
	if (o->max_repeat < o->repeat)
		return error_set(err, "--max-repeat %d is less than --repeat %d", o->max_repeat,
				 o->repeat);
	if (o->has_baseline && !baseline_in_plan(o))
		return error_set(err, "--baseline %s is not a cell of this matrix", o->baseline_arg);
	if (o->out && !o->out[0])
		return error_set(err, "--out needs a prefix");
	return 0;
}

int matrix_options_parse(struct matrix_opts *o, int argc, char **argv, struct error *err)
{
	struct option longopts[NOPTIONS + 1];
	for (size_t i = 0; i < NOPTIONS; i++)
		longopts[i] = (struct option){ matrix_options[i].name,
					       matrix_options[i].arg ? required_argument : no_argument,
					       NULL, 256 + (int)i };
	longopts[NOPTIONS] = (struct option){ NULL, 0, NULL, 0 };
	memset(o, 0, sizeof *o);
	o->cache = MATRIX_COLD;
	o->repeat = 3;
	o->probe_interval = MATRIX_PROBE_INTERVAL;
	o->quiet_timeout = MATRIX_QUIET_TIMEOUT;
	snprintf(o->optsets[0], sizeof o->optsets[0], "defaults");
	o->noptsets = 1;
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == 'h' || (c >= 256 && strcmp(matrix_options[c - 256].name, "help") == 0))
			return matrix_usage(stdout), 1;
		if (c == ':' || c == '?')
			return error_set(err, "%s option '%s' (see ioscope matrix --help)",
					 c == ':' ? "a value is missing for" : "unknown",
					 argv[optind - 1]);
		if (parse_one(o, c - 256, optarg, err) < 0)
			return -1;
	}
	o->command = argv + optind;
	o->ncommand = argc - optind;
	return check(o, err);
}
