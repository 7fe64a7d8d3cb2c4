/* record_key.c - the console's record key.  With --record, the key pauses and
 * resumes that recording (the gap replays as one long interval, as a skipped sample
 * does); without, it asks for a file name and starts a recording of its own, which
 * the key (or quitting) stops.  A replay is not recorded again. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "console_state.h"
#include "replay_view.h"

const char *record_key_path(const struct console *c)
{
	if (c->recording.own)
		return c->recording.path;
	return c->opts->record_path ? c->opts->record_path : "";
}

struct sink *record_key_sink(const struct console *c)
{
	return recorder_sink(c->recording.own ? c->recording.own : c->rec);
}

bool record_key_paused(const struct console *c)
{
	return session_sink_paused(c->session, record_key_sink(c));
}

bool record_key_writing(const struct console *c)
{
	return session_sink_writing(c->session, record_key_sink(c));
}

void record_key_close(struct console *c)
{
	if (!c->recording.own)
		return;
	if (c->session)
		session_remove_sink(c->session, record_key_sink(c));
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
	if (session_add_sink(c->session, recorder_sink(rec), &err) < 0) {
		console_message(c, true, "recording: %s", err.msg);
		return;
	}
	console_message(c, false, "recording to %s (R stops)", path);
}

void action_record(struct console *c)
{
	if (source_can_seek(c->src)) {
		console_message(c, true, "R: a replay is not recorded again");
		return;
	}
	if (record_key_paused(c)) {
		session_pause_sink(c->session, record_key_sink(c), false);
		console_message(c, false, "recording to %s resumed", record_key_path(c));
		return;
	}
	if (c->recording.own) {
		console_message(c, false, "recording to %s stopped", c->recording.path);
		record_key_close(c);
		return;
	}
	if (record_key_writing(c)) {
		session_pause_sink(c->session, record_key_sink(c), true);
		console_message(c, false, "recording to %s paused (R resumes)", record_key_path(c));
		return;
	}
	char name[64];
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	record_default_name(&now, name, sizeof name);
	console_prompt_suggest(c, "record to: ", name, start_done, NULL);
}
