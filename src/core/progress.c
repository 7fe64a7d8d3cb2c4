/* progress.c - progress of long work on a terminal (include/progress.h). */
#include <stdlib.h>
#include <unistd.h>

#include "progress.h"
#include "text.h"

#define PROGRESS_AFTER_S 1.0    /* quicker work shows nothing (IOSCOPE_PROGRESS_AFTER) */
#define PROGRESS_EVERY_S 0.2

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void progress_begin(struct progress *p, FILE *out, const char *what)
{
	*p = (struct progress){ .out = out && isatty(fileno(out)) ? out : NULL, .what = what,
				.after = PROGRESS_AFTER_S };
	const char *after = getenv("IOSCOPE_PROGRESS_AFTER");
	char *end;
	double v = after ? strtod(after, &end) : -1;
	if (after && end != after && *end == '\0' && v >= 0 && v < 86400)
		p->after = v;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
}

void progress_update(struct progress *p, uint64_t done, uint64_t total)
{
	if (!p->out || total == 0)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (since(&p->start, &now) < p->after || (p->shown && since(&p->last, &now) < PROGRESS_EVERY_S))
		return;
	p->last = now;
	p->shown = true;
	text_printf(p->out, "\r%s: %3u%%", p->what, (unsigned)(done * 100 / total));
	fflush(p->out);
}

void progress_end(struct progress *p)
{
	if (p->out && p->shown) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	p->shown = false;
}
