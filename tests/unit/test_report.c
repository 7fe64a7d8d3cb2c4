/* test_report.c - `ioscope report` on a recorded fixture run: times, labels, phases,
 * every format. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "record_fixture.h"
#include "recorder.h"
#include "report.h"
#include "report_phases.h"

#define NSAMPLES 8

static const char *record_fixture_log(void)
{
	static char path[256];
	snprintf(path, sizeof path, "%s", temp_log("report-src"));
	struct error err = { "" };
	struct recorder *rec = recorder_open(path, RECORDER_NEW, false, &err);
	assert_non_null(rec);
	struct snapshot prev, cur;
	struct event_list events;
	snapshot_init(&prev);
	snapshot_init(&cur);
	event_list_init(&events);
	for (unsigned k = 1; k <= NSAMPLES; k++) {
		fixture_snapshot(&cur, k);
		event_list_clear(&events);
		if (k > 1)
			assert_true(events_diff(&events, &prev, &cur) >= 0);
		assert_int_equal(recorder_write(rec, &cur, &events, &err), 0);
		if (k == 2) {   /* ioscope switches vda; sample 3 sees the switch again */
			struct event sw = { .kind = EVENT_SCHEDULER, .wall = cur.wall, .mono = cur.mono };
			event_set_object(&sw, "vda");
			snprintf(sw.key, sizeof sw.key, "scheduler");
			event_set_old_value(&sw, "mq-deadline");
			event_set_new_value(&sw, "bfq");
			event_set_result(&sw, "ok");
			snprintf(sw.by, sizeof sw.by, "ioscope");
			event_add_reset(&sw, "nr_requests", "256", "64");   /* as control reads back */
			assert_int_equal(recorder_write_event(rec, &sw, &err), 0);
			event_free(&sw);
		}
		if (k == 6) {
			struct event mark = { .kind = EVENT_USER_MARK, .wall = cur.wall, .mono = cur.mono };
			event_set_object(&mark, "user");
			snprintf(mark.key, sizeof mark.key, "mark");
			event_set_new_value(&mark, "started the copy");
			snprintf(mark.by, sizeof mark.by, "user");
			assert_int_equal(recorder_write_event(rec, &mark, &err), 0);
			event_free(&mark);
		}
		snapshot_swap(&prev, &cur);
	}
	recorder_close(rec);
	snapshot_free(&prev);
	snapshot_free(&cur);
	event_list_free(&events);
	return path;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Runs `ioscope report LOG ARGS... -o OUT` and returns the output. */
static char *run_report(const char *log, const char *format, const char *devices, size_t *len, int *status)
{
	char out[256];
	snprintf(out, sizeof out, "%s.out", temp_log(format));
	char *argv[] = { "report", (char *)log, "--format", (char *)format, "--devices", (char *)devices,
			 "-o", out, NULL };
	*status = cmd_report(8, argv);
	char *text = slurp(out, len);
	unlink(out);
	return text;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_text_report(void **state)
{
	(void)state;
	const char *log = record_fixture_log();
	size_t len;
	int status;
	char *text = run_report(log, "text", "vda", &len, &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(text, "  host      "));
	assert_non_null(strstr(text, "  vda      scheduler mq-deadline, rotational no, write back cache, model Virtio\n"));
	assert_non_null(strstr(text, "  / on vda1, ext4: rw,relatime; superblock rw,errors=remount-ro"));
	/* marks: the switch after 2 (seen at 3, with nr_requests), the remount at 4, the user
	 * mark after 6;
	 * sdz's arrival is not about vda and is left out */
	assert_int_equal(count(text, "\nPhase "), 4);
	assert_non_null(strstr(text, "Phase 4 of 4: 17:06:46 - 17:06:48"));
	/* the switch ioscope made, with its result, once (not again as observed) */
	/* each with its number: its place in this log, written without numbers (issue 41 item
	 * 5): the numbers between are the switch's echo and sdz's events, not reported */
	assert_non_null(strstr(text, "---- 17:06:42 [1] sched vda mq-deadline→bfq (ok) ----\n"));
	assert_int_equal(count(text, "sched vda"), 2);   /* inline, and opening phase 2 */
	/* one change, one mark: the nr_requests reset is a detail of the switch */
	assert_null(strstr(text, "---- 17:06:43 vda nr_requests"));
	assert_non_null(strstr(text, "sched vda mq-deadline→bfq (ok)\n                   resets nr_requests 256→64\n"));
	assert_non_null(strstr(text, "---- 17:06:44 [4] remount / +noatime -relatime ----\n"));
	assert_non_null(strstr(text, "---- 17:06:46 [6] mark: started the copy ----\n17:06:47 "));
	assert_non_null(strstr(text, "  after 17:06:46 [6] mark: started the copy\n"));
	assert_null(strstr(text, "sdz"));
	/* vda writes 2000 ios and 16000 sectors (8000 kB) a second */
	assert_non_null(strstr(text, "    3.9    3.9    3.9     7.8    7.8    7.8\n"));
	assert_non_null(strstr(text, "  vda        3007   3007   3007 "));
	free(text);
	unlink(log);
}

static void test_table_reports(void **state)
{
	(void)state;
	const char *log = record_fixture_log();
	size_t len;
	int status;
	char *csv = run_report(log, "csv", "vda,loop7", &len, &status);
	assert_int_equal(status, 0);
	assert_int_equal(strncmp(csv, "record,time,local_time,interval,device,r/s,", 43), 0);
	assert_int_equal(count(csv, "\nsample,"), 2 * (NSAMPLES - 1));
	/* loop7's counters pass 2^64 at sample 6: a counters_reset event says why its row is empty */
	assert_int_equal(count(csv, "\nevent,"), 4);
	assert_non_null(strstr(csv, ",counters_reset,loop7,counters,,counters went back,observed,,reset loop7 (counters went back),"
				    ",,,,,,,,,,,,,,,\n"));   /* no phase, probe figures, edges, totals */
	assert_non_null(strstr(csv, ",scheduler,vda,scheduler,mq-deadline,bfq,ioscope,ok,sched vda mq-deadline→bfq (ok) (resets nr_requests 256→64),"));
	assert_null(strstr(csv, ",scheduler,vda,scheduler,mq-deadline,bfq,observed,"));
	/* the switch, the remount and the mark open phases 2-4; a log without a probe leaves its figures empty */
	assert_int_equal(count(csv, "\nphase,"), 4);
	assert_non_null(strstr(csv, ",sched vda mq-deadline→bfq (ok),2,,,,,,,,,,,,,,,\n"));
	/* last, a totals row per device: vda wrote 8000 kB a second over 7 intervals, and one
	 * of them (the mark's) is between the phases */
	assert_int_equal(count(csv, "\ntotals,"), 2);
	assert_non_null(strstr(csv, "\ntotals,,,,vda,"));
	assert_non_null(strstr(csv, ",27.344,54.688,3.906,7.812\n"));
	free(csv);
	char *json = run_report(log, "json", "vda", &len, &status);
	assert_int_equal(status, 0);
	assert_int_equal(strncmp(json, "{\"record\":\"machine\"", 19), 0);
	assert_int_equal(count(json, "{\"record\":\"sample\""), NSAMPLES - 1);
	assert_int_equal(count(json, "{\"record\":\"vm\""), NSAMPLES - 1);
	assert_int_equal(count(json, "{\"record\":\"event\""), 3);
	assert_int_equal(count(json, "{\"record\":\"phase\""), 4);
	assert_int_equal(count(json, "{\"record\":\"totals\""), 1);
	assert_non_null(strstr(json, "\"label\":\"sched vda mq-deadline→bfq (ok)\",\"n\":[1],\"probe\":null,\"mostly_at_edges\":[]}"));
	assert_non_null(strstr(json, "\"resets\":{\"nr_requests\":[\"256\",\"64\"]}"));
	free(json);
	unlink(log);
}

static void test_plots(void **state)
{
	(void)state;
	const char *log = record_fixture_log();
	size_t len;
	int status;
	char *svg = run_report(log, "svg", "vda,loop7", &len, &status);
	assert_int_equal(status, 0);
	assert_int_equal(strncmp(svg, "<?xml", 5), 0);
	assert_non_null(strstr(svg, "<title>"));
	/* numbered labels: the legend under the plot (when one does not fit) uses the numbers,
	 * the events' own, as the text report's (issue 41 item 5) */
	assert_non_null(strstr(svg, ">[1] sched vda mq-deadline→bfq (ok)</text>"));
	assert_null(strstr(svg, "nr_requests 256→64"));
	assert_non_null(strstr(svg, ">[4] remount / +noatime -relatime</text>"));
	assert_non_null(strstr(svg, ">[6] mark: started the copy</text>") ||
			strstr(svg, "; mark: started the copy</text>"));
	assert_non_null(strstr(svg, "</svg>"));
	/* the marks of these 8 s are close: a label that would cross a neighbour's line is a
	 * number, and the legend under the plot gives the texts (24 + 14 a mark) */
	bool legend = strstr(svg, ">Marks</text>") != NULL;
	free(svg);
	unsigned char *png = (unsigned char *)run_report(log, "png", "vda,loop7", &len, &status);
	assert_int_equal(status, 0);
	assert_true(len > 24);
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	unsigned w = (unsigned)png[16] << 24 | png[17] << 16 | png[18] << 8 | png[19];
	unsigned h = (unsigned)png[20] << 24 | png[21] << 16 | png[22] << 8 | png[23];
	assert_int_equal(w, 1200);
	assert_int_equal(h, 60 + 2 * 260 + (legend ? 24 + 14 * 3 : 0));
	free(png);
	unlink(log);
}

static void test_times_and_labels(void **state)
{
	(void)state;
	struct timespec start = { 1732900000, 500000000 }, t;   /* 2024-11-29 17:06:40.5 UTC */
	struct error err;
	assert_int_equal(report_parse_time("+90", &start, &t, &err), 0);
	assert_int_equal(t.tv_sec, 1732900090);
	assert_int_equal(report_parse_time("+1h30m", &start, &t, &err), 0);
	assert_int_equal(t.tv_sec, 1732900000 + 5400);
	assert_int_equal(report_parse_time("@1732900123.25", &start, &t, &err), 0);
	assert_int_equal(t.tv_sec, 1732900123);
	assert_int_equal(t.tv_nsec, 250000000);
	assert_int_equal(report_parse_time("17:10", &start, &t, &err), 0);
	assert_int_equal(t.tv_sec, 1732900200);
	assert_int_equal(report_parse_time("01:00:00", &start, &t, &err), 0);   /* after midnight */
	assert_int_equal(t.tv_sec, 1732928400);
	assert_int_equal(report_parse_time("2024-11-29 17:06:40", &start, &t, &err), 0);
	assert_int_equal(t.tv_sec, 1732900000);
	assert_int_equal(report_parse_time("2024-11-29T17:07", &start, &t, &err), 0);
	assert_int_equal(t.tv_sec, 1732900020);
	assert_int_equal(report_parse_time("soon", &start, &t, &err), -1);
	assert_non_null(strstr(err.msg, "invalid time 'soon'"));
	assert_int_equal(report_parse_time("+5x", &start, &t, &err), -1);
	assert_int_equal(report_parse_time("25:00", &start, &t, &err), -1);
	/* strptime and sscanf take these; mktime would move them to another day or minute */
	assert_int_equal(report_parse_time("2026-02-30 10:00", &start, &t, &err), -1);
	assert_int_equal(report_parse_time("2024-11-31T10:00", &start, &t, &err), -1);
	assert_int_equal(report_parse_time("2024-11-29 17:06:60", &start, &t, &err), -1);
	assert_int_equal(report_parse_time("08:43:60", &start, &t, &err), -1);
	assert_int_equal(report_parse_time("2024-02-29 10:00", &start, &t, &err), 0);   /* leap day */
	assert_int_equal(report_parse_time("08:43:59", &start, &t, &err), 0);
	char buf[64];
	/* truncated, not rounded: what is under --min-phase never reads as it */
	report_duration(2.46, buf, sizeof buf);
	assert_string_equal(buf, "2.4s");
	report_duration(9.96, buf, sizeof buf);
	assert_string_equal(buf, "9.9s");
	report_duration(10.4, buf, sizeof buf);
	assert_string_equal(buf, "10s");
	report_duration(29.7, buf, sizeof buf);
	assert_string_equal(buf, "29s");
	report_duration(245, buf, sizeof buf);
	assert_string_equal(buf, "4m05s");
	report_duration(7380, buf, sizeof buf);
	assert_string_equal(buf, "2h03m");
	struct event ev = { .kind = EVENT_MOUNT_OPTIONS };
	event_set_object(&ev, "/home");
	event_set_old_value(&ev, "rw,nobarrier");
	event_set_new_value(&ev, "rw,barrier");
	report_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "remount /home +barrier -nobarrier");
	event_free(&ev);
	ev.kind = EVENT_TUNABLE;
	event_set_object(&ev, "sda");
	snprintf(ev.key, sizeof ev.key, "nr_requests");
	event_set_old_value(&ev, "64");
	event_set_new_value(&ev, "128");
	event_set_result(&ev, "ok");
	report_mark_label(&ev, buf, sizeof buf);
	assert_string_equal(buf, "sda nr_requests 64→128 (ok)");
	event_free(&ev);
}

static void test_bad_usage(void **state)
{
	(void)state;
	const char *log = record_fixture_log();
	char *no_file[] = { "report", NULL };
	assert_int_equal(cmd_report(1, no_file), 2);
	char *bad_format[] = { "report", (char *)log, "--format", "pdf", NULL };
	assert_int_equal(cmd_report(4, bad_format), 2);
	char *bad_device[] = { "report", (char *)log, "--devices", "nvme9", NULL };
	assert_int_equal(cmd_report(4, bad_device), 2);
	char *empty_range[] = { "report", (char *)log, "--from", "+100", NULL };
	assert_int_equal(cmd_report(4, empty_range), 2);
	char *bad_size[] = { "report", (char *)log, "--size", "10x10", "--format", "png", NULL };
	assert_int_equal(cmd_report(6, bad_size), 2);
	char *missing[] = { "report", "/nonexistent/x.log", NULL };
	assert_int_equal(cmd_report(2, missing), 1);
	unlink(log);
}

static int cmp_ref(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The selection gives what sorting gave: the value of rank ceil(p% of n), for any order,
 * runs of equal values, sorted and reversed input, and each p asked after another. */
static void test_percentile(void **state)
{
	(void)state;
	enum { MAX = 2000 };
	static double v[MAX], ref[MAX];
	static const double ps[] = { 50, 95, 100, 0, 1, 99.9, 50 };
	unsigned seed = 12345;
	for (int round = 0; round < 200; round++) {
		size_t n = 1 + (size_t)(round * 37 % MAX);
		int shape = round % 5;
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			double r = (double)(seed >> 8 & 0xffff) / 100.0;
			v[i] = shape == 0 ? r : shape == 1 ? (double)(seed >> 20 & 3)   /* many equal */
			     : shape == 2 ? (double)i : shape == 3 ? (double)(n - i) : 7.0;
		}
		memcpy(ref, v, n * sizeof *v);
		qsort(ref, n, sizeof *ref, cmp_ref);
		for (size_t j = 0; j < sizeof ps / sizeof *ps; j++) {
			size_t rank = (size_t)ceil(ps[j] / 100.0 * (double)n);
			assert_true(report_percentile(v, n, ps[j]) == ref[rank ? rank - 1 : 0]);
		}
	}
	assert_true(isnan(report_percentile(v, 0, 50)));
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_report),
		cmocka_unit_test(test_table_reports),
		cmocka_unit_test(test_plots),
		cmocka_unit_test(test_times_and_labels),
		cmocka_unit_test(test_bad_usage),
		cmocka_unit_test(test_percentile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
