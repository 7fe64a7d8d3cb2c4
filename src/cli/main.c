/* main.c - dispatch: subcommands, or a watching mode fed by a live or replay source. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "options.h"
#include "recorder.h"
#include "replay.h"
#include "source.h"
#include "text.h"

/* What a command printed must have reached standard output (a full disk, a closed
 * pipe): otherwise say so and fail, whatever the command itself concluded. */
static int stdout_check(int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	fprintf(stderr, "ioscope: standard output: %s\n", strerror(errno ? errno : EIO));
	return status ? status : 1;
}

static int run_subcommand(int argc, char **argv, int *status)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "set", cmd_set }, { "remount", cmd_remount }, { "show", cmd_show }, { "report", cmd_report },
		{ "run", cmd_run }, { "mark", cmd_mark }, { "matrix", cmd_matrix },
		{ "compare", cmd_compare },
	};
	if (argc < 2)
		return 0;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(argv[1], cmds[i].name) == 0) {
			*status = stdout_check(cmds[i].fn(argc - 1, argv + 1));
			return 1;
		}
	return 0;
}

/* A setuid or setgid ioscope would make every user root for settings and files:
 * the control rights are granted with sudo or capabilities (docs/control.md). */
static int refuse_setid(void)
{
	if (getuid() == geteuid() && getgid() == getegid())
		return 0;
	fprintf(stderr, "ioscope: refusing to run setuid or setgid (it would act as %s for every "
		"user): remove the bit (chmod u-s,g-s) and grant the rights with sudo or "
		"capabilities, see docs/control.md\n", geteuid() == 0 ? "root" : "its owner");
	return 1;
}

int main(int argc, char **argv)
{
	int status;
	if (refuse_setid())
		return 1;
	if (run_subcommand(argc, argv, &status))
		return status;

	struct options opts;
	struct error err = { "" };
	int r = options_parse(&opts, argc, argv, &err);
	if (r > 0)
		return stdout_check(0);   /* --help, --version */
	if (r < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 2;
	}
	return watch_run(&opts);
}
