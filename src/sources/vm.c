/* vm.c - the vmstat figures and PSI io.
 *
 * Our own small readers parse /proc/stat, /proc/vmstat and /proc/meminfo (and
 * any --root prefix); the meminfo parser is also system_info.c's, for the machine's memory.  libproc2, which procps' vmstat uses, is the reference
 * they are checked against on the live /proc, in the tests only
 * (tests/unit/libproc2_ref.h): loading it brings libsystemd and five more
 * libraries, and its stat module loads libnuma: together about a third of the
 * CPU of a one-shot `--batch -c 1` (docs/performance.md, start-up).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textscan.h"
#include "vmsource.h"

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

void vm_parse_meminfo_keys(const char *buf, size_t len, const struct vm_meminfo_key *keys,
			   size_t nkeys)
{
	for (size_t i = 0; i < nkeys; i++) {
		*keys[i].kb = 0;
		if (keys[i].seen)
			*keys[i].seen = false;
	}
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		for (size_t i = 0; i < nkeys; i++) {
			if (!key_value(line, n, keys[i].key, keys[i].kb))
				continue;
			if (keys[i].seen)
				*keys[i].seen = true;
			break;
		}
	}
}

void vm_parse_meminfo(const char *buf, size_t len, struct vm_counters *o)
{
	const struct vm_meminfo_key keys[] = {
		{ "MemFree", &o->mem_free, &o->have_meminfo },   { "Buffers", &o->buffers, NULL },
		{ "Cached", &o->cached, NULL },      { "SReclaimable", &o->sreclaimable, NULL },
		{ "SwapTotal", &o->swap_total, NULL }, { "SwapFree", &o->swap_free, NULL },
		{ "Dirty", &o->dirty, NULL },        { "Writeback", &o->writeback, NULL },
	};
	vm_parse_meminfo_keys(buf, len, keys, sizeof keys / sizeof keys[0]);
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
		procfile_open_under(root, pf, path, PROCFILE_SEQ_EOF_HINT, &ignored);
}

void vm_reader_open(struct vm_reader *r, const char *root)
{
	memset(r, 0, sizeof *r);
	procfile_init(&r->stat_file);
	procfile_init(&r->vmstat_file);
	procfile_init(&r->meminfo_file);
	procfile_init(&r->psi_file);
	/* /proc/stat's intr line can pass a page: read it to the end. */
	open_optional(&r->stat_file, root, "/proc/stat");
	r->stat_file.eof_hint = 0;
	open_optional(&r->vmstat_file, root, "/proc/vmstat");
	open_optional(&r->meminfo_file, root, "/proc/meminfo");
	open_optional(&r->psi_file, root, "/proc/pressure/io");
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
	read_own(&r->stat_file, out, vm_parse_stat);
	read_own(&r->vmstat_file, out, vm_parse_vmstat);
	read_own(&r->meminfo_file, out, vm_parse_meminfo);
	read_own(&r->psi_file, out, vm_parse_psi);
}

void vm_reader_close(struct vm_reader *r)
{
	procfile_close(&r->stat_file);
	procfile_close(&r->vmstat_file);
	procfile_close(&r->meminfo_file);
	procfile_close(&r->psi_file);
}
