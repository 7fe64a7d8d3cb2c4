/* test_prom_figures.c - the exposition's figures beyond settings and changes
 * (docs/fleet.md): histograms cumulated since start, blocked tasks bounded to the 20
 * largest wait channels and "other", dips, dirty memory, journals. */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "probe.h"
#include "prom.h"
#include "rates.h"
#include "trace.h"
#include "why.h"

/* ---- histograms ---- */

static void hist_cumulates(void **state)
{
	const double bounds[] = { 0.001, 0.01, 0.1 };
	struct prom_hist h = { 0 };
	const double values[] = { 0.0005, 0.001, 0.002, 0.05, 0.05, 0.5 };
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		prom_hist_observe(&h, bounds, 3, values[i]);
	/* le is "less than or equal": 0.001 is in the first bucket */
	assert_int_equal(prom_hist_cumulative(&h, 0), 2);
	assert_int_equal(prom_hist_cumulative(&h, 1), 3);
	assert_int_equal(prom_hist_cumulative(&h, 2), 5);
	assert_int_equal(prom_hist_cumulative(&h, 3), 6);   /* +Inf */
	assert_int_equal(h.count, 6);
	assert_true(fabs(h.sum - 0.6035) < 1e-12);
}

static void hist_log2(void **state)
{
	double bounds[PROM_HIST_BUCKETS];
	assert_int_equal(prom_log2_bounds(TRACE_LAT_BUCKETS, bounds), TRACE_LAT_BUCKETS - 1);
	assert_true(fabs(bounds[0] - 2e-6) < 1e-15);     /* bucket 0: [0, 2) us */
	assert_true(fabs(bounds[9] - 1024e-6) < 1e-15);  /* bucket 9: [512, 1024) us */
	uint64_t counts[TRACE_LAT_BUCKETS] = { 0 };
	counts[0] = 1;
	counts[9] = 2;
	counts[TRACE_LAT_BUCKETS - 1] = 1;    /* above every bound */
	struct prom_hist h = { 0 };
	prom_hist_add_log2(&h, counts, TRACE_LAT_BUCKETS);
	prom_hist_add_log2(&h, counts, TRACE_LAT_BUCKETS);   /* a second interval adds */
	assert_int_equal(h.count, 8);
	assert_int_equal(prom_hist_cumulative(&h, 0), 2);
	assert_int_equal(prom_hist_cumulative(&h, 8), 2);
	assert_int_equal(prom_hist_cumulative(&h, 9), 6);
	assert_int_equal(prom_hist_cumulative(&h, TRACE_LAT_BUCKETS - 2), 6);
	assert_int_equal(prom_hist_cumulative(&h, TRACE_LAT_BUCKETS - 1), 8);
	/* the middle of each bucket, the low end of the open one */
	double want = 2 * (1 + 2 * 768 + ldexp(1, TRACE_LAT_BUCKETS - 1)) * 1e-6;
	assert_true(fabs(h.sum - want) < 1e-9);
}

/* ---- a snapshot with one disk ---- */

struct fixture {
	struct snapshot prev, cur;
	struct rates rates;
	struct why_rates why;
	bool shown[1];
	struct interval_view v;
	struct prom_exporter x;
	struct prom_buf b;
};

static void add_disk(struct snapshot *s)
{
	struct device *d = snapshot_add_device(s);
	snprintf(d->name, sizeof d->name, "sda");
	d->major = 8;
	d->settings.has_settings = true;
}

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	snapshot_init(&f->prev);
	snapshot_init(&f->cur);
	add_disk(&f->prev);
	add_disk(&f->cur);
	f->cur.mono.tv_sec = 1;
	rates_init(&f->rates);
	assert_int_equal(rates_compute(&f->rates, &f->prev, &f->cur), 0);
	f->shown[0] = true;
	f->v = (struct interval_view){ &f->rates, &f->cur, NULL, f->shown, false, &f->why, NULL };
	prom_exporter_init(&f->x, false);
	prom_buf_init(&f->b);
	return f;
}

static void fixture_free(struct fixture *f)
{
	snapshot_free(&f->prev);
	snapshot_free(&f->cur);
	rates_free(&f->rates);
	prom_buf_free(&f->b);
	prom_exporter_free(&f->x);
	free(f);
}

static const char *render(struct fixture *f)
{
	assert_int_equal(prom_exporter_update(&f->x, &f->v, &f->prev), 0);
	assert_int_equal(prom_render(&f->x, &f->v, PROM_TEXT, &f->b), 0);
	return f->b.buf;
}

static size_t count_lines(const char *text, const char *prefix)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, prefix)) != NULL; p++)
		n += p == text || p[-1] == '\n';
	return n;
}

/* Every sample line's value, in order, for lines starting with prefix. */
static size_t values_of(const char *text, const char *prefix, double *out, size_t max)
{
	size_t n = 0;
	for (const char *p = text; n < max && (p = strstr(p, prefix)) != NULL; p++)
		if (p == text || p[-1] == '\n')
			out[n++] = strtod(strchr(strchr(p, '}') ? strchr(p, '}') : p, ' '), NULL);
	return n;
}

/* The probe's reads: buckets cumulative, +Inf = _count, and both only grow. */
static void probe_histogram(void **state)
{
	struct fixture *f = fixture_new();
	f->cur.probe = calloc(1, sizeof *f->cur.probe);
	const uint64_t reads_us[] = { 80, 300, 300, 2000, 20000000 };
	for (size_t i = 0; i < sizeof reads_us / sizeof reads_us[0]; i++)
		assert_int_equal(probe_samples_add_read(f->cur.probe, reads_us[i]), 0);
	f->cur.probe->errors = 1;
	const char *t = render(f);
	assert_non_null(strstr(t, "\n# TYPE ioscope_probe_read_latency_seconds histogram\n"));
	assert_non_null(strstr(t, "\nioscope_probe_read_latency_seconds_bucket{le=\"0.0001\"} 1\n"));
	assert_non_null(strstr(t, "\nioscope_probe_read_latency_seconds_bucket{le=\"0.0005\"} 3\n"));
	assert_non_null(strstr(t, "\nioscope_probe_read_latency_seconds_bucket{le=\"10\"} 4\n"));
	assert_non_null(strstr(t, "\nioscope_probe_read_latency_seconds_bucket{le=\"+Inf\"} 5\n"));
	assert_non_null(strstr(t, "\nioscope_probe_read_latency_seconds_count 5\n"));
	assert_non_null(strstr(t, "\nioscope_probe_read_latency_seconds_sum 20.00268\n"));
	assert_non_null(strstr(t, "\nioscope_probe_errors_total 1\n"));
	assert_null(strstr(t, "ioscope_probe_exec_latency_seconds_count"));   /* no --probe-exec */
	double first[32], second[32];
	size_t n = values_of(t, "ioscope_probe_read_latency_seconds_bucket{", first, 32);
	assert_int_equal(n, prom_probe_nbounds + 1);
	for (size_t i = 1; i < n; i++)
		assert_true(first[i] >= first[i - 1]);
	/* the next interval: one more read; nothing goes down */
	probe_samples_clear(f->cur.probe);
	assert_int_equal(probe_samples_add_read(f->cur.probe, 700), 0);
	t = render(f);
	assert_int_equal(values_of(t, "ioscope_probe_read_latency_seconds_bucket{", second, 32), n);
	for (size_t i = 0; i < n; i++)
		assert_true(second[i] == first[i] + (i >= 3));   /* 0.7 ms: le=0.001 (bound 3) on */
	assert_non_null(strstr(t, "\nioscope_probe_read_latency_seconds_count 6\n"));
	assert_non_null(strstr(t, "\nioscope_probe_errors_total 1\n"));
	fixture_free(f);
}

static void trace_histograms(void **state)
{
	struct fixture *f = fixture_new();
	const char *t = render(f);
	assert_null(strstr(t, "ioscope_disk_d2c_latency_seconds_count"));   /* not traced */
	struct trace_sample *ts = calloc(1, sizeof *ts);
	struct trace_device *d = trace_get(ts, 8, 0);
	d->d2c[TRACE_WRITE][3] = 4;          /* [8, 16) us */
	d->q2c[TRACE_WRITE][TRACE_LAT_BUCKETS - 1] = 1;
	snapshot_set_trace(&f->cur, ts);
	t = render(f);
	assert_non_null(strstr(t, "\n# TYPE ioscope_disk_d2c_latency_seconds histogram\n"));
	assert_non_null(strstr(t, "\nioscope_disk_d2c_latency_seconds_bucket{device=\"sda\",direction=\"write\",le=\"8e-06\"} 0\n"));
	assert_non_null(strstr(t, "\nioscope_disk_d2c_latency_seconds_bucket{device=\"sda\",direction=\"write\",le=\"1.6e-05\"} 4\n"));
	assert_non_null(strstr(t, "\nioscope_disk_d2c_latency_seconds_bucket{device=\"sda\",direction=\"write\",le=\"+Inf\"} 4\n"));
	assert_non_null(strstr(t, "\nioscope_disk_d2c_latency_seconds_count{device=\"sda\",direction=\"write\"} 4\n"));
	assert_non_null(strstr(t, "\nioscope_disk_d2c_latency_seconds_count{device=\"sda\",direction=\"read\"} 0\n"));
	assert_non_null(strstr(t, "\nioscope_disk_q2c_latency_seconds_bucket{device=\"sda\",direction=\"write\",le=\"2147.483648\"} 0\n"));
	assert_non_null(strstr(t, "\nioscope_disk_q2c_latency_seconds_bucket{device=\"sda\",direction=\"write\",le=\"+Inf\"} 1\n"));
	assert_int_equal(count_lines(t, "ioscope_disk_d2c_latency_seconds_bucket{device=\"sda\",direction=\"flush\""),
			 TRACE_LAT_BUCKETS);
	/* a second interval adds to the first */
	t = render(f);
	assert_non_null(strstr(t, "\nioscope_disk_d2c_latency_seconds_bucket{device=\"sda\",direction=\"write\",le=\"+Inf\"} 8\n"));
	assert_non_null(strstr(t, "\nioscope_disk_q2c_latency_seconds_count{device=\"sda\",direction=\"write\"} 2\n"));
	fixture_free(f);
}

/* ---- blocked tasks ---- */

static void block(struct tasks_sample *t, const char *wchan, int n)
{
	for (int i = 0; i < n; i++) {
		struct blocked_task *b = tasks_sample_add_blocked(t);
		assert_non_null(b);
		snprintf(b->wchan, sizeof b->wchan, "%s", wchan);
		t->nblocked++;
	}
}

static void wchan_bounded(void **state)
{
	struct tasks_sample *t = tasks_sample_new();
	char name[32];
	for (int i = 0; i < 25; i++) {          /* 25 channels: w00 has 30 tasks, w24 6 */
		snprintf(name, sizeof name, "w%02d", i);
		block(t, name, 30 - i);
	}
	block(t, "other", 2);                   /* a channel named like the rest's label */
	block(t, "bad\x01", 40);                /* two names that escape alike: one group */
	block(t, "bad\x02", 1);
	block(t, "", 3);                        /* unknown: "?" */
	t->nblocked += 5;                       /* not kept */
	struct prom_wchan top[PROM_WCHAN_TOP];
	uint32_t other;
	assert_int_equal(prom_wchan_top(t, top, &other), PROM_WCHAN_TOP);
	assert_string_equal(top[0].name, "bad?");
	assert_int_equal(top[0].count, 41);
	assert_string_equal(top[1].name, "w00");
	assert_int_equal(top[1].count, 30);
	assert_string_equal(top[PROM_WCHAN_TOP - 1].name, "w18");
	uint32_t sum = other;
	for (size_t i = 0; i < PROM_WCHAN_TOP; i++)
		sum += top[i].count;
	assert_int_equal(sum, t->nblocked);
	/* w19..w24 (11+10+9+8+7+6), "other" (2), "?" (3), not kept (5) */
	assert_int_equal(other, 51 + 2 + 3 + 5);

	/* in the exposition: only with --tasks, 20 groups and other, escaped */
	struct fixture *f = fixture_new();
	f->cur.tasks = t;
	const char *text = render(f);
	assert_null(strstr(text, "ioscope_tasks_blocked{"));
	f->v.with_tasks = true;
	text = render(f);
	assert_int_equal(count_lines(text, "ioscope_tasks_blocked{"), PROM_WCHAN_TOP + 1);
	assert_int_equal(count_lines(text, "ioscope_tasks_blocked{wchan=\"other\"}"), 1);
	assert_non_null(strstr(text, "\nioscope_tasks_blocked{wchan=\"bad?\"} 41\n"));
	assert_non_null(strstr(text, "\nioscope_tasks_blocked{wchan=\"other\"} 61\n"));
	fixture_free(f);   /* frees t */
}

static void wchan_few(void **state)
{
	struct tasks_sample *t = tasks_sample_new();
	struct prom_wchan top[PROM_WCHAN_TOP];
	uint32_t other = 99;
	assert_int_equal(prom_wchan_top(t, top, &other), 0);
	assert_int_equal(other, 0);
	block(t, "io_schedule", 2);
	block(t, "jbd2_log_wait_commit", 3);
	block(t, "a\"b\\", 1);
	assert_int_equal(prom_wchan_top(t, top, &other), 3);
	assert_string_equal(top[0].name, "jbd2_log_wait_commit");
	assert_int_equal(other, 0);
	struct fixture *f = fixture_new();
	f->cur.tasks = t;
	f->v.with_tasks = true;
	const char *text = render(f);
	assert_non_null(strstr(text, "\nioscope_tasks_blocked{wchan=\"a\\\"b\\\\\"} 1\n"));
	assert_non_null(strstr(text, "\nioscope_tasks_blocked{wchan=\"other\"} 0\n"));
	/* by disk (issue 24): none of these is attributed, sda's series is there at 0 */
	assert_non_null(strstr(text, "\nioscope_disk_tasks_blocked{device=\"sda\"} 0\n"));
	t->blocked[0].waits = (struct task_file){ TASK_FILE_ON_FS, 8, 0 };    /* a file on sda */
	t->blocked[1].waits = (struct task_file){ TASK_FILE_BLOCKDEV, 8, 0 }; /* sda itself */
	t->blocked[2].waits = (struct task_file){ TASK_FILE_ON_FS, 7, 9 };    /* elsewhere */
	text = render(f);
	assert_non_null(strstr(text, "\nioscope_disk_tasks_blocked{device=\"sda\"} 2\n"));
	fixture_free(f);
}

/* ---- dips, dirty, journals ---- */

static void dips(void **state)
{
	struct fixture *f = fixture_new();
	const char *t = render(f);
	assert_non_null(strstr(t, "\nioscope_dips_total{device=\"sda\"} 0\n"));
	assert_null(strstr(t, "ioscope_last_dip_timestamp_seconds{"));
	struct event_list events;
	event_list_init(&events);
	struct event *e = event_list_add(&events);
	e->kind = EVENT_DIP;
	e->wall.tv_sec = 1700000000;
	event_set_object(e, "sda");
	snprintf(e->by, sizeof e->by, "observed");
	f->v.events = &events;
	t = render(f);
	assert_non_null(strstr(t, "\nioscope_dips_total{device=\"sda\"} 1\n"));
	assert_non_null(strstr(t, "\nioscope_last_dip_timestamp_seconds{device=\"sda\"} 1700000000\n"));
	assert_null(strstr(t, "kind=\"dip\""));    /* a dip is no setting change */
	event_list_free(&events);
	fixture_free(f);
}

static void dirty_and_journals(void **state)
{
	struct fixture *f = fixture_new();
	f->why.have_dirty = true;
	f->why.dirty_kb = 100;
	f->why.threshold_kb = 4000;
	f->why.njournals = 1;
	struct journal_rates *jr = &f->why.journals[0];
	snprintf(jr->mountpoint, sizeof jr->mountpoint, "/mnt");
	snprintf(jr->device, sizeof jr->device, "sda");
	jr->fs = JOURNAL_XFS;
	jr->present = 1u << JF_LOG_USED_PCT;
	jr->f[JF_LOG_USED_PCT] = 25;
	f->cur.why = why_sample_new();
	struct why_sample *w = f->cur.why;
	w->dirty.have = true;
	w->dirty.page_kb = 4;
	w->dirty.v[WD_NR_DIRTIED] = 10;
	w->njournals = 1;
	struct journal_raw *j = &w->journals[0];
	snprintf(j->mountpoint, sizeof j->mountpoint, "/mnt");
	snprintf(j->device, sizeof j->device, "sda");
	j->fs = JOURNAL_XFS;
	j->present = 1u << JX_FORCES;
	j->v[JX_FORCES] = 7;
	const char *t = render(f);
	assert_non_null(strstr(t, "\nioscope_dirty_bytes 102400\n"));
	assert_non_null(strstr(t, "\nioscope_dirty_threshold_bytes 4096000\n"));
	assert_non_null(strstr(t, "\nioscope_dirtied_bytes_total 40960\n"));
	assert_non_null(strstr(t, "\nioscope_journal_log_forces_total{mountpoint=\"/mnt\",device=\"sda\",fstype=\"xfs\"} 7\n"));
	assert_non_null(strstr(t, "\nioscope_journal_log_used_ratio{mountpoint=\"/mnt\",device=\"sda\",fstype=\"xfs\"} 0.25\n"));
	/* a figure not read has no sample */
	assert_null(strstr(t, "ioscope_journal_log_writes_total{"));
	assert_null(strstr(t, "ioscope_journal_commits_total{"));
	f->shown[0] = false;   /* a journal of a disk not shown */
	t = render(f);
	assert_null(strstr(t, "ioscope_journal_log_forces_total{"));
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hist_cumulates),
		cmocka_unit_test(hist_log2),
		cmocka_unit_test(probe_histogram),
		cmocka_unit_test(trace_histograms),
		cmocka_unit_test(wchan_bounded),
		cmocka_unit_test(wchan_few),
		cmocka_unit_test(dips),
		cmocka_unit_test(dirty_and_journals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
