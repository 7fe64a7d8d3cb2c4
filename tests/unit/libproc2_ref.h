/* libproc2_ref.h - libproc2, which procps' vmstat uses, as the reference our own
 * /proc/stat, /proc/vmstat and /proc/meminfo readers (src/sources/vm.c) are checked
 * against on the live /proc.  It lives here, linked into test_vm only: ioscope itself
 * never loads it (libsystemd and libnuma cost more than a whole sample).
 * Its _select calls re-read the files on every call (_get only once a second).
 * PSI is not in libproc2: the reference takes ours.
 */
#ifndef IOSCOPE_LIBPROC2_REF_H
#define IOSCOPE_LIBPROC2_REF_H

#include <libproc2/meminfo.h>
#include <libproc2/stat.h>
#include <libproc2/vmstat.h>

#include "vmsource.h"

struct libproc2_ref {
	struct stat_info *stat;
	struct vmstat_info *vmstat;
	struct meminfo_info *meminfo;
	struct vm_reader psi;
};

/* Not const only because libproc2's _select takes a plain pointer; never written. */
static enum stat_item ref_stat_items[] = {
	STAT_TIC_USER, STAT_TIC_NICE, STAT_TIC_SYSTEM, STAT_TIC_IDLE, STAT_TIC_IOWAIT,
	STAT_TIC_IRQ, STAT_TIC_SOFTIRQ, STAT_TIC_STOLEN, STAT_TIC_GUEST, STAT_TIC_GUEST_NICE,
	STAT_SYS_INTERRUPTS, STAT_SYS_CTX_SWITCHES, STAT_SYS_PROC_RUNNING, STAT_SYS_PROC_BLOCKED,
};
static enum vmstat_item ref_vmstat_items[] = {
	VMSTAT_PGPGIN, VMSTAT_PGPGOUT, VMSTAT_PSWPIN, VMSTAT_PSWPOUT,
};
static enum meminfo_item ref_meminfo_items[] = {
	MEMINFO_MEM_FREE, MEMINFO_MEM_BUFFERS, MEMINFO_MEM_CACHED, MEMINFO_MEM_SLAB_RECLAIM,
	MEMINFO_SWAP_TOTAL, MEMINFO_SWAP_FREE, MEMINFO_MEM_DIRTY, MEMINFO_MEM_WRITEBACK,
};
#define REF_COUNT(a) ((int)(sizeof a / sizeof a[0]))

/* 0, or libproc2's negative errno */
static inline int libproc2_ref_open(struct libproc2_ref *r)
{
	int e;
	memset(r, 0, sizeof *r);
	if ((e = procps_stat_new(&r->stat)) < 0 || (e = procps_vmstat_new(&r->vmstat)) < 0 ||
	    (e = procps_meminfo_new(&r->meminfo)) < 0)
		return e;
	vm_reader_open(&r->psi, NULL);
	return 0;
}

static inline void libproc2_ref_stat(struct libproc2_ref *r, struct vm_counters *o)
{
	struct stat_stack *st = procps_stat_select(r->stat, ref_stat_items,
						   REF_COUNT(ref_stat_items));
	if (!st)
		return;
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

static inline void libproc2_ref_read(struct libproc2_ref *r, struct vm_counters *o)
{
	struct vm_counters psi;
	vm_reader_read(&r->psi, &psi);
	memset(o, 0, sizeof *o);
	libproc2_ref_stat(r, o);
	struct vmstat_stack *vs = procps_vmstat_select(r->vmstat, ref_vmstat_items,
						       REF_COUNT(ref_vmstat_items));
	if (vs) {
		o->pgpgin = vs->head[0].result.ul_int;
		o->pgpgout = vs->head[1].result.ul_int;
		o->pswpin = vs->head[2].result.ul_int;
		o->pswpout = vs->head[3].result.ul_int;
		o->have_vmstat = true;
	}
	struct meminfo_stack *ms = procps_meminfo_select(r->meminfo, ref_meminfo_items,
							 REF_COUNT(ref_meminfo_items));
	if (ms) {
		uint64_t *dst[] = { &o->mem_free, &o->buffers, &o->cached, &o->sreclaimable,
				    &o->swap_total, &o->swap_free, &o->dirty, &o->writeback };
		for (int i = 0; i < REF_COUNT(ref_meminfo_items); i++)
			*dst[i] = ms->head[i].result.ul_int;
		o->have_meminfo = true;
	}
	o->have_psi = psi.have_psi;
	o->psi_some_avg10 = psi.psi_some_avg10;
	o->psi_full_avg10 = psi.psi_full_avg10;
	o->psi_some_total = psi.psi_some_total;
	o->psi_full_total = psi.psi_full_total;
}

static inline void libproc2_ref_close(struct libproc2_ref *r)
{
	procps_stat_unref(&r->stat);
	procps_vmstat_unref(&r->vmstat);
	procps_meminfo_unref(&r->meminfo);
	vm_reader_close(&r->psi);
}

#endif
