/* report_time.c - the times a report is given (--from, --to) and the ones it prints. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "text.h"

void report_local_time(const struct timespec *wall, bool with_date, char *buf, size_t len)
{
	struct tm tm;
	time_t t = wall->tv_sec;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, with_date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

bool report_tenths(const struct report *rep)
{
	return replay_machine(rep->replay)->interval < 1;
}

void report_clock(const struct report *rep, const struct timespec *wall, char *buf, size_t len)
{
	report_local_time(wall, false, buf, len);
	size_t used = strlen(buf);
	if (report_tenths(rep) && used + 3 <= len)   /* truncated, as the seconds are */
		snprintf(buf + used, len - used, ".%ld", wall->tv_nsec / 100000000L);
}

void report_duration(double seconds, char *buf, size_t len)
{
	/* truncated, not rounded: a phase of 9.96 s under --min-phase 10s reads "9.9s", not
	 * "10s, short: under 10s" (the epsilon keeps 10.4 from becoming 10.399...) */
	double at_least = seconds > 0 && seconds < 1e12 ? floor(seconds * 10 + 1e-6) / 10 : 0;
	if (at_least < 10)
		snprintf(buf, len, "%.1fs", at_least);
	else
		text_duration((long)at_least, buf, len);
}

/* "90", "90s", "5m", "1h30m", "1.5h" -> seconds; -1 when not a duration. */
static double parse_duration(const char *s)
{
	double total = 0;
	if (!*s)
		return -1;
	while (*s) {
		char *end;
		errno = 0;
		double v = strtod(s, &end);
		if (errno || end == s || !isfinite(v) || v < 0)
			return -1;
		double unit = *end == 'h' ? 3600 : *end == 'm' ? 60 : 1;
		if (*end == 'h' || *end == 'm' || *end == 's')
			end++;
		else if (*end)
			return -1;
		total += v * unit;
		s = end;
	}
	return total;
}

static int from_seconds(double v, struct timespec *out)
{
	if (!isfinite(v) || fabs(v) > 1e11)
		return -1;
	double sec = floor(v);
	*out = (struct timespec){ .tv_sec = (time_t)sec, .tv_nsec = (long)((v - sec) * 1e9) };
	return 0;
}

/* start + seconds without a round trip through a double: at today's epoch a double
 * keeps only about 0.2 us, and "+0" must not land after the first sample. */
static int add_seconds(const struct timespec *start, double seconds, struct timespec *out)
{
	if (!isfinite(seconds) || seconds < 0 || seconds > 1e11)
		return -1;
	double whole = floor(seconds);
	long ns = start->tv_nsec + (long)((seconds - whole) * 1e9);
	*out = (struct timespec){ .tv_sec = start->tv_sec + (time_t)whole + ns / 1000000000L,
				  .tv_nsec = ns % 1000000000L };
	return 0;
}

/* "HH:MM[:SS]" on the day the recording started (the next day when that is more
 * than a minute before the start: a recording over midnight). */
static int clock_time(const char *arg, const struct timespec *start, struct timespec *out)
{
	int h, m, s = 0, n = 0;
	if ((sscanf(arg, "%d:%d:%d%n", &h, &m, &s, &n) != 3 || arg[n]) &&
	    (s = 0, n = 0, sscanf(arg, "%d:%d%n", &h, &m, &n) != 2 || arg[n]))
		return -1;
	if (h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 59)
		return -1;
	struct tm tm;
	time_t t0 = start->tv_sec;
	localtime_r(&t0, &tm);
	tm.tm_hour = h;
	tm.tm_min = m;
	tm.tm_sec = s;
	tm.tm_isdst = -1;
	time_t t = mktime(&tm);
	if (t < start->tv_sec - 60) {
		tm.tm_mday++;
		tm.tm_hour = h;
		tm.tm_min = m;
		tm.tm_sec = s;
		tm.tm_isdst = -1;
		t = mktime(&tm);
	}
	*out = (struct timespec){ .tv_sec = t, .tv_nsec = 0 };
	return t == (time_t)-1 ? -1 : 0;
}

/* strptime takes February 30th and second 60; mktime then moves them to another day
 * or minute.  A time that did not survive mktime unchanged was not a time (a clock
 * skipped by a daylight-saving change neither). */
static bool same_clock(const struct tm *a, const struct tm *b)
{
	return a->tm_year == b->tm_year && a->tm_mon == b->tm_mon && a->tm_mday == b->tm_mday &&
	       a->tm_hour == b->tm_hour && a->tm_min == b->tm_min && a->tm_sec == b->tm_sec;
}

static int date_time(const char *arg, struct timespec *out)
{
	static const char *const formats[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M",
	};
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		struct tm tm;
		memset(&tm, 0, sizeof tm);
		const char *end = strptime(arg, formats[i], &tm);
		if (!end || *end)
			continue;
		tm.tm_isdst = -1;
		struct tm asked = tm;
		time_t t = mktime(&tm);
		if (t == (time_t)-1 || !same_clock(&asked, &tm))
			return -1;
		*out = (struct timespec){ .tv_sec = t, .tv_nsec = 0 };
		return 0;
	}
	return -1;
}

int report_parse_time(const char *arg, const struct timespec *start, struct timespec *out,
		      struct error *err)
{
	int rc = -1;
	if (arg[0] == '@') {
		char *end;
		errno = 0;
		double v = strtod(arg + 1, &end);
		rc = errno || end == arg + 1 || *end ? -1 : from_seconds(v, out);
	} else if (arg[0] == '+') {
		double d = parse_duration(arg + 1);
		rc = d < 0 ? -1 : add_seconds(start, d, out);
	} else if (strchr(arg, '-')) {
		rc = date_time(arg, out);
	} else {
		rc = clock_time(arg, start, out);
	}
	if (rc < 0)
		return error_set(err, "invalid time '%s': give HH:MM[:SS], YYYY-MM-DD HH:MM[:SS], "
				 "@UNIXSECONDS or +OFFSET (90, 90s, 5m, 1h30m)", arg);
	return 0;
}

int report_parse_seconds(const char *arg, double *out, struct error *err)
{
	double v = parse_duration(arg);
	if (v < 0 || v > 1e9)
		return error_set(err, "invalid duration '%s': give seconds (30, 30s, 2m, 1h)", arg);
	*out = v;
	return 0;
}
