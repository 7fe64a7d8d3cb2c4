/* commands.h - the entry points main() dispatches to.  Each returns the exit status:
 * 0 success, 1 the kernel (or the data) refused, 2 bad usage. */
#ifndef IOSCOPE_COMMANDS_H
#define IOSCOPE_COMMANDS_H

#include "options.h"
#include "recorder.h"
#include "source.h"

/* `ioscope set DEVICE KEY=VALUE...`, `remount MOUNTPOINT OPTIONS`, `show DEVICE|MOUNTPOINT`
 * (src/cli/control_cmd.c); argv[0] is the subcommand name. */
int cmd_set(int argc, char **argv);
int cmd_remount(int argc, char **argv);
int cmd_show(int argc, char **argv);
/* `ioscope report FILE [...]` (src/cli/report_cmd.c, the report is src/record's) */
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);   /* compare_cmd.c */

/* `ioscope run [options] [--] COMMAND...` (src/cli/run.c): the exit status is COMMAND's. */
int cmd_run(int argc, char **argv);
/* `ioscope mark TEXT...` (src/cli/mark.c): 1 when no ioscope of this user runs. */
int cmd_mark(int argc, char **argv);
/* `ioscope matrix ...` (src/cli/matrix.c, docs/experiments.md) */
int cmd_matrix(int argc, char **argv);
/* The watching mode the options ask for, on the source they name (src/cli/main.c). */
int watch_run(const struct options *o);

/* Batch mode (src/cli/batch.c); rec may be NULL.  It owns neither src nor rec.  The
 * console is ui's (console.h). */
int batch_run(const struct options *o, struct source *src, struct recorder *rec);

#endif
