/* why_parse.c - the text of the files the why figures come from (why.h).
 *
 * Pure functions on a buffer, so a fixture or a unit test gives them any text.  A
 * line that does not parse leaves its figure absent (its `present` bit clear): the
 * layouts differ across kernels and a figure is never made up.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "textscan.h"
#include "why.h"

static bool starts(const char *s, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(end - s) >= n && memcmp(s, prefix, n) == 0;
}

void why_parse_vmstat(const char *buf, size_t len, struct why_dirty *out)
{
	uint64_t page_kb = out->page_kb;
	memset(out, 0, sizeof *out);
	out->page_kb = page_kb;
	unsigned seen = 0;
	const char *p = buf, *end = buf + len, *line, *rest;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		if (n < 8 || memcmp(line, "nr_", 3) != 0)
			continue;
		for (int i = 0; i < WD_COUNT; i++)
			if (textscan_key(line, n, why_dirty_keys[i], &rest) &&
			    textscan_u64(&rest, line + n, &out->v[i]))
				seen |= 1u << i;
	}
	out->have = seen == (1u << WD_COUNT) - 1 && page_kb > 0;
}

static void put(struct journal_raw *j, int field, uint64_t v)
{
	j->v[field] = v;
	j->present |= 1u << field;
}

/* "  9403us average transaction commit time": the number, then what it is. */
void journal_parse_jbd2(const char *buf, size_t len, struct journal_raw *j)
{
	static const struct { const char *what; int field; } lines[] = {
		{ " transactions (", J4_TRANSACTIONS },
		{ "ms waiting for transaction", J4_WAIT_MS },
		{ "ms running transaction", J4_RUNNING_MS },
		{ "ms transaction was being locked", J4_LOCKED_MS },
		{ "ms flushing data", J4_FLUSHING_MS },
		{ "ms logging transaction", J4_LOGGING_MS },
		{ "us average transaction commit time", J4_COMMIT_AVG_US },
		{ " blocks per transaction", J4_BLOCKS },
	};
	j->present = 0;
	memset(j->v, 0, sizeof j->v);
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		const char *s = line;
		uint64_t v;
		if (!textscan_u64(&s, line + n, &v))
			continue;
		for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
			if (starts(s, line + n, lines[i].what))
				put(j, lines[i].field, v);
	}
}

/* Up to max numbers after the key into fields[0..max). */
static void numbers(const char *rest, const char *end, struct journal_raw *j, const int *fields,
		    size_t max)
{
	uint64_t v;
	for (size_t i = 0; i < max && textscan_u64(&rest, end, &v); i++)
		if (fields[i] >= 0)
			put(j, fields[i], v);
}

void journal_parse_xfs_stats(const char *buf, size_t len, struct journal_raw *j)
{
	/* "log writes blocks noiclogs force force_sleep" and "push_ail try_logspace
	 * sleep_logspace pushes success pushbuf pinned locked flushing restarts flush" */
	static const int log_fields[] = { JX_LOG_WRITES, JX_LOG_BLOCKS, JX_NOICLOGS, JX_FORCES,
					  JX_FORCE_SLEEPS };
	static const int ail_fields[] = { JX_TRY_LOGSPACE, JX_SLEEP_LOGSPACE, JX_PUSH_AIL };
	j->present &= (1u << JX_LOG_USED) | (1u << JX_LOG_SIZE);   /* those come from log/ */
	const char *p = buf, *end = buf + len, *line, *rest;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		if (textscan_key(line, n, "log", &rest))
			numbers(rest, line + n, j, log_fields, 5);
		else if (textscan_key(line, n, "push_ail", &rest))
			numbers(rest, line + n, j, ail_fields, 3);
	}
}

void journal_parse_btrfs(const char *buf, size_t len, struct journal_raw *j)
{
	static const struct { const char *key; int field; } keys[] = {
		{ "commits", JB_COMMITS }, { "total_commit_ms", JB_TOTAL_COMMIT_MS },
		{ "last_commit_ms", JB_LAST_COMMIT_MS }, { "max_commit_ms", JB_MAX_COMMIT_MS },
	};
	j->present = 0;
	memset(j->v, 0, sizeof j->v);
	const char *p = buf, *end = buf + len, *line, *rest;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		uint64_t v;
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (textscan_key(line, n, keys[i].key, &rest) && textscan_u64(&rest, line + n, &v))
				put(j, keys[i].field, v);
	}
}

bool journal_parse_xfs_lsn(const char *buf, size_t len, uint64_t *cycle, uint64_t *block)
{
	const char *s = buf, *end = buf + len;
	if (!textscan_u64(&s, end, cycle))
		return false;
	if (s < end && *s == ':') {
		s++;
		if (!textscan_u64(&s, end, block))
			return false;
	} else {
		*block = *cycle;    /* a byte count alone (*_bytes files) */
		*cycle = 0;
	}
	while (s < end && (*s == '\n' || *s == ' '))
		s++;
	return s == end;
}

/* "8:16 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0" */
static bool parse_io_stat_line(const char *line, size_t n, struct cgroup_io_dev *d)
{
	const char *s = line, *end = line + n;
	uint64_t major, minor;
	if (!textscan_u64(&s, end, &major) || s == end || *s != ':')
		return false;
	s++;
	if (!textscan_u64(&s, end, &minor) || major > UINT32_MAX || minor > UINT32_MAX)
		return false;
	memset(d, 0, sizeof *d);
	d->major = (unsigned)major;
	d->minor = (unsigned)minor;
	static const struct { const char *key; size_t off; } keys[] = {
		{ "rbytes=", offsetof(struct cgroup_io_dev, rbytes) },
		{ "wbytes=", offsetof(struct cgroup_io_dev, wbytes) },
		{ "rios=", offsetof(struct cgroup_io_dev, rios) },
		{ "wios=", offsetof(struct cgroup_io_dev, wios) },
	};
	while (s < end) {
		while (s < end && *s == ' ')
			s++;
		const char *tok = s;
		while (s < end && *s != ' ')
			s++;
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			size_t k = strlen(keys[i].key);
			const char *v = tok + k;
			if ((size_t)(s - tok) > k && memcmp(tok, keys[i].key, k) == 0)
				textscan_u64(&v, s, (uint64_t *)((char *)d + keys[i].off));
		}
	}
	return true;
}

void cgroup_parse_io_stat(const char *buf, size_t len, struct cgroup_io *c)
{
	c->ndevs = 0;
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (textscan_line(&p, end, &line, &n) && c->ndevs < CGROUP_DEVS_MAX)
		if (parse_io_stat_line(line, n, &c->devs[c->ndevs]))
			c->ndevs++;
}

/* avg10=1.23 as hundredths: the kernel prints two decimals, kept exact. */
static bool centi(const char *s, const char *end, uint64_t *out)
{
	uint64_t whole, frac = 0;
	if (!textscan_u64(&s, end, &whole) || whole > 100)
		return false;
	if (s < end && *s == '.') {
		s++;
		int digits = 0;
		while (s < end && *s >= '0' && *s <= '9') {
			if (digits < 2)
				frac = frac * 10 + (uint64_t)(*s - '0');
			digits++;
			s++;
		}
		if (digits == 1)
			frac *= 10;
	}
	*out = whole * 100 + frac;
	return true;
}

static bool psi_line(const char *line, size_t n, uint64_t *avg10_c, uint64_t *total)
{
	const char *end = line + n, *a = NULL, *t = NULL;
	for (const char *s = line; s + 7 <= end; s++) {
		if (!a && memcmp(s, " avg10=", 7) == 0)
			a = s + 7;
		if (!t && memcmp(s, " total=", 7) == 0)
			t = s + 7;
	}
	return a && t && centi(a, end, avg10_c) && textscan_u64(&t, end, total);
}

void cgroup_parse_io_pressure(const char *buf, size_t len, struct cgroup_io *c)
{
	bool some = false, full = false;
	const char *p = buf, *end = buf + len, *line;
	size_t n;
	while (textscan_line(&p, end, &line, &n)) {
		if (starts(line, line + n, "some "))
			some = psi_line(line, n, &c->some_avg10_c, &c->some_total);
		else if (starts(line, line + n, "full "))
			full = psi_line(line, n, &c->full_avg10_c, &c->full_total);
	}
	c->have_pressure = some && full;
}
