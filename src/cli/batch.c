/* batch.c - the headless face: one report per interval on standard output.
 *
 * Like `iostat -y`, the first report covers the first interval, not the time since
 * boot.  SIGINT/SIGTERM end the run cleanly (the recording is complete).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "commands.h"
#include "devsel.h"
#include "output.h"
#include "rates.h"
#include "text.h"

struct batch {
	const struct options *opts;
	struct source *src;
	struct recorder *rec;
	struct snapshot prev, cur;
	struct rates rates;
	struct event_list events;
	struct echo_filter echoes;      /* a replayed console session's own changes */
	struct jsonw json;
	char (*wanted)[DEV_NAME_MAX];   /* resolved DEVICE arguments, NULL: default set */
	bool *shown;
	size_t shown_cap;
	int sigfd;
};

/* Exit status for the run: 0 ok, 1 sampling failed, 2 bad device argument. */
static int resolve_devices(struct batch *b)
{
	if (b->opts->ndevices == 0)
		return 0;
	b->wanted = calloc((size_t)b->opts->ndevices, sizeof *b->wanted);
	if (!b->wanted)
		return 1;
	for (int i = 0; i < b->opts->ndevices; i++) {
		struct error err;
		if (devsel_resolve(&b->prev, b->opts->devices[i], b->wanted[i], DEV_NAME_MAX, &err) < 0) {
			text_printf(stderr, "ioscope: %s\n", err.msg);
			return 2;
		}
	}
	return 0;
}

/* Without arguments, like iostat: whole disks that have done any I/O since boot. */
static bool device_shown(const struct batch *b, const struct device *d)
{
	if (b->wanted) {
		for (int i = 0; i < b->opts->ndevices; i++)
			if (strcmp(b->wanted[i], d->name) == 0)
				return true;
		return false;
	}
	const struct disk_counters *c = &d->counters;
	return !d->is_partition && (c->rd_ios || c->wr_ios || c->dc_ios || c->fl_ios || c->in_flight);
}

static int update_shown(struct batch *b)
{
	if (b->cur.ndevices > b->shown_cap) {
		bool *v = realloc(b->shown, b->cur.ndevices * sizeof *v);
		if (!v)
			return -1;
		b->shown = v;
		b->shown_cap = b->cur.ndevices;
	}
	for (size_t i = 0; i < b->cur.ndevices; i++)
		b->shown[i] = device_shown(b, &b->cur.devices[i]);
	return 0;
}

static int emit(struct batch *b)
{
	struct interval_view v = { &b->rates, &b->cur, &b->events, b->shown };
	switch (b->opts->format) {
	case FORMAT_TEXT: output_text(stdout, &v); break;
	case FORMAT_CSV: output_csv(stdout, &v); break;
	case FORMAT_JSON:
		if (output_json(stdout, &b->json, &v) < 0)
			return -1;
		break;
	}
	return fflush(stdout) == EOF ? -1 : 0;
}

/* Wait for the next deadline or a signal.  1: sample now; 0: stop. */
static int wait_next(struct batch *b)
{
	struct pollfd fds[2] = { { .fd = b->sigfd, .events = POLLIN }, { .fd = b->src->ops->wait_fd(b->src), .events = POLLIN } };
	for (;;) {
		int n = poll(fds, fds[1].fd >= 0 ? 2 : 1, fds[1].fd >= 0 ? -1 : 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (fds[0].revents & POLLIN))
			return 0;
		if (fds[1].fd < 0)
			return 1;
		if (fds[1].revents & POLLIN) {
			uint64_t expirations;
			if (read(fds[1].fd, &expirations, sizeof expirations) < 0 && errno != EAGAIN)
				return 0;
			return 1;
		}
	}
}

static int take_sample(struct batch *b, struct snapshot *into)
{
	struct error err = { "" };
	int r = source_read(b->src, into, &err);
	if (r < 0)
		text_printf(stderr, "ioscope: %s\n", err.msg);
	return r;
}

static int record(struct batch *b, const struct snapshot *snap)
{
	struct error err = { "" };
	if (!b->rec || recorder_write(b->rec, snap, &b->events, &err) == 0)
		return 0;
	text_printf(stderr, "ioscope: %s\n", err.msg);
	return -1;
}

/* Events, rates and the device filter of the interval prev -> cur; -1 on ENOMEM. */
static int derive(struct batch *b)
{
	event_list_clear(&b->events);
	if (events_diff(&b->events, &b->prev, &b->cur) < 0)
		return -1;
	size_t derived = b->events.count;
	if (source_take_events(b->src, &b->events) < 0)
		return -1;
	echo_filter_sample(&b->echoes, &b->events, derived);
	if (rates_compute(&b->rates, &b->prev, &b->cur) < 0)
		return -1;
	return update_shown(b);
}

static int run_loop(struct batch *b)
{
	for (long n = 0; b->opts->count == 0 || n < b->opts->count; n++) {
		if (!wait_next(b))
			return 0;
		int r = take_sample(b, &b->cur);
		if (r <= 0)
			return r < 0 ? 1 : 0;
		if (derive(b) < 0) {
			fprintf(stderr, "ioscope: out of memory\n");
			return 1;
		}
		if (emit(b) < 0 || record(b, &b->cur) < 0)
			return 1;
		snapshot_swap(&b->prev, &b->cur);
	}
	return 0;
}

static int open_signals(struct batch *b)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	b->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	signal(SIGPIPE, SIG_IGN);   /* a closed pipe shows up as a write error */
	return b->sigfd;
}

int batch_run(const struct options *opts, struct source *src, struct recorder *rec)
{
	struct batch b = { .opts = opts, .src = src, .rec = rec, .sigfd = -1 };
	snapshot_init(&b.prev);
	snapshot_init(&b.cur);
	rates_init(&b.rates);
	event_list_init(&b.events);
	echo_filter_init(&b.echoes);
	jsonw_init(&b.json);
	int status = 1;
	int r = take_sample(&b, &b.prev);
	if (r <= 0) {
		if (r == 0)
			fprintf(stderr, "ioscope: no samples\n");
		goto out;
	}
	status = resolve_devices(&b);
	if (status)
		goto out;
	if (record(&b, &b.prev) < 0) {
		status = 1;
		goto out;
	}
	if (opts->format == FORMAT_CSV)
		output_csv_header(stdout);
	/* Blocked only now that the loop polls the signalfd: until here Ctrl-C and
	 * `timeout` end ioscope the ordinary way, whatever the start-up waits for. */
	if (open_signals(&b) < 0) {
		perror("ioscope: signalfd");
		status = 1;
		goto out;
	}
	status = run_loop(&b);
out:
	if (b.sigfd >= 0)
		close(b.sigfd);
	free(b.wanted);
	free(b.shown);
	event_list_free(&b.events);
	echo_filter_free(&b.echoes);
	jsonw_free(&b.json);
	rates_free(&b.rates);
	snapshot_free(&b.prev);
	snapshot_free(&b.cur);
	return status;
}
