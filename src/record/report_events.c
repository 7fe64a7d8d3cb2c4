/* report_events.c - the report's events, packed (include/report.h).
 *
 * A report keeps every event of its range until its devices are chosen: a day of
 * hot-plug churn is 380k of them.  A struct event with its payload each took 144 MB
 * there; a packed record (the head, then its texts and resets as NUL-ended strings, in
 * one growing buffer) takes a fifth of that, and report_event() hands out a view of it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report.h"

/* 64 bytes: a report of a day's churn holds 380k of them */
struct packed_head {
	uint64_t number;
	size_t sample;
	struct timespec wall, mono;
	int32_t kind;
	uint32_t nresets, resets_dropped;   /* resets_dropped: past UINT32_MAX, UINT32_MAX */
	bool derivable;
};

static int put(struct report_event_store *st, const void *p, size_t n)
{
	if (grow_array(&st->bytes, &st->cap, st->len + n, 1, 4096, NULL) < 0)
		return -1;
	memcpy(st->bytes + st->len, p, n);
	st->len += n;
	return 0;
}

static int put_text(struct report_event_store *st, const char *s)
{
	return put(st, s, strlen(s) + 1);
}

static int put_event(struct report_event_store *st, const struct event *ev, size_t sample,
		     bool derivable)
{
	struct packed_head h = { .number = ev->number, .sample = sample,
				 .resets_dropped = ev->resets_dropped > UINT32_MAX
							   ? UINT32_MAX : (uint32_t)ev->resets_dropped,
				 .wall = ev->wall, .mono = ev->mono, .kind = (int32_t)ev->kind,
				 .nresets = (uint32_t)ev->nresets, .derivable = derivable };
	int rc = put(st, &h, sizeof h);
	const char *texts[] = { ev->key, ev->by, ev->object, ev->old_value, ev->new_value,
				ev->result, ev->reasons, ev->scope };
	for (size_t i = 0; rc == 0 && i < sizeof texts / sizeof *texts; i++)
		rc = put_text(st, texts[i]);
	for (size_t i = 0; rc == 0 && i < ev->nresets; i++) {
		const struct event_reset *r = &ev->resets[i];
		unsigned char flags = (unsigned char)(r->had_old | r->has_new << 1);
		rc = put_text(st, r->key) | put_text(st, r->old_value) | put_text(st, r->new_value) |
		     put(st, &flags, 1);
	}
	return rc;
}

int report_events_add(struct report_event_store *st, const struct event *ev, size_t sample,
		      bool derivable)
{
	size_t at = st->len;
	if (grow_array(&st->at, &st->at_cap, st->count + 1, sizeof *st->at, 64, NULL) < 0 ||
	    put_event(st, ev, sample, derivable) < 0) {
		st->len = at;
		return -1;
	}
	st->at[st->count++] = at;
	return 0;
}

/* The next string at *p, which then points past it. */
static const char *take_text(const unsigned char **p)
{
	const char *s = (const char *)*p;
	*p += strlen(s) + 1;
	return s;
}

static void take_into(char *dst, size_t size, const unsigned char **p)
{
	snprintf(dst, size, "%s", take_text(p));
}

void report_events_get(const struct report_event_store *st, size_t k, struct replay_event *out)
{
	const unsigned char *p = st->bytes + st->at[k];
	struct packed_head h;
	memcpy(&h, p, sizeof h);
	p += sizeof h;
	struct event *ev = &out->event;
	event_init(ev);
	out->sample = h.sample;
	out->derivable = h.derivable;
	ev->wall = h.wall;
	ev->mono = h.mono;
	ev->kind = (enum event_kind)h.kind;
	ev->number = h.number;
	take_into(ev->key, sizeof ev->key, &p);
	take_into(ev->by, sizeof ev->by, &p);
	ev->object = take_text(&p);
	ev->old_value = take_text(&p);
	ev->new_value = take_text(&p);
	ev->result = take_text(&p);
	ev->reasons = take_text(&p);
	ev->scope = take_text(&p);
	size_t n = h.nresets < EVENT_RESETS_MAX ? h.nresets : EVENT_RESETS_MAX;
	for (size_t i = 0; i < n; i++) {
		struct event_reset *r = &out->resets[i];
		take_into(r->key, sizeof r->key, &p);
		take_into(r->old_value, sizeof r->old_value, &p);
		take_into(r->new_value, sizeof r->new_value, &p);
		r->had_old = *p & 1;
		r->has_new = *p & 2;
		p++;
	}
	ev->resets = out->resets;
	ev->nresets = n;
	ev->resets_dropped = h.resets_dropped;
}

void report_events_keep_only(struct report_event_store *st, const bool *keep)
{
	size_t w = 0, kept = 0;
	for (size_t k = 0; k < st->count; k++) {
		size_t end = k + 1 < st->count ? st->at[k + 1] : st->len;
		if (!keep[k])
			continue;
		memmove(st->bytes + w, st->bytes + st->at[k], end - st->at[k]);
		st->at[kept++] = w;
		w += end - st->at[k];
	}
	st->count = kept;
	st->len = w;
}

void report_events_clear(struct report_event_store *st)
{
	free(st->bytes);
	free(st->at);
	memset(st, 0, sizeof *st);
}
