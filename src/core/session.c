/* session.c - one sample through everything, for every view (session.h).
 *
 * Per step: read into the older snapshot and swap; the diff of the two; the
 * events the source hands back (a replay's marks and ioscope's changes); drop the
 * echoes of ioscope's own changes; rates; history; every sink (the recorder, an exporter).
 * This is the only place that derives events and rates from samples.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "announce.h"
#include "devsel.h"
#include "dip.h"
#include "expect.h"
#include "grow.h"
#include "session.h"
#include "trace_history.h"
#include "why.h"

/* A sink added (sink.h) and what the session keeps of it. */
struct session_sink {
	struct sink *sink;
	bool paused;                /* it gets nothing meanwhile (session_pause_sink) */
	bool failed;                /* a write failed since session_sink_error last said so */
	struct error first_failure; /* the first of them */
};

struct session {
	struct source *src;
	struct snapshot prev, cur;
	bool have_cur, have_rates, ended;
	struct rates rates;
	struct why_rates *why;      /* of the same interval (why.h) */
	struct dip_detector *dips;  /* live samples only: a recording has its dips logged */
	struct event_list events;
	struct event_list queued;    /* announced by another ioscope, for the next step */
	struct echo_filter echoes;
	struct expect expected;      /* changes announced as about to be made (expect.h) */
	struct announce_listener *heard;   /* session_listen */
	bool heard_add_now;
	struct history *hist;
	struct trace_history *trace_hist;   /* with the history: the heat map's histograms */
	size_t hist_capacity;
	struct selection sel;
	struct session_sink *sinks; /* the outputs, in the order added */
	size_t nsinks, sinks_cap;
	bool sinks_muted;           /* a seek reads again what they had once */
	size_t index;               /* the sample last read, recordings only */
	uint64_t numbered;          /* the events numbered so far (struct event's number) */
};

struct session *session_open(struct source *src, const struct session_opts *o, struct error *err)
{
	struct session *s = calloc(1, sizeof *s);
	if (!s) {
		error_set(err, "out of memory");
		return NULL;
	}
	s->src = src;
	snapshot_init(&s->prev);
	snapshot_init(&s->cur);
	rates_init(&s->rates);
	event_list_init(&s->events);
	event_list_init(&s->queued);
	echo_filter_init(&s->echoes);
	expect_init(&s->expected);
	s->hist_capacity = o ? o->history_capacity : 0;
	s->why = calloc(1, sizeof *s->why);
	s->dips = dip_detector_new();
	if (s->hist_capacity)
		s->trace_hist = trace_history_new(s->hist_capacity);
	if (!s->why || !s->dips || (s->hist_capacity && !(s->hist = history_new(s->hist_capacity))) ||
	    (s->hist_capacity && !s->trace_hist)) {
		session_close(s);
		error_set(err, "out of memory");
		return NULL;
	}
	return s;
}

void session_close(struct session *s)
{
	if (!s)
		return;
	history_free(s->hist);
	trace_history_free(s->trace_hist);
	snapshot_free(&s->prev);
	snapshot_free(&s->cur);
	rates_free(&s->rates);
	free(s->why);
	dip_detector_free(s->dips);
	event_list_free(&s->events);
	event_list_free(&s->queued);
	echo_filter_free(&s->echoes);
	expect_free(&s->expected);
	free(s->sinks);
	free(s);
}

/* Sink k's write failed (docs/design.md, "A sink failed"): never fatal, and the other
 * sinks get their turn all the same.  Its first failure since asked is kept for
 * session_sink_error whatever the write was; the first failure of a call the caller
 * made goes into *err (NULL: a step's, which no caller waits on) and *rc is -1. */
static void sink_write_failed(struct session_sink *k, const struct error *e, struct error *err,
			      int *rc)
{
	if (!k->failed)
		k->first_failure = *e;
	k->failed = true;
	if (err && *rc == 0)
		*err = *e;
	*rc = -1;
}

/* Events and rates of prev -> cur, into the history.  -1 on ENOMEM. */
static int take_queued(struct session *s)
{
	for (size_t i = 0; i < s->queued.count; i++) {
		struct event *e = event_list_add(&s->events);
		if (!e)
			return -1;
		*e = s->queued.items[i];   /* moved */
		event_init(&s->queued.items[i]);
	}
	event_list_clear(&s->queued);
	return 0;
}

/* The sample's changes and marks, for the dip detector: a dip that follows one names it. */
static void note_causes(struct session *s)
{
	for (size_t i = 0; !source_can_seek(s->src) && i < s->events.count; i++)
		dip_detector_note(s->dips, &s->cur, &s->events.items[i]);
}

/* A recording hands back the dips it logged (source take_events): never a second. */
static int detect_dips(struct session *s)
{
	if (source_can_seek(s->src))
		return 0;
	struct dip_input in = { &s->cur, &s->rates, s->why, &s->sel };
	return dip_detector_step(s->dips, &in, &s->events) < 0 ? -1 : 0;
}

/* Paused (the recording, by the console's record key) and muted (a seek) sinks get
 * nothing. */
static bool sink_active(const struct session *s, const struct session_sink *k)
{
	return !s->sinks_muted && !k->paused;
}

/* The step's events numbered, in the order the sinks (the recording) get them: the
 * session's count, so that a mark's number is the same whatever a view shows of it.  A
 * recording numbers them as its log does: from the number its first event of the sample
 * has (the session that wrote it may have counted events before the recording began, or
 * while it was paused), an event it hands back keeping its own. */
static void number_events(struct session *s)
{
	bool logged = source_can_seek(s->src);
	uint64_t first;
	if (logged && s->events.count && s->src->ops->first_event_number &&
	    s->src->ops->first_event_number(s->src, &first))
		s->numbered = first - 1;
	for (size_t i = 0; i < s->events.count; i++) {
		struct event *ev = &s->events.items[i];
		if (!logged || !ev->number)
			ev->number = ++s->numbered;
		else if (ev->number > s->numbered)
			s->numbered = ev->number;
	}
}

static int derive(struct session *s, bool have_prev)
{
	event_list_clear(&s->events);
	if (have_prev && events_diff(&s->events, &s->prev, &s->cur) < 0)
		return -1;
	size_t derived = s->events.count;
	if (source_take_events(s->src, &s->events) < 0 || take_queued(s) < 0)
		return -1;
	echo_filter_sample(&s->echoes, &s->events, derived);
	if (expect_sample(&s->expected, &s->events, &s->echoes.own, &s->cur.mono) < 0)
		return -1;
	events_sort_by_time(&s->events);
	note_causes(s);
	if (have_prev) {
		if (rates_compute(&s->rates, &s->prev, &s->cur) < 0)
			return -1;
		why_rates_compute(s->why, s->prev.why, s->cur.why, s->rates.interval);
		why_rates_add_tasks(s->why, s->prev.tasks, s->cur.tasks, tasks_mono_ns(&s->cur.mono),
				    &s->cur);
		if (detect_dips(s) < 0)
			return -1;
		if (s->hist && history_append(s->hist, &s->rates) < 0)
			return -1;
		if (s->hist && history_add_signals(s->hist, &s->cur, s->why) < 0)
			return -1;
		if (s->hist && trace_history_append(s->trace_hist, history_count(s->hist) - 1,
						    s->cur.trace) < 0)
			return -1;
		s->have_rates = true;
	}
	number_events(s);
	for (size_t i = 0; s->hist && i < s->events.count; i++)
		if (history_add_event(s->hist, &s->events.items[i]) < 0)
			return -1;
	return 0;
}

static void note_index(struct session *s)
{
	struct source_position p;
	if (!source_can_seek(s->src))
		return;
	s->src->ops->position(s->src, &p);
	s->index = p.next ? p.next - 1 : 0;
}

static void take_logged_announced(struct session *s);

int session_step(struct session *s, struct error *err)
{
	int r = source_read(s->src, &s->prev, err);
	if (r <= 0) {
		s->ended = r == 0;
		return r;
	}
	snapshot_swap(&s->prev, &s->cur);
	bool have_prev = s->have_cur;
	s->have_cur = true;
	note_index(s);
	struct error ignored;
	session_take_announced(s, &ignored);   /* out of memory: such a change is "observed" */
	take_logged_announced(s);
	if (derive(s, have_prev) < 0)
		return error_set(err, "out of memory");
	struct sink_sample sample;
	session_sample(s, &sample);
	int failed = 0;   /* a step's: no caller waits on one write */
	for (size_t i = 0; i < s->nsinks; i++) {
		struct session_sink *k = &s->sinks[i];
		struct error serr;
		if (sink_active(s, k) && k->sink->ops->on_sample(k->sink, &sample, &serr) < 0)
			sink_write_failed(k, &serr, NULL, &failed);
	}
	return 1;
}

struct source *session_source(const struct session *s) { return s->src; }
const struct snapshot *session_snapshot(const struct session *s) { return &s->cur; }
const struct snapshot *session_previous(const struct session *s) { return &s->prev; }
bool session_have_snapshot(const struct session *s) { return s->have_cur; }
const struct rates *session_rates(const struct session *s) { return s->have_rates ? &s->rates : NULL; }
const struct event_list *session_events(const struct session *s) { return &s->events; }
const struct why_rates *session_why(const struct session *s) { return s->have_rates ? s->why : NULL; }
struct history *session_history(const struct session *s) { return s->hist; }
const struct trace_history *session_trace_history(const struct session *s) { return s->trace_hist; }
bool session_ended(const struct session *s) { return s->ended; }
size_t session_sample_index(const struct session *s) { return s->index; }

void session_set_selection(struct session *s, const struct selection *sel)
{
	s->sel = *sel;
	source_watch(s->src, sel);
}

int session_select(struct session *s, char *const *args, int nargs, struct error *err)
{
	struct selection sel = { .n = 0 };
	for (int i = 0; i < nargs; i++) {
		char name[DEV_NAME_MAX];
		if (devsel_resolve(&s->cur, args[i], name, sizeof name, err) < 0)
			return -1;
		if (selection_add(&sel, name) < 0)
			return error_set(err, "more than %d devices named", SOURCE_SELECTION_MAX);
	}
	struct source_info info;
	if (nargs == 0 && s->src->ops->describe) {
		s->src->ops->describe(s->src, &info);
		for (size_t i = 0; info.has_selection && i < info.nselection; i++)
			selection_add(&sel, info.selection[i]);
	}
	s->sel = sel;
	source_watch(s->src, &sel);
	return 0;
}

const struct selection *session_selection(const struct session *s)
{
	return &s->sel;
}

void session_follow(struct session *s, const char *disk)
{
	source_follow(s->src, disk);
}

bool session_event_selected(const struct session *s, const struct event *ev)
{
	return selection_covers_event(&s->sel, &s->cur, s->have_rates ? &s->prev : NULL, ev);
}

/* A setting of a disk ioscope changed: the source reads them all at the next sample. */
static void note_own_change(struct session *s, const struct event *ev)
{
	if (ev->kind == EVENT_SCHEDULER || ev->kind == EVENT_TUNABLE ||
	    ev->kind == EVENT_WRITE_CACHE)
		source_settings_changed(s->src, ev->object);
}

int session_queue_event(struct session *s, const struct event *ev)
{
	note_own_change(s, ev);
	struct event *kept = event_list_add(&s->queued);
	if (!kept)
		return -1;
	return event_copy(kept, ev);
}

void session_listen(struct session *s, struct announce_listener *l, bool add_now)
{
	s->heard = l;
	s->heard_add_now = add_now;
}

/* The changes made, as ioscope's own (session_listen). */
static int take_made(struct session *s, const struct event_list *made, struct error *err)
{
	int rc = 0;
	for (size_t i = 0; i < made->count; i++) {
		if (s->heard_add_now) {
			if (session_add_own_event(s, &made->items[i], err) < 0)
				rc = -1;
		} else if (session_queue_event(s, &made->items[i]) < 0) {
			rc = error_set(err, "out of memory: an announced change not kept");
		}
	}
	return rc;
}

/* The changes about to be made expected, the withdrawn ones withdrawn.  -1 on ENOMEM, or
 * a sink's write of them failed (err). */
static int expect_announced(struct session *s, const struct event_list *pending,
			    const struct event_list *withdrawn, struct error *err)
{
	int rc = 0;
	for (size_t i = 0; i < pending->count; i++)
		if (session_expect_event(s, &pending->items[i], err) < 0)
			rc = -1;
	for (size_t i = 0; i < withdrawn->count; i++)
		if (session_withdraw_expected(s, &withdrawn->items[i], err) < 0)
			rc = -1;
	return rc;
}

int session_take_announced(struct session *s, struct error *err)
{
	if (!s->heard)
		return 0;
	struct event_list made, pending, withdrawn;
	event_list_init(&made);
	event_list_init(&pending);
	event_list_init(&withdrawn);
	int rc = 0;
	if (announce_take_events(s->heard, &(struct announce_lists){ &made, &pending, &withdrawn }) < 0)
		rc = error_set(err, "out of memory: an announced change not kept");
	if (expect_announced(s, &pending, &withdrawn, err) < 0 || take_made(s, &made, err) < 0)
		rc = -1;
	event_list_free(&made);
	event_list_free(&pending);
	event_list_free(&withdrawn);
	return rc;
}

/* A replay's announcements before the sample just read: what the recording session held
 * that sample's observations for.  Once per sample, so never with the listener's (a
 * console takes those between samples too).  Out of memory or unreadable: such a change
 * replays as observed. */
static void take_logged_announced(struct session *s)
{
	struct event_list pending, withdrawn;
	event_list_init(&pending);
	event_list_init(&withdrawn);
	struct error err;
	source_take_announced(s->src, &pending, &withdrawn, &err);
	expect_announced(s, &pending, &withdrawn, &err);
	event_list_free(&pending);
	event_list_free(&withdrawn);
}

/* The sinks get each announcement as it comes, before the sample it holds (the recording:
 * a replay takes it with that sample, and held observations replay as they were shown).
 * -1: a sink's write failed (err). */
static int sinks_announced(struct session *s, const struct event *ev, bool withdrawn,
			   struct error *err)
{
	int rc = 0;
	for (size_t i = 0; i < s->nsinks; i++) {
		struct session_sink *k = &s->sinks[i];
		const struct sink_ops *ops = k->sink->ops;
		struct error e;
		if (sink_active(s, k) && ops->on_announced &&
		    ops->on_announced(k->sink, ev, withdrawn, &e) < 0)
			sink_write_failed(k, &e, err, &rc);
	}
	return rc;
}

int session_expect_event(struct session *s, const struct event *ev, struct error *err)
{
	int rc = sinks_announced(s, ev, false, err);
	dip_detector_note_pending(s->dips, &s->cur, ev);
	if (expect_add(&s->expected, ev) < 0)
		rc = rc < 0 ? rc : error_set(err, "out of memory: an announced change not kept");
	return rc;
}

int session_withdraw_expected(struct session *s, const struct event *ev, struct error *err)
{
	int rc = sinks_announced(s, ev, true, err);
	dip_detector_withdraw(s->dips, ev);
	expect_withdraw(&s->expected, ev);
	return rc;
}

int session_announce_pending(struct session *s, const struct announce_codec *codec,
			     const struct event *events, size_t n)
{
	int rc = 0;
	struct error err;   /* its text is session_sink_error's and the sink's failure() */
	for (size_t i = 0; i < n; i++)
		if (session_expect_event(s, &events[i], &err) < 0)
			rc = -1;
	announce_pending(codec, events, n);
	return rc;
}

int session_announce_withdrawn(struct session *s, const struct announce_codec *codec,
			       const struct event *events, size_t n)
{
	int rc = 0;
	struct error err;
	for (size_t i = 0; i < n; i++)
		if (session_withdraw_expected(s, &events[i], &err) < 0)
			rc = -1;
	announce_withdrawn(codec, events, n);
	return rc;
}

int session_add_own_event(struct session *s, const struct event *own, struct error *err)
{
	/* numbered now, as the recording gets it (the copy is a view of own's texts) */
	struct event numbered = *own;
	numbered.number = ++s->numbered;
	const struct event *ev = &numbered;
	note_own_change(s, ev);
	echo_filter_remember(&s->echoes, ev);
	dip_detector_note(s->dips, &s->cur, ev);
	int rc = 0;
	if (s->hist && history_add_event(s->hist, ev) < 0)
		rc = error_set(err, "out of memory: event not kept");
	for (size_t i = 0; i < s->nsinks; i++) {
		struct session_sink *k = &s->sinks[i];
		const struct sink_ops *ops = k->sink->ops;
		struct error e;
		if (sink_active(s, k) && ops->on_event && ops->on_event(k->sink, ev, &e) < 0)
			sink_write_failed(k, &e, err, &rc);
	}
	return rc;
}

/* ---- sinks ---- */

void session_sample(const struct session *s, struct sink_sample *out)
{
	*out = (struct sink_sample){
		.snap = &s->cur,
		.prev = s->have_rates ? &s->prev : NULL,
		.rates = session_rates(s),
		.why = session_why(s),
		.events = &s->events,
		.sel = &s->sel,
	};
}

/* The selection and the sample now (if any) to a sink just added: the sample on screen
 * opens a log, the recording starts now, not a tick later.  Its failure is this call's
 * alone. */
static int start_sink(struct session *s, struct sink *sink, struct error *err)
{
	if (sink->ops->on_start)
		sink->ops->on_start(sink, &s->sel);
	if (!s->have_cur)
		return 0;
	struct sink_sample sample;
	session_sample(s, &sample);
	return sink->ops->on_sample(sink, &sample, err);
}

int session_add_sink(struct session *s, struct sink *sink, struct error *err)
{
	if (grow_array(&s->sinks, &s->sinks_cap, s->nsinks + 1, sizeof *s->sinks, 4, err) < 0)
		return -1;
	s->sinks[s->nsinks++] = (struct session_sink){ .sink = sink };
	return start_sink(s, sink, err);
}

static struct session_sink *find_sink(const struct session *s, const struct sink *sink)
{
	for (size_t i = 0; sink && i < s->nsinks; i++)
		if (s->sinks[i].sink == sink)
			return &s->sinks[i];
	return NULL;
}

void session_remove_sink(struct session *s, struct sink *sink)
{
	struct session_sink *k = find_sink(s, sink);
	if (!k)
		return;
	size_t i = (size_t)(k - s->sinks);
	memmove(&s->sinks[i], &s->sinks[i + 1], (s->nsinks - i - 1) * sizeof *s->sinks);
	s->nsinks--;
}

void session_pause_sink(struct session *s, struct sink *sink, bool paused)
{
	struct session_sink *k = find_sink(s, sink);
	if (k)
		k->paused = paused;
}

bool session_sink_paused(const struct session *s, const struct sink *sink)
{
	const struct session_sink *k = find_sink(s, sink);
	return k && k->paused;
}

bool session_sink_writing(const struct session *s, const struct sink *sink)
{
	const struct session_sink *k = find_sink(s, sink);
	return k && !k->paused;
}

bool session_sink_error(struct session *s, const struct sink *sink, struct error *err)
{
	struct session_sink *k = find_sink(s, sink);
	if (!k || !k->failed)
		return false;
	*err = k->first_failure;
	k->failed = false;
	return true;
}

/* ---- recordings: seeking and marks ---- */

int session_set_history_capacity(struct session *s, size_t capacity, struct error *err)
{
	if (!s->hist || capacity == s->hist_capacity)
		return 0;
	if (history_resize(s->hist, capacity) < 0)
		return error_set(err, "out of memory: the history keeps %zu samples",
				 history_capacity(s->hist));
	s->hist_capacity = history_capacity(s->hist);
	return 0;
}

/* The marks of the samples before `first`, which the seek does not read again: the
 * marks panel lists every mark up to the sample shown, as if played from the start. */
static int logged_marks_before(struct session *s, size_t first, struct error *err)
{
	size_t n = s->src->ops->logged_event_count ? s->src->ops->logged_event_count(s->src) : 0;
	if (!s->hist || !first || !n || !s->src->ops->logged_event)
		return 0;
	struct replay_event *ev = malloc(sizeof *ev);   /* a decoded event: 4 KB */
	if (!ev)
		return error_set(err, "out of memory: cannot seek");
	int rc = 0;
	/* logged events are in the order of their samples */
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (s->src->ops->logged_event(s->src, i, ev) < 0)
			continue;
		if (ev->sample >= first)
			break;
		/* numbered as a replay numbers them (number_events) */
		if (!ev->event.number)
			ev->event.number = i + 1;
		s->numbered = ev->event.number;
		if (history_add_event_at(s->hist, &ev->event, ev->sample) < 0)
			rc = error_set(err, "out of memory: cannot seek");
	}
	free(ev);
	return rc;
}

/* As before the first sample: history emptied (its samples numbered from `first`, the
 * log's), echoes forgotten (ioscope's changes belong to the samples forgotten). */
static int forget_samples(struct session *s, size_t first, struct error *err)
{
	if (s->hist) {
		struct history *h = history_new(s->hist_capacity);
		if (!h)
			return error_set(err, "out of memory: cannot seek");
		struct trace_history *th = trace_history_new(s->hist_capacity);
		if (!th) {
			history_free(h);
			return error_set(err, "out of memory: cannot seek");
		}
		history_free(s->hist);
		s->hist = h;
		trace_history_free(s->trace_hist);
		s->trace_hist = th;
		history_start_at(h, first);
		if (logged_marks_before(s, first, err) < 0)
			return -1;
	}
	s->have_cur = s->have_rates = s->ended = false;
	event_list_clear(&s->events);
	echo_filter_clear(&s->echoes);
	expect_clear(&s->expected);
	return 0;
}

int session_seek(struct session *s, size_t target, size_t window, struct error *err)
{
	if (!source_can_seek(s->src))
		return error_set(err, "this source cannot seek (not a recording)");
	struct source_position p;
	s->src->ops->position(s->src, &p);
	if (!p.count)
		return 0;
	if (target >= p.count)
		target = p.count - 1;
	size_t first = target > window ? target - window : 0;
	if (forget_samples(s, first, err) < 0)
		return -1;
	/* The sample before the window gives the first one its rates and its events. */
	if (s->src->ops->seek(s->src, first ? first - 1 : 0, err) < 0)
		return -1;
	if (first && source_read(s->src, &s->cur, err) == 1)
		s->have_cur = true;
	bool muted = s->sinks_muted;
	s->sinks_muted = true;   /* what was written once is not written again */
	int rc = 0;
	for (;;) {
		s->src->ops->position(s->src, &p);
		if (p.next > target)
			break;
		int got = session_step(s, err);
		if (got <= 0) {
			rc = got;
			break;
		}
	}
	s->sinks_muted = muted;
	return rc < 0 ? -1 : 0;
}

static size_t logged_count(struct session *s)
{
	if (!s->src->ops->logged_event_count || !s->src->ops->logged_event || !s->src->ops->read_at)
		return 0;
	return s->src->ops->logged_event_count(s->src);
}

/* Logged event i concerns the selection (ev: scratch, a whole decoded event). */
static bool logged_covered(struct session *s, size_t i, struct replay_event *ev)
{
	return s->src->ops->logged_event(s->src, i, ev) == 0 &&
	       selection_covers_logged(&s->sel, s->src, ev);
}

size_t session_mark_after(struct session *s, size_t from)
{
	size_t n = logged_count(s), found = SIZE_MAX;
	struct replay_event *ev = n ? malloc(sizeof *ev) : NULL;
	for (size_t i = 0; ev && i < n && found == SIZE_MAX; i++)
		if (s->src->ops->logged_event(s->src, i, ev) == 0 && ev->sample >= from &&
		    selection_covers_logged(&s->sel, s->src, ev))
			found = i;
	free(ev);
	return found;
}

size_t session_mark_before(struct session *s, size_t before)
{
	size_t n = logged_count(s), found = SIZE_MAX;
	struct replay_event *ev = n ? malloc(sizeof *ev) : NULL;
	for (size_t i = n; ev && i-- > 0 && found == SIZE_MAX;)
		if (s->src->ops->logged_event(s->src, i, ev) == 0 && ev->sample < before &&
		    selection_covers_logged(&s->sel, s->src, ev))
			found = i;
	free(ev);
	return found;
}

void session_mark_rank(struct session *s, size_t i, size_t *rank, size_t *total)
{
	size_t n = logged_count(s);
	struct replay_event *ev = n ? malloc(sizeof *ev) : NULL;
	*rank = *total = 0;
	for (size_t k = 0; ev && k < n; k++) {
		if (!logged_covered(s, k, ev))
			continue;
		*rank += k < i;
		(*total)++;
	}
	free(ev);
}
