/* trace_source.h - the live source's eBPF block-layer view (issue 11, docs/metrics.md).
 *
 * Opens ioscope-trace.so (linked with libbpf) only when tracing is turned on, so no
 * other run loads libbpf.  Refuses with a message naming what is needed when the
 * process lacks the capabilities, the build left the feature out, or the kernel has
 * no BTF or block tracepoints.
 */
#ifndef IOSCOPE_TRACE_SOURCE_H
#define IOSCOPE_TRACE_SOURCE_H

#include <stdbool.h>

#include "error.h"
#include "trace.h"

struct trace_source;

/* Whether this build has the feature ("built in" / "compiled out" in --version). */
bool trace_compiled_in(void);
/* Root, or CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN) in the effective set. */
bool trace_privileged(void);
/* The refusal when !trace_privileged(). */
#define TRACE_NEEDS "tracing needs root or the capabilities CAP_BPF and CAP_PERFMON"

struct trace_source *trace_source_open(struct error *err);
/* Ends the interval (right before /proc/diskstats is read: both cover the same time). */
void trace_source_flip(struct trace_source *t);
/* What happened up to the last flip since the one before (or since open), malloc'ed.
 * NULL with err. */
struct trace_sample *trace_source_collect(struct trace_source *t, struct error *err);
void trace_source_close(struct trace_source *t);

#endif
