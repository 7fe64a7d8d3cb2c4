/* replay.h - random access to a recorded session log (docs/session-log.md).
 *
 * replay_open() scans the file once and builds an index (one entry per sample,
 * no JSON parsing of samples), so a day of 1 s samples opens in well under a
 * second; replay_read() then parses just the sample asked for.  The log's
 * machine description and every event (with the sample it belongs to) are kept
 * in memory.  Bad lines never stop a replay: they are skipped and described in
 * the warnings list (path, line number, byte offset).
 *
 * As a source (source_replay_new), seeking and the position are source operations
 * (source.h): nothing outside src/record needs the replay behind a source.
 */
#ifndef IOSCOPE_REPLAY_H
#define IOSCOPE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "error.h"
#include "events.h"
#include "snapshot.h"
#include "source.h"

#define SESSION_LOG_FORMAT "ioscope-session-log"
#define SESSION_LOG_VERSION 1

/* What the header record says about the machine that was recorded. */
struct replay_machine {
	int version;              /* format version of the file */
	char ioscope[32];         /* version of the ioscope that wrote it */
	char host[256];
	char kernel[256];         /* uname release */
	char kernel_version[256]; /* uname version (build string) */
	char arch[64];
	char cpu_model[256];
	long cpus;                /* online CPUs, 0 unknown */
	uint64_t mem_total_kb;    /* 0 unknown */
	double interval;          /* nominal seconds between samples, 0 unknown */
	struct timespec started;  /* wall time the recording started */
	/* "selection": the devices named when recording (none: all); older logs have
	 * none, which means all */
	bool has_selection;
	char selection[SOURCE_SELECTION_MAX][DEV_NAME_MAX];
	size_t nselection;
};

struct replay;

/* What a log of a later revision held that this version skips, silently
 * (docs/session-log.md, "How new data goes in"); --verbose says it. */
#define REPLAY_SKIP_NAMES 8
struct replay_skip_count {
	size_t total;
	char names[REPLAY_SKIP_NAMES][32];   /* the first distinct type or kind names */
	size_t nnames;
};
struct replay_skipped {
	struct replay_skip_count record_types, event_kinds;
};
const struct replay_skipped *replay_skipped(const struct replay *r);
/* "ioscope: FILE: skipped N records of types this version does not know (sketch, hist)" */
void replay_print_skipped(const struct replay *r, const char *path, FILE *out);

/* Opens and indexes path.  NULL with err set when the file is not a session log,
 * has a newer format version, or cannot be read; damaged records further on only
 * add warnings. */
struct replay *replay_open(const char *path, struct error *err);
/* The same from an open descriptor (not closed by replay_close unless owned);
 * name is used in messages.  Used by the fuzzer on a memfd. */
struct replay *replay_open_fd(int fd, const char *name, bool owned, struct error *err);
void replay_close(struct replay *r);

const struct replay_machine *replay_machine(const struct replay *r);
/* The header's device list and mounts (the state when recording started). */
const struct snapshot *replay_header_state(const struct replay *r);

size_t replay_count(const struct replay *r);             /* samples in the index */
struct timespec replay_sample_mono(const struct replay *r, size_t i);
struct timespec replay_sample_wall(const struct replay *r, size_t i);
/* First sample whose time is at or after t; replay_count() when none. */
size_t replay_find_mono(const struct replay *r, const struct timespec *t);
size_t replay_find_wall(const struct replay *r, const struct timespec *t);

/* Sample i into *out (old contents replaced), bit-exact as it was recorded.
 * 0 on success, -1 with err set (i out of range, or the record is damaged: a
 * warning is added too). */
int replay_read(struct replay *r, size_t i, struct snapshot *out, struct error *err);

/* Sequential position used by the source interface: the next source_read()
 * yields sample replay_tell(), then the position advances.  Seeking to
 * replay_count() means "at the end". */
size_t replay_tell(const struct replay *r);
int replay_seek(struct replay *r, size_t i);

/* The events of the log, in file order (samples ascending), kept compact (a few dozen
 * bytes each) and decoded one at a time: replay_event_get() fills *out with a view
 * (its texts are the replay's: nothing to free, event_copy() to keep), -1 when i is
 * out of range; replay_event_sample() is the sample of event i (SIZE_MAX: none). */
size_t replay_event_count(const struct replay *r);
size_t replay_event_sample(const struct replay *r, size_t i);
int replay_event_get(const struct replay *r, size_t i, struct replay_event *out);
/* Index (replay_event_get()) of the first event belonging to sample >= i
 * (n when none) / of the last event belonging to sample < i (SIZE_MAX when
 * none): "next mark" and "previous mark" for the console. */
size_t replay_event_after(const struct replay *r, size_t sample);
size_t replay_event_before(const struct replay *r, size_t sample);
/* The changes announced as about to be made (pending) and withdrawn before samples from..to
 * (each just before its sample: what that sample's observations were held for), in the
 * order recorded, appended.  -1 on ENOMEM or a record that cannot be read back (err). */
int replay_announced(struct replay *r, size_t from, size_t to, struct event_list *pending,
		     struct event_list *withdrawn, struct error *err);

/* Damage found so far (open and reads): "PATH: line N (offset X): what".
 * At most REPLAY_WARNINGS_MAX are kept; replay_warnings_total() counts all. */
#define REPLAY_WARNINGS_MAX 32
size_t replay_warning_count(const struct replay *r);
const char *replay_warning(const struct replay *r, size_t i);
size_t replay_warnings_total(const struct replay *r);

/* A source reading r, which stays the caller's (reports step a session on it).
 * Damaged samples met while reading are warned about on stderr. */
struct source *source_replay_borrow(struct replay *r, struct error *err);

#endif
