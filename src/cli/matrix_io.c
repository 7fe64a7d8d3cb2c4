/* matrix_io.c - what one run of `ioscope matrix` moved, and its phases.
 *
 * The throughput of a cell is the device's: its diskstats from a sample taken right
 * before the command starts to the one taken at its exit (the same samples its log
 * has, so the figure can be checked against the log).  The command's own bytes
 * (/proc/PID/io) count reads from any disk (a tarball on another one) and miss the
 * filesystem's journal and metadata: they stay in the CSV and JSON as command_*.
 * What the device moved beyond them is "other": threads outside the command (a
 * lazy init, a flusher of what came before), and the journal the command made write.
 *
 * Marks the command makes while it runs (`ioscope mark rmtree` between the untar and
 * the rm -rf of workloads/untar-rmtree.sh) cut its elapsed time into phases, each
 * from its mark to the next one or the exit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "matrix_ctx.h"

#define SECTOR_BYTES 512.0

static const struct device *device_now(const struct matrix_ctx *m)
{
	const struct snapshot *s = session_snapshot(m->session);
	return s ? snapshot_find_device(s, m->name) : NULL;
}

void matrix_io_begin(struct matrix_ctx *m)
{
	matrix_exec_sample(m);
	const struct device *d = device_now(m);
	m->io_started = d != NULL;
	if (d) {
		m->io_read_sectors = d->counters.rd_sectors;
		m->io_written_sectors = d->counters.wr_sectors;
	}
}

/* Counters that went back (the device re-created) give no figure. */
static double MB_between(uint64_t from, uint64_t to)
{
	return to >= from ? (double)(to - from) * SECTOR_BYTES / MATRIX_MB : NAN;
}

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void phases(const struct matrix_ctx *m, struct matrix_run *run)
{
	run->nphases = 0;
	for (size_t i = 0; i < m->nmarks; i++) {
		const struct timespec *end = i + 1 < m->nmarks ? &m->marks[i + 1].mono
							       : &m->run_exited;
		struct matrix_phase *p = &run->phases[run->nphases++];
		snprintf(p->label, sizeof p->label, "%s", m->marks[i].label);
		p->seconds = fmax(0, seconds_between(&m->marks[i].mono, end));
	}
}

void matrix_io_end(struct matrix_ctx *m, struct matrix_run *run)
{
	const struct device *d = device_now(m);
	run->read_MB = run->written_MB = NAN;
	if (m->io_started && d) {
		run->read_MB = MB_between(m->io_read_sectors, d->counters.rd_sectors);
		run->written_MB = MB_between(m->io_written_sectors, d->counters.wr_sectors);
	}
	m->io_started = false;
	run->other_MB = matrix_other_MB(run);
	phases(m, run);
}
