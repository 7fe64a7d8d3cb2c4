/* stats.h - the little inferential statistics ioscope needs to say whether a difference
 * between two sets of measurements is more than their spread (docs/experiments.md,
 * "Uncertainty"): Student's t, Welch's test, the Mann-Whitney U test, and confidence
 * intervals of a mean and of a percentile.  Pure functions of their arguments. */
#ifndef IOSCOPE_STATS_H
#define IOSCOPE_STATS_H

#include <stddef.h>

#define STATS_ALPHA 0.05     /* the level of every test and the 95 % of every interval */

/* Two-sided p of Student's t with df degrees of freedom (df > 0, not necessarily whole):
 * P(|T| >= |t|).  NAN for df <= 0. */
double stats_t_two_sided_p(double t, double df);
/* The t with P(|T| >= t) = alpha (12.706 for df 1, 1.960 as df grows). */
double stats_t_critical(double alpha, double df);

/* Mean of v[0..n) and half the width of its 95 % confidence interval (Student's t with
 * n - 1 degrees of freedom: mean ± half); *half NAN when n < 2, *mean NAN when n == 0.
 * NAN values are not counted. */
void stats_mean_ci(const double *v, size_t n, double *mean, double *half);

/* Welch's t test of the means of a[0..na) and b[0..nb) (unequal variances): the two-sided
 * p; NAN when either has fewer than 2 values.  Both without spread: 1 when the means are
 * equal, else 0. */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb);

/* The Mann-Whitney U test (Wilcoxon rank sum) of a[0..na) against b[0..nb): the two-sided
 * p of the normal approximation with the correction for ties and for continuity; NAN
 * when either has fewer than 2 values.  A rank test: for latencies, whose tails are long
 * and whose means are pulled by a few stalls. */
double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

/* The p-th percentile (0 < p < 100) of v[0..n), sorted in place, by nearest rank (a
 * value that was measured), and a distribution-free 95 % confidence interval of it: the
 * order statistics whose ranks the binomial distribution gives, so that it holds at least
 * 95 % whatever the distribution.  *lo (*hi) NAN when n is too small for that bound (the
 * 99th percentile of 10 reads has no upper bound: any of them may be below it).  *est
 * NAN when n == 0. */
void stats_percentile_ci(double *v, size_t n, double p, double *est, double *lo, double *hi);

#endif
