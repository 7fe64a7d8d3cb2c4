/* test_console_config.c - the console's config file: every key, bad lines named
 * by file and line and skipped (the rest still applies), unknown keys warned. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "console_config.h"

static void test_defaults(void **state)
{
	(void)state;
	struct console_config c;
	console_config_default(&c);
	assert_float_equal(c.interval, 1.0, 0);
	assert_false(c.interval_set);
	assert_string_equal(c.theme, "default");
	assert_string_equal(c.graph, "MB/s");
	assert_float_equal(c.history, 3600, 0);
	assert_true(c.mouse);
}

static void test_every_key(void **state)
{
	(void)state;
	struct console_config c;
	struct error err = { "" };
	char warn[256] = "";
	unsigned nwarn = 0;
	char path[4096];
	snprintf(path, sizeof path, "%s", fixture_path("config/full.config"));
	console_config_default(&c);
	assert_int_equal(console_config_load(&c, path, &err, warn, sizeof warn, &nwarn), 0);
	assert_int_equal(nwarn, 0);
	assert_float_equal(c.interval, 0.5, 0);
	assert_true(c.interval_set);
	assert_string_equal(c.theme, "light");
	assert_string_equal(c.columns, "r/s, w/s, %util, scheduler");
	assert_string_equal(c.graph, "IOPS");
	assert_string_equal(c.sort, "%util");
	assert_true(c.sort_reverse);
	assert_true(c.partitions);
	assert_float_equal(c.history, 7200, 0);
	assert_int_equal(c.graph_style, GRAPH_STYLE_BLOCK);
	assert_float_equal(c.util_warn, 50, 0);
	assert_float_equal(c.util_crit, 80, 0);
	assert_float_equal(c.await_warn, 5, 0);
	assert_float_equal(c.await_crit, 50, 0);
	assert_false(c.mouse);
}

static void test_bad_lines_skipped(void **state)
{
	(void)state;
	struct console_config c;
	struct error err = { "" };
	char warn[256] = "";
	unsigned nwarn = 0;
	char path[4096];
	snprintf(path, sizeof path, "%s", fixture_path("config/mixed.config"));
	console_config_default(&c);
	int bad = console_config_load(&c, path, &err, warn, sizeof warn, &nwarn);
	/* interval = fast, bogus column, unknown sort column, no '=', history too short */
	assert_int_equal(bad, 5);
	assert_non_null(strstr(err.msg, "mixed.config:2:"));
	assert_non_null(strstr(err.msg, "interval"));
	assert_int_equal(nwarn, 1);
	assert_non_null(strstr(warn, "mixed.config:7:"));
	assert_non_null(strstr(warn, "frobnicate"));
	/* good lines apply, bad ones leave the value as it was */
	assert_float_equal(c.interval, 0.5, 0);
	assert_string_equal(c.columns, "r/s rMB/s r_await w/s wMB/s w_await aqu-sz %util in_flight scheduler");
	assert_string_equal(c.sort, "");
	assert_float_equal(c.history, 3600, 0);
	assert_string_equal(c.theme, "high-contrast");
}

static void test_values_checked(void **state)
{
	(void)state;
	struct console_config c;
	struct error err = { "" };
	console_config_default(&c);
	assert_int_equal(console_config_parse(&c, "interval = 0.001\n", "f", &err, NULL, 0, NULL), 1);
	assert_non_null(strstr(err.msg, "0.01"));
	assert_int_equal(console_config_parse(&c, "interval = 3601", "f", &err, NULL, 0, NULL), 1);
	assert_int_equal(console_config_parse(&c, "graph = sparkles\n", "f", &err, NULL, 0, NULL), 1);
	assert_int_equal(console_config_parse(&c, "partitions = maybe\n", "f", &err, NULL, 0, NULL), 1);
	assert_int_equal(console_config_parse(&c, "graph_style = fancy\n", "f", &err, NULL, 0, NULL), 1);
	assert_int_equal(console_config_parse(&c, "theme =\n", "f", &err, NULL, 0, NULL), 1);
	assert_int_equal(console_config_parse(&c, "graph = dirty/writeback\nsort = device\n", "f", &err,
					      NULL, 0, NULL), 0);
	assert_string_equal(c.graph, "dirty/writeback");
	assert_string_equal(c.sort, "");
	assert_int_equal(console_config_parse(&c, "graph = \"in-flight\"\n", "f", &err, NULL, 0, NULL), 0);
	assert_string_equal(c.graph, "in-flight");
}

static void test_absent_file_is_fine(void **state)
{
	(void)state;
	struct console_config c;
	struct error err = { "" };
	console_config_default(&c);
	assert_int_equal(console_config_load(&c, "/nonexistent/ioscope/config", &err, NULL, 0, NULL), 0);
	setenv("XDG_CONFIG_HOME", "/x/y", 1);
	char path[256];
	console_config_path(path, sizeof path);
	assert_string_equal(path, "/x/y/ioscope/config");
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/someone", 1);
	console_config_path(path, sizeof path);
	assert_string_equal(path, "/home/someone/.config/ioscope/config");
}

static int load(const char *path, struct error *err)
{
	struct console_config c;
	console_config_default(&c);
	return console_config_load(&c, path, err, NULL, 0, NULL);
}

/* A FIFO blocked open() forever (and /dev/zero filled 64 KB of NULs): refused,
 * at once, naming the path.  alarm() turns a hang into a failure. */
static void test_special_files_refused(void **state)
{
	(void)state;
	char fifo[] = "/tmp/ioscope-unit-config-fifo-XXXXXX";
	assert_non_null(mkdtemp(fifo));
	char path[256];
	snprintf(path, sizeof path, "%s/config", fifo);
	assert_int_equal(mkfifo(path, 0600), 0);
	struct error err = { "" };
	alarm(10);
	assert_int_not_equal(load(path, &err), 0);
	alarm(0);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "a FIFO, not a regular file"));
	assert_int_not_equal(load("/dev/zero", &err), 0);
	assert_non_null(strstr(err.msg, "/dev/zero: a character device"));
	unlink(path);
	rmdir(fifo);
}

static void test_too_large_and_nul(void **state)
{
	(void)state;
	char path[] = "/tmp/ioscope-unit-config-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	for (int i = 0; i < 3000; i++)   /* 3000 valid lines, 84 KB */
		fprintf(f, "# a comment line that is valid %d\n", i);
	fclose(f);
	struct error err = { "" };
	assert_int_not_equal(load(path, &err), 0);
	assert_non_null(strstr(err.msg, "too large for a config file"));
	f = fopen(path, "w");
	fputs("interval = 2\n# fine\n", f);
	fwrite("theme = x\0graph = MB/s\n", 1, 24, f);
	fclose(f);
	assert_int_not_equal(load(path, &err), 0);
	assert_non_null(strstr(err.msg, ":3: a NUL byte"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_bad_lines_skipped),
		cmocka_unit_test(test_values_checked),
		cmocka_unit_test(test_absent_file_is_fine),
		cmocka_unit_test(test_special_files_refused),
		cmocka_unit_test(test_too_large_and_nul),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
