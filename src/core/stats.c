/* stats.c - Student's t, Welch's test, the Mann-Whitney U test, confidence intervals
 * (include/stats.h).  The t distribution through the regularized incomplete beta
 * function (Numerical Recipes' continued fraction), as every statistics library does. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats.h"

/* The continued fraction of the incomplete beta function (modified Lentz). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 500; m++) {
		int m2 = 2 * m;
		double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b) */
static double incomplete_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_two_sided_p(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_critical(double alpha, double df)
{
	if (!(df > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	double lo = 0, hi = 1;
	while (stats_t_two_sided_p(hi, df) > alpha && hi < 1e9)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_two_sided_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Mean and sample variance of the finite values of v; their count. */
static size_t moments(const double *v, size_t n, double *mean, double *var)
{
	size_t k = 0;
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i])) {
			sum += v[i];
			k++;
		}
	*mean = k ? sum / (double)k : NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			sq += (v[i] - *mean) * (v[i] - *mean);
	*var = k > 1 ? sq / (double)(k - 1) : NAN;
	return k;
}

void stats_mean_ci(const double *v, size_t n, double *mean, double *half)
{
	double var;
	size_t k = moments(v, n, mean, &var);
	*half = k > 1 ? stats_t_critical(STATS_ALPHA, (double)(k - 1)) * sqrt(var / (double)k)
		      : NAN;
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	double ma, va, mb, vb;
	size_t ka = moments(a, na, &ma, &va), kb = moments(b, nb, &mb, &vb);
	if (ka < 2 || kb < 2)
		return NAN;
	double sa = va / (double)ka, sb = vb / (double)kb, se2 = sa + sb;
	if (se2 <= 0)
		return ma == mb ? 1 : 0;
	double df = se2 * se2 / (sa * sa / (double)(ka - 1) + sb * sb / (double)(kb - 1));
	return stats_t_two_sided_p((ma - mb) / sqrt(se2), df);
}

struct ranked {
	double v;
	bool in_a;
};

static int by_value(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;
	return (a > b) - (a < b);
}

double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = 0, ka = 0;
	struct ranked *all = malloc((na + nb + 1) * sizeof *all);
	if (!all)
		return NAN;
	for (size_t i = 0; i < na; i++)
		if (isfinite(a[i]))
			all[n++] = (struct ranked){ a[i], true }, ka++;
	for (size_t i = 0; i < nb; i++)
		if (isfinite(b[i]))
			all[n++] = (struct ranked){ b[i], false };
	size_t kb = n - ka;
	if (ka < 2 || kb < 2) {
		free(all);
		return NAN;
	}
	qsort(all, n, sizeof *all, by_value);
	double rank_sum = 0, ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && all[j].v == all[i].v)
			j++;
		double rank = (double)(i + 1 + j) / 2, t = (double)(j - i);   /* ranks i+1 .. j */
		for (size_t k = i; k < j; k++)
			rank_sum += all[k].in_a ? rank : 0;
		ties += t * t * t - t;
		i = j;
	}
	free(all);
	double N = (double)n, u = rank_sum - (double)ka * ((double)ka + 1) / 2;
	double mu = (double)ka * (double)kb / 2;
	double var = (double)ka * (double)kb / 12 * ((N + 1) - ties / (N * (N - 1)));
	if (var <= 0)
		return 1;   /* every value the same */
	double z = (fabs(u - mu) - 0.5) / sqrt(var);
	return z > 0 ? erfc(z / sqrt(2)) : 1;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* log P(X = k), X ~ Binomial(n, q) */
static double log_binomial(size_t n, size_t k, double q)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) +
	       (double)k * log(q) + (double)(n - k) * log1p(-q);
}

void stats_percentile_ci(double *v, size_t n, double p, double *est, double *lo, double *hi)
{
	*est = *lo = *hi = NAN;
	if (n == 0 || !(p > 0 && p < 100))
		return;
	qsort(v, n, sizeof *v, cmp_double);
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	*est = v[rank ? rank - 1 : 0];
	/* X, the values below the true percentile, is Binomial(n, q): the l-th smallest
	 * value is above it when X < l, the u-th below it when X >= u.  The largest l and
	 * the smallest u for which each has a chance of at most alpha / 2. */
	double q = p / 100.0, below = 0, tail = STATS_ALPHA / 2;
	size_t l = 0, u = 0;
	for (size_t k = 0; k <= n; k++) {
		double cdf_before = below;   /* P(X <= k - 1) = P(X < k) */
		below += exp(log_binomial(n, k, q));
		if (k >= 1 && cdf_before <= tail)
			l = k;
		if (!u && k >= 1 && 1 - cdf_before <= tail)
			u = k;
	}
	if (l >= 1)
		*lo = v[l - 1];
	if (u >= 1 && u <= n)
		*hi = v[u - 1];
}
