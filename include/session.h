/* session.h - the one per-sample pipeline: source -> snapshot -> events (diff,
 * those the source hands back, ioscope's own, echoes dropped) -> rates -> history
 * -> sinks (sink.h: the recorder, batch mode's output and exporter).  The console, batch
 * mode, --replay and reports all step a session; nothing else calls events_diff() or
 * rates_compute().
 *
 * A session owns the previous and current snapshot, the events of the latest step,
 * the rates between the two snapshots, the history (when asked for) and the
 * selection (the devices named).  It does not own the source or the sinks.
 */
#ifndef IOSCOPE_SESSION_H
#define IOSCOPE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "events.h"
#include "history.h"
#include "rates.h"
#include "selection.h"
#include "sink.h"
#include "snapshot.h"
#include "source.h"

struct session_opts {
	size_t history_capacity;   /* samples the history keeps; 0: no history */
};

struct session;

/* NULL with err set on ENOMEM.  Nothing is read yet. */
struct session *session_open(struct source *src, const struct session_opts *o, struct error *err);
void session_close(struct session *s);

/* Read one sample through everything.  The first is only a baseline (no rates, no
 * diff).  1: a sample; 0: the source has no more; -1: fatal, err set.  A failed
 * sink write is not fatal, nor said here (docs/design.md, "A sink failed"): see
 * session_sink_error and the sink's failure(). */
int session_step(struct session *s, struct error *err);

struct source *session_source(const struct session *s);
const struct snapshot *session_snapshot(const struct session *s);   /* the latest */
const struct snapshot *session_previous(const struct session *s);
bool session_have_snapshot(const struct session *s);
/* Rates of the latest interval; NULL before the second sample. */
const struct rates *session_rates(const struct session *s);
/* The why figures of the latest interval (why.h); NULL before the second sample. */
struct why_rates;
const struct why_rates *session_why(const struct session *s);
/* Every event of the latest step, echoes of ioscope's changes dropped. */
const struct event_list *session_events(const struct session *s);
struct history *session_history(const struct session *s);   /* NULL: none kept */
/* The eBPF view's latency histograms, numbered as the history (trace_history.h);
 * NULL when no history is kept. */
struct trace_history;
const struct trace_history *session_trace_history(const struct session *s);
bool session_ended(const struct session *s);

/* The devices the views show (none: all) and whether an event concerns them. */
void session_set_selection(struct session *s, const struct selection *sel);
/* The selection from DEVICE arguments (names, /dev paths, paths on a filesystem)
 * resolved against the latest snapshot; with none, the one the source was recorded
 * for (all for a live source or an older log).  -1: an unknown device (err). */
int session_select(struct session *s, char *const *args, int nargs, struct error *err);
const struct selection *session_selection(const struct session *s);
/* The device a view follows besides the selection (the console's selected row): a live
 * source reads all of its settings every sample, as the selection's. */
void session_follow(struct session *s, const char *disk);
bool session_event_selected(const struct session *s, const struct event *ev);

/* An event no diff finds (a user mark, a change ioscope made): into the echo
 * filter, the history and every sink.  -1: the history or a sink failed (err: the
 * first failure); the event is kept anyway and the other sinks have it. */
int session_add_own_event(struct session *s, const struct event *ev, struct error *err);

/* An event of ioscope's that another process made and announced (`ioscope set` from a
 * shell): it comes with the next step's events, so the echo filter drops the diff's
 * copy and the recording and the views have it once.  -1 on ENOMEM. */
int session_queue_event(struct session *s, const struct event *ev);

/* A change ioscope is about to make (this process or another, announced pending: an
 * `ioscope set` from a shell): until its own events come, what the steps observe of its
 * object is held, so that the change is logged once, by ioscope (expect.h).  The
 * recording gets it (an `announced` record, withdrawn ones too), the dip detector counts
 * the change from here.  -1 on ENOMEM or when a sink's write of it failed (err: the
 * first failure; the other sinks have it). */
int session_expect_event(struct session *s, const struct event *ev, struct error *err);
/* Announcements heard on l (announce.h; the caller's to close, NULL: none).  Every step
 * takes what waits there between reading its sample and deriving its events: a change
 * announced while the sample was read may be in it already (the announcement comes just
 * before the write), and the sample must know it as pending, or as made, not log it as
 * observed.  Changes about to be made are expected (session_expect_event), withdrawn ones
 * withdrawn, and the changes made are ioscope's own: with the next step's events
 * (session_queue_event) or, add_now, at once (session_add_own_event: the sinks and the
 * history have them now, a console's marks with them). */
struct announce_listener;
void session_listen(struct session *s, struct announce_listener *l, bool add_now);
/* Take what waits on the listener now (its descriptor polled readable).  -1: out of
 * memory (such a change may be logged as observed) or a sink failed (err).  A replay's
 * announcements, as its log recorded them, each step takes with their sample. */
int session_take_announced(struct session *s, struct error *err);
/* The change ev announced (session_expect_event) will not be made: its job failed to
 * start or ended without its event.  Nothing more is held for it (expect_withdraw).
 * -1 when a sink's write of it failed (err). */
int session_withdraw_expected(struct session *s, const struct event *ev, struct error *err);
/* This process's changes about to be made: expected here (session_expect_event) and
 * announced as pending, in codec's form, to the instances watching (announce_pending),
 * every one of them whatever failed.  -1: one could not be expected (out of memory: such
 * a change may be marked twice) or a sink's write failed (kept for session_sink_error, and
 * said by the sink's failure()). */
struct announce_codec;
int session_announce_pending(struct session *s, const struct announce_codec *codec,
			     const struct event *events, size_t n);
/* Those of them that will not be made: withdrawn here and in the instances watching.
 * -1 when a sink's write failed (as above). */
int session_announce_withdrawn(struct session *s, const struct announce_codec *codec,
			       const struct event *events, size_t n);

/* Outputs (sink.h): the recording (a recorder's is recorder_sink), batch's --format
 * output, the exporter.  A sink added gets the selection and the latest sample at once (an
 * output starts with the sample on screen, not a tick later), then every step's sample
 * and every event of ioscope's own, each sink in the order added.  A sink whose write
 * fails says so by its failure(); the others get everything all the same (docs/design.md,
 * "A sink failed").  Sinks stay the caller's to close.  -1: out of memory (not added), or
 * the first write failed (err; added all the same). */
int session_add_sink(struct session *s, struct sink *sink, struct error *err);
/* Nothing more goes to sink (not closed); one not added (NULL too): nothing happens. */
void session_remove_sink(struct session *s, struct sink *sink);
/* A sink paused gets nothing until resumed (the console's record key pausing the
 * recording: the gap replays as one long interval).  One not added: nothing happens. */
void session_pause_sink(struct session *s, struct sink *sink, bool paused);
bool session_sink_paused(const struct session *s, const struct sink *sink);
/* Added and not paused: it gets the samples now. */
bool session_sink_writing(const struct session *s, const struct sink *sink);
/* The sink's first failure to write since asked (true, err set), then forgotten: a
 * sample, an event of ioscope's own or an announcement, whichever call or step wrote it
 * (its first write, session_add_sink's, is that call's alone).  Batch and the matrix end
 * on the recording's, the console says it.  A sink removed is asked no more. */
bool session_sink_error(struct session *s, const struct sink *sink, struct error *err);
/* The latest step as the sinks get it, for a view that shows the same. */
void session_sample(const struct session *s, struct sink_sample *out);

/* The interval changed: the history keeps as many samples (history_resize).  -1 on
 * ENOMEM (err), the history as it was. */
int session_set_history_capacity(struct session *s, size_t capacity, struct error *err);

/* Recordings only (source_can_seek): show sample target (0-based) as if played up
 * to it, with the `window` samples before it read again for the history (numbered
 * as the log's samples) and the log's marks before them.  Past the end: the last
 * sample.  -1: not supported or fatal (err). */
int session_seek(struct session *s, size_t target, size_t window, struct error *err);
/* The sample last read, 0-based (0 before any). */
size_t session_sample_index(const struct session *s);
/* A recording's events that concern the selection: the first logged at a sample
 * >= from (SIZE_MAX: none), the last logged at a sample < before (SIZE_MAX: none).
 * The result indexes source logged_event(). */
size_t session_mark_after(struct session *s, size_t from);
size_t session_mark_before(struct session *s, size_t before);
/* Of the marks of the selection, how many come before logged event i, and how many
 * there are: "mark 2/5". */
void session_mark_rank(struct session *s, size_t i, size_t *rank, size_t *total);

#endif
