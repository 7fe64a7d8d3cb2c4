/* replay.c - a session log opened for random access (include/replay.h).
 *
 * Opening scans the file once.  Sample lines, which are nearly all of it, are not
 * parsed: the recorder writes them with "type", "seq", "mono", "wall" first, and a
 * few byte comparisons read those (anything written differently, by hand or by
 * jq, takes the slow path through the JSON parser).  The index keeps, per sample,
 * where its line is, its times, and which devices and mounts records were in force,
 * so reading sample i parses at most three lines.  Events, devices and mounts
 * records are rare; they are parsed (validated) during the scan.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "announce.h"
#include "grow.h"
#include "line_scanner.h"
#include "log_decompress.h"
#include "replay.h"
#include "session_log.h"
#include "session_log_sample.h"
#include "text.h"

struct sample_entry {
	uint64_t offset, line;
	int64_t mono, wall;
	uint32_t length;
	uint32_t devices, mounts;   /* index into states[]; 0 is the header */
	bool damaged;               /* failed to parse when read */
	uint8_t nattached;          /* records of more of it (tasks, why...), from attached[first] */
	uint32_t attached_first;
};

/* A record that carries more of the sample before it (session_sample_records[]): read
 * only when its sample is. */
struct attached_entry {
	uint64_t offset, line;
	uint32_t length;
	uint8_t type;               /* enum session_record */
	bool damaged;               /* failed to parse when read (warned once) */
};

/* An event of the index: ~40 bytes and its strings, where a struct event was 3 KB
 * (a day of hot-plug churn, 380k events, took 1.2 GB).  The strings (object, key,
 * old, new, result, by) follow each other NUL-terminated in events_text; a later
 * field is one more string at the end.  replay_event_get() points a view's texts at
 * them. */
struct event_entry {
	uint64_t text;              /* offset of its strings in events_text */
	int64_t mono, wall;
	/* "n": its number in its session, 0 when the log has none (or past 2^32: numbered by
	 * its place then); and its sample: 32 bits each keep an entry at 40 bytes (a day of
	 * churn is 380k events) */
	uint32_t number;
	uint32_t sample;
	uint8_t kind;
	bool derivable;
	uint8_t nresets;            /* a switch's resets: their strings follow the event's */
	uint32_t resets_dropped;
};

/* A change announced or withdrawn (RECORD_ANNOUNCED): read back when its sample is. */
struct announced_entry {
	uint64_t offset;
	uint32_t length;
	size_t sample;              /* the sample after it, whose observations it holds */
};

struct state_entry {
	uint64_t offset, line;
	uint32_t length;
	enum session_record type;   /* RECORD_DEVICES, RECORD_MOUNTS or a later RECORD_HEADER */
};

struct replay {
	int fd;
	bool owned;
	char *name;
	struct replay_machine machine;
	struct snapshot header;          /* device list and mounts of the header */
	struct sample_entry *samples;
	size_t nsamples, samples_cap;
	struct attached_entry *attached;
	size_t nattached, attached_cap;
	struct announced_entry *announced;
	size_t nannounced, announced_cap;
	struct state_entry *states;
	size_t nstates, states_cap;
	struct event_entry *events;
	size_t nevents, events_cap;
	char *events_text;
	size_t events_text_len, events_text_cap;
	uint64_t last_text;              /* offset of the strings packed last */
	struct replay_skipped skipped;   /* what a later revision wrote that we do not know */
	bool switch_without_resets;      /* the last event: a switch of a log before "resets" */
	char *warnings[REPLAY_WARNINGS_MAX];
	size_t nwarnings, warnings_total;
	size_t pos;
	uint32_t devices_now, mounts_now;  /* in force while scanning */
	int64_t last_seq;                  /* of the last sample scanned, -1: none in this session */
	size_t session_first;              /* first sample of the session being scanned */
	uint32_t devices_cached, mounts_cached;
	struct snapshot devices_state, mounts_state;
	char *line;                        /* one line read back for parsing */
	size_t line_cap;
	char *ahead;                       /* READ_AHEAD bytes of the file from ahead_at */
	uint64_t ahead_at, ahead_len, last_end;   /* last_end: where the last line read ended */
	json_tokener *tok;
	const char *damage;                /* while opening: why decompression stopped, or NULL */
};

static void warn(struct replay *r, uint64_t line, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Takes msg (malloc'd, or NULL). */
static void add_warning(struct replay *r, char *msg)
{
	r->warnings_total++;
	if (r->nwarnings == REPLAY_WARNINGS_MAX || !msg) {
		free(msg);
		return;
	}
	r->warnings[r->nwarnings++] = msg;
}

static void warn(struct replay *r, uint64_t line, uint64_t offset, const char *fmt, ...)
{
	char what[768], *msg;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (asprintf(&msg, "%s: line %llu (offset %llu): %s", r->name, (unsigned long long)line,
		     (unsigned long long)offset, what) < 0)
		msg = NULL;
	add_warning(r, msg);
}

static json_object *parse_line(struct replay *r, const char *text, size_t len, struct error *err)
{
	return session_log_parse_line(r->tok, text, len, err);
}

/* ---- the index scan ---- */

static bool scan_digits(const char **p, const char *end, bool sign, int64_t *out)
{
	const char *q = *p;
	bool neg = sign && q < end && *q == '-';
	q += neg;
	int64_t v = 0;
	int n = 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++, n++) {
		if (v > (INT64_MAX - (*q - '0')) / 10)
			return false;    /* let the JSON parser judge */
		v = v * 10 + (*q - '0');
	}
	if (n == 0)
		return false;
	*out = neg ? -v : v;
	*p = q;
	return true;
}

static bool scan_literal(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(end - *p) < n || memcmp(*p, lit, n) != 0)
		return false;
	*p += n;
	return true;
}

/* The recorder's own sample lines, without a JSON parser. */
static bool fast_sample_times(const char *text, size_t len, int64_t *seq, int64_t *mono,
			      int64_t *wall)
{
	const char *p = text, *end = text + len;
	return len > 2 && text[len - 1] == '}' &&
	       scan_literal(&p, end, "{\"type\":\"sample\",\"seq\":") &&
	       scan_digits(&p, end, false, seq) &&
	       scan_literal(&p, end, ",\"mono\":") && scan_digits(&p, end, true, mono) &&
	       scan_literal(&p, end, ",\"wall\":") && scan_digits(&p, end, true, wall) &&
	       p < end && *p == ',';
}

static int fast_type(const char *text, size_t len)
{
	static const char head[] = "{\"type\":\"";
	if (len < sizeof head || memcmp(text, head, sizeof head - 1) != 0)
		return -1;
	const char *name = text + sizeof head - 1, *end = memchr(name, '"', len - (sizeof head - 1));
	if (!end || end + 1 >= text + len || end[1] != ',')
		return -1;
	for (int t = RECORD_DEVICES; t < RECORD_UNKNOWN; t++) {
		const char *known = session_record_name((enum session_record)t);
		if (t != RECORD_SAMPLE && strlen(known) == (size_t)(end - name) &&
		    memcmp(name, known, (size_t)(end - name)) == 0)
			return t;
	}
	return -1;
}

/* Sample numbers only grow within a recording; one that does not (two recorders on
 * one file, logs joined without their header) starts a new session there. */
static void check_seq(struct replay *r, const struct scanned_line *l, int64_t seq)
{
	if (seq < 0)
		return;
	if (r->last_seq >= 0 && seq <= r->last_seq) {
		warn(r, l->number, l->offset, "sample %lld follows sample %lld (two recordings in "
		     "one file?): a new session starts here", (long long)seq, (long long)r->last_seq);
		r->session_first = r->nsamples;
	}
	r->last_seq = seq;
}

static int add_sample(struct replay *r, const struct scanned_line *l, int64_t seq, int64_t mono,
		      int64_t wall)
{
	if (grow_array(&r->samples, &r->samples_cap, r->nsamples + 1, sizeof *r->samples, 64,
		       NULL) < 0)
		return -1;
	check_seq(r, l, seq);
	r->samples[r->nsamples++] = (struct sample_entry){
		.offset = l->offset, .line = l->number, .mono = mono, .wall = wall,
		.length = (uint32_t)l->len, .devices = r->devices_now, .mounts = r->mounts_now,
	};
	return 0;
}

static int add_state(struct replay *r, const struct scanned_line *l, enum session_record type)
{
	if (grow_array(&r->states, &r->states_cap, r->nstates + 1, sizeof *r->states, 64, NULL) < 0)
		return -1;
	r->states[r->nstates] = (struct state_entry){ .offset = l->offset, .line = l->number,
					      .length = (uint32_t)l->len, .type = type };
	if (type == RECORD_HEADER) {
		r->last_seq = -1;
		r->session_first = r->nsamples;
	}
	if (type != RECORD_MOUNTS)
		r->devices_now = (uint32_t)r->nstates;
	if (type != RECORD_DEVICES)
		r->mounts_now = (uint32_t)r->nstates;
	r->nstates++;
	return 0;
}

/* Append one NUL-terminated string to events_text. */
static int pack_string(struct replay *r, const char *str)
{
	size_t n = strlen(str) + 1;
	if (grow_array(&r->events_text, &r->events_text_cap, r->events_text_len + n, 1, 64, NULL) < 0)
		return -1;
	memcpy(r->events_text + r->events_text_len, str, n);
	r->events_text_len += n;
	return 0;
}

/* The strings of an event, in the order replay_event_get() reads them back: object,
 * key, old, new, result, by, then per reset its key (after one character '0'..'3':
 * had_old + 2 * has_new), old and new value, then the reasons and the scope.  Returns
 * the offset of the first. */
static int pack_strings(struct replay *r, const struct event *ev, uint64_t *text)
{
	*text = r->events_text_len;
	const char *s[] = { ev->object, ev->key, ev->old_value, ev->new_value, ev->result, ev->by };
	for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
		if (pack_string(r, s[i]) < 0)
			return -1;
	for (size_t i = 0; i < ev->nresets && i < EVENT_RESETS_MAX; i++) {
		const struct event_reset *x = &ev->resets[i];
		char key[sizeof x->key + 1];
		snprintf(key, sizeof key, "%c%s", '0' + x->had_old + 2 * x->has_new, x->key);
		if (pack_string(r, key) < 0 || pack_string(r, x->old_value) < 0 ||
		    pack_string(r, x->new_value) < 0)
			return -1;
	}
	if (pack_string(r, ev->reasons) < 0 || pack_string(r, ev->scope) < 0)
		return -1;
	r->last_text = *text;
	return 0;
}

/* The index entry of ev, its strings at offset text. */
static struct event_entry event_entry_of(const struct event *ev, uint64_t text, size_t sample,
					 bool derivable)
{
	size_t nresets = ev->nresets < EVENT_RESETS_MAX ? ev->nresets : EVENT_RESETS_MAX;
	return (struct event_entry){
		.text = text, .mono = timespec_to_ns(&ev->mono), .wall = timespec_to_ns(&ev->wall),
		.number = ev->number <= UINT32_MAX ? (uint32_t)ev->number : 0,
		.sample = (uint32_t)sample, .kind = (uint8_t)ev->kind, .derivable = derivable,
		.nresets = (uint8_t)nresets,
		.resets_dropped = ev->resets_dropped > UINT32_MAX ? UINT32_MAX
								 : (uint32_t)ev->resets_dropped,
	};
}

/* An event belongs to the sample before it in the file, unless its own time is
 * earlier: the recorder writes the events of a failed write (a full disk) once a
 * write succeeds again, and they keep the time they happened at.  An observed change
 * belongs to the first sample at or after it (it happened in the interval ending
 * there), a mark or a change of ioscope's to the last sample before it. */
static size_t event_sample(const struct replay *r, const struct event *ev, bool derivable)
{
	size_t i = r->nsamples ? r->nsamples - 1 : 0;
	int64_t mono = (int64_t)ev->mono.tv_sec * 1000000000 + ev->mono.tv_nsec;
	if (mono <= 0)
		return i;
	if (derivable) {
		while (i > r->session_first && r->samples[i - 1].mono >= mono)
			i--;
		return i;
	}
	while (i > r->session_first && r->samples[i].mono > mono)
		i--;
	return i;
}

/* Count one thing of a later revision under its name (the first few names kept). */
static void count_skipped(struct replay_skip_count *c, const char *name)
{
	c->total++;
	for (size_t i = 0; i < c->nnames; i++)
		if (strcmp(c->names[i], name) == 0)
			return;
	if (c->nnames < REPLAY_SKIP_NAMES)
		snprintf(c->names[c->nnames++], sizeof c->names[0], "%s", name);
}

/* Logs written before events carried resets list the nr_requests a switch reset as a
 * tunable event right after the switch: read it as the switch's reset, so an old log
 * gives one mark per change too. */
static bool fold_old_reset(struct replay *r, const struct event *ev)
{
	if (!r->switch_without_resets || !r->nevents || ev->kind != EVENT_TUNABLE ||
	    !event_key_is_reset(ev->key))
		return false;
	struct event_entry *e = &r->events[r->nevents - 1];
	if (e->sample != (r->nsamples ? r->nsamples - 1 : 0) || e->kind != EVENT_SCHEDULER)
		return false;
	/* Packed: decode the switch, add the reset, pack it again (over its old strings
	 * when they are the last packed, as they are unless events came out of order).
	 * The decoded view's texts are the ones packed over: a copy of it is packed. */
	struct replay_event *view = malloc(sizeof *view);
	struct event sw;
	event_init(&sw);
	bool same = false;
	if (view && replay_event_get(r, r->nevents - 1, view) == 0 &&
	    event_copy(&sw, &view->event) == 0)
		same = strcmp(sw.object, ev->object) == 0 && strcmp(sw.by, ev->by) == 0;
	if (same) {
		event_add_reset(&sw, ev->key, ev->old_value[0] ? ev->old_value : NULL,
				ev->new_value[0] ? ev->new_value : NULL);
		size_t len = r->events_text_len;
		uint64_t text;
		if (e->text == r->last_text)
			r->events_text_len = e->text;
		if (pack_strings(r, &sw, &text) < 0) {
			r->events_text_len = len;   /* the old strings are still there */
			same = false;               /* kept as a tunable event then */
		} else {
			*e = event_entry_of(&sw, text, e->sample, e->derivable);
		}
	}
	event_free(&sw);
	free(view);
	return same;
}

/* Place a parsed event in the index (kept in sample order: replay_event_after()
 * searches it). */
static int store_event(struct replay *r, const struct event *ev)
{
	if (grow_array(&r->events, &r->events_cap, r->nevents + 1, sizeof *r->events, 64, NULL) < 0)
		return -1;
	struct event_entry *v = r->events;
	uint64_t text;
	if (pack_strings(r, ev, &text) < 0)
		return -1;
	bool derivable = event_is_derivable(ev);
	size_t sample = event_sample(r, ev, derivable);
	size_t at = r->nevents;
	while (at > 0 && v[at - 1].sample > sample)
		at--;
	memmove(v + at + 1, v + at, (r->nevents - at) * sizeof *v);
	r->nevents++;
	v[at] = event_entry_of(ev, text, sample, derivable);
	return 0;
}

static int add_event(struct replay *r, json_object *o, const struct scanned_line *l)
{
	struct error err;
	struct event ev;
	int rc = session_log_parse_event(o, &ev, &err);
	if (rc < 0)
		warn(r, l->number, l->offset, "event skipped: %s", err.msg);
	else if (rc > 0)
		count_skipped(&r->skipped.event_kinds, err.msg);
	if (rc != 0 || fold_old_reset(r, &ev)) {
		event_free(&ev);
		return 0;
	}
	r->switch_without_resets = ev.kind == EVENT_SCHEDULER &&
				   !json_object_object_get_ex(o, "resets", NULL);
	rc = store_event(r, &ev);
	event_free(&ev);
	return rc;
}

/* Parses a state record into a scratch snapshot: only the valid ones count. */
static bool state_valid(json_object *o, enum session_record type, struct error *err)
{
	struct snapshot s;
	struct replay_machine m;
	snapshot_init(&s);
	int rc = type == RECORD_DEVICES ? session_log_parse_devices(o, &s, err)
	       : type == RECORD_MOUNTS  ? session_log_parse_mounts(o, &s, err)
					: session_log_parse_header(o, &m, &s, err);
	snapshot_free(&s);
	return rc == 0;
}

static int64_t sample_seq(json_object *o)
{
	json_object *v;
	if (!json_object_object_get_ex(o, "seq", &v) || !json_object_is_type(v, json_type_int))
		return -1;
	int64_t seq = json_object_get_int64(v);
	return seq >= 0 ? seq : -1;
}

/* A record with more of a sample belongs to the sample before it, which it must name;
 * one of each type per sample. */
static int add_attached(struct replay *r, const struct scanned_line *l, enum session_record type,
			int64_t seq)
{
	if (r->nsamples == r->session_first || seq != r->last_seq || l->len > UINT32_MAX) {
		warn(r, l->number, l->offset, "%s record of sample %lld not after that sample, "
		     "skipped", session_record_name(type), (long long)seq);
		return 0;
	}
	struct sample_entry *e = &r->samples[r->nsamples - 1];
	for (size_t i = 0; i < e->nattached; i++)
		if (r->attached[e->attached_first + i].type == type) {
			warn(r, l->number, l->offset, "a second %s record of sample %lld, skipped",
			     session_record_name(type), (long long)seq);
			return 0;
		}
	if (grow_array(&r->attached, &r->attached_cap, r->nattached + 1, sizeof *r->attached, 64,
		       NULL) < 0)
		return -1;
	struct attached_entry *v = r->attached;
	if (!e->nattached)
		e->attached_first = (uint32_t)r->nattached;
	e->nattached++;
	v[r->nattached++] = (struct attached_entry){ .offset = l->offset, .line = l->number,
						     .length = (uint32_t)l->len, .type = (uint8_t)type };
	return 0;
}

/* At most ANNOUNCE_TAKE_MAX before one sample, as a live session takes in one interval: a
 * crafted log of millions costs the replay no memory, and the rest replay as observed. */
static int add_announced(struct replay *r, const struct scanned_line *l)
{
	if (r->nannounced >= ANNOUNCE_TAKE_MAX &&
	    r->announced[r->nannounced - ANNOUNCE_TAKE_MAX].sample == r->nsamples) {
		warn(r, l->number, l->offset, "more than %d announced changes before one sample: "
		     "this one skipped", ANNOUNCE_TAKE_MAX);
		return 0;
	}
	if (grow_array(&r->announced, &r->announced_cap, r->nannounced + 1, sizeof *r->announced,
		       16, NULL) < 0)
		return -1;
	r->announced[r->nannounced++] = (struct announced_entry){
		.offset = l->offset, .length = (uint32_t)l->len, .sample = r->nsamples };
	return 0;
}

/* {"type":"NAME","seq":N, as the recorder writes such records: no JSON parser needed */
static bool fast_attached_seq(const char *text, size_t len, enum session_record type, int64_t *seq)
{
	const char *p = text, *end = text + len;
	return scan_literal(&p, end, "{\"type\":\"") &&
	       scan_literal(&p, end, session_record_name(type)) &&
	       scan_literal(&p, end, "\",\"seq\":") && scan_digits(&p, end, false, seq) && p < end &&
	       (*p == ',' || *p == '}');
}

/* A parsed line of any type.  -1 only on ENOMEM. */
static int index_record(struct replay *r, json_object *o, const struct scanned_line *l)
{
	struct error err;
	int64_t mono, wall;
	int type = session_record_type(o);
	if (type >= 0 && session_record_attaches((enum session_record)type))
		return add_attached(r, l, (enum session_record)type, sample_seq(o));
	switch (type) {
	case RECORD_SAMPLE:
		if (session_log_parse_sample_times(o, &mono, &wall, &err) < 0) {
			warn(r, l->number, l->offset, "sample skipped: %s", err.msg);
			return 0;
		}
		return add_sample(r, l, sample_seq(o), mono, wall);
	case RECORD_EVENT:
		return add_event(r, o, l);
	case RECORD_ANNOUNCED:
		return add_announced(r, l);
	case RECORD_HEADER:
	case RECORD_DEVICES:
	case RECORD_MOUNTS:
		if (!state_valid(o, (enum session_record)type, &err)) {
			warn(r, l->number, l->offset, "%s record skipped: %s",
			     session_record_name((enum session_record)type), err.msg);
			return 0;
		}
		if (type == RECORD_HEADER)
			warn(r, l->number, l->offset, "another header (logs joined together?): "
			     "its devices and mounts are used from here on");
		return add_state(r, l, (enum session_record)type);
	case RECORD_UNKNOWN:
		/* a record type of a later revision: skipped by design, counted for --verbose */
		count_skipped(&r->skipped.record_types, session_record_type_name(o));
		return 0;
	default:
		warn(r, l->number, l->offset, "not a session-log record (no \"type\"), skipped");
		return 0;
	}
}

static int index_line(struct replay *r, const struct scanned_line *l)
{
	struct error err;
	if (l->too_long) {
		warn(r, l->number, l->offset, "line longer than %u MiB, skipped", LINE_SCANNER_MAX >> 20);
		return 0;
	}
	if (l->len == 0)
		return 0;
	int64_t seq, mono, wall;
	if (l->complete && fast_sample_times(l->text, l->len, &seq, &mono, &wall))
		return add_sample(r, l, seq, mono, wall);
	int type = l->complete ? fast_type(l->text, l->len) : -1;
	if (type >= 0 && session_record_attaches((enum session_record)type) &&
	    fast_attached_seq(l->text, l->len, (enum session_record)type, &seq))
		return add_attached(r, l, (enum session_record)type, seq);
	json_object *o = parse_line(r, l->text, l->len, &err);
	if (!o) {
		if (l->complete)
			warn(r, l->number, l->offset, "%s, skipped", err.msg);
		else if (r->damage)   /* the compressed file's damage, not a recorder's stop */
			warn(r, l->number, l->offset, "the last record is cut where the compressed "
			     "data are damaged, ignored");
		else
			warn(r, l->number, l->offset, "the last record is incomplete (the "
			     "recorder was interrupted while writing it), ignored");
		return 0;
	}
	int rc = index_record(r, o, l);
	json_object_put(o);
	return rc;
}

/* A state record's device settings numbered by the record (its index among the states)
 * and the device's place in it: equal numbers are the same record, so the same settings,
 * and a sample's diff skips them as it does the live source's unchanged ones (a day log's
 * report compared every device's settings twice a sample).  0 (compare) past 2^20 - 1
 * devices. */
static void number_settings(struct snapshot *s, uint32_t idx)
{
	for (size_t i = 0; i < s->ndevices; i++)
		s->devices[i].settings.generation =
			i + 1 < (1u << 20) ? ((uint64_t)idx + 1) << 20 | (i + 1) : 0;
}

static int read_header(struct replay *r, struct line_scanner *s, struct error *err)
{
	struct scanned_line l;
	if (session_log_read_header(s, r->tok, r->name, &r->machine, &r->header, &l, err) < 0)
		/* what came out before the damage: "incomplete" would blame the recording */
		return r->damage ? error_set(err, "%s; not even the header is whole in them: the "
					     "compressed file is damaged", r->damage) : -1;
	/* states[0] stands for the header, which is kept parsed. */
	number_settings(&r->header, 0);
	return add_state(r, &l, RECORD_HEADER) < 0 ? error_set(err, "%s: out of memory", r->name) : 0;
}

static int build_index(struct replay *r, struct error *err)
{
	struct line_scanner s;
	struct scanned_line l;
	int errnum = 0, rc;
	line_scanner_init(&s, r->fd);
	rc = read_header(r, &s, err);
	while (rc == 0 && (rc = line_scanner_next(&s, &l, &errnum)) > 0)
		rc = index_line(r, &l) < 0 ? (errnum = ENOMEM, -1) : 0;
	line_scanner_free(&s);
	if (rc < 0 && errnum)
		return error_errno(err, r->name, errnum);
	return rc < 0 ? -1 : 0;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The nominal interval: the median step of the first samples. */
static double median_interval(const struct replay *r)
{
	double steps[101];
	size_t n = 0;
	for (size_t i = 1; i < r->nsamples && n < 101; i++)
		if (r->samples[i].mono > r->samples[i - 1].mono)
			steps[n++] = (double)(r->samples[i].mono - r->samples[i - 1].mono) / 1e9;
	if (n == 0)
		return 0;
	qsort(steps, n, sizeof steps[0], compare_double);
	return steps[n / 2];
}

/* damage: why decompression stopped (the warning log_decompress gave), or NULL: said first
 * of the warnings, and what the index finds cut is put down to it. */
static struct replay *open_indexed(int fd, const char *name, bool owned, const char *damage,
				   struct error *err)
{
	struct replay *r = calloc(1, sizeof *r);
	if (!r || !(r->name = strdup(name)) || !(r->tok = json_tokener_new())) {
		if (r)
			free(r->name);
		free(r);
		if (owned)
			close(fd);
		error_set(err, "%s: out of memory", name);
		return NULL;
	}
	r->fd = fd;
	r->owned = owned;
	r->devices_cached = r->mounts_cached = UINT32_MAX;
	r->last_seq = -1;
	r->damage = damage;
	if (damage)
		add_warning(r, strdup(damage));
	int rc = build_index(r, err);
	r->damage = NULL;
	if (rc < 0) {
		replay_close(r);
		return NULL;
	}
	r->machine.interval = median_interval(r);
	if (r->nsamples == 0)
		warn(r, 1, 0, "no complete sample in the log");
	return r;
}

struct replay *replay_open_fd(int fd, const char *name, bool owned, struct error *err)
{
	return open_indexed(fd, name, owned, NULL, err);
}

struct replay *replay_open(const char *path, struct error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error_errno(err, path, errno);
		return NULL;
	}
	char damage[1024];
	struct log_limits limits;
	int log_fd = log_limits_from_env(&limits, err) < 0
			     ? -1
			     : log_decompress(fd, path, &limits, damage, sizeof damage, err);
	if (log_fd != fd)
		close(fd);
	if (log_fd < 0)
		return NULL;
	return open_indexed(log_fd, path, true, damage[0] ? damage : NULL, err);
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	if (r->owned)
		close(r->fd);
	for (size_t i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	snapshot_free(&r->header);
	snapshot_free(&r->devices_state);
	snapshot_free(&r->mounts_state);
	if (r->tok)
		json_tokener_free(r->tok);
	free(r->samples);
	free(r->states);
	free(r->events);
	free(r->events_text);
	free(r->attached);
	free(r->announced);
	free(r->line);
	free(r->ahead);
	free(r->name);
	free(r);
}

/* ---- reading samples ---- */

/* Lines read in the file's order (a report's walk, a replay played on) come from a window
 * read ahead: a pread a line made a report of a day log (two walks of 86,400 samples)
 * 174,000 system calls, 4,200 this way with the index's own.  A line read out of order
 * (a seek, a devices record) is read alone, as before. */
#define READ_AHEAD (256u * 1024u)

/* Whether the window holds [offset, offset + length), read again from offset when the line
 * follows the last one read (within a window's length after its end). */
static bool in_window(struct replay *r, uint64_t offset, uint32_t length)
{
	bool held = r->ahead_len && offset >= r->ahead_at &&
		    offset + length <= r->ahead_at + r->ahead_len;
	if (held || length > READ_AHEAD / 2 || offset < r->last_end ||
	    offset - r->last_end > READ_AHEAD || !r->last_end)
		return held;
	if (!r->ahead && !(r->ahead = malloc(READ_AHEAD)))
		return false;
	ssize_t n;
	do
		n = pread(r->fd, r->ahead, READ_AHEAD, (off_t)offset);
	while (n < 0 && errno == EINTR);
	r->ahead_at = offset;
	r->ahead_len = n > 0 ? (uint64_t)n : 0;
	return offset + length <= r->ahead_at + r->ahead_len;
}

/* The line's bytes into r->line, NUL-terminated. */
static const char *read_bytes(struct replay *r, uint64_t offset, uint32_t length, struct error *err)
{
	if (length + 1 > r->line_cap) {
		char *b = realloc(r->line, (size_t)length + 1);
		if (!b) {
			error_set(err, "out of memory");
			return NULL;
		}
		r->line = b;
		r->line_cap = (size_t)length + 1;
	}
	bool ahead = in_window(r, offset, length);
	r->last_end = offset + length;
	if (ahead) {
		memcpy(r->line, r->ahead + (offset - r->ahead_at), length);
		r->line[length] = '\0';
		return r->line;
	}
	size_t done = 0;
	while (done < length) {
		ssize_t n = pread(r->fd, r->line + done, length - done, (off_t)(offset + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			error_set(err, "%s", n < 0 ? strerror(errno) : "the file became shorter");
			return NULL;
		}
		done += (size_t)n;
	}
	r->line[length] = '\0';
	return r->line;
}

static json_object *read_line(struct replay *r, uint64_t offset, uint32_t length, struct error *err)
{
	const char *text = read_bytes(r, offset, length, err);
	return text ? parse_line(r, text, length, err) : NULL;
}

/* The recorder's own lines by the scanner; anything else (an older writer's, a
 * damaged one) by the JSON reader, which also says what is wrong. */
static int read_sample(struct replay *r, const struct sample_entry *e, const struct snapshot *devices,
		       const struct snapshot *mounts, struct snapshot *out, struct error *err)
{
	const char *text = read_bytes(r, e->offset, e->length, err);
	if (!text)
		return -1;
	int rc = session_log_scan_sample(text, e->length, devices, mounts, out, err);
	if (rc != 0)
		return rc == 1 ? 0 : -1;
	json_object *o = parse_line(r, text, e->length, err);
	rc = o ? session_log_parse_sample(o, devices, mounts, out, err) : -1;
	json_object_put(o);
	return rc;
}

/* The device list (want_devices) or mounts in force for state index idx. */
static const struct snapshot *state_at(struct replay *r, uint32_t idx, bool want_devices,
				       struct error *err)
{
	if (idx == 0)
		return &r->header;
	uint32_t *cached = want_devices ? &r->devices_cached : &r->mounts_cached;
	struct snapshot *into = want_devices ? &r->devices_state : &r->mounts_state;
	if (*cached == idx)
		return into;
	const struct state_entry *st = &r->states[idx];
	json_object *o = read_line(r, st->offset, st->length, err);
	if (!o)
		return NULL;
	struct replay_machine m;
	snapshot_free(into);
	*cached = UINT32_MAX;
	int rc = st->type == RECORD_HEADER ? session_log_parse_header(o, &m, into, err)
	       : want_devices ? session_log_parse_devices(o, into, err)
			      : session_log_parse_mounts(o, into, err);
	json_object_put(o);
	if (rc < 0)
		return NULL;
	number_settings(into, idx);
	*cached = idx;
	return into;
}

/* The records with more of the sample into out; a damaged one is warned about once and
 * costs only what it carries (the rest of the sample is good). */
static void read_attached(struct replay *r, const struct sample_entry *e, struct snapshot *out)
{
	for (size_t i = 0; i < e->nattached; i++) {
		struct attached_entry *a = &r->attached[e->attached_first + i];
		struct error why = { "" };
		json_object *o = read_line(r, a->offset, a->length, &why);
		int rc = o ? session_log_parse_attached((enum session_record)a->type, o, out, &why) : -1;
		json_object_put(o);
		if (rc < 0 && !a->damaged)
			warn(r, a->line, a->offset, "%s record skipped: %s",
			     session_record_name((enum session_record)a->type), why.msg);
		a->damaged = rc < 0;
	}
}

int replay_read(struct replay *r, size_t i, struct snapshot *out, struct error *err)
{
	if (i >= r->nsamples)
		return error_set(err, "%s: no sample %zu (the log has %zu)", r->name, i + 1, r->nsamples);
	struct sample_entry *e = &r->samples[i];
	struct error why = { "" };
	const struct snapshot *devices = state_at(r, e->devices, true, &why);
	const struct snapshot *mounts = devices ? state_at(r, e->mounts, false, &why) : NULL;
	int rc = mounts ? read_sample(r, e, devices, mounts, out, &why) : -1;
	if (rc == 0) {
		read_attached(r, e, out);
		return 0;
	}
	if (!e->damaged)
		warn(r, e->line, e->offset, "sample skipped: %s", why.msg);
	e->damaged = true;
	return error_set(err, "%s: line %llu (offset %llu): %s", r->name, (unsigned long long)e->line,
			 (unsigned long long)e->offset, why.msg);
}

/* ---- positions, times, events, warnings ---- */

const struct replay_machine *replay_machine(const struct replay *r) { return &r->machine; }
const struct snapshot *replay_header_state(const struct replay *r) { return &r->header; }
size_t replay_count(const struct replay *r) { return r->nsamples; }
size_t replay_tell(const struct replay *r) { return r->pos; }

int replay_seek(struct replay *r, size_t i)
{
	if (i > r->nsamples)
		return -1;
	r->pos = i;
	return 0;
}

struct timespec replay_sample_mono(const struct replay *r, size_t i)
{
	return i < r->nsamples ? ns_to_timespec(r->samples[i].mono) : (struct timespec){ 0, 0 };
}

struct timespec replay_sample_wall(const struct replay *r, size_t i)
{
	return i < r->nsamples ? ns_to_timespec(r->samples[i].wall) : (struct timespec){ 0, 0 };
}

static size_t find_time(const struct replay *r, int64_t t, bool wall)
{
	size_t lo = 0, hi = r->nsamples;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t v = wall ? r->samples[mid].wall : r->samples[mid].mono;
		if (v < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t replay_find_mono(const struct replay *r, const struct timespec *t)
{
	return find_time(r, timespec_to_ns(t), false);
}

size_t replay_find_wall(const struct replay *r, const struct timespec *t)
{
	return find_time(r, timespec_to_ns(t), true);
}

const struct replay_skipped *replay_skipped(const struct replay *r)
{
	return &r->skipped;
}

static void print_skip_count(FILE *out, const char *path, const struct replay_skip_count *c,
			     const char *what)
{
	if (!c->total)
		return;
	/* the names come from the file: escaped (text.h) */
	text_printf(out, "ioscope: %s: skipped %zu %s this version does not know (", path,
		    c->total, what);
	for (size_t i = 0; i < c->nnames; i++)
		text_printf(out, "%s%s", i ? ", " : "", c->names[i]);
	fprintf(out, "%s)\n", c->nnames < REPLAY_SKIP_NAMES ? "" : ", ...");
}

void replay_print_skipped(const struct replay *r, const char *path, FILE *out)
{
	const struct replay_skipped *s = &r->skipped;
	if (!s->record_types.total && !s->event_kinds.total) {
		text_printf(out, "ioscope: %s: every record and event kind was known\n", path);
		return;
	}
	print_skip_count(out, path, &s->record_types, "records of types");
	print_skip_count(out, path, &s->event_kinds, "events of kinds");
}

size_t replay_event_count(const struct replay *r) { return r->nevents; }

size_t replay_event_sample(const struct replay *r, size_t i)
{
	return i < r->nevents ? r->events[i].sample : SIZE_MAX;
}

/* The next packed string into a field of the event (it was cut to that size when parsed). */
static const char *unpack(const char *text, char *field, size_t len)
{
	snprintf(field, len, "%s", text);
	return text + strlen(text) + 1;
}

/* The next packed string, as it is: the view's texts are the replay's. */
static const char *unpack_view(const char *text, const char **field)
{
	*field = text;
	return text + strlen(text) + 1;
}

int replay_event_get(const struct replay *r, size_t i, struct replay_event *out)
{
	if (i >= r->nevents)
		return -1;
	const struct event_entry *e = &r->events[i];
	struct event *ev = &out->event;
	event_init(ev);
	out->sample = e->sample;
	out->derivable = e->derivable;
	ev->kind = (enum event_kind)e->kind;
	ev->mono = ns_to_timespec(e->mono);
	ev->wall = ns_to_timespec(e->wall);
	ev->number = e->number;
	const char *t = r->events_text + e->text;
	t = unpack_view(t, &ev->object);
	t = unpack(t, ev->key, sizeof ev->key);
	t = unpack_view(t, &ev->old_value);
	t = unpack_view(t, &ev->new_value);
	t = unpack_view(t, &ev->result);
	t = unpack(t, ev->by, sizeof ev->by);
	ev->resets = e->nresets ? out->resets : NULL;
	ev->nresets = e->nresets;
	ev->resets_dropped = e->resets_dropped;
	for (size_t k = 0; k < e->nresets; k++) {
		struct event_reset *x = &out->resets[k];
		int flags = *t - '0';
		x->had_old = flags & 1;
		x->has_new = flags & 2;
		t = unpack(t + 1, x->key, sizeof x->key);
		t = unpack(t, x->old_value, sizeof x->old_value);
		t = unpack(t, x->new_value, sizeof x->new_value);
	}
	t = unpack_view(t, &ev->reasons);
	unpack_view(t, &ev->scope);
	return 0;
}

/* The first of n entries, in sample order, whose sample (sample_of) is sample or later. */
static size_t first_from(const struct replay *r, size_t n,
			 size_t (*sample_of)(const struct replay *r, size_t i), size_t sample)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sample_of(r, mid) < sample)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t event_sample_of(const struct replay *r, size_t i) { return r->events[i].sample; }
static size_t announced_sample_of(const struct replay *r, size_t i) { return r->announced[i].sample; }

size_t replay_event_after(const struct replay *r, size_t sample)
{
	return first_from(r, r->nevents, event_sample_of, sample);
}

size_t replay_event_before(const struct replay *r, size_t sample)
{
	size_t i = replay_event_after(r, sample);
	return i == 0 ? SIZE_MAX : i - 1;
}

/* One announced record into pending or withdrawn.  A kind of a later revision is skipped;
 * -1: ENOMEM or the record cannot be read back (err). */
static int take_announced(struct replay *r, const struct announced_entry *a,
			  struct event_list *pending, struct event_list *withdrawn, struct error *err)
{
	json_object *o = read_line(r, a->offset, a->length, err);
	if (!o)
		return -1;
	json_object *flag;
	bool gone = json_object_object_get_ex(o, "withdrawn", &flag) && json_object_get_boolean(flag);
	struct event ev;
	int rc = session_log_parse_event(o, &ev, err);
	json_object_put(o);
	if (rc != 0) {
		event_free(&ev);
		return rc < 0 ? -1 : 0;
	}
	struct event *to = event_list_add(gone ? withdrawn : pending);
	if (!to) {
		event_free(&ev);
		return error_set(err, "out of memory");
	}
	*to = ev;   /* moved */
	return 0;
}

int replay_announced(struct replay *r, size_t from, size_t to, struct event_list *pending,
		     struct event_list *withdrawn, struct error *err)
{
	for (size_t i = first_from(r, r->nannounced, announced_sample_of, from);
	     i < r->nannounced && r->announced[i].sample <= to; i++)
		if (take_announced(r, &r->announced[i], pending, withdrawn, err) < 0)
			return -1;
	return 0;
}

size_t replay_warning_count(const struct replay *r) { return r->nwarnings; }
size_t replay_warnings_total(const struct replay *r) { return r->warnings_total; }

const char *replay_warning(const struct replay *r, size_t i)
{
	return i < r->nwarnings ? r->warnings[i] : NULL;
}
