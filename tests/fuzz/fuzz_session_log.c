/* fuzz_session_log.c - the session-log reader on arbitrary bytes: open (index),
 * read every sample forwards and at random (and format it again), the events and
 * their labels (escaped as text outputs do), the `trace` records, the source adapter. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "replay.h"
#include "session_log.h"
#include "text.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("session-log", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	struct error err;
	struct replay *r = replay_open_fd(fd, "fuzz.log", true, &err);
	if (!r)
		return 0;
	struct snapshot s;
	snapshot_init(&s);
	size_t n = replay_count(r);
	struct jsonw w;
	jsonw_init(&w);
	for (size_t i = 0; i < n; i++)   /* and written back: huge numbers reach the writer */
		if (replay_read(r, i, &s, &err) == 0) {
			jsonw_reset(&w);
			session_log_format_sample(&s, &w);
			session_log_format_trace(&s, &w);   /* and a trace's derived figures */
			for (size_t d = 0; s.trace && d < s.trace->ndevices; d++) {
				const struct trace_device *td = &s.trace->devices[d];
				trace_quantile(td->d2c[TRACE_READ], TRACE_LAT_BUCKETS, 0.99);
				trace_quantile(td->q2c[TRACE_FLUSH], TRACE_LAT_BUCKETS, 1);
				trace_seq_pct(td);
			}
		}
	jsonw_free(&w);
	for (size_t i = n; i-- > 0;)   /* backwards: the state caches are switched */
		replay_read(r, i, &s, &err);
	size_t nev = replay_event_count(r);
	static struct replay_event ev;
	char label[2048];
	for (size_t i = 0; i < nev; i++) {
		replay_event_get(r, i, &ev);
		event_label(&ev.event, label, sizeof label);
		text_escape_inplace(label);
		event_resets_text(&ev.event, label, sizeof label);   /* the packed resets */
	}
	struct timespec t = { 0, 0 };
	replay_find_mono(r, &t);
	replay_find_wall(r, &t);
	replay_event_before(r, n / 2);
	for (size_t i = 0; i < replay_warning_count(r); i++)
		(void)strlen(replay_warning(r, i));
	snapshot_free(&s);
	replay_close(r);
	return 0;
}
