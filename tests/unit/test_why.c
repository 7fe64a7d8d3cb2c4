/* Why figures: the parsers of the kernel's files, jbd2's Δ(count×average)/Δcount, the
 * writers-throttled rule, the why record's round trip, and the dip detector. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "dip.h"
#include "memcg.h"
#include "session_log.h"
#include "sources_helpers.h"
#include "why.h"

static void test_jbd2_interval_mean(void **state)
{
	(void)state;
	double m = -1;
	/* 100 commits averaging 10 ms, then 110 averaging 15: the 10 new ones took
	 * (1650 - 1000) / 10 = 65 ms each, not the 15 the kernel prints */
	assert_true(jbd2_interval_mean(100, 10, 110, 15, &m));
	assert_true(fabs(m - 65.0) < 1e-9);
	/* no commit ended: no mean (not 0, not the old average) */
	assert_false(jbd2_interval_mean(110, 15, 110, 15, &m));
	/* the kernel's floor(sum/count) can make the product shrink: clamped at 0 */
	assert_true(jbd2_interval_mean(1000, 10, 1001, 9, &m));
	assert_true(m == 0.0);
	/* from mount: no average was printed before the first commit (taken as 0) */
	assert_true(jbd2_interval_mean(0, 0, 4, 12, &m));
	assert_true(fabs(m - 12.0) < 1e-9);
}

static const char jbd2_info[] =
	"110 transactions (110 requested), each up to 8192 blocks\n"
	"average: \n"
	"  3ms waiting for transaction\n"
	"  0ms request delay\n"
	"  5000ms running transaction\n"
	"  1ms transaction was being locked\n"
	"  4ms flushing data (in ordered mode)\n"
	"  15ms logging transaction\n"
	"  8000us average transaction commit time\n"
	"  12 handles per transaction\n"
	"  22 blocks per transaction\n"
	"  23 logged blocks per transaction\n";

static void test_parse_jbd2(void **state)
{
	(void)state;
	struct journal_raw j = { .fs = JOURNAL_EXT4 };
	journal_parse_jbd2(jbd2_info, strlen(jbd2_info), &j);
	assert_int_equal(j.v[J4_TRANSACTIONS], 110);
	assert_int_equal(j.v[J4_WAIT_MS], 3);
	assert_int_equal(j.v[J4_LOCKED_MS], 1);
	assert_int_equal(j.v[J4_FLUSHING_MS], 4);
	assert_int_equal(j.v[J4_LOGGING_MS], 15);
	assert_int_equal(j.v[J4_COMMIT_AVG_US], 8000);
	assert_int_equal(j.v[J4_BLOCKS], 22);    /* not the logged blocks line */
	/* before the first commit the kernel prints the count only */
	const char fresh[] = "0 transactions (0 requested), each up to 8192 blocks\n";
	journal_parse_jbd2(fresh, strlen(fresh), &j);
	assert_int_equal(j.present, 1u << J4_TRANSACTIONS);
}

static void test_parse_xfs_btrfs(void **state)
{
	(void)state;
	const char xfs[] = "extent_alloc 1 2 3 4\nlog 1400 7000 4 500 30\n"
			   "push_ail 70 24 260 10 0 0 0 0 0 0\n";
	struct journal_raw j = { .fs = JOURNAL_XFS };
	journal_parse_xfs_stats(xfs, strlen(xfs), &j);
	assert_int_equal(j.v[JX_LOG_WRITES], 1400);
	assert_int_equal(j.v[JX_NOICLOGS], 4);
	assert_int_equal(j.v[JX_FORCES], 500);
	assert_int_equal(j.v[JX_FORCE_SLEEPS], 30);
	assert_int_equal(j.v[JX_SLEEP_LOGSPACE], 24);
	assert_int_equal(j.v[JX_PUSH_AIL], 260);
	uint64_t c, b;
	assert_true(journal_parse_xfs_lsn("3:4096\n", 7, &c, &b));
	assert_int_equal(c, 3);
	assert_int_equal(b, 4096);
	assert_true(journal_parse_xfs_lsn("8192\n", 5, &c, &b));   /* *_bytes files */
	assert_int_equal(c, 0);
	assert_int_equal(b, 8192);
	assert_false(journal_parse_xfs_lsn("x:1\n", 4, &c, &b));
	const char bt[] = "commits 14\ncur_commit_ms 0\nlast_commit_ms 120\nmax_commit_ms 150\n"
			  "total_commit_ms 900\n";
	struct journal_raw k = { .fs = JOURNAL_BTRFS };
	journal_parse_btrfs(bt, strlen(bt), &k);
	assert_int_equal(k.v[JB_COMMITS], 14);
	assert_int_equal(k.v[JB_TOTAL_COMMIT_MS], 900);
}

static void test_parse_vmstat_and_throttled(void **state)
{
	(void)state;
	const char vm[] = "nr_free_pages 5\nnr_dirty 40000\nnr_writeback 500\n"
			  "nr_dirty_threshold 50000\nnr_dirty_background_threshold 25000\n"
			  "nr_dirtied 105120\nnr_written 95000\nnr_dirty_threshold_x 1\n";
	struct why_dirty d = { .page_kb = 4 };
	why_parse_vmstat(vm, strlen(vm), &d);
	assert_true(d.have);
	assert_int_equal(d.v[WD_THRESHOLD], 50000);
	assert_int_equal(d.v[WD_BACKGROUND], 25000);
	why_parse_vmstat("nr_dirty 1\n", 11, &d);
	assert_false(d.have);
	/* above freerun with the rates matched; below it, or unmatched, not */
	assert_true(why_writers_throttled(162000, 150000, 10240, 10000));
	assert_false(why_writers_throttled(140000, 150000, 10240, 10000));
	assert_false(why_writers_throttled(162000, 150000, 40000, 10000));
	assert_false(why_writers_throttled(162000, 150000, 0, 0));
}

static void test_parse_cgroup(void **state)
{
	(void)state;
	const char st[] = "8:16 rbytes=1048576 wbytes=2097152 rios=100 wios=200 dbytes=0 dios=0\n"
			  "253:0 rbytes=5 wbytes=6 rios=7 wios=8\nbad line\n";
	const char pr[] = "some avg10=1.50 avg60=0.50 avg300=0.10 total=1000\n"
			  "full avg10=0.7 avg60=0.25 avg300=0.05 total=500\n";
	struct cgroup_io c;
	memset(&c, 0, sizeof c);
	cgroup_parse_io_stat(st, strlen(st), &c);
	assert_int_equal(c.ndevs, 2);
	assert_int_equal(c.devs[0].major, 8);
	assert_int_equal(c.devs[0].minor, 16);
	assert_int_equal(c.devs[0].wbytes, 2097152);
	assert_int_equal(c.devs[1].wios, 8);
	cgroup_parse_io_pressure(pr, strlen(pr), &c);
	assert_true(c.have_pressure);
	assert_int_equal(c.some_avg10_c, 150);
	assert_int_equal(c.full_avg10_c, 70);
	assert_int_equal(c.full_total, 500);
}

/* What is written is read back the same, field for field. */
static void test_why_record_round_trip(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	a.seq = 7;
	a.why = why_sample_new();
	assert_non_null(a.why);
	struct why_sample *y = a.why;
	y->dirty = (struct why_dirty){ true, 4, { 1, 2, 3, 4, 5, 6 } };
	y->njournals = 2;
	y->journals[0].fs = JOURNAL_EXT4;
	snprintf(y->journals[0].mountpoint, sizeof y->journals[0].mountpoint, "/mnt/\"q\"\n");
	snprintf(y->journals[0].device, sizeof y->journals[0].device, "loop3");
	journal_parse_jbd2(jbd2_info, strlen(jbd2_info), &y->journals[0]);
	y->journals[1].fs = JOURNAL_XFS;
	y->journals[1].present = 1u << JX_LOG_SIZE;
	y->journals[1].v[JX_LOG_SIZE] = UINT64_MAX;
	y->cgroup_state = CGROUP_IO_OK;
	y->ncgroups = 1;
	snprintf(y->cgroups[0].path, sizeof y->cgroups[0].path, "/app");
	y->cgroups[0].have_pressure = true;
	y->cgroups[0].some_avg10_c = 150;
	y->cgroups[0].ndevs = 1;
	y->cgroups[0].devs[0] = (struct cgroup_io_dev){ 8, 16, 1, 2, 3, 4 };
	struct jsonw w;
	jsonw_init(&w);
	assert_int_equal(session_log_format_why(&a, &w), 0);
	json_object *o = json_tokener_parse(w.buf);
	assert_non_null(o);
	assert_int_equal(session_record_type(o), RECORD_WHY);
	struct error err;
	assert_int_equal(session_log_parse_why(o, &b, &err), 0);
	assert_memory_equal(a.why, b.why, sizeof *a.why);
	json_object_put(o);
	jsonw_free(&w);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* ---- the dip detector ---- */

struct dip_run {
	struct dip_detector *d;
	struct snapshot snap;
	struct rates rates;
	struct device_rates dev;
	struct why_rates why;
	struct selection sel;
	struct event_list events;
	int step;
};

static void dip_run_init(struct dip_run *r, const char *name)
{
	memset(r, 0, sizeof *r);
	r->d = dip_detector_new();
	assert_non_null(r->d);
	snapshot_init(&r->snap);
	event_list_init(&r->events);
	snprintf(r->dev.name, sizeof r->dev.name, "%s", name);
	r->dev.valid = true;
	r->rates.devices = &r->dev;
	r->rates.ndevices = 1;
	r->rates.interval = 1;
}

/* One 1 s sample at kBs with in_flight requests; how many dips it made. */
static int dip_sample(struct dip_run *r, double kBs, unsigned in_flight)
{
	r->step++;
	r->snap.mono.tv_sec = 1000 + r->step;
	r->dev.wkB_s = kBs;
	r->dev.w_s = kBs / 64;
	r->dev.util = kBs > 0 ? 80 : 0;
	r->dev.in_flight = in_flight;
	struct dip_input in = { &r->snap, &r->rates, &r->why, &r->sel };
	size_t before = r->events.count;
	assert_true(dip_detector_step(r->d, &in, &r->events) >= 0);
	return (int)(r->events.count - before);
}

static void dip_run_free(struct dip_run *r)
{
	dip_detector_free(r->d);
	snapshot_free(&r->snap);
	event_list_free(&r->events);
}

/* 200 MB/s for 10 s, then 30 MB/s with requests in flight: one dip, at the second low
 * sample, and no second one while it lasts. */
static void test_dip_two_low_samples_with_work(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	for (int i = 0; i < 10; i++)
		assert_int_equal(dip_sample(&r, 204800, 4), 0);
	assert_int_equal(dip_sample(&r, 30720, 4), 0);   /* one low sample: not yet */
	assert_int_equal(dip_sample(&r, 30720, 4), 1);
	assert_int_equal(dip_sample(&r, 30720, 4), 0);   /* the same dip goes on */
	/* also past a sample with nothing in flight at its moment (4 tags empty in
	 * microseconds): the drop is not reported again */
	assert_int_equal(dip_sample(&r, 30720, 0), 0);
	assert_int_equal(dip_sample(&r, 30720, 4), 0);
	assert_int_equal(dip_sample(&r, 30720, 4), 0);
	assert_int_equal(r.events.count, 1);
	const struct event *ev = &r.events.items[0];
	assert_int_equal(ev->kind, EVENT_DIP);
	assert_string_equal(ev->object, "loop3");
	assert_string_equal(ev->old_value, "200");
	assert_string_equal(ev->new_value, "30");
	char label[600];
	event_label(ev, label, sizeof label);
	assert_non_null(strstr(label, "dip 200→30 MB/s: 4 requests in flight"));
	/* back up, then down again: a second dip */
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	assert_int_equal(dip_sample(&r, 10240, 4), 0);
	assert_int_equal(dip_sample(&r, 10240, 4), 1);
	/* 10 s without work end it: a slower workload after that has a dip of its own */
	for (int i = 0; i < 11; i++)
		dip_sample(&r, 0, 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(dip_sample(&r, 81920, 4), 0);
	assert_int_equal(dip_sample(&r, 10240, 4), 0);
	assert_int_equal(dip_sample(&r, 10240, 4), 1);
	assert_string_equal(r.events.items[r.events.count - 1].old_value, "80");
	dip_run_free(&r);
}

/* Work is what the interval accumulated, not the sample's instant (issue 36): a writer held
 * by its bdi's dirty limit leaves nothing in flight at any sample, but its write-back queued
 * for a part of each interval (aqu-sz 0.02-0.41): one dip.  A journal commit of an idle
 * filesystem (aqu-sz 0.003) is no work. */
static void test_dip_work_of_the_interval(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	r.dev.aqu_sz = 0.003;
	assert_int_equal(dip_sample(&r, 30720, 0), 0);
	assert_int_equal(dip_sample(&r, 30720, 0), 0);
	assert_int_equal(dip_sample(&r, 30720, 0), 0);
	assert_int_equal(r.events.count, 0);
	r.dev.aqu_sz = 0;
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	r.dev.aqu_sz = 0.02;
	assert_int_equal(dip_sample(&r, 30720, 0), 0);
	assert_int_equal(dip_sample(&r, 30720, 0), 1);
	assert_int_equal(dip_sample(&r, 30720, 0), 0);
	assert_int_equal(r.events.count, 1);
	/* and says what it saw: a dip has a reason (a full run's had none: no cause, no task) */
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_non_null(strstr(reason, "requests queued 0.02 on average, none in flight at the sample"));
	dip_run_free(&r);
}

/* A device that stops because it has nothing to do is idle, not in a dip. */
static void test_dip_needs_work(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	assert_int_equal(dip_sample(&r, 0, 0), 0);
	assert_int_equal(dip_sample(&r, 0, 0), 0);
	assert_int_equal(dip_sample(&r, 0, 0), 0);
	/* dirty memory is the whole system's: above the background threshold it is no work
	 * of this device (issue 24), but said when the device has work of its own */
	r.why.have_dirty = true;
	r.why.dirty_kb = 990;
	r.why.threshold_kb = 1000;
	r.why.background_kb = 500;
	r.why.freerun_kb = 750;
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 0);
	assert_int_equal(dip_sample(&r, 100, 0), 0);
	assert_int_equal(dip_sample(&r, 100, 0), 0);
	assert_int_equal(r.events.count, 0);
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 1);
	assert_int_equal(dip_sample(&r, 100, 1), 0);
	assert_int_equal(dip_sample(&r, 100, 1), 1);
	assert_non_null(strstr(r.events.items[r.events.count - 1].reasons, "dirty at limit"));
	dip_run_free(&r);
}

/* The reasons are ranked: a journal commit that grew tenfold comes before the queue. */
static void test_dip_reasons_ranked(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	r.why.njournals = 1;
	struct journal_rates *j = &r.why.journals[0];
	j->fs = JOURNAL_EXT4;
	snprintf(j->device, sizeof j->device, "loop3");
	j->present = 1u << JF_COMMIT_MS;
	j->f[JF_COMMIT_MS] = 300;
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	j->f[JF_COMMIT_MS] = 2100;
	dip_sample(&r, 20480, 4);
	assert_int_equal(dip_sample(&r, 20480, 4), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "jbd2 commit 2.1 s (was 300 ms)");
	assert_true(event_reason(&r.events.items[0], 1, reason, sizeof reason));
	assert_non_null(strstr(reason, "requests in flight"));
	dip_run_free(&r);
}

/* The devices of the snapshot: loop3 (7:3) watched, loop5 (7:5) another. */
static void dip_devices(struct dip_run *r)
{
	const char *names[] = { "loop3", "loop5" };
	for (unsigned i = 0; i < 2; i++) {
		struct device *d = snapshot_add_device(&r->snap);
		snprintf(d->name, sizeof d->name, "%s", names[i]);
		d->major = 7;
		d->minor = i ? 5 : 3;
	}
}

static struct timespec at_second(double t)
{
	time_t sec = (time_t)t;
	return (struct timespec){ sec, (long)((t - (double)sec) * 1e9 + 0.5) };
}

/* loop3 watched beside loop5, written at 200 MB/s for 10 s with writes awaiting await ms. */
static void dip_run_steady(struct dip_run *r, double await)
{
	dip_run_init(r, "loop3");
	dip_devices(r);
	r->dev.w_await = await;
	for (int i = 0; i < 10; i++)
		assert_int_equal(dip_sample(r, 204800, 4), 0);
}

/* A change made at monotonic second t, for the device `scope` alone when not "" (a
 * matrix's step, `ioscope mark --device`). */
static void dip_change_scoped(struct dip_run *r, enum event_kind kind, const char *object,
			      const char *key, const char *old_value, const char *new_value,
			      const char *scope, double t)
{
	struct event ev;
	event_own(&ev, kind, object, key);
	event_set_old_value(&ev, "%s", old_value);
	event_set_new_value(&ev, "%s", new_value);
	event_set_scope(&ev, "%s", scope);
	ev.mono = at_second(t);
	dip_detector_note(r->d, &r->snap, &ev);
	event_free(&ev);
}

static void dip_change(struct dip_run *r, enum event_kind kind, const char *object,
		       const char *key, const char *old_value, const char *new_value, double t)
{
	dip_change_scoped(r, kind, object, key, old_value, new_value, "", t);
}

/* A change announced at monotonic second t as about to be made (its new value only). */
static void dip_announce(struct dip_run *r, enum event_kind kind, const char *object,
			 const char *key, const char *new_value, double t)
{
	struct event ev;
	event_own(&ev, kind, object, key);
	event_set_new_value(&ev, "%s", new_value);
	ev.mono = at_second(t);
	dip_detector_note_pending(r->d, &r->snap, &ev);
	event_free(&ev);
}

/* Causality first (issue 24): a change on the device 2 s before the dip starts is its
 * first reason, with the figures before and after; an earlier mark of the window is the
 * second; a change on another disk, or one older than the window, is none. */
static void test_dip_cause_first(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_steady(&r, 0.3);
	dip_change(&r, EVENT_TUNABLE, "loop3", "nr_requests", "256", "4", 1000 - 5);   /* too old */
	dip_change(&r, EVENT_USER_MARK, "user", "mark", "", "backup", 1005);
	dip_change(&r, EVENT_TUNABLE, "loop5", "read_ahead_kb", "128", "4096", 1009);
	dip_change(&r, EVENT_TUNABLE, "loop3", "nr_requests", "256", "4", 1009);
	dip_change(&r, EVENT_TUNABLE, "loop3", "max_sectors_kb", "512", "4", 1009);
	r.dev.w_await = 9.1;
	assert_int_equal(dip_sample(&r, 12288, 4), 0);    /* second 1011: the dip starts */
	assert_int_equal(dip_sample(&r, 12288, 4), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "2 s after nr_requests 256→4, max_sectors_kb 512→4: 200→12 MB/s, "
			    "await 0.30→9.1 ms");
	assert_true(event_reason(&r.events.items[0], 1, reason, sizeof reason));
	assert_string_equal(reason, "6 s after mark \"backup\"");
	assert_true(event_reason(&r.events.items[0], 2, reason, sizeof reason));
	assert_string_equal(reason, "4 requests in flight, util 80%, await 0.30→9.1 ms");
	assert_null(strstr(r.events.items[0].reasons, "read_ahead_kb"));
	assert_null(strstr(r.events.items[0].reasons, "995"));
	dip_run_free(&r);
}

/* Another user's experiment on its own disk (issue 36): a matrix's steps and its command
 * say their device, and are no cause of a dip of another disk; a mark for this disk is, and
 * so is a bare mark (every device's). */
static void test_dip_other_disks_experiment(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_steady(&r, 0.3);
	dip_change_scoped(&r, EVENT_RUN, "matrix", "umount", "", "umount /mnt/other", "loop9", 1008);
	dip_change_scoped(&r, EVENT_RUN, "run", "exit", "", "exit 0 (3.09 s)", "loop9", 1009);
	dip_change_scoped(&r, EVENT_USER_MARK, "user", "mark", "", "loop9 only", "loop9", 1009);
	dip_change_scoped(&r, EVENT_USER_MARK, "user", "mark", "", "ours", "loop3", 1007);
	assert_int_equal(dip_sample(&r, 12288, 4), 0);
	assert_int_equal(dip_sample(&r, 12288, 4), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "4 s after mark \"ours\": 200→12 MB/s, await 0.30→0.30 ms");
	assert_null(strstr(r.events.items[0].reasons, "loop9"));
	assert_null(strstr(r.events.items[0].reasons, "umount"));
	assert_null(strstr(r.events.items[0].reasons, "exit 0"));
	dip_run_free(&r);
}

/* A change whose write returns after the dip began (a queue frozen and drained by an
 * nr_requests switch under load) is its cause when it was announced before: it counts from
 * the announcement.  One made after the dip's start and not announced is not, nor is an
 * announcement of another setting, or one older than EXPECT_WAIT_SECONDS: those are said
 * as made during the dip, after the cause. */
static void test_dip_cause_announced_before(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_steady(&r, 0.3);
	r.dev.w_await = 9.1;
	dip_announce(&r, EVENT_TUNABLE, "loop3", "read_ahead_kb", "4096", 995);       /* too old */
	dip_announce(&r, EVENT_TUNABLE, "loop3", "nr_requests", "4", 1010.6);
	dip_announce(&r, EVENT_TUNABLE, "loop3", "max_sectors_kb", "4", 1010.6);
	assert_int_equal(dip_sample(&r, 12288, 4), 0);    /* second 1011: the dip starts */
	dip_change(&r, EVENT_TUNABLE, "loop3", "nr_requests", "256", "4", 1011.4);
	dip_change(&r, EVENT_TUNABLE, "loop3", "max_sectors_kb", "512", "4", 1011.5);
	dip_change(&r, EVENT_TUNABLE, "loop3", "read_ahead_kb", "128", "4096", 1011.5);
	dip_change(&r, EVENT_TUNABLE, "loop3", "wbt_lat_usec", "2000", "0", 1011.5);
	assert_int_equal(dip_sample(&r, 12288, 4), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "0.4 s after nr_requests 256→4, max_sectors_kb 512→4: "
			    "200→12 MB/s, await 0.30→9.1 ms");
	assert_true(event_reason(&r.events.items[0], 1, reason, sizeof reason));
	assert_string_equal(reason, "0.5 s into the dip, read_ahead_kb 128→4096, wbt_lat_usec 2000→0");
	dip_run_free(&r);
}

/* A dip whose first low sample came before a change (the workload slowed a moment before
 * the operator's `ioscope set`) has no cause: the change is said after the first signal,
 * as made in the dip, whether made or still being made; a mark made in the dip is no
 * setting and not said, nor is a change of another disk. */
static void test_dip_change_during(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_steady(&r, 0);
	assert_int_equal(dip_sample(&r, 12288, 4), 0);    /* second 1011: the dip starts */
	dip_announce(&r, EVENT_TUNABLE, "loop3", "nr_requests", "4", 1011.3);
	dip_change(&r, EVENT_TUNABLE, "loop3", "nr_requests", "128", "4", 1011.6);
	dip_announce(&r, EVENT_TUNABLE, "loop3", "max_sectors_kb", "4", 1011.31);
	dip_change(&r, EVENT_USER_MARK, "user", "mark", "", "slow", 1011.5);
	dip_change(&r, EVENT_TUNABLE, "loop5", "read_ahead_kb", "128", "4096", 1011.5);
	assert_int_equal(dip_sample(&r, 12288, 4), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "4 requests in flight, util 80%, await 0.00→0.00 ms");
	assert_true(event_reason(&r.events.items[0], 1, reason, sizeof reason));
	assert_string_equal(reason, "0.3 s into the dip, nr_requests 128→4, max_sectors_kb →4 "
			    "(being made)");
	assert_null(strstr(r.events.items[0].reasons, "after"));
	assert_null(strstr(r.events.items[0].reasons, "slow"));
	assert_null(strstr(r.events.items[0].reasons, "read_ahead_kb"));
	dip_run_free(&r);
}

/* A change still being made when the dip is seen (its write has not returned) is named as
 * such; one withdrawn (its job ended without it) is not. */
static void test_dip_cause_being_made(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_steady(&r, 0);
	dip_announce(&r, EVENT_SCHEDULER, "loop3", "scheduler", "bfq", 1010.2);
	struct event gone;
	event_own(&gone, EVENT_TUNABLE, "loop3", "nr_requests");
	gone.mono = at_second(1010.5);
	dip_detector_note_pending(r.d, &r.snap, &gone);
	dip_detector_withdraw(r.d, &gone);
	event_free(&gone);
	dip_announce(&r, EVENT_TUNABLE, "loop5", "read_ahead_kb", "4096", 1010.7);   /* another disk */
	assert_int_equal(dip_sample(&r, 12288, 4), 0);    /* second 1011: the dip starts */
	assert_int_equal(dip_sample(&r, 12288, 4), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "0.8 s after sched →bfq (being made): 200→12 MB/s, "
			    "await 0.00→0.00 ms");
	assert_null(strstr(r.events.items[0].reasons, "nr_requests"));
	assert_null(strstr(r.events.items[0].reasons, "read_ahead_kb"));
	dip_run_free(&r);
}

/* A refused change changed nothing (issue 41): it is no cause of a dip, whatever its label
 * says, nor is its announcement a change still being made; the mark before it is the cause. */
static void test_dip_refused_no_cause(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_steady(&r, 0);
	dip_change(&r, EVENT_USER_MARK, "user", "mark", "", "backup", 1007);
	dip_announce(&r, EVENT_TUNABLE, "loop3", "nr_requests", "99999", 1009.4);
	struct event ev;
	event_own(&ev, EVENT_TUNABLE, "loop3", "nr_requests");
	event_set_old_value(&ev, "%s", "256");
	event_set_new_value(&ev, "%s", "256");
	event_set_result(&ev, "%s", "refused: nr_requests=99999: Invalid argument");
	ev.mono = at_second(1009.5);
	assert_true(event_refused(&ev));
	dip_detector_note(r.d, &r.snap, &ev);
	event_free(&ev);
	assert_int_equal(dip_sample(&r, 12288, 4), 0);    /* second 1011: the dip starts */
	assert_int_equal(dip_sample(&r, 12288, 4), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "4 s after mark \"backup\": 200→12 MB/s, await 0.00→0.00 ms");
	assert_null(strstr(r.events.items[0].reasons, "nr_requests"));
	assert_null(strstr(r.events.items[0].reasons, "refused"));
	dip_run_free(&r);
}

static void dip_blocked(struct dip_run *r, int tid, const char *comm, bool kthread,
			const char *wchan, unsigned minor)
{
	if (!r->snap.tasks)
		r->snap.tasks = tasks_sample_new();
	struct blocked_task *b = tasks_sample_add_blocked(r->snap.tasks);
	assert_non_null(b);
	b->pid = b->tid = tid;
	snprintf(b->comm, sizeof b->comm, "%s", comm);
	snprintf(b->wchan, sizeof b->wchan, "%s", wchan);
	b->kthread = kthread;
	if (!kthread)
		b->waits = (struct task_file){ TASK_FILE_ON_FS, 7, minor };
	r->snap.tasks->nblocked++;
}

/* The root cause first (issue 36): loop3's backing file is on ext4 on loop5, frozen; loop3's
 * worker waits in percpu_rwsem_wait (sb_start_write of the backing filesystem), and its
 * journal and writers wait behind it.  The frozen filesystem is the first reason, in words,
 * before the blocked groups that follow from it. */
static void test_dip_backing_frozen_first(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	dip_devices(&r);
	struct device *d = &r.snap.devices[0];
	d->loop.present = true;
	snprintf(d->loop.file, sizeof d->loop.file, "/mnt/outer/img");
	snprintf(d->loop.disk, sizeof d->loop.disk, "loop5");
	d->loop.major = 7;
	d->loop.minor = 5;
	const char *points[] = { "/", "/mnt", "/mnt/outer" }, *disks[] = { "vda", "loop9", "loop5" };
	for (int i = 0; i < 3; i++) {
		struct mount *m = snapshot_add_mount(&r.snap);
		assert_non_null(m);
		snprintf(m->mountpoint, sizeof m->mountpoint, "%s", points[i]);
		snprintf(m->disk, sizeof m->disk, "%s", disks[i]);
		snprintf(m->fstype, sizeof m->fstype, "ext4");
	}
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	dip_blocked(&r, 44, "jbd2/loop3-8", true, "jbd2_journal_commit_transaction", 0);
	dip_blocked(&r, 45, "kworker/u8:6+loop3", true, "percpu_rwsem_wait", 0);
	r.snap.tasks->blocked[1].since_ns = 1011000000000ull;   /* in D from second 1011 */
	assert_int_equal(dip_sample(&r, 0, 2), 0);
	assert_int_equal(dip_sample(&r, 0, 2), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "loop3's backing file is on a frozen filesystem (ext4 on loop5, "
			    "/mnt/outer): its loop worker waits, 1.0 s");
	assert_non_null(strstr(r.events.items[0].reasons, "jbd2_journal_commit_transaction"));
	tasks_sample_free(r.snap.tasks);
	r.snap.tasks = NULL;
	dip_run_free(&r);
}

/* A workload that ends is no dip, whatever is stuck on another disk: a writer on a frozen
 * filesystem of loop5 and loop5's flusher are neither loop3's work nor its reasons.  A
 * writer stuck on loop3 itself is both. */
static void test_dip_only_its_own_tasks(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	dip_devices(&r);
	dip_blocked(&r, 40, "dd", false, "percpu_rwsem_wait", 5);
	dip_blocked(&r, 41, "kworker/u8:2+flush-7:5", true, "blk_mq_get_tag", 0);
	dip_blocked(&r, 42, "umount", false, "submit_bio_wait", 0);
	r.snap.tasks->blocked[2].waits.kind = TASK_FILE_NONE;   /* not attributed */
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(dip_sample(&r, 0, 0), 0);
	assert_int_equal(r.events.count, 0);
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 4);
	dip_blocked(&r, 43, "tar", false, "percpu_rwsem_wait", 3);
	dip_blocked(&r, 44, "jbd2/loop3-8", true, "jbd2_journal_commit_transaction", 0);
	assert_int_equal(dip_sample(&r, 0, 0), 0);
	assert_int_equal(dip_sample(&r, 0, 0), 1);
	const char *reasons = r.events.items[0].reasons;
	assert_non_null(strstr(reasons, "1 task in percpu_rwsem_wait (tar)"));
	assert_non_null(strstr(reasons, "1 task in jbd2_journal_commit_transaction (jbd2)"));
	assert_null(strstr(reasons, "dd"));
	assert_null(strstr(reasons, "kworker"));
	assert_null(strstr(reasons, "umount"));
	tasks_sample_free(r.snap.tasks);
	r.snap.tasks = NULL;
	dip_run_free(&r);
}

/* Journal commits in progress (issue 24): the committing thread by name, jbd2's cut at
 * the kernel's 15 bytes or an xfs kworker by its work; how long it has been in D, none
 * while the journal went on (a commit ended in the interval). */
static void test_commit_running(void **state)
{
	(void)state;
	assert_true(journal_committer_is("jbd2/loop0-8", JOURNAL_EXT4, "loop0"));
	assert_false(journal_committer_is("jbd2/loop0-8", JOURNAL_EXT4, "loop"));
	assert_false(journal_committer_is("jbd2/loop0-8", JOURNAL_XFS, "loop0"));
	assert_true(journal_committer_is("jbd2/nvme0n1p12", JOURNAL_EXT4, "nvme0n1p12"));
	assert_false(journal_committer_is("jbd2/nvme0n1p12", JOURNAL_EXT4, "nvme0n1p1"));
	assert_true(journal_committer_is("kworker/u8:2+xfs-cil/loop1", JOURNAL_XFS, "loop1"));
	assert_false(journal_committer_is("kworker/u8:2+flush-7:1", JOURNAL_XFS, "loop1"));
	assert_false(journal_committer_is("xfsaild/loop1", JOURNAL_XFS, "loop1"));

	struct tasks_sample *t = tasks_sample_new();
	assert_non_null(t);
	struct blocked_task *b = tasks_sample_add_blocked(t);
	assert_non_null(b);
	snprintf(b->comm, sizeof b->comm, "jbd2/loop0-8");
	b->kthread = true;
	b->since_ns = 100000000000ull;                 /* in D since second 100 */
	struct why_rates y = { .njournals = 2 };
	y.journals[0].fs = y.journals[1].fs = JOURNAL_EXT4;
	snprintf(y.journals[0].device, sizeof y.journals[0].device, "loop0");
	snprintf(y.journals[1].device, sizeof y.journals[1].device, "loop1");
	y.journals[0].present = 1u << JF_COMMITS_S;     /* no commit ended */
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, NULL);
	assert_true(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	assert_true(y.journals[0].f[JF_COMMIT_RUNNING_S] == 12.0);
	assert_false(y.journals[1].present & (1u << JF_COMMIT_RUNNING_S));
	y.journals[0].present = 1u << JF_COMMITS_S;
	y.journals[0].f[JF_COMMITS_S] = 3;              /* committing, not stuck */
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, NULL);
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	b->kthread = false;                             /* a process named so is not it */
	y.journals[0].f[JF_COMMITS_S] = 0;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, NULL);
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	tasks_sample_free(t);
}

/* xfs whose log write hangs: no kworker is in D, the fsync callers wait in
 * xlog_wait_on_iclog on a file of the filesystem.  The longest of them is the commit's
 * time, for that filesystem only (not for the disk under its loop device, not for another
 * xfs), and none while the log was written in the interval or without a snapshot to
 * attribute the files by. */
static void test_commit_running_xfs_log_waiters(void **state)
{
	(void)state;
	struct snapshot devs;
	snapshot_init(&devs);
	static const struct { const char *name, *loop_disk; unsigned minor; } d[] = {
		{ "loop5", "loop6", 5 }, { "loop6", "", 6 }, { "loop7", "", 7 },
	};
	for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
		struct device *v = snapshot_add_device(&devs);
		assert_non_null(v);
		snprintf(v->name, sizeof v->name, "%s", d[i].name);
		v->major = 7;
		v->minor = d[i].minor;
		v->loop.present = d[i].loop_disk[0];
		snprintf(v->loop.disk, sizeof v->loop.disk, "%s", d[i].loop_disk);
	}
	struct tasks_sample *t = tasks_sample_new();
	assert_non_null(t);
	static const struct { const char *wchan; unsigned minor; uint64_t since_s; } w[] = {
		{ "xlog_wait_on_iclog", 5, 100 },       /* fsync on loop5's xfs, 12 s */
		{ "xlog_wait_on_iclog", 5, 105 },
		{ "xlog_wait_on_iclog", 7, 90 },        /* another xfs's */
		{ "balance_dirty_pages", 5, 80 },       /* not a log wait */
	};
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		struct blocked_task *b = tasks_sample_add_blocked(t);
		assert_non_null(b);
		snprintf(b->comm, sizeof b->comm, "fsync-loop");
		snprintf(b->wchan, sizeof b->wchan, "%s", w[i].wchan);
		b->waits = (struct task_file){ TASK_FILE_ON_FS, 7, w[i].minor };
		b->since_ns = w[i].since_s * 1000000000ull;
	}
	struct why_rates y = { .njournals = 3 };
	static const char *const jdev[] = { "loop5", "loop6", "loop7" };
	for (size_t i = 0; i < 3; i++) {
		y.journals[i].fs = JOURNAL_XFS;
		snprintf(y.journals[i].device, sizeof y.journals[i].device, "%s", jdev[i]);
		y.journals[i].present = 1u << JF_LOG_WRITES_S;   /* the log not written */
	}
	y.journals[2].f[JF_LOG_WRITES_S] = 40;             /* loop7's log is written */
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, &devs);
	assert_true(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	assert_true(y.journals[0].f[JF_COMMIT_RUNNING_S] == 12.0);
	assert_false(y.journals[1].present & (1u << JF_COMMIT_RUNNING_S));
	assert_false(y.journals[2].present & (1u << JF_COMMIT_RUNNING_S));

	/* the log written once (xfs's periodic work into the stuck log), no waiter's sleep
	 * begun: they slept all through, the commit still runs; with sleeps begun, not known */
	y.journals[0].present = 1u << JF_LOG_WRITES_S | 1u << JF_LOG_FORCE_SLEEPS_S;
	y.journals[0].f[JF_LOG_WRITES_S] = 0.5;
	y.journals[0].f[JF_LOG_FORCE_SLEEPS_S] = 0;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, &devs);
	assert_true(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	assert_true(y.journals[0].f[JF_COMMIT_RUNNING_S] == 12.0);
	/* and with the push work in D beside them, for the log write it issued (counted) */
	struct blocked_task *push = tasks_sample_add_blocked(t);
	assert_non_null(push);
	snprintf(push->comm, sizeof push->comm, "kworker/u4:1+xfs-cil/loop5");
	push->kthread = true;
	push->since_ns = 111000000000ull;
	y.journals[0].present = 1u << JF_LOG_WRITES_S | 1u << JF_LOG_FORCE_SLEEPS_S;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, &devs);
	assert_true(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	assert_true(y.journals[0].f[JF_COMMIT_RUNNING_S] == 12.0);
	t->nkept--;                                     /* the push work gone again */
	y.journals[0].present = 1u << JF_LOG_WRITES_S | 1u << JF_LOG_FORCE_SLEEPS_S;
	y.journals[0].f[JF_LOG_FORCE_SLEEPS_S] = 3;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, &devs);
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	/* with the run counts read, the waiters in one wait since earlier samples slept
	 * through: those sleeps were another's (a sync(2) of the whole machine) */
	t->runs_read = true;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, &devs);
	assert_true(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	assert_true(y.journals[0].f[JF_COMMIT_RUNNING_S] == 12.0);
	/* ... and not when each began its wait in this interval (it ran since the last) */
	t->blocked[0].since_ns = t->blocked[1].since_ns = 112000000000ull;
	y.journals[0].present = 1u << JF_LOG_WRITES_S | 1u << JF_LOG_FORCE_SLEEPS_S;
	y.journals[0].f[JF_LOG_FORCE_SLEEPS_S] = 0;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, &devs);
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	t->blocked[0].since_ns = 100000000000ull;
	t->blocked[1].since_ns = 105000000000ull;
	t->runs_read = false;
	y.journals[0].present = 1u << JF_LOG_WRITES_S | 1u << JF_LOG_FORCE_SLEEPS_S;
	y.journals[0].f[JF_LOG_WRITES_S] = 0;
	y.journals[0].f[JF_LOG_FORCE_SLEEPS_S] = 0;

	y.journals[0].present = 1u << JF_LOG_WRITES_S;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, NULL);   /* nothing to attribute by */
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	y.journals[0].fs = JOURNAL_EXT4;                 /* ext4's jbd2 says it by itself */
	y.journals[0].present = 1u << JF_COMMITS_S;
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, &devs);
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	tasks_sample_free(t);
	snapshot_free(&devs);
}

/* Without task data (issue 24): the sampler's figure of jbd2's own thread (thread_d_ms,
 * present while it is in D) is the commit's time, none while commits ended; and with task
 * data the thread's figure, which knows when a commit ended, is kept over the tasks'. */
static void test_commit_running_without_tasks(void **state)
{
	(void)state;
	struct why_sample *a = why_sample_new(), *b = why_sample_new();
	assert_non_null(a);
	assert_non_null(b);
	a->njournals = b->njournals = 1;
	struct journal_raw *j0 = &a->journals[0], *j1 = &b->journals[0];
	j0->fs = j1->fs = JOURNAL_EXT4;
	snprintf(j0->device, sizeof j0->device, "loop0");
	snprintf(j1->device, sizeof j1->device, "loop0");
	j0->present = j1->present = 1u << J4_TRANSACTIONS;
	j0->v[J4_TRANSACTIONS] = j1->v[J4_TRANSACTIONS] = 40;
	j1->present |= 1u << J4_THREAD_D_MS;
	j1->v[J4_THREAD_D_MS] = 2500;
	struct why_rates y;
	why_rates_compute(&y, a, b, 1.0);
	assert_true(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	assert_true(y.journals[0].f[JF_COMMIT_RUNNING_S] == 2.5);

	struct tasks_sample *t = tasks_sample_new();
	assert_non_null(t);
	struct blocked_task *bt = tasks_sample_add_blocked(t);
	assert_non_null(bt);
	snprintf(bt->comm, sizeof bt->comm, "jbd2/loop0-8");
	bt->kthread = true;
	bt->since_ns = 100000000000ull;                 /* in D through earlier commits */
	why_rates_add_tasks(&y, NULL, t, 112000000000ull, NULL);
	assert_true(y.journals[0].f[JF_COMMIT_RUNNING_S] == 2.5);
	tasks_sample_free(t);

	j1->v[J4_TRANSACTIONS] = 41;                    /* a commit ended: at its next one */
	why_rates_compute(&y, a, b, 1.0);
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	j1->present &= ~(1u << J4_THREAD_D_MS);         /* not in D */
	j1->v[J4_TRANSACTIONS] = 40;
	why_rates_compute(&y, a, b, 1.0);
	assert_false(y.journals[0].present & (1u << JF_COMMIT_RUNNING_S));
	free(a);
	free(b);
}

/* A commit running for 12 s on the device is its work and a reason, before the queue;
 * one on another device is neither. */
static void test_dip_commit_running(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	dip_devices(&r);
	r.why.njournals = 2;
	const char *devs[] = { "loop3", "loop5" };
	for (int i = 0; i < 2; i++) {
		r.why.journals[i].fs = JOURNAL_EXT4;
		snprintf(r.why.journals[i].device, sizeof r.why.journals[i].device, "%s", devs[i]);
	}
	struct journal_rates *mine = &r.why.journals[0], *other = &r.why.journals[1];
	other->present = 1u << JF_COMMIT_RUNNING_S;
	other->f[JF_COMMIT_RUNNING_S] = 30;
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(dip_sample(&r, 0, 0), 0);   /* the other's commit is no work */
	for (int i = 0; i < 10; i++)
		dip_sample(&r, 204800, 0);
	mine->present = 1u << JF_COMMIT_RUNNING_S;
	mine->f[JF_COMMIT_RUNNING_S] = 11;
	assert_int_equal(dip_sample(&r, 0, 0), 0);
	mine->f[JF_COMMIT_RUNNING_S] = 12;
	assert_int_equal(dip_sample(&r, 0, 2), 1);
	char reason[200];
	assert_true(event_reason(&r.events.items[0], 0, reason, sizeof reason));
	assert_string_equal(reason, "journal commit running for 12 s on loop3 (jbd2)");
	assert_true(event_reason(&r.events.items[0], 1, reason, sizeof reason));
	assert_non_null(strstr(reason, "requests in flight"));
	assert_null(strstr(r.events.items[0].reasons, "loop5"));
	dip_run_free(&r);
}

/* t written as the session log's tasks record and read back */
static struct tasks_sample *tasks_record_round_trip(struct tasks_sample *t)
{
	struct snapshot snap;
	snapshot_init(&snap);
	snap.tasks = t;
	struct jsonw w;
	jsonw_init(&w);
	assert_int_equal(session_log_format_tasks(&snap, &w), 0);
	snap.tasks = NULL;
	snapshot_free(&snap);
	json_object *o = json_tokener_parse(w.buf);
	assert_non_null(o);
	struct tasks_sample *back = NULL;
	struct error err;
	assert_int_equal(session_log_parse_tasks(o, &back, &err), 0);
	json_object_put(o);
	jsonw_free(&w);
	return back;
}

/* A blocked writer's memory cgroup (issue 24): which one from /proc/PID/cgroup (v1's
 * memory line first, v2's "0::" when memory is on cgroup2; ".." refused), the figures of
 * either version, the rates and the text every view shows, and the tasks record keeps
 * them for a replay. */
static void test_memcg(void **state)
{
	(void)state;
	static const char both[] = "9:name=systemd:/\n4:cpu,memory:/untar\n0::/user.slice\n";
	uint8_t version = 0;
	char path[MEMCG_PATH_MAX];
	assert_true(memcg_parse_proc_cgroup(both, strlen(both), true, true, &version, path,
					    sizeof path));
	assert_int_equal(version, 1);
	assert_string_equal(path, "/untar");
	assert_true(memcg_parse_proc_cgroup(both, strlen(both), false, true, &version, path,
					    sizeof path));
	assert_int_equal(version, 2);
	assert_string_equal(path, "/user.slice");
	assert_false(memcg_parse_proc_cgroup(both, strlen(both), false, false, &version, path,
					     sizeof path));
	static const char up[] = "0::/a/../../etc\n";
	assert_false(memcg_parse_proc_cgroup(up, strlen(up), false, true, &version, path,
					     sizeof path));
	uint64_t v;
	assert_true(memcg_parse_value("33554432\n", 9, &v));
	assert_true(v == 33554432);
	assert_false(memcg_parse_value("max\n", 4, &v));
	assert_false(memcg_parse_value("9223372036854771712\n", 20, &v));

	struct task_memcg a = { .path = "/untar", .version = 1 }, b;
	static const char v1stat[] = "cache 100\ndirty 4096\ntotal_dirty 8388608\n"
				     "total_writeback 2097152\n";
	memcg_parse_stat(v1stat, strlen(v1stat), &a);
	assert_true(a.v[MEMCG_DIRTY] == 8388608 && a.v[MEMCG_WRITEBACK] == 2097152);
	struct task_memcg c2 = { .path = "/x", .version = 2 };
	static const char v2stat[] = "anon 1\nfile_dirty 4096\nfile_writeback 0\npgscan 77\n";
	static const char v2events[] = "low 0\nhigh 5\nmax 12\noom 0\n";
	memcg_parse_stat(v2stat, strlen(v2stat), &c2);
	memcg_parse_events(v2events, strlen(v2events), &c2);
	assert_true(c2.v[MEMCG_PGSCAN] == 77 && c2.v[MEMCG_HIGH] == 5 && c2.v[MEMCG_MAX] == 12);
	assert_true(c2.present & (1u << MEMCG_WRITEBACK));
	/* v1 without a limit of its own: its parent's, through hierarchical_memory_limit */
	struct task_memcg child = { .path = "/a/b", .version = 1 };
	static const char inherits[] = "hierarchical_memory_limit 33554432\ntotal_dirty 0\n";
	memcg_parse_stat(inherits, strlen(inherits), &child);
	assert_true((child.present & (1u << MEMCG_LIMIT)) && child.v[MEMCG_LIMIT] == 33554432);
	static const char unlimited[] = "hierarchical_memory_limit 9223372036854771712\n";
	struct task_memcg none = { .path = "/c", .version = 1 };
	memcg_parse_stat(unlimited, strlen(unlimited), &none);
	assert_false(none.present & (1u << MEMCG_LIMIT));

	a.v[MEMCG_LIMIT] = 384ull << 20;
	a.v[MEMCG_USAGE] = 380ull << 20;
	a.v[MEMCG_FAILCNT] = 1000;
	a.present |= 1u << MEMCG_LIMIT | 1u << MEMCG_USAGE | 1u << MEMCG_FAILCNT;
	b = a;
	b.v[MEMCG_FAILCNT] = 5460;
	struct tasks_sample *t0 = tasks_sample_new(), *t1 = tasks_sample_new();
	assert_non_null(t0);
	assert_non_null(t1);
	t0->memcgs[0] = a;
	t0->nmemcgs = 1;
	t1->memcgs[0] = b;
	t1->nmemcgs = 1;
	t1->interval_ns = 1000000000;
	const char *comms[] = { "tar", "tar", "gzip" };
	for (int i = 0; i < 3; i++) {
		struct blocked_task *bt = tasks_sample_add_blocked(t1);
		assert_non_null(bt);
		snprintf(bt->comm, sizeof bt->comm, "%s", comms[i]);
		bt->memcg = 1;
		t1->nblocked++;
	}
	struct why_rates y = { .njournals = 0 };
	why_rates_add_tasks(&y, t0, t1, 0, NULL);
	assert_int_equal(y.nmemcgs, 1);
	assert_true(memcg_pressed(&y.memcgs[0]));
	char text[300];
	memcg_rates_text(&y.memcgs[0], text, sizeof text);
	assert_string_equal(text, "memory cgroup /untar (v1): 380 of 384 MB used, dirty 8.0 MB, "
			    "writeback 2.0 MB, failcnt 4460/s; 3 blocked (tar, gzip)");

	/* the tasks record keeps them */
	struct tasks_sample *back = tasks_record_round_trip(t1);
	assert_int_equal(back->nmemcgs, 1);
	assert_memory_equal(&back->memcgs[0], &t1->memcgs[0], sizeof back->memcgs[0]);
	assert_int_equal(back->blocked[2].memcg, 1);
	tasks_sample_free(back);
	tasks_sample_free(t1);
	tasks_sample_free(t0);
}

/* cgroup v2 has no hierarchical_memory_limit (issue 24): a cgroup whose memory.max is "max"
 * is held by its ancestors'; the lowest of its own and theirs is its limit, the ancestor
 * named.  In a tree of our own as the cgroup2 mount; the text, the tasks record and the
 * replay say which cgroup's limit it is. */
static int cgroup_tree_up(void **state)
{
	static char root[32];
	snprintf(root, sizeof root, "/tmp/ioscope-test.XXXXXX");
	*state = root;
	return mkdtemp(root) ? 0 : -1;
}

/* Removed by the teardown: a failed assertion leaves the test half way. */
static int cgroup_tree_down(void **state)
{
	rm_tree(*state);
	return 0;
}

static void test_memcg_v2_parent_limit(void **state)
{
	const char *root = *state;
	char path[4096];
	static const char *const files[][2] = {
		{ "build/memory.max", "402653184\n" },            /* 384 MB */
		{ "build/job/memory.max", "max\n" },
		{ "build/job/memory.current", "20971520\n" },     /* 20 MB */
		{ "build/job/memory.stat", "file_dirty 4194304\nfile_writeback 0\npgscan 10\n" },
		{ "build/job/step/memory.max", "max\n" },
		{ "build/tight/memory.max", "67108864\n" },       /* its own 64 MB is lower */
		{ "top/memory.max", "1073741824\n" },
		{ "top/mid/memory.max", "268435456\n" },          /* 256 MB, the lowest above */
		{ "top/mid/leaf/memory.max", "536870912\n" },
		{ "free/memory.max", "max\n" },
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", root, files[i][0]);
		write_file(path, files[i][1]);
	}
	struct memcg_roots r;
	memcg_roots_init(&r);
	r.looked = true;
	r.v2fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(r.v2fd >= 0);
	static const struct { const char *path, *limit_of; uint64_t limit; } cases[] = {
		{ "/build/job", "/build", 402653184 },
		{ "/build/job/step", "/build", 402653184 },
		{ "/build/tight", "", 67108864 },
		{ "/top/mid/leaf", "/top/mid", 268435456 },
		{ "/free", "", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task_memcg m = { .version = 2 };
		snprintf(m.path, sizeof m.path, "%s", cases[i].path);
		memcg_read(&r, &m);
		assert_int_equal(!!(m.present & (1u << MEMCG_LIMIT)), cases[i].limit != 0);
		if (cases[i].limit)
			assert_int_equal(m.v[MEMCG_LIMIT], cases[i].limit);
		assert_string_equal(m.limit_of, cases[i].limit_of);
	}

	struct tasks_sample *t = tasks_sample_new();
	assert_non_null(t);
	t->memcgs[0] = (struct task_memcg){ .path = "/build/job", .version = 2 };
	memcg_read(&r, &t->memcgs[0]);
	t->nmemcgs = 1;
	struct blocked_task *bt = tasks_sample_add_blocked(t);   /* the views show the cgroups */
	assert_non_null(bt);                                     /* blocked tasks name */
	bt->memcg = 1;
	snprintf(bt->comm, sizeof bt->comm, "make");
	t->nblocked = 1;
	struct why_rates y = { .njournals = 0 };
	why_rates_add_tasks(&y, NULL, t, 0, NULL);
	char text[300];
	memcg_rates_text(&y.memcgs[0], text, sizeof text);
	assert_string_equal(text, "memory cgroup /build/job (v2): 20 of 384 MB used (limit of /build), "
			    "dirty 4.0 MB, writeback 0.0 MB; 1 blocked (make)");
	struct tasks_sample *back = tasks_record_round_trip(t);
	assert_string_equal(back->memcgs[0].limit_of, "/build");
	assert_memory_equal(&back->memcgs[0], &t->memcgs[0], sizeof back->memcgs[0]);
	tasks_sample_free(back);
	tasks_sample_free(t);
	memcg_roots_close(&r);
}

/* Named devices are watched whatever their load; with none named, only whole disks
 * busier than 5%: a slow device without a baseline makes no dip. */
static void test_dip_short_history(void **state)
{
	(void)state;
	struct dip_run r;
	dip_run_init(&r, "loop3");
	dip_sample(&r, 204800, 4);
	dip_sample(&r, 204800, 4);
	assert_int_equal(dip_sample(&r, 1024, 4), 0);   /* two samples: no median yet */
	assert_int_equal(dip_sample(&r, 1024, 4), 0);
	dip_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jbd2_interval_mean),
		cmocka_unit_test(test_parse_jbd2),
		cmocka_unit_test(test_parse_xfs_btrfs),
		cmocka_unit_test(test_parse_vmstat_and_throttled),
		cmocka_unit_test(test_parse_cgroup),
		cmocka_unit_test(test_why_record_round_trip),
		cmocka_unit_test(test_dip_two_low_samples_with_work),
		cmocka_unit_test(test_dip_needs_work),
		cmocka_unit_test(test_dip_reasons_ranked),
		cmocka_unit_test(test_dip_short_history),
		cmocka_unit_test(test_dip_cause_first),
		cmocka_unit_test(test_dip_other_disks_experiment),
		cmocka_unit_test(test_dip_work_of_the_interval),
		cmocka_unit_test(test_dip_backing_frozen_first),
		cmocka_unit_test(test_dip_cause_announced_before),
		cmocka_unit_test(test_dip_cause_being_made),
		cmocka_unit_test(test_dip_refused_no_cause),
		cmocka_unit_test(test_dip_change_during),
		cmocka_unit_test(test_dip_only_its_own_tasks),
		cmocka_unit_test(test_commit_running),
		cmocka_unit_test(test_commit_running_xfs_log_waiters),
		cmocka_unit_test(test_commit_running_without_tasks),
		cmocka_unit_test(test_dip_commit_running),
		cmocka_unit_test(test_memcg),
		cmocka_unit_test_setup_teardown(test_memcg_v2_parent_limit, cgroup_tree_up,
						cgroup_tree_down),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
