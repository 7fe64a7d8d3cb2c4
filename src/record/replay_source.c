/* replay_source.c - a session log as a source (source.h): batch and console are
 * fed the recorded snapshots exactly as the live source fed them when recording.
 *
 * Observed events are not handed out: the session derives them again with
 * events_diff() from the replayed snapshots, exactly as it did live.  Only what
 * a diff cannot find (user marks, changes made by ioscope) comes from the log.
 * Seeking, the position and the logged events are the source operations only a
 * recording has.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder.h"
#include "replay.h"
#include "text.h"

struct replay_source {
	struct source base;
	struct replay *replay;
	size_t last;            /* the sample read() returned last, SIZE_MAX: none yet */
	size_t first;           /* the first sample that read() looked at (a damaged one skipped) */
	size_t warned;          /* warnings already printed */
	bool borrowed;          /* the replay is the caller's: not closed */
	struct replay_event *scratch;   /* first_event_number's, decoded into (4 KB) */
};

static const struct source_ops replay_source_ops;

static bool src_quiet(const struct replay_source *rs)
{
	return rs->base.quiet;
}

static void print_warnings(struct replay_source *rs)
{
	size_t n = replay_warning_count(rs->replay);
	for (; !src_quiet(rs) && rs->warned < n; rs->warned++)
		text_printf(stderr, "ioscope: warning: %s\n", replay_warning(rs->replay, rs->warned));
}

static int replay_source_read(struct source *src, struct snapshot *out, struct error *err)
{
	struct replay_source *rs = (struct replay_source *)src;
	/* A damaged sample is skipped (and warned about): the rest still replays. */
	rs->first = replay_tell(rs->replay);
	for (size_t i = rs->first; i < replay_count(rs->replay); i++) {
		replay_seek(rs->replay, i + 1);
		if (replay_read(rs->replay, i, out, err) == 0) {
			rs->last = i;
			print_warnings(rs);
			return 1;
		}
		print_warnings(rs);
	}
	return 0;
}

static int replay_source_wait_fd(struct source *src)
{
	(void)src;
	return -1;
}

static int replay_source_set_interval(struct source *src, double seconds, struct error *err)
{
	(void)err;
	src->interval = seconds;   /* pacing a replay is the console's business */
	return 0;
}

static int replay_source_take_events(struct source *src, struct event_list *out)
{
	struct replay_source *rs = (struct replay_source *)src;
	size_t added = 0;
	if (rs->last == SIZE_MAX)
		return 0;
	struct replay_event *ev = malloc(sizeof *ev);
	if (!ev)
		return -1;
	for (size_t i = replay_event_after(rs->replay, rs->last);
	     replay_event_sample(rs->replay, i) == rs->last; i++) {
		replay_event_get(rs->replay, i, ev);
		if (ev->derivable)
			continue;
		struct event *e = event_list_add(out);
		if (!e || event_copy(e, &ev->event) < 0) {
			free(ev);
			return -1;
		}
		added++;
	}
	free(ev);
	return (int)added;
}

/* Those before a skipped damaged sample too: what they held is held from the next. */
static int replay_source_take_announced(struct source *src, struct event_list *pending,
					struct event_list *withdrawn, struct error *err)
{
	struct replay_source *rs = (struct replay_source *)src;
	if (rs->last == SIZE_MAX)
		return 0;
	return replay_announced(rs->replay, rs->first, rs->last, pending, withdrawn, err);
}

static int replay_source_seek(struct source *src, size_t i, struct error *err)
{
	struct replay_source *rs = (struct replay_source *)src;
	if (i > replay_count(rs->replay))
		return error_set(err, "sample %zu is past the end (%zu)", i + 1, replay_count(rs->replay));
	rs->last = SIZE_MAX;
	return replay_seek(rs->replay, i);
}

static void replay_source_position(struct source *src, struct source_position *out)
{
	struct replay_source *rs = (struct replay_source *)src;
	struct replay *r = rs->replay;
	size_t n = replay_count(r);
	*out = (struct source_position){ .next = replay_tell(r), .count = n };
	if (n) {
		out->first_mono = replay_sample_mono(r, 0);
		out->last_mono = replay_sample_mono(r, n - 1);
		out->first_wall = replay_sample_wall(r, 0);
	}
	if (rs->last != SIZE_MAX) {
		out->last_read_mono = replay_sample_mono(r, rs->last);
		out->last_read_wall = replay_sample_wall(r, rs->last);
	}
}

static int replay_source_read_at(struct source *src, size_t i, struct snapshot *out, struct error *err)
{
	return replay_read(((struct replay_source *)src)->replay, i, out, err);
}

static size_t replay_source_find_wall(struct source *src, const struct timespec *t)
{
	return replay_find_wall(((struct replay_source *)src)->replay, t);
}

static size_t replay_source_logged_event_count(struct source *src)
{
	return replay_event_count(((struct replay_source *)src)->replay);
}

static int replay_source_logged_event(struct source *src, size_t i, struct replay_event *out)
{
	return replay_event_get(((struct replay_source *)src)->replay, i, out);
}

static bool replay_source_first_event_number(struct source *src, uint64_t *number)
{
	struct replay_source *rs = (struct replay_source *)src;
	if (rs->last == SIZE_MAX)
		return false;
	size_t i = replay_event_after(rs->replay, rs->last);
	if (replay_event_sample(rs->replay, i) != rs->last)
		return false;
	if (!rs->scratch && !(rs->scratch = malloc(sizeof *rs->scratch)))
		return false;
	if (replay_event_get(rs->replay, i, rs->scratch) < 0)
		return false;
	*number = rs->scratch->event.number ? rs->scratch->event.number : i + 1;
	return true;
}

static void replay_source_describe(struct source *src, struct source_info *out)
{
	struct replay_source *rs = (struct replay_source *)src;
	const struct replay_machine *m = replay_machine(rs->replay);
	memset(out, 0, sizeof *out);
	snprintf(out->host, sizeof out->host, "%s", m->host[0] ? m->host : "?");
	snprintf(out->kernel, sizeof out->kernel, "%s%s", m->kernel[0] ? "Linux " : "", m->kernel);
	out->warnings = replay_warnings_total(rs->replay);
	if (replay_warning_count(rs->replay))
		snprintf(out->first_warning, sizeof out->first_warning, "%s", replay_warning(rs->replay, 0));
	out->has_selection = m->has_selection;
	out->nselection = m->nselection;
	memcpy(out->selection, m->selection, sizeof out->selection);
}

static void replay_source_destroy(struct source *src)
{
	struct replay_source *rs = (struct replay_source *)src;
	if (!rs->borrowed)
		replay_close(rs->replay);
	free(rs->scratch);
	free(rs);
}

static const struct source_ops replay_source_ops = {
	.read = replay_source_read,
	.wait_fd = replay_source_wait_fd,
	.set_interval = replay_source_set_interval,
	.destroy = replay_source_destroy,
	.take_events = replay_source_take_events,
	.take_announced = replay_source_take_announced,
	.seek = replay_source_seek,
	.position = replay_source_position,
	.read_at = replay_source_read_at,
	.find_wall = replay_source_find_wall,
	.logged_event_count = replay_source_logged_event_count,
	.logged_event = replay_source_logged_event,
	.first_event_number = replay_source_first_event_number,
	.describe = replay_source_describe,
};

static struct replay_source *wrap(struct replay *r)
{
	struct replay_source *rs = calloc(1, sizeof *rs);
	if (!rs)
		return NULL;
	rs->replay = r;
	double interval = replay_machine(r)->interval;
	rs->base = (struct source){
		.ops = &replay_source_ops,
		.interval = interval > 0 ? interval : 1.0,
		.live = false,
		.paced = false,
	};
	rs->last = SIZE_MAX;
	return rs;
}

struct source *source_replay_borrow(struct replay *r, struct error *err)
{
	struct replay_source *rs = wrap(r);
	if (!rs) {
		error_set(err, "out of memory");
		return NULL;
	}
	rs->borrowed = true;
	rs->warned = replay_warning_count(r);   /* the owner has said those */
	return &rs->base;
}

struct source *source_replay_new(const char *path, struct error *err)
{
	return source_replay_new_verbose(path, false, err);
}

struct source *source_replay_new_verbose(const char *path, bool verbose, struct error *err)
{
	struct replay *r = replay_open(path, err);
	if (!r)
		return NULL;
	if (verbose)
		replay_print_skipped(r, path, stderr);
	struct replay_source *rs = wrap(r);
	if (!rs) {
		replay_close(r);
		error_set(err, "%s: out of memory", path);
		return NULL;
	}
	print_warnings(rs);
	if (replay_warnings_total(r) > replay_warning_count(r))
		text_printf(stderr, "ioscope: warning: %s: %zu more damaged records not listed\n", path,
			replay_warnings_total(r) - replay_warning_count(r));
	return &rs->base;
}
