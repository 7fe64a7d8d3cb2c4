/* vm.c - the vmstat figures and PSI io.
 *
 * Our own small readers parse /proc/stat, /proc/vmstat and /proc/meminfo (and
 * any --root prefix).  libproc2, which procps' vmstat uses, is the reference
 * they are checked against on the live /proc (tests/unit/test_vm.c, which uses
 * its _select calls: _get re-reads only once per calendar second).  It is
 * opened at run time, never linked: it brings libsystemd and five more
 * libraries, and its stat module loads libnuma: together about a third of the
 * CPU of a one-shot `--batch -c 1` (docs/performance.md, start-up).
 * PSI is ours in both cases: libproc2 has none.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libproc2/meminfo.h>
#include <libproc2/stat.h>
#include <libproc2/vmstat.h>

#include "textscan.h"
#include "dynlib.h"
#include "vmsource.h"

/* Where libproc2 cannot be loaded our own readers take over. */
#define LIBPROC2_SONAME "libproc2.so.0"
#define LIBPROC2_FUNCTIONS(X)                                                                    \
	X(stat_new) X(stat_select) X(stat_unref) X(vmstat_new) X(vmstat_select)                  \
	X(vmstat_unref) X(meminfo_new) X(meminfo_select) X(meminfo_unref)

struct libproc2 {
#define LIBPROC2_FIELD(f) __typeof__(procps_##f) *f;
	LIBPROC2_FUNCTIONS(LIBPROC2_FIELD)
#undef LIBPROC2_FIELD
};

static const struct dynlib_symbol libproc2_symbols[] = {
#define LIBPROC2_SYMBOL(f) { "procps_" #f, offsetof(struct libproc2, f) },
	LIBPROC2_FUNCTIONS(LIBPROC2_SYMBOL)
#undef LIBPROC2_SYMBOL
};

/* Not const only because libproc2's _select takes a plain pointer; never written. */
static enum stat_item stat_items[] = {
	STAT_TIC_USER, STAT_TIC_NICE, STAT_TIC_SYSTEM, STAT_TIC_IDLE, STAT_TIC_IOWAIT,
	STAT_TIC_IRQ, STAT_TIC_SOFTIRQ, STAT_TIC_STOLEN, STAT_TIC_GUEST, STAT_TIC_GUEST_NICE,
	STAT_SYS_INTERRUPTS, STAT_SYS_CTX_SWITCHES, STAT_SYS_PROC_RUNNING, STAT_SYS_PROC_BLOCKED,
};
static enum vmstat_item vmstat_items[] = {
	VMSTAT_PGPGIN, VMSTAT_PGPGOUT, VMSTAT_PSWPIN, VMSTAT_PSWPOUT,
};
static enum meminfo_item meminfo_items[] = {
	MEMINFO_MEM_FREE, MEMINFO_MEM_BUFFERS, MEMINFO_MEM_CACHED, MEMINFO_MEM_SLAB_RECLAIM,
	MEMINFO_SWAP_TOTAL, MEMINFO_SWAP_FREE, MEMINFO_MEM_DIRTY, MEMINFO_MEM_WRITEBACK,
};
#define COUNT(a) ((int)(sizeof a / sizeof a[0]))

/* ---- our own parsers ---------------------------------------------------- */

static bool key_value(const char *line, size_t len, const char *key, uint64_t *out)
{
	const char *rest;
	if (!textscan_key(line, len, key, &rest))
		return false;
	uint64_t v;
	if (!textscan_u64(&rest, line + len, &v))
		return false;
	*out = v;
	return true;
}

static void parse_cpu_line(const char *rest, const char *end, struct vm_counters *o)
{
	uint64_t *f[] = { &o->cpu_user, &o->cpu_nice, &o->cpu_system, &o->cpu_idle,
			  &o->cpu_iowait, &o->cpu_irq, &o->cpu_softirq, &o->cpu_steal,
			  &o->cpu_guest, &o->cpu_guest_nice };
	size_t got = 0;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++, got++)
		if (!textscan_u64(&rest, end, f[i]))
			break;
	o->have_stat = got >= 4;     /* user nice system idle exist on every kernel */
}

void vm_parse_stat(const char *buf, size_t len, struct vm_counters *o)
{
	o->cpu_user = o->cpu_nice = o->cpu_system = o->cpu_idle = o->cpu_iowait = 0;
	o->cpu_irq = o->cpu_softirq = o->cpu_steal = o->cpu_guest = o->cpu_guest_nice = 0;
	o->intr = o->ctxt = o->procs_running = o->procs_blocked = 0;
	o->have_stat = false;
	const char *p = buf, *end = buf + len, *line, *rest;
	size_t n;
	bool cpu_seen = false;
	while (textscan_line(&p, end, &line, &n)) {
		if (!cpu_seen && textscan_key(line, n, "cpu", &rest)) {
			cpu_seen = true;
			parse_cpu_line(rest, line + n, o);
			continue;
		}
		if (key_value(line, n, "intr", &o->intr) || key_value(line, n, "ctxt", &o->ctxt) ||
		    key_value(line, n, "procs_running", &o->procs_running))
			continue;
		key_value(line, n, "procs_blocked", &o->procs_blocked);
	}
}

void vm_parse_vmstat(const char *buf, size_t len, struct vm_counters *o)
{
	o->pgpgin = o->pgpgout = o->pswpin = o->pswpout = 0;
	bool in = false, out = false;
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		if (key_value(line, n, "pgpgin", &o->pgpgin))
			in = true;
		else if (key_value(line, n, "pgpgout", &o->pgpgout))
			out = true;
		else if (!key_value(line, n, "pswpin", &o->pswpin))
			key_value(line, n, "pswpout", &o->pswpout);
	}
	o->have_vmstat = in && out;
}

void vm_parse_meminfo(const char *buf, size_t len, struct vm_counters *o)
{
	struct {
		const char *key;
		uint64_t *dst;
	} keys[] = {
		{ "MemFree", &o->mem_free },   { "Buffers", &o->buffers },
		{ "Cached", &o->cached },      { "SReclaimable", &o->sreclaimable },
		{ "SwapTotal", &o->swap_total }, { "SwapFree", &o->swap_free },
		{ "Dirty", &o->dirty },        { "Writeback", &o->writeback },
	};
	size_t nkeys = sizeof keys / sizeof keys[0];
	for (size_t i = 0; i < nkeys; i++)
		*keys[i].dst = 0;
	bool free_seen = false;
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		for (size_t i = 0; i < nkeys; i++) {
			if (!key_value(line, n, keys[i].key, keys[i].dst))
				continue;
			free_seen |= i == 0;
			break;
		}
	}
	o->have_meminfo = free_seen;
}

/* "some avg10=0.12 avg60=0.05 avg300=0.01 total=12345" */
static bool parse_psi_line(const char *line, size_t len, double *avg10, uint64_t *total)
{
	char tmp[256];
	if (len >= sizeof tmp)
		return false;
	memcpy(tmp, line, len);
	tmp[len] = '\0';
	const char *a = strstr(tmp, " avg10=");
	const char *t = strstr(tmp, " total=");
	if (!a || !t)
		return false;
	char *e;
	double v = strtod(a + 7, &e);
	if (e == a + 7 || !(v >= 0.0 && v <= 100.0))
		return false;
	const char *s = t + 7;
	uint64_t tot;
	if (!textscan_u64(&s, tmp + len, &tot))
		return false;
	*avg10 = v;
	*total = tot;
	return true;
}

void vm_parse_psi(const char *buf, size_t len, struct vm_counters *o)
{
	bool some = false, full = false;
	const char *p = buf, *end = buf + len, *line, *rest;
	size_t n;
	o->psi_some_avg10 = o->psi_full_avg10 = 0;
	o->psi_some_total = o->psi_full_total = 0;
	while (textscan_line(&p, end, &line, &n)) {
		if (textscan_key(line, n, "some", &rest))
			some = parse_psi_line(line, n, &o->psi_some_avg10, &o->psi_some_total);
		else if (textscan_key(line, n, "full", &rest))
			full = parse_psi_line(line, n, &o->psi_full_avg10, &o->psi_full_total);
	}
	o->have_psi = some && full;
}

/* ---- the reader --------------------------------------------------------- */

static void open_optional(struct procfile *pf, const char *root, const char *rel)
{
	char path[4096];
	struct error ignored;
	if (path_format(path, sizeof path, "%s%s", root ? root : "", rel) >= 0)
		procfile_open(pf, path, PROCFILE_SEQ_EOF_HINT, &ignored);
}

static int load_libproc2(struct vm_reader *r)
{
	struct error ignored;
	r->lib = malloc(sizeof *r->lib);
	if (r->lib && dynlib_load(LIBPROC2_SONAME, libproc2_symbols,
				  sizeof libproc2_symbols / sizeof libproc2_symbols[0], r->lib,
				  &ignored) == 0)
		return 0;
	free(r->lib);
	r->lib = NULL;
	return -1;
}

int vm_reader_open(struct vm_reader *r, const char *root, bool use_libproc2, struct error *err)
{
	memset(r, 0, sizeof *r);
	procfile_init(&r->stat_file);
	procfile_init(&r->vmstat_file);
	procfile_init(&r->meminfo_file);
	procfile_init(&r->psi_file);
	r->libproc2 = use_libproc2 && !root && load_libproc2(r) == 0;
	if (r->libproc2) {
		int e;
		if ((e = r->lib->stat_new(&r->stat)) < 0)
			return error_errno(err, "libproc2 /proc/stat", -e);
		if ((e = r->lib->vmstat_new(&r->vmstat)) < 0)
			return error_errno(err, "libproc2 /proc/vmstat", -e);
		if ((e = r->lib->meminfo_new(&r->meminfo)) < 0)
			return error_errno(err, "libproc2 /proc/meminfo", -e);
	} else {
		/* /proc/stat's intr line can pass a page: read it to the end. */
		open_optional(&r->stat_file, root, "/proc/stat");
		r->stat_file.eof_hint = 0;
		open_optional(&r->vmstat_file, root, "/proc/vmstat");
		open_optional(&r->meminfo_file, root, "/proc/meminfo");
	}
	open_optional(&r->psi_file, root, "/proc/pressure/io");
	return 0;
}

static void read_libproc2(struct vm_reader *r, struct vm_counters *o)
{
	struct stat_stack *st = r->lib->stat_select(r->stat, stat_items, COUNT(stat_items));
	if (st) {
		uint64_t *tic[] = { &o->cpu_user, &o->cpu_nice, &o->cpu_system, &o->cpu_idle,
				    &o->cpu_iowait, &o->cpu_irq, &o->cpu_softirq, &o->cpu_steal,
				    &o->cpu_guest, &o->cpu_guest_nice };
		for (int i = 0; i < 10; i++)
			*tic[i] = st->head[i].result.ull_int;
		o->intr = st->head[10].result.ul_int;
		o->ctxt = st->head[11].result.ul_int;
		o->procs_running = st->head[12].result.ul_int;
		o->procs_blocked = st->head[13].result.ul_int;
		o->have_stat = true;
	}
	struct vmstat_stack *vs = r->lib->vmstat_select(r->vmstat, vmstat_items,
							 COUNT(vmstat_items));
	if (vs) {
		o->pgpgin = vs->head[0].result.ul_int;
		o->pgpgout = vs->head[1].result.ul_int;
		o->pswpin = vs->head[2].result.ul_int;
		o->pswpout = vs->head[3].result.ul_int;
		o->have_vmstat = true;
	}
	struct meminfo_stack *ms = r->lib->meminfo_select(r->meminfo, meminfo_items,
							COUNT(meminfo_items));
	if (ms) {
		uint64_t *dst[] = { &o->mem_free, &o->buffers, &o->cached, &o->sreclaimable,
				    &o->swap_total, &o->swap_free, &o->dirty, &o->writeback };
		for (int i = 0; i < COUNT(meminfo_items); i++)
			*dst[i] = ms->head[i].result.ul_int;
		o->have_meminfo = true;
	}
}

static void read_own(struct procfile *pf, struct vm_counters *o,
		     void (*parse)(const char *, size_t, struct vm_counters *))
{
	struct error ignored;
	if (!procfile_is_open(pf) || procfile_read(pf, &ignored) < 0) {
		parse("", 0, o);
		return;
	}
	parse(pf->buf, pf->len, o);
}

void vm_reader_read(struct vm_reader *r, struct vm_counters *out)
{
	memset(out, 0, sizeof *out);
	if (r->libproc2) {
		read_libproc2(r, out);
	} else {
		read_own(&r->stat_file, out, vm_parse_stat);
		read_own(&r->vmstat_file, out, vm_parse_vmstat);
		read_own(&r->meminfo_file, out, vm_parse_meminfo);
	}
	read_own(&r->psi_file, out, vm_parse_psi);
}

void vm_reader_close(struct vm_reader *r)
{
	if (r->stat)
		r->lib->stat_unref(&r->stat);
	if (r->vmstat)
		r->lib->vmstat_unref(&r->vmstat);
	if (r->meminfo)
		r->lib->meminfo_unref(&r->meminfo);
	free(r->lib);
	r->lib = NULL;
	procfile_close(&r->stat_file);
	procfile_close(&r->vmstat_file);
	procfile_close(&r->meminfo_file);
	procfile_close(&r->psi_file);
}
