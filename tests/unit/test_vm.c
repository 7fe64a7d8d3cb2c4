/* test_vm.c - our readers of /proc/stat, vmstat, meminfo and pressure/io, and
 * their agreement with libproc2 on the live /proc. */
#include "unit.h"

#include <string.h>

#include "libproc2_ref.h"
#include "system_info.h"
#include "vmsource.h"

static void test_fixture_tree_exact(void **state)
{
	struct vm_reader r;
	struct vm_counters v;
	vm_reader_open(&r, fixture_path("vm-round/1"));
	vm_reader_read(&r, &v);
	assert_true(v.have_stat && v.have_vmstat && v.have_meminfo && v.have_psi);
	assert_int_equal(v.cpu_user, 1000);
	assert_int_equal(v.cpu_system, 500);
	assert_int_equal(v.cpu_idle, 8000);
	assert_int_equal(v.cpu_iowait, 400);
	assert_int_equal(v.cpu_softirq, 100);
	assert_int_equal(v.intr, 50000);
	assert_int_equal(v.ctxt, 90000);
	assert_int_equal(v.procs_running, 3);
	assert_int_equal(v.procs_blocked, 2);
	assert_int_equal(v.pgpgin, 1000);
	assert_int_equal(v.pgpgout, 2000);
	assert_int_equal(v.pswpin, 10);
	assert_int_equal(v.pswpout, 20);
	assert_int_equal(v.mem_free, 1000000);
	assert_int_equal(v.buffers, 20000);
	assert_int_equal(v.cached, 300000);
	assert_int_equal(v.sreclaimable, 40000);
	assert_int_equal(v.swap_total, 1048576);
	assert_int_equal(v.swap_free, 1000000);
	assert_int_equal(v.dirty, 512);
	assert_int_equal(v.writeback, 0);
	assert_true(v.psi_some_avg10 == 1.5);
	assert_true(v.psi_full_avg10 == 1.0);
	assert_int_equal(v.psi_some_total, 1000000);
	assert_int_equal(v.psi_full_total, 600000);
	vm_reader_close(&r);
}

static void test_absent_files_are_missing_not_zero(void **state)
{
	struct vm_reader r;
	struct vm_counters v;
	vm_reader_open(&r, fixture_path("no-sys-no-psi"));
	vm_reader_read(&r, &v);
	assert_true(v.have_stat);
	assert_false(v.have_psi);
	vm_reader_close(&r);
	vm_reader_open(&r, fixture_path("layout14/1"));
	vm_reader_read(&r, &v);
	assert_false(v.have_stat || v.have_vmstat || v.have_meminfo || v.have_psi);
	vm_reader_close(&r);
}

static void test_parsers_on_odd_input(void **state)
{
	struct vm_counters v;
	memset(&v, 0, sizeof v);
	/* Old kernels: four cpu columns; a "cpu0" line must not be taken for "cpu". */
	const char *stat = "cpu0 9 9 9 9\ncpu  1 2 3 4\nintr 5\nctxt 6\nprocs_running 7\n";
	vm_parse_stat(stat, strlen(stat), &v);
	assert_true(v.have_stat);
	assert_int_equal(v.cpu_user + v.cpu_nice + v.cpu_system + v.cpu_idle, 10);
	assert_int_equal(v.cpu_iowait, 0);
	assert_int_equal(v.ctxt, 6);
	vm_parse_stat("cpu x\n", 6, &v);
	assert_false(v.have_stat);

	const char *vms = "pgpgin 1\npgpgin_extra 99\npgpgout 18446744073709551616\n";
	vm_parse_vmstat(vms, strlen(vms), &v);
	assert_false(v.have_vmstat);               /* pgpgout overflowed: not there */
	assert_int_equal(v.pgpgin, 1);

	const char *mem = "MemFreeX: 5 kB\nMemFree:\t 42 kB\nDirty: 7 kB";
	vm_parse_meminfo(mem, strlen(mem), &v);
	assert_true(v.have_meminfo);
	assert_int_equal(v.mem_free, 42);
	assert_int_equal(v.dirty, 7);

	/* the machine's memory (system_info.h), by the same parser */
	struct system_memory sm;
	const char *total = "MemTotal:       8000 kB\nMemFree: 1 kB\nMemAvailable:   4000 kB\n";
	system_memory_parse(total, strlen(total), &sm);
	assert_true(sm.have_total && sm.have_available);
	assert_int_equal(sm.total_kb, 8000);
	assert_int_equal(sm.available_kb, 4000);
	system_memory_parse("MemTotal: 5 kB\n", 15, &sm);
	assert_true(sm.have_total);
	assert_false(sm.have_available);
	assert_int_equal(sm.available_kb, 0);

	const char *psi_some_only = "some avg10=0.10 avg60=0.00 avg300=0.00 total=5\n";
	vm_parse_psi(psi_some_only, strlen(psi_some_only), &v);
	assert_false(v.have_psi);
	const char *psi_bad = "some avg10=abc total=5\nfull avg10=0.00 total=3\n";
	vm_parse_psi(psi_bad, strlen(psi_bad), &v);
	assert_false(v.have_psi);
	const char *psi = "some avg10=12.34 avg60=1 avg300=1 total=99\nfull avg10=0.00 avg60=0 avg300=0 total=3\n";
	vm_parse_psi(psi, strlen(psi), &v);
	assert_true(v.have_psi);
	assert_int_equal(v.psi_some_total, 99);
	assert_true(v.psi_some_avg10 > 12.33 && v.psi_some_avg10 < 12.35);
}

/* The CPU model of a session log's header: the first of the keys the architectures use. */
static void test_cpu_model(void **state)
{
	(void)state;
	char m[32];
	const char *x86 = "processor\t: 0\ncpu family\t: 6\ncpu MHz\t\t: 2000.000\n"
			  "model\t\t: 85\nmodel name\t: Intel(R) Xeon(R) CPU\nflags\t\t: fpu vme\n";
	system_parse_cpu_model(x86, strlen(x86), m, sizeof m);
	assert_string_equal(m, "Intel(R) Xeon(R) CPU");
	const char *arm = "Processor\t: ARMv7 Processor rev 4 (v7l)\nHardware\t: BCM2835\n";
	system_parse_cpu_model(arm, strlen(arm), m, sizeof m);
	assert_string_equal(m, "BCM2835");
	const char *power = "cpu\t\t: POWER9 (raw), altivec supported\nmodel name:x\n";
	system_parse_cpu_model(power, strlen(power), m, 8);
	assert_string_equal(m, "x");
	system_parse_cpu_model(power, strlen(power) - 13, m, 8);
	assert_string_equal(m, "POWER9 ");
	system_parse_cpu_model("flags: cpu\n", 11, m, sizeof m);
	assert_string_equal(m, "");

	/* the running machine's: its memory is there */
	struct system_memory sm;
	assert_int_equal(system_memory_read(&sm), 0);
	assert_true(sm.have_total && sm.total_kb > 0);
}

#define ORDERED(field) \
	do { \
		assert_true(a.field <= b.field); \
		assert_true(b.field <= c.field); \
	} while (0)
#define NEAR(field, tol) \
	do { \
		uint64_t lo = a.field < c.field ? a.field : c.field; \
		uint64_t hi = a.field < c.field ? c.field : a.field; \
		assert_true(b.field + (tol) >= lo && b.field <= hi + (tol)); \
	} while (0)

/* Ours, then libproc2, then ours again: libproc2's monotonic counters lie between
 * our two readings, gauges close to them. */
static void test_libproc2_and_ours_agree_live(void **state)
{
	struct vm_reader own;
	struct libproc2_ref lib;
	vm_reader_open(&own, "");
	assert_int_equal(libproc2_ref_open(&lib), 0);
	struct vm_counters a, b, c;
	for (int round = 0; round < 20; round++) {
		vm_reader_read(&own, &a);
		libproc2_ref_read(&lib, &b);
		vm_reader_read(&own, &c);
		assert_true(a.have_stat && b.have_stat && c.have_stat);
		assert_true(a.have_vmstat && b.have_vmstat && a.have_meminfo && b.have_meminfo);
		assert_int_equal(a.have_psi, b.have_psi);
		ORDERED(cpu_user);
		ORDERED(cpu_nice);
		ORDERED(cpu_system);
		ORDERED(cpu_idle);
		ORDERED(cpu_iowait);
		ORDERED(cpu_irq);
		ORDERED(cpu_softirq);
		ORDERED(cpu_steal);
		ORDERED(cpu_guest);
		ORDERED(intr);
		ORDERED(ctxt);
		ORDERED(pgpgin);
		ORDERED(pgpgout);
		ORDERED(pswpin);
		ORDERED(pswpout);
		ORDERED(psi_some_total);
		ORDERED(psi_full_total);
		assert_int_equal(b.swap_total, a.swap_total);
		NEAR(swap_free, 1024);
		NEAR(mem_free, 65536);
		NEAR(buffers, 65536);
		NEAR(cached, 65536);
		NEAR(sreclaimable, 65536);
		NEAR(dirty, 65536);
		NEAR(writeback, 65536);
		assert_true(b.procs_running >= 1);
	}
	vm_reader_close(&own);
	libproc2_ref_close(&lib);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_tree_exact),
		cmocka_unit_test(test_absent_files_are_missing_not_zero),
		cmocka_unit_test(test_parsers_on_odd_input),
		cmocka_unit_test(test_cpu_model),
		cmocka_unit_test(test_libproc2_and_ours_agree_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
