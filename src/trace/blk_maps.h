/* blk_maps.h - the maps the block-layer BPF programs (blk.bpf.c) share with the
 * tracer (tracer.c) that reads them.  Included by both sides, so plain __u types. */
#ifndef IOSCOPE_BLK_MAPS_H
#define IOSCOPE_BLK_MAPS_H

/* The disk's number as the BPF side computes it: major << 20 | first minor. */
#define BLK_DEV_MINOR_BITS 20

/* Userspace flips `gen` before it reads a generation, so what the programs count
 * meanwhile goes into the other one and nothing is read while it is written. */
enum { BLK_LAT_BUCKETS = 32, BLK_SIZE_BUCKETS = 24, BLK_DIRS = 3, BLK_SIZE_DIRS = 2 };
enum { BLK_ISSUED, BLK_SEEKS, BLK_SEQUENTIAL, BLK_SEEK_COUNTS };

/* One disk's counts of one generation, on one CPU.  Found without a hash lookup in an
 * array by the disk's request queue number (`q->id`, the lowest free one when the
 * queue was made, so small) when it is below BLK_QUEUE_SLOTS; else in a hash map by
 * disk. */
struct blk_hist_key {
	__u32 dev;
	__u32 gen;
};

struct blk_hist {
	__u64 dev;                              /* the disk counted (array: 0 unused) */
	__u64 d2c[BLK_DIRS][BLK_LAT_BUCKETS];   /* log2 µs, issue to completion */
	__u64 q2c[BLK_DIRS][BLK_LAT_BUCKETS];   /* log2 µs, creation to completion */
	__u64 size[BLK_SIZE_DIRS][BLK_SIZE_BUCKETS];   /* log2 KiB at issue */
	__u64 seek[BLK_SEEK_COUNTS];            /* BLK_ISSUED, BLK_SEEKS, BLK_SEQUENTIAL */
};

/* Where the last request issued on the disk ended, by queue number. */
struct blk_last_end {
	__u64 dev;
	__u64 end;
};

/* A request in flight, in the slot of its tag (blk.bpf.c, slot_of; rq 0: free), and the
 * task that queued it when it went through a scheduler or waited to be issued (queued_rq:
 * the request, 0 when none waits): `block_rq_insert` runs in the submitter's context, the
 * issue then often in a kernel worker's. */
struct blk_issue {
	__u64 rq;
	__u64 ns;
	__u64 queued_rq;
	__u32 pid;
	__u32 unused;
	char comm[16];
};

struct blk_top_key {
	__u32 dev;
	__u32 pid;
	__u32 gen;
};

struct blk_top_val {
	__u64 ios, bytes;
	char comm[16];
};

/* A task that queued requests issued in a generation on this CPU, on which disk, and its
 * counts not yet added to `top`, in the place its pid and disk hash to among
 * BLK_TOP_RECENT: a task issuing request after request costs no hash lookup and no atomic
 * add until another task or disk that hashes to the same place comes on that CPU (one
 * place was not enough on a busy machine: other tasks' requests came between nearly every
 * two of fio's). */
#define BLK_TOP_RECENT 64
struct blk_top_recent {
	__u32 dev;
	__u32 pid;
	struct blk_top_val val;   /* val.ios 0: nothing held */
};

struct blk_top_recents {
	struct blk_top_recent at[BLK_TOP_RECENT];
};

/* Entries: per-CPU counts for two generations of many disks (allocated for the disks
 * seen only); requests in flight: a fixed array of slots indexed by the request's tag
 * from where its queue hashes to, and for the few whose slot is taken an LRU map (one whose
 * completion is never seen is pushed out by newer ones; a slot held longer than
 * BLK_STALE_NS is taken by the next request that wants it), so neither can grow;
 * queue numbers from BLK_QUEUE_SLOTS up use the hash maps (as much kernel memory per
 * CPU, 125 KiB, as the previous design's preallocated per-CPU hash of 16384 buckets);
 * tasks per disk per interval (when full, the interval's newcomers are not counted); the
 * completions the programs were not run for, per disk (written only when one is found). */
#define BLK_QUEUE_SLOTS 32
#define BLK_HIST_ENTRIES 2048
/* The test build of the fallback paths (Makefile, build/narrow) sets these two to 0 and 1:
 * the queues below BLK_QUEUES_IN_ARRAYS are counted in the arrays, and 2^BLK_SLOT_BITS
 * slots hold requests in flight. */
#ifndef BLK_QUEUES_IN_ARRAYS
#define BLK_QUEUES_IN_ARRAYS BLK_QUEUE_SLOTS
#endif
#ifndef BLK_SLOT_BITS
#define BLK_SLOT_BITS 14
#endif
#define BLK_INFLIGHT_ENTRIES 16384
#define BLK_STALE_NS (60ull * 1000000000ull)
#define BLK_TOP_ENTRIES 4096
#define BLK_DISKS 1024

#endif
