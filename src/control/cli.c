/* cli.c - `ioscope set|remount|show` (stub until the control module lands). */
#include <stdio.h>

#include "commands.h"

static int not_yet(const char *what)
{
	fprintf(stderr, "ioscope: %s: not implemented yet\n", what);
	return 2;
}

int cmd_set(int argc, char **argv) { (void)argc; return not_yet(argv[0]); }
int cmd_remount(int argc, char **argv) { (void)argc; return not_yet(argv[0]); }
int cmd_show(int argc, char **argv) { (void)argc; return not_yet(argv[0]); }
