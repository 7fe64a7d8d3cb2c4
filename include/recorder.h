/* recorder.h - writes a session log (docs/session-log.md) as samples arrive. */
#ifndef IOSCOPE_RECORDER_H
#define IOSCOPE_RECORDER_H

#include <stdbool.h>

#include "error.h"
#include "events.h"
#include "selection.h"
#include "snapshot.h"

struct recorder;

/* Creates (truncates) path.  sync: fdatasync after every sample. */
struct recorder *recorder_open(const char *path, bool sync, struct error *err);
/* The first call writes the header from snap; each call then writes one sample
 * record (raw counters and settings) and one record per event, each line whole. */
int recorder_write(struct recorder *rec, const struct snapshot *snap,
		   const struct event_list *events, struct error *err);
/* The devices the recording is made for, written in the header ("selection");
 * before the first recorder_write.  Not called: all devices. */
void recorder_set_selection(struct recorder *rec, const struct selection *sel);
/* An event that arrives between samples (a user mark, a change made by ioscope). */
int recorder_write_event(struct recorder *rec, const struct event *ev, struct error *err);
void recorder_close(struct recorder *rec);

/* A source that reads a session log back (src/record/replay.c). */
#include "source.h"
struct source *source_replay_new(const char *path, struct error *err);

#endif
