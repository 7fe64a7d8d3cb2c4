/* test_replay.c - damaged, foreign and future session logs: clear messages, and
 * whatever is readable still replays. */
#include "unit.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "announce.h"
#include "record_fixture.h"
#include "recorder.h"
#include "replay.h"

#define NSAMPLES 5

/* The recorded text, for the tests to take apart. */
static char *recorded_text(size_t *len)
{
	const char *path = temp_log("replay-src");
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct snapshot s;
	snapshot_init(&s);
	for (unsigned k = 1; k <= NSAMPLES; k++) {
		fixture_snapshot(&s, k);
		assert_int_equal(recorder_write(rec, &s, NULL, &err), 0);
	}
	snapshot_free(&s);
	recorder_close(rec);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	unlink(path);
	return buf;
}

static const char *write_file(const char *tag, const char *text, size_t len)
{
	const char *path = temp_log(tag);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

/* Offset of the start of line n (1-based). */
static size_t line_offset(const char *text, unsigned n)
{
	const char *p = text;
	for (unsigned i = 1; i < n; i++)
		p = strchr(p, '\n') + 1;
	return (size_t)(p - text);
}

static bool any_warning(const struct replay *r, const char *needle)
{
	for (size_t i = 0; i < replay_warning_count(r); i++)
		if (strstr(replay_warning(r, i), needle))
			return true;
	return false;
}

/* Every sample the index lists reads back, and equals the fixture of its seq. */
static size_t readable_samples(struct replay *r)
{
	struct snapshot got, want;
	struct error err;
	snapshot_init(&got);
	snapshot_init(&want);
	size_t ok = 0;
	for (size_t i = 0; i < replay_count(r); i++) {
		if (replay_read(r, i, &got, &err) < 0)
			continue;
		fixture_snapshot(&want, (unsigned)got.seq);
		assert_true(snapshots_identical(&want, &got));
		ok++;
	}
	snapshot_free(&got);
	snapshot_free(&want);
	return ok;
}

static void test_torn_last_line_is_ignored_with_warning(void **state)
{
	(void)state;
	size_t len;
	char *text = recorded_text(&len);
	/* the recorder died half-way through a sixth sample */
	size_t last = line_offset(text, 3);
	size_t linelen = strchr(text + last, '\n') - (text + last);
	char *torn = malloc(len + linelen);
	memcpy(torn, text, len);
	memcpy(torn + len, text + last, linelen / 2);
	const char *path = write_file("torn", torn, len + linelen / 2);
	struct error err = { "" };
	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	assert_int_equal(replay_count(r), NSAMPLES);
	assert_int_equal(readable_samples(r), NSAMPLES);
	assert_true(any_warning(r, "incomplete"));
	char where[64];
	snprintf(where, sizeof where, "(offset %zu)", len);
	assert_true(any_warning(r, where));
	replay_close(r);
	unlink(path);
	free(torn);
	free(text);
}

static void test_garbage_in_the_middle_is_skipped(void **state)
{
	(void)state;
	size_t len;
	char *text = recorded_text(&len);
	size_t cut = line_offset(text, 4);
	static const char junk[] = "garbage that is not JSON\n\x01\x02\xff{\"type\n{\"no_type\":1}\n\n";
	char *bad = malloc(len + sizeof junk);
	memcpy(bad, text, cut);
	memcpy(bad + cut, junk, sizeof junk - 1);
	memcpy(bad + cut + sizeof junk - 1, text + cut, len - cut);
	const char *path = write_file("garbage", bad, len + sizeof junk - 1);
	struct error err = { "" };
	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	assert_int_equal(replay_count(r), NSAMPLES);
	assert_int_equal(readable_samples(r), NSAMPLES);
	assert_true(any_warning(r, "line 4 "));
	assert_true(any_warning(r, "line 5 "));
	assert_true(any_warning(r, "line 6 "));
	assert_true(any_warning(r, "no \"type\""));
	replay_close(r);
	unlink(path);
	free(bad);
	free(text);
}

/* A sample line whose head is intact but whose body is damaged: indexed, then
 * skipped when read; the source goes on with the next one. */
static void test_damaged_sample_is_skipped_by_the_source(void **state)
{
	(void)state;
	size_t len;
	char *text = recorded_text(&len);
	size_t at = line_offset(text, 3);   /* the second sample */
	char *c = strstr(text + at, "\"c\":[");
	assert_non_null(c);
	memcpy(c, "\"c\":{", 5);
	const char *path = write_file("damaged", text, len);
	struct error err = { "" };
	struct source *src = source_replay_new(path, &err);
	assert_non_null(src);
	struct snapshot s;
	snapshot_init(&s);
	uint64_t seqs[NSAMPLES], n = 0;
	while (source_read(src, &s, &err) == 1 && n < NSAMPLES)
		seqs[n++] = s.seq;
	assert_int_equal(n, NSAMPLES - 1);
	assert_int_equal(seqs[0], 1);
	assert_int_equal(seqs[1], 3);
	struct source_info info;
	src->ops->describe(src, &info);
	assert_int_equal(info.warnings, 1);
	assert_non_null(strstr(info.first_warning, "line 3 "));
	assert_int_equal(src->ops->read_at(src, 1, &s, &err), -1);
	assert_non_null(strstr(err.msg, "line 3 (offset"));
	snapshot_free(&s);
	source_destroy(src);
	unlink(path);
	free(text);
}

/* Announced changes are recorded before the sample they hold (issue 24: a replay holds
 * what the live session held): the source hands each back with that sample, the pending
 * and the withdrawn apart, and none is an event of the recording. */
static void test_announced_replay_with_their_sample(void **state)
{
	(void)state;
	const char *path = temp_log("announced");
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct snapshot s;
	snapshot_init(&s);
	struct event ev;
	event_own(&ev, EVENT_TUNABLE, "sda", "nr_requests");
	event_set_new_value(&ev, "4");
	assert_int_equal(recorder_write_announced(rec, &ev, false, &err), 0);   /* none yet */
	for (unsigned k = 1; k <= 3; k++) {
		fixture_snapshot(&s, k);
		assert_int_equal(recorder_write(rec, &s, NULL, &err), 0);
		if (k < 3)
			assert_int_equal(recorder_write_announced(rec, &ev, k == 2, &err), 0);
	}
	recorder_close(rec);
	struct source *src = source_replay_new(path, &err);
	assert_non_null(src);
	struct event_list pending, withdrawn;
	event_list_init(&pending);
	event_list_init(&withdrawn);
	size_t want_pending[] = { 0, 1, 0 }, want_withdrawn[] = { 0, 0, 1 };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(source_read(src, &s, &err), 1);
		assert_int_equal(source_take_announced(src, &pending, &withdrawn, &err), 0);
		assert_int_equal(pending.count, want_pending[i]);
		assert_int_equal(withdrawn.count, want_withdrawn[i]);
		struct event_list *got = pending.count ? &pending : &withdrawn;
		if (got->count) {
			assert_string_equal(got->items[0].object, "sda");
			assert_string_equal(got->items[0].key, "nr_requests");
			assert_string_equal(got->items[0].new_value, "4");
			assert_true(timespec_diff(&got->items[0].mono, &ev.mono) == 0);
		}
		event_list_clear(&pending);
		event_list_clear(&withdrawn);
	}
	assert_int_equal(src->ops->logged_event_count(src), 0);
	event_list_free(&pending);
	event_list_free(&withdrawn);
	event_free(&ev);
	snapshot_free(&s);
	source_destroy(src);
	unlink(path);
}

/* A crafted log of announcements: at most ANNOUNCE_TAKE_MAX before one sample are kept, as
 * a live session takes in one interval, and the rest are said. */
static void test_announced_capped_per_sample(void **state)
{
	(void)state;
	const char *path = temp_log("announced-many");
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct snapshot s;
	snapshot_init(&s);
	struct event ev;
	event_own(&ev, EVENT_TUNABLE, "sda", "nr_requests");
	for (unsigned k = 1; k <= 2; k++) {
		fixture_snapshot(&s, k);
		assert_int_equal(recorder_write(rec, &s, NULL, &err), 0);
		for (int i = 0; k == 1 && i < ANNOUNCE_TAKE_MAX + 44; i++)
			assert_int_equal(recorder_write_announced(rec, &ev, false, &err), 0);
	}
	recorder_close(rec);
	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	assert_true(any_warning(r, "more than 256 announced changes before one sample"));
	struct event_list pending, withdrawn;
	event_list_init(&pending);
	event_list_init(&withdrawn);
	assert_int_equal(replay_announced(r, 0, 1, &pending, &withdrawn, &err), 0);
	assert_int_equal(pending.count, ANNOUNCE_TAKE_MAX);
	event_list_free(&pending);
	event_list_free(&withdrawn);
	event_free(&ev);
	snapshot_free(&s);
	replay_close(r);
	unlink(path);
}

static void expect_open_error(const char *tag, const char *text, size_t len, const char *needle)
{
	const char *path = write_file(tag, text, len);
	struct error err = { "" };
	struct replay *r = replay_open(path, &err);
	if (r)
		fail_msg("%s: opened", tag);
	if (!strstr(err.msg, needle) || !strstr(err.msg, path))
		fail_msg("%s: message '%s' lacks '%s' or the path", tag, err.msg, needle);
	unlink(path);
}

static void test_future_version_is_refused(void **state)
{
	(void)state;
	size_t len;
	char *text = recorded_text(&len);
	char *v = strstr(text, "\"version\":1");
	assert_non_null(v);
	v[10] = '7';
	expect_open_error("future", text, len, "format version 7 is newer");
	free(text);
}

static void test_not_a_session_log(void **state)
{
	(void)state;
	static const char plain[] = "Device r/s w/s\nvda 1.0 2.0\n";
	static const char json[] = "{\"time\": 1, \"devices\": {}}\n";
	static const char other[] = "{\"type\":\"header\",\"format\":\"something-else\",\"version\":1}\n";
	expect_open_error("plain", plain, sizeof plain - 1,
			  "line 1 (offset 0): not an ioscope session log: not a JSON record");
	expect_open_error("json", json, sizeof json - 1, "not an ioscope session log");
	expect_open_error("other", other, sizeof other - 1, "not an ioscope session log");
	expect_open_error("empty", "", 0, "empty file");
	struct error err = { "" };
	assert_null(replay_open("/nonexistent/session.log", &err));
	assert_non_null(strstr(err.msg, "/nonexistent/session.log: No such file"));
}

static void test_truncated_files(void **state)
{
	(void)state;
	size_t len;
	char *text = recorded_text(&len);
	expect_open_error("trunc-header", text, 100, "header is incomplete");
	/* cut anywhere after the header: opens, every whole sample before the cut reads */
	size_t header_end = line_offset(text, 2);
	for (size_t cut = header_end; cut <= len; cut += 97) {
		const char *path = write_file("trunc", text, cut);
		struct error err = { "" };
		struct replay *r = replay_open(path, &err);
		assert_non_null(r);
		size_t whole = 0;   /* sample lines whose newline is before the cut */
		for (const char *p = text + header_end; p < text + cut; p = strchr(p, '\n') + 1)
			whole += strchr(p, '\n') < text + cut && strncmp(p, "{\"type\":\"sample\"", 16) == 0;
		assert_int_equal(replay_count(r), whole);
		assert_int_equal(readable_samples(r), replay_count(r));
		replay_close(r);
		unlink(path);
	}
	free(text);
}

/* A sample written differently (keys reordered, as a JSON tool may) takes the slow
 * path through the parser and reads back the same. */
static void test_reordered_keys_read_the_same(void **state)
{
	(void)state;
	size_t len;
	char *text = recorded_text(&len);
	size_t at = line_offset(text, 2), end = line_offset(text, 3) - 1;
	const char *head = "{\"type\":\"sample\",";
	assert_memory_equal(text + at, head, strlen(head));
	char *moved = malloc(len + 64);
	size_t o = 0;
	memcpy(moved, text, at);
	o = at;
	o += (size_t)sprintf(moved + o, "{");
	memcpy(moved + o, text + at + strlen(head), end - 1 - at - strlen(head));
	o += end - 1 - at - strlen(head);
	o += (size_t)sprintf(moved + o, ",\"type\":\"sample\"}");
	memcpy(moved + o, text + end, len - end);
	o += len - end;
	const char *path = write_file("reordered", moved, o);
	struct error err = { "" };
	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	assert_int_equal(replay_count(r), NSAMPLES);
	assert_int_equal(replay_warning_count(r), 0);
	assert_int_equal(readable_samples(r), NSAMPLES);
	replay_close(r);
	unlink(path);
	free(moved);
	free(text);
}

static void test_seek_by_time(void **state)
{
	(void)state;
	size_t len;
	char *text = recorded_text(&len);
	const char *path = write_file("seek", text, len);
	struct error err = { "" };
	struct replay *r = replay_open(path, &err);
	assert_non_null(r);
	struct timespec t = { 1732900003, 0 };
	assert_int_equal(replay_find_wall(r, &t), 2);
	t = (struct timespec){ 1003, 123456792 };
	assert_int_equal(replay_find_mono(r, &t), 2);
	t.tv_nsec++;
	assert_int_equal(replay_find_mono(r, &t), 3);
	t = (struct timespec){ 99999, 0 };
	assert_int_equal(replay_find_mono(r, &t), NSAMPLES);
	assert_int_equal(replay_seek(r, NSAMPLES), 0);
	assert_int_equal(replay_seek(r, NSAMPLES + 1), -1);
	struct snapshot s;
	snapshot_init(&s);
	assert_int_equal(replay_read(r, NSAMPLES, &s, &err), -1);
	const struct replay_machine *m = replay_machine(r);
	assert_int_equal(m->version, 1);
	assert_true(m->cpus > 0);
	assert_int_equal(m->started.tv_sec, 1732900001);
	assert_int_equal(replay_header_state(r)->ndevices, 3);
	replay_close(r);
	unlink(path);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torn_last_line_is_ignored_with_warning),
		cmocka_unit_test(test_garbage_in_the_middle_is_skipped),
		cmocka_unit_test(test_damaged_sample_is_skipped_by_the_source),
		cmocka_unit_test(test_future_version_is_refused),
		cmocka_unit_test(test_not_a_session_log),
		cmocka_unit_test(test_truncated_files),
		cmocka_unit_test(test_reordered_keys_read_the_same),
		cmocka_unit_test(test_seek_by_time),
		cmocka_unit_test(test_announced_replay_with_their_sample),
		cmocka_unit_test(test_announced_capped_per_sample),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
