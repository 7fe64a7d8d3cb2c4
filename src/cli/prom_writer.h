/* prom_writer.h - what the writers of prom_families[] share (src/cli/output_prom*.c):
 * the exposition being written and how one sample is put in it. */
#ifndef IOSCOPE_PROM_WRITER_H
#define IOSCOPE_PROM_WRITER_H

#include <stdbool.h>
#include <stddef.h>

#include "prom.h"

struct prom_ctx {
	struct prom_buf *b;
	const struct prom_exporter *x;
	const struct interval_view *v;
	const struct prom_family *f;
	enum prom_format format;
};

struct label {
	const char *name, *value;
};

/* name{l1="v1",...} value, name = the family's plus suffix ("", "_bucket"...). */
void prom_sample(struct prom_ctx *c, const char *suffix, const struct label *labels, size_t n,
		 double v);
/* A number as the exposition writes it ("+Inf", "0.25", "3"): values and le labels. */
void prom_format_value(double v, char *out, size_t len);
/* A histogram's _bucket (one per bound, then +Inf), _sum and _count, each with the
 * labels given plus le. */
#define PROM_LABELS_MAX 4
void prom_histogram(struct prom_ctx *c, const struct label *labels, size_t n,
		    const struct prom_hist *h, const double *bounds, size_t nbounds);
/* Of n items whose samples a label (label(c, i); NULL: no sample) tells apart, which
 * ones are the last of those whose labels escape alike: a series may appear once only
 * (node_exporter's textfile collector fails on a file that has one twice).  A new array
 * of n, true for those; NULL (the buffer marked failed) on ENOMEM. */
bool *prom_last_alike(struct prom_ctx *c, size_t n,
		      const char *(*label)(const struct prom_ctx *c, size_t i));
/* Whether a device, or the whole disk of a partition, is one of those shown. */
bool prom_disk_shown(const struct prom_ctx *c, const char *name);

/* The writers of output_prom_why.c and output_prom_latency.c. */
/* f->which: the offset of the figure in struct why_rates (kB) */
void prom_emit_dirty_gauge(struct prom_ctx *c);
/* f->which: enum why_dirty_field of a page counter */
void prom_emit_dirty_counter(struct prom_ctx *c);
/* f->which: a row of the journal counters' table (output_prom_why.c) */
void prom_emit_journal_counter(struct prom_ctx *c);
/* f->which: enum journal_figure, times f->scale */
void prom_emit_journal_gauge(struct prom_ctx *c);
void prom_emit_tasks_blocked(struct prom_ctx *c);
void prom_emit_disk_tasks_blocked(struct prom_ctx *c);
void prom_emit_dips(struct prom_ctx *c);
void prom_emit_last_dip(struct prom_ctx *c);
void prom_emit_probe_read(struct prom_ctx *c);
void prom_emit_probe_exec(struct prom_ctx *c);
void prom_emit_probe_errors(struct prom_ctx *c);
void prom_emit_probe_stalled(struct prom_ctx *c);
void prom_emit_trace_d2c(struct prom_ctx *c);
void prom_emit_trace_q2c(struct prom_ctx *c);

/* The exporter's accumulation of what output_prom_latency.c writes; -1 on ENOMEM. */
int prom_latency_update(struct prom_exporter *x, const struct interval_view *v);
void prom_latency_free(struct prom_exporter *x);

#endif
