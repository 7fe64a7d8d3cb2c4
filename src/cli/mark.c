/* mark.c - `ioscope mark TEXT...`: a note from another shell, marked by every running
 * console and batch of this user (docs/runtime.md).
 *
 * The mark is an announcement like those of `ioscope set`: one event datagram to each
 * instance's socket in the runtime directory, whose listener takes it from the same
 * user (or root) only.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "announce.h"
#include "commands.h"
#include "session_log.h"

static int usage(FILE *out, int status)
{
	fputs("usage: ioscope mark TEXT...\n"
	      "Add a mark with TEXT to every running ioscope (console or batch) of this user.\n"
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

int cmd_mark(int argc, char **argv)
{
	int first = argc > 1 && strcmp(argv[1], "--") == 0 ? 2 : 1;
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
		return usage(stdout, 0);
	if (first >= argc)
		return usage(stderr, 2);
	struct event ev;
	event_own(&ev, EVENT_USER_MARK, "user", "mark");
	char text[EVENT_VALUE_MAX];
	join(argc - first, argv + first, text, sizeof text);
	event_set_new_value(&ev, "%s", text);
	if (!ev.new_value[0]) {
		fprintf(stderr, "ioscope mark: give the TEXT of the mark\n");
		event_free(&ev);
		return 2;
	}
	int reached = announce_events(&session_log_announce_codec, &ev, 1);
	event_free(&ev);
	if (reached == 0) {
		fprintf(stderr, "ioscope mark: no running ioscope of this user (uid %u) to mark\n",
			(unsigned)geteuid());
		return 1;
	}
	printf("marked in %d running ioscope%s\n", reached, reached == 1 ? "" : "s");
	return 0;
}
