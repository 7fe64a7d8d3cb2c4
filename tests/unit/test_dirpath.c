/* test_dirpath.c - a directory opened one component at a time: directories, "..", root's
 * symlinks followed (relative, absolute, chained), anyone else's refused at the mount
 * point or on the way, loops and non-directories refused; dirpath_open_node the same, to
 * whatever the path ends at; dirpath_open_parent an output file's directory and name, the
 * user's own links followed too.  A link owned by another user is made with lchown, which
 * needs root; without root every link is the caller's, not root's, and must be refused. */
#include "unit.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirpath.h"

#define OTHER_UID 65534

static char top[64];

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof top, "/tmp/ioscope-dirpath.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	char cmd[512];
	snprintf(cmd, sizeof cmd,
		 "cd %s && mkdir -p real/sub other && touch file && ln -s real rel && "
		 "ln -s %s/real abs && ln -s rel chain && ln -s loop1 loop2 && ln -s loop2 loop1 "
		 "&& ln -s real theirs && ln -s theirs to-theirs && ln -s file to-file", top, top);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

/* The path the descriptor dirpath_open gives for top/rel is, or "" with err. */
static const char *opened(const char *rel, struct error *err)
{
	static char got[PATH_MAX];
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", top, rel);
	got[0] = '\0';
	int fd = dirpath_open(path, err);
	if (fd < 0)
		return got;
	int flags = fcntl(fd, F_GETFL);
	assert_true(flags & O_PATH);
	assert_int_equal(dirpath_of_fd(fd, got, sizeof got), 0);
	close(fd);
	return got;
}

static void expect_dir(const char *rel, const char *want_rel)
{
	struct error err = { "" };
	char want[PATH_MAX];
	snprintf(want, sizeof want, "%s/%s", top, want_rel);
	const char *got = opened(rel, &err);
	if (strcmp(got, want) != 0)
		fail_msg("%s: got '%s' (%s), want '%s'", rel, got, err.msg, want);
}

static void expect_refused(const char *rel, const char *text)
{
	struct error err = { "" };
	const char *got = opened(rel, &err);
	if (got[0] || !strstr(err.msg, text))
		fail_msg("%s: got '%s', error '%s', want an error with '%s'", rel, got, err.msg,
			 text);
}

static void test_directories(void **state)
{
	(void)state;
	expect_dir("real", "real");
	expect_dir("real/sub", "real/sub");
	expect_dir("real//sub/", "real/sub");
	expect_dir("real/sub/../sub/.", "real/sub");
	expect_refused("file", "Not a directory");
	expect_refused("real/none", "No such file");
	struct error err = { "" };
	assert_int_equal(dirpath_open("", &err), -1);
	int fd = dirpath_open("/", &err);
	assert_true(fd >= 0);
	close(fd);
}

static void test_links_of_root(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		/* every link here is ours, not root's: none is followed */
		expect_refused("rel", "not root: refused");
		expect_refused("abs/sub", "passes through");
		skip();
	}
	expect_dir("rel", "real");              /* relative target */
	expect_dir("abs/sub", "real/sub");      /* absolute target, then more components */
	expect_dir("chain/sub/..", "real");     /* a link to a link */
	expect_refused("loop1", "Too many levels of symbolic links");
	expect_refused("to-file", "Not a directory");
}

static void test_links_of_others(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();   /* lchown to another user needs root */
	char path[PATH_MAX], want[2 * PATH_MAX];
	snprintf(path, sizeof path, "%s/theirs", top);
	assert_int_equal(lchown(path, OTHER_UID, OTHER_UID), 0);
	snprintf(want, sizeof want, "%s/theirs is a symlink owned by uid %d, not root: refused",
		 top, OTHER_UID);
	expect_refused("theirs", want);
	snprintf(want, sizeof want, "passes through %s/theirs, a symlink owned by uid %d", top,
		 OTHER_UID);
	expect_refused("theirs/sub", want);
	expect_refused("to-theirs", want);   /* root's link leading to theirs */
	assert_int_equal(lchown(path, 0, 0), 0);
	expect_dir("to-theirs/sub", "real/sub");
}

/* dirpath_open_node: the same walk, ending at anything (here a file; a device node in use) */
static void expect_node(const char *rel, const char *want_rel)
{
	struct error err = { "" };
	char path[PATH_MAX], want[PATH_MAX], got[PATH_MAX] = "";
	snprintf(path, sizeof path, "%s/%s", top, rel);
	snprintf(want, sizeof want, "%s/%s", top, want_rel);
	int fd = dirpath_open_node(path, &err);
	if (fd >= 0) {
		assert_true(fcntl(fd, F_GETFL) & O_PATH);
		assert_int_equal(dirpath_of_fd(fd, got, sizeof got), 0);
		close(fd);
	}
	if (strcmp(got, want) != 0)
		fail_msg("%s: got '%s' (%s), want '%s'", rel, got, err.msg, want);
}

static void expect_node_refused(const char *rel, const char *text)
{
	struct error err = { "" };
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", top, rel);
	int fd = dirpath_open_node(path, &err);
	if (fd >= 0)
		close(fd);
	if (fd >= 0 || !strstr(err.msg, text))
		fail_msg("%s: opened (%d), error '%s', want an error with '%s'", rel, fd, err.msg,
			 text);
}

static void test_nodes(void **state)
{
	(void)state;
	expect_node("file", "file");
	expect_node("real/sub", "real/sub");
	expect_node_refused("file/", "Not a directory");
	expect_node_refused("real/none", "No such file");
	if (geteuid() != 0) {
		expect_node_refused("to-file", "not root: refused");
		skip();
	}
	expect_node("to-file", "file");          /* root's link to it: followed */
	expect_node("abs/../file", "file");
	char path[PATH_MAX], want[2 * PATH_MAX];
	snprintf(path, sizeof path, "%s/to-file", top);
	assert_int_equal(lchown(path, OTHER_UID, OTHER_UID), 0);
	snprintf(want, sizeof want, "%s/to-file is a symlink owned by uid %d, not root: refused",
		 top, OTHER_UID);
	expect_node_refused("to-file", want);
	assert_int_equal(lchown(path, 0, 0), 0);
}

/* dirpath_open_parent: an output file's directory and its name there; the user's own
 * links followed too (here, without root, every link is the caller's) */
static void expect_parent(const char *rel, const char *want_dir, const char *want_name)
{
	struct error err = { "" };
	char path[PATH_MAX], want[PATH_MAX], got[PATH_MAX] = "", name[NAME_MAX + 1] = "";
	snprintf(path, sizeof path, "%s/%s", top, rel);
	snprintf(want, sizeof want, "%s%s%s", top, want_dir[0] ? "/" : "", want_dir);
	int fd = dirpath_open_parent(path, name, sizeof name, &err);
	if (fd >= 0) {
		assert_true(fcntl(fd, F_GETFL) & O_PATH);
		assert_int_equal(dirpath_of_fd(fd, got, sizeof got), 0);
		close(fd);
	}
	if (strcmp(got, want) != 0 || strcmp(name, want_name) != 0)
		fail_msg("%s: got '%s' '%s' (%s), want '%s' '%s'", rel, got, name, err.msg, want,
			 want_name);
}

static void expect_parent_refused(const char *rel, const char *text)
{
	struct error err = { "" };
	char path[PATH_MAX], name[NAME_MAX + 1];
	snprintf(path, sizeof path, "%s/%s", top, rel);
	int fd = dirpath_open_parent(path, name, sizeof name, &err);
	if (fd >= 0)
		close(fd);
	if (fd >= 0 || !strstr(err.msg, text))
		fail_msg("%s: opened (%d), error '%s', want an error with '%s'", rel, fd, err.msg,
			 text);
}

static void test_parents(void **state)
{
	(void)state;
	expect_parent("real/x.log", "real", "x.log");
	expect_parent("real/sub/../x", "real", "x");
	expect_parent("file", "", "file");   /* what is there is the writer's to look at */
	expect_parent_refused("real/", "Is a directory");
	expect_parent_refused("real/.", "Is a directory");
	expect_parent_refused("real/..", "Is a directory");
	expect_parent_refused("none/x", "No such file");
	expect_parent_refused("file/x", "Not a directory");
	struct error err = { "" };
	char name[NAME_MAX + 1];
	assert_int_equal(dirpath_open_parent("", name, sizeof name, &err), -1);
	int fd = dirpath_open_parent("/x", name, sizeof name, &err);
	assert_true(fd >= 0);
	assert_string_equal(name, "x");
	close(fd);
	expect_parent("rel/x", "real", "x");           /* the caller's link, or root's */
	expect_parent("chain/sub/x", "real/sub", "x");
	if (geteuid() != 0)
		skip();
	char path[PATH_MAX], want[2 * PATH_MAX];
	snprintf(path, sizeof path, "%s/theirs", top);
	assert_int_equal(lchown(path, OTHER_UID, OTHER_UID), 0);
	snprintf(want, sizeof want, "%s/theirs/x: passes through %s/theirs, a symlink owned by "
		 "uid %d, not root: refused", top, top, OTHER_UID);
	expect_parent_refused("theirs/x", want);
	expect_parent_refused("to-theirs/sub/x", "a symlink owned by uid 65534");
	assert_int_equal(lchown(path, 0, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directories),
		cmocka_unit_test(test_links_of_root),
		cmocka_unit_test(test_links_of_others),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_parents),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
