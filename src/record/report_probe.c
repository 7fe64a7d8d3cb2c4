/* report_probe.c - the responsiveness probe in reports: every sample of a phase
 * gathered, then p50 / p99 / max per kind (reads, cold starts). */
#include <stdlib.h>

#include "probe.h"
#include "report_probe.h"

int report_probe_add(struct probe_samples **acc, const struct snapshot *cur)
{
	const struct probe_samples *p = cur->probe;
	if (!p)
		return 0;
	if (!*acc && !(*acc = calloc(1, sizeof **acc)))
		return -1;
	for (size_t i = 0; i < p->nread; i++)
		if (probe_samples_add_read(*acc, p->read_us[i]) < 0)
			return -1;
	for (size_t i = 0; i < p->nexec; i++)
		if (probe_samples_add_exec(*acc, p->exec_us[i]) < 0)
			return -1;
	(*acc)->errors += p->errors;
	if (p->stalled_us > (*acc)->stalled_us)
		(*acc)->stalled_us = p->stalled_us;
	return 0;
}

static void line(FILE *out, const char *what, const uint64_t *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "  %-8s %-6s n %-6zu p50 %9.3f  p99 %9.3f  max %9.3f ms\n", "probe", what, n,
		probe_percentile(v, n, 50) / 1000.0, probe_percentile(v, n, 99) / 1000.0,
		probe_percentile(v, n, 100) / 1000.0);
}

void report_probe_print(FILE *out, const struct probe_samples *p)
{
	if (!p)
		return;
	if (!p->nread && !p->nexec)
		fprintf(out, "  %-8s no samples in this phase\n", "probe");
	line(out, "read", p->read_us, p->nread);
	line(out, "start", p->exec_us, p->nexec);
	if (p->errors || p->stalled_us)
		fprintf(out, "  %-8s %llu failed; longest wait seen at a sample %.3f ms\n", "probe",
			(unsigned long long)p->errors, p->stalled_us / 1000.0);
}

void report_probe_free(struct probe_samples *p)
{
	if (p)
		probe_samples_free(p);
	free(p);
}

/* read_n, read_p50_us, ..., in the order of report_probe_figure_names[] */
const char *const report_probe_figure_names[REPORT_PROBE_FIGURES] = {
	"read_n", "read_p50_us", "read_p99_us", "read_max_us",
	"exec_n", "exec_p50_us", "exec_p99_us", "exec_max_us",
	"errors", "stalled_us",
};

/* Figures 0-3 of reads, 4-7 of cold starts: n, then p50, p99, max. */
static bool kind_figure(const uint64_t *v, size_t n, size_t which, uint64_t *out)
{
	static const double rank[] = { 0, 50, 99, 100 };
	if (which == 0) {
		*out = n;
		return true;
	}
	if (!n)
		return false;
	*out = probe_percentile(v, n, rank[which]);
	return true;
}

bool report_probe_figure(const struct probe_samples *p, size_t i, uint64_t *v)
{
	if (!p || i >= REPORT_PROBE_FIGURES)
		return false;
	if (i < 4)
		return kind_figure(p->read_us, p->nread, i, v);
	if (i < 8)
		return kind_figure(p->exec_us, p->nexec, i - 4, v);
	*v = i == 8 ? p->errors : p->stalled_us;
	return true;
}
