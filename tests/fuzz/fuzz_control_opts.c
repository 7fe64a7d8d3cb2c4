/* fuzz_control_opts.c - the remount option parser, its verdicts and completion, and
 * the `set` argument checks on arbitrary bytes.  The input is split at the first
 * NUL: options text, then a "current" super option string. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_opts(const char *text, const char *super)
{
	struct control_mount_opt opts[CONTROL_MAX_ITEMS];
	size_t n = 0;
	struct error err = { "" };
	if (control_mount_opts_parse(opts, CONTROL_MAX_ITEMS, &n, text, super, &err) < 0)
		return;
	if (n == 0 || n > CONTROL_MAX_ITEMS)
		__builtin_trap();
	struct control_mount before, after;
	memset(&before, 0, sizeof before);
	memset(&after, 0, sizeof after);
	snprintf(before.super_opts, sizeof before.super_opts, "%s", super);
	snprintf(after.super_opts, sizeof after.super_opts, "%s", text);
	snprintf(before.mount_opts, sizeof before.mount_opts, "rw,nosuid");
	snprintf(after.mount_opts, sizeof after.mount_opts, "%s", super);
	for (size_t i = 0; i < n; i++) {
		/* a key never carries a separator or a path; scopes are exclusive */
		if (strchr(opts[i].key, ',') || strchr(opts[i].key, '/') || strchr(opts[i].key, '='))
			__builtin_trap();
		if (opts[i].scope == CONTROL_OPT_SUPER && (opts[i].attr_set | opts[i].attr_clr))
			__builtin_trap();
		control_verdict_text(control_mount_opt_verdict(&opts[i], "xfs", &before, &after));
	}
}

static void check_set(const char *arg)
{
	char key[SETTING_KEY_MAX], value[SETTING_VAL_MAX], out[SETTING_VAL_MAX];
	struct error err = { "" };
	if (control_assignment_split(arg, key, sizeof key, value, sizeof value, &err) < 0)
		return;
	struct control_limits lim;
	memset(&lim, 0, sizeof lim);
	int cur;
	lim.nschedulers = control_scheduler_names("none [mq-deadline] kyber bfq", lim.schedulers,
						  CONTROL_SCHED_MAX, &cur);
	snprintf(lim.scheduler, sizeof lim.scheduler, "mq-deadline");
	snprintf(lim.target_scheduler, sizeof lim.target_scheduler, "mq-deadline");
	lim.queue_depth = 128;
	lim.max_hw_sectors_kb = 1280;
	lim.page_kb = 4;
	if (control_value_check(&lim, key, value, out, sizeof out, &err) == 0 &&
	    (strchr(out, '\n') || strchr(out, '/')))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 2);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	const char *text = buf, *super = buf + strlen(buf) + 1;
	if (super > buf + size)
		super = "";
	check_opts(text, super);
	check_set(text);
	char names[CONTROL_SCHED_MAX][CONTROL_SCHED_NAME];
	int cur;
	control_scheduler_names(text, names, CONTROL_SCHED_MAX, &cur);
	char completion[256], cand[256];
	snprintf(completion, sizeof completion, "%s", text);
	control_mount_opts_complete(completion, sizeof completion, control_mount_option_names("btrfs"),
				    cand, sizeof cand);
	struct control_mount m;
	control_mountinfo_parse_line(text, &m);
	free(buf);
	return 0;
}
