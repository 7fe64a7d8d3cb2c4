/* recorder.h - writes a session log (docs/session-log.md) as samples arrive. */
#ifndef IOSCOPE_RECORDER_H
#define IOSCOPE_RECORDER_H

#include <stdbool.h>

#include "error.h"
#include "events.h"
#include "selection.h"
#include "snapshot.h"

struct recorder;
struct sink;   /* sink.h */

enum recorder_mode {
	RECORDER_NEW,      /* --record: an existing file is refused, never truncated */
	RECORDER_APPEND,   /* --record-append: a new session (header) after what is there */
};

/* Opens the log (docs/session-log.md, "Where a recording goes"): a new regular file
 * (O_EXCL, never through a symlink), an existing one only to append, a FIFO or a pipe
 * ("-" is standard output) to stream, in path's directory opened once: no symlink but
 * root's or the user's own is followed on the way to it.  Regular files are locked (flock) so a second
 * recorder is refused.  A file created here and never written is removed again by
 * recorder_close.  sync: fdatasync after every sample. */
struct recorder *recorder_open(const char *path, enum recorder_mode mode, bool sync,
			       struct error *err);
/* The same for the file name (no "/") in a directory the caller opened once (the
 * matrix's --out directory; the recorder keeps a copy of the descriptor); path: how the
 * file is named in messages. */
struct recorder *recorder_open_in(int dirfd, const char *name, const char *path,
				  enum recorder_mode mode, bool sync, struct error *err);
/* The first call writes the header from snap; each call then writes one sample
 * record (raw counters and settings) and one record per event, each line whole. */
int recorder_write(struct recorder *rec, const struct snapshot *snap,
		   const struct event_list *events, struct error *err);
/* The devices the recording is made for, written in the header ("selection");
 * before the first recorder_write.  Not called: all devices. */
void recorder_set_selection(struct recorder *rec, const struct selection *sel);
/* An event that arrives between samples (a user mark, a change made by ioscope). */
int recorder_write_event(struct recorder *rec, const struct event *ev, struct error *err);
/* A change announced as about to be made, or withdrawn: an "announced" record, which a
 * replay takes with the sample after it (none before the first sample). */
int recorder_write_announced(struct recorder *rec, const struct event *ev, bool withdrawn,
			     struct error *err);
/* Why the last write failed (disk full...), NULL while writes succeed.  Events that
 * could not be written are kept and written, with their own time, once one succeeds. */
const char *recorder_failure(const struct recorder *rec);
/* The session recorded did not happen (`ioscope run`: the command could not start): a
 * file recorder_open made is removed at close although it holds the header and baseline,
 * so that the same command line, retried, is not refused for the file it left. */
void recorder_discard(struct recorder *rec);
const char *recorder_path(const struct recorder *rec);
void recorder_close(struct recorder *rec);
/* The recorder as a session's output (sink.h): its close is recorder_close.  NULL: NULL. */
struct sink *recorder_sink(struct recorder *rec);

/* A source that reads a session log back (src/record/replay.c). */
#include "source.h"
struct source *source_replay_new(const char *path, struct error *err);
/* The same; verbose: also say on stderr what the log held that this version skips. */
struct source *source_replay_new_verbose(const char *path, bool verbose, struct error *err);

#endif
