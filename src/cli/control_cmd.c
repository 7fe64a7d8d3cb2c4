/* control_cmd.c - `ioscope set`, `ioscope remount`, `ioscope show`: their arguments, then
 * plan, privilege, confirmation, apply, report (the changes are src/control's).
 *
 * Exit status: 0 every change applied; 1 the kernel refused or did not apply one
 * (its message is printed), the operator declined, a risky change could not be
 * confirmed (no terminal, no --yes), or privilege is missing; 2 bad usage.
 * Nothing is written when any argument is invalid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "announce.h"
#include "commands.h"
#include "control.h"
#include "json_text.h"
#include "knobs.h"
#include "session_log.h"
#include "text.h"

#define CLI_MAX_ARGS (CONTROL_MAX_ITEMS + 8)

struct cli_args {
	bool yes, help, events;
	const char *root;
	char *pos[CLI_MAX_ARGS];
	size_t npos;
};

/* Options anywhere before "--"; "-opt" words are remount options, not ours. */
static int parse_args(int argc, char **argv, struct cli_args *a, bool allow_root)
{
	bool options_done = false;
	memset(a, 0, sizeof *a);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (!options_done && strcmp(arg, "--") == 0) {
			options_done = true;
		} else if (!options_done && (strcmp(arg, "-y") == 0 || strcmp(arg, "--yes") == 0)) {
			a->yes = true;
		} else if (!options_done && strcmp(arg, "--events") == 0) {
			a->events = true;
		} else if (!options_done &&
			   (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)) {
			a->help = true;
		} else if (!options_done && allow_root && strcmp(arg, "--root") == 0) {
			if (++i == argc)
				return text_printf(stderr, "ioscope %s: --root needs a directory\n",
					       argv[0]),
				       -1;
			a->root = argv[i];
		} else if (!options_done && allow_root && strncmp(arg, "--root=", 7) == 0) {
			a->root = arg + 7;
		} else if (!options_done && strncmp(arg, "--", 2) == 0) {
			return text_printf(stderr, "ioscope %s: unknown option %s\n", argv[0], arg), -1;
		} else if (a->npos < CLI_MAX_ARGS) {
			a->pos[a->npos++] = argv[i];
		} else {
			return text_printf(stderr, "ioscope %s: too many arguments\n", argv[0]), -1;
		}
	}
	return 0;
}

/* "    KEY                  RANGE", RANGE wrapped under itself within 80 columns */
static void key_line(FILE *out, const char *key, const char *range)
{
	enum { INDENT = 25, WIDTH = 80 };
	int col = fprintf(out, "    %-20s", key);
	const char *p = range;
	while (*p) {
		size_t word = strcspn(p, " ");
		if (col > INDENT && col + 1 + (int)word > WIDTH)
			col = fprintf(out, "\n%*s", INDENT - 1, "") - 1;
		col += fprintf(out, " %.*s", (int)word, p);
		p += word;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

static void usage(FILE *out, const char *cmd)
{
	if (strcmp(cmd, "set") == 0) {
		fputs("usage: ioscope set [--yes] [--events] [--root DIR] DEVICE KEY=VALUE...\n"
		      "  keys (see ioscope(1), CHANGING SETTINGS):\n", out);
		for (size_t i = 0; i < knob_count; i++) {
			const struct knob *k = &knob_table[i];
			const char *shown = k->value == KNOB_IOSCHED ? "iosched.NAME" : k->key;
			if (k->write != KNOB_READ_ONLY)
				key_line(out, shown, k->help);
		}
	} else if (strcmp(cmd, "remount") == 0)
		fprintf(out, "usage: ioscope remount [--yes] [--events] MOUNTPOINT OPTIONS\n"
			     "  OPTIONS: comma list of opt, +opt, -opt, opt=value\n"
			     "  e.g. ioscope remount /mnt noatime,commit=30\n");
	else
		fprintf(out, "usage: ioscope show [--root DIR] DEVICE|MOUNTPOINT\n");
}

/* 0: go ahead; 1: declined, or cannot ask (no terminal, no --yes): a refusal, not
 * bad usage, since the same command is right on a terminal or with --yes. */
static int confirm(const struct control_plan *p, bool yes)
{
	if (p->nrisks == 0 || yes)
		return 0;
	char what[512];
	control_plan_describe(p, what, sizeof what);
	text_printf(stderr, "ioscope: %s is risky:\n", what);
	for (size_t i = 0; i < p->nrisks; i++)
		text_printf(stderr, "  - %s\n", p->risks[i]);
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "ioscope: nothing changed: stdin is not a terminal to confirm on; "
				"add --yes to make this change anyway\n");
		return 1;
	}
	fprintf(stderr, "Make this change? [y/N] ");
	char answer[16];
	if (!fgets(answer, sizeof answer, stdin) ||
	    (strcmp(answer, "y\n") != 0 && strcmp(answer, "yes\n") != 0)) {
		fprintf(stderr, "ioscope: nothing changed\n");
		return 1;
	}
	return 0;
}

/* The events as session-log event records, one JSON object a line, for scripts. */
static void print_events(const struct control_result *r)
{
	for (size_t i = 0; i < r->nevents; i++) {
		json_object *o = session_log_event(&r->events[i], 0);
		if (!o)
			continue;
		struct json_text t = json_text_of(o, JSON_TEXT_LINE);
		if (t.text)
			printf("%s\n", t.text);
		json_text_free(&t);
		json_object_put(o);
	}
}

static int run_plan(const struct control_plan *p, bool yes, bool events)
{
	struct error err = { "" };
	if (control_check_privilege(p, &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 1;
	}
	int c = confirm(p, yes);
	if (c)
		return c;
	struct control_result *r = malloc(sizeof *r);
	if (!r) {
		fprintf(stderr, "ioscope: out of memory\n");
		return 1;
	}
	struct control_pending pending;
	control_pending_of(p, &pending);
	announce_pending(&session_log_announce_codec, pending.events, pending.n);
	int status = control_apply(p, r);
	announce_events(&session_log_announce_codec, r->events, r->nevents);   /* running instances log them as ours */
	/* then what was not made (not attempted after a refusal): not held for any longer */
	control_pending_unanswered(&pending, r);
	announce_withdrawn(&session_log_announce_codec, pending.events, pending.n);
	control_pending_free(&pending);
	for (size_t i = 0; i < r->nlines; i++)
		text_printf(stdout, "%s\n", r->lines[i]);
	if (events)
		print_events(r);
	fflush(stdout);
	if (status)
		fprintf(stderr, "ioscope: not every change was applied (see above)\n");
	control_result_free(r);
	return status ? 1 : 0;
}

/* The command line of cmd parsed into a, at least min positional arguments: -1 to go on,
 * else the exit status (help asked for, or bad usage). */
static int take_args(const char *cmd, int argc, char **argv, bool root, size_t min,
		     struct cli_args *a)
{
	if (parse_args(argc, argv, a, root) < 0)
		return usage(stderr, cmd), 2;
	if (a->help)
		return usage(stdout, cmd), 0;
	if (a->npos < min)
		return usage(stderr, cmd), 2;
	return -1;
}

/* A plan made by plan(p, ctx, err), then checked, asked for and applied: the exit status. */
static int plan_and_run(const char *cmd, const struct cli_args *a,
			int (*plan)(struct control_plan *p, const void *ctx, struct error *err),
			const void *ctx)
{
	struct control_plan *p = malloc(sizeof *p);
	if (!p)
		return fprintf(stderr, "ioscope: out of memory\n"), 1;
	struct error err = { "" };
	int status;
	if (plan(p, ctx, &err) < 0) {
		text_printf(stderr, "ioscope %s: %s (nothing changed)\n", cmd, err.msg);
		status = 2;
	} else {
		status = run_plan(p, a->yes, a->events);
	}
	free(p);
	return status;
}

static int plan_set(struct control_plan *p, const void *ctx, struct error *err)
{
	const struct cli_args *a = ctx;
	return control_plan_device(p, a->root, a->pos[0], a->pos + 1, a->npos - 1, err);
}

int cmd_set(int argc, char **argv)
{
	struct cli_args a;
	int status = take_args("set", argc, argv, true, 2, &a);
	return status >= 0 ? status : plan_and_run("set", &a, plan_set, &a);
}

struct remount_request {
	const char *mountpoint;
	char options[MOUNT_OPTS_MAX];
};

static int plan_remount(struct control_plan *p, const void *ctx, struct error *err)
{
	const struct remount_request *r = ctx;
	return control_plan_remount(p, r->mountpoint, r->options, err);
}

int cmd_remount(int argc, char **argv)
{
	struct cli_args a;
	int status = take_args("remount", argc, argv, false, 2, &a);
	if (status >= 0)
		return status;
	struct remount_request r = { .mountpoint = a.pos[0], .options = "" };
	for (size_t i = 1; i < a.npos; i++) {
		size_t used = strlen(r.options);
		if (used + strlen(a.pos[i]) + 2 > sizeof r.options)
			return fprintf(stderr, "ioscope remount: options too long\n"), 2;
		snprintf(r.options + used, sizeof r.options - used, "%s%s", used ? "," : "", a.pos[i]);
	}
	return plan_and_run("remount", &a, plan_remount, &r);
}

int cmd_show(int argc, char **argv)
{
	struct cli_args a;
	int status = take_args("show", argc, argv, true, 1, &a);
	if (status >= 0)
		return status;
	if (a.npos != 1)
		return usage(stderr, "show"), 2;
	return control_cli_show(stdout, a.root, a.pos[0]);
}
