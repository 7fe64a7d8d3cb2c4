/* report.c - `ioscope report` (stub until the record module lands). */
#include <stdio.h>

#include "commands.h"

int cmd_report(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "ioscope: report: not implemented yet\n");
	return 2;
}
