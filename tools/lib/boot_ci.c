// SPDX-License-Identifier: GPL-2.0
/*
 * boot_ci.c - median, geometric mean and their percentile-bootstrap
 * intervals, shared by make vm-overhead and power-bench.
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

double boot_geomean(const double *v, size_t n)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += log(v[i]);
	return exp(sum / (double)n);
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
	return s[i] + (pos - (double)i) * (s[i + 1] - s[i]);
}

/* The statistic of one resample @draw (sorted in place for the median). */
static double stat_of(double *draw, size_t n, enum boot_stat stat)
{
	if (stat == BOOT_GEOMEAN)
		return boot_geomean(draw, n);
	qsort(draw, n, sizeof(*draw), cmp_double);
	return median_sorted(draw, n);
}

int boot_ci(const double *v, size_t n, enum boot_stat stat, unsigned int resamples,
	    uint64_t seed, struct boot_ci *ci)
{
	double *draw, *stats;
	uint64_t state = seed ? seed : 0x9e3779b97f4a7c15ull;
	unsigned int b;
	size_t i;

	if (!n || !resamples)
		return -1;
	for (i = 0; stat == BOOT_GEOMEAN && i < n; i++)
		if (!(v[i] > 0))
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
		stats[b] = stat_of(draw, n, stat);
	}
	qsort(stats, resamples, sizeof(*stats), cmp_double);
	ci->est = stat == BOOT_GEOMEAN ? boot_geomean(v, n) : boot_median(v, n);
	ci->lo = quantile_sorted(stats, resamples, 0.025);
	ci->hi = quantile_sorted(stats, resamples, 0.975);
	free(draw);
	free(stats);
	return 0;
}

int boot_excludes(const struct boot_ci *ci, double x)
{
	if (ci->hi < x)
		return -1;
	if (ci->lo > x)
		return 1;
	return 0;
}
