/* recorder.c - session log writer (stub until the record module lands). */
#include <stddef.h>

#include "recorder.h"

struct recorder *recorder_open(const char *path, bool sync, struct error *err)
{
	(void)sync;
	error_set(err, "%s: recording is not implemented yet", path);
	return NULL;
}
int recorder_write(struct recorder *rec, const struct snapshot *snap, const struct event_list *events, struct error *err)
{
	(void)rec; (void)snap; (void)events; (void)err;
	return 0;
}
int recorder_write_event(struct recorder *rec, const struct event *ev, struct error *err)
{
	(void)rec; (void)ev; (void)err;
	return 0;
}
void recorder_close(struct recorder *rec) { (void)rec; }

struct source *source_replay_new(const char *path, struct error *err)
{
	error_set(err, "%s: replay is not implemented yet", path);
	return NULL;
}
