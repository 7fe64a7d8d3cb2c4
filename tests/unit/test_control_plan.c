/* test_control_plan.c - planning and applying `set` against a sysfs tree of plain files. */
#include "unit.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "control.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

static const char *get(const char *rel)
{
	static char buf[256];
	char path[256];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof root, "/tmp/ioscope-ctl-unit.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("sys/block/loop9/queue/scheduler", "none [mq-deadline] kyber bfq");
	put("sys/block/loop9/queue/nr_requests", "256");
	put("sys/block/loop9/queue/read_ahead_kb", "128");
	put("sys/block/loop9/queue/max_sectors_kb", "1280");
	put("sys/block/loop9/queue/max_hw_sectors_kb", "1280");
	put("sys/block/loop9/queue/write_cache", "write back");
	put("sys/block/loop9/queue/rotational", "1");
	put("sys/block/loop9/queue/iosched/fifo_batch", "16");
	put("sys/block/loop9/queue/iosched/read_expire", "500");
	put("sys/block/loop9/mq/0/nr_tags", "128");
	put("sys/block/vda/queue/scheduler", "none [mq-deadline]");
	put("sys/block/vda/queue/nr_requests", "256");
	put("sys/block/vda/vda1/partition", "1");
	/* the knobs (issue 25): loop9 a 6.18 kernel's loop device, sdc an old kernel's disk */
	put("sys/block/loop9/queue/wbt_lat_usec", "2000");
	put("sys/block/loop9/queue/nomerges", "0");
	put("sys/block/loop9/queue/rq_affinity", "1");
	put("sys/block/loop9/queue/io_poll", "0");
	put("sys/class/bdi/7:9/max_ratio", "100");
	put("sys/class/bdi/7:9/max_ratio_fine", "1000000");
	put("sys/class/bdi/7:9/min_ratio", "10");
	put("sys/class/bdi/7:9/min_ratio_fine", "100000");
	put("sys/class/bdi/7:9/max_bytes", "4939546624");
	put("sys/class/bdi/7:9/strict_limit", "0");
	put("sys/class/bdi/8:32/max_ratio", "100");
	put("sys/class/bdi/8:32/min_ratio", "80");
	char link[256];
	snprintf(link, sizeof link, "%s/sys/block/loop9/bdi", root);
	if (symlink("../../class/bdi/7:9", link) < 0)
		return -1;
	snprintf(link, sizeof link, "%s/sys/block/sdc/bdi", root);
	put("sys/block/sdc/queue/scheduler", "noop deadline [cfq]");
	if (symlink("../../class/bdi/8:32", link) < 0)
		return -1;
	put("sys/block/loop9/loop/backing_file", "/var/tmp/l9.img");
	put("sys/block/loop9/loop/dio", "0");
	put("sys/block/loop9/dev", "7:9");
	put("proc/self/mountinfo", "1 0 254:1 / / rw,relatime - ext4 /dev/vda1 rw\n"
				   "2 1 7:9 / /mnt rw,nosuid - xfs /dev/loop9 rw,inode64");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static int plan(struct control_plan *p, const char *dev, const char *a, const char *b,
		struct error *err)
{
	char *args[2] = { (char *)a, (char *)b };
	return control_plan_device(p, root, dev, args, b ? 2 : 1, err);
}

static void test_plan_orders_and_reads_old(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	assert_int_equal(plan(&p, "loop9", "iosched.fifo_batch=8", "nr_requests=64", &err), 0);
	assert_int_equal(p.nitems, 2);
	assert_string_equal(p.items[0].key, "nr_requests"); /* nr_requests goes first */
	assert_string_equal(p.items[0].old, "256");
	assert_string_equal(p.items[1].old, "16");
	assert_int_equal(p.nrisks, 0);
	assert_int_equal(plan(&p, "loop9", "read_ahead_kb=64", "scheduler=bfq", &err), 0);
	assert_string_equal(p.items[0].key, "scheduler");
	assert_string_equal(p.items[0].old, "mq-deadline");
	/* Issue 9 item 12: a write_cache (or max_sectors_kb) write makes the kernel
	 * recompute read_ahead_kb, so read_ahead_kb is written after them. */
	assert_int_equal(plan(&p, "loop9", "read_ahead_kb=512", "write_cache=write through", &err), 0);
	assert_string_equal(p.items[0].key, "write_cache");
	assert_string_equal(p.items[1].key, "read_ahead_kb");
	assert_int_equal(plan(&p, "loop9", "read_ahead_kb=512", "iosched.fifo_batch=8", &err), 0);
	assert_string_equal(p.items[1].key, "read_ahead_kb");
	assert_int_equal(plan(&p, "loop9", "read_ahead_kb=512", "max_sectors_kb=256", &err), 0);
	assert_string_equal(p.items[1].key, "read_ahead_kb");
}

static void test_plan_refuses(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	assert_int_equal(plan(&p, "loop9", "scheduler=none", "nr_requests=200", &err), -1);
	assert_non_null(strstr(err.msg, "4..128"));
	assert_int_equal(plan(&p, "loop9", "scheduler=bfq", "iosched.slice_idle=0", &err), 0);
	assert_int_equal(plan(&p, "loop9", "scheduler=bfq", "iosched.fifo_batch=1", &err), -1);
	assert_int_equal(plan(&p, "loop9", "iosched.nosuch=1", NULL, &err), -1);
	assert_int_equal(plan(&p, "loop9", "nr_requests=1", "nr_requests=2", &err), -1);
	assert_non_null(strstr(err.msg, "twice"));
	assert_int_equal(plan(&p, "vda1", "nr_requests=64", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "partition"));
	assert_non_null(strstr(err.msg, "vda"));
	assert_int_equal(plan(&p, "../loop9", "nr_requests=64", NULL, &err), -1);
	assert_int_equal(plan(&p, "loop8", "nr_requests=64", NULL, &err), -1);
	assert_int_equal(plan(&p, "/dev/loop9", "nr_requests=64", NULL, &err),
			 -1); /* --root: names only */
	assert_int_equal(control_plan_device(&p, root, "loop9", NULL, 0, &err), -1);
}

static void test_risks(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	assert_int_equal(plan(&p, "vda", "nr_requests=64", NULL, &err), 0);
	assert_int_equal(p.nrisks, 1);
	assert_non_null(strstr(p.risks[0], "root filesystem"));
	assert_int_equal(plan(&p, "loop9", "write_cache=write through", NULL, &err), 0);
	assert_int_equal(p.nrisks, 1);
	assert_non_null(strstr(p.risks[0], "flushes"));
	assert_int_equal(plan(&p, "loop9", "write_cache=write back", NULL, &err), 0);
	assert_int_equal(p.nrisks, 0);
}

static void test_remount_risks(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	memset(&p, 0, sizeof p);
	p.target = CONTROL_MOUNT;
	snprintf(p.root, sizeof p.root, "%s", root);
	assert_int_equal(control_mount_find(root, -1, "/mnt", &p.mount, &err), 0);
	assert_int_equal(control_mount_opts_parse(p.opts, CONTROL_MAX_ITEMS, &p.nopts, "commit=5",
						  p.mount.super_opts, &err),
			 0);
	control_risks_mount(&p);
	assert_int_equal(p.nrisks, 0);
	assert_int_equal(control_mount_opts_parse(p.opts, CONTROL_MAX_ITEMS, &p.nopts, "barrier=0",
						  p.mount.super_opts, &err),
			 0);
	control_risks_mount(&p);
	assert_int_equal(p.nrisks, 1);
	assert_non_null(strstr(p.risks[0], "barriers off"));
	p.nrisks = 0;
	assert_int_equal(control_mount_find(root, -1, "/", &p.mount, &err), 0);
	assert_int_equal(control_mount_opts_parse(p.opts, CONTROL_MAX_ITEMS, &p.nopts, "noatime",
						  p.mount.super_opts, &err),
			 0);
	control_risks_mount(&p);
	assert_int_equal(p.nrisks, 1);
	assert_non_null(strstr(p.risks[0], "holds /"));
}

static void test_apply_reads_back(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	struct control_result *r = malloc(sizeof *r);
	assert_non_null(r);
	assert_int_equal(plan(&p, "loop9", "nr_requests=64", "read_ahead_kb=512", &err), 0);
	assert_int_equal(control_check_privilege(&p, &err), geteuid() == 0 ? 0 : 0);
	assert_int_equal(control_apply(&p, r), 0);
	assert_string_equal(get("sys/block/loop9/queue/nr_requests"), "64");
	assert_string_equal(get("sys/block/loop9/queue/read_ahead_kb"), "512");
	assert_int_equal(r->nevents, 2);
	assert_int_equal(r->events[0].kind, EVENT_TUNABLE);
	assert_string_equal(r->events[0].object, "loop9");
	assert_string_equal(r->events[0].key, "nr_requests");
	assert_string_equal(r->events[0].old_value, "256");
	assert_string_equal(r->events[0].new_value, "64");
	assert_string_equal(r->events[0].result, "ok");
	assert_string_equal(r->events[0].by, "ioscope");
	assert_true(r->events[0].wall.tv_sec > 0);
	assert_true(r->nlines >= 2);
	assert_non_null(strstr(r->lines[0], "256 -> 64"));
	control_result_free(r);
}

static void test_job_off_main_loop(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	assert_int_equal(plan(&p, "loop9", "iosched.fifo_batch=4", NULL, &err), 0);
	struct control_job *job = control_job_start(&p, &err);
	assert_non_null(job);
	assert_string_equal(control_job_plan(job)->device, "loop9");
	struct pollfd pfd = { .fd = control_job_fd(job), .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 10000), 1);
	struct control_result *r = control_job_finish(job);
	assert_non_null(r);
	assert_int_equal(r->status, 0);
	assert_int_equal(r->nevents, 1);
	assert_string_equal(r->events[0].key, "iosched.fifo_batch");
	assert_string_equal(r->events[0].new_value, "4");
	control_result_free(r);
	assert_string_equal(get("sys/block/loop9/queue/iosched/fifo_batch"), "4");
}

static void test_cli_exit_codes(void **state)
{
	(void)state;
	char *junk[] = { "set", "--root", root, "loop9", "nr_requests=abc", NULL };
	assert_int_equal(cmd_set(5, junk), 2);
	char *mixed[] = { "set", "--root", root, "loop9", "read_ahead_kb=256", "nr_requests=99999",
			  NULL };
	assert_int_equal(cmd_set(6, mixed), 2);
	assert_string_equal(get("sys/block/loop9/queue/read_ahead_kb"), "512"); /* untouched */
	char *good[] = { "set", "--root", root, "loop9", "read_ahead_kb=256", NULL };
	assert_int_equal(cmd_set(5, good), 0);
	assert_string_equal(get("sys/block/loop9/queue/read_ahead_kb"), "256");
	char *none[] = { "set", "--root", root, "loop9", NULL };
	assert_int_equal(cmd_set(4, none), 2);
	char *unknown[] = { "set", "--bogus", "loop9", "nr_requests=4", NULL };
	assert_int_equal(cmd_set(4, unknown), 2);
	char *show[] = { "show", "--root", root, "loop9", NULL };
	assert_int_equal(cmd_show(4, show), 0);
	char *show_bad[] = { "show", "--root", root, "nosuch", NULL };
	assert_int_equal(cmd_show(4, show_bad), 2);
}


/* Issue 25: the knobs plan with their file on this device (absent: refused, not
 * written), each bdi limit given once, as the ratio the sampler watches, the minimum
 * never above the maximum nor all minimums at 100 %, and in an order the kernel takes. */
static void test_knob_plans(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	assert_int_equal(plan(&p, "loop9", "wbt_lat_usec=-1", "nomerges=2", &err), 0);
	assert_string_equal(p.items[0].watch, p.items[0].key);
	assert_int_equal(plan(&p, "sdc", "wbt_lat_usec=5000", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "sdc has no queue/wbt_lat_usec"));
	assert_int_equal(plan(&p, "loop9", "bdi.max_ratio=50", NULL, &err), 0);
	assert_string_equal(p.items[0].watch, "bdi.max_ratio_fine");
	assert_string_equal(p.items[0].old, "100");
	assert_int_equal(plan(&p, "loop9", "bdi.max_bytes=1073741824", NULL, &err), 0);
	assert_string_equal(p.items[0].watch, "bdi.max_ratio_fine");
	assert_int_equal(plan(&p, "sdc", "bdi.max_ratio=90", NULL, &err), 0);
	assert_string_equal(p.items[0].watch, "bdi.max_ratio");   /* no fine file there */
	assert_int_equal(plan(&p, "sdc", "bdi.max_ratio_fine=5", NULL, &err), -1);
	assert_int_equal(plan(&p, "loop9", "bdi.max_ratio=50", "bdi.max_bytes=1", &err), -1);
	assert_non_null(strstr(err.msg, "same limit"));
	/* the minimum of loop9 is 10 %: a maximum under it alone is refused, with a lower
	 * minimum it is planned minimum first */
	assert_int_equal(plan(&p, "loop9", "bdi.max_ratio=5", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "above the maximum (5 %)"));
	assert_int_equal(plan(&p, "loop9", "bdi.max_ratio=5", "bdi.min_ratio=2", &err), 0);
	assert_string_equal(p.items[0].key, "bdi.min_ratio");
	assert_string_equal(p.items[1].key, "bdi.max_ratio");
	assert_int_equal(plan(&p, "loop9", "bdi.min_ratio=15", "bdi.max_ratio=40", &err), 0);
	assert_string_equal(p.items[0].key, "bdi.max_ratio");
	/* sdc's minimum is 80 %: loop9's cannot reach 20 % */
	assert_int_equal(plan(&p, "loop9", "bdi.min_ratio_fine=200000", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "the others hold 80 %"));
	assert_int_equal(plan(&p, "loop9", "bdi.min_ratio_fine=199999", NULL, &err), 0);
	assert_int_equal(plan(&p, "loop9", "io_poll=1", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "watched"));
	assert_int_equal(plan(&p, "vda", "loop.dio=1", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "not a loop device"));
	/* direct I/O asks, every time it changes, and says where the device is mounted */
	assert_int_equal(plan(&p, "loop9", "loop.dio=on", NULL, &err), 0);
	assert_string_equal(p.items[0].value, "1");
	assert_int_equal(p.nrisks, 1);
	assert_non_null(strstr(p.risks[0], "loop.dio=1"));
	assert_non_null(strstr(p.risks[0], "mounted on /mnt"));
	assert_int_equal(plan(&p, "loop9", "loop.dio=off", NULL, &err), 0);
	assert_int_equal(p.nrisks, 0);   /* already off */
}

/* A knob written reads back, its event is the watched setting's, by ioscope; a plan
 * refused leaves every file as it was; direct I/O needs the device node a tree lacks. */
static void test_knob_apply(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	struct control_result *r = malloc(sizeof *r);
	assert_non_null(r);
	assert_int_equal(plan(&p, "loop9", "wbt_lat_usec=5000", "bdi.max_ratio_fine=500000", &err),
			 0);
	assert_int_equal(control_apply(&p, r), 0);
	assert_string_equal(get("sys/block/loop9/queue/wbt_lat_usec"), "5000");
	assert_string_equal(get("sys/class/bdi/7:9/max_ratio_fine"), "500000");
	assert_int_equal(r->nevents, 2);
	assert_string_equal(r->events[0].key, "wbt_lat_usec");
	assert_string_equal(r->events[0].old_value, "2000");
	assert_string_equal(r->events[0].new_value, "5000");
	assert_string_equal(r->events[1].key, "bdi.max_ratio_fine");
	assert_string_equal(r->events[1].new_value, "500000");
	assert_string_equal(r->events[1].by, "ioscope");
	/* the coarse ratio is written, the event is the fine one the sampler watches; a
	 * result owns its events' texts: each apply gets its own */
	control_result_free(r);
	assert_non_null(r = malloc(sizeof *r));
	assert_int_equal(plan(&p, "loop9", "bdi.max_ratio=60", NULL, &err), 0);
	assert_int_equal(control_apply(&p, r), 0);
	assert_string_equal(get("sys/class/bdi/7:9/max_ratio"), "60");
	assert_string_equal(r->events[0].key, "bdi.max_ratio_fine");

	char *refused[] = { "set", "--root", root, "loop9",
			    "nomerges=1", "bdi.min_ratio=70", NULL };
	assert_int_equal(cmd_set(6, refused), 2);
	assert_string_equal(get("sys/block/loop9/queue/nomerges"), "0");
	assert_string_equal(get("sys/class/bdi/7:9/min_ratio"), "10");

	control_result_free(r);
	assert_non_null(r = malloc(sizeof *r));
	assert_int_equal(plan(&p, "loop9", "loop.dio=1", NULL, &err), 0);
	assert_int_equal(control_apply(&p, r), 1);
	assert_non_null(strstr(r->lines[0], "--root tree has no /dev/loop9"));
	assert_string_equal(get("sys/block/loop9/loop/dio"), "0");
	control_result_free(r);
}

static void test_describe(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	char buf[256];
	assert_int_equal(plan(&p, "loop9", "scheduler=bfq", "nr_requests=64", &err), 0);
	control_plan_describe(&p, buf, sizeof buf);
	assert_string_equal(buf, "loop9: scheduler=bfq nr_requests=64");
}

/* A refused write: what was announced and not attempted after it is what the sender
 * withdraws (control_pending_unanswered); the refused one has its event. */
static void test_unanswered_after_refusal(void **state)
{
	(void)state;
	struct control_plan p;
	struct error err = { "" };
	struct control_result *r = malloc(sizeof *r);
	assert_non_null(r);
	assert_int_equal(plan(&p, "loop9", "nr_requests=32", "read_ahead_kb=256", &err), 0);
	char path[256];
	snprintf(path, sizeof path, "%s/sys/block/loop9/queue/nr_requests", root);
	assert_int_equal(unlink(path), 0);   /* its write fails: EISDIR */
	assert_int_equal(mkdir(path, 0755), 0);
	struct control_pending pending;
	control_pending_of(&p, &pending);
	assert_int_equal(pending.n, 2);
	assert_int_equal(control_apply(&p, r), 1);
	assert_int_equal(r->nevents, 1);
	assert_string_equal(r->events[0].key, "nr_requests");
	control_pending_unanswered(&pending, r);
	assert_int_equal(pending.n, 1);
	assert_string_equal(pending.events[0].key, "read_ahead_kb");
	control_pending_free(&pending);
	assert_int_equal(rmdir(path), 0);
	put("sys/block/loop9/queue/nr_requests", "64");
	put("sys/block/loop9/queue/read_ahead_kb", "128");
	control_result_free(r);
	/* all made: nothing to withdraw */
	r = malloc(sizeof *r);
	assert_non_null(r);
	assert_int_equal(plan(&p, "loop9", "nr_requests=32", "read_ahead_kb=256", &err), 0);
	control_pending_of(&p, &pending);
	assert_int_equal(control_apply(&p, r), 0);
	control_pending_unanswered(&pending, r);
	assert_int_equal(pending.n, 0);
	control_pending_free(&pending);
	control_result_free(r);
	/* the values already there (issue 41 item 3): said unchanged, no event, and what was
	 * announced is withdrawn; a change beside them keeps its event */
	r = malloc(sizeof *r);
	assert_non_null(r);
	assert_int_equal(plan(&p, "loop9", "nr_requests=32", "read_ahead_kb=512", &err), 0);
	control_pending_of(&p, &pending);
	assert_int_equal(control_apply(&p, r), 0);
	assert_non_null(strstr(r->lines[0], "ok (unchanged: already 32)"));
	assert_int_equal(r->nevents, 1);
	assert_string_equal(r->events[0].key, "read_ahead_kb");
	control_pending_unanswered(&pending, r);
	assert_int_equal(pending.n, 1);
	assert_string_equal(pending.events[0].key, "nr_requests");
	control_pending_free(&pending);
	control_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_orders_and_reads_old),
		cmocka_unit_test(test_plan_refuses),
		cmocka_unit_test(test_risks),
		cmocka_unit_test(test_remount_risks),
		cmocka_unit_test(test_apply_reads_back),
		cmocka_unit_test(test_job_off_main_loop),
		cmocka_unit_test(test_cli_exit_codes),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_knob_plans),
		cmocka_unit_test(test_knob_apply),
		cmocka_unit_test(test_unanswered_after_refusal),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
