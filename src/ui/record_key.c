/* record_key.c - the console's record key.  With --record, the key pauses and
 * resumes that recording (the gap replays as one long interval, as a skipped sample
 * does); without, it asks for a file name and starts a recording of its own, which
 * the key (or quitting) stops.  A replay is not recorded again. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "console.h"
#include "replay.h"
#include "replay_view.h"

const char *record_key_path(const struct console *c)
{
	if (c->recording.own)
		return c->recording.path;
	return c->opts->record_path ? c->opts->record_path : "";
}

bool record_key_paused(const struct console *c)
{
	return c->recording.held != NULL;
}

void record_key_close(struct console *c)
{
	if (!c->recording.own)
		return;
	if (c->rec == c->recording.own)
		c->rec = NULL;
	recorder_close(c->recording.own);
	c->recording.own = NULL;
}

static void start_done(struct console *c, const char *path, void *arg)
{
	(void)arg;
	struct error err;
	if (!path[0])
		return;
	/* O_EXCL and O_NOFOLLOW in recorder_open: a typo never truncates someone's file,
	 * a planted symlink is not followed (a stat() here could be raced) */
	struct recorder *rec = recorder_open(path, RECORDER_NEW, c->opts->record_sync, &err);
	if (!rec) {
		console_message(c, true, "recording: %s", err.msg);
		return;
	}
	c->recording.own = rec;
	snprintf(c->recording.path, sizeof c->recording.path, "%s", path);
	c->rec = rec;
	/* the sample on screen opens the log: the recording starts now, not a tick later */
	if (c->have_snap && recorder_write(rec, &c->snap, &c->events, &err) < 0) {
		console_message(c, true, "recording: %s", err.msg);
		return;
	}
	console_message(c, false, "recording to %s (R stops)", path);
}

void action_record(struct console *c)
{
	if (source_replay_get(c->src)) {
		console_message(c, true, "R: a replay is not recorded again");
		return;
	}
	if (c->recording.held) {
		c->rec = c->recording.held;
		c->recording.held = NULL;
		console_message(c, false, "recording to %s resumed", record_key_path(c));
		return;
	}
	if (c->recording.own) {
		console_message(c, false, "recording to %s stopped", c->recording.path);
		record_key_close(c);
		return;
	}
	if (c->rec) {
		c->recording.held = c->rec;
		c->rec = NULL;
		console_message(c, false, "recording to %s paused (R resumes)", record_key_path(c));
		return;
	}
	char name[64];
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	record_default_name(&now, name, sizeof name);
	console_prompt(c, "record to: ", name, start_done, NULL);
}
