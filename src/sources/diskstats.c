/* diskstats.c - /proc/diskstats, every layout chosen by field count.
 *
 * The kernel prints "%4d %7d %s %lu %lu ..." per device: major, minor, name and
 * 11 (before 4.18), 15 (discard, 4.18+) or 17 (flush, 5.5+) counters.  A line
 * with another count is read with the largest known layout it contains (kernels
 * add fields over time; the rest are ignored); fewer than 14 fields, a non-digit
 * in a number, a number over 64 bits, or a control byte in the name make the
 * line malformed and it is skipped whole: garbage never becomes a device.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "diskstats.h"

struct token {
	const char *s;
	size_t len;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Splits into at most max tokens; returns the count, or max + 1 when there are more. */
static size_t tokenize(const char *line, size_t len, struct token *tok, size_t max)
{
	size_t n = 0, i = 0;
	while (i < len) {
		while (i < len && is_blank(line[i]))
			i++;
		if (i == len)
			break;
		if (n == max)
			return max + 1;
		tok[n].s = line + i;
		while (i < len && !is_blank(line[i]))
			i++;
		tok[n].len = (size_t)(line + i - tok[n].s);
		n++;
	}
	return n;
}

static bool parse_u64(const struct token *t, uint64_t *out)
{
	if (t->len == 0 || t->len > 20)
		return false;
	uint64_t v = 0;
	for (size_t i = 0; i < t->len; i++) {
		unsigned d = (unsigned char)t->s[i] - '0';
		if (d > 9)
			return false;
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool parse_u32(const struct token *t, unsigned *out)
{
	uint64_t v;
	if (!parse_u64(t, &v) || v > UINT32_MAX)
		return false;
	*out = (unsigned)v;
	return true;
}

/* A '/' separated component of a name: not empty, ".", or "..". */
static bool valid_component(const char *s, size_t len)
{
	return len > 0 && !(len == 1 && s[0] == '.') && !(len == 2 && s[0] == '.' && s[1] == '.');
}

/* The name becomes a path component (/sys/block/NAME, which the control layer
 * writes to).  The kernel prints a '/' in some (cciss/c0d0, which sysfs spells
 * "cciss!c0d0": kname_to_sysfs maps it), so '/' is allowed between components,
 * but an empty, "." or ".." component can only come from garbage or a hostile
 * fixture. */
static bool valid_name(const struct token *t)
{
	if (t->len == 0 || t->len >= DEV_NAME_MAX)
		return false;
	size_t start = 0;
	for (size_t i = 0; i <= t->len; i++) {
		unsigned char c = i < t->len ? (unsigned char)t->s[i] : '/';
		if (c < 0x21 || c == 0x7f)
			return false;
		if (c != '/')
			continue;
		if (!valid_component(t->s + start, i - start))
			return false;
		start = i + 1;
	}
	return true;
}

/* The largest known layout a line of nfields fields contains, or -1. */
static int layout_of(size_t nfields)
{
	if (nfields > DISKSTATS_FIELDS_MAX)
		return -1;
	if (nfields >= DISKSTATS_FIELDS_FLUSH)
		return DISKSTATS_FIELDS_FLUSH;
	if (nfields >= DISKSTATS_FIELDS_DISCARD)
		return DISKSTATS_FIELDS_DISCARD;
	if (nfields >= DISKSTATS_FIELDS_BASE)
		return DISKSTATS_FIELDS_BASE;
	return -1;
}

int diskstats_parse_line(const char *line, size_t len, struct device *dev)
{
	struct token tok[DISKSTATS_FIELDS_MAX];
	size_t n = tokenize(line, len, tok, DISKSTATS_FIELDS_MAX);
	int layout = layout_of(n);
	if (layout < 0)
		return -1;
	/* The fields past the layout must still be numbers: a name with a blank
	 * in it would otherwise shift every counter by one. */
	uint64_t ignored;
	for (size_t i = (size_t)layout; i < n; i++)
		if (!parse_u64(&tok[i], &ignored))
			return -1;

	uint64_t v[DISKSTATS_FIELDS_FLUSH - 3] = { 0 };
	for (int i = 3; i < layout; i++)
		if (!parse_u64(&tok[i], &v[i - 3]))
			return -1;
	unsigned major, minor;
	if (!parse_u32(&tok[0], &major) || !parse_u32(&tok[1], &minor) || !valid_name(&tok[2]))
		return -1;

	dev->major = major;
	dev->minor = minor;
	memcpy(dev->name, tok[2].s, tok[2].len);
	dev->name[tok[2].len] = '\0';
	struct disk_counters *c = &dev->counters;
	c->rd_ios = v[0], c->rd_merges = v[1], c->rd_sectors = v[2], c->rd_ticks = v[3];
	c->wr_ios = v[4], c->wr_merges = v[5], c->wr_sectors = v[6], c->wr_ticks = v[7];
	c->in_flight = v[8], c->io_ticks = v[9], c->time_in_queue = v[10];
	c->dc_ios = v[11], c->dc_merges = v[12], c->dc_sectors = v[13], c->dc_ticks = v[14];
	c->fl_ios = v[15], c->fl_ticks = v[16];
	c->nfields = layout;
	return n == (size_t)layout ? 0 : 1;
}

const char *diskstats_next_line(const char *p, const char *end, size_t *line_len)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl) {
		*line_len = (size_t)(end - p);
		return end;
	}
	*line_len = (size_t)(nl - p);
	return nl + 1;
}

int diskstats_parse(const char *buf, size_t len, struct snapshot *out, struct error *err)
{
	const char *p = buf, *end = buf + len;
	int added = 0;
	struct device scratch;
	while (p < end) {
		size_t n;
		const char *line = p;
		p = diskstats_next_line(p, end, &n);
		memset(&scratch, 0, sizeof scratch);
		if (diskstats_parse_line(line, n, &scratch) < 0)
			continue;   /* the sampler counts these (diskstats_parse is for tests) */
		struct device *d = snapshot_add_device(out);
		if (!d)
			return error_set(err, "diskstats: out of memory");
		strcpy(d->name, scratch.name);
		d->major = scratch.major;
		d->minor = scratch.minor;
		d->counters = scratch.counters;
		added++;
	}
	return added;
}
