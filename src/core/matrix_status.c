/* matrix_status.c - a matrix's progress as its marks carry it: written, read back with
 * suspicion (it comes from another process, or a log anyone may craft), and fitted into
 * the console's header (matrix_status.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "matrix_status.h"
#include "text.h"

static const char *const state_names[] = {
	[MATRIX_RUNNING] = "running",
	[MATRIX_DONE] = "done",
	[MATRIX_INTERRUPTED] = "interrupted",
};
#define NSTATES (sizeof state_names / sizeof state_names[0])

const char *matrix_state_name(enum matrix_state state)
{
	return (unsigned)state < NSTATES ? state_names[state] : "?";
}

void matrix_status_format(const struct matrix_status *s, char *buf, size_t len)
{
	size_t used = text_appendf(buf, len, 0, "state=%s cell=%ld/%ld run=%ld/%ld elapsed=%ld",
				   matrix_state_name(s->state), s->cell, s->cells, s->run, s->runs,
				   s->elapsed_s);
	if (s->eta_s >= 0)
		text_appendf(buf, len, used, " eta=%ld", s->eta_s);
	else
		text_appendf(buf, len, used, " eta=?");
}

/* ---- reading it back ---- */

/* Digits only (no sign, no space), at most 9 of them. */
static bool parse_number(const char *s, size_t n, long *out)
{
	long v = 0;
	if (n == 0 || n > 9)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/* "a/b" with 1 <= a <= b. */
static bool parse_fraction(const char *s, size_t n, long *a, long *b)
{
	const char *slash = memchr(s, '/', n);
	if (!slash)
		return false;
	size_t k = (size_t)(slash - s);
	return parse_number(s, k, a) && parse_number(slash + 1, n - k - 1, b) && *a >= 1 &&
	       *a <= *b;
}

static bool parse_state(const char *s, size_t n, enum matrix_state *out)
{
	for (size_t i = 0; i < NSTATES; i++)
		if (strlen(state_names[i]) == n && memcmp(state_names[i], s, n) == 0) {
			*out = (enum matrix_state)i;
			return true;
		}
	return false;
}

enum { K_STATE, K_CELL, K_RUN, K_ELAPSED, K_ETA, K_COUNT };
static const char *const key_names[K_COUNT] = {
	[K_STATE] = "state", [K_CELL] = "cell", [K_RUN] = "run", [K_ELAPSED] = "elapsed",
	[K_ETA] = "eta",
};

static int key_of(const char *s, size_t n)
{
	for (int k = 0; k < K_COUNT; k++)
		if (strlen(key_names[k]) == n && memcmp(key_names[k], s, n) == 0)
			return k;
	return -1;
}

/* A key later versions may add: lower-case letters and '_', ignored with its value. */
static bool is_key_name(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
			return false;
	return true;
}

static bool parse_value(int key, const char *v, size_t n, struct matrix_status *s)
{
	switch (key) {
	case K_STATE:
		return parse_state(v, n, &s->state);
	case K_CELL:
		return parse_fraction(v, n, &s->cell, &s->cells);
	case K_RUN:
		return parse_fraction(v, n, &s->run, &s->runs);
	case K_ELAPSED:
		return parse_number(v, n, &s->elapsed_s);
	case K_ETA:
		if (n == 1 && v[0] == '?')
			return (s->eta_s = MATRIX_ETA_UNKNOWN), true;
		return parse_number(v, n, &s->eta_s);
	}
	return false;
}

/* One "key=value" token of n bytes; *seen collects the keys met. */
static bool parse_token(const char *t, size_t n, struct matrix_status *s, unsigned *seen)
{
	const char *eq = memchr(t, '=', n);
	if (!eq)
		return false;
	size_t klen = (size_t)(eq - t);
	int key = key_of(t, klen);
	if (key < 0)
		return is_key_name(t, klen);
	if (*seen & (1u << key))
		return false;
	*seen |= 1u << key;
	return parse_value(key, eq + 1, n - klen - 1, s);
}

static bool printable_ascii(const char *text, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (text[i] < ' ' || text[i] > '~')
			return false;
	return true;
}

bool matrix_status_parse(const char *text, struct matrix_status *out)
{
	size_t len = text ? strnlen(text, MATRIX_STATUS_TEXT_MAX) : 0;
	if (len == 0 || len >= MATRIX_STATUS_TEXT_MAX || !printable_ascii(text, len))
		return false;
	struct matrix_status s = { .eta_s = MATRIX_ETA_UNKNOWN };
	unsigned seen = 0;
	for (const char *t = text; t < text + len;) {
		const char *space = memchr(t, ' ', (size_t)(text + len - t));
		size_t n = space ? (size_t)(space - t) : (size_t)(text + len - t);
		if (n == 0 || !parse_token(t, n, &s, &seen))
			return false;   /* also two spaces, or one at either end */
		t += n;
		if (space && ++t == text + len)
			return false;
	}
	unsigned needed = 1u << K_STATE | 1u << K_CELL | 1u << K_RUN | 1u << K_ELAPSED;
	if ((seen & needed) != needed)
		return false;
	*out = s;
	return true;
}

/* ---- in the console ---- */

void matrix_status_advance(struct matrix_status *s, double age_s)
{
	if (s->state != MATRIX_RUNNING || !(age_s > 0))
		return;
	long age = age_s < (double)MATRIX_STATUS_NUMBER_MAX ? (long)age_s : MATRIX_STATUS_NUMBER_MAX;
	s->elapsed_s = s->elapsed_s + age < MATRIX_STATUS_NUMBER_MAX ? s->elapsed_s + age
								     : MATRIX_STATUS_NUMBER_MAX;
	if (s->eta_s >= 0)
		s->eta_s = s->eta_s > age ? s->eta_s - age : 0;
}

bool matrix_status_current(const struct matrix_status *s, double age_s)
{
	if (isnan(age_s))
		return false;
	if (s->state != MATRIX_RUNNING)
		return age_s <= MATRIX_STATUS_LINGER_S;
	return age_s <= fmax(MATRIX_STATUS_SILENCE_S, 2.0 * (double)s->eta_s);
}

/* "~45s", "~40m", "~1h05m" (minutes rounded), "?" */
static void eta_text(long s, char *buf, size_t len)
{
	if (s < 0)
		snprintf(buf, len, "?");
	else if (s < 60)
		snprintf(buf, len, "~%lds", s);
	else if (s < 3600 - 30)
		snprintf(buf, len, "~%ldm", (s + 30) / 60);
	else
		snprintf(buf, len, "~%ldh%02ldm", (s + 30) / 3600, (s + 30) / 60 % 60);
}

/* Form 0 (the longest) to 2 (the shortest) into buf; its length whole (as snprintf). */
static int header_form(const struct matrix_status *s, int form, char *buf, size_t len)
{
	char el[32], eta[32];
	text_duration(s->elapsed_s, el, sizeof el);
	eta_text(s->eta_s, eta, sizeof eta);
	const char *word = s->state == MATRIX_DONE ? "done" : "interrupted";
	if (s->state == MATRIX_RUNNING && form == 0)
		return snprintf(buf, len, "MATRIX cell %ld/%ld run %ld/%ld %s ETA %s", s->cell,
				s->cells, s->run, s->runs, el, eta);
	if (s->state == MATRIX_RUNNING && form == 1)
		return snprintf(buf, len, "MATRIX %ld/%ld %ld/%ld ETA %s", s->cell, s->cells, s->run,
				s->runs, eta);
	if (s->state == MATRIX_RUNNING)
		return snprintf(buf, len, "M %ld/%ld", s->cell, s->cells);
	if (form == 0)
		return snprintf(buf, len, "MATRIX %s cell %ld/%ld run %ld/%ld %s", word, s->cell,
				s->cells, s->run, s->runs, el);
	if (form == 1)
		return snprintf(buf, len, "MATRIX %s %ld/%ld", word, s->cell, s->cells);
	return snprintf(buf, len, "M %s", s->state == MATRIX_DONE ? "done" : "stopped");
}

void matrix_status_header(const struct matrix_status *s, int width, char *buf, size_t len)
{
	if (!len)
		return;
	for (int form = 0; form < 3; form++) {
		int n = header_form(s, form, buf, len);
		if (n >= 0 && (size_t)n < len && n <= width)
			return;
	}
	buf[0] = '\0';
}
