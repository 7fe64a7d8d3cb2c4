/* status.c - the console's clock and message line (status.h). */
#include <stdio.h>
#include <time.h>

#include "snapshot.h"
#include "status.h"

double status_clock(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return timespec_seconds(&t);
}

void status_post(struct status_line *s, double now, bool warning, const char *fmt, va_list ap)
{
	vsnprintf(s->text, sizeof s->text, fmt, ap);
	s->warning = warning;
	s->until = now + (warning ? STATUS_WARNING_SECONDS : STATUS_SECONDS);
}

const char *status_current(const struct status_line *s, double now)
{
	return s->text[0] && now < s->until ? s->text : NULL;
}

bool status_expire(struct status_line *s, double now)
{
	if (!s->text[0] || now < s->until)
		return false;
	s->text[0] = '\0';
	return true;
}

double status_wait(const struct status_line *s, double now)
{
	return s->text[0] ? (s->until > now ? s->until - now : 0) : -1;
}
