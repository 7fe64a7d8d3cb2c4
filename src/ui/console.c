/* console.c - the interactive console (stub until the ui module lands). */
#include <stdio.h>

#include "commands.h"

int console_run(const struct options *o, struct source *src, struct recorder *rec)
{
	(void)o; (void)src; (void)rec;
	fprintf(stderr, "ioscope: the console is not implemented yet; use --batch\n");
	return 2;
}
