/* test_sysfs.c - sysfs value parsers, a disk's settings from a tree, and on the
 * live kernel (root only) a scheduler switch on a loop device of our own. */
#include "unit.h"

#include "sources_helpers.h"
#include "sysfs.h"

static char tmpdir[256];

static int setup(void **state)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/ioscope-test.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	rm_tree(tmpdir);
	return 0;
}

static void test_parse_scheduler(void **state)
{
	char a[32];
	assert_int_equal(sysfs_parse_scheduler("none [mq-deadline] kyber bfq", a, sizeof a), 0);
	assert_string_equal(a, "mq-deadline");
	assert_int_equal(sysfs_parse_scheduler("[none] mq-deadline kyber bfq ", a, sizeof a), 0);
	assert_string_equal(a, "none");
	assert_int_equal(sysfs_parse_scheduler("none kyber [bfq]\n", a, sizeof a), 0);
	assert_string_equal(a, "bfq");
	assert_int_equal(sysfs_parse_scheduler("none\n", a, sizeof a), 0);   /* no choice */
	assert_string_equal(a, "none");
	assert_int_equal(sysfs_parse_scheduler("", a, sizeof a), -1);
	assert_string_equal(a, "");
	assert_int_equal(sysfs_parse_scheduler("none bfq", a, sizeof a), -1);
	assert_int_equal(sysfs_parse_scheduler("[", a, sizeof a), -1);
	assert_int_equal(sysfs_parse_scheduler("[]", a, sizeof a), -1);
	assert_int_equal(sysfs_parse_scheduler("x [unterminated", a, sizeof a), -1);
	char small[4];
	assert_int_equal(sysfs_parse_scheduler("[mq-deadline]", small, sizeof small), 0);
	assert_string_equal(small, "mq-");
	assert_int_equal(sysfs_parse_scheduler("[x]", small, 0), -1);
}

static void test_parse_inflight_bool_value(void **state)
{
	long r = 7, w = 7;
	assert_int_equal(sysfs_parse_inflight("       0        3\n", &r, &w), 0);
	assert_int_equal(r, 0);
	assert_int_equal(w, 3);
	assert_int_equal(sysfs_parse_inflight("12 34", &r, &w), 0);
	assert_int_equal(r + w, 46);
	assert_int_equal(sysfs_parse_inflight("1", &r, &w), -1);
	assert_int_equal(sysfs_parse_inflight("1 2 3", &r, &w), -1);
	assert_int_equal(sysfs_parse_inflight("-1 2", &r, &w), -1);
	assert_int_equal(sysfs_parse_inflight("99999999999999999999999 2", &r, &w), -1);
	assert_int_equal(sysfs_parse_inflight("", &r, &w), -1);

	assert_int_equal(sysfs_parse_bool("1\n"), 1);
	assert_int_equal(sysfs_parse_bool("0"), 0);
	assert_int_equal(sysfs_parse_bool("2"), -1);
	assert_int_equal(sysfs_parse_bool("10"), -1);
	assert_int_equal(sysfs_parse_bool(""), -1);

	char v[8];
	assert_int_equal(sysfs_parse_value("write back\n", 11, v, sizeof v), 7);
	assert_string_equal(v, "write b");                     /* truncated to fit */
	assert_int_equal(sysfs_parse_value("a\tb\x01\n \n", 7, v, sizeof v), 4);
	assert_string_equal(v, "a?b?");                        /* control bytes masked */
	assert_int_equal(sysfs_parse_value("\n", 1, v, sizeof v), 0);
	assert_string_equal(v, "");
	assert_int_equal(sysfs_parse_value("x", 1, v, 0), 0);
}

static void assert_sorted(const struct disk_settings *st)
{
	for (size_t i = 1; i < st->nitems; i++)
		assert_true(strcmp(st->items[i - 1].key, st->items[i].key) < 0);
}

static const char *value_of(const struct disk_settings *st, const char *key)
{
	for (size_t i = 0; i < st->nitems; i++)
		if (strcmp(st->items[i].key, key) == 0)
			return st->items[i].value;
	return NULL;
}

static void free_settings(struct disk_settings *st)
{
	free(st->items);
	st->items = NULL;
	st->nitems = 0;
}

static void test_fixture_disk(void **state)
{
	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_true(sysfs_is_disk(fixture_path("layout20/1"), "vdb"));
	assert_false(sysfs_is_disk(fixture_path("layout20/1"), "vdb1"));
	assert_int_equal(sysfs_disk_open(&d, fixture_path("layout20/1"), "vdb", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_true(st.has_settings);
	assert_string_equal(st.scheduler, "mq-deadline");
	assert_string_equal(st.scheduler_line, "none [mq-deadline] kyber bfq");
	assert_int_equal(st.rotational, 0);
	assert_int_equal(st.inflight_read, 0);
	assert_int_equal(st.inflight_write, 3);
	const char *keys[] = { "iosched.fifo_batch", "iosched.front_merges", "iosched.read_expire",
			       "iosched.write_expire", "iosched.writes_starved", "max_sectors_kb",
			       "nr_requests", "read_ahead_kb", "write_cache" };
	assert_int_equal(st.nitems, 9);
	for (size_t i = 0; i < 9; i++)
		assert_string_equal(st.items[i].key, keys[i]);
	assert_string_equal(value_of(&st, "write_cache"), "write back");
	assert_string_equal(value_of(&st, "nr_requests"), "256");
	sysfs_disk_close(&d);
	free_settings(&st);
}

static void make_disk(const char *root, const char *sched, const char *const *iosched)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/sys/block/sdx/queue/scheduler", root);
	write_file(p, sched);
	snprintf(p, sizeof p, "%s/sys/block/sdx/queue/nr_requests", root);
	write_file(p, "64\n");
	snprintf(p, sizeof p, "%s/sys/block/sdx/queue/iosched", root);
	rm_tree(p);
	mkdir(p, 0755);
	for (; iosched && *iosched; iosched++) {
		snprintf(p, sizeof p, "%s/sys/block/sdx/queue/iosched/%s", root, *iosched);
		write_file(p, "1\n");
	}
}

static void test_relists_iosched_when_scheduler_changes(void **state)
{
	char root[512], p[4096];
	snprintf(root, sizeof root, "%s/relist", tmpdir);
	const char *deadline[] = { "fifo_batch", "read_expire", NULL };
	const char *bfq[] = { "slice_idle", "low_latency", "back_seek_max", NULL };
	make_disk(root, "none [mq-deadline] bfq\n", deadline);

	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdx", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_int_equal(st.nitems, 3);
	assert_string_equal(st.items[0].key, "iosched.fifo_batch");
	struct setting *before = st.items;
	/* Same files, new value: re-read through the same descriptor, no allocation. */
	snprintf(p, sizeof p, "%s/sys/block/sdx/queue/nr_requests", root);
	write_file(p, "32\n");
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_ptr_equal(st.items, before);
	assert_string_equal(value_of(&st, "nr_requests"), "32");

	make_disk(root, "none mq-deadline [bfq]\n", bfq);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(st.scheduler, "bfq");
	assert_int_equal(st.nitems, 4);
	assert_sorted(&st);
	assert_string_equal(st.items[0].key, "iosched.back_seek_max");
	assert_null(value_of(&st, "iosched.fifo_batch"));

	make_disk(root, "[none] mq-deadline bfq\n", NULL);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(st.scheduler, "none");
	assert_int_equal(st.nitems, 1);
	assert_string_equal(st.items[0].key, "nr_requests");
	sysfs_disk_close(&d);
	free_settings(&st);
}

static void test_missing_and_symlinked_files_absent(void **state)
{
	char root[512], p[4096], target[4096];
	snprintf(root, sizeof root, "%s/sparse", tmpdir);
	snprintf(p, sizeof p, "%s/sys/block/sdy/queue/read_ahead_kb", root);
	write_file(p, "128\n");
	snprintf(target, sizeof target, "%s/elsewhere", root);
	write_file(target, "999\n");
	snprintf(p, sizeof p, "%s/sys/block/sdy/queue/nr_requests", root);
	assert_int_equal(symlink(target, p), 0);

	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdy", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_true(st.has_settings);
	assert_string_equal(st.scheduler, "");
	assert_string_equal(st.scheduler_line, "");
	assert_int_equal(st.rotational, -1);
	assert_int_equal(st.inflight_read, -1);
	assert_int_equal(st.inflight_write, -1);
	assert_int_equal(st.nitems, 1);
	assert_string_equal(st.items[0].key, "read_ahead_kb");
	assert_null(value_of(&st, "nr_requests"));          /* a symlink is not the tunable */
	sysfs_disk_close(&d);
	free_settings(&st);

	/* A disk whose directory is gone entirely: nothing, and no error. */
	assert_int_equal(sysfs_disk_open(&d, root, "nosuch", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_int_equal(st.nitems, 0);
	sysfs_disk_close(&d);
	free_settings(&st);
}

/* What the live switch holds: put back (no elevator, the read-ahead the loop device had)
 * and released by its teardown, on every path: a failed assertion leaves the test at once. */
struct live_switch {
	int lfd;
	char name[32];
	char read_ahead[32];
	bool opened;
	struct sysfs_disk d;
	struct disk_settings st;
};

static int live_switch_setup(void **state)
{
	struct live_switch *ls = calloc(1, sizeof *ls);
	if (!ls)
		return -1;
	ls->lfd = -1;
	*state = ls;
	return 0;
}

static int live_switch_teardown(void **state)
{
	struct live_switch *ls = *state;
	char p[4096];
	if (ls->lfd >= 0) {
		snprintf(p, sizeof p, "/sys/block/%s/queue/scheduler", ls->name);
		write_attr(p, "none");
		snprintf(p, sizeof p, "/sys/block/%s/queue/read_ahead_kb", ls->name);
		if (ls->read_ahead[0])
			write_attr(p, ls->read_ahead);
		close(ls->lfd);
	}
	if (ls->opened)
		sysfs_disk_close(&ls->d);
	free_settings(&ls->st);
	free(ls);
	return 0;
}

#define MAX_TUNABLES 32

static bool listed(char names[][32], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* The settings' iosched.* are the active elevator's tunables, every one and no other. */
static void assert_iosched_is(const struct disk_settings *st, char names[][32], int n)
{
	char key[64];
	for (int i = 0; i < n; i++) {
		snprintf(key, sizeof key, "iosched.%s", names[i]);
		if (!value_of(st, key))
			fail_msg("%s missing from the settings", key);
	}
	for (size_t i = 0; i < st->nitems; i++)
		if (strncmp(st->items[i].key, "iosched.", 8) == 0 &&
		    !listed(names, n, st->items[i].key + 8))
			fail_msg("%s is not the active elevator's", st->items[i].key);
}

/* A tunable to change: one whose value reads back as written where the elevator is known
 * (fifo_batch: a count; kyber's and bfq's: no unit conversion), else the first with an
 * integer value of 2 or more; -1 when there is none. */
static int tunable_to_change(const char *name, char names[][32], int n)
{
	static const char *const preferred[] = { "fifo_batch", "read_lat_nsec", "back_seek_max" };
	for (size_t k = 0; k < sizeof preferred / sizeof preferred[0]; k++)
		for (int i = 0; i < n; i++)
			if (strcmp(names[i], preferred[k]) == 0)
				return i;
	for (int i = 0; i < n; i++) {
		char p[4096], v[64], *end;
		snprintf(p, sizeof p, "/sys/block/%s/queue/iosched/%s", name, names[i]);
		if (read_attr_text(p, v, sizeof v) == 0 && strtol(v, &end, 10) >= 2 && !*end)
			return i;
	}
	return -1;
}

/* The real kernel: pread at offset 0 re-reads a sysfs attribute, and a scheduler
 * switch (which resets every tunable) shows with the new iosched files.  Between the two
 * elevators with tunables the loop device offers (never by name: a kernel without bfq
 * offers "none mq-deadline kyber"), their tunables read from queue/iosched. */
static void test_live_loop_scheduler_switch(void **state)
{
	struct live_switch *ls = *state;
	char p[4096], elev[2][32], first[MAX_TUNABLES][32], second[MAX_TUNABLES][32];
	struct error err;
	ls->lfd = loopdev_create(tmpdir, 16, ls->name, sizeof ls->name);
	if (ls->lfd < 0)
		skip();
	int n = pick_elevators(ls->name, elev, 2);
	if (n < 2 || strcmp(elev[1], "none") == 0) {
		print_message("%s offers fewer than 2 elevators with tunables\n", ls->name);
		skip();
	}
	snprintf(p, sizeof p, "/sys/block/%s/queue/read_ahead_kb", ls->name);
	assert_int_equal(read_attr_text(p, ls->read_ahead, sizeof ls->read_ahead), 0);

	snprintf(p, sizeof p, "/sys/block/%s/queue/scheduler", ls->name);
	assert_int_equal(write_attr(p, elev[0]), 0);
	int rc = sysfs_disk_open(&ls->d, NULL, ls->name, &err);
	ls->opened = true;   /* partly open on an error: closed all the same */
	assert_int_equal(rc, 0);
	assert_int_equal(sysfs_disk_read(&ls->d, &ls->st, &err), 0);
	assert_string_equal(ls->st.scheduler, elev[0]);
	int nfirst = iosched_tunables(ls->name, first, MAX_TUNABLES);
	assert_in_range(nfirst, 1, MAX_TUNABLES);
	assert_iosched_is(&ls->st, first, nfirst);
	assert_int_equal(ls->st.inflight_read, 0);
	assert_true(ls->st.rotational == 0 || ls->st.rotational == 1);

	/* a tunable changed behind its back is read again */
	int t = tunable_to_change(ls->name, first, nfirst);
	assert_int_not_equal(t, -1);
	char key[64], was[64], now[64], to[32];
	snprintf(key, sizeof key, "iosched.%s", first[t]);
	snprintf(was, sizeof was, "%s", value_of(&ls->st, key));
	snprintf(to, sizeof to, "%ld", strtol(was, NULL, 10) / 2);
	snprintf(p, sizeof p, "/sys/block/%s/queue/iosched/%s", ls->name, first[t]);
	assert_int_equal(write_attr(p, to), 0);
	assert_int_equal(read_attr_text(p, now, sizeof now), 0);
	assert_string_not_equal(now, was);
	assert_int_equal(sysfs_disk_read(&ls->d, &ls->st, &err), 0);
	assert_string_equal(value_of(&ls->st, key), now);

	/* the switch: the second's tunables come, what only the first had goes */
	snprintf(p, sizeof p, "/sys/block/%s/queue/scheduler", ls->name);
	assert_int_equal(write_attr(p, elev[1]), 0);
	assert_int_equal(sysfs_disk_read(&ls->d, &ls->st, &err), 0);
	assert_string_equal(ls->st.scheduler, elev[1]);
	char active[40];
	snprintf(active, sizeof active, "[%s]", elev[1]);
	assert_non_null(strstr(ls->st.scheduler_line, active));
	int nsecond = iosched_tunables(ls->name, second, MAX_TUNABLES);
	assert_in_range(nsecond, 1, MAX_TUNABLES);
	assert_iosched_is(&ls->st, second, nsecond);
	int gone = 0;
	for (int i = 0; i < nfirst; i++) {
		if (listed(second, nsecond, first[i]))
			continue;
		snprintf(key, sizeof key, "iosched.%s", first[i]);
		assert_null(value_of(&ls->st, key));
		gone++;
	}
	assert_true(gone > 0);   /* else the switch showed nothing going */
	assert_sorted(&ls->st);

	snprintf(p, sizeof p, "/sys/block/%s/queue/read_ahead_kb", ls->name);
	assert_int_equal(write_attr(p, "512"), 0);
	snprintf(p, sizeof p, "/sys/block/%s/queue/scheduler", ls->name);
	assert_int_equal(write_attr(p, "none"), 0);
	assert_int_equal(sysfs_disk_read(&ls->d, &ls->st, &err), 0);
	assert_string_equal(ls->st.scheduler, "none");
	assert_string_equal(value_of(&ls->st, "read_ahead_kb"), "512");
	for (size_t i = 0; i < ls->st.nitems; i++)   /* no iosched.* left */
		assert_int_not_equal(strncmp(ls->st.items[i].key, "iosched.", 8), 0);
}

/* A disk with no medium (size 0) is not re-read: its last settings stand until it
 * has a size again, then everything is read. */
static void test_no_medium_reads_only_size(void **state)
{
	char root[512], p[4096];
	snprintf(root, sizeof root, "%s/nomedium", tmpdir);
	make_disk(root, "[none] mq-deadline\n", NULL);
	snprintf(p, sizeof p, "%s/sys/block/sdx/size", root);
	write_file(p, "0\n");
	struct sysfs_disk d;
	struct disk_settings st = { 0 }, other = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdx", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);   /* the first read is full */
	assert_string_equal(value_of(&st, "nr_requests"), "64");
	snprintf(p, sizeof p, "%s/sys/block/sdx/queue/nr_requests", root);
	write_file(p, "16\n");
	assert_int_equal(sysfs_disk_read(&d, &other, &err), 0);   /* a fresh buffer gets the last */
	assert_true(other.has_settings);
	assert_string_equal(other.scheduler, "none");
	assert_string_equal(value_of(&other, "nr_requests"), "64");
	snprintf(p, sizeof p, "%s/sys/block/sdx/size", root);
	write_file(p, "131072\n");
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "nr_requests"), "16");
	sysfs_disk_close(&d);
	free_settings(&st);
	free_settings(&other);
}

/* The same settings keep their generation; a change gets a new one; without a
 * counter (one-off readers) the generation is 0, "unknown". */
static void test_generations(void **state)
{
	char root[512], p[4096];
	snprintf(root, sizeof root, "%s/generations", tmpdir);
	make_disk(root, "[none] mq-deadline\n", NULL);
	uint64_t counter = 0;
	struct sysfs_disk d;
	struct disk_settings a = { 0 }, b = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdx", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &a, &err), 0);
	assert_int_equal(a.generation, 0);
	d.generations = &counter;
	snprintf(p, sizeof p, "%s/sys/block/sdx/queue/nr_requests", root);
	write_file(p, "32\n");
	assert_int_equal(sysfs_disk_read(&d, &a, &err), 0);
	assert_int_not_equal(a.generation, 0);
	assert_int_equal(sysfs_disk_read(&d, &b, &err), 0);
	assert_int_equal(b.generation, a.generation);
	write_file(p, "16\n");
	assert_int_equal(sysfs_disk_read(&d, &b, &err), 0);
	assert_int_not_equal(b.generation, a.generation);
	assert_string_equal(value_of(&b, "nr_requests"), "16");
	sysfs_disk_close(&d);
	free_settings(&a);
	free_settings(&b);
}

/* A read taken during a scheduler switch is never handed out as a change: the
 * listing still holds the old elevator's files, or the new one's directory is not
 * there yet.  The last consistent settings stand until a read is whole. */
static void test_torn_switch_keeps_last_settings(void **state)
{
	char root[512];
	snprintf(root, sizeof root, "%s/torn", tmpdir);
	const char *deadline[] = { "async_depth", "fifo_batch", NULL };
	const char *kyber[] = { "read_lat_nsec", "write_lat_nsec", NULL };
	make_disk(root, "none [mq-deadline] kyber\n", deadline);
	uint64_t counter = 0;
	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdx", &err), 0);
	d.generations = &counter;
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	uint64_t gen = st.generation;

	/* kyber is active, but the directory still lists mq-deadline's tunables. */
	make_disk(root, "none mq-deadline [kyber]\n", deadline);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(st.scheduler, "mq-deadline");
	assert_string_equal(value_of(&st, "iosched.async_depth"), "1");
	assert_int_equal(st.generation, gen);

	/* The switch has landed: read whole. */
	make_disk(root, "none mq-deadline [kyber]\n", kyber);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(st.scheduler, "kyber");
	assert_null(value_of(&st, "iosched.async_depth"));
	assert_string_equal(value_of(&st, "iosched.read_lat_nsec"), "1");
	gen = st.generation;

	/* kyber again (switched away and back), its directory not registered yet. */
	make_disk(root, "none mq-deadline [kyber]\n", NULL);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "iosched.read_lat_nsec"), "1");
	assert_int_equal(st.generation, gen);

	/* Registered now: listed again, not left without tunables. */
	make_disk(root, "none mq-deadline [kyber]\n", kyber);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "iosched.write_lat_nsec"), "1");

	/* An elevator this code does not know: a listing with fewer files than it had
	 * (its directory half registered) is torn too. */
	const char *foo2[] = { "x", "y", NULL }, *foo1[] = { "x", NULL };
	make_disk(root, "none [foo] kyber\n", foo2);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(st.scheduler, "foo");
	make_disk(root, "none foo [kyber]\n", kyber);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	make_disk(root, "none [foo] kyber\n", foo1);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(st.scheduler, "kyber");
	make_disk(root, "none [foo] kyber\n", foo2);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "iosched.y"), "1");
	sysfs_disk_close(&d);
	free_settings(&st);
}


/* The knobs of tests/fixtures/knobs: every file of a 6.18 kernel on vdb, an old
 * kernel's few on sdc (absent, not zero), a loop device's own on loop7, all in key
 * order with the iosched tunables among them. */
static void test_knob_files(void **state)
{
	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, fixture_path("knobs/1"), "vdb", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_sorted(&st);
	assert_string_equal(value_of(&st, "wbt_lat_usec"), "2000");
	assert_string_equal(value_of(&st, "nomerges"), "0");
	assert_string_equal(value_of(&st, "rq_affinity"), "1");
	assert_string_equal(value_of(&st, "add_random"), "0");
	assert_string_equal(value_of(&st, "iostats"), "1");
	assert_string_equal(value_of(&st, "io_poll_delay"), "-1");
	assert_string_equal(value_of(&st, "bdi.max_ratio_fine"), "1000000");
	assert_string_equal(value_of(&st, "bdi.strict_limit"), "0");
	assert_string_equal(value_of(&st, "iosched.fifo_batch"), "16");
	assert_null(value_of(&st, "bdi.max_ratio"));   /* the fine one is the same value */
	assert_null(value_of(&st, "bdi.max_bytes"));   /* moves with the dirty limit */
	assert_null(value_of(&st, "loop.ro"));         /* not a loop device */
	sysfs_disk_close(&d);
	free_settings(&st);

	assert_int_equal(sysfs_disk_open(&d, fixture_path("knobs/1"), "sdc", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_sorted(&st);
	assert_string_equal(value_of(&st, "bdi.max_ratio"), "100");
	assert_string_equal(value_of(&st, "bdi.min_ratio"), "0");
	assert_null(value_of(&st, "bdi.max_ratio_fine"));
	assert_null(value_of(&st, "bdi.strict_limit"));
	assert_null(value_of(&st, "wbt_lat_usec"));
	assert_null(value_of(&st, "io_poll_delay"));
	sysfs_disk_close(&d);
	free_settings(&st);

	assert_int_equal(sysfs_disk_open(&d, fixture_path("knobs/2"), "loop7", &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_sorted(&st);
	assert_string_equal(value_of(&st, "loop.backing_file"), "/var/tmp/bench.img");
	assert_string_equal(value_of(&st, "loop.dio"), "1");
	assert_string_equal(value_of(&st, "loop.ro"), "1");
	assert_string_equal(value_of(&st, "loop.sectors"), "262144");
	sysfs_disk_close(&d);
	free_settings(&st);
}

static void put_setting(const char *root, const char *rel, const char *text)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/sys/block/sdx/%s", root, rel);
	write_file(p, text);
}

/* With a knob cadence, a knob is read when it is due (given from the last read in
 * between), at once after a scheduler switch and when asked to; the settings read
 * every sample are read every sample. */
static void test_knob_cadence(void **state)
{
	char root[512];
	snprintf(root, sizeof root, "%s/cadence", tmpdir);
	make_disk(root, "[none] mq-deadline\n", NULL);
	put_setting(root, "queue/wbt_lat_usec", "2000\n");
	put_setting(root, "bdi/strict_limit", "0\n");
	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdx", &err), 0);
	sysfs_disk_knob_cadence(&d, 3600000000000ull, 3600000000000ull);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);   /* the first read is whole */
	assert_string_equal(value_of(&st, "wbt_lat_usec"), "2000");

	put_setting(root, "queue/wbt_lat_usec", "0\n");
	put_setting(root, "bdi/strict_limit", "1\n");
	put_setting(root, "queue/nr_requests", "32\n");
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "nr_requests"), "32");
	assert_string_equal(value_of(&st, "wbt_lat_usec"), "2000");   /* not due */
	assert_string_equal(value_of(&st, "bdi.strict_limit"), "0");
	assert_sorted(&st);

	sysfs_disk_read_all_next(&d);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "wbt_lat_usec"), "0");
	assert_string_equal(value_of(&st, "bdi.strict_limit"), "1");

	/* bfq turns writeback throttling off with the switch: one sample sees both */
	const char *deadline[] = { "fifo_batch", NULL };
	put_setting(root, "queue/wbt_lat_usec", "75000\n");
	make_disk(root, "none [mq-deadline]\n", deadline);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(st.scheduler, "mq-deadline");
	assert_string_equal(value_of(&st, "wbt_lat_usec"), "75000");

	/* a knob file that appears is read at once, not left out until it is due */
	put_setting(root, "queue/nomerges", "1\n");
	sysfs_disk_read_all_next(&d);   /* as a rescan does: list again */
	put_setting(root, "queue/wbt_lat_usec", "1\n");
	d.reading_knobs = false;        /* listed, but the knobs not due */
	d.iosched_of[0] = '\1';
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "nomerges"), "1");
	assert_string_equal(value_of(&st, "wbt_lat_usec"), "75000");
	sysfs_disk_close(&d);
	free_settings(&st);
}

/* The sampler's disks (sysfs_disk_skip_empty): one with no medium at its first read opens
 * its size alone and has no settings, its knobs never read; with a medium it is read whole,
 * and without one again it gives that read's settings. */
static void test_skip_empty_opens_size_alone(void **state)
{
	char root[512];
	snprintf(root, sizeof root, "%s/skipempty", tmpdir);
	make_disk(root, "[none] mq-deadline\n", NULL);
	put_setting(root, "size", "0\n");
	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdx", &err), 0);
	sysfs_disk_skip_empty(&d);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
		assert_false(st.has_settings);
		assert_int_equal(st.nitems, 0);
		assert_string_equal(st.scheduler, "");
		assert_int_equal(st.rotational, -1);
		assert_int_equal(d.nfiles, 0);          /* no knob file open */
		assert_int_equal(d.scheduler_fd, -1);
		assert_true(d.size_fd >= 0);
	}
	put_setting(root, "size", "2048\n");
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_true(st.has_settings);
	assert_string_equal(st.scheduler, "none");
	assert_string_equal(value_of(&st, "nr_requests"), "64");
	assert_true(d.nfiles > 0);
	put_setting(root, "size", "0\n");
	put_setting(root, "queue/nr_requests", "16\n");
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);   /* no medium: the last read's */
	assert_true(st.has_settings);
	assert_string_equal(value_of(&st, "nr_requests"), "64");
	sysfs_disk_close(&d);
	free_settings(&st);
}

/* A loop device with nothing attached has no loop/ group; attached later (its size
 * is no longer 0), its files are listed and read. */
static void test_loop_attached_later(void **state)
{
	char root[512], p[4096];
	snprintf(root, sizeof root, "%s/attach", tmpdir);
	make_disk(root, "[none] mq-deadline\n", NULL);
	put_setting(root, "size", "0\n");
	put_setting(root, "ro", "0\n");
	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, root, "sdx", &err), 0);
	sysfs_disk_knob_cadence(&d, 3600000000000ull, 3600000000000ull);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_null(value_of(&st, "loop.dio"));
	assert_null(value_of(&st, "loop.ro"));   /* loop.* only with a file attached */
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);   /* no medium: the last */
	put_setting(root, "loop/backing_file", "/srv/a.img\n");
	put_setting(root, "loop/dio", "1\n");
	put_setting(root, "size", "2048\n");
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "loop.backing_file"), "/srv/a.img");
	assert_string_equal(value_of(&st, "loop.dio"), "1");
	assert_string_equal(value_of(&st, "loop.ro"), "0");
	assert_string_equal(value_of(&st, "loop.sectors"), "2048");
	assert_sorted(&st);
	snprintf(p, sizeof p, "%s/sys/block/sdx/loop", root);
	rm_tree(p);   /* detached and attached again in between: the group's files are new */
	put_setting(root, "loop/backing_file", "/srv/b.img\n");
	put_setting(root, "loop/dio", "0\n");
	sysfs_disk_read_all_next(&d);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "loop.backing_file"), "/srv/b.img");
	assert_string_equal(value_of(&st, "loop.dio"), "0");
	sysfs_disk_close(&d);
	free_settings(&st);
}

/* The real kernel's knobs on a loop device of our own, and a change of one read back. */
static void test_live_loop_knobs(void **state)
{
	char name[32], p[4096], img[4096];
	int lfd = loopdev_create(tmpdir, 16, name, sizeof name);
	if (lfd < 0) {
		skip();
		return;
	}
	struct sysfs_disk d;
	struct disk_settings st = { 0 };
	struct error err;
	assert_int_equal(sysfs_disk_open(&d, NULL, name, &err), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_sorted(&st);
	snprintf(img, sizeof img, "%s/loop.img", tmpdir);
	assert_string_equal(value_of(&st, "loop.backing_file"), img);
	assert_string_equal(value_of(&st, "loop.dio"), "0");
	assert_string_equal(value_of(&st, "loop.sectors"), "32768");
	assert_non_null(value_of(&st, "nomerges"));
	assert_non_null(value_of(&st, "rq_affinity"));
	assert_true(value_of(&st, "bdi.max_ratio") || value_of(&st, "bdi.max_ratio_fine"));
	assert_false(value_of(&st, "bdi.max_ratio") && value_of(&st, "bdi.max_ratio_fine"));
	const char *was = value_of(&st, "nomerges");
	char old[16];
	snprintf(old, sizeof old, "%s", was);
	snprintf(p, sizeof p, "/sys/block/%s/queue/nomerges", name);
	assert_int_equal(write_attr(p, strcmp(old, "2") == 0 ? "1" : "2"), 0);
	assert_int_equal(sysfs_disk_read(&d, &st, &err), 0);
	assert_string_equal(value_of(&st, "nomerges"), strcmp(old, "2") == 0 ? "1" : "2");
	assert_int_equal(write_attr(p, old), 0);
	sysfs_disk_close(&d);
	free_settings(&st);
	close(lfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_scheduler),
		cmocka_unit_test(test_parse_inflight_bool_value),
		cmocka_unit_test(test_fixture_disk),
		cmocka_unit_test(test_relists_iosched_when_scheduler_changes),
		cmocka_unit_test(test_missing_and_symlinked_files_absent),
		cmocka_unit_test_setup_teardown(test_live_loop_scheduler_switch, live_switch_setup,
						live_switch_teardown),
		cmocka_unit_test(test_no_medium_reads_only_size),
		cmocka_unit_test(test_skip_empty_opens_size_alone),
		cmocka_unit_test(test_generations),
		cmocka_unit_test(test_torn_switch_keeps_last_settings),
		cmocka_unit_test(test_knob_files),
		cmocka_unit_test(test_knob_cadence),
		cmocka_unit_test(test_loop_attached_later),
		cmocka_unit_test(test_live_loop_knobs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
