/* replay_source.c - a session log as a source (source.h): batch and console are
 * fed the recorded snapshots exactly as the live source fed them when recording.
 *
 * Observed events are not handed out: batch and console derive them again with
 * events_diff() from the replayed snapshots, exactly as they did live.  Only what
 * a diff cannot find (user marks, changes made by ioscope) comes from the log.
 */
#include <stdio.h>
#include <stdlib.h>

#include "recorder.h"
#include "replay.h"
#include "text.h"

struct replay_source {
	struct source base;
	struct replay *replay;
	size_t last;            /* the sample read() returned last, SIZE_MAX: none yet */
	size_t warned;          /* warnings already printed */
	bool quiet;             /* the console shows warnings itself */
};

static const struct source_ops replay_source_ops;

static void print_warnings(struct replay_source *rs)
{
	size_t n = replay_warning_count(rs->replay);
	for (; !rs->quiet && rs->warned < n; rs->warned++)
		text_printf(stderr, "ioscope: warning: %s\n", replay_warning(rs->replay, rs->warned));
}

static int replay_source_read(struct source *src, struct snapshot *out, struct error *err)
{
	struct replay_source *rs = (struct replay_source *)src;
	/* A damaged sample is skipped (and warned about): the rest still replays. */
	for (size_t i = replay_tell(rs->replay); i < replay_count(rs->replay); i++) {
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
		if (!e) {
			free(ev);
			return -1;
		}
		*e = ev->event;
		added++;
	}
	free(ev);
	return (int)added;
}

static void replay_source_destroy(struct source *src)
{
	struct replay_source *rs = (struct replay_source *)src;
	replay_close(rs->replay);
	free(rs);
}

static const struct source_ops replay_source_ops = {
	.read = replay_source_read,
	.wait_fd = replay_source_wait_fd,
	.set_interval = replay_source_set_interval,
	.destroy = replay_source_destroy,
	.take_events = replay_source_take_events,
};

struct source *source_replay_new(const char *path, struct error *err)
{
	struct replay_source *rs = calloc(1, sizeof *rs);
	if (!rs) {
		error_set(err, "%s: out of memory", path);
		return NULL;
	}
	rs->replay = replay_open(path, err);
	if (!rs->replay) {
		free(rs);
		return NULL;
	}
	double interval = replay_machine(rs->replay)->interval;
	rs->base = (struct source){
		.ops = &replay_source_ops,
		.interval = interval > 0 ? interval : 1.0,
		.live = false,
		.paced = false,
	};
	rs->last = SIZE_MAX;
	print_warnings(rs);
	if (replay_warnings_total(rs->replay) > replay_warning_count(rs->replay))
		text_printf(stderr, "ioscope: warning: %s: %zu more damaged records not listed\n", path,
			replay_warnings_total(rs->replay) - replay_warning_count(rs->replay));
	return &rs->base;
}

struct replay *source_replay_get(struct source *src)
{
	if (!src || src->ops != &replay_source_ops)
		return NULL;
	struct replay_source *rs = (struct replay_source *)src;
	rs->quiet = true;
	return rs->replay;
}
