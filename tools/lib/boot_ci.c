// SPDX-License-Identifier: GPL-2.0
/*
 * boot_ci.c - the median and the ratio of sums, and their
 * percentile-bootstrap intervals, shared by make vm-overhead and power-bench.
 *
 * Copyright (C) 2026 sched_power developers
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boot_ci.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of sorted values. */
static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double boot_median(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s));
	double m;

	if (!s)
		return 0;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = median_sorted(s, n);
	free(s);
	return m;
}

static uint64_t xorshift64s(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Value at fraction q of sorted s, linear between neighbours. */
static double quantile_sorted(const double *s, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return s[n - 1];
	if (pos == (double)i || s[i + 1] == s[i])
		return s[i];	/* also keeps 0 x inf out */
	if (isinf(s[i + 1]))
		return s[i + 1];
	return s[i] + (pos - (double)i) * (s[i + 1] - s[i]);
}

int boot_ci(const double *v, size_t n, unsigned int resamples, uint64_t seed,
	    struct boot_ci *ci)
{
	double *draw, *stats;
	uint64_t state = seed ? seed : 0x9e3779b97f4a7c15ull;
	unsigned int b;
	size_t i;

	if (!n || !resamples)
		return -1;
	draw = malloc(n * sizeof(*draw));
	stats = malloc(resamples * sizeof(*stats));
	if (!draw || !stats) {
		free(draw);
		free(stats);
		return -1;
	}
	for (b = 0; b < resamples; b++) {
		for (i = 0; i < n; i++)
			draw[i] = v[xorshift64s(&state) % n];
		qsort(draw, n, sizeof(*draw), cmp_double);
		stats[b] = median_sorted(draw, n);
	}
	qsort(stats, resamples, sizeof(*stats), cmp_double);
	ci->est = boot_median(v, n);
	ci->lo = quantile_sorted(stats, resamples, 0.025);
	ci->hi = quantile_sorted(stats, resamples, 0.975);
	free(draw);
	free(stats);
	return 0;
}

/* sum(num) / sum(den); +inf, or 1 for 0 / 0, when sum(den) is 0. */
static double ratio_of(double num, double den)
{
	if (den > 0)
		return num / den;
	return num > 0 ? INFINITY : 1.0;
}

int boot_ci_ratio(const double *num, const double *den, size_t n, unsigned int resamples,
		  uint64_t seed, struct boot_ci *ci)
{
	uint64_t state = seed ? seed : 0x9e3779b97f4a7c15ull;
	double sn = 0, sd = 0, *stats;
	unsigned int b;
	size_t i, k;

	for (i = 0; i < n; i++) {
		sn += num[i];
		sd += den[i];
	}
	if (!n || !resamples || !(sd > 0))
		return -1;
	stats = malloc(resamples * sizeof(*stats));
	if (!stats)
		return -1;
	for (b = 0; b < resamples; b++) {
		double dn = 0, dd = 0;

		for (i = 0; i < n; i++) {
			k = xorshift64s(&state) % n;
			dn += num[k];
			dd += den[k];
		}
		stats[b] = ratio_of(dn, dd);
	}
	qsort(stats, resamples, sizeof(*stats), cmp_double);
	ci->est = sn / sd;
	ci->lo = quantile_sorted(stats, resamples, 0.025);
	ci->hi = quantile_sorted(stats, resamples, 0.975);
	free(stats);
	return 0;
}

/*
 * An end within BOOT_TIE of @x (relative) spans @x: the same values summed
 * in another order give a ratio that is exactly 1 as 1 - 2^-52, and such a
 * resample at the 97.5th percentile must not make the interval "lower".
 */
#define BOOT_TIE	1e-9

int boot_excludes(const struct boot_ci *ci, double x)
{
	double tie = BOOT_TIE * fabs(x);

	if (ci->hi < x - tie)
		return -1;
	if (ci->lo > x + tie)
		return 1;
	return 0;
}
