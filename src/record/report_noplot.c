/* report_noplot.c - plots in an ioscope built where pkg-config found no cairo
 * (Makefile): every other report format works; svg and png say why they cannot. */
#include "report.h"

int report_plot_available(struct error *err)
{
	char names[128];
	report_format_names(names, sizeof names, ", ", " or ", true);
	return error_set(err, "SVG and PNG plots need the cairo library, and this ioscope was "
			 "built without it; give --format %s", names);
}

int report_svg(struct report *rep, FILE *out, struct error *err)
{
	(void)rep;
	(void)out;
	return report_plot_available(err);
}

int report_png(struct report *rep, FILE *out, struct error *err)
{
	(void)rep;
	(void)out;
	return report_plot_available(err);
}
