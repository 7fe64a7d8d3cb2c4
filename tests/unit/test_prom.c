/* test_prom.c - the Prometheus exposition: the family table, escaping, change counters,
 * both formats, content negotiation. */
#include "unit.h"

#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "prom.h"
#include "prom_sink.h"
#include "rates.h"

static void table_is_consistent(void **state)
{
	for (size_t i = 0; i < prom_families_count; i++) {
		const struct prom_family *f = &prom_families[i];
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
		if (f->iostat_key && strcmp(f->iostat_key, "in_flight") != 0)
			assert_non_null(device_metric_find(f->iostat_key));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(prom_families[j].name, f->name);
	}
	/* every iostat figure has its gauge */
	for (size_t m = 0; m < device_metrics_count; m++) {
		bool found = false;
		for (size_t i = 0; i < prom_families_count; i++)
			found = found || (prom_families[i].iostat_key &&
					  strcmp(prom_families[i].iostat_key, device_metrics[m].name) == 0);
		assert_true(found);
	}
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
	snprintf(e->object, sizeof e->object, "%s", object);
	snprintf(e->by, sizeof e->by, "%s", by);
	return e;
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

	assert_int_equal(prom_render(&x, &f->v, PROM_OPENMETRICS, &b), 0);
	assert_non_null(strstr(b.buf, "\n# TYPE ioscope_setting_changes counter\n"));
	assert_non_null(strstr(b.buf, "\n# TYPE ioscope_mount info\n"));
	assert_non_null(strstr(b.buf, "\nioscope_mount_info{"));
	assert_int_equal(strcmp(b.buf + b.len - 6, "# EOF\n"), 0);

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
		cmocka_unit_test(iostat_switch),
		cmocka_unit_test(listen_address),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
