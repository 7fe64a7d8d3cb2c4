/* ioscope matrix: the command line, a cell's figures, fio's JSON and the text result
 * (golden file tests/fixtures/matrix/result.txt; UPDATE_GOLDEN=1 rewrites it). */
#include "unit.h"

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
	assert_true(fabs(run.fio_bw_MBps - 6.0) < 1e-9);
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
	run->probe_p50_us = p50;
	run->probe_p99_us = p99;
	run->exit = 0;
	snprintf(run->log, sizeof run->log, "/srv/x-c01-r1.log");
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
	snprintf(r->fstype, sizeof r->fstype, "ext4");
	snprintf(r->mount, sizeof r->mount, "/mnt/test");
	snprintf(r->tunables, sizeof r->tunables, "scheduler=mq-deadline nr_requests=64 "
		 "read_ahead_kb=128 write_cache=write back iosched.fifo_batch=16 "
		 "iosched.read_expire=500 iosched.write_expire=5000");
	snprintf(r->command, sizeof r->command, "sh -c \"tar xf /srv/linux.tar\x1b[2J\"");
	r->idle_p50_us = 100;
	r->idle_p99_us = 400;
	const char *sched[] = { "mq-deadline", "mq-deadline", "bfq", "none" };
	const char *opts[] = { "defaults", "data=journal", "noatime,commit=60,barrier=0", "noatime" };
	for (size_t i = 0; i < 4; i++) {
		struct matrix_cell *c = &r->cells[i];
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
	fill_run(&r->cells[3].runs[0], 12.0, NAN, NAN);
	fill_run(&r->cells[3].runs[1], 99.0, NAN, NAN);
	r->cells[3].runs[1].exit = 2;
	r->cells[3].runs[0].fio = true;
	r->cells[3].runs[0].fio_bw_MBps = 120.5;
	r->cells[3].runs[0].fio_iops = 30123;
	r->cells[3].runs[0].fio_clat_p99_us = 2345;
	r->cells[3].nruns = 2;
	r->ncells = 4;
	for (size_t i = 0; i < 4; i++) {
		matrix_cell_stats(&r->cells[i]);
		r->cells[i].noisy = matrix_cell_is_noisy(&r->cells[i]);
	}
	snprintf(r->status, sizeof r->status, "interrupted by signal 2 in cell 4");
	return r;
}

static void test_text_golden(void **state)
{
	(void)state;
	struct matrix_result *r = fixed_result();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(matrix_write_text(f, r), 0);
	fclose(f);
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

static void test_json_shape(void **state)
{
	(void)state;
	struct matrix_result *r = fixed_result();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(matrix_write_json(f, r), 0);
	fclose(f);
	if (!strstr(buf, "\"elapsed_mean_s\": 10.2"))
		fputs(buf, stderr);
	assert_non_null(strstr(buf, "\"refused\": \"EXT4-fs (sdb): Cannot change"));
	assert_non_null(strstr(buf, "\"refused\": null"));
	assert_non_null(strstr(buf, "\"probe_p50_us\": null"));
	assert_non_null(strstr(buf, "\"elapsed_mean_s\": 10.2"));
	assert_non_null(strstr(buf, "\"complete\": false"));
	free(buf);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options), cmocka_unit_test(test_stats), cmocka_unit_test(test_fio),
		cmocka_unit_test(test_text_golden), cmocka_unit_test(test_json_shape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
