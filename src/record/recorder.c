/* recorder.c - writes a session log as samples arrive (docs/session-log.md).
 *
 * Crash safety comes from the write pattern, not from fsync: everything one sample
 * produces (a devices or mounts record when they changed, the sample, its events)
 * is rendered into one buffer and handed to the kernel with a single write() on an
 * O_APPEND descriptor.  A kill -9 can only lose what was never written; a crash of
 * the machine can at worst tear the last line, which replay ignores.  If a write
 * fails half-way (disk full), the file is cut back to the last whole record so the
 * next sample does not glue onto a torn line.
 *
 * The log's directory is opened once (dirpath_open_parent: no symlink but root's or the
 * user's own on the way) and the file made, found and removed in it, never by its path.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dirpath.h"
#include "grow.h"
#include "json_text.h"
#include "log_decompress.h"
#include "machine.h"
#include "recorder.h"
#include "session_log.h"
#include "sink.h"

struct recorder {
	struct sink sink;        /* first: the session's view of it (recorder_sink) */
	int fd;
	bool sync;
	bool regular;            /* a regular file: locked, cut back after a torn write */
	bool created;            /* made by recorder_open: removed again if nothing was written */
	bool discard;            /* recorder_discard: removed again whatever was written */
	bool newline_first;      /* appending to a file whose last line is torn */
	char *path;              /* as given, for messages */
	int dirfd;               /* its directory, opened once; -1: standard output */
	char name[NAME_MAX + 1]; /* its last component, in dirfd */
	bool started;            /* the header is written */
	off_t size;              /* bytes of whole records in the file */
	uint64_t last_seq;
	struct snapshot state;   /* device list and mounts as the log last stated them */
	struct event_list early; /* events before the first sample: written after it */
	char *buf;               /* what the next write() hands over */
	size_t len, cap;
	char *pending;           /* event lines a failed write did not deliver */
	size_t pending_len, pending_cap;
	size_t events_lost;      /* events dropped because pending was full */
	struct error failure;    /* why the last write failed; empty after a success */
	struct jsonw line;       /* the sample line, reused */
	struct selection selection;
	bool has_selection;      /* recorder_set_selection was called */
};

void recorder_set_selection(struct recorder *rec, const struct selection *sel)
{
	rec->selection = *sel;
	rec->has_selection = true;
}

/* Events kept while the disk is full: a day of marks and changes is far below this. */
#define PENDING_MAX (1u << 20)

static int refuse_existing(const char *path, enum recorder_mode mode, struct error *err)
{
	if (mode == RECORDER_NEW)
		return error_set(err, "%s exists: not overwritten (give a new name, or "
				 "--record-append to add a session to it)", path);
	return 0;
}

/* Opens what already is at the name: a regular file only to append, a FIFO or a pipe
 * (also behind a /dev/fd link, as bash's >(xz > f) gives) or a character device
 * named as such (/dev/null) to stream. */
static int open_existing(struct recorder *rec, enum recorder_mode mode, struct error *err)
{
	struct stat st;
	if (fstatat(rec->dirfd, rec->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return error_errno(err, rec->path, errno);
	bool link = S_ISLNK(st.st_mode);
	if (link && (fstatat(rec->dirfd, rec->name, &st, 0) < 0 ||
		     (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))))
		return error_set(err, "%s is a symbolic link: not followed for writing (give the "
				 "file it points to, if that is meant)", rec->path);
	if (S_ISREG(st.st_mode) && refuse_existing(rec->path, mode, err) < 0)
		return -1;
	/* O_NONBLOCK: a FIFO without a reader fails at once instead of hanging */
	/* read too: the last byte of a file appended to is looked at (check_last_byte) */
	int flags = (S_ISREG(st.st_mode) ? O_RDWR : O_WRONLY) | O_APPEND | O_CLOEXEC | O_NOCTTY |
		    O_NONBLOCK | (link ? 0 : O_NOFOLLOW);
	rec->fd = openat(rec->dirfd, rec->name, flags);
	if (rec->fd < 0)
		return errno == ENXIO ? error_set(err, "%s: a FIFO without a reader: start the "
						  "reader first", rec->path)
				      : error_errno(err, rec->path, errno);
	if (fstat(rec->fd, &st) < 0)
		return error_errno(err, rec->path, errno);
	if (link && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
		return error_set(err, "%s is a symbolic link: not followed for writing (give the "
				 "file it points to, if that is meant)", rec->path);
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode) &&
	    !S_ISCHR(st.st_mode))
		return error_set(err, "%s: not a regular file, a FIFO or a pipe", rec->path);
	rec->regular = S_ISREG(st.st_mode);
	rec->size = st.st_size;
	int fl = fcntl(rec->fd, F_GETFL);
	if (fl < 0 || fcntl(rec->fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return error_errno(err, rec->path, errno);
	return 0;
}

/* A new file, never through a symlink and never over a file that appeared meanwhile. */
static int open_new(struct recorder *rec, struct error *err)
{
	rec->fd = openat(rec->dirfd, rec->name,
			 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0644);
	if (rec->fd < 0)
		return errno == EEXIST ? -2 : error_errno(err, rec->path, errno);
	rec->created = rec->regular = true;
	return 0;
}

/* Two recorders on one file would interleave their samples. */
static int lock_file(struct recorder *rec, struct error *err)
{
	if (!rec->regular)
		return 0;
	if (flock(rec->fd, LOCK_EX | LOCK_NB) == 0)
		return 0;
	if (errno == EWOULDBLOCK)
		return error_set(err, "%s: another ioscope is recording to it (the file is locked)",
				 rec->path);
	return error_errno(err, rec->path, errno);
}

/* Appending after a torn last line (a crash): start on a line of our own. */
static void check_last_byte(struct recorder *rec)
{
	char last;
	if (rec->regular && rec->size > 0 && pread(rec->fd, &last, 1, rec->size - 1) == 1)
		rec->newline_first = last != '\n';
}

/* A session added to what is not a session log (a compressed log, any other file) could
 * never be read back: refused before the first sample, the file untouched. */
static int check_appendable(struct recorder *rec, struct error *err)
{
	if (!rec->regular || rec->created || rec->size == 0)
		return 0;
	const char *codec = log_compression(rec->fd);
	if (codec)
		return error_set(err, "%s is %s-compressed: a session appended to it could "
				 "never be read back; decompress it first, or record to a new "
				 "file", rec->path, codec);
	struct error why;
	if (session_log_check_header(rec->fd, rec->path, &why) < 0)
		return error_set(err, "%s; a session appended to it could never be read back: "
				 "record to a new file", why.msg);
	return 0;
}

/* In the directory opened once (dirfd: the caller's, kept as a copy; -1: path's, walked
 * by dirpath_open_parent): the file is made and found there, so a directory swapped for
 * a symlink later is never written through. */
static int open_output(struct recorder *rec, int dirfd, enum recorder_mode mode,
		       struct error *err)
{
	if (dirfd < 0 && strcmp(rec->path, "-") == 0) {
		if (isatty(STDOUT_FILENO))
			return error_set(err, "--record -: standard output is a terminal (pipe it, "
					 "e.g. | xz > session.log.xz)");
		rec->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		return rec->fd < 0 ? error_errno(err, "standard output", errno) : 0;
	}
	if (dirfd >= 0)
		rec->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	else
		rec->dirfd = dirpath_open_parent(rec->path, rec->name, sizeof rec->name, err);
	if (rec->dirfd < 0)
		return dirfd >= 0 ? error_errno(err, rec->path, errno) : -1;
	int r = open_new(rec, err);
	if (r == -2)
		r = open_existing(rec, mode, err);
	if (r < 0 || lock_file(rec, err) < 0 || check_appendable(rec, err) < 0)
		return -1;
	check_last_byte(rec);
	return 0;
}

static struct recorder *open_recorder(int dirfd, const char *name, const char *path,
				      enum recorder_mode mode, bool sync, struct error *err)
{
	struct recorder *rec = calloc(1, sizeof *rec);
	if (!rec || !(rec->path = strdup(path))) {
		free(rec);
		error_set(err, "%s: out of memory", path);
		return NULL;
	}
	rec->fd = rec->dirfd = -1;
	rec->sync = sync;
	snprintf(rec->name, sizeof rec->name, "%s", name ? name : "");
	snapshot_init(&rec->state);
	event_list_init(&rec->early);
	if (open_output(rec, dirfd, mode, err) < 0) {
		recorder_close(rec);
		return NULL;
	}
	return rec;
}

struct recorder *recorder_open(const char *path, enum recorder_mode mode, bool sync,
			       struct error *err)
{
	return open_recorder(-1, NULL, path, mode, sync, err);
}

struct recorder *recorder_open_in(int dirfd, const char *name, const char *path,
				  enum recorder_mode mode, bool sync, struct error *err)
{
	if (strlen(name) > NAME_MAX || !name[0] || strchr(name, '/')) {
		error_set(err, "%s: not a file name of its directory", path);
		return NULL;
	}
	return open_recorder(dirfd, name, path, mode, sync, err);
}

static int reserve(struct recorder *rec, size_t more)
{
	if (rec->len + more <= rec->cap)
		return 0;
	return grow_array(&rec->buf, &rec->cap, rec->len + more, 1, 4096, NULL);
}

/* Renders o as one line into the buffer and releases it. */
static int append_record(struct recorder *rec, json_object *o, struct error *err)
{
	if (!o)
		return error_set(err, "%s: out of memory", rec->path);
	struct json_text t = json_text_of(o, JSON_TEXT_LINE);
	size_t n = t.len;
	int r = t.text && reserve(rec, n + 1) == 0 ? 0 : -1;
	if (r == 0) {
		memcpy(rec->buf + rec->len, t.text, n);
		rec->buf[rec->len + n] = '\n';
		rec->len += n + 1;
	}
	json_text_free(&t);
	json_object_put(o);
	return r < 0 ? error_set(err, "%s: out of memory", rec->path) : 0;
}

static int append_sample(struct recorder *rec, const struct snapshot *snap, struct error *err)
{
	jsonw_reset(&rec->line);
	if (session_log_format_sample(snap, &rec->line) < 0 ||
	    session_log_format_attached(snap, &rec->line) < 0 || reserve(rec, rec->line.len) < 0)
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
			if (done && rec->regular && ftruncate(rec->fd, rec->size) < 0)
				e = errno;
			rec->len = 0;
			return error_errno(err, rec->path, e);
		}
		done += (size_t)n;
	}
	rec->size += (off_t)rec->len;
	rec->len = 0;
	if (rec->sync && rec->regular && fdatasync(rec->fd) < 0) {
		error_errno(err, rec->path, errno);
		return -2;   /* written, not synced: nothing to write again */
	}
	return 0;
}

/* Event lines from buf[from] on are kept for the next write that gets through: an
 * event keeps its own time (and its seq), it is only written later. */
static void keep_pending(struct recorder *rec, const char *lines, size_t n)
{
	if (n == 0)
		return;
	if (rec->pending_len + n > PENDING_MAX) {
		rec->events_lost++;
		return;
	}
	if (grow_array(&rec->pending, &rec->pending_cap, rec->pending_len + n, 1, 4096, NULL) < 0) {
		rec->events_lost++;
		return;
	}
	memcpy(rec->pending + rec->pending_len, lines, n);
	rec->pending_len += n;
}

static int append_pending(struct recorder *rec, struct error *err)
{
	if (!rec->pending_len)
		return 0;
	if (reserve(rec, rec->pending_len) < 0)
		return error_set(err, "%s: out of memory", rec->path);
	memcpy(rec->buf + rec->len, rec->pending, rec->pending_len);
	rec->len += rec->pending_len;
	return 0;
}

/* Writes the buffer; what from events_at on holds (event lines) survives a failure.
 * 0 written; -1 not written (err, failure set); -2 written but not synced. */
static int deliver(struct recorder *rec, size_t events_at, struct error *err)
{
	size_t len = rec->len;
	if (rec->newline_first && !rec->started) {
		if (reserve(rec, 1) < 0)
			return error_set(err, "%s: out of memory", rec->path);
		memmove(rec->buf + 1, rec->buf, rec->len++);
		rec->buf[0] = '\n';
		events_at++;
		len++;
	}
	int r = flush(rec, err);
	if (r == 0 || r == -2) {
		rec->pending_len = 0;
		if (r == 0)
			rec->failure.msg[0] = '\0';
		else
			rec->failure = *err;
		return r;
	}
	rec->pending_len = 0;   /* it is in the buffer, from events_at on */
	keep_pending(rec, rec->buf + events_at, len - events_at);
	rec->failure = *err;
	return -1;
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
	size_t events_at = rec->len;
	if (append_pending(rec, err) < 0 || append_events(rec, &rec->early, err) < 0 ||
	    append_events(rec, events, err) < 0) {
		rec->last_seq = seq;
		return -1;
	}
	int r = deliver(rec, events_at, err);
	if (r == -1) {
		/* the events are kept as lines now; the sample's number is not in the file */
		rec->last_seq = seq;
		if (!rec->started)
			rec->pending_len = 0;   /* without a header they are still in early */
		return -1;
	}
	rec->started = true;
	event_list_clear(&rec->early);
	/* Only what reached the file counts as stated; on ENOMEM it is stated again. */
	if (state && snapshot_copy(&rec->state, snap) < 0)
		return error_set(err, "%s: out of memory", rec->path);
	return r < 0 ? -1 : 0;   /* -2: written, but fdatasync failed */
}

int recorder_write_event(struct recorder *rec, const struct event *ev, struct error *err)
{
	if (!rec)
		return 0;
	if (!rec->started) {
		struct event *copy = event_list_add(&rec->early);
		if (!copy || event_copy(copy, ev) < 0)
			return error_set(err, "%s: out of memory", rec->path);
		return 0;
	}
	rec->len = 0;
	if (append_pending(rec, err) < 0 ||
	    append_record(rec, session_log_event(ev, rec->last_seq), err) < 0)
		return -1;
	return deliver(rec, 0, err) < 0 ? -1 : 0;
}

int recorder_write_announced(struct recorder *rec, const struct event *ev, bool withdrawn,
			     struct error *err)
{
	if (!rec || !rec->started)
		return 0;   /* before the first sample a change holds nothing a replay shows */
	rec->len = 0;
	if (append_pending(rec, err) < 0 ||
	    append_record(rec, session_log_announced(ev, rec->last_seq, withdrawn), err) < 0)
		return -1;
	return deliver(rec, 0, err) < 0 ? -1 : 0;
}

const char *recorder_failure(const struct recorder *rec)
{
	return rec && rec->failure.msg[0] ? rec->failure.msg : NULL;
}

const char *recorder_path(const struct recorder *rec)
{
	return rec->path;
}

void recorder_discard(struct recorder *rec)
{
	if (rec)
		rec->discard = true;
}

/* A file made for a run that ended before its first record (a bad argument, no
 * terminal) is removed: nothing was recorded, nothing is left behind. */
static void forget_unused(struct recorder *rec)
{
	struct stat st, now;
	if (!rec->created || fstat(rec->fd, &st) < 0)
		return;
	if (!rec->discard && (rec->size > 0 || st.st_size > 0))
		return;
	if (fstatat(rec->dirfd, rec->name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
	    now.st_dev == st.st_dev && now.st_ino == st.st_ino)
		unlinkat(rec->dirfd, rec->name, 0);
}

void recorder_close(struct recorder *rec)
{
	if (!rec)
		return;
	if (rec->fd >= 0) {
		forget_unused(rec);
		close(rec->fd);
	}
	if (rec->dirfd >= 0)
		close(rec->dirfd);
	snapshot_free(&rec->state);
	event_list_free(&rec->early);
	free(rec->buf);
	free(rec->pending);
	jsonw_free(&rec->line);
	free(rec->path);
	free(rec);
}

/* ---- the recorder as a session's sink (sink.h) ---- */

static struct recorder *of_sink(const struct sink *sink)
{
	return (struct recorder *)sink;   /* the first member */
}

static void sink_start(struct sink *sink, const struct selection *sel)
{
	recorder_set_selection(of_sink(sink), sel);
}

static int sink_sample(struct sink *sink, const struct sink_sample *sample, struct error *err)
{
	return recorder_write(of_sink(sink), sample->snap, sample->events, err);
}

static int sink_event(struct sink *sink, const struct event *ev, struct error *err)
{
	return recorder_write_event(of_sink(sink), ev, err);
}

static int sink_announced(struct sink *sink, const struct event *ev, bool withdrawn,
			  struct error *err)
{
	return recorder_write_announced(of_sink(sink), ev, withdrawn, err);
}

static const char *sink_failed(const struct sink *sink)
{
	return recorder_failure(of_sink(sink));
}

static void sink_closed(struct sink *sink)
{
	recorder_close(of_sink(sink));
}

static const struct sink_ops recorder_sink_ops = {
	.on_start = sink_start,
	.on_sample = sink_sample,
	.on_event = sink_event,
	.on_announced = sink_announced,
	.failure = sink_failed,
	.close = sink_closed,
};

struct sink *recorder_sink(struct recorder *rec)
{
	if (!rec)
		return NULL;
	rec->sink.ops = &recorder_sink_ops;
	return &rec->sink;
}
