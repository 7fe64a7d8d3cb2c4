/* output_text_why.c - the why figures in batch text (dirty limits, journals, cgroups).
 *
 * Only what was read is printed: a tree without the figures prints nothing, so the
 * text of older fixtures and kernels is as it was.
 */
#include <stdio.h>

#include "output.h"
#include "text.h"
#include "why.h"

static void print_dirty(FILE *out, const struct why_rates *y)
{
	if (!y->have_dirty)
		return;
	fprintf(out, "dirty limit %.0f kB, background %.0f kB, freerun %.0f kB", y->threshold_kb,
		y->background_kb, y->freerun_kb);
	if (y->have_dirty_rates)
		fprintf(out, "; dirtied %.0f written %.0f kB/s", y->dirtied_kBs, y->written_kBs);
	fputc('\n', out);
	if (y->throttled)
		fputs("writers throttled: dirty above freerun, dirtying paced to writeback\n", out);
	else if (y->throttled_tasks)
		fprintf(out, "writers throttled: %u task%s in balance_dirty_pages (a device's own "
			"dirty limit)\n", y->throttled_tasks, y->throttled_tasks == 1 ? "" : "s");
}

static void print_journal(FILE *out, const struct journal_rates *j)
{
	text_printf(out, "journal %s %s %s:", j->mountpoint, journal_fs_defs[j->fs].fstype, j->device);
	bool any = false;
	for (int f = 0; f < JF_COUNT; f++) {
		if (!(j->present & (1u << f)))
			continue;
		const struct journal_figure_def *d = &journal_figures[f];
		fprintf(out, "%s %s %.*f%s", any ? "," : "", d->label, j->f[f] < 10 ? 1 : 0, j->f[f],
			d->unit);
		any = true;
	}
	fputs(any ? "\n" : " -\n", out);
}

static void print_cgroups(FILE *out, const struct why_rates *y)
{
	if (y->cgroup_state == CGROUP_IO_NO_CONTROLLER) {
		fputs("cgroup io: not available (cgroup v2 without the io controller)\n", out);
		return;
	}
	for (size_t i = 0; y->cgroup_state == CGROUP_IO_OK && i < y->ncgroups; i++) {
		const struct cgroup_io_rates *c = &y->cgroups[i];
		for (size_t d = 0; d < c->ndevs; d++)
			text_printf(out, "cgroup %s %u:%u: r %.0f kB/s %.0f/s, w %.0f kB/s %.0f/s\n",
				    c->path, c->devs[d].major, c->devs[d].minor, c->devs[d].rkB_s,
				    c->devs[d].r_s, c->devs[d].wkB_s, c->devs[d].w_s);
		if (c->have_pressure)
			text_printf(out, "cgroup %s: io pressure some %.2f%% full %.2f%%\n", c->path,
				    c->some_avg10, c->full_avg10);
	}
}

void output_text_why(FILE *out, const struct why_rates *y)
{
	if (!y)
		return;
	print_dirty(out, y);
	for (size_t i = 0; i < y->njournals; i++)
		print_journal(out, &y->journals[i]);
	print_cgroups(out, y);
	for (size_t i = 0; i < y->nmemcgs; i++) {
		char line[512];
		memcg_rates_text(&y->memcgs[i], line, sizeof line);
		text_printf(out, "%s\n", line);
	}
}
