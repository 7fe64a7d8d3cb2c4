/* procpid.c - parsers of /proc/PID/{stat,io,wchan,stack,syscall,fdinfo}
 * (procpid.h); procpid_read.c reads them for the layers above. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procpid.h"

/* A decimal number at *p (after spaces); advances p.  false when there is none. */
static bool take_number(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	bool neg = s < end && *s == '-';
	if (neg)
		s++;
	if (s >= end || !isdigit((unsigned char)*s))
		return false;
	uint64_t v = 0;
	while (s < end && isdigit((unsigned char)*s)) {
		uint64_t d = (uint64_t)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		s++;
	}
	if (s < end && *s != ' ' && *s != '\n')
		return false;
	*p = s;
	*out = neg ? 0 : v;
	return true;
}

static void copy_comm(const char *from, size_t n, char *out)
{
	if (n >= TASK_COMM_MAX)
		n = TASK_COMM_MAX - 1;
	memcpy(out, from, n);
	out[n] = '\0';
}

/* Fields 4.. after the state, as numbers; the ones kept are picked by number. */
static int parse_after_state(const char *p, const char *end, struct procpid_stat *out)
{
	for (int field = 4; field <= 42; field++) {
		uint64_t v;
		if (!take_number(&p, end, &v)) {
			if (field <= 22)
				return -1;
			return 0;
		}
		if (field == 4 || field == 5)
			*(field == 4 ? &out->ppid : &out->pgrp) = v > INT32_MAX ? 0 : (int32_t)v;
		else if (field == 9)
			out->flags = (uint32_t)v;
		else if (field == 20)
			out->num_threads = (uint32_t)v;
		else if (field == 22)
			out->starttime = v;
		else if (field == 42) {
			out->blkio_ticks = v;
			out->has_blkio = true;
		}
	}
	return 0;
}

int procpid_parse_stat(const char *text, size_t len, struct procpid_stat *out)
{
	memset(out, 0, sizeof *out);
	const char *end = text + len;
	const char *open = memchr(text, '(', len);
	const char *close = NULL;
	for (const char *q = end; q > text; q--)
		if (q[-1] == ')') {
			close = q - 1;
			break;
		}
	if (!open || !close || close < open || end - close < 4 || close[1] != ' ')
		return -1;
	uint64_t pid;
	const char *p = text;
	if (!take_number(&p, open, &pid) || pid == 0 || pid > INT32_MAX)
		return -1;
	out->pid = (int32_t)pid;
	copy_comm(open + 1, (size_t)(close - open - 1), out->comm);
	out->state = close[2];
	if (!isalpha((unsigned char)out->state) || (close + 3 < end && close[3] != ' '))
		return -1;
	return parse_after_state(close + 3, end, out);
}

static bool io_field(const char *line, const char *end, const char *key, uint64_t *out)
{
	size_t k = strlen(key);
	if ((size_t)(end - line) <= k || memcmp(line, key, k) != 0)
		return false;
	const char *p = line + k;
	return take_number(&p, end, out);
}

int procpid_parse_io(const char *text, size_t len, struct procpid_io *out)
{
	memset(out, 0, sizeof *out);
	const char *end = text + len;
	unsigned seen = 0;
	for (const char *line = text; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end;
		if (io_field(line, le, "syscr:", &out->syscr))
			seen |= 1;
		else if (io_field(line, le, "syscw:", &out->syscw))
			seen |= 2;
		else if (io_field(line, le, "read_bytes:", &out->read_bytes))
			seen |= 4;
		else if (io_field(line, le, "write_bytes:", &out->write_bytes))
			seen |= 8;
		else if (io_field(line, le, "cancelled_write_bytes:", &out->cancelled_write_bytes))
			seen |= 16;
		else if (io_field(line, le, "rchar:", &out->rchar))
			seen |= 32;
		else if (io_field(line, le, "wchar:", &out->wchar))
			seen |= 64;
		line = le + 1;
	}
	out->has_chars = (seen & 96) == 96;
	return (seen & 31) == 31 ? 0 : -1;
}

uint64_t procpid_parse_schedstat_runs(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	uint64_t v[3];
	for (int i = 0; i < 3; i++)
		if (!take_number(&p, end, &v[i]))
			return 0;
	return v[2];
}

static bool symbol_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* A symbol name of at most outlen-1 characters from the start of s; "" if none. */
static void take_symbol(const char *s, const char *end, char *out, size_t outlen)
{
	size_t n = 0;
	while (s + n < end && symbol_char(s[n]) && n + 1 < outlen)
		n++;
	memcpy(out, s, n);
	out[n] = '\0';
}

void procpid_parse_wchan(const char *text, size_t len, char *out, size_t outlen)
{
	take_symbol(text, text + len, out, outlen);
	if (strcmp(out, "0") == 0)
		out[0] = '\0';
}

/* The frames every sleeping task has on top: not what it waits on. */
static bool scheduler_frame(const char *name)
{
	static const char *const names[] = {
		"__schedule", "schedule", "schedule_timeout", "io_schedule",
		"schedule_preempt_disabled", "io_schedule_timeout", "schedule_hrtimeout_range",
		"__switch_to", "__switch_to_asm", "ret_from_fork", "ret_from_fork_asm",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

size_t procpid_parse_stack(const char *text, size_t len, char (*frames)[TASK_FRAME_MAX],
			   size_t max)
{
	const char *end = text + len;
	size_t n = 0;
	for (const char *line = text; line < end && n < max;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end;
		const char *sym = memchr(line, ']', (size_t)(le - line));
		if (sym) {
			sym++;
			while (sym < le && *sym == ' ')
				sym++;
			take_symbol(sym, le, frames[n], TASK_FRAME_MAX);
			if (frames[n][0] && !scheduler_frame(frames[n]))
				n++;
		}
		line = le + 1;
	}
	return n;
}

/* A hexadecimal "0x..." (or bare) number at *p after spaces; advances p. */
static bool take_hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	uint64_t v = 0;
	const char *digits = s;
	for (; s < end && isxdigit((unsigned char)*s); s++) {
		if (v >> 60)
			return false;
		v = v << 4 | (uint64_t)(isdigit((unsigned char)*s) ? *s - '0'
								 : tolower((unsigned char)*s) - 'a' + 10);
	}
	if (s == digits || (s < end && *s != ' ' && *s != '\n'))
		return false;
	*p = s;
	*out = v;
	return true;
}

bool procpid_parse_syscall(const char *text, size_t len, long *nr,
			   uint64_t args[PROCPID_SYSCALL_ARGS])
{
	const char *p = text, *end = text + len;
	uint64_t v;
	if (len && text[0] == '-')
		return false;   /* -1: blocked outside a system call */
	if (!take_number(&p, end, &v) || v > 1u << 20)
		return false;
	for (int i = 0; i < PROCPID_SYSCALL_ARGS; i++)
		if (!take_hex(&p, end, &args[i]))
			return false;
	*nr = (long)v;
	return true;
}

bool procpid_parse_fdinfo_mnt(const char *text, size_t len, uint32_t *mnt_id)
{
	const char *end = text + len;
	for (const char *line = text; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end;
		uint64_t v;
		if ((size_t)(le - line) > 7 && memcmp(line, "mnt_id:", 7) == 0) {
			const char *p = line + 7;
			while (p < le && *p == '\t')
				p++;
			if (!take_number(&p, le, &v) || v > UINT32_MAX)
				return false;
			*mnt_id = (uint32_t)v;
			return true;
		}
		line = le + 1;
	}
	return false;
}

bool procpid_parse_fdinfo_flags(const char *text, size_t len, unsigned *flags)
{
	const char *end = text + len;
	for (const char *line = text; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *le = nl ? nl : end;
		if ((size_t)(le - line) > 6 && memcmp(line, "flags:", 6) == 0) {
			const char *p = line + 6;
			unsigned v = 0;
			while (p < le && (*p == '\t' || *p == ' '))
				p++;
			if (p == le || *p < '0' || *p > '7')
				return false;
			for (; p < le && *p >= '0' && *p <= '7' && v <= (UINT_MAX >> 3); p++)
				v = v << 3 | (unsigned)(*p - '0');
			*flags = v;
			return true;
		}
		line = le + 1;
	}
	return false;
}
