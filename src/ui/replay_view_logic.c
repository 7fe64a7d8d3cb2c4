/* replay_view_logic.c - the replay view's arithmetic and texts, kept apart from
 * the terminal so that unit tests reach them. */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "replay_view.h"

static const unsigned speeds[] = { 1, 10, 100 };
#define NSPEEDS (sizeof speeds / sizeof speeds[0])

unsigned replay_speed_step(unsigned speed, int dir)
{
	size_t at = 0;
	for (size_t i = 0; i < NSPEEDS; i++)
		if (speeds[i] == speed)
			at = i;
	at = dir >= 0 ? (at + 1) % NSPEEDS : (at + NSPEEDS - 1) % NSPEEDS;
	return speeds[at];
}

#define PERIOD_MIN 0.001

double replay_timer_period(double interval, unsigned speed)
{
	double p = interval / (speed ? speed : 1);
	return p > PERIOD_MIN ? p : PERIOD_MIN;
}

size_t replay_window_start(size_t target, size_t window)
{
	return target > window ? target - window : 0;
}

void replay_format_clock(double seconds, char *buf, size_t len)
{
	long s = isfinite(seconds) && seconds > 0 ? (long)floor(seconds) : 0;
	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

void replay_format_position(char *buf, size_t len, size_t shown, size_t count, double offset,
			    double total, unsigned speed, const char *state_word)
{
	char at[32], end[32];
	replay_format_clock(offset, at, sizeof at);
	replay_format_clock(total, end, sizeof end);
	snprintf(buf, len, "REPLAY %zu/%zu %s/%s x%u%s%s", shown, count, at, end, speed ? speed : 1,
		 state_word ? " " : "", state_word ? state_word : "");
}

void record_default_name(const struct timespec *wall, char *buf, size_t len)
{
	struct tm tm;
	time_t t = wall->tv_sec;
	char stamp[32];
	if (!localtime_r(&t, &tm) || !strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm))
		snprintf(stamp, sizeof stamp, "%lld", (long long)t);
	snprintf(buf, len, "ioscope-%s.log", stamp);
}
