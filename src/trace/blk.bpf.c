// SPDX-License-Identifier: GPL-2.0
/* blk.bpf.c - the kernel side of the block-layer view (docs/metrics.md, "Tracing").
 *
 * BTF-typed tracepoints (tp_btf: no tracefs needed), CO-RE against the running
 * kernel's BTF.  Everything is counted here; userspace reads the maps once per
 * interval, nothing per request crosses over.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "blk_maps.h"

char LICENSE[] SEC("license") = "GPL";

/* The generation the programs count into (userspace flips it). */
volatile __u32 gen;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, BLK_HIST_ENTRIES);
	__type(key, struct blk_hist_key);
	__type(value, __u64);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, BLK_INFLIGHT_ENTRIES);
	__type(key, __u64);     /* the request's address */
	__type(value, __u64);   /* issued, ns */
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BLK_DISKS);
	__type(key, __u32);
	__type(value, __u64);   /* sector after the last request issued */
} last_end SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BLK_TOP_ENTRIES);
	__type(key, struct blk_top_key);
	__type(value, struct blk_top_val);
} top SEC(".maps");

#define OP_MASK 0xff  /* REQ_OP_MASK: the low REQ_OP_BITS of cmd_flags / bi_opf */
#define OP_READ 0
#define OP_WRITE 1
#define OP_FLUSH 2

/* 0 read, 1 write, 2 flush, -1 anything else (discard, zone ops...). */
static __always_inline int op_dir(__u32 flags)
{
	switch (flags & OP_MASK) {
	case OP_READ: return 0;
	case OP_WRITE: return 1;
	case OP_FLUSH: return 2;
	}
	return -1;
}

static __always_inline __u32 log2_bucket(__u64 v, __u32 last)
{
	__u32 r = 0;
#pragma unroll
	for (int shift = 32; shift > 0; shift >>= 1)
		if (v >> shift) {
			v >>= shift;
			r += shift;
		}
	return r > last ? last : r;
}

static __always_inline void hist_add(__u32 dev, __u8 kind, __u8 dir, __u8 bucket)
{
	struct blk_hist_key k = {
		.dev = dev, .gen = (__u8)gen, .kind = kind, .dir = dir, .bucket = bucket,
	};
	__u64 one = 1;
	__u64 *v = bpf_map_lookup_elem(&hist, &k);
	if (v) {
		*v += 1;    /* this CPU's copy: no other writer */
		return;
	}
	if (bpf_map_update_elem(&hist, &k, &one, BPF_NOEXIST) == 0)
		return;
	v = bpf_map_lookup_elem(&hist, &k);   /* another CPU created it meanwhile */
	if (v)
		*v += 1;
}

static __always_inline __u32 disk_dev(struct gendisk *disk)
{
	if (!disk)
		return 0;
	return ((__u32)BPF_CORE_READ(disk, major) << BLK_DEV_MINOR_BITS) |
	       (__u32)BPF_CORE_READ(disk, first_minor);
}

static __always_inline __u32 rq_dev(struct request *rq)
{
	return disk_dev(BPF_CORE_READ(rq, q, disk));
}

SEC("tp_btf/block_bio_queue")
int BPF_PROG(bio_queue, struct bio *bio)
{
	if (op_dir(BPF_CORE_READ(bio, bi_opf)) < 0)
		return 0;
	struct blk_top_key k = {
		.dev = disk_dev(BPF_CORE_READ(bio, bi_bdev, bd_disk)),
		.pid = bpf_get_current_pid_tgid() >> 32,
		.gen = gen,
	};
	__u64 bytes = BPF_CORE_READ(bio, bi_iter.bi_size);
	struct blk_top_val *v = bpf_map_lookup_elem(&top, &k);
	if (!v) {
		struct blk_top_val fresh = {};
		bpf_get_current_comm(fresh.comm, sizeof fresh.comm);
		bpf_map_update_elem(&top, &k, &fresh, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&top, &k);
		if (!v)
			return 0;   /* full: the interval's newcomers are not counted */
	}
	__sync_fetch_and_add(&v->ios, 1);
	__sync_fetch_and_add(&v->bytes, bytes);
	return 0;
}

/* seekwatcher's seeks and biopattern's sequential share, at issue. */
static __always_inline void count_position(__u32 dev, __u64 sector, __u64 sectors)
{
	__u64 end = sector + sectors;
	__u64 *last = bpf_map_lookup_elem(&last_end, &dev);
	if (!last) {
		bpf_map_update_elem(&last_end, &dev, &end, BPF_ANY);
		hist_add(dev, BLK_SEEK, 0, BLK_ISSUED);
		return;
	}
	__u64 prev = *last;
	*last = end;
	hist_add(dev, BLK_SEEK, 0, BLK_ISSUED);
	if (sector == prev)
		hist_add(dev, BLK_SEEK, 0, BLK_SEQUENTIAL);
	else if ((sector > prev ? sector - prev : prev - sector) > 128)
		hist_add(dev, BLK_SEEK, 0, BLK_SEEKS);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(rq_issue, struct request *rq)
{
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	bpf_map_update_elem(&inflight, &key, &now, BPF_ANY);
	int dir = op_dir(BPF_CORE_READ(rq, cmd_flags));
	__u32 bytes = BPF_CORE_READ(rq, __data_len);
	if (dir < 0 || dir > 1 || bytes == 0)
		return 0;
	__u32 dev = rq_dev(rq);
	hist_add(dev, BLK_SIZE, dir, log2_bucket(bytes >> 10, 23));
	count_position(dev, BPF_CORE_READ(rq, __sector), bytes >> 9);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	/* a partial completion (the request goes on) is not the request's end */
	if (nr_bytes < BPF_CORE_READ(rq, __data_len))
		return 0;
	int dir = op_dir(BPF_CORE_READ(rq, cmd_flags));
	__u64 key = (__u64)rq, now = bpf_ktime_get_ns();
	__u64 *issued = bpf_map_lookup_elem(&inflight, &key);
	__u64 at = issued ? *issued : 0;
	if (issued)
		bpf_map_delete_elem(&inflight, &key);
	if (dir < 0)
		return 0;
	__u32 dev = rq_dev(rq);
	if (at && now > at)
		hist_add(dev, BLK_D2C, dir, log2_bucket((now - at) / 1000, 31));
	__u64 start = BPF_CORE_READ(rq, start_time_ns);
	if (start && now > start)
		hist_add(dev, BLK_Q2C, dir, log2_bucket((now - start) / 1000, 31));
	return 0;
}
