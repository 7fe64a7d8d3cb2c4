/* tracer.c - ioscope-trace.so: loads the block-layer BPF programs (blk.bpf.c) and
 * turns their maps into one interval's struct trace_sample (include/trace.h).
 *
 * A shared object of its own so that only `--trace` loads libbpf (and libelf, libz):
 * ioscope opens it with dynlib_load (src/sources/trace_source.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "blk_maps.h"
#include "blk.skel.h"
#include "trace.h"

/* The three entry points, checked against their types in include/trace.h. */
#define EXPORT __attribute__((visibility("default")))
EXPORT tracer_open_fn ioscope_tracer_open;
EXPORT tracer_flip_fn ioscope_tracer_flip;
EXPORT tracer_collect_fn ioscope_tracer_collect;
EXPORT tracer_close_fn ioscope_tracer_close;

struct tracer {
	struct blk_bpf *skel;
	int ncpus;
	struct blk_hist *percpu;  /* one value per possible CPU */
	struct blk_hist_key *keys;
	struct blk_top_key *top_keys;
	struct blk_top_val *top_vals;   /* the values of top_keys */
	struct blk_top_recents *recent; /* top_recent's value on each CPU */
	__u32 closed;             /* the generation the last flip ended */
};

static int say(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* libbpf's own chatter would land on the console's screen: keep quiet. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static const char *why(int errnum)
{
	if (errnum == EPERM || errnum == EACCES)
		return "tracing needs root or CAP_BPF+CAP_PERFMON";
	if (errnum == ENOENT || errnum == ESRCH)
		return "the kernel lacks BTF (/sys/kernel/btf/vmlinux) or the block_rq_* tracepoints";
	return strerror(errnum);
}

void ioscope_tracer_close(struct tracer *t)
{
	if (!t)
		return;
	blk_bpf__destroy(t->skel);
	free(t->percpu);
	free(t->keys);
	free(t->top_keys);
	free(t->top_vals);
	free(t->recent);
	free(t);
}

struct tracer *ioscope_tracer_open(char *msg, size_t len)
{
	libbpf_set_print(quiet);
	struct tracer *t = calloc(1, sizeof *t);
	if (!t) {
		say(msg, len, "tracing: %s", strerror(ENOMEM));
		return NULL;
	}
	t->ncpus = libbpf_num_possible_cpus();
	if (t->ncpus <= 0) {
		say(msg, len, "tracing: possible CPUs: %s", strerror(-t->ncpus));
		goto fail;
	}
	t->percpu = calloc((size_t)t->ncpus, sizeof *t->percpu);
	t->keys = calloc(BLK_HIST_ENTRIES, sizeof *t->keys);
	/* top's entries, and those held on each CPU that top may not have */
	size_t tops = BLK_TOP_ENTRIES + (size_t)t->ncpus * BLK_TOP_RECENT;
	t->top_keys = calloc(tops, sizeof *t->top_keys);
	t->top_vals = calloc(tops, sizeof *t->top_vals);
	t->recent = calloc((size_t)t->ncpus, sizeof *t->recent);
	if (!t->percpu || !t->keys || !t->top_keys || !t->top_vals || !t->recent) {
		say(msg, len, "tracing: %s", strerror(ENOMEM));
		goto fail;
	}
	t->skel = blk_bpf__open_and_load();
	if (!t->skel) {
		say(msg, len, "tracing: loading the BPF programs: %s", why(errno));
		goto fail;
	}
	int r = blk_bpf__attach(t->skel);
	if (r) {
		say(msg, len, "tracing: attaching to the block tracepoints: %s", why(-r));
		goto fail;
	}
	return t;
fail:
	ioscope_tracer_close(t);
	return NULL;
}

/* The next key after *prev (NULL: the first); 0, or -1 at the end. */
static int next_key(int fd, const void *prev, void *key)
{
	return bpf_map_get_next_key(fd, prev, key) == 0 ? 0 : -1;
}

/* One CPU's counts of a disk into the interval's. */
static void add_hist(struct trace_device *d, const struct blk_hist *h)
{
	for (unsigned dir = 0; dir < TRACE_DIRS; dir++)
		for (unsigned b = 0; b < TRACE_LAT_BUCKETS; b++) {
			d->d2c[dir][b] += h->d2c[dir][b];
			d->q2c[dir][b] += h->q2c[dir][b];
		}
	for (unsigned dir = 0; dir < TRACE_SIZE_DIRS; dir++)
		for (unsigned b = 0; b < TRACE_SIZE_BUCKETS; b++)
			d->size[dir][b] += h->size[dir][b];
	d->issued += h->seek[BLK_ISSUED];
	d->seeks += h->seek[BLK_SEEKS];
	d->sequential += h->seek[BLK_SEQUENTIAL];
}

_Static_assert((int)BLK_DIRS == (int)TRACE_DIRS && BLK_LAT_BUCKETS == TRACE_LAT_BUCKETS &&
	       BLK_SIZE_DIRS == TRACE_SIZE_DIRS && BLK_SIZE_BUCKETS == TRACE_SIZE_BUCKETS,
	       "the BPF side counts into the buckets struct trace_device has");
/* libbpf passes a per-CPU value as one 8-byte-aligned copy per CPU: t->percpu's stride. */
_Static_assert(sizeof(struct blk_hist) % 8 == 0 && sizeof(struct blk_top_recents) % 8 == 0,
	       "per-CPU values are 8-byte multiples");

static struct trace_device *device_of(struct trace_sample *out, __u32 dev)
{
	return trace_get(out, dev >> BLK_DEV_MINOR_BITS, dev & ((1u << BLK_DEV_MINOR_BITS) - 1));
}

/* Reads and clears generation g of the histograms counted by queue number. */
static int collect_hist_by_queue(struct tracer *t, __u32 g, struct trace_sample *out,
				 char *msg, size_t len)
{
	int fd = bpf_map__fd(t->skel->maps.hist_by_queue);
	for (__u32 q = 0; q < BLK_QUEUE_SLOTS; q++) {
		__u32 i = q * 2 + g;
		if (bpf_map_lookup_elem(fd, &i, t->percpu) != 0)
			continue;
		int used = 0;
		for (int c = 0; c < t->ncpus; c++) {
			if (t->percpu[c].dev == 0)
				continue;
			used = 1;
			struct trace_device *d = device_of(out, (__u32)t->percpu[c].dev);
			if (!d)
				return say(msg, len, "tracing: %s", strerror(ENOMEM));
			add_hist(d, &t->percpu[c]);
		}
		if (used) {
			memset(t->percpu, 0, (size_t)t->ncpus * sizeof *t->percpu);
			bpf_map_update_elem(fd, &i, t->percpu, BPF_EXIST);
		}
	}
	return 0;
}

/* Reads and deletes generation g of the histograms counted by disk. */
static int collect_hist(struct tracer *t, __u32 g, struct trace_sample *out, char *msg,
			size_t len)
{
	int fd = bpf_map__fd(t->skel->maps.hist);
	size_t n = 0;
	struct blk_hist_key key, *prev = NULL;
	while (n < BLK_HIST_ENTRIES && next_key(fd, prev, &key) == 0) {
		t->keys[n] = key;
		prev = &t->keys[n];
		if (key.gen == g)
			n++;
	}
	for (size_t i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(fd, &t->keys[i], t->percpu) != 0)
			continue;
		bpf_map_delete_elem(fd, &t->keys[i]);
		struct trace_device *d = device_of(out, t->keys[i].dev);
		if (!d)
			return say(msg, len, "tracing: %s", strerror(ENOMEM));
		for (int c = 0; c < t->ncpus; c++)
			add_hist(d, &t->percpu[c]);
	}
	return 0;
}

/* Keeps the TRACE_TOP_MAX busiest tasks: by requests, then bytes. */
static void add_top(struct trace_device *d, __u32 pid, const struct blk_top_val *v)
{
	size_t at = d->ntop;
	while (at > 0 && (d->top[at - 1].ios < v->ios ||
			  (d->top[at - 1].ios == v->ios && d->top[at - 1].bytes < v->bytes)))
		at--;
	if (at >= TRACE_TOP_MAX)
		return;
	size_t last = d->ntop < TRACE_TOP_MAX ? d->ntop : TRACE_TOP_MAX - 1;
	memmove(&d->top[at + 1], &d->top[at], (last - at) * sizeof d->top[0]);
	d->top[at] = (struct trace_top){ .pid = pid, .ios = v->ios, .bytes = v->bytes };
	memcpy(d->top[at].comm, v->comm, sizeof d->top[at].comm);
	d->top[at].comm[TRACE_COMM_MAX - 1] = '\0';
	if (d->ntop < TRACE_TOP_MAX)
		d->ntop++;
}

/* Reads and deletes generation g of `top`: its first n entries in top_keys and top_vals. */
static size_t take_top(struct tracer *t, __u32 g)
{
	int fd = bpf_map__fd(t->skel->maps.top);
	size_t n = 0, kept = 0;
	struct blk_top_key key, *prev = NULL;
	while (n < BLK_TOP_ENTRIES && next_key(fd, prev, &key) == 0) {
		t->top_keys[n] = key;
		prev = &t->top_keys[n];
		if (key.gen == g)
			n++;
	}
	for (size_t i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(fd, &t->top_keys[i], &t->top_vals[kept]) != 0)
			continue;
		bpf_map_delete_elem(fd, &t->top_keys[i]);
		t->top_keys[kept++] = t->top_keys[i];
	}
	return kept;
}

/* One held entry into the n taken: added to the same task and disk's, or a new one. */
static size_t add_recent(struct tracer *t, __u32 g, size_t n, const struct blk_top_recent *r)
{
	size_t at = 0;
	while (at < n && (t->top_keys[at].dev != r->dev || t->top_keys[at].pid != r->pid))
		at++;
	if (at == n) {
		t->top_keys[n] = (struct blk_top_key){ .dev = r->dev, .pid = r->pid, .gen = g };
		t->top_vals[n] = r->val;
		return n + 1;
	}
	t->top_vals[at].ios += r->val.ios;
	t->top_vals[at].bytes += r->val.bytes;
	return n;
}

/* Adds what each CPU still holds for generation g (top_recent) to the n entries taken
 * from `top`, and clears it: the total of entries returned. */
static size_t take_recent(struct tracer *t, __u32 g, size_t n)
{
	int fd = bpf_map__fd(t->skel->maps.top_recent);
	__u32 i = g & 1;
	if (bpf_map_lookup_elem(fd, &i, t->recent) != 0)
		return n;
	int held = 0;
	for (int c = 0; c < t->ncpus; c++)
		for (unsigned e = 0; e < BLK_TOP_RECENT; e++) {
			if (t->recent[c].at[e].val.ios == 0)
				continue;
			held = 1;
			n = add_recent(t, g, n, &t->recent[c].at[e]);
		}
	if (held) {
		memset(t->recent, 0, (size_t)t->ncpus * sizeof *t->recent);
		bpf_map_update_elem(fd, &i, t->recent, BPF_EXIST);
	}
	return n;
}

static int collect_top(struct tracer *t, __u32 g, struct trace_sample *out, char *msg,
		       size_t len)
{
	size_t n = take_recent(t, g, take_top(t, g));
	for (size_t i = 0; i < n; i++) {
		struct trace_device *d = device_of(out, t->top_keys[i].dev);
		if (!d)
			return say(msg, len, "tracing: %s", strerror(ENOMEM));
		add_top(d, t->top_keys[i].pid, &t->top_vals[i]);
	}
	return 0;
}

void ioscope_tracer_flip(struct tracer *t)
{
	t->closed = t->skel->bss->gen;
	__atomic_store_n(&t->skel->bss->gen, t->closed ^ 1, __ATOMIC_SEQ_CST);
}

int ioscope_tracer_collect(struct tracer *t, struct trace_sample *out, char *msg, size_t len)
{
	trace_sample_free(out);
	__u32 g = t->closed;
	if (collect_hist_by_queue(t, g, out, msg, len) < 0 ||
	    collect_hist(t, g, out, msg, len) < 0 || collect_top(t, g, out, msg, len) < 0) {
		trace_sample_free(out);
		return -1;
	}
	return 0;
}
