/* mark.c - `ioscope mark TEXT...`: a note from another shell, marked by every running
 * console and batch of this user (docs/runtime.md).
 *
 * The mark is an announcement like those of `ioscope set`: one event datagram to each
 * instance's socket in the runtime directory, whose listener takes it from the same
 * user (or root) only.  With --device the mark is that device's (event.scope): a session
 * that shows other devices leaves it out, as it leaves out their changes.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "announce.h"
#include "commands.h"
#include "control.h"
#include "session_log.h"
#include "text.h"

#define MARK_PIDS_SAID 16

static int usage(FILE *out, int status)
{
	fputs("usage: ioscope mark [--device DEVICE] TEXT...\n"
	      "Add a mark with TEXT to every running ioscope (console or batch) of this user.\n"
	      "  --device DEVICE  the mark is DEVICE's (a kernel name or /dev path): only the\n"
	      "                   sessions that show DEVICE (or show every device) mark it\n"
	      "Exit status 1 when none is running.\n", out);
	return status;
}

static void join(int argc, char **argv, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < argc && used + 1 < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* --device DEVICE (or --device=DEVICE) at argv[*at]: its kernel name into device, *at
 * past it.  0 when there is none, 1 when taken, -1 when it is wrong (said). */
static int device_option(int argc, char **argv, int *at, char *device, size_t len)
{
	const char *arg = argv[*at], *value = NULL;
	if (strcmp(arg, "--device") == 0) {
		if (*at + 1 >= argc) {
			fprintf(stderr, "ioscope mark: --device needs a DEVICE\n");
			return -1;
		}
		value = argv[++*at];
	} else if (strncmp(arg, "--device=", 9) == 0) {
		value = arg + 9;
	} else {
		return 0;
	}
	++*at;
	bool part;
	struct error err;
	if (control_block_resolve(NULL, value, device, len, &part, &err) < 0) {
		text_printf(stderr, "ioscope mark: %s\n", err.msg);
		return -1;
	}
	return 1;
}

int cmd_mark(int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
		return usage(stdout, 0);
	char device[DEV_NAME_MAX] = "";
	int first = 1;
	int r = first < argc ? device_option(argc, argv, &first, device, sizeof device) : 0;
	if (r < 0)
		return 2;
	if (first < argc && strcmp(argv[first], "--") == 0)
		first++;
	if (first >= argc)
		return usage(stderr, 2);
	struct event ev;
	event_own(&ev, EVENT_USER_MARK, "user", "mark");
	char text[EVENT_VALUE_MAX];
	join(argc - first, argv + first, text, sizeof text);
	if (event_set_new_value(&ev, "%s", text) < 0 || event_set_scope(&ev, "%s", device) < 0) {
		fprintf(stderr, "ioscope mark: out of memory\n");
		event_free(&ev);
		return 1;
	}
	if (!ev.new_value[0]) {
		fprintf(stderr, "ioscope mark: give the TEXT of the mark\n");
		event_free(&ev);
		return 2;
	}
	pid_t pids[MARK_PIDS_SAID];
	int reached = announce_events_to(&session_log_announce_codec, &ev, 1, pids, MARK_PIDS_SAID);
	event_free(&ev);
	if (reached == 0) {
		fprintf(stderr, "ioscope mark: no running ioscope of this user (uid %u) to mark\n",
			(unsigned)geteuid());
		return 1;
	}
	/* which: "marked in 2 running ioscopes (pids 4120, 4388)" */
	printf("marked in %d running ioscope%s (pid%s", reached, reached == 1 ? "" : "s",
	       reached == 1 ? "" : "s");
	for (int i = 0; i < reached && i < MARK_PIDS_SAID; i++)
		printf("%s %d", i ? "," : "", (int)pids[i]);
	printf("%s)\n", reached > MARK_PIDS_SAID ? ", ..." : "");
	return 0;
}
