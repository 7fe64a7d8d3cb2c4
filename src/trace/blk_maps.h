/* blk_maps.h - the maps the block-layer BPF programs (blk.bpf.c) share with the
 * tracer (tracer.c) that reads them.  Included by both sides, so plain __u types. */
#ifndef IOSCOPE_BLK_MAPS_H
#define IOSCOPE_BLK_MAPS_H

/* The disk's number as the BPF side computes it: major << 20 | first minor. */
#define BLK_DEV_MINOR_BITS 20

/* Userspace flips `gen` before it reads a generation, so what the programs count
 * meanwhile goes into the other one and nothing is read while it is written. */
enum blk_kind {
	BLK_D2C,        /* dir, log2 µs bucket */
	BLK_Q2C,        /* dir, log2 µs bucket */
	BLK_SIZE,       /* dir, log2 KiB bucket */
	BLK_SEEK,       /* dir 0, bucket: BLK_ISSUED, BLK_SEEKS or BLK_SEQUENTIAL */
};
enum { BLK_ISSUED, BLK_SEEKS, BLK_SEQUENTIAL };

struct blk_hist_key {
	__u32 dev;
	__u8 gen, kind, dir, bucket;
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

/* Entries: per-CPU histogram buckets for two generations of many disks; requests in
 * flight (an LRU map: one whose completion is never seen is pushed out by newer
 * ones, so the map cannot grow); tasks per disk per interval (when full, the
 * interval's newcomers are not counted). */
#define BLK_HIST_ENTRIES 16384
#define BLK_INFLIGHT_ENTRIES 16384
#define BLK_TOP_ENTRIES 4096
#define BLK_DISKS 1024

#endif
