/* record_fixture.h - synthetic snapshots and exact comparison for the record tests. */
#ifndef IOSCOPE_RECORD_FIXTURE_H
#define IOSCOPE_RECORD_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "snapshot.h"

static inline void fixture_settings(struct device *d, const char *sched, const char *nr_requests)
{
	struct setting items[4];
	memset(items, 0, sizeof items);
	snprintf(items[0].key, sizeof items[0].key, "iosched.fifo_batch");
	snprintf(items[0].value, sizeof items[0].value, "16");
	snprintf(items[1].key, sizeof items[1].key, "nr_requests");
	snprintf(items[1].value, sizeof items[1].value, "%s", nr_requests);
	snprintf(items[2].key, sizeof items[2].key, "read_ahead_kb");
	snprintf(items[2].value, sizeof items[2].value, "128");
	snprintf(items[3].key, sizeof items[3].key, "write_cache");
	snprintf(items[3].value, sizeof items[3].value, "write back");
	d->settings.has_settings = true;
	snprintf(d->settings.scheduler, sizeof d->settings.scheduler, "%s", sched);
	snprintf(d->settings.scheduler_line, sizeof d->settings.scheduler_line,
		 strcmp(sched, "bfq") == 0 ? "none mq-deadline kyber [bfq]" : "none [mq-deadline] kyber bfq");
	d->settings.rotational = 0;
	device_set_settings(d, items, 4);
}

/* Sample k (1-based) of a made-up run: vda (20 fields), vda1 (partition), loop7
 * (18 fields, huge counters), and from sample 4 a hot-added sdz (14 fields).  The
 * scheduler of vda switches to bfq at sample 3, a mount's options at sample 4. */
static inline void fixture_snapshot(struct snapshot *s, unsigned k)
{
	snapshot_free(s);
	s->seq = k;
	s->mono = (struct timespec){ 1000 + k, 123456789 + k };
	s->wall = (struct timespec){ 1732900000 + k, 987654321 - k };
	struct device *d = snapshot_add_device(s);
	snprintf(d->name, sizeof d->name, "vda");
	d->major = 253;
	snprintf(d->model, sizeof d->model, "Virtio \"disk\"");
	d->counters = (struct disk_counters){ 1000 * k, 3 * k, 8000 * k, 40 * k, 2000 * k, 5 * k,
					      16000 * k, 90 * k, k % 3, 700 * k, 900 * k, 7 * k, 0, 56 * k,
					      2 * k, 11 * k, 3 * k, 20 };
	fixture_settings(d, k >= 3 ? "bfq" : "mq-deadline", k >= 3 ? "64" : "256");
	d->settings.inflight_read = (long)(k % 2);
	d->settings.inflight_write = (long)(k % 3);
	d = snapshot_add_device(s);
	snprintf(d->name, sizeof d->name, "vda1");
	d->major = 253;
	d->minor = 1;
	d->is_partition = true;
	snprintf(d->parent, sizeof d->parent, "vda");
	d->counters = (struct disk_counters){ .rd_ios = 10 * k, .wr_ios = 20 * k, .nfields = 20 };
	d->instance = 3;   /* re-created before the run: "inst" goes through the log */
	d = snapshot_add_device(s);
	snprintf(d->name, sizeof d->name, "loop7");
	d->major = 7;
	d->minor = 7;
	d->counters = (struct disk_counters){ .rd_ios = UINT64_MAX - 5 + k, .wr_ticks = UINT32_MAX,
					      .dc_ios = 1, .nfields = 18 };
	fixture_settings(d, "none", "128");
	/* a loop device's backing chain goes through the log with its identity */
	d->loop = (struct loop_backing){ .present = true, .major = 254, .minor = 1, .dio = 1,
					 .offset = 4096, .sizelimit = (uint64_t)1 << 40 };
	snprintf(d->loop.file, sizeof d->loop.file, "/srv/images/b\"ä\\d.img");
	snprintf(d->loop.disk, sizeof d->loop.disk, "vda1");
	if (k >= 4) {
		d = snapshot_add_device(s);
		snprintf(d->name, sizeof d->name, "sdz");
		snprintf(d->dm_name, sizeof d->dm_name, "vg-ünïcode\tname");
		d->major = 65;
		d->minor = 400;
		d->counters = (struct disk_counters){ .rd_ios = k, .wr_ios = 2 * k, .nfields = 14 };
	}
	struct mount *m = snapshot_add_mount(s);
	m->major = 253;
	m->minor = 1;
	snprintf(m->disk, sizeof m->disk, "vda1");
	snprintf(m->source, sizeof m->source, "/dev/vda1");
	snprintf(m->mountpoint, sizeof m->mountpoint, "/");
	snprintf(m->fstype, sizeof m->fstype, "ext4");
	snprintf(m->mount_opts, sizeof m->mount_opts, k >= 4 ? "rw,noatime" : "rw,relatime");
	snprintf(m->super_opts, sizeof m->super_opts, "rw,errors=remount-ro");
	m = snapshot_add_mount(s);
	m->major = 0;
	m->minor = 33;
	snprintf(m->source, sizeof m->source, "/dev/loop7");
	snprintf(m->mountpoint, sizeof m->mountpoint, "/mnt/with space\nand newline");
	snprintf(m->fstype, sizeof m->fstype, "btrfs");
	struct vm_counters *vm = &s->vm;
	vm->cpu_user = 100 * k;
	vm->cpu_idle = 9000 * k;
	vm->cpu_iowait = 7 * k;
	vm->cpu_guest_nice = 1;
	vm->intr = 123456789012ULL * k;
	vm->ctxt = 5 * k;
	vm->procs_running = 2;
	vm->procs_blocked = k % 2;
	vm->pgpgin = 4 * k;
	vm->pgpgout = 8 * k;
	vm->mem_free = 1000000 - k;
	vm->cached = 5000;
	vm->dirty = 12 * k;
	vm->writeback = k;
	vm->have_stat = vm->have_vmstat = vm->have_meminfo = true;
	vm->have_psi = k != 2;   /* figures of a missing file stay 0 */
	if (vm->have_psi) {
		vm->psi_some_avg10 = 0.1 * k;
		vm->psi_full_avg10 = 2.0 / 3.0 + k % 90;   /* a percentage: the reader refuses more */
		vm->psi_some_total = 1000 * k;
		vm->psi_full_total = 999 * k;
	}
}

#define SAME(field) if (a->field != b->field) { fprintf(stderr, "%s differs\n", #field); return false; }
#define SAME_STR(field) if (strcmp(a->field, b->field)) { fprintf(stderr, "%s differs: '%s' '%s'\n", #field, a->field, b->field); return false; }

static inline bool devices_identical(const struct device *a, const struct device *b)
{
	SAME_STR(name) SAME(major) SAME(minor) SAME(is_partition) SAME_STR(parent) SAME_STR(dm_name)
	SAME_STR(model) SAME_STR(serial)
	SAME(counters.rd_ios) SAME(counters.rd_merges) SAME(counters.rd_sectors) SAME(counters.rd_ticks)
	SAME(counters.wr_ios) SAME(counters.wr_merges) SAME(counters.wr_sectors) SAME(counters.wr_ticks)
	SAME(counters.in_flight) SAME(counters.io_ticks) SAME(counters.time_in_queue)
	SAME(counters.dc_ios) SAME(counters.dc_merges) SAME(counters.dc_sectors) SAME(counters.dc_ticks)
	SAME(counters.fl_ios) SAME(counters.fl_ticks) SAME(counters.nfields) SAME(instance)
	SAME(settings.has_settings) SAME_STR(settings.scheduler_line) SAME_STR(settings.scheduler)
	SAME(settings.rotational) SAME(settings.inflight_read) SAME(settings.inflight_write)
	SAME(settings.nitems) SAME(loop.present)
	if (a->loop.present) {
		SAME_STR(loop.file) SAME(loop.major) SAME(loop.minor) SAME_STR(loop.disk)
		SAME(loop.dio) SAME(loop.offset) SAME(loop.sizelimit)
	}
	for (size_t i = 0; i < a->settings.nitems; i++) {
		SAME_STR(settings.items[i].key)
		SAME_STR(settings.items[i].value)
	}
	return true;
}

static inline bool mounts_identical(const struct mount *a, const struct mount *b)
{
	SAME(major) SAME(minor) SAME_STR(disk) SAME_STR(source) SAME_STR(mountpoint) SAME_STR(fstype)
	SAME_STR(mount_opts) SAME_STR(super_opts)
	return true;
}

static inline bool snapshots_identical(const struct snapshot *a, const struct snapshot *b)
{
	SAME(mono.tv_sec) SAME(mono.tv_nsec) SAME(wall.tv_sec) SAME(wall.tv_nsec) SAME(seq)
	SAME(ndevices) SAME(nmounts)
	for (size_t i = 0; i < a->ndevices; i++)
		if (!devices_identical(&a->devices[i], &b->devices[i]))
			return false;
	for (size_t i = 0; i < a->nmounts; i++)
		if (!mounts_identical(&a->mounts[i], &b->mounts[i]))
			return false;
	/* vm_counters is plain data written field by field: compare the fields as bytes
	 * would also compare padding, so compare through a normalised copy. */
	struct vm_counters x = a->vm, y = b->vm;
	if (memcmp(&x.cpu_user, &y.cpu_user, offsetof(struct vm_counters, have_stat)) != 0) {
		fprintf(stderr, "vm counters differ\n");
		return false;
	}
	SAME(vm.have_stat) SAME(vm.have_vmstat) SAME(vm.have_meminfo) SAME(vm.have_psi)
	if (memcmp(&a->vm.psi_some_avg10, &b->vm.psi_some_avg10, sizeof(double)) ||
	    memcmp(&a->vm.psi_full_avg10, &b->vm.psi_full_avg10, sizeof(double))) {
		fprintf(stderr, "psi avg10 differs\n");
		return false;
	}
	SAME(vm.psi_some_total) SAME(vm.psi_full_total)
	return true;
}

/* A temp file name under /tmp, unique per test binary run. */
static inline const char *temp_log(const char *tag)
{
	static char buf[256];
	snprintf(buf, sizeof buf, "/tmp/ioscope-unit-%d-%s.log", (int)getpid(), tag);
	return buf;
}

#endif
