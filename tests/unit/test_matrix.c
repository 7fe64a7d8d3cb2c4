/* ioscope matrix: the command line, a cell's figures, fio's JSON and the text result
 * (golden file tests/fixtures/matrix/result.txt; UPDATE_GOLDEN=1 rewrites it), the
 * filesystems as a dimension, the CSV's columns and the JSON's shape. */
#include "unit.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "matrix.h"

static int parse(struct matrix_opts *o, const char *const *args)
{
	char *argv[32];
	int argc = 0;
	argv[argc++] = "matrix";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	struct error err = { "" };
	return matrix_options_parse(o, argc, argv, &err);
}

static void test_options(void **state)
{
	(void)state;
	struct matrix_opts o;
	const char *full[] = { "--device", "loop3", "--mount", "/mnt", "--mkfs", "mkfs.xfs -f",
			       "--schedulers", "mq-deadline,bfq", "--mount-options",
			       " ; noatime,logbsize=256k;", "--cache", "both", "--repeat",
			       "5", "--baseline", "bfq:noatime,logbsize=256k", "--out", "x", "--",
			       "tar", "xf", "-v", NULL };
	assert_int_equal(parse(&o, full), 0);
	assert_int_equal(o.nscheds, 2);
	assert_string_equal(o.scheds[1], "bfq");
	assert_int_equal(o.noptsets, 2);   /* a ';' at the end adds no set */
	assert_string_equal(o.optsets[0], "defaults");   /* an empty set is no option */
	assert_string_equal(o.optsets[1], "noatime,logbsize=256k");
	assert_int_equal(o.cache, MATRIX_BOTH);
	assert_int_equal(o.repeat, 5);
	assert_int_equal(o.max_repeat, 10);
	assert_int_equal(o.ncommand, 3);
	assert_string_equal(o.command[2], "-v");   /* after --: the command's */
	assert_string_equal(o.baseline_opts, "noatime,logbsize=256k");

	struct matrix_result *r = calloc(1, sizeof *r);
	matrix_cells_plan(r, &o, "none");
	assert_int_equal(r->ncells, 2 * 2 * 2);
	assert_int_equal(r->baseline, 6);   /* bfq, the second set, cold */
	assert_string_equal(r->cells[6].sched, "bfq");
	assert_int_equal(r->cells[7].cache, MATRIX_HOT);
	free(r);

	const char *bad[][12] = {
		{ "--mount", "/mnt", "--", "true", NULL },                     /* no device */
		{ "--device", "loop3", "--mount", "/mnt", NULL },                /* no command */
		{ "--device", "loop3", "--mount", "/mnt", "--repeat", "0", "--", "true", NULL },
		{ "--device", "loop3", "--mount", "/mnt", "--repeat", "4", "--max-repeat", "3", "--", "true", NULL },
		{ "--device", "loop3", "--mount", "/mnt", "--cache", "warm", "--", "true", NULL },
		{ "--device", "loop3", "--mount", "/mnt", "--schedulers", "bfq,../x", "--", "true", NULL },
		{ "--device", "loop3", "--mount", "/mnt", "--baseline", "kyber:defaults", "--schedulers", "bfq", "--", "true", NULL },
		{ "--device", "loop3", "--mount", "/mnt", "--destroy-data-on", "loop3", "--", "true", NULL },
		{ "--device", "loop3", "--mount", "/mnt", "--bogus", "--", "true", NULL },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(parse(&o, bad[i]), -1);
}

/* --fs: the outer dimension; a set "NAME:opts" for that filesystem only. */
static void test_filesystems(void **state)
{
	(void)state;
	struct matrix_opts o;
	const char *args[] = { "--device", "loop3", "--mount", "/mnt", "--mount-options",
			       "defaults;xfs:logbsize=256k;context=a:b", "--fs", "ext4=mkfs.ext4 -q -F",
			       "--fs", "xfs=mkfs.xfs -q -f", "--schedulers", "mq-deadline,bfq",
			       "--baseline", "xfs:bfq:logbsize=256k", "--", "true", NULL };
	assert_int_equal(parse(&o, args), 0);
	assert_int_equal(o.nfs, 2);
	assert_string_equal(o.fs[1].name, "xfs");
	assert_string_equal(o.fs[1].mkfs, "mkfs.xfs -q -f");
	assert_string_equal(o.optsets[1], "logbsize=256k");   /* the prefix taken off */
	assert_string_equal(o.optset_fs[1], "xfs");
	assert_string_equal(o.optsets[2], "context=a:b");     /* an option, not a name */
	assert_string_equal(o.optset_fs[2], "");
	assert_true(matrix_optset_applies(&o, 1, "xfs"));
	assert_false(matrix_optset_applies(&o, 1, "ext4"));
	assert_string_equal(o.baseline_fs, "xfs");
	/* ext4: 2 sets, xfs: 3 sets; x 2 schedulers, cold */
	assert_int_equal(matrix_cells_count(&o), 10);

	struct matrix_result *r = calloc(1, sizeof *r);
	matrix_cells_plan(r, &o, "none");
	assert_int_equal(r->ncells, 10);
	assert_int_equal(r->nfs, 2);
	assert_string_equal(r->fs[0].name, "ext4");
	assert_int_equal(r->cells[3].fs, 0);              /* ext4 bfq context=a:b */
	assert_string_equal(r->cells[3].sched, "bfq");
	assert_int_equal(r->cells[4].fs, 1);              /* xfs first */
	assert_string_equal(r->cells[5].options, "logbsize=256k");
	assert_int_equal(r->baseline, 8);                 /* xfs bfq logbsize=256k */
	assert_true(isnan(r->fs[1].idle_p50_us));
	char name[256];
	matrix_cell_name(r, &r->cells[8], name, sizeof name);
	assert_string_equal(name, "xfs bfq logbsize=256k cold");
	free(r);

	/* --mkfs alone: one filesystem, named when made */
	const char *mkfs[] = { "--device", "loop3", "--mount", "/mnt", "--mkfs", "mkfs.ext4 -F",
			       "--", "true", NULL };
	assert_int_equal(parse(&o, mkfs), 0);
	assert_int_equal(o.nfs, 1);
	assert_false(o.fs_given);
	assert_string_equal(o.fs[0].mkfs, "mkfs.ext4 -F");

	const char *bad[][16] = {
		{ "--device", "l", "--mount", "/m", "--fs", "xfs", "--", "true", NULL },      /* no = */
		{ "--device", "l", "--mount", "/m", "--fs", "=mkfs.xfs", "--", "true", NULL },
		{ "--device", "l", "--mount", "/m", "--fs", "XFS=mkfs.xfs", "--", "true", NULL },
		{ "--device", "l", "--mount", "/m", "--fs", "a=x", "--fs", "a=y", "--", "true", NULL },
		{ "--device", "l", "--mount", "/m", "--fs", "a=x", "--mkfs", "y", "--", "true", NULL },
		/* a set for a filesystem not given */
		{ "--device", "l", "--mount", "/m", "--fs", "a=x", "--mount-options", "b:noatime",
		  "--", "true", NULL },
		/* filesystem b has no set */
		{ "--device", "l", "--mount", "/m", "--fs", "a=x", "--fs", "b=y", "--mount-options",
		  "a:noatime", "--", "true", NULL },
		/* the baseline is not a cell: xfs has no such set */
		{ "--device", "l", "--mount", "/m", "--fs", "a=x", "--fs", "xfs=y", "--mount-options",
		  "defaults;a:noatime", "--baseline", "xfs:none:noatime", "--", "true", NULL },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct error err = { "" };
		char *argv[16] = { "matrix" };
		int argc = 1;
		for (const char *const *a = bad[i]; *a; a++)
			argv[argc++] = (char *)*a;
		if (matrix_options_parse(&o, argc, argv, &err) != -1)
			fail_msg("case %zu parsed", i);
	}

	/* too many cells: 6 filesystems x 8 schedulers x 16 sets x 2 > the limit */
	char *many[64] = { "matrix", "--device", "l", "--mount", "/m", "--cache", "both",
			   "--schedulers", "a,b,c,d,e,f,g,h", "--mount-options",
			   "a;b;c;d;e;f;g;h;i;j;k;l;m;n;o;p" };
	int argc = 11;
	char fs[6][16];
	for (int i = 0; i < 6; i++) {
		snprintf(fs[i], sizeof fs[i], "f%d=mkfs", i);
		many[argc++] = "--fs";
		many[argc++] = fs[i];
	}
	many[argc++] = "--";
	many[argc++] = "true";
	struct error err = { "" };
	assert_int_equal(matrix_options_parse(&o, argc, many, &err), -1);
	assert_non_null(strstr(err.msg, "cells: at most"));
}

static void test_stats(void **state)
{
	(void)state;
	struct matrix_cell *c = calloc(1, sizeof *c);
	double t[] = { 10.0, 10.2, 9.8, 30.0 };
	for (size_t i = 0; i < 4; i++) {
		c->runs[i].elapsed_s = t[i];
		c->runs[i].exit = i == 3 ? 1 : 0;   /* a failed run is left out */
	}
	c->nruns = 4;
	matrix_cell_stats(c);
	assert_true(fabs(c->elapsed_mean_s - 10.0) < 1e-9);
	assert_true(fabs(c->elapsed_sd_s - 0.2) < 1e-9);
	assert_false(matrix_cell_is_noisy(c));   /* CoV 2% */
	c->runs[2].elapsed_s = 9.0;
	matrix_cell_stats(c);
	assert_true(matrix_cell_is_noisy(c));    /* CoV > 3.5% */
	double v[] = { 5, 1, 4, 2, 3 };
	assert_true(matrix_percentile(v, 5, 50) == 3);
	assert_true(matrix_percentile(v, 5, 99) == 5);
	assert_true(isnan(matrix_percentile(v, 0, 50)));
	free(c);
}

static void test_fio(void **state)
{
	(void)state;
	struct matrix_run run;
	memset(&run, 0, sizeof run);
	assert_int_equal(matrix_fio_parse(fixture_path("matrix/fio.json"), &run), 0);
	assert_true(run.fio);
	/* bw_bytes 4,000,000 + 2,000,000 in MiB/s, the matrix's one unit */
	assert_true(fabs(run.fio_bw_MBps - 6e6 / 1048576) < 1e-9);
	assert_true(fabs(run.fio_iops - 1476.5) < 1e-9);
	assert_true(fabs(run.fio_clat_p99_us - 5500.0) < 1e-9);
	memset(&run, 0, sizeof run);
	assert_int_equal(matrix_fio_parse(fixture_path("matrix/result.txt"), &run), -1);
	assert_false(run.fio);
}

static void fill_run(struct matrix_run *run, double elapsed, double p50, double p99)
{
	run->elapsed_s = elapsed;
	run->writeback_s = elapsed / 4;
	run->read_MB = 1.5;
	run->written_MB = 98.5;
	run->cmd_read_MB = 250;       /* the tarball, read from another disk */
	run->cmd_written_MB = 60;
	run->probe_p50_us = p50;
	run->probe_p99_us = p99;
	run->exit = 0;
	run->probe_reads = isfinite(p50) ? 10 : 0;
	run->other_MB = matrix_other_MB(run);   /* 98.5 - 60 written; reads: 0 */
	run->quiet_wait_s = 1.0;
	snprintf(run->log, sizeof run->log, "/srv/x-c01-r1.log");
}

/* The probe's reads behind the intervals and verdicts: ext4's 10 idle reads (p50 100 µs,
 * p99 400: as its idle figures), cell 1's 400 reads (p50 160, p99 1000: the means of its
 * runs' figures, slower than idle), cell 3's 90 (p50 310, p99 4500).  xfs and cell 5
 * have none (a result without reads: untested). */
static void fixed_reads(struct matrix_result *r)
{
	double idle[10] = { 120, 80, 400, 95, 100, 90, 115, 100, 105, 110 }, reads[400];
	matrix_fs_idle(&r->fs[0], idle, 10);
	matrix_fs_idle(&r->fs[1], NULL, 0);
	for (size_t i = 0; i < 5; i++)
		matrix_cell_probe(&r->cells[i], NULL, 0, NULL, 0);
	for (size_t k = 0; k < 400; k++)   /* rank 200: 160; rank 396: 1000 */
		reads[k] = k < 199 ? 100 + (double)(k % 60) : k == 199 ? 160
			 : k < 395 ? 161 + (double)(k % 300) : 1000 + (double)(k - 395) * 10;
	matrix_cell_probe(&r->cells[0], reads, 400, idle, 10);
	for (size_t k = 0; k < 90; k++)   /* rank 45: 310; rank 90: 4500 */
		reads[k] = k < 44 ? 200 + (double)k : k == 44 ? 310 : k < 89 ? 320 + (double)k : 4500;
	matrix_cell_probe(&r->cells[2], reads, 90, idle, 10);
}

/* A fixed result: machine, a refused cell, a noisy one, a long option set, fio. */
static struct matrix_result *fixed_result(void)
{
	struct matrix_result *r = calloc(1, sizeof *r);
	struct replay_machine *m = &r->machine;
	snprintf(m->host, sizeof m->host, "lab1");
	snprintf(m->kernel, sizeof m->kernel, "6.18.0");
	snprintf(m->arch, sizeof m->arch, "x86_64");
	snprintf(m->cpu_model, sizeof m->cpu_model, "Example CPU @ 3.00GHz");
	m->cpus = 8;
	m->mem_total_kb = 16 * 1048576;
	snprintf(r->device, sizeof r->device, "sdb");
	snprintf(r->mount, sizeof r->mount, "/mnt/test");
	snprintf(r->probe, sizeof r->probe, "/mnt/test/probe");
	r->nfs = 2;
	snprintf(r->fs[0].name, sizeof r->fs[0].name, "ext4");
	snprintf(r->fs[0].fstype, sizeof r->fs[0].fstype, "ext4");
	snprintf(r->fs[0].mkfs, sizeof r->fs[0].mkfs, "mkfs.ext4 -q -F -E lazy_itable_init=0");
	r->fs[0].idle_p50_us = 100;
	r->fs[0].idle_p99_us = 400;
	snprintf(r->fs[1].name, sizeof r->fs[1].name, "xfs");
	snprintf(r->fs[1].fstype, sizeof r->fs[1].fstype, "xfs");
	snprintf(r->fs[1].mkfs, sizeof r->fs[1].mkfs, "mkfs.xfs -q -f");
	r->fs[1].idle_p50_us = 250;
	r->fs[1].idle_p99_us = NAN;
	snprintf(r->tunables, sizeof r->tunables, "scheduler=mq-deadline nr_requests=64 "
		 "read_ahead_kb=128 write_cache=write back iosched.fifo_batch=16 "
		 "iosched.read_expire=500 iosched.write_expire=5000");
	snprintf(r->command, sizeof r->command, "sh -c \"tar xf /srv/linux.tar\x1b[2J\"");
	const char *sched[] = { "mq-deadline", "mq-deadline", "bfq", "none", "bfq" };
	const char *opts[] = { "defaults", "data=journal", "noatime,commit=60,barrier=0", "noatime",
			       "defaults" };
	for (size_t i = 0; i < 5; i++) {
		struct matrix_cell *c = &r->cells[i];
		c->fs = i == 4;
		snprintf(c->sched, sizeof c->sched, "%s", sched[i]);
		snprintf(c->options, sizeof c->options, "%s", opts[i]);
		c->cache = MATRIX_COLD;
	}
	snprintf(r->cells[1].refused, sizeof r->cells[1].refused,
		 "EXT4-fs (sdb): Cannot change data mode on remount (reconfigure: Invalid argument); nothing was changed");
	fill_run(&r->cells[0].runs[0], 10.0, 150, 900);
	fill_run(&r->cells[0].runs[1], 10.4, 170, 1100);
	r->cells[0].nruns = 2;
	fill_run(&r->cells[2].runs[0], 8.0, 300, 4000);
	fill_run(&r->cells[2].runs[1], 9.5, 320, 5000);
	fill_run(&r->cells[2].runs[2], 11.0, 310, 4500);
	r->cells[2].nruns = 3;
	/* a run the device never went quiet before */
	r->cells[2].runs[1].busy_start = true;
	r->cells[2].runs[1].quiet_wait_s = 30.0;
	snprintf(r->cells[2].runs[1].writers, sizeof r->cells[2].runs[1].writers,
		 "ext4lazyinit, jbd2/sdb-8");
	r->fs[0].idle_busy_pct = 0.4;   /* the probe's own load, idle */
	r->fs[0].run_probe_interval_s = 0.1;
	r->fs[1].idle_busy_pct = NAN;   /* not measured: no line */
	r->fs[1].run_probe_interval_s = NAN;
	r->fs[1].idle_busy = true;
	r->fs[1].idle_quiet_wait_s = 30.0;
	snprintf(r->fs[1].idle_writers, sizeof r->fs[1].idle_writers, "xfsaild/sdb");
	fill_run(&r->cells[3].runs[0], 12.0, NAN, NAN);
	fill_run(&r->cells[3].runs[1], 99.0, NAN, NAN);
	r->cells[3].runs[1].exit = 2;
	r->cells[3].runs[0].fio = true;
	r->cells[3].runs[0].fio_bw_MBps = 120.5;
	r->cells[3].runs[0].fio_iops = 30123;
	r->cells[3].runs[0].fio_clat_p99_us = 2345;
	r->cells[3].nruns = 2;
	/* xfs: phases cut by the command's marks, and a run Ctrl-C stopped */
	for (size_t k = 0; k < 2; k++) {
		struct matrix_run *run = &r->cells[4].runs[k];
		fill_run(run, 20.0 + (double)k, 500, 4000);
		run->nphases = 2;
		snprintf(run->phases[0].label, sizeof run->phases[0].label, "untar");
		run->phases[0].seconds = 15.0 + (double)k;
		snprintf(run->phases[1].label, sizeof run->phases[1].label, "rmtree");
		run->phases[1].seconds = 4.5;
	}
	fill_run(&r->cells[4].runs[2], 3.0, 500, 4000);
	r->cells[4].runs[2].exit = 130;
	r->cells[4].runs[2].interrupted = 2;
	r->cells[4].nruns = 3;
	r->ncells = 5;
	for (size_t i = 0; i < 5; i++) {
		matrix_cell_stats(&r->cells[i]);
		r->cells[i].noisy = matrix_cell_is_noisy(&r->cells[i]);
	}
	fixed_reads(r);
	snprintf(r->status, sizeof r->status, "interrupted by signal 2 in cell 5");
	return r;
}

/* What one of the writers makes of r (malloc'ed). */
static char *written(int (*write)(FILE *, const struct matrix_result *),
		     const struct matrix_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(write(f, r), 0);
	fclose(f);
	return buf;
}

static void test_text_golden(void **state)
{
	(void)state;
	struct matrix_result *r = fixed_result();
	char *buf = written(matrix_write_text, r);
	const char *path = fixture_path("matrix/result.txt");
	if (getenv("UPDATE_GOLDEN")) {
		FILE *g = fopen(path, "w");
		fputs(buf, g);
		fclose(g);
	}
	FILE *g = fopen(path, "r");
	assert_non_null(g);
	char want[8192];
	size_t n = fread(want, 1, sizeof want - 1, g);
	want[n] = '\0';
	fclose(g);
	assert_string_equal(buf, want);
	free(buf);
	free(r);
}

/* o[key] (o[key][sub]) as a number, NAN when null or missing. */
static double jpath_double(json_object *o, const char *key, const char *sub)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || (sub && !json_object_object_get_ex(v, sub, &v)))
		return NAN;
	return v ? json_object_get_double(v) : NAN;
}

static const char *jpath_string(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "";
}

static void test_json_shape(void **state)
{
	(void)state;
	struct matrix_result *r = fixed_result();
	char *buf = written(matrix_write_json, r);
	if (!strstr(buf, "\"elapsed_mean_s\": 10.2"))
		fputs(buf, stderr);
	assert_non_null(strstr(buf, "\"refused\": \"EXT4-fs (sdb): Cannot change"));
	assert_non_null(strstr(buf, "\"refused\": null"));
	assert_non_null(strstr(buf, "\"probe_p50_us\": null"));
	assert_non_null(strstr(buf, "\"elapsed_mean_s\": 10.2"));
	assert_non_null(strstr(buf, "\"complete\": false"));
	/* per cell: its filesystem and that filesystem's idle probe */
	json_object *root = json_tokener_parse(buf), *cells, *fss;
	assert_true(json_object_object_get_ex(root, "cells", &cells));
	assert_true(json_object_object_get_ex(root, "filesystems", &fss));
	assert_int_equal(json_object_array_length(fss), 2);
	json_object *xfs = json_object_array_get_idx(cells, 4), *ext4 = json_object_array_get_idx(cells, 0);
	assert_string_equal(jpath_string(xfs, "fs"), "xfs");
	assert_string_equal(jpath_string(ext4, "fs"), "ext4");
	assert_true(jpath_double(ext4, "idle_probe", "p99_us") == 400);
	assert_true(jpath_double(xfs, "idle_probe", "p50_us") == 250);
	assert_true(isnan(jpath_double(xfs, "idle_probe", "p99_us")));   /* null */
	json_object *runs, *run, *phases;
	assert_true(json_object_object_get_ex(xfs, "runs", &runs));
	run = json_object_array_get_idx(runs, 0);
	assert_true(jpath_double(run, "command_read_MB", NULL) == 250);
	assert_true(jpath_double(run, "read_MB", NULL) == 1.5);
	assert_true(json_object_object_get_ex(run, "phases", &phases));
	assert_string_equal(jpath_string(json_object_array_get_idx(phases, 1), "mark"), "rmtree");
	assert_true(jpath_double(json_object_array_get_idx(phases, 1), "elapsed_s", NULL) == 4.5);
	assert_true(jpath_double(json_object_array_get_idx(runs, 2), "interrupted", NULL) == 2);
	assert_true(isnan(jpath_double(run, "interrupted", NULL)));
	json_object_put(root);
	free(buf);
	free(r);
}

/* The probe's own load over 1 %: the runs' interval brings it to 0.8 %, in tenths of a
 * second, at most 10 s; not over 1 % (or not measured), the interval given. */
static void test_probe_widened(void **state)
{
	(void)state;
	assert_true(matrix_probe_widened(0.1, 0.4) == 0.1);
	assert_true(matrix_probe_widened(0.1, 1.0) == 0.1);
	assert_true(matrix_probe_widened(0.1, NAN) == 0.1);
	assert_true(fabs(matrix_probe_widened(0.1, 1.68) - 0.3) < 1e-9);   /* 0.21 up to 0.3 */
	assert_true(fabs(matrix_probe_widened(0.1, 2.0) - 0.3) < 1e-9);    /* 0.25 */
	assert_true(fabs(matrix_probe_widened(1.0, 8.0) - 10.0) < 1e-9);   /* a seek a read */
	assert_true(fabs(matrix_probe_widened(1.0, 80.0) - 10.0) < 1e-9);  /* at most 10 s */
}

/* A quiet device before each run (issue 37): the I/O the command's own bytes do not
 * account for ("other"), the run that started on a busy device and what was at work,
 * in the text, the JSON and the CSV. */
static void test_quiet(void **state)
{
	(void)state;
	struct matrix_run run = { .read_MB = 1.5, .written_MB = 64, .cmd_read_MB = 250,
				  .cmd_written_MB = 0 };
	/* the command's tarball read from another disk hides nothing of the writes */
	assert_true(fabs(matrix_other_MB(&run) - 64) < 1e-9);
	run.cmd_read_MB = run.cmd_written_MB = NAN;   /* not readable: all of it is other */
	assert_true(fabs(matrix_other_MB(&run) - 65.5) < 1e-9);
	run.read_MB = NAN;
	assert_true(isnan(matrix_other_MB(&run)));
	struct matrix_result *r = fixed_result();
	char *text = written(matrix_write_text, r);
	assert_non_null(strstr(text, "    1 of 3 runs started on a busy device: sdb not quiet in 30 s\n"
				     "      at work: ext4lazyinit, jbd2/sdb-8\n"));
	assert_non_null(strstr(text, "moved, MiB    device   command     other  waited s\n"
				     " 1 ext4        100.0     310.0      38.5       1.0\n"));
	assert_non_null(strstr(text, "idle probe on xfs taken on a busy device (at work: xfsaild/sdb)"));
	assert_non_null(strstr(text, "\nprobe load idle on ext4: 0.40% of sdb's time, 10 reads\n"));
	assert_null(strstr(text, "probe load idle on xfs"));
	char *json = written(matrix_write_json, r), *csv = written(matrix_write_csv, r);
	json_object *root = json_tokener_parse(json), *cells, *runs, *fss;
	assert_true(json_object_object_get_ex(root, "cells", &cells));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(cells, 2), "runs", &runs));
	json_object *busy = json_object_array_get_idx(runs, 1), *b;
	assert_true(json_object_object_get_ex(busy, "busy_start", &b) && json_object_get_boolean(b));
	assert_string_equal(jpath_string(busy, "quiet_writers"), "ext4lazyinit, jbd2/sdb-8");
	assert_true(jpath_double(busy, "quiet_wait_s", NULL) == 30);
	assert_true(jpath_double(busy, "other_MB", NULL) == 38.5);
	assert_true(jpath_double(busy, "probe_reads", NULL) == 10);
	json_object *quiet = json_object_array_get_idx(runs, 0);
	assert_true(json_object_object_get_ex(quiet, "busy_start", &b) && !json_object_get_boolean(b));
	assert_true(json_object_object_get_ex(root, "filesystems", &fss));
	json_object *idle;
	assert_true(json_object_object_get_ex(json_object_array_get_idx(fss, 1), "idle_probe", &idle));
	assert_true(json_object_object_get_ex(idle, "busy_start", &b) && json_object_get_boolean(b));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(fss, 0), "idle_probe", &idle));
	assert_true(jpath_double(idle, "device_busy_pct", NULL) == 0.4);
	assert_true(jpath_double(idle, "run_probe_interval_s", NULL) == 0.1);
	assert_non_null(strstr(csv, ",38.5,30,1,\"ext4lazyinit, jbd2/sdb-8\",10\n"));
	assert_non_null(strstr(csv, ",38.5,1,0,,10\n"));
	assert_null(strstr(text, "the runs after it probed"));   /* 0.40 %: not widened */
	/* over 1 %: the interval the runs used, under the load's line */
	r->fs[0].idle_busy_pct = 1.68;
	r->fs[0].run_probe_interval_s = 0.3;
	char *over = written(matrix_write_text, r);
	assert_non_null(strstr(over, "\nprobe load idle on ext4: 1.68% of sdb's time, 10 reads "
				     "(over 1%)\n  the runs after it probed every 0.3 s\n"));
	free(over);
	/* the longest names and figures stay within 80 columns */
	snprintf(r->fs[0].name, sizeof r->fs[0].name, "ext4-journal-xx");
	snprintf(r->device, sizeof r->device, "nvme10n1p12");
	r->fs[0].idle_busy_pct = 100;
	r->fs[0].idle_reads = 99999;
	snprintf(r->fs[1].name, sizeof r->fs[1].name, "xfs-reflink-xx1");
	snprintf(r->fs[1].idle_writers, sizeof r->fs[1].idle_writers,
		 "xfsaild/nvme10n1p12, kworker/u8:2+flush-259:12, jbd2/nvme10n1p12-8");
	char *wide = written(matrix_write_text, r);
	for (const char *l = wide; *l;) {
		size_t n = strcspn(l, "\n");
		if (n > 80 && (strncmp(l, "probe load", 10) == 0 || strncmp(l, "idle probe", 10) == 0))
			fail_msg("%zu columns: %.*s", n, (int)n, l);
		l += n + (l[n] == '\n');
	}
	free(wide);
	json_object_put(root);
	free(text);
	free(json);
	free(csv);
	free(r);
}

/* Each figure with its 95 % interval, each ratio with its verdict (issue 37): in the
 * figures, and in the JSON and CSV. */
static void test_uncertainty(void **state)
{
	(void)state;
	struct matrix_result *r = fixed_result();
	struct matrix_cell_figures f;
	matrix_cell_figures(r, 0, &f);   /* the baseline: 10.0 and 10.4 s */
	assert_int_equal(f.ratio.verdict, MATRIX_BASELINE);
	assert_true(f.elapsed.n == 2 && fabs(f.elapsed.half - 12.7062047 * 0.2) < 1e-6);
	assert_int_equal(f.p50x.verdict, MATRIX_DIFFERS);   /* 400 reads against 10 idle */
	assert_true(f.p50x.p < 0.05);
	assert_int_equal(f.p99x.verdict, MATRIX_TOO_FEW);   /* 10 idle reads: no upper bound */
	matrix_cell_figures(r, 2, &f);   /* 8.0, 9.5, 11.0 s against the baseline's */
	assert_int_equal(f.ratio.verdict, MATRIX_WITHIN_NOISE);
	assert_true(fabs(f.ratio.value - 9.5 / 10.2) < 1e-9 && f.ratio.p > 0.05);
	matrix_cell_figures(r, 3, &f);   /* one run that exited 0 */
	assert_int_equal(f.ratio.verdict, MATRIX_UNTESTED);
	assert_true(isnan(f.elapsed.half) && isnan(f.ratio.p));
	matrix_cell_figures(r, 4, &f);   /* 20 and 21 s: twice the baseline */
	assert_int_equal(f.ratio.verdict, MATRIX_DIFFERS);
	assert_true(f.ratio.p < 0.05);
	assert_int_equal(f.p50x.verdict, MATRIX_UNTESTED);   /* no reads kept */
	/* the runs' MiB/s, each the device's MiB over its elapsed time */
	assert_true(fabs(f.mbps.mean - (100.0 / 20 + 100.0 / 21) / 2) < 1e-9);
	/* p99x by the intervals: apart, overlapping, or without a bound */
	struct matrix_cell *c = &r->cells[0];
	struct matrix_fs *fs = &r->fs[0];
	fs->idle_p99_lo_us = 300, fs->idle_p99_hi_us = 450;
	c->probe_p99_lo_us = 900, c->probe_p99_hi_us = 1100;
	matrix_cell_figures(r, 0, &f);
	assert_int_equal(f.p99x.verdict, MATRIX_DIFFERS);
	c->probe_p99_lo_us = 420;
	matrix_cell_figures(r, 0, &f);
	assert_int_equal(f.p99x.verdict, MATRIX_WITHIN_NOISE);
	char *json = written(matrix_write_json, r), *csv = written(matrix_write_csv, r);
	json_object *root = json_tokener_parse(json), *cells, *ratio, *probe, *p50x;
	assert_true(json_object_object_get_ex(root, "cells", &cells));
	json_object *xfs = json_object_array_get_idx(cells, 4);
	assert_true(json_object_object_get_ex(xfs, "ratio", &ratio));
	assert_string_equal(jpath_string(ratio, "verdict"), "differs");
	assert_string_equal(jpath_string(ratio, "test"), "welch");
	assert_true(jpath_double(ratio, "p", NULL) < 0.05);
	assert_true(jpath_double(xfs, "elapsed_ci95_s", NULL) > 0);
	json_object *ext4 = json_object_array_get_idx(cells, 0);
	assert_true(json_object_object_get_ex(ext4, "probe", &probe));
	assert_true(jpath_double(probe, "reads", NULL) == 400);
	assert_true(json_object_object_get_ex(probe, "p50x", &p50x));
	assert_string_equal(jpath_string(p50x, "verdict"), "differs");
	assert_true(jpath_double(ext4, "idle_probe", "reads") == 10);
	assert_non_null(strstr(csv, ",p50x,p50x_p,p50x_verdict,p99x,p99x_p,p99x_verdict,"
			       MATRIX_CSV_QUIET_HEADER "\n"));
	assert_non_null(strstr(csv, ",baseline,400,"));
	json_object_put(root);
	free(json);
	free(csv);
	free(r);
}

/* Fields of a CSV line, commas in quotes not counted. */
static size_t csv_fields(const char *line)
{
	size_t fields = 1;
	bool quoted = false;
	for (const char *p = line; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		fields += *p == ',' && !quoted;
	}
	return fields;
}

/* Every row has the header's fields, a refused cell's too; the fs and the command's own
 * I/O in their columns. */
static void test_csv(void **state)
{
	(void)state;
	struct matrix_result *r = fixed_result();
	char *buf = written(matrix_write_csv, r);
	size_t header = 0, rows = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"), rows++) {
		if (!rows)
			header = csv_fields(line);
		assert_int_equal(csv_fields(line), header);
		if (rows == 0)
			assert_non_null(strstr(line, "cell,fs,scheduler,"));
		if (rows == 1)   /* the device's MB/s, then the command's own bytes */
			assert_non_null(strstr(line, "1,ext4,mq-deadline,defaults,cold,,1,10,2.5,1.5,98.5,10,"
						     "250,60,"));
		if (rows == 9)
			assert_non_null(strstr(line, "5,xfs,bfq,"));
		if (rows == 9)
			assert_non_null(strstr(line, ",untar=15;rmtree=4.5"));
		if (rows == 11)
			assert_non_null(strstr(line, ",130,2,/srv/x-c01-r1.log,"));
	}
	assert_int_equal(rows, 12);   /* the header, 2 + 1 refused + 3 + 2 + 3 runs */
	free(buf);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options), cmocka_unit_test(test_stats), cmocka_unit_test(test_fio),
		cmocka_unit_test(test_text_golden), cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_probe_widened),
		cmocka_unit_test(test_filesystems), cmocka_unit_test(test_csv),
		cmocka_unit_test(test_uncertainty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
