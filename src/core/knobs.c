/* knobs.c - the knob table (include/knobs.h): every setting of a disk ioscope reads from
 * one file below /sys/block/NAME or changes, one row each.
 *
 * Read every sample (KNOB_CADENCE_SAMPLE): what a benchmark of the disk depends on and
 * changes most (and loop/dio, which `losetup --direct-io` changes without a uevent).
 * The knobs (KNOB_CADENCE_KNOB) change rarely; live, they are read on the knob cadence,
 * which keeps a sample's cost (docs/performance.md).  bdi/max_bytes and min_bytes are
 * max_ratio and min_ratio times the dirty limit of the moment (mm/page-writeback.c
 * bdi_get_bytes): they move with free memory every second, and a write to them sets the
 * ratio, so the ratio is what is watched.  Where the kernel has *_ratio_fine (6.2+), the
 * coarse ratio is the same value in whole percent: only the fine one is read, so that
 * one change is one event.
 *
 * The ranges are the kernel's own (block/blk-sysfs.c, mm/backing-dev.c,
 * drivers/block/loop.c, this kernel): values the kernel would silently clamp or ignore
 * are refused with the range, so the operator never believes a value was set that was
 * not.  The small enumerations (nomerges, rq_affinity) and the flags take any number in
 * the kernel, which quietly maps the rest (nomerges=3 is 1, rq_affinity=3 changes
 * nothing, add_random=2 is 1).
 *
 * The write order (write_order): a scheduler switch resets nr_requests, iosched.* and
 * (to or from bfq) wbt_lat_usec, so it goes first; nr_requests next (it resizes the
 * scheduler's tags); max_sectors_kb and write_cache update the queue limits, and so do
 * add_random and iostats (queue features on recent kernels), after which the kernel
 * recomputes read_ahead_kb (write_cache="write through" or add_random=1 put a loop
 * device's back to 2560), so read_ahead_kb goes last among the queue's; the other knobs,
 * iosched.* and loop.dio between (loop.dio leaves read_ahead_kb alone).  The bdi's limits
 * touch no queue setting: after, the maximum before the minimum (control_bdi_order swaps
 * them when it must).
 *
 * The rows are in the order `--help`, the docs and the console's tunables editor list
 * them (the ones most set first), the read-only ones last.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "knobs.h"

enum {
	ORDER_ELEVATOR,      /* scheduler */
	ORDER_DEPTH,         /* nr_requests */
	ORDER_SECTORS,       /* max_sectors_kb */
	ORDER_CACHE,         /* write_cache */
	ORDER_QUEUE,         /* iosched.*, the queue's knobs, loop.dio */
	ORDER_READ_AHEAD,    /* read_ahead_kb */
	ORDER_BDI_MAX,       /* the bdi's maximum */
	ORDER_BDI_MIN,       /* its minimum, strict_limit */
};

#define BDI_MAX_EINVAL "; the maximum cannot go below the minimum or past the dirty limit"
#define BDI_MIN_EINVAL                                                                    \
	"; the minimum cannot go above the maximum, and all devices' minimums together stay " \
	"under 100 %"
#define FLAG " (0 = off, 1 = on)"

const struct knob knob_table[] = {
	{ .key = "scheduler", .file = "queue/scheduler", .cadence = KNOB_CADENCE_SAMPLE,
	  .value = KNOB_ELEVATOR, .help = "a name the queue lists in queue/scheduler",
	  .write_order = ORDER_ELEVATOR },
	{ .key = "max_sectors_kb", .file = "queue/max_sectors_kb",
	  .cadence = KNOB_CADENCE_SAMPLE, .value = KNOB_SECTORS_KB,
	  .help = "0 for the default, or page size..max_hw_sectors_kb", .help_in_show = true,
	  .einval = "; allowed: page size..max_hw_sectors_kb, 0 = default",
	  .default_value = "0", .write_order = ORDER_SECTORS },
	{ .key = "nr_requests", .file = "queue/nr_requests", .cadence = KNOB_CADENCE_SAMPLE,
	  .value = KNOB_REQUESTS,
	  .min = 4,      /* BLKDEV_MIN_RQ; the kernel raises smaller values */
	  .max = 2048,   /* MAX_SCHED_RQ with an elevator */
	  .help = "4..2048 with a scheduler, 4..the queue depth with none", .help_in_show = true,
	  .einval = "; allowed: 4..queue depth with none, 4..2048 with a scheduler",
	  .on_switch = KNOB_SWITCH_RESETS, .write_order = ORDER_DEPTH },
	{ .key = "read_ahead_kb", .file = "queue/read_ahead_kb", .cadence = KNOB_CADENCE_SAMPLE,
	  .value = KNOB_NUMBER, .max = UINT_MAX, .meaning = "",
	  .help = "0..4294967295, rounded to pages", .write_order = ORDER_READ_AHEAD },
	{ .key = "write_cache", .file = "queue/write_cache", .cadence = KNOB_CADENCE_SAMPLE,
	  .value = KNOB_CACHE_MODE, .help = "\"write back\" or \"write through\"",
	  .write_order = ORDER_CACHE },
	/* The kernel multiplies by 1000 into a 64-bit count of nanoseconds (blk-sysfs.c
	 * queue_wb_lat_store): larger values wrap.  bfq turns writeback throttling off and a
	 * switch away from it back on, unless it was set by hand (block/blk-wbt.c
	 * wbt_disable_default, wbt_enable_default). */
	{ .key = "wbt_lat_usec", .file = "queue/wbt_lat_usec", .cadence = KNOB_CADENCE_KNOB,
	  .value = KNOB_NUMBER, .max = INT64_MAX / 1000, .meaning = " (0 = off, -1 = the default)",
	  .help = "0 off, -1 the default, 1..9223372036854775 us", .help_in_show = true,
	  .einval = "; this queue has no writeback throttling", .default_value = "-1",
	  .on_switch = KNOB_SWITCH_ELEVATOR, .elevator = "bfq", .write_order = ORDER_QUEUE },
	{ .key = "nomerges", .file = "queue/nomerges", .cadence = KNOB_CADENCE_KNOB,
	  .value = KNOB_NUMBER, .max = 2,
	  .meaning = " (0 = merge, 1 = simple merges only, 2 = none)",
	  .help = "0 merge, 1 simple merges only, 2 none", .help_in_show = true,
	  .write_order = ORDER_QUEUE },
	{ .key = "rq_affinity", .file = "queue/rq_affinity", .cadence = KNOB_CADENCE_KNOB,
	  .value = KNOB_NUMBER, .max = 2,
	  .meaning = " (0 = any CPU completes, 1 = the submitter's group, 2 = the submitter)",
	  .help = "0 any CPU completes, 1 the submitter's group, 2 the submitter",
	  .help_in_show = true, .write_order = ORDER_QUEUE },
	{ .key = "add_random", .file = "queue/add_random", .cadence = KNOB_CADENCE_KNOB,
	  .value = KNOB_NUMBER, .max = 1, .meaning = FLAG,
	  .help = "0, 1: feed the entropy pool", .help_in_show = true,
	  .write_order = ORDER_QUEUE },
	{ .key = "iostats", .file = "queue/iostats", .cadence = KNOB_CADENCE_KNOB,
	  .value = KNOB_NUMBER, .max = 1, .meaning = FLAG,
	  .help = "0, 1: count I/O statistics", .help_in_show = true,
	  .write_order = ORDER_QUEUE },
	{ .key = "iosched.", .file = "queue/iosched/", .cadence = KNOB_CADENCE_SAMPLE,
	  .value = KNOB_IOSCHED, .help = "a whole number, for a file of queue/iosched/",
	  .einval = "; out of range for this scheduler", .on_switch = KNOB_SWITCH_RESETS,
	  .write_order = ORDER_QUEUE },
	{ .key = "bdi.strict_limit", .file = "bdi/strict_limit", .cadence = KNOB_CADENCE_KNOB,
	  .value = KNOB_NUMBER, .max = 1, .meaning = FLAG,
	  .help = "0, 1: its own limit binds even when the system is under its limits",
	  .help_in_show = true, .write_order = ORDER_BDI_MIN },
	{ .key = "bdi.max_ratio", .file = "bdi/max_ratio", .cadence = KNOB_CADENCE_KNOB,
	  .finer = "bdi/max_ratio_fine", .value = KNOB_NUMBER, .max = 100,
	  .meaning = " percent of the dirty limit",
	  .help = "0..100 % of the dirty limit, not below the minimum", .help_in_show = true,
	  .einval = BDI_MAX_EINVAL, .write_order = ORDER_BDI_MAX },
	{ .key = "bdi.max_ratio_fine", .file = "bdi/max_ratio_fine",
	  .cadence = KNOB_CADENCE_KNOB, .value = KNOB_NUMBER, .max = KNOB_BDI_RATIO_FINE_MAX,
	  .meaning = " millionths of the dirty limit",
	  .help = "0..1000000 millionths of the dirty limit, not below the minimum",
	  .help_in_show = true, .einval = BDI_MAX_EINVAL, .write_order = ORDER_BDI_MAX },
	{ .key = "bdi.max_bytes", .file = "bdi/max_bytes", .cadence = KNOB_CADENCE_SHOWN,
	  .value = KNOB_NUMBER, .max = UINT64_MAX,
	  .meaning = " bytes (the kernel refuses more than the dirty limit)",
	  .help = "bytes up to the dirty limit, kept as the ratio they are now",
	  .help_in_show = true, .einval = BDI_MAX_EINVAL, .read_back_near = true,
	  .write_order = ORDER_BDI_MAX },
	{ .key = "bdi.min_ratio", .file = "bdi/min_ratio", .cadence = KNOB_CADENCE_KNOB,
	  .finer = "bdi/min_ratio_fine", .value = KNOB_NUMBER, .max = 100,
	  .meaning = " percent of the dirty limit",
	  .help = "0..100, not above the maximum, all devices' together under 100",
	  .help_in_show = true, .einval = BDI_MIN_EINVAL, .write_order = ORDER_BDI_MIN },
	{ .key = "bdi.min_ratio_fine", .file = "bdi/min_ratio_fine",
	  .cadence = KNOB_CADENCE_KNOB, .value = KNOB_NUMBER, .max = KNOB_BDI_RATIO_FINE_MAX,
	  .meaning = " millionths of the dirty limit",
	  .help = "0..1000000, not above the maximum, all devices' together under 1000000",
	  .help_in_show = true, .einval = BDI_MIN_EINVAL, .write_order = ORDER_BDI_MIN },
	{ .key = "bdi.min_bytes", .file = "bdi/min_bytes", .cadence = KNOB_CADENCE_SHOWN,
	  .value = KNOB_NUMBER, .max = UINT64_MAX,
	  .meaning = " bytes (the kernel refuses more than the dirty limit)",
	  .help = "bytes up to the dirty limit, kept as the ratio they are now",
	  .help_in_show = true, .einval = BDI_MIN_EINVAL, .read_back_near = true,
	  .write_order = ORDER_BDI_MIN },
	{ .key = "loop.dio", .file = "loop/dio", .cadence = KNOB_CADENCE_SAMPLE,
	  .loop_only = true, .write = KNOB_WRITE_LOOP_DIO, .value = KNOB_ON_OFF,
	  .help = "1 or on, 0 or off", .help_in_show = true,
	  .einval = "; the backing file's filesystem or block size does not allow direct I/O",
	  .write_order = ORDER_QUEUE },
	{ .key = "io_poll", .file = "queue/io_poll", .cadence = KNOB_CADENCE_KNOB,
	  .write = KNOB_READ_ONLY, .value = KNOB_NOT_SET, .help = "-",
	  .why = "the driver chooses polling (nvme poll_queues); the kernel ignores writes" },
	{ .key = "io_poll_delay", .file = "queue/io_poll_delay", .cadence = KNOB_CADENCE_KNOB,
	  .write = KNOB_READ_ONLY, .value = KNOB_NOT_SET, .help = "-",
	  .why = "the kernel ignores writes to it" },
	{ .key = "loop.backing_file", .file = "loop/backing_file", .cadence = KNOB_CADENCE_KNOB,
	  .loop_only = true, .write = KNOB_READ_ONLY, .value = KNOB_NOT_SET, .help = "-",
	  .why = "losetup attaches another file" },
	{ .key = "loop.ro", .file = "ro", .cadence = KNOB_CADENCE_KNOB, .loop_only = true,
	  .write = KNOB_READ_ONLY, .value = KNOB_NOT_SET, .help = "-",
	  .why = "chosen when the file is attached, losetup --read-only" },
	{ .key = "loop.sectors", .file = "size", .cadence = KNOB_CADENCE_KNOB, .loop_only = true,
	  .write = KNOB_READ_ONLY, .value = KNOB_NOT_SET, .help = "-",
	  .why = "the file's size, read again by losetup --set-capacity" },
};
const size_t knob_count = sizeof knob_table / sizeof knob_table[0];

const struct knob_elevator knob_elevators[] = {
	{ "mq-deadline", { "async_depth", "fifo_batch", "front_merges", "prio_aging_expire",
			   "read_expire", "write_expire", "writes_starved" } },
	{ "kyber", { "read_lat_nsec", "write_lat_nsec" } },
	{ "bfq", { "back_seek_max", "back_seek_penalty", "fifo_expire_async", "fifo_expire_sync",
		   "low_latency", "max_budget", "slice_idle", "slice_idle_us",
		   "strict_guarantees", "timeout_sync" } },
};
const size_t knob_nelevators = sizeof knob_elevators / sizeof knob_elevators[0];

const char *const *knob_iosched_names(const char *elevator)
{
	for (size_t e = 0; e < knob_nelevators; e++)
		if (strcmp(knob_elevators[e].name, elevator) == 0)
			return knob_elevators[e].tunables;
	return NULL;
}

const struct knob *knob_find(const char *key)
{
	bool iosched = strncmp(key, "iosched.", 8) == 0;
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		if (iosched ? k->value == KNOB_IOSCHED : strcmp(k->key, key) == 0)
			return k;
	}
	return NULL;
}

bool knob_file(const char *key, char *rel, size_t len)
{
	const struct knob *k = knob_find(key);
	if (!k || (k->value == KNOB_IOSCHED && !key[8]))
		return false;
	int n = snprintf(rel, len, "%s%s", k->file, k->value == KNOB_IOSCHED ? key + 8 : "");
	return n > 0 && (size_t)n < len;
}
