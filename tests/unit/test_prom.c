/* test_prom.c - the Prometheus exposition: the family table, escaping, change counters,
 * both formats, content negotiation. */
#include "unit.h"

#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "prom.h"
#include "prom_sink.h"
#include "figures.h"
#include "rates.h"
#include "why.h"

/* Every family: the fixed ones, then one a row of the figure table that names one. */
static size_t all_families(struct prom_family *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < prom_families_count && n < max; i++) {
		assert_null(prom_families[i].figure);
		out[n++] = prom_families[i];
	}
	for (size_t i = 0; i < device_figures_count && n < max; i++)
		if (prom_figure_family(&device_figures[i], &out[n]))
			n++;
	assert_true(n < max);
	return n;
}

static void table_is_consistent(void **state)
{
	struct prom_family all[128];
	size_t count = all_families(all, sizeof all / sizeof all[0]);
	for (size_t i = 0; i < count; i++) {
		const struct prom_family *f = &all[i];
		size_t n = strlen(f->name);
		assert_int_equal(strncmp(f->name, "ioscope_", 8), 0);
		assert_non_null(f->help);
		assert_non_null(f->emit);
		if (f->type == PROM_COUNTER)
			assert_string_equal(f->name + n - 6, "_total");
		else
			assert_null(strstr(f->name, "_total"));
		if (f->type == PROM_INFO)
			assert_string_equal(f->name + n - 5, "_info");
		if (f->type == PROM_HISTOGRAM)   /* base unit; the series add _bucket, _sum, _count */
			assert_string_equal(f->name + n - 8, "_seconds");
		if (f->figure) {
			assert_int_equal(strncmp(f->name, "ioscope_disk_", 13), 0);
			assert_int_equal(f->type, PROM_GAUGE);
		}
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(all[j].name, f->name);
	}
	/* every batch figure (and in_flight) has its gauge, in base units */
	for (size_t m = 0; m < device_figures_count; m++) {
		const struct device_figure *fig = &device_figures[m];
		struct prom_family fam;
		bool exported = prom_figure_family(fig, &fam);
		if (!exported && (fig->batch || fig->kind == FIGURE_IN_FLIGHT))
			fail_msg("the figure %s has no exporter gauge (.prom_name)", fig->key);
		if (exported)
			assert_true(fam.figure == fig && fam.help && fam.help[0]);
	}
	const struct prom_family *util = NULL;
	struct prom_family fam;
	for (size_t i = 0; i < count; i++)
		if (strcmp(all[i].name, "ioscope_disk_utilization_ratio") == 0)
			util = &all[i];
	assert_non_null(util);
	assert_float_equal(util->scale, 0.01, 0);
	assert_true(prom_figure_family(device_figure_find("rkB/s"), &fam) && fam.scale == 1024);
	assert_true(prom_figure_family(device_figure_find("w_await"), &fam) && fam.scale == 0.001);
	assert_false(prom_figure_family(device_figure_find("rMB/s"), &fam));
}

static void negotiation(void **state)
{
	assert_int_equal(prom_negotiate(NULL), PROM_TEXT);
	assert_int_equal(prom_negotiate("*/*"), PROM_TEXT);
	assert_int_equal(prom_negotiate("text/plain"), PROM_TEXT);
	/* what Prometheus 2.42 sends */
	assert_int_equal(prom_negotiate("application/openmetrics-text;version=1.0.0,application/"
					"openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
					"q=0.5,*/*;q=0.1"), PROM_OPENMETRICS);
	assert_int_equal(prom_negotiate("application/openmetrics-text; version=1.0.0; charset=utf-8"),
			 PROM_OPENMETRICS);
	assert_int_equal(prom_negotiate("application/openmetrics-text"), PROM_OPENMETRICS);
	/* a version we do not write, or ranked below text */
	assert_int_equal(prom_negotiate("application/openmetrics-text;version=0.0.1"), PROM_TEXT);
	assert_int_equal(prom_negotiate("application/openmetrics-text;q=0.2,text/plain;q=0.9"), PROM_TEXT);
	assert_int_equal(prom_negotiate("application/openmetrics-text;q=0"), PROM_TEXT);
	assert_int_equal(prom_negotiate("application/openmetrics-textual"), PROM_TEXT);
}

/* A snapshot with one disk (sda, mq-deadline) and a partition with a mount on it. */
struct fixture {
	struct snapshot prev, cur;
	struct rates rates;
	struct event_list events;
	bool shown[2];
	struct interval_view v;
};

static void add_disk(struct snapshot *s, const char *sched_line, const char *sched)
{
	struct device *d = snapshot_add_device(s);
	snprintf(d->name, sizeof d->name, "sda");
	d->settings.has_settings = true;
	d->settings.rotational = 1;
	snprintf(d->settings.scheduler_line, sizeof d->settings.scheduler_line, "%s", sched_line);
	snprintf(d->settings.scheduler, sizeof d->settings.scheduler, "%s", sched);
	struct setting items[] = { { "nr_requests", "64" }, { "write_cache", "write back" } };
	assert_int_equal(device_set_settings(d, items, 2), 0);
	struct device *p = snapshot_add_device(s);
	snprintf(p->name, sizeof p->name, "sda1");
	p->is_partition = true;
	snprintf(p->parent, sizeof p->parent, "sda");
	struct mount *m = snapshot_add_mount(s);
	snprintf(m->disk, sizeof m->disk, "sda1");
	snprintf(m->mountpoint, sizeof m->mountpoint, "/mnt/a \"b\"\\c\n\xff");
	snprintf(m->fstype, sizeof m->fstype, "ext4");
	snprintf(m->mount_opts, sizeof m->mount_opts, "rw,relatime");
	snprintf(m->super_opts, sizeof m->super_opts, "rw,data=ordered");
}

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof *f);
	snapshot_init(&f->prev);
	snapshot_init(&f->cur);
	add_disk(&f->prev, "none [mq-deadline] bfq", "mq-deadline");
	add_disk(&f->cur, "none mq-deadline [bfq]", "bfq");
	f->cur.wall.tv_sec = 1700000000;
	rates_init(&f->rates);
	assert_int_equal(rates_compute(&f->rates, &f->prev, &f->cur), 0);
	event_list_init(&f->events);
	f->shown[0] = true;
	f->v = (struct interval_view){ &f->rates, &f->cur, &f->events, f->shown, false, NULL, NULL };
	return f;
}

static void fixture_free(struct fixture *f)
{
	snapshot_free(&f->prev);
	snapshot_free(&f->cur);
	rates_free(&f->rates);
	event_list_free(&f->events);
	free(f);
}

static struct event *add_event(struct fixture *f, enum event_kind k, const char *object, const char *by)
{
	struct event *e = event_list_add(&f->events);
	e->kind = k;
	e->wall.tv_sec = 1700000000;
	event_set_object(e, "%s", object);
	snprintf(e->by, sizeof e->by, "%s", by);
	return e;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every sample line names a series (name and labels) no other line names: Prometheus
 * and node_exporter refuse a series twice. */
static void assert_series_unique(const char *text)
{
	char *copy = strdup(text);
	size_t n = 0, cap = 64;
	char **series = malloc(cap * sizeof *series);
	for (char *save, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		char *value = strrchr(line, ' ');
		assert_non_null(value);
		*value = '\0';
		if (n == cap)
			series = realloc(series, (cap *= 2) * sizeof *series);
		series[n++] = line;
	}
	qsort(series, n, sizeof *series, by_string);
	for (size_t i = 1; i < n; i++)
		if (strcmp(series[i - 1], series[i]) == 0)
			fail_msg("a series twice: %s", series[i]);
	free(series);
	free(copy);
}

static void exposition(void **state)
{
	struct fixture *f = fixture_new();
	struct prom_exporter x;
	struct prom_buf b;
	prom_exporter_init(&x, true);
	prom_buf_init(&b);
	/* the first exposition: counters at 0 */
	struct interval_view first = f->v;
	first.events = NULL;
	assert_int_equal(prom_exporter_update(&x, &first, NULL), 0);
	assert_int_equal(prom_render(&x, &first, PROM_TEXT, &b), 0);
	assert_non_null(strstr(b.buf, "\nioscope_setting_changes_total{device=\"sda\",kind=\"scheduler\",by=\"observed\"} 0\n"));
	assert_non_null(strstr(b.buf, "\nioscope_setting_changes_total{device=\"sda\",kind=\"mount_options\",by=\"ioscope\"} 0\n"));
	assert_null(strstr(b.buf, "{device=\"sda1\""));   /* partitions are not shown */
	assert_null(strstr(b.buf, "ioscope_last_change_timestamp_seconds{"));

	add_event(f, EVENT_SCHEDULER, "sda", "observed");
	add_event(f, EVENT_MOUNT_OPTIONS, f->cur.mounts[0].mountpoint, "ioscope");
	assert_int_equal(prom_exporter_update(&x, &f->v, &f->prev), 0);
	assert_int_equal(prom_render(&x, &f->v, PROM_TEXT, &b), 0);
	assert_non_null(strstr(b.buf, "\n# TYPE ioscope_setting_changes_total counter\n"));
	assert_non_null(strstr(b.buf, "\nioscope_setting_changes_total{device=\"sda\",kind=\"scheduler\",by=\"observed\"} 1\n"));
	/* a mount's change counts for the disk it is on */
	assert_non_null(strstr(b.buf, "\nioscope_setting_changes_total{device=\"sda\",kind=\"mount_options\",by=\"ioscope\"} 1\n"));
	assert_non_null(strstr(b.buf, "\nioscope_last_change_timestamp_seconds{device=\"sda\",kind=\"scheduler\"} 1700000000\n"));
	assert_non_null(strstr(b.buf, "\nioscope_disk_scheduler_info{device=\"sda\",scheduler=\"bfq\"} 1\n"));
	assert_non_null(strstr(b.buf, "\nioscope_disk_scheduler_info{device=\"sda\",scheduler=\"none\"} 0\n"));
	assert_non_null(strstr(b.buf, "\nioscope_disk_queue_setting{device=\"sda\",name=\"nr_requests\"} 64\n"));
	assert_null(strstr(b.buf, "name=\"write_cache\""));
	assert_non_null(strstr(b.buf, "\nioscope_disk_write_cache_info{device=\"sda\",mode=\"write back\"} 1\n"));
	/* hostile names: quote and backslash escaped, control and invalid bytes made '?',
	 * options of the superblock that the mount does not repeat */
	assert_non_null(strstr(b.buf, "\nioscope_mount_info{mountpoint=\"/mnt/a \\\"b\\\"\\\\c??\",device=\"sda1\","
				  "fstype=\"ext4\",options=\"rw,relatime,data=ordered\"} 1\n"));
	assert_null(strstr(b.buf, "# EOF"));
	assert_series_unique(b.buf);

	assert_int_equal(prom_render(&x, &f->v, PROM_OPENMETRICS, &b), 0);
	assert_non_null(strstr(b.buf, "\n# TYPE ioscope_setting_changes counter\n"));
	assert_non_null(strstr(b.buf, "\n# TYPE ioscope_mount info\n"));
	assert_non_null(strstr(b.buf, "\nioscope_mount_info{"));
	assert_int_equal(strcmp(b.buf + b.len - 6, "# EOF\n"), 0);

	prom_buf_free(&b);
	prom_exporter_free(&x);
	fixture_free(f);
}

static void add_mount(struct snapshot *s, const char *mountpoint, const char *opts)
{
	struct mount *m = snapshot_add_mount(s);
	snprintf(m->disk, sizeof m->disk, "sda1");
	snprintf(m->mountpoint, sizeof m->mountpoint, "%s", mountpoint);
	snprintf(m->fstype, sizeof m->fstype, "ext4");
	snprintf(m->mount_opts, sizeof m->mount_opts, "%s", opts);
}

/* A journal of sda1 at mountpoint: commits counted and their mean time. */
static void add_journal(struct interval_view *v, struct why_rates *y, const char *mountpoint,
			double commits)
{
	struct journal_raw *j = &v->snap->why->journals[v->snap->why->njournals++];
	snprintf(j->mountpoint, sizeof j->mountpoint, "%s", mountpoint);
	snprintf(j->device, sizeof j->device, "sda1");
	j->fs = JOURNAL_EXT4;
	j->present = 1u << J4_TRANSACTIONS;
	j->v[J4_TRANSACTIONS] = (uint64_t)commits;
	struct journal_rates *r = &y->journals[y->njournals++];
	snprintf(r->mountpoint, sizeof r->mountpoint, "%s", mountpoint);
	snprintf(r->device, sizeof r->device, "sda1");
	r->fs = JOURNAL_EXT4;
	r->present = 1u << JF_COMMIT_MS;
	r->f[JF_COMMIT_MS] = commits;
}

/* A filesystem stacked on one path (`mount --bind d d`, twice) and two mount points whose
 * names escape alike ("\n" and "\x01" are both "?"): one series per label set in every
 * family, the visible mount's, the last in mountinfo order. */
static void one_series_per_mount_point(void **state)
{
	struct fixture *f = fixture_new();
	struct why_rates y = { 0 };
	f->v.why = &y;
	f->cur.why = why_sample_new();
	const char *mounts[][2] = { { "/mnt/d", "rw" }, { "/mnt/d", "rw,nosuid" }, { "/mnt/d", "ro" },
				    { "/mnt/e\n", "rw,noatime" }, { "/mnt/e\x01", "rw,nodiratime" } };
	for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++) {
		add_mount(&f->cur, mounts[i][0], mounts[i][1]);
		add_journal(&f->v, &y, mounts[i][0], (double)(i + 1));
	}
	struct prom_exporter x;
	struct prom_buf b;
	prom_exporter_init(&x, true);
	prom_buf_init(&b);
	assert_int_equal(prom_exporter_update(&x, &f->v, &f->prev), 0);
	for (enum prom_format fmt = PROM_TEXT; fmt <= PROM_OPENMETRICS; fmt++) {
		assert_int_equal(prom_render(&x, &f->v, fmt, &b), 0);
		assert_series_unique(b.buf);
		assert_non_null(strstr(b.buf, "\nioscope_mount_info{mountpoint=\"/mnt/d\",device=\"sda1\","
					  "fstype=\"ext4\",options=\"ro\"} 1\n"));
		assert_non_null(strstr(b.buf, "\nioscope_mount_info{mountpoint=\"/mnt/e?\",device=\"sda1\","
					  "fstype=\"ext4\",options=\"rw,nodiratime\"} 1\n"));
		assert_null(strstr(b.buf, "options=\"rw,nosuid\""));
		assert_null(strstr(b.buf, "options=\"rw,noatime\""));
		/* the first mount, on another path, is still there */
		assert_non_null(strstr(b.buf, "options=\"rw,relatime,data=ordered\""));
		assert_non_null(strstr(b.buf, "\nioscope_journal_commits_total{mountpoint=\"/mnt/d\",device=\"sda1\","
					  "fstype=\"ext4\"} 3\n"));
		assert_non_null(strstr(b.buf, "\nioscope_journal_commits_total{mountpoint=\"/mnt/e?\",device=\"sda1\","
					  "fstype=\"ext4\"} 5\n"));
		assert_non_null(strstr(b.buf, "\nioscope_journal_commit_seconds{mountpoint=\"/mnt/d\",device=\"sda1\","
					  "fstype=\"ext4\"} 0.003\n"));
		assert_non_null(strstr(b.buf, "\nioscope_journal_commit_seconds{mountpoint=\"/mnt/e?\",device=\"sda1\","
					  "fstype=\"ext4\"} 0.005\n"));
	}
	prom_buf_free(&b);
	prom_exporter_free(&x);
	fixture_free(f);
}

static void iostat_switch(void **state)
{
	struct fixture *f = fixture_new();
	f->cur.mono.tv_sec = 1;
	rates_free(&f->rates);
	assert_int_equal(rates_compute(&f->rates, &f->prev, &f->cur), 0);
	struct prom_exporter x;
	struct prom_buf b;
	prom_buf_init(&b);
	prom_exporter_init(&x, true);
	assert_int_equal(prom_render(&x, &f->v, PROM_TEXT, &b), 0);
	assert_non_null(strstr(b.buf, "\nioscope_disk_utilization_ratio{device=\"sda\"} 0\n"));
	prom_exporter_free(&x);
	prom_exporter_init(&x, false);
	assert_int_equal(prom_render(&x, &f->v, PROM_TEXT, &b), 0);
	assert_null(strstr(b.buf, "ioscope_disk_utilization_ratio"));
	assert_non_null(strstr(b.buf, "ioscope_disk_scheduler_info"));
	prom_buf_free(&b);
	prom_exporter_free(&x);
	fixture_free(f);
}

static void listen_address(void **state)
{
	struct sockaddr_storage sa;
	socklen_t len;
	struct error err = { "" };
	assert_int_equal(prom_listen_address("9586", &sa, &len, &err), 0);
	struct sockaddr_in *in = (struct sockaddr_in *)&sa;
	assert_int_equal(sa.ss_family, AF_INET);
	assert_int_equal(ntohs(in->sin_port), 9586);
	assert_int_equal(ntohl(in->sin_addr.s_addr), INADDR_LOOPBACK);   /* localhost by default */
	assert_int_equal(prom_listen_address("0.0.0.0:80", &sa, &len, &err), 0);
	assert_int_equal(in->sin_addr.s_addr, htonl(INADDR_ANY));
	assert_int_equal(prom_listen_address("[::1]:80", &sa, &len, &err), 0);
	assert_int_equal(sa.ss_family, AF_INET6);
	const char *bad[] = { "", "0", "65536", "x", "1.2.3.4:", ":80x", "::1:80", "[::1]80", "[::1",
			      "999.1.1.1:80" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(prom_listen_address(bad[i], &sa, &len, &err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_is_consistent),
		cmocka_unit_test(negotiation),
		cmocka_unit_test(exposition),
		cmocka_unit_test(one_series_per_mount_point),
		cmocka_unit_test(iostat_switch),
		cmocka_unit_test(listen_address),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
