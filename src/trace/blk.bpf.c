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

/* Costs measured per call on this project's VM (docs/performance.md, "Tracing"): a hash
 * or LRU map update or delete costs hundreds of ns, an array lookup tens, a
 * BPF_CORE_READ (a probe-read helper) about 100 where a direct read of the tp_btf
 * argument costs a few.  Hence the disk's counts and last position in arrays indexed by
 * its queue number, direct reads, and the issue time in an array slot. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, BLK_HIST_ENTRIES);
	__type(key, struct blk_hist_key);
	__type(value, struct blk_hist);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2 * BLK_QUEUE_SLOTS);   /* queue number * 2 + generation */
	__type(key, __u32);
	__type(value, struct blk_hist);
} hist_by_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BLK_QUEUE_SLOTS);
	__type(key, __u32);
	__type(value, struct blk_last_end);
} last_end_by_queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1u << BLK_SLOT_BITS);
	__type(key, __u32);
	__type(value, struct blk_issue);
} issued SEC(".maps");

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

/* By generation, per CPU: tasks that queued bios and their counts not yet in `top` (the
 * tracer adds what is held here to what `top` has). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct blk_top_recents);
} top_recent SEC(".maps");

/* By disk, since the programs were loaded: the completions they were not run for, found
 * when the request is issued again with its previous issue still remembered (a requeue
 * forgets it).  A kernel may skip the programs without counting a recursion miss: the
 * histograms are short by these (docs/metrics.md, "Tracing").  Touched only then. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BLK_DISKS);
	__type(key, __u32);
	__type(value, __u64);
} unseen SEC(".maps");

/* What a disk's first request of a generation starts from (too big for the stack). */
static const struct blk_hist zero_hist;

#define EEXIST 17     /* a map update with BPF_NOEXIST found the key */
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

/* log2_bucket(ns / 1000, BLK_LAT_BUCKETS - 1) without the division (a 64-bit divide is
 * the dearest instruction of a completion): floor(ns / 1000) >= 2^b exactly when
 * ns >= 1000 * 2^b, so the bucket is the largest such b, found by halving. */
static __always_inline __u32 log2_us_bucket(__u64 ns)
{
	__u32 b = 0;
#pragma unroll
	for (__u32 step = BLK_LAT_BUCKETS / 2; step > 0; step >>= 1)
		if (ns >= (1000ull << (b + step)))
			b += step;
	return b;
}

/* This CPU's counts of the disk for the current generation (no other writer).  An
 * array slot that counts another disk (its queue number went to a new disk within the
 * interval) leaves this one to the hash map. */
static __always_inline struct blk_hist *hist_of(__u32 qid, __u32 dev)
{
	__u32 g = gen & 1;
	if (qid < BLK_QUEUES_IN_ARRAYS && dev) {   /* dev 0 marks a free slot */
		__u32 i = qid * 2 + g;
		struct blk_hist *h = bpf_map_lookup_elem(&hist_by_queue, &i);
		if (h && h->dev == 0)
			h->dev = dev;
		if (h && h->dev == dev)
			return h;
	}
	struct blk_hist_key k = { .dev = dev, .gen = g };
	struct blk_hist *h = bpf_map_lookup_elem(&hist, &k);
	if (h)
		return h;
	bpf_map_update_elem(&hist, &k, &zero_hist, BPF_NOEXIST);  /* or another CPU did */
	return bpf_map_lookup_elem(&hist, &k);
}

static __always_inline __u32 disk_dev(struct gendisk *disk)
{
	if (!disk)
		return 0;
	return ((__u32)disk->major << BLK_DEV_MINOR_BITS) | (__u32)disk->first_minor;
}

/* The request's slot: its tag's place in a run of slots that starts where its queue and
 * hardware queue hash to (times 2^32/phi, Knuth, top bits).  A tag is the request's for its
 * life: the scheduler's tag when the queue has one (the driver's is given back on a
 * requeue), else the driver's.  The tags of a queue in flight thus sit side by side, a
 * few cache lines, where a hash of each request's address spread a queue's 128 requests
 * over 128 lines of the array (one cache miss, on this VM ~100 ns, at issue and
 * at completion).  Requests of other queues whose run overlaps, or of other hardware
 * queues, may want the same slot: the compare-and-swap gives it to one and the other goes
 * to the LRU map, as before.  A request without either tag (not at these tracepoints)
 * goes by its address's hash. */
static __always_inline __u32 slot_of(struct request *rq, __u32 qid)
{
	int tag = rq->internal_tag >= 0 ? rq->internal_tag : rq->tag;
	if (tag < 0) {
		/* the verifier takes a pointer's low half only through a 32-bit move (no other
		 * pointer arithmetic verifies), which clang may fold into the multiply as
		 * its code around changes: hence the move by hand */
		__u32 low;
		asm volatile("%0 = %1" : "=w"(low) : "w"((__u32)(unsigned long)rq));
		return (low * 2654435761u) >> (32 - BLK_SLOT_BITS);
	}
	struct blk_mq_hw_ctx *hctx = rq->mq_hctx;
	__u32 hw = hctx ? hctx->queue_num : 0;
	__u32 run = ((qid << 8) + hw) * 2654435761u >> (32 - BLK_SLOT_BITS);
	return (run + (__u32)tag) & ((1u << BLK_SLOT_BITS) - 1);
}

static __always_inline struct blk_issue *slot_at(struct request *rq, __u32 qid)
{
	__u32 i = slot_of(rq, qid);
	return bpf_map_lookup_elem(&issued, &i);
}

/* The issue time goes into the request's slot when it is free, its own or stale; else
 * into the LRU map.  ns 0 marks a slot being claimed or freed, which is never stale.
 * 1 when the request's previous issue was still there: its completion was not seen (a
 * requeued request's issue is forgotten, rq_requeue). */
static __always_inline int remember_issue(struct request *rq, struct blk_issue *s, __u64 now)
{
	__u64 key = (__u64)rq;
	__u64 held = s->rq, since = s->ns;
	if (held == key) {
		s->ns = now;
		return 1;
	}
	if ((held == 0 && __sync_val_compare_and_swap(&s->rq, 0, key) == 0) ||
	    (since && now - since > BLK_STALE_NS &&
	     __sync_val_compare_and_swap(&s->rq, held, key) == held)) {
		s->ns = now;
		return 0;
	}
	if (bpf_map_update_elem(&inflight, &key, &now, BPF_NOEXIST) != -EEXIST)
		return 0;
	bpf_map_update_elem(&inflight, &key, &now, BPF_EXIST);
	return 1;
}

static __always_inline void count_unseen(__u32 dev)
{
	__u64 one = 1, *n = bpf_map_lookup_elem(&unseen, &dev);
	if (!n && bpf_map_update_elem(&unseen, &dev, &one, BPF_NOEXIST) == 0)
		return;
	if (!n)
		n = bpf_map_lookup_elem(&unseen, &dev);   /* another CPU made it */
	if (n)
		__sync_fetch_and_add(n, 1);
}

/* When the request was issued (0: not seen), forgetting it. */
static __always_inline __u64 issue_time(struct request *rq, __u32 qid)
{
	__u64 key = (__u64)rq;
	struct blk_issue *s = slot_at(rq, qid);
	if (s && s->rq == key) {
		__u64 at = s->ns;
		s->ns = 0;
		return __sync_val_compare_and_swap(&s->rq, key, 0) == key ? at : 0;
	}
	__u64 *v = bpf_map_lookup_elem(&inflight, &key);
	if (!v)
		return 0;
	__u64 at = *v;
	bpf_map_delete_elem(&inflight, &key);
	return at;
}

/* What this CPU held for a task into `top` (full: the interval's newcomers are not
 * counted). */
static __always_inline void top_add(struct blk_top_recent *r, __u32 g)
{
	struct blk_top_key k = { .dev = r->dev, .pid = r->pid, .gen = g };
	struct blk_top_val *v = bpf_map_lookup_elem(&top, &k);
	if (!v) {
		if (bpf_map_update_elem(&top, &k, &r->val, BPF_NOEXIST) == 0)
			return;
		v = bpf_map_lookup_elem(&top, &k);   /* another CPU made it */
		if (!v)
			return;
	}
	__sync_fetch_and_add(&v->ios, r->val.ios);
	__sync_fetch_and_add(&v->bytes, r->val.bytes);
}

/* A request counted for the task that queued it (the one given, else the current one), on
 * this CPU in the task and disk's place; `top` only when another task or disk that hashes
 * there comes.  No other program writes top_recent, and the kernel runs a program once at
 * a time on a CPU, so plain increments. */
static __always_inline void count_queuer(__u32 dev, __u32 bytes, const struct blk_issue *by)
{
	__u32 g = gen, i = g & 1;
	struct blk_top_recents *rs = bpf_map_lookup_elem(&top_recent, &i);
	if (!rs)
		return;
	__u32 pid = by ? by->pid : bpf_get_current_pid_tgid() >> 32;
	__u32 at = ((pid ^ dev * 2654435761u) * 2654435761u) >> 26;   /* 64 = 2^(32 - 26) */
	struct blk_top_recent *r = &rs->at[at & (BLK_TOP_RECENT - 1)];
	if (r->val.ios == 0 || r->pid != pid || r->dev != dev) {
		if (r->val.ios)
			top_add(r, g);
		r->dev = dev;
		r->pid = pid;
		r->val.ios = 0;
		r->val.bytes = 0;
		if (by)
			__builtin_memcpy(r->val.comm, by->comm, sizeof r->val.comm);
		else
			bpf_get_current_comm(r->val.comm, sizeof r->val.comm);
	}
	r->val.ios++;
	r->val.bytes += bytes;
}

/* A request put in a scheduler or a queue to be issued later, in its submitter's context:
 * the submitter is kept in the request's slot for the issue (often in a kernel worker's
 * context) to count.  Not run for a request issued at once (no scheduler): the issue counts
 * its current task, which is the submitter then.  Touches no other map. */
SEC("tp_btf/block_rq_insert")
int BPF_PROG(rq_insert, struct request *rq)
{
	struct blk_issue *s = slot_at(rq, rq->q->id);
	if (!s)
		return 0;
	s->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(s->comm, sizeof s->comm);
	s->queued_rq = (__u64)rq;
	return 0;
}

/* Where the disk's last request ended (NULL: none seen yet, then remembers end). */
static __always_inline __u64 *last_end_of(__u32 qid, __u32 dev, __u64 end)
{
	if (qid < BLK_QUEUES_IN_ARRAYS && dev) {
		struct blk_last_end *l = bpf_map_lookup_elem(&last_end_by_queue, &qid);
		if (!l)
			return NULL;
		if (l->dev == dev)
			return &l->end;
		l->end = end;
		l->dev = dev;
		return NULL;
	}
	__u64 *last = bpf_map_lookup_elem(&last_end, &dev);
	if (!last)
		bpf_map_update_elem(&last_end, &dev, &end, BPF_ANY);
	return last;
}

/* seekwatcher's seeks and biopattern's sequential share, at issue. */
static __always_inline void count_position(struct blk_hist *h, __u32 qid, __u32 dev,
					   __u64 sector, __u64 sectors)
{
	__u64 end = sector + sectors;
	__u64 *last = last_end_of(qid, dev, end);
	h->seek[BLK_ISSUED]++;
	if (!last)
		return;
	__u64 prev = *last;
	*last = end;
	if (sector == prev)
		h->seek[BLK_SEQUENTIAL]++;
	else if ((sector > prev ? sector - prev : prev - sector) > 128)
		h->seek[BLK_SEEKS]++;
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(rq_issue, struct request *rq)
{
	struct request_queue *q = rq->q;
	__u32 qid = q->id, dev = disk_dev(q->disk);
	struct blk_issue *s = slot_at(rq, qid);
	if (s && remember_issue(rq, s, bpf_ktime_get_ns()))
		count_unseen(dev);
	/* who queued it: kept at insert, else the task issuing it */
	struct blk_issue *by = NULL;
	if (s && s->queued_rq == (__u64)rq) {
		s->queued_rq = 0;
		by = s;
	}
	int dir = op_dir(rq->cmd_flags);
	__u32 bytes = rq->__data_len;
	if (dir < 0 || dir > 1 || bytes == 0)
		return 0;
	count_queuer(dev, bytes, by);
	struct blk_hist *h = hist_of(qid, dev);
	if (!h)
		return 0;
	h->size[dir & 1][log2_bucket(bytes >> 10, BLK_SIZE_BUCKETS - 1)]++;
	count_position(h, qid, dev, rq->__sector, bytes >> 9);
	return 0;
}

/* Issued again later: timed from then, and not taken for a completion not seen. */
SEC("tp_btf/block_rq_requeue")
int BPF_PROG(rq_requeue, struct request *rq)
{
	issue_time(rq, rq->q->id);
	return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(rq_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	/* a partial completion (the request goes on) is not the request's end */
	if (nr_bytes < rq->__data_len)
		return 0;
	struct request_queue *q = rq->q;
	__u32 qid = q->id;
	__u64 now = bpf_ktime_get_ns(), at = issue_time(rq, qid), start = rq->start_time_ns;
	int dir = op_dir(rq->cmd_flags);
	if (dir < 0)
		return 0;
	int d2c = at && now > at, q2c = start && now > start;
	if (!d2c && !q2c)
		return 0;
	struct blk_hist *h = hist_of(qid, disk_dev(q->disk));
	if (!h)
		return 0;
	if (d2c)
		h->d2c[dir][log2_us_bucket(now - at)]++;
	if (q2c)
		h->q2c[dir][log2_us_bucket(now - start)]++;
	return 0;
}
