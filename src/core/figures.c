/* figures.c - the per-device figure table (include/figures.h): every figure the
 * console, batch JSON and CSV, the reports and the exporter show of a device, one row
 * each.
 *
 * The rows are in the console's F2 chooser order (each MB/s form after its kB/s one);
 * batch JSON and CSV and the reports take the batch rows in the same order, which is
 * iostat -x's (sysstat 12.6 write_ext_stat), and the exporter's families follow it too.
 * The definitions are docs/metrics.md's; the exporter's names and conversions are
 * docs/fleet.md's table.
 */
#include <string.h>

#include "figures.h"

#define RATE(field, by) \
	.kind = FIGURE_RATE, .offset = offsetof(struct device_rates, field), .scale = (by)
#define DISK(name) "ioscope_disk_" name

const struct device_figure device_figures[] = {
	{ .key = "r/s", RATE(r_s, 1), .unit = "/s", .group = 'r', .batch = true,
	  .help = "reads completed per second", .width = 6,
	  .prom_name = DISK("read_requests_per_second"),
	  .prom_help = "Read requests completed per second (iostat r/s)" },
	{ .key = "rkB/s", RATE(rkB_s, 1), .unit = "kB/s", .group = 'r', .batch = true,
	  .help = "kilobytes read per second", .width = 7,
	  .prom_name = DISK("read_bytes_per_second"),
	  .prom_help = "Bytes read per second (iostat rkB/s)" },
	{ .key = "rMB/s", RATE(rkB_s, 1.0 / 1024), .unit = "MB/s", .group = 'r',
	  .help = "megabytes read per second (rkB/s / 1024)", .width = 6 },
	{ .key = "rrqm/s", RATE(rrqm_s, 1), .unit = "/s", .group = 'r', .batch = true,
	  .help = "read requests merged per second", .width = 6,
	  .prom_name = DISK("read_merges_per_second"),
	  .prom_help = "Read requests merged per second (iostat rrqm/s)" },
	{ .key = "%rrqm", RATE(rrqm_pct, 1), .unit = "%", .group = 'r', .batch = true,
	  .help = "percentage of read requests merged", .width = 6,
	  .prom_name = DISK("read_merged_ratio"),
	  .prom_help = "Share of read requests merged, 0-1 (iostat %rrqm)" },
	{ .key = "r_await", RATE(r_await, 1), .unit = "ms", .group = 'r', .batch = true,
	  .help = "average read time, ms (queue and service)", .width = 7,
	  .load = FIGURE_LOAD_AWAIT,
	  .prom_name = DISK("read_await_seconds"),
	  .prom_help = "Average read request time (iostat r_await)" },
	{ .key = "rareq-sz", RATE(rareq_sz, 1), .unit = "kB", .group = 'r', .batch = true,
	  .help = "average read size, kB", .width = 8,
	  .prom_name = DISK("read_request_size_bytes"),
	  .prom_help = "Average read request size (iostat rareq-sz)" },

	{ .key = "w/s", RATE(w_s, 1), .unit = "/s", .group = 'w', .batch = true,
	  .help = "writes completed per second", .width = 6,
	  .prom_name = DISK("write_requests_per_second"),
	  .prom_help = "Write requests completed per second (iostat w/s)" },
	{ .key = "wkB/s", RATE(wkB_s, 1), .unit = "kB/s", .group = 'w', .batch = true,
	  .help = "kilobytes written per second", .width = 7,
	  .prom_name = DISK("write_bytes_per_second"),
	  .prom_help = "Bytes written per second (iostat wkB/s)" },
	{ .key = "wMB/s", RATE(wkB_s, 1.0 / 1024), .unit = "MB/s", .group = 'w',
	  .help = "megabytes written per second (wkB/s / 1024)", .width = 6 },
	{ .key = "wrqm/s", RATE(wrqm_s, 1), .unit = "/s", .group = 'w', .batch = true,
	  .help = "write requests merged per second", .width = 6,
	  .prom_name = DISK("write_merges_per_second"),
	  .prom_help = "Write requests merged per second (iostat wrqm/s)" },
	{ .key = "%wrqm", RATE(wrqm_pct, 1), .unit = "%", .group = 'w', .batch = true,
	  .help = "percentage of write requests merged", .width = 6,
	  .prom_name = DISK("write_merged_ratio"),
	  .prom_help = "Share of write requests merged, 0-1 (iostat %wrqm)" },
	{ .key = "w_await", RATE(w_await, 1), .unit = "ms", .group = 'w', .batch = true,
	  .help = "average write time, ms", .width = 7, .load = FIGURE_LOAD_AWAIT,
	  .prom_name = DISK("write_await_seconds"),
	  .prom_help = "Average write request time (iostat w_await)" },
	{ .key = "wareq-sz", RATE(wareq_sz, 1), .unit = "kB", .group = 'w', .batch = true,
	  .help = "average write size, kB", .width = 8,
	  .prom_name = DISK("write_request_size_bytes"),
	  .prom_help = "Average write request size (iostat wareq-sz)" },

	{ .key = "d/s", RATE(d_s, 1), .unit = "/s", .group = 'd', .batch = true,
	  .help = "discards completed per second", .width = 6,
	  .prom_name = DISK("discard_requests_per_second"),
	  .prom_help = "Discard requests completed per second (iostat d/s)" },
	{ .key = "dkB/s", RATE(dkB_s, 1), .unit = "kB/s", .group = 'd', .batch = true,
	  .help = "kilobytes discarded per second", .width = 7,
	  .prom_name = DISK("discard_bytes_per_second"),
	  .prom_help = "Bytes discarded per second (iostat dkB/s)" },
	{ .key = "dMB/s", RATE(dkB_s, 1.0 / 1024), .unit = "MB/s", .group = 'd',
	  .help = "megabytes discarded per second", .width = 6 },
	{ .key = "drqm/s", RATE(drqm_s, 1), .unit = "/s", .group = 'd', .batch = true,
	  .help = "discard requests merged per second", .width = 6,
	  .prom_name = DISK("discard_merges_per_second"),
	  .prom_help = "Discard requests merged per second (iostat drqm/s)" },
	{ .key = "%drqm", RATE(drqm_pct, 1), .unit = "%", .group = 'd', .batch = true,
	  .help = "percentage of discard requests merged", .width = 6,
	  .prom_name = DISK("discard_merged_ratio"),
	  .prom_help = "Share of discard requests merged, 0-1 (iostat %drqm)" },
	{ .key = "d_await", RATE(d_await, 1), .unit = "ms", .group = 'd', .batch = true,
	  .help = "average discard time, ms", .width = 7, .load = FIGURE_LOAD_AWAIT,
	  .prom_name = DISK("discard_await_seconds"),
	  .prom_help = "Average discard request time (iostat d_await)" },
	{ .key = "dareq-sz", RATE(dareq_sz, 1), .unit = "kB", .group = 'd', .batch = true,
	  .help = "average discard size, kB", .width = 8,
	  .prom_name = DISK("discard_request_size_bytes"),
	  .prom_help = "Average discard request size (iostat dareq-sz)" },

	{ .key = "f/s", RATE(f_s, 1), .unit = "/s", .group = 'f', .batch = true,
	  .help = "flush requests completed per second", .width = 6,
	  .prom_name = DISK("flush_requests_per_second"),
	  .prom_help = "Flush requests completed per second (iostat f/s)" },
	{ .key = "f_await", RATE(f_await, 1), .unit = "ms", .group = 'f', .batch = true,
	  .help = "average flush time, ms", .width = 7, .load = FIGURE_LOAD_AWAIT,
	  .prom_name = DISK("flush_await_seconds"),
	  .prom_help = "Average flush request time (iostat f_await)" },

	{ .key = "aqu-sz", RATE(aqu_sz, 1), .unit = "", .group = 'q', .batch = true,
	  .help = "average queue length", .width = 6,
	  .prom_name = DISK("queue_length"),
	  .prom_help = "Average number of requests in the queue (iostat aqu-sz)" },
	{ .key = "%util", RATE(util, 1), .unit = "%", .group = 'q', .batch = true,
	  .help = "percentage of time the device was busy", .width = 5, .load = FIGURE_LOAD_UTIL,
	  .prom_name = DISK("utilization_ratio"),
	  .prom_help = "Share of time the disk was busy, 0-1 (iostat %util)" },
	{ .key = "in_flight", .kind = FIGURE_IN_FLIGHT, .unit = "", .group = 'q',
	  .help = "requests in flight now", .header = "infl", .width = 4,
	  .prom_name = DISK("in_flight_requests"),
	  .prom_help = "Requests issued and not yet completed (batch JSON in_flight)" },
	{ .key = "scheduler", .kind = FIGURE_SCHEDULER, .unit = "", .group = 'q',
	  .help = "the active I/O scheduler", .header = "sched", .width = 11 },
};
const size_t device_figures_count = sizeof device_figures / sizeof device_figures[0];

const struct device_figure *device_figure_find(const char *key)
{
	for (size_t i = 0; i < device_figures_count; i++)
		if (strcmp(device_figures[i].key, key) == 0)
			return &device_figures[i];
	return NULL;
}

size_t device_figures_batch_count(void)
{
	size_t n = 0;
	for (size_t i = 0; i < device_figures_count; i++)
		n += device_figures[i].batch;
	return n;
}

/* The exporter's conversions, as docs/fleet.md's table gives them (× 1024, ÷ 1000, ÷ 100). */
double device_figure_base_scale(const struct device_figure *f)
{
	if (strncmp(f->unit, "kB", 2) == 0)
		return 1024.0;
	if (strncmp(f->unit, "MB", 2) == 0)
		return 1024.0 * 1024.0;
	if (strcmp(f->unit, "ms") == 0)
		return 0.001;
	if (strcmp(f->unit, "%") == 0)
		return 0.01;
	return 1;
}
