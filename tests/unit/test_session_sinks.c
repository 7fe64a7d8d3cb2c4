/* test_session_sinks.c - a session's outputs (sink.h): every sink added gets the latest
 * sample at once, then each step's sample and each event of ioscope's own; a sink whose
 * writes fail says so by its failure() and the others get everything all the same; the
 * recording, one of the sinks, pauses, resumes and stops alone; one policy for a failed
 * write, whatever it was (docs/design.md, "A sink failed"). */
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record_fixture.h"
#include "session.h"
#include "session_log.h"

#define NSAMPLES 5
#define SCHEDULER_SAMPLE 3   /* fixture_snapshot: vda switches to bfq */

/* fixture_snapshot 1..NSAMPLES as fast as read, then the end. */
struct counted_source {
	struct source src;   /* first */
	unsigned k;
};

static int counted_read(struct source *src, struct snapshot *out, struct error *err)
{
	struct counted_source *c = (struct counted_source *)src;
	(void)err;
	if (c->k == NSAMPLES)
		return 0;
	fixture_snapshot(out, ++c->k);
	return 1;
}

static int no_fd(struct source *src)
{
	(void)src;
	return -1;
}

static const struct source_ops counted_ops = { .read = counted_read, .wait_fd = no_fd };

/* What a sink was given; from sample fail_from on (0: never) its writes fail. */
struct probe_sink {
	struct sink sink;   /* first */
	uint64_t fail_from;
	int starts;
	uint64_t seqs[2 * NSAMPLES];
	size_t nsamples, baselines, events;
	bool saw_scheduler;
	char own[4][32];
	size_t nown;
	bool failing;
	char failure[64];
	const char *name;   /* in its failure's text; NULL: none */
	size_t announced;
};

static struct probe_sink *of_sink(const struct sink *sink)
{
	return (struct probe_sink *)sink;
}

static int refuse(struct probe_sink *p, uint64_t seq, struct error *err)
{
	p->failing = p->fail_from && seq >= p->fail_from;
	if (!p->failing)
		return 0;
	snprintf(p->failure, sizeof p->failure, "%s%srefused at sample %llu", p->name ? p->name : "",
		 p->name ? " " : "", (unsigned long long)seq);
	return error_set(err, "%s", p->failure);
}

static void probe_start(struct sink *sink, const struct selection *sel)
{
	(void)sel;
	of_sink(sink)->starts++;
}

static int probe_sample(struct sink *sink, const struct sink_sample *sample, struct error *err)
{
	struct probe_sink *p = of_sink(sink);
	assert_true(p->nsamples < 2 * NSAMPLES);
	p->seqs[p->nsamples++] = sample->snap->seq;
	p->baselines += !sample->rates && !sample->prev;
	assert_true(!sample->rates == !sample->prev);
	p->events += sample->events->count;
	for (size_t i = 0; i < sample->events->count; i++)
		p->saw_scheduler |= strcmp(sample->events->items[i].object, "vda") == 0 &&
				    strcmp(sample->events->items[i].key, "scheduler") == 0 &&
				    sample->snap->seq == SCHEDULER_SAMPLE;
	return refuse(p, sample->snap->seq, err);
}

static int probe_event(struct sink *sink, const struct event *ev, struct error *err)
{
	struct probe_sink *p = of_sink(sink);
	assert_true(p->nown < 4);
	snprintf(p->own[p->nown++], sizeof p->own[0], "%s", ev->new_value);
	return p->failing ? error_set(err, "%s", p->failure) : 0;
}

static int probe_announced(struct sink *sink, const struct event *ev, bool withdrawn,
			   struct error *err)
{
	struct probe_sink *p = of_sink(sink);
	(void)ev;
	(void)withdrawn;
	p->announced++;
	return p->failing ? error_set(err, "%s", p->failure) : 0;
}

static const char *probe_failure(const struct sink *sink)
{
	const struct probe_sink *p = of_sink(sink);
	return p->failing ? p->failure : NULL;
}

static void probe_close(struct sink *sink)
{
	(void)sink;
}

static const struct sink_ops probe_ops = {
	.on_start = probe_start, .on_sample = probe_sample, .on_event = probe_event,
	.on_announced = probe_announced, .failure = probe_failure, .close = probe_close,
};

static void mark(struct session *s, const char *text, int expect_rc)
{
	struct error err = { "" };
	struct event ev;
	event_own(&ev, EVENT_USER_MARK, "user", "mark");
	event_set_new_value(&ev, text);
	assert_int_equal(session_add_own_event(s, &ev, &err), expect_rc);
	if (expect_rc < 0)
		assert_string_equal(err.msg, "refused at sample 3");
	event_free(&ev);
}

static void assert_seqs(const struct probe_sink *p, const uint64_t *want, size_t n)
{
	assert_int_equal(p->nsamples, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(p->seqs[i], want[i]);
}

/* b from the start, a after the baseline (it gets it at once); b, first, fails from
 * sample 3: steps go on, b says why, a has every sample, event and mark, and so does b. */
static void test_two_sinks_one_failing(void **state)
{
	(void)state;
	struct error err = { "" };
	struct counted_source cs = { .src = { .ops = &counted_ops } };
	struct session *s = session_open(&cs.src, &(struct session_opts){ 0 }, &err);
	assert_non_null(s);
	struct probe_sink a = { .sink = { &probe_ops } };
	struct probe_sink b = { .sink = { &probe_ops }, .fail_from = SCHEDULER_SAMPLE };
	assert_int_equal(session_add_sink(s, &b.sink, &err), 0);
	assert_int_equal(b.starts, 1);
	assert_int_equal(b.nsamples, 0);   /* nothing read yet */
	assert_int_equal(session_step(s, &err), 1);
	assert_int_equal(session_add_sink(s, &a.sink, &err), 0);
	assert_int_equal(a.starts, 1);
	size_t events = session_events(s)->count;
	for (int k = 2; k <= NSAMPLES; k++) {
		assert_int_equal(session_step(s, &err), 1);
		events += session_events(s)->count;
		if (k == SCHEDULER_SAMPLE) {
			assert_string_equal(sink_failure(&b.sink), "refused at sample 3");
			assert_null(sink_failure(&a.sink));
			mark(s, "between", -1);   /* b refuses it, a has it */
		}
	}
	assert_int_equal(session_step(s, &err), 0);

	const uint64_t all[] = { 1, 2, 3, 4, 5 };
	assert_seqs(&a, all, NSAMPLES);
	assert_seqs(&b, all, NSAMPLES);
	assert_int_equal(a.baselines, 1);
	assert_int_equal(b.baselines, 1);
	assert_true(events > 0);
	assert_int_equal(a.events, events);
	assert_int_equal(b.events, events);
	assert_true(a.saw_scheduler);
	assert_true(b.saw_scheduler);
	assert_int_equal(a.nown, 1);
	assert_int_equal(b.nown, 1);
	assert_string_equal(a.own[0], "between");
	assert_string_equal(b.own[0], "between");
	assert_null(sink_failure(&a.sink));
	assert_non_null(sink_failure(&b.sink));
	assert_false(session_sink_error(s, &a.sink, &err));
	assert_true(session_sink_error(s, &b.sink, &err));   /* its first, kept */
	assert_string_equal(err.msg, "refused at sample 3");
	session_close(s);
}

/* The recording is one sink: paused it gets nothing, the other everything; its failure
 * is kept for session_sink_error; removed, it is off the session. */
static void test_recording_among_sinks(void **state)
{
	(void)state;
	struct error err = { "" };
	struct counted_source cs = { .src = { .ops = &counted_ops } };
	struct session *s = session_open(&cs.src, &(struct session_opts){ 0 }, &err);
	assert_non_null(s);
	struct probe_sink rec = { .sink = { &probe_ops }, .fail_from = 4 };
	struct probe_sink other = { .sink = { &probe_ops } };
	assert_int_equal(session_add_sink(s, &other.sink, &err), 0);
	assert_int_equal(session_step(s, &err), 1);
	assert_int_equal(session_add_sink(s, &rec.sink, &err), 0);
	assert_true(session_sink_writing(s, &rec.sink));
	assert_int_equal(session_step(s, &err), 1);                   /* 2: both */
	session_pause_sink(s, &rec.sink, true);
	assert_false(session_sink_writing(s, &rec.sink));
	assert_true(session_sink_paused(s, &rec.sink));
	assert_false(session_sink_paused(s, &other.sink));
	assert_int_equal(session_step(s, &err), 1);                   /* 3: other only */
	mark(s, "paused", 0);
	session_pause_sink(s, &rec.sink, false);
	assert_true(session_sink_writing(s, &rec.sink));
	assert_false(session_sink_error(s, &rec.sink, &err));
	assert_int_equal(session_step(s, &err), 1);                   /* 4: rec fails */
	assert_true(session_sink_error(s, &rec.sink, &err));
	assert_string_equal(err.msg, "refused at sample 4");
	assert_false(session_sink_error(s, &rec.sink, &err));         /* said once */
	session_remove_sink(s, &rec.sink);
	assert_false(session_sink_writing(s, &rec.sink));
	assert_false(session_sink_paused(s, &rec.sink));
	session_remove_sink(s, &rec.sink);                            /* not added: nothing */
	assert_int_equal(session_step(s, &err), 1);                   /* 5: other only */

	const uint64_t recorded[] = { 1, 2, 4 }, all[] = { 1, 2, 3, 4, 5 };
	assert_seqs(&rec, recorded, 3);
	assert_seqs(&other, all, NSAMPLES);
	assert_int_equal(rec.nown, 0);
	assert_int_equal(other.nown, 1);
	assert_int_equal(rec.starts, 1);   /* resuming does not start again */
	session_close(s);
}

static void expect_record_error(struct session *s, struct sink *rec, const char *want)
{
	struct error err = { "" };
	assert_true(session_sink_error(s, rec, &err));
	assert_string_equal(err.msg, want);
	assert_false(session_sink_error(s, rec, &err));
}

/* A failed write, one policy whatever it was: a step goes on (1) and keeps each sink's
 * failure; a call returns -1 with the first failure and every sink had its turn; the
 * recording's failure of an event or an announcement is kept as that of a sample. */
static void test_one_policy(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_session_sinks.XXXXXX";   /* no instance is announced to */
	assert_non_null(mkdtemp(dir));
	setenv("XDG_RUNTIME_DIR", dir, 1);
	struct error err = { "" };
	struct counted_source cs = { .src = { .ops = &counted_ops } };
	struct session *s = session_open(&cs.src, &(struct session_opts){ 0 }, &err);
	assert_non_null(s);
	struct probe_sink other = { .sink = { &probe_ops }, .fail_from = 2, .name = "other" };
	struct probe_sink rec = { .sink = { &probe_ops }, .fail_from = 2, .name = "rec" };
	assert_int_equal(session_add_sink(s, &other.sink, &err), 0);
	assert_int_equal(session_add_sink(s, &rec.sink, &err), 0);
	assert_int_equal(session_step(s, &err), 1);
	assert_int_equal(session_step(s, &err), 1);   /* 2: both fail, the step does not */
	expect_record_error(s, &rec.sink, "rec refused at sample 2");

	struct event ev;
	event_own(&ev, EVENT_TUNABLE, "vda", "nr_requests");
	assert_int_equal(event_set_new_value(&ev, "64"), 0);
	err.msg[0] = '\0';
	assert_int_equal(session_add_own_event(s, &ev, &err), -1);
	assert_string_equal(err.msg, "other refused at sample 2");   /* the first */
	assert_int_equal(other.nown, 1);
	assert_int_equal(rec.nown, 1);
	expect_record_error(s, &rec.sink, "rec refused at sample 2");

	err.msg[0] = '\0';
	assert_int_equal(session_expect_event(s, &ev, &err), -1);
	assert_string_equal(err.msg, "other refused at sample 2");
	assert_int_equal(session_withdraw_expected(s, &ev, &err), -1);
	assert_int_equal(other.announced, 2);
	assert_int_equal(rec.announced, 2);
	expect_record_error(s, &rec.sink, "rec refused at sample 2");
	assert_int_equal(session_announce_pending(s, &session_log_announce_codec, &ev, 1), -1);
	assert_int_equal(session_announce_withdrawn(s, &session_log_announce_codec, &ev, 1), -1);
	assert_int_equal(rec.announced, 4);
	expect_record_error(s, &rec.sink, "rec refused at sample 2");

	other.fail_from = rec.fail_from = 0;
	assert_int_equal(session_step(s, &err), 1);   /* 3: written again */
	assert_int_equal(session_announce_pending(s, &session_log_announce_codec, &ev, 1), 0);
	assert_int_equal(session_add_own_event(s, &ev, &err), 0);
	assert_false(session_sink_error(s, &rec.sink, &err));
	assert_true(session_sink_error(s, &other.sink, &err));   /* never asked: its first */
	assert_string_equal(err.msg, "other refused at sample 2");
	event_free(&ev);
	session_close(s);
	unsetenv("XDG_RUNTIME_DIR");
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_sinks_one_failing),
		cmocka_unit_test(test_recording_among_sinks),
		cmocka_unit_test(test_one_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
