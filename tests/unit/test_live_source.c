/* test_live_source.c - the live source on fixture trees and on this kernel. */
#include "unit.h"

#include <math.h>
#include <poll.h>
#include <string.h>
#include <sys/mount.h>
#include <time.h>

#include "events.h"
#include "sampler.h"
#include "source.h"
#include "sources_helpers.h"

static struct source *open_fixture(const char *rel)
{
	struct error err;
	struct source *s = source_live_new(fixture_path(rel), 1.0, &err);
	if (!s)
		fail_msg("%s: %s", rel, err.msg);
	return s;
}

static int read_ok(struct source *s, struct snapshot *snap)
{
	struct error err;
	int r = source_read(s, snap, &err);
	if (r < 0)
		fail_msg("read: %s", err.msg);
	return r;
}

static const struct device *dev(const struct snapshot *s, const char *name)
{
	const struct device *d = snapshot_find_device(s, name);
	if (!d)
		fail_msg("no device %s", name);
	return d;
}

static void test_interval_range(void **state)
{
	struct error err;
	assert_null(source_live_new(NULL, 0.009, &err));
	assert_non_null(strstr(err.msg, "0.01"));
	assert_null(source_live_new(NULL, 3600.5, &err));
	assert_null(source_live_new(NULL, NAN, &err));
	assert_null(source_live_new("/nonexistent/ioscope", 1, &err));
	assert_non_null(strstr(err.msg, "/nonexistent/ioscope"));
	struct source *s = source_live_new(NULL, 0.01, &err);
	assert_non_null(s);
	assert_true(s->live && s->paced);
	assert_true(s->ops->wait_fd(s) >= 0);
	assert_int_equal(s->ops->set_interval(s, 0.001, &err), -1);
	assert_int_equal(s->ops->set_interval(s, 3600, &err), 0);
	assert_true(s->interval == 3600);
	source_destroy(s);
}

static void test_numbered_trees_layout14(void **state)
{
	struct source *s = open_fixture("layout14");
	assert_false(s->paced);
	assert_false(s->live);
	assert_int_equal(s->ops->wait_fd(s), -1);
	struct error err;
	assert_int_equal(source_wait(s, &err), 0);    /* returns at once */
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	assert_int_equal(read_ok(s, &a), 1);
	assert_int_equal(read_ok(s, &b), 1);
	assert_int_equal(a.seq, 1);
	assert_int_equal(b.seq, 2);
	assert_true(timespec_seconds(&a.mono) == 1000.0);
	assert_true(fabs(timespec_diff(&b.mono, &a.mono) - 1.0) < 1e-9);
	assert_true(fabs(timespec_diff(&b.wall, &a.wall) - 1.0) < 1e-6);
	assert_int_equal(b.ndevices, 4);
	/* No sys/ in this tree: partitions told by their names. */
	assert_true(dev(&b, "sda1")->is_partition);
	assert_string_equal(dev(&b, "sda1")->parent, "sda");
	assert_false(dev(&b, "sda")->is_partition);
	assert_false(dev(&b, "dm-0")->is_partition);
	assert_false(dev(&b, "sda")->settings.has_settings);
	assert_int_equal(dev(&b, "sda")->counters.nfields, 14);
	assert_int_equal(dev(&b, "sda")->counters.rd_ios, 1100);
	assert_false(b.vm.have_stat);
	assert_false(b.vm.have_psi);
	assert_int_equal(read_ok(s, &a), 0);          /* after the last tree */
	assert_int_equal(read_ok(s, &a), 0);
	snapshot_free(&a);
	snapshot_free(&b);
	source_destroy(s);
}

static void test_layout20_settings_follow_the_trees(void **state)
{
	struct source *s = open_fixture("layout20");
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	read_ok(s, &a);
	read_ok(s, &b);
	const struct device *d1 = dev(&a, "vdb"), *d2 = dev(&b, "vdb");
	assert_true(d1->settings.has_settings);
	assert_string_equal(d1->settings.scheduler, "mq-deadline");
	assert_string_equal(d2->settings.scheduler, "bfq");
	assert_string_equal(device_setting(d1, "iosched.fifo_batch"), "16");
	assert_null(device_setting(d2, "iosched.fifo_batch"));
	assert_string_equal(device_setting(d2, "iosched.low_latency"), "1");
	assert_string_equal(device_setting(d1, "read_ahead_kb"), "128");
	assert_string_equal(device_setting(d2, "read_ahead_kb"), "4096");
	assert_string_equal(d1->serial, "FIXTURE-VDB");
	assert_string_equal(d1->model, "FIXTURE MODEL");            /* trailing blanks gone */
	assert_string_equal(dev(&a, "dm-0")->dm_name, "vg-data");
	assert_false(dev(&a, "dm-0")->is_partition);
	assert_string_equal(dev(&a, "dm-0")->settings.scheduler, "none");
	assert_string_equal(device_setting(dev(&a, "dm-0"), "read_ahead_kb"), "128");
	assert_int_equal(d1->settings.inflight_write, 3);
	assert_true(dev(&a, "vdb1")->is_partition);
	assert_string_equal(dev(&a, "vdb1")->parent, "vdb");
	assert_false(dev(&a, "vdb1")->settings.has_settings);
	assert_int_equal(d2->counters.fl_ios, 60);
	/* Each tree has its own sampler; their settings must not share a generation, or
	 * the diff skips them and the switch is never an event. */
	assert_true(d1->settings.generation != d2->settings.generation);
	struct event_list ev;
	event_list_init(&ev);
	assert_true(events_diff(&ev, &a, &b) >= 1);
	assert_int_equal(ev.items[0].kind, EVENT_SCHEDULER);
	event_list_free(&ev);
	snapshot_free(&a);
	snapshot_free(&b);
	source_destroy(s);
}

static void test_hotplug_wrap_reset_zero(void **state)
{
	struct snapshot snap;
	snapshot_init(&snap);
	struct source *s = open_fixture("hotplug");
	size_t counts[] = { 1, 2, 2, 1 };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(read_ok(s, &snap), 1);
		assert_int_equal(snap.ndevices, counts[i]);
		if (counts[i] == 2) {
			assert_string_equal(device_setting(dev(&snap, "sdb"), "nr_requests"), "32");
			assert_string_equal(dev(&snap, "sdb")->settings.scheduler, "none");
		}
		assert_string_equal(device_setting(dev(&snap, "sda"), "nr_requests"), "64");
	}
	assert_null(snapshot_find_device(&snap, "sdb"));
	assert_int_equal(read_ok(s, &snap), 0);
	source_destroy(s);

	s = open_fixture("wrap32");
	read_ok(s, &snap);
	assert_int_equal(dev(&snap, "sdb")->counters.rd_ios, 4294967000u);
	read_ok(s, &snap);
	assert_int_equal(dev(&snap, "sdb")->counters.rd_ios, 704);
	source_destroy(s);

	s = open_fixture("reset");
	read_ok(s, &snap);
	assert_true(dev(&snap, "sdc")->counters.rd_sectors == 8589934592ull);
	read_ok(s, &snap);
	assert_int_equal(dev(&snap, "sdc")->counters.rd_sectors, 80);
	assert_int_equal(read_ok(s, &snap), 1);
	source_destroy(s);

	struct snapshot prev;
	snapshot_init(&prev);
	s = open_fixture("zero-interval");
	read_ok(s, &prev);
	read_ok(s, &snap);
	assert_true(timespec_diff(&snap.mono, &prev.mono) == 0.0);
	read_ok(s, &prev);
	assert_true(fabs(timespec_diff(&prev.mono, &snap.mono) - 1.0) < 1e-9);
	source_destroy(s);
	snapshot_free(&prev);
	snapshot_free(&snap);
}

static void test_single_tree_without_sys_or_psi(void **state)
{
	struct error err;
	struct source *s = source_live_new(fixture_path("no-sys-no-psi"), 0.05, &err);
	assert_non_null(s);
	assert_true(s->paced);
	assert_false(s->live);
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	read_ok(s, &a);
	struct timespec t1;
	assert_int_equal(source_wait(s, &err), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	read_ok(s, &b);
	/* it did wait: for the deadline an interval after the first sample, which may be the
	 * one taken while the source was made, before the read */
	assert_true(timespec_diff(&t1, &a.mono) > 0.02);
	assert_true(timespec_diff(&b.mono, &a.mono) > 0.02);  /* real clock, not uptime */
	assert_int_equal(b.seq, 2);
	assert_true(b.vm.have_stat && b.vm.have_vmstat && b.vm.have_meminfo);
	assert_false(b.vm.have_psi);
	assert_int_equal(b.ndevices, 6);                      /* 20- and 14-field lines mixed */
	for (size_t i = 0; i < b.ndevices; i++) {
		assert_false(b.devices[i].settings.has_settings);
		assert_int_equal(b.devices[i].settings.rotational, -1);
	}
	assert_true(dev(&b, "vdb1")->is_partition);
	/* proc and tmpfs are left out; the rest found their disks. */
	assert_int_equal(b.nmounts, 4);
	const char *disks[] = { "sda1", "vdb1", "sda2", "dm-0" };
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(b.mounts[i].disk, disks[i]);
	snapshot_free(&a);
	snapshot_free(&b);
	source_destroy(s);
}

static void test_root_live_capture(void **state)
{
	struct source *s = open_fixture("root-live");
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	read_ok(s, &a);
	int n = 1;
	while (read_ok(s, &b) == 1) {
		n++;
		assert_true(timespec_diff(&b.mono, &a.mono) > 0.5);
		/* the captured writers: loop4 ext4 mq-deadline, loop5 btrfs bfq */
		assert_true(dev(&b, "loop4")->counters.wr_ios > dev(&a, "loop4")->counters.wr_ios);
		assert_true(dev(&b, "loop5")->counters.wr_ios > dev(&a, "loop5")->counters.wr_ios);
		snapshot_swap(&a, &b);
	}
	assert_int_equal(n, 3);
	assert_string_equal(dev(&a, "loop4")->settings.scheduler, "mq-deadline");
	assert_string_equal(dev(&a, "loop5")->settings.scheduler, "bfq");
	assert_non_null(device_setting(dev(&a, "loop5"), "iosched.slice_idle"));
	assert_int_equal(dev(&a, "vda")->counters.nfields, 20);
	assert_true(a.vm.have_stat && a.vm.have_vmstat && a.vm.have_meminfo && a.vm.have_psi);
	bool ext4 = false, btrfs = false;
	for (size_t i = 0; i < a.nmounts; i++) {
		ext4 |= strcmp(a.mounts[i].disk, "loop4") == 0 && strcmp(a.mounts[i].fstype, "ext4") == 0;
		btrfs |= strcmp(a.mounts[i].disk, "loop5") == 0 && a.mounts[i].major == 0;
	}
	assert_true(ext4);
	assert_true(btrfs);
	snapshot_free(&a);
	snapshot_free(&b);
	source_destroy(s);
}

static void busy(double seconds)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (timespec_diff(&t, &t0) < seconds);
}

/* 13 samples at 50 ms, each followed by 12.5 ms of work: on absolute deadlines they
 * span 12 intervals (600 ms); sleeping an interval after each would take 750.  (At
 * 20 ms, a loaded machine's sample of a hundred loop devices under ASan missed too
 * many deadlines.)
 * Returns the span; checks the arrays are reused on the way. */
static double paced_span(void)
{
	struct error err;
	struct source *s = source_live_new(NULL, 0.05, &err);
	assert_non_null(s);
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	assert_int_equal(source_wait(s, &err), 0);
	read_ok(s, &a);
	struct timespec first = a.mono;
	assert_true(a.ndevices > 0);
	assert_true(a.vm.have_stat && a.vm.have_vmstat && a.vm.have_meminfo);
	assert_true(a.wall.tv_sec > 1600000000);
	for (int i = 1; i < 13; i++) {
		busy(0.0125);
		assert_int_equal(source_wait(s, &err), 0);
		struct device *old = b.devices;
		size_t old_n = b.ndevices;
		read_ok(s, &b);
		assert_int_equal(b.seq, (uint64_t)i + 1);
		/* Same or fewer devices (other tests add loop devices meanwhile): the
		 * array handed back is reused, not reallocated. */
		if (old && b.ndevices <= old_n)
			assert_ptr_equal(b.devices, old);
		snapshot_swap(&a, &b);
	}
	double span = timespec_diff(&a.mono, &first);
	snapshot_free(&a);
	snapshot_free(&b);
	source_destroy(s);
	return span;
}

/* The sample that opened the files while the source was made is the first read when it
 * comes within an interval (docs/sources.md, "Time and pacing"): its time is the
 * creation's, not the read's, and the source is on its second sample after one read. */
static void test_live_first_read_is_the_prime(void **state)
{
	(void)state;
	struct error err;
	struct timespec before, after;
	clock_gettime(CLOCK_MONOTONIC, &before);
	struct source *s = source_live_new(NULL, 10.0, &err);
	assert_non_null(s);
	clock_gettime(CLOCK_MONOTONIC, &after);
	struct snapshot a;
	snapshot_init(&a);
	assert_int_equal(read_ok(s, &a), 1);
	assert_int_equal(a.seq, 1);
	assert_true(a.ndevices > 0);
	assert_true(timespec_diff(&a.mono, &before) >= 0);
	assert_true(timespec_diff(&after, &a.mono) >= 0);
	snapshot_free(&a);
	source_destroy(s);
}

/* On a loaded machine a deadline may be missed (it collapses into the next),
 * so up to five runs; one clean run proves the pacing: under 700 ms, which sleeping
 * an interval after each sample never is. */
static void test_live_no_drift_and_no_churn(void **state)
{
	double span = 0;
	for (int attempt = 0; attempt < 5; attempt++) {
		span = paced_span();
		if (span > 0.595 && span < 0.70)
			return;
	}
	fail_msg("12 intervals of 50 ms took %.3f s", span);
}

static bool has_device(const struct snapshot *s, const char *name)
{
	return snapshot_find_device(s, name) != NULL;
}

/* A loop device with a number of our own choosing (LOOP_CTL_ADD), bound to a
 * file at once so that no other test's "losetup --find" takes it.  Returns the
 * descriptor (autoclear: closing it detaches), -1 when we cannot (not root). */
static int loop_add(const char *dir, int *number, char *name, size_t len)
{
	if (geteuid() != 0)
		return -1;
	char img[4096], path[64];
	snprintf(img, sizeof img, "%s/hot.img", dir);
	int backing = open(img, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (backing < 0 || ctl < 0 || ftruncate(backing, 4 << 20) < 0)
		return -1;
	int fd = -1;
	for (int n = 300 + getpid() % 500; n < 1000 && fd < 0; n++) {
		if (ioctl(ctl, LOOP_CTL_ADD, n) < 0)
			continue;                 /* exists: someone else's */
		snprintf(path, sizeof path, "/dev/loop%d", n);
		int lfd = open(path, O_RDWR | O_CLOEXEC);
		struct loop_config cfg = { .fd = (unsigned)backing };
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		if (lfd >= 0 && ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
			fd = lfd;
			*number = n;
			snprintf(name, len, "loop%d", n);
		} else if (lfd >= 0) {
			close(lfd);
		}
	}
	close(ctl);
	close(backing);
	return fd;
}

static void loop_remove(int fd, int number)
{
	close(fd);                            /* autoclear detaches */
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	/* EBUSY: detaching is asynchronous, or another test bound it meanwhile (then
	 * it is theirs now and stays). */
	for (int i = 0; i < 50 && ctl >= 0; i++) {
		if (ioctl(ctl, LOOP_CTL_REMOVE, number) == 0 || errno != EBUSY)
			break;
		usleep(20000);
	}
	if (ctl >= 0)
		close(ctl);
}

/* Root only: a block device appears while we sample (set of names changes ->
 * described, its sysfs files opened), a scheduler switch on it shows, and it
 * vanishes again. */
static void test_live_hotplug_add_remove(void **state)
{
	char dir[] = "/tmp/ioscope-test.XXXXXX", name[32], p[4096];
	assert_non_null(mkdtemp(dir));
	struct error err;
	struct source *s = source_live_new(NULL, 0.01, &err);
	assert_non_null(s);
	struct snapshot snap;
	snapshot_init(&snap);
	read_ok(s, &snap);
	int number = -1;
	int lfd = loop_add(dir, &number, name, sizeof name);
	if (lfd < 0) {
		snapshot_free(&snap);
		source_destroy(s);
		rm_tree(dir);
		skip();
		return;
	}
	bool seen = false;
	for (int i = 0; i < 200 && !seen; i++) {
		source_wait(s, &err);
		read_ok(s, &snap);
		seen = has_device(&snap, name);
	}
	assert_true(seen);
	const struct device *d = snapshot_find_device(&snap, name);
	assert_int_equal(d->major, 7);
	assert_int_equal(d->minor, (unsigned)number);
	assert_false(d->is_partition);
	assert_true(d->settings.has_settings);
	assert_non_null(device_setting(d, "nr_requests"));

	snprintf(p, sizeof p, "/sys/block/%s/queue/scheduler", name);
	assert_int_equal(write_attr(p, "kyber"), 0);
	source_wait(s, &err);
	read_ok(s, &snap);
	d = snapshot_find_device(&snap, name);
	assert_string_equal(d->settings.scheduler, "kyber");
	assert_non_null(device_setting(d, "iosched.read_lat_nsec"));

	loop_remove(lfd, number);
	bool gone = false;
	for (int i = 0; i < 300 && !gone; i++) {
		source_wait(s, &err);
		read_ok(s, &snap);
		gone = !has_device(&snap, name);
	}
	assert_true(gone);
	snapshot_free(&snap);
	source_destroy(s);
	rm_tree(dir);
}

/* Root only: a block uevent from the kernel (netlink, no udevd needed) makes the
 * sampler describe the devices again although the set of names is the same (a
 * loop device re-attached keeps its name).  Other users' devices may send events
 * too, so only "at least one more" is certain. */
static void test_live_uevent_rescans(void **state)
{
	char dir[] = "/tmp/ioscope-test.XXXXXX", name[32], p[4096];
	assert_non_null(mkdtemp(dir));
	int number = -1;
	int lfd = loop_add(dir, &number, name, sizeof name);
	if (lfd < 0) {
		rm_tree(dir);
		skip();
		return;
	}
	struct sampler sm;
	struct error err;
	struct snapshot snap;
	snapshot_init(&snap);
	assert_int_equal(sampler_open(&sm, NULL, &err), 0);
	assert_int_equal(sampler_sample(&sm, &snap, &err), 0);
	assert_true(has_device(&snap, name));
	uint64_t before = sm.rescans;
	snprintf(p, sizeof p, "/sys/class/block/%s/uevent", name);
	assert_int_equal(write_attr(p, "change"), 0);
	assert_int_equal(sampler_sample(&sm, &snap, &err), 0);
	assert_true(sm.rescans > before);
	sampler_close(&sm);
	snapshot_free(&snap);
	loop_remove(lfd, number);
	rm_tree(dir);
}

/* Devices are described once, not per sample, while the names stay the same;
 * a steady sample reuses every array of the output snapshot. */
static void test_sampler_describes_once(void **state)
{
	struct sampler sm;
	struct error err;
	assert_int_equal(sampler_open(&sm, fixture_path("no-sys-no-psi"), &err), 0);
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	assert_int_equal(sampler_sample(&sm, &a, &err), 0);
	assert_int_equal(sampler_sample(&sm, &b, &err), 0);
	struct device *da = a.devices, *db = b.devices;
	struct mount *ma = a.mounts;
	for (int i = 0; i < 10; i++) {
		assert_int_equal(sampler_sample(&sm, &a, &err), 0);
		snapshot_swap(&a, &b);
	}
	assert_int_equal(sm.rescans, 1);
	assert_true(a.devices == da || a.devices == db);
	assert_true(a.mounts == ma || b.mounts == ma);
	sampler_close(&sm);
	snapshot_free(&a);
	snapshot_free(&b);
}

static char mnt_dir[64], mnt_point[96];

static int unmount_teardown(void **state)
{
	if (mnt_point[0])
		umount2(mnt_point, MNT_DETACH);
	rm_tree(mnt_dir);
	mnt_point[0] = mnt_dir[0] = '\0';
	return 0;
}

static const struct mount *mount_at(const struct snapshot *s, const char *path)
{
	for (size_t i = 0; i < s->nmounts; i++)
		if (strcmp(s->mounts[i].mountpoint, path) == 0)
			return &s->mounts[i];
	return NULL;
}

/* Root only: the mount table is re-read when poll() says it changed - a mount,
 * a superblock-only remount, a per-mount remount and an unmount all show. */
static void test_live_mount_and_remount(void **state)
{
	char name[32], cmd[256];
	snprintf(mnt_dir, sizeof mnt_dir, "/tmp/ioscope-test.XXXXXX");
	assert_non_null(mkdtemp(mnt_dir));
	int lfd = loopdev_create(mnt_dir, 32, name, sizeof name);
	snprintf(cmd, sizeof cmd, "mkfs.ext4 -q -F /dev/%s >/dev/null 2>&1", name);
	if (lfd < 0 || system(cmd) != 0) {
		if (lfd >= 0)
			close(lfd);
		skip();
		return;
	}
	char dev[64];
	snprintf(dev, sizeof dev, "/dev/%s", name);
	snprintf(mnt_point, sizeof mnt_point, "%s/m", mnt_dir);
	assert_int_equal(mkdir(mnt_point, 0755), 0);

	struct error err;
	struct source *s = source_live_new(NULL, 0.01, &err);
	assert_non_null(s);
	struct snapshot snap;
	snapshot_init(&snap);
	read_ok(s, &snap);
	assert_null(mount_at(&snap, mnt_point));

	assert_int_equal(mount(dev, mnt_point, "ext4", 0, NULL), 0);
	close(lfd);                              /* the mount holds the device now */
	source_wait(s, &err);
	read_ok(s, &snap);
	const struct mount *m = mount_at(&snap, mnt_point);
	assert_non_null(m);
	assert_string_equal(m->disk, name);
	assert_string_equal(m->fstype, "ext4");
	assert_null(strstr(m->super_opts, "commit=7"));

	assert_int_equal(mount(NULL, mnt_point, NULL, MS_REMOUNT, "commit=7"), 0);
	source_wait(s, &err);
	read_ok(s, &snap);
	assert_non_null(strstr(mount_at(&snap, mnt_point)->super_opts, "commit=7"));

	assert_int_equal(mount(NULL, mnt_point, NULL, MS_REMOUNT | MS_NOATIME, "commit=7"), 0);
	source_wait(s, &err);
	read_ok(s, &snap);
	assert_non_null(strstr(mount_at(&snap, mnt_point)->mount_opts, "noatime"));

	assert_int_equal(umount(mnt_point), 0);
	mnt_point[0] = '\0';
	source_wait(s, &err);
	read_ok(s, &snap);
	snprintf(cmd, sizeof cmd, "%s/m", mnt_dir);
	assert_null(mount_at(&snap, cmd));
	snapshot_free(&snap);
	source_destroy(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_range),
		cmocka_unit_test(test_numbered_trees_layout14),
		cmocka_unit_test(test_layout20_settings_follow_the_trees),
		cmocka_unit_test(test_hotplug_wrap_reset_zero),
		cmocka_unit_test(test_single_tree_without_sys_or_psi),
		cmocka_unit_test(test_root_live_capture),
		cmocka_unit_test(test_live_first_read_is_the_prime),
		cmocka_unit_test(test_live_no_drift_and_no_churn),
		cmocka_unit_test(test_live_hotplug_add_remove),
		cmocka_unit_test(test_live_uevent_rescans),
		cmocka_unit_test(test_sampler_describes_once),
		cmocka_unit_test_teardown(test_live_mount_and_remount, unmount_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
