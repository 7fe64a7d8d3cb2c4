/* pacing.c - the next deadline on the sampling grid (pacing.h). */
#include <math.h>

#include "pacing.h"

double pacing_next_deadline(double origin, double interval, double now)
{
	double k = floor((now - origin) / interval) + 1.0;
	if (k < 1.0)
		k = 1.0;
	double next = origin + k * interval;
	while (next - now < interval / 2.0)
		next += interval;
	return next;
}
