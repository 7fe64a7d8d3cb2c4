/* watch.c - the watching modes on the source the options name: the console or batch,
 * live or replayed, with or without a recording and a probe. */
#include <stdio.h>

#include "commands.h"
#include "console.h"
#include "options.h"
#include "recorder.h"
#include "replay.h"
#include "source.h"
#include "text.h"

int watch_run(const struct options *opts)
{
	struct error err = { "" };
	struct source *src = opts->replay_path
		? source_replay_new_verbose(opts->replay_path, opts->verbose, &err)
		: source_live_new(opts->root, opts->interval, &err);
	if (!src) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		return 1;
	}
	if (opts->probe_path && source_live_probe(src, opts->probe_path, opts->probe_interval,
						   opts->probe_exec, &err) < 0) {
		text_printf(stderr, "ioscope: probe: %s\n", err.msg);
		source_destroy(src);
		return 1;
	}
	/* the console says it in its footer (console_run) */
	if (opts->batch && source_live_probe_notice(src)[0])
		text_printf(stderr, "ioscope: probe: %s\n", source_live_probe_notice(src));
	/* Refused before anything is sampled or recorded; the console turns it on itself, and
	 * goes on without it when refused (console_run). */
	if (opts->trace && opts->batch && source_trace(src, true, &err) < 0) {
		text_printf(stderr, "ioscope: %s\n", err.msg);
		source_destroy(src);
		return 1;
	}
	struct recorder *rec = NULL;
	if (opts->record_path) {
		rec = recorder_open(opts->record_path,
				    opts->record_append ? RECORDER_APPEND : RECORDER_NEW,
				    opts->record_sync, &err);
		if (!rec) {
			text_printf(stderr, "ioscope: %s\n", err.msg);
			source_destroy(src);
			return 1;
		}
	}
	int status = opts->batch ? batch_run(opts, src, rec) : console_run(opts, src, rec);
	recorder_close(rec);
	source_destroy(src);
	return status;
}
