/* session_log_scan.c - sample records read without a JSON parser.
 *
 * A report over a day-long log reads 86400 sample lines; json-c builds a tree of
 * objects for each and spent most of the report's time doing it.  The recorder
 * writes every sample in one fixed shape (session_log_format_sample), so a scanner
 * made for that shape reads it directly.  It is strict: anything it does not
 * expect - a blank, an escape, a number in another form, a key out of place or
 * twice, a value out of range - makes it give the line back (0), and the JSON
 * reader, which knows every rule and says what is wrong, reads it instead.  So
 * both readers agree on every line this one takes (tests/unit/test_session_log_scan.c
 * and the fuzz target check it).
 */
#include <stdlib.h>
#include <string.h>

#include "session_log_sample.h"

struct cursor {
	const char *p, *end;
};

static bool eat(struct cursor *c, char ch)
{
	if (c->p >= c->end || *c->p != ch)
		return false;
	c->p++;
	return true;
}

static bool eat_text(struct cursor *c, const char *lit, size_t n)
{
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n) != 0)
		return false;
	c->p += n;
	return true;
}

#define EAT(c, lit) eat_text((c), lit, sizeof lit - 1)

/* A string without escapes, into buf (NUL-terminated). */
static bool string(struct cursor *c, char *buf, size_t size)
{
	if (!eat(c, '"'))
		return false;
	const char *q = c->p;
	while (q < c->end && *q != '"') {
		if (*q == '\\' || (unsigned char)*q < 0x20)
			return false;
		q++;
	}
	size_t n = (size_t)(q - c->p);
	if (q >= c->end || n >= size)
		return false;
	memcpy(buf, c->p, n);
	buf[n] = '\0';
	c->p = q + 1;
	return true;
}

/* Eight decimal digits at p as a number, or false when one of the bytes is not a digit
 * (simdjson's parse_eight_digits_unrolled: three multiplications for the eight). */
static bool eight_digits(const char *p, uint64_t *out)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;
	memcpy(&v, p, sizeof v);
	/* each byte 0x30..0x39: its high nibble 3, and still 3 with 6 added */
	if (((v & 0xF0F0F0F0F0F0F0F0u) | (((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) !=
	    0x3333333333333333u)
		return false;
	v -= 0x3030303030303030u;
	v = v * 10 + (v >> 8);
	*out = ((v & 0x000000FF000000FFu) * (100 + (1000000ull << 32)) +
		((v >> 16) & 0x000000FF000000FFu) * (1 + (10000ull << 32))) >> 32;
	return true;
#else
	(void)p;
	(void)out;
	return false;
#endif
}

/* The digits of a JSON integer: no leading zero, no fraction or exponent after
 * (json-c would read those as a double, which no counter is). */
static bool digits(struct cursor *c, uint64_t limit, uint64_t *out)
{
	const char *q = c->p;
	uint64_t v = 0;
	if (q >= c->end || *q < '0' || *q > '9' || (*q == '0' && q + 1 < c->end &&
						   q[1] >= '0' && q[1] <= '9'))
		return false;
	/* 19 digits cannot overflow 64 bits: checked past them only, and against the limit
	 * once at the end (a division a digit was a tenth of a report's time); eight at a time
	 * while they are */
	const char *safe = c->end - q > 19 ? q + 19 : c->end;
	uint64_t eight;
	while (safe - q >= 8 && eight_digits(q, &eight)) {
		v = v * 100000000u + eight;
		q += 8;
	}
	for (; q < safe && *q >= '0' && *q <= '9'; q++)
		v = v * 10 + (unsigned)(*q - '0');
	for (; q < c->end && *q >= '0' && *q <= '9'; q++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (unsigned)(*q - '0'), &v))
			return false;
	if (v > limit || (q < c->end && (*q == '.' || *q == 'e' || *q == 'E')))
		return false;
	*out = v;
	c->p = q;
	return true;
}

static bool u64(struct cursor *c, uint64_t *out)
{
	return digits(c, UINT64_MAX, out);
}

static bool i64(struct cursor *c, int64_t *out)
{
	bool neg = eat(c, '-');
	uint64_t v;
	if (!digits(c, INT64_MAX, &v))
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* A JSON number of any form, read by strtod as json-c reads it; the grammar is
 * checked first because strtod takes more (hex, inf, leading blanks).  The line
 * ends in a NUL, so strtod cannot read past it. */
static bool number(struct cursor *c, double *out)
{
	const char *q = c->p;
	q += q < c->end && *q == '-';
	const char *int_start = q;
	while (q < c->end && *q >= '0' && *q <= '9')
		q++;
	if (q == int_start || (*int_start == '0' && q - int_start > 1))
		return false;
	if (q < c->end && *q == '.') {
		const char *f = ++q;
		while (q < c->end && *q >= '0' && *q <= '9')
			q++;
		if (q == f)
			return false;
	}
	if (q < c->end && (*q == 'e' || *q == 'E')) {
		q++;
		q += q < c->end && (*q == '+' || *q == '-');
		const char *e = q;
		while (q < c->end && *q >= '0' && *q <= '9')
			q++;
		if (q == e)
			return false;
	}
	if (q >= c->end)   /* strtod needs a character that ends the number */
		return false;
	char *stop;
	*out = strtod(c->p, &stop);
	if (stop != q)
		return false;
	c->p = q;
	return true;
}

/* [v, v, ...] of counters: at most n, the missing tail 0. */
static bool u64_array(struct cursor *c, uint64_t *vals, size_t n)
{
	memset(vals, 0, n * sizeof *vals);
	if (!eat(c, '['))
		return false;
	if (eat(c, ']'))
		return true;
	for (size_t i = 0;; i++) {
		if (i == n || !u64(c, &vals[i]))
			return false;
		if (eat(c, ']'))
			return true;
		if (!eat(c, ','))
			return false;
	}
}

/* "name", "nf", "c", "inflight", "inst": 0 to 4; 5 for any other key.  Compared as
 * fixed-size memory (the key is a NUL-terminated string in 16 bytes), not a strcmp a
 * candidate: this runs for every key of every device of every sample. */
static unsigned device_key_index(const char key[16])
{
	static const char keys[5][9] = { "name", "nf", "c", "inflight", "inst" };
	switch (key[0]) {
	case 'c':
		return key[1] ? 5 : 2;
	case 'n':
		return memcmp(key, keys[0], 5) == 0 ? 0 : memcmp(key, keys[1], 3) == 0 ? 1 : 5;
	case 'i':
		return memcmp(key, keys[3], 9) == 0 ? 3 : memcmp(key, keys[4], 5) == 0 ? 4 : 5;
	default:
		return 5;
	}
}

static bool device_key(struct cursor *c, struct sample_device_fields *f, char *name, size_t size,
		       unsigned *seen)
{
	char key[16];
	if (!string(c, key, sizeof key) || !eat(c, ':'))
		return false;
	unsigned k = device_key_index(key);
	if (k == 5 || (*seen & (1u << k)))
		return false;
	*seen |= 1u << k;
	switch (k) {
	case 0:
		return string(c, name, size);
	case 1:
		return i64(c, &f->nf);
	case 2:
		return u64_array(c, f->c, SESSION_NCOUNTERS);
	case 3:
		f->has_inflight = true;
		return eat(c, '[') && i64(c, &f->inflight[0]) && eat(c, ',') &&
		       i64(c, &f->inflight[1]) && eat(c, ']');
	default:
		return i64(c, &f->inst);
	}
}

/* {"name":"loop0","nf":20,"c":[...],"inflight":[0,1],"inst":2} */
static int device(struct cursor *c, size_t index, const struct snapshot *devices,
		  struct snapshot *s)
{
	struct sample_device_fields f = { .nf = 0 };
	char name[DEV_NAME_MAX];
	unsigned seen = 0;
	if (!eat(c, '{'))
		return 0;
	do {
		if (!device_key(c, &f, name, sizeof name, &seen))
			return 0;
	} while (eat(c, ','));
	if (!eat(c, '}') || (seen & 7u) != 7u)   /* name, nf and c are always written */
		return 0;
	f.name = name;
	struct device *d = snapshot_add_device(s);
	if (!d)
		return -1;
	struct error why;   /* not ours to tell: the JSON reader says what is wrong */
	return session_log_sample_device(&f, index, devices, d, &why) == 0;
}

static int device_list(struct cursor *c, const struct snapshot *devices, struct snapshot *s)
{
	if (!eat(c, '['))
		return 0;
	if (eat(c, ']'))
		return 1;
	for (size_t i = 0;; i++) {
		int rc = device(c, i, devices, s);
		if (rc <= 0)
			return rc;
		if (eat(c, ']'))
			return 1;
		if (!eat(c, ','))
			return 0;
	}
}

static bool psi(struct cursor *c, struct vm_counters *vm)
{
	struct error why;
	return eat(c, '[') && number(c, &vm->psi_some_avg10) && eat(c, ',') &&
	       number(c, &vm->psi_full_avg10) && eat(c, ',') && u64(c, &vm->psi_some_total) &&
	       eat(c, ',') && u64(c, &vm->psi_full_total) && eat(c, ']') &&
	       session_log_check_psi(vm, &why) == 0;
}

static bool vm_group(struct cursor *c, struct vm_counters *vm, size_t g)
{
	const struct session_u64_group *grp = &session_vm_groups[g];
	uint64_t vals[32];
	if (grp->n > sizeof vals / sizeof vals[0] || !u64_array(c, vals, grp->n))
		return false;
	for (size_t i = 0; i < grp->n; i++)
		*session_u64_at(vm, grp->fields[i]) = vals[i];
	*(bool *)((char *)vm + grp->flag) = true;
	return true;
}

/* {"stat":[...],"vmstat":[...],"meminfo":[...],"psi":[...]}, each member optional */
static bool vm_object(struct cursor *c, struct vm_counters *vm)
{
	memset(vm, 0, sizeof *vm);
	unsigned seen = 0;
	if (!eat(c, '{'))
		return false;
	if (eat(c, '}'))
		return true;
	do {
		char key[16];
		if (!string(c, key, sizeof key) || !eat(c, ':'))
			return false;
		size_t g = 0;
		while (g < SESSION_NVM_GROUPS && strcmp(key, session_vm_groups[g].key) != 0)
			g++;
		if (g == SESSION_NVM_GROUPS && strcmp(key, "psi") != 0)
			return false;
		if (seen & (1u << g))
			return false;
		seen |= 1u << g;
		if (!(g < SESSION_NVM_GROUPS ? vm_group(c, vm, g) : psi(c, vm)))
			return false;
	} while (eat(c, ','));
	return eat(c, '}');
}

static int scan_into(struct cursor *c, const struct snapshot *devices,
		     const struct snapshot *mounts, struct snapshot *s, struct error *err)
{
	uint64_t seq;
	int64_t mono, wall;
	if (!EAT(c, "{\"type\":\"sample\",\"seq\":") || !u64(c, &seq) || !EAT(c, ",\"mono\":") ||
	    !i64(c, &mono) || !EAT(c, ",\"wall\":") || !i64(c, &wall) ||
	    !EAT(c, ",\"devices\":"))
		return 0;
	s->seq = seq;
	s->mono = ns_to_timespec(mono);
	s->wall = ns_to_timespec(wall);
	int rc = device_list(c, devices, s);
	if (rc <= 0)
		return rc;
	if (!EAT(c, ",\"vm\":") || !vm_object(c, &s->vm) || !eat(c, '}'))
		return 0;
	while (c->p < c->end && strchr(" \t\r", *c->p))
		c->p++;
	if (c->p != c->end)
		return 0;
	return session_log_sample_mounts(s, mounts, err) < 0 ? -1 : 1;
}

int session_log_scan_sample(const char *line, size_t len, const struct snapshot *devices,
			    const struct snapshot *mounts, struct snapshot *out, struct error *err)
{
	struct cursor c = { line, line + len };
	struct snapshot s;
	snapshot_init(&s);
	int rc = scan_into(&c, devices, mounts, &s, err);
	if (rc == -1)
		error_set(err, "out of memory");
	if (rc != 1) {
		snapshot_free(&s);
		return rc;
	}
	snapshot_free(out);
	*out = s;
	return 1;
}
