/* test_theme.c - theme files: values, per-key fallback, unknown keys, broken files
 * (message names file and line, default theme kept), lookup order, the shipped
 * themes, colour reduction for 256/16/8-colour terminals. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "theme.h"

static void go_top(void)
{
	const char *top = getenv("IOSCOPE_TOP");
	if (top)
		assert_int_equal(chdir(top), 0);
}

static void test_style_values(void **state)
{
	(void)state;
	struct theme_style s;
	struct error err;
	assert_int_equal(theme_parse_style("black on #5fafd7 bold", &s, &err), 0);
	assert_int_equal(s.fg.kind, THEME_COLOR_ANSI);
	assert_int_equal(s.fg.ansi, 0);
	assert_int_equal(s.bg.kind, THEME_COLOR_RGB);
	assert_int_equal(s.bg.rgb, 0x5fafd7);
	assert_int_equal(s.attrs, THEME_ATTR_BOLD);
	assert_int_equal(theme_parse_style("bright-red underline reverse", &s, &err), 0);
	assert_int_equal(s.fg.ansi, 9);
	assert_int_equal(s.bg.kind, THEME_COLOR_DEFAULT);
	assert_int_equal(s.attrs, THEME_ATTR_UNDERLINE | THEME_ATTR_REVERSE);
	assert_int_equal(theme_parse_style("on grey", &s, &err), 0);
	assert_int_equal(s.bg.ansi, 8);
	assert_int_equal(theme_parse_style("#ABCDEF", &s, &err), 0);
	assert_int_equal(s.fg.rgb, 0xabcdef);

	assert_int_equal(theme_parse_style("purple", &s, &err), -1);
	assert_non_null(strstr(err.msg, "purple"));
	assert_int_equal(theme_parse_style("#12345", &s, &err), -1);
	assert_int_equal(theme_parse_style("red green", &s, &err), -1);
	assert_int_equal(theme_parse_style("red on", &s, &err), -1);
	assert_int_equal(theme_parse_style("", &s, &err), -1);
}

static void test_fallback_per_key(void **state)
{
	(void)state;
	struct theme t, def;
	struct theme_warnings w = { "", 0 };
	struct error err;
	theme_default(&def);
	assert_int_equal(theme_parse(&t, "# mine\n\nmark = #ff0000\n", "mine", "mine.theme", &w, &err), 0);
	assert_int_equal(w.count, 0);
	assert_string_equal(t.name, "mine");
	assert_int_equal(t.styles[TR_MARK].fg.rgb, 0xff0000);
	assert_memory_equal(&t.styles[TR_SELECTED], &def.styles[TR_SELECTED], sizeof def.styles[0]);
}

static void test_unknown_key_warns(void **state)
{
	(void)state;
	struct theme t;
	struct theme_warnings w = { "", 0 };
	struct error err;
	const char *path = fixture_path("themes/unknown-key.theme");
	char copy[4096];
	snprintf(copy, sizeof copy, "%s", path);
	assert_int_equal(theme_load_file(&t, copy, "unknown-key", &w, &err), 0);
	assert_int_equal(w.count, 2);
	assert_non_null(strstr(w.first, "unknown-key.theme:2:"));
	assert_non_null(strstr(w.first, "selcted"));
	/* the good line still applies, quotes and all */
	assert_int_equal(t.styles[TR_MARK].fg.rgb, 0xff00ff);
	assert_int_equal(t.styles[TR_MARK].attrs, THEME_ATTR_BOLD);
}

static void expect_broken(const char *file, const char *where, const char *what)
{
	struct theme t, def;
	struct theme_warnings w = { "", 0 };
	struct error err = { "" };
	char path[4096];
	snprintf(path, sizeof path, "%s", fixture_path(file));
	theme_default(&def);
	assert_int_equal(theme_load_file(&t, path, "x", &w, &err), -1);
	assert_non_null(strstr(err.msg, where));
	assert_non_null(strstr(err.msg, what));
	/* all of the default, none of the file */
	assert_memory_equal(t.styles, def.styles, sizeof def.styles);
	assert_string_equal(t.name, "default");
}

/* A FIFO as a theme blocked open() forever; a symlink loop was "not found". */
static void test_fifo_and_symlink_loop(void **state)
{
	(void)state;
	char dir[] = "/tmp/ioscope-unit-theme-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char themes[300], fifo[400], loop[400];
	snprintf(themes, sizeof themes, "%s/ioscope/themes", dir);
	char sub[300];
	snprintf(sub, sizeof sub, "%s/ioscope", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mkdir(themes, 0700), 0);
	snprintf(fifo, sizeof fifo, "%s/fifo.theme", themes);
	snprintf(loop, sizeof loop, "%s/loop.theme", themes);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink("loop.theme", loop), 0);
	setenv("XDG_CONFIG_HOME", dir, 1);
	struct theme t;
	struct error err = { "" };
	alarm(10);
	assert_int_equal(theme_load(&t, "fifo", NULL, &err), -1);
	alarm(0);
	assert_non_null(strstr(err.msg, "a FIFO, not a regular file"));
	assert_int_equal(theme_load(&t, "loop", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "loop.theme: Too many levels of symbolic links"));
	assert_string_equal(t.name, "default");
	unsetenv("XDG_CONFIG_HOME");
	unlink(fifo);
	unlink(loop);
	rmdir(themes);
	rmdir(sub);
	rmdir(dir);
}

static void test_broken_files(void **state)
{
	(void)state;
	expect_broken("themes/broken-syntax.theme", "broken-syntax.theme:4:", "key = value");
	expect_broken("themes/broken-color.theme", "broken-color.theme:2:", "#12345g");
	expect_broken("themes/broken-on.theme", "broken-on.theme:1:", "background");
	expect_broken("themes/does-not-exist.theme", "does-not-exist.theme", "No such file");
}

static void test_crlf(void **state)
{
	(void)state;
	struct theme t;
	struct error err;
	char path[4096];
	snprintf(path, sizeof path, "%s", fixture_path("themes/crlf.theme"));
	assert_int_equal(theme_load_file(&t, path, "crlf", NULL, &err), 0);
	assert_int_equal(t.styles[TR_NORMAL].bg.ansi, 4);
}

/* Every shipped theme parses cleanly and sets every key. */
static void test_shipped_themes(void **state)
{
	(void)state;
	go_top();
	const char *names[] = { "default", "light", "high-contrast", "monochrome" };
	for (size_t i = 0; i < 4; i++) {
		char path[256];
		snprintf(path, sizeof path, "themes/%s.theme", names[i]);
		struct theme t;
		struct theme_warnings w = { "", 0 };
		struct error err = { "" };
		assert_int_equal(theme_load_file(&t, path, names[i], &w, &err), 0);
		assert_int_equal(w.count, 0);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		char line[512];
		bool seen[TR_COUNT] = { false };
		while (fgets(line, sizeof line, f)) {
			char key[64];
			if (line[0] != '#' && sscanf(line, " %63[a-z_] =", key) == 1 && theme_role_from_name(key) >= 0)
				seen[theme_role_from_name(key)] = true;
		}
		fclose(f);
		for (int r = 0; r < TR_COUNT; r++)
			if (!seen[r])
				fail_msg("%s lacks key %s", path, theme_role_name(r));
	}
	/* themes/default.theme is the built-in default, spelled out */
	struct theme file, builtin;
	struct error err;
	theme_default(&builtin);
	assert_int_equal(theme_load_file(&file, "themes/default.theme", "default", NULL, &err), 0);
	assert_memory_equal(file.styles, builtin.styles, sizeof builtin.styles);
}

static void test_lookup_order(void **state)
{
	(void)state;
	go_top();
	char dir[] = "/tmp/ioscope-theme-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char sub[256], path[300];
	snprintf(sub, sizeof sub, "%s/ioscope", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof sub, "%s/ioscope/themes", dir);
	mkdir(sub, 0700);
	/* a user theme named like a shipped one wins */
	snprintf(path, sizeof path, "%s/light.theme", sub);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("mark = #010203\n", f);
	fclose(f);
	setenv("XDG_CONFIG_HOME", dir, 1);
	struct theme t;
	struct error err;
	assert_int_equal(theme_load(&t, "light", NULL, &err), 0);
	assert_int_equal(t.styles[TR_MARK].fg.rgb, 0x010203);
	assert_string_equal(t.path, path);
	/* found in ./themes when not in the user's directory */
	assert_int_equal(theme_load(&t, "monochrome", NULL, &err), 0);
	assert_non_null(strstr(t.path, "monochrome.theme"));
	/* a path is taken as it is */
	assert_int_equal(theme_load(&t, path, NULL, &err), 0);
	assert_string_equal(t.name, "light");
	/* unknown: an error naming the places looked in, and the default */
	assert_int_equal(theme_load(&t, "no-such-theme", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "no-such-theme"));
	assert_non_null(strstr(err.msg, sub));
	assert_string_equal(t.name, "default");
	/* the list for cycling: sorted, unique, default among them */
	char **names;
	size_t n = theme_names(&names);
	assert_true(n >= 4);
	bool have_default = false, have_light = false;
	for (size_t i = 0; i < n; i++) {
		have_default |= strcmp(names[i], "default") == 0;
		have_light |= strcmp(names[i], "light") == 0;
		if (i)
			assert_true(strcmp(names[i - 1], names[i]) < 0);
	}
	assert_true(have_default && have_light);
	theme_names_free(names, n);
	unlink(path);
	rmdir(sub);
	snprintf(sub, sizeof sub, "%s/ioscope", dir);
	rmdir(sub);
	rmdir(dir);
	unsetenv("XDG_CONFIG_HOME");
}

static void test_color_reduction(void **state)
{
	(void)state;
	assert_int_equal(theme_rgb_to_256(0xff0000), 196);
	assert_int_equal(theme_rgb_to_256(0x000000), 16);
	assert_int_equal(theme_rgb_to_256(0xffffff), 231);
	assert_int_equal(theme_rgb_to_256(0x808080), 244);   /* grey ramp beats the cube */
	assert_int_equal(theme_rgb_to_256(0x5fafd7), 74);
	assert_int_equal(theme_rgb_to_ansi(0xff0000, 8), 1);
	assert_int_equal(theme_rgb_to_ansi(0xff0000, 16), 9);
	assert_int_equal(theme_rgb_to_ansi(0xe6c84d, 8), 3);
	assert_int_equal(theme_rgb_to_ansi(0x101010, 8), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_style_values),
		cmocka_unit_test(test_fallback_per_key),
		cmocka_unit_test(test_unknown_key_warns),
		cmocka_unit_test(test_broken_files),
		cmocka_unit_test(test_fifo_and_symlink_loop),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_shipped_themes),
		cmocka_unit_test(test_lookup_order),
		cmocka_unit_test(test_color_reduction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
