/* Rates: iostat -x and vmstat definitions, wrap, reset, zero interval, layouts. */
#include "unit.h"

#include <string.h>

#include "figures.h"
#include "rates.h"

static struct device *add_dev(struct snapshot *s, const char *name, int nfields)
{
	struct device *d = snapshot_add_device(s);
	assert_non_null(d);
	snprintf(d->name, sizeof d->name, "%s", name);
	d->counters.nfields = nfields;
	return d;
}

static void at(struct snapshot *s, double seconds)
{
	s->mono.tv_sec = (time_t)seconds;
	s->mono.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
}

static void test_iostat_definitions(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 100.0);
	at(&b, 102.0);
	add_dev(&a, "sda", 20);
	struct device *d = add_dev(&b, "sda", 20);
	/* over 2 s: 100 reads of 8 sectors with 10 merges and 300 ms; 400 writes of
	 * 128 sectors, 100 merges, 2000 ms; 10 discards; 50 flushes; 1500 ms busy. */
	d->counters = (struct disk_counters){
		.rd_ios = 100, .rd_merges = 10, .rd_sectors = 800, .rd_ticks = 300,
		.wr_ios = 400, .wr_merges = 100, .wr_sectors = 51200, .wr_ticks = 2000,
		.in_flight = 3, .io_ticks = 1500, .time_in_queue = 2500,
		.dc_ios = 10, .dc_merges = 0, .dc_sectors = 2048, .dc_ticks = 20,
		.fl_ios = 50, .fl_ticks = 25, .nfields = 20,
	};
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_int_equal(r.ndevices, 1);
	const struct device_rates *x = &r.devices[0];
	assert_true(x->valid);
	assert_float_equal(r.interval, 2.0, 1e-9);
	assert_float_equal(x->r_s, 50.0, 1e-9);
	assert_float_equal(x->rkB_s, 200.0, 1e-9);
	assert_float_equal(x->rrqm_s, 5.0, 1e-9);
	assert_float_equal(x->rrqm_pct, 10.0 * 100 / 110, 1e-9);
	assert_float_equal(x->r_await, 3.0, 1e-9);
	assert_float_equal(x->rareq_sz, 4.0, 1e-9);
	assert_float_equal(x->w_s, 200.0, 1e-9);
	assert_float_equal(x->wkB_s, 12800.0, 1e-9);
	assert_float_equal(x->wrqm_pct, 20.0, 1e-9);
	assert_float_equal(x->w_await, 5.0, 1e-9);
	assert_float_equal(x->wareq_sz, 64.0, 1e-9);
	assert_float_equal(x->d_s, 5.0, 1e-9);
	assert_float_equal(x->dkB_s, 512.0, 1e-9);
	assert_float_equal(x->d_await, 2.0, 1e-9);
	assert_float_equal(x->dareq_sz, 102.4, 1e-9);
	assert_float_equal(x->f_s, 25.0, 1e-9);
	assert_float_equal(x->f_await, 0.5, 1e-9);
	assert_float_equal(x->aqu_sz, 1.25, 1e-9);
	assert_float_equal(x->util, 75.0, 1e-9);
	assert_int_equal(x->in_flight, 3);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void test_counter_wrap_and_reset(void **state)
{
	(void)state;
	uint64_t d;
	assert_true(counter_delta(10, 15, &d));
	assert_int_equal(d, 5);
	assert_true(counter_delta(UINT32_MAX - 4, 5, &d));   /* 32-bit wrap */
	assert_int_equal(d, 10);
	assert_false(counter_delta(1000000, 5, &d));   /* far from the top: a reset, not a wrap */
	assert_false(counter_delta(UINT64_C(1) << 40, 5, &d)); /* 64-bit value went back */
}

static void test_wrapped_ticks_give_sane_rates(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 1.0);
	at(&b, 2.0);
	struct device *p = add_dev(&a, "vdb", 20), *c = add_dev(&b, "vdb", 20);
	p->counters.wr_ios = 1000;
	p->counters.wr_ticks = UINT32_MAX - 99;   /* ms counter about to wrap */
	p->counters.io_ticks = UINT32_MAX - 499;
	c->counters.wr_ios = 1100;
	c->counters.wr_ticks = 100;               /* wrapped: +200 ms */
	c->counters.io_ticks = 500;               /* wrapped: +1000 ms */
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_true(r.devices[0].valid);
	assert_float_equal(r.devices[0].w_await, 2.0, 1e-9);
	assert_float_equal(r.devices[0].util, 100.0, 1e-9);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void test_reset_new_zero_interval(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 5.0);
	at(&b, 6.0);
	add_dev(&a, "loop0", 20)->counters.wr_ios = 5000000000ULL;
	add_dev(&b, "loop0", 20)->counters.wr_ios = 10;       /* re-created */
	add_dev(&b, "loop1", 20)->counters.wr_ios = 10;       /* appeared */
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_int_equal(r.ndevices, 2);
	assert_false(r.devices[0].valid);
	assert_false(r.devices[1].valid);
	assert_float_equal(r.devices[0].w_s, 0.0, 0);

	at(&b, 5.0);                                           /* zero interval */
	b.devices[0].counters.wr_ios = 5000000001ULL;
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_false(r.devices[0].valid);
	assert_false(r.vm.valid);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void test_old_layouts_have_no_discard_or_flush(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 0.0);
	at(&b, 1.0);
	add_dev(&a, "sda", 14);
	add_dev(&b, "sda", 14)->counters.rd_ios = 7;
	add_dev(&a, "sdb", 18);
	add_dev(&b, "sdb", 18)->counters.dc_ios = 4;
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_true(r.devices[0].valid);
	assert_false(r.devices[0].have_discard);
	assert_false(r.devices[0].have_flush);
	assert_float_equal(r.devices[0].r_s, 7.0, 1e-9);
	assert_true(r.devices[1].have_discard);
	assert_false(r.devices[1].have_flush);
	assert_float_equal(r.devices[1].d_s, 4.0, 1e-9);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Issue 15: flush fields that appear between two snapshots (18 -> 20) leave f/s
 * missing, and the other figures are computed from the fields both have. */
static void test_flush_fields_appearing(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 0.0);
	at(&b, 2.0);
	add_dev(&a, "vdf", 18)->counters.dc_ios = 2;
	struct device *d = add_dev(&b, "vdf", 20);
	d->counters.rd_ios = 100;
	d->counters.dc_ios = 6;
	d->counters.fl_ios = 50;
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_true(r.devices[0].valid);
	assert_int_equal(r.devices[0].why, COUNTERS_CONTINUE);
	assert_true(r.devices[0].have_discard);
	assert_false(r.devices[0].have_flush);
	assert_float_equal(r.devices[0].r_s, 50.0, 1e-9);
	assert_float_equal(r.devices[0].d_s, 2.0, 1e-9);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Issue 9 item 13: a disk deleted and created again within one interval, its
 * counters above the old ones: told by its line now after one that came after
 * it, or by a new instance from the live source. */
static void test_recreated_device_has_no_figures(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 0.0);
	at(&b, 3.0);
	add_dev(&a, "sda", 14)->counters.rd_ios = 100;
	add_dev(&a, "loop77", 14)->counters.rd_ios = 8;
	add_dev(&a, "sdc", 14)->counters.rd_ios = 100;
	add_dev(&b, "sda", 14)->counters.rd_ios = 400;
	add_dev(&b, "sdc", 14)->counters.rd_ios = 400;
	add_dev(&b, "loop77", 14)->counters.rd_ios = 24;
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_true(r.devices[0].valid);
	assert_float_equal(r.devices[0].r_s, 100.0, 1e-9);
	assert_true(r.devices[1].valid);
	assert_false(r.devices[2].valid);
	assert_int_equal(r.devices[2].why, COUNTERS_RECREATED);
	assert_float_equal(r.devices[2].r_s, 0.0, 0);

	/* Same place, new instance (a new /sys/block entry). */
	b.devices[2] = b.devices[1];
	snprintf(b.devices[1].name, sizeof b.devices[1].name, "loop77");
	b.devices[1].counters.rd_ios = 24;
	b.devices[1].instance = 1;
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_int_equal(r.devices[1].why, COUNTERS_RECREATED);
	assert_false(r.devices[1].valid);
	assert_true(r.devices[2].valid);
	b.devices[1].instance = 0;
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_true(r.devices[1].valid);
	assert_float_equal(r.devices[1].r_s, 16.0 / 3.0, 1e-9);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

/* Issue 9 item 15: io_ticks counts in jiffies; over a 2 ms interval one tick of
 * 4 ms is 200 %.  A device is never busy longer than the interval. */
static void test_util_never_above_100(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 10.0);
	at(&b, 10.002);
	add_dev(&a, "vda", 20);
	add_dev(&b, "vda", 20)->counters.io_ticks = 4;
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_true(r.devices[0].valid);
	assert_float_equal(r.devices[0].util, 100.0, 1e-9);
	at(&b, 10.008);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_float_equal(r.devices[0].util, 50.0, 1e-3);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void test_vmstat_definitions(void **state)
{
	(void)state;
	struct snapshot a, b;
	snapshot_init(&a);
	snapshot_init(&b);
	at(&a, 10.0);
	at(&b, 12.0);
	a.vm = (struct vm_counters){ .cpu_user = 100, .cpu_nice = 0, .cpu_system = 50, .cpu_idle = 1000,
				     .cpu_iowait = 10, .intr = 1000, .ctxt = 5000, .pgpgin = 100,
				     .pgpgout = 200, .have_stat = true };
	b.vm = a.vm;
	b.vm.cpu_user += 20;   /* total delta 200 ticks */
	b.vm.cpu_nice += 10;
	b.vm.cpu_system += 10;
	b.vm.cpu_irq += 5;
	b.vm.cpu_softirq += 5;
	b.vm.cpu_idle += 100;
	b.vm.cpu_iowait += 40;
	b.vm.cpu_steal += 10;
	b.vm.intr += 400;
	b.vm.ctxt += 1000;
	b.vm.pgpgin += 64;
	b.vm.pgpgout += 4096;
	b.vm.procs_running = 3;
	b.vm.procs_blocked = 2;
	b.vm.mem_free = 1000;
	b.vm.cached = 300;
	b.vm.sreclaimable = 50;
	b.vm.swap_total = 100;
	b.vm.swap_free = 40;
	b.vm.dirty = 123;
	struct rates r;
	rates_init(&r);
	assert_int_equal(rates_compute(&r, &a, &b), 0);
	assert_true(r.vm.valid);
	assert_float_equal(r.vm.r, 3, 0);
	assert_float_equal(r.vm.b, 2, 0);
	assert_float_equal(r.vm.swpd, 60, 0);
	assert_float_equal(r.vm.cache, 350, 0);
	assert_float_equal(r.vm.bi, 32, 1e-9);
	assert_float_equal(r.vm.bo, 2048, 1e-9);
	assert_float_equal(r.vm.in, 200, 1e-9);
	assert_float_equal(r.vm.cs, 500, 1e-9);
	assert_float_equal(r.vm.us, 15, 1e-9);
	assert_float_equal(r.vm.sy, 10, 1e-9);
	assert_float_equal(r.vm.id, 50, 1e-9);
	assert_float_equal(r.vm.wa, 20, 1e-9);
	assert_float_equal(r.vm.st, 5, 1e-9);
	assert_float_equal(r.vm.dirty, 123, 0);
	assert_false(r.vm.have_psi);
	rates_free(&r);
	snapshot_free(&a);
	snapshot_free(&b);
}

static void test_metric_table(void **state)
{
	(void)state;
	static const char *const iostat_x[] = {
		"r/s", "rkB/s", "rrqm/s", "%rrqm", "r_await", "rareq-sz", "w/s", "wkB/s", "wrqm/s",
		"%wrqm", "w_await", "wareq-sz", "d/s", "dkB/s", "drqm/s", "%drqm", "d_await",
		"dareq-sz", "f/s", "f_await", "aqu-sz", "%util",
	};
	/* iostat -x's figures are batch figures, in its order (a figure of ioscope's own may
	 * come between them) */
	const struct device_figure *last = NULL;
	for (size_t i = 0; i < sizeof iostat_x / sizeof iostat_x[0]; i++) {
		const struct device_figure *f = device_figure_find(iostat_x[i]);
		if (!f || !f->batch || f < last)
			fail_msg("%s is not a batch figure after %s", iostat_x[i], last ? last->key : "-");
		last = f;
	}
	assert_true(device_figures_batch_count() >= sizeof iostat_x / sizeof iostat_x[0]);
	struct device_rates r = { .w_await = 4.5, .rkB_s = 2048, .in_flight = 3 };
	assert_float_equal(device_figure_value(&r, device_figure_find("w_await")), 4.5, 0);
	assert_float_equal(device_figure_value(&r, device_figure_find("rMB/s")), 2, 0);
	assert_float_equal(device_figure_value(&r, device_figure_find("in_flight")), 3, 0);
	assert_null(device_figure_find("nope"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iostat_definitions),
		cmocka_unit_test(test_counter_wrap_and_reset),
		cmocka_unit_test(test_wrapped_ticks_give_sane_rates),
		cmocka_unit_test(test_reset_new_zero_interval),
		cmocka_unit_test(test_old_layouts_have_no_discard_or_flush),
		cmocka_unit_test(test_flush_fields_appearing),
		cmocka_unit_test(test_recreated_device_has_no_figures),
		cmocka_unit_test(test_util_never_above_100),
		cmocka_unit_test(test_vmstat_definitions),
		cmocka_unit_test(test_metric_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
