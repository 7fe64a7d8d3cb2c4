/* run.c - `ioscope run [options] [--] COMMAND [ARG...]`: watch a command (run_watch.h).
 *
 * The console or batch mode, with the command started after the first (baseline)
 * sample, its start and exit marked, and the watch going on after it exits: the
 * writeback after `tar` exits is half the story.
 */
#include <stdio.h>

#include "commands.h"
#include "options.h"
#include "text.h"

int cmd_run(int argc, char **argv)
{
	struct options opts;
	struct error err = { "" };
	int r = options_parse_run(&opts, argc, argv, &err);
	if (r > 0)
		return 0;
	if (r < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 2;
	}
	return watch_run(&opts);
}
