/* report_noplot.c - plots in an ioscope built where pkg-config found no cairo
 * (Makefile): every other report format works; svg and png say why they cannot. */
#include "report.h"

int report_plot_available(struct error *err)
{
	return error_set(err, "SVG and PNG plots need the cairo library, and this ioscope was "
			 "built without it; give --format text, csv or json");
}

int report_plot(struct report *rep, FILE *out, struct error *err)
{
	return report_plot_available(err);
}
