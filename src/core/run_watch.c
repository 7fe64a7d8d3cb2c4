/* run_watch.c - a watched command and the linger after it (run_watch.h). */
#include <string.h>
#include <unistd.h>

#include "run_watch.h"

int run_watch_start(struct run_watch *w, const struct run_watch_opts *o, struct event *start,
		    struct error *err)
{
	memset(w, 0, sizeof *w);
	w->linger = o->linger >= 0 ? o->linger : o->console ? -1 : RUN_LINGER_BATCH;
	w->linger_writeback = o->linger < 0 && !o->console;
	w->dirty_threshold_kb = o->dirty_threshold_kb;
	int fd = -1;
	if (o->output_path || o->to_file) {
		fd = child_output_open(o->output_path, w->output, sizeof w->output, err);
		if (fd < 0)
			return RUN_WATCH_REFUSED;
	}
	w->child = child_spawn(o->command, fd, !o->console, o->proc, err);
	if (fd >= 0)
		close(fd);
	if (!w->child)
		return -1;
	if (child_start_event(w->child, o->command, w->output, start) < 0) {
		event_free(start);
		child_free(w->child);   /* stopped: nothing runs unmarked */
		w->child = NULL;
		error_set(err, "out of memory: the command's start could not be marked");
		return RUN_WATCH_REFUSED;
	}
	return 0;
}

int run_watch_fd(const struct run_watch *w)
{
	return w->exited ? -1 : child_fd(w->child);
}

int run_watch_collect(struct run_watch *w, struct event *exit_ev, struct error *err)
{
	if (w->exited)
		return 0;
	int r = child_reap(w->child, &w->exit, err);
	if (r <= 0)
		return r;
	w->exited = true;
	clock_gettime(CLOCK_MONOTONIC, &w->exited_at);
	if (child_exit_event(&w->exit, exit_ev) < 0) {
		event_free(exit_ev);
		return error_set(err, "out of memory: the command's exit is not marked");
	}
	return 1;
}

bool run_watch_stop(struct run_watch *w, int sig)
{
	if (w->exited || w->stopping)
		return false;   /* asked twice: stop without waiting for it */
	w->stopping = true;
	child_signal(w->child, sig);
	return true;
}

static bool writeback_pending(const struct run_watch *w, const struct snapshot *cur)
{
	uint64_t threshold;
	if (!cur->vm.have_meminfo || !w->dirty_threshold_kb ||
	    w->dirty_threshold_kb(&threshold) < 0)
		return false;
	return cur->vm.dirty + cur->vm.writeback > threshold;
}

bool run_watch_done(const struct run_watch *w, const struct snapshot *cur)
{
	if (!w->exited)
		return false;
	if (w->stopping)
		return true;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double after = timespec_diff(&now, &w->exited_at);
	if (w->linger < 0 || after < w->linger)
		return false;
	return !w->linger_writeback || after >= RUN_LINGER_WRITEBACK_MAX || !writeback_pending(w, cur);
}

int run_watch_status(const struct run_watch *w)
{
	return w->exited ? w->exit.exit_code : 1;
}

void run_watch_reap(struct run_watch *w)
{
	child_reap_orphans(w->child);
}

void run_watch_close(struct run_watch *w)
{
	child_stop(w->child, &w->stopped);
	child_free(w->child);
	w->child = NULL;
}
