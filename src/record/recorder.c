/* recorder.c - writes a session log as samples arrive (docs/session-log.md).
 *
 * Crash safety comes from the write pattern, not from fsync: everything one sample
 * produces (a devices or mounts record when they changed, the sample, its events)
 * is rendered into one buffer and handed to the kernel with a single write() on an
 * O_APPEND descriptor.  A kill -9 can only lose what was never written; a crash of
 * the machine can at worst tear the last line, which replay ignores.  If a write
 * fails half-way (disk full), the file is cut back to the last whole record so the
 * next sample does not glue onto a torn line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine.h"
#include "recorder.h"
#include "session_log.h"

struct recorder {
	int fd;
	bool sync;
	char *path;
	bool started;            /* the header is written */
	off_t size;              /* bytes of whole records in the file */
	uint64_t last_seq;
	struct snapshot state;   /* device list and mounts as the log last stated them */
	struct event_list early; /* events before the first sample: written after it */
	char *buf;               /* what the next write() hands over */
	size_t len, cap;
	struct jsonw line;       /* the sample line, reused */
	struct selection selection;
	bool has_selection;      /* recorder_set_selection was called */
};

void recorder_set_selection(struct recorder *rec, const struct selection *sel)
{
	rec->selection = *sel;
	rec->has_selection = true;
}

struct recorder *recorder_open(const char *path, bool sync, struct error *err)
{
	struct recorder *rec = calloc(1, sizeof *rec);
	if (!rec || !(rec->path = strdup(path))) {
		free(rec);
		error_set(err, "%s: out of memory", path);
		return NULL;
	}
	rec->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (rec->fd < 0) {
		error_errno(err, path, errno);
		free(rec->path);
		free(rec);
		return NULL;
	}
	rec->sync = sync;
	snapshot_init(&rec->state);
	event_list_init(&rec->early);
	return rec;
}

static int reserve(struct recorder *rec, size_t more)
{
	if (rec->len + more <= rec->cap)
		return 0;
	size_t cap = rec->cap ? rec->cap : 4096;
	while (cap < rec->len + more)
		cap *= 2;
	char *b = realloc(rec->buf, cap);
	if (!b)
		return -1;
	rec->buf = b;
	rec->cap = cap;
	return 0;
}

/* Renders o as one line into the buffer and releases it. */
static int append_record(struct recorder *rec, json_object *o, struct error *err)
{
	if (!o)
		return error_set(err, "%s: out of memory", rec->path);
	size_t n;
	const char *text = json_object_to_json_string_length(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);
	int r = text && reserve(rec, n + 1) == 0 ? 0 : -1;
	if (r == 0) {
		memcpy(rec->buf + rec->len, text, n);
		rec->buf[rec->len + n] = '\n';
		rec->len += n + 1;
	}
	json_object_put(o);
	return r < 0 ? error_set(err, "%s: out of memory", rec->path) : 0;
}

static int append_sample(struct recorder *rec, const struct snapshot *snap, struct error *err)
{
	jsonw_reset(&rec->line);
	if (session_log_format_sample(snap, &rec->line) < 0 || reserve(rec, rec->line.len) < 0)
		return error_set(err, "%s: out of memory", rec->path);
	memcpy(rec->buf + rec->len, rec->line.buf, rec->line.len);
	rec->len += rec->line.len;
	return 0;
}

/* One write() for the whole buffer; on failure the file is cut back to whole records. */
static int flush(struct recorder *rec, struct error *err)
{
	size_t done = 0;
	while (done < rec->len) {
		ssize_t n = write(rec->fd, rec->buf + done, rec->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;
			if (done && ftruncate(rec->fd, rec->size) < 0)
				e = errno;
			rec->len = 0;
			return error_errno(err, rec->path, e);
		}
		done += (size_t)n;
	}
	rec->size += (off_t)rec->len;
	rec->len = 0;
	if (rec->sync && fdatasync(rec->fd) < 0)
		return error_errno(err, rec->path, errno);
	return 0;
}

static int append_header(struct recorder *rec, const struct snapshot *snap, struct error *err)
{
	struct replay_machine m;
	machine_describe(&m);
	m.has_selection = rec->has_selection;
	m.nselection = rec->selection.n;
	memcpy(m.selection, rec->selection.names, sizeof m.selection);
	return append_record(rec, session_log_header(&m, snap), err) < 0 ? -1 : 1;
}

/* A devices / mounts record only when they differ from what the log last said.
 * Returns 1 when one was added. */
static int append_state_changes(struct recorder *rec, const struct snapshot *snap, struct error *err)
{
	bool devices = !session_devices_equal(&rec->state, snap);
	bool mounts = !session_mounts_equal(&rec->state, snap);
	if (devices && append_record(rec, session_log_devices(snap), err) < 0)
		return -1;
	if (mounts && append_record(rec, session_log_mounts(snap), err) < 0)
		return -1;
	return devices || mounts;
}

static int append_events(struct recorder *rec, const struct event_list *events, struct error *err)
{
	for (size_t i = 0; events && i < events->count; i++)
		if (append_record(rec, session_log_event(&events->items[i], rec->last_seq), err) < 0)
			return -1;
	return 0;
}

int recorder_write(struct recorder *rec, const struct snapshot *snap,
		   const struct event_list *events, struct error *err)
{
	if (!rec)
		return 0;
	rec->len = 0;
	int state = rec->started ? append_state_changes(rec, snap, err) : append_header(rec, snap, err);
	if (state < 0 || append_sample(rec, snap, err) < 0)
		return -1;
	uint64_t seq = rec->last_seq;
	rec->last_seq = snap->seq;
	if (append_events(rec, &rec->early, err) < 0 || append_events(rec, events, err) < 0 ||
	    flush(rec, err) < 0) {
		rec->last_seq = seq;
		return -1;
	}
	rec->started = true;
	event_list_clear(&rec->early);
	/* Only what reached the file counts as stated; on ENOMEM it is stated again. */
	if (state && snapshot_copy(&rec->state, snap) < 0)
		return error_set(err, "%s: out of memory", rec->path);
	return 0;
}

int recorder_write_event(struct recorder *rec, const struct event *ev, struct error *err)
{
	if (!rec)
		return 0;
	if (!rec->started) {
		struct event *copy = event_list_add(&rec->early);
		if (!copy)
			return error_set(err, "%s: out of memory", rec->path);
		*copy = *ev;
		return 0;
	}
	rec->len = 0;
	if (append_record(rec, session_log_event(ev, rec->last_seq), err) < 0)
		return -1;
	return flush(rec, err);
}

void recorder_close(struct recorder *rec)
{
	if (!rec)
		return;
	close(rec->fd);
	snapshot_free(&rec->state);
	event_list_free(&rec->early);
	free(rec->buf);
	jsonw_free(&rec->line);
	free(rec->path);
	free(rec);
}
