// SPDX-License-Identifier: GPL-2.0
/*
 * ovh_stats_lib.c - median, percentile bootstrap and the "cannot tell"
 * rule for make vm-overhead.
 *
 * Copyright (C) 2026 sched_power developers
 */
#include <stdlib.h>
#include <string.h>

#include "ovh_stats.h"

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

double ovh_median(const double *v, size_t n)
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
	double pos = q * (n - 1);
	size_t i = (size_t)pos;

	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (pos - i) * (s[i + 1] - s[i]);
}

int ovh_boot_ci(const double *v, size_t n, unsigned int resamples, uint64_t seed,
		struct ovh_ci *ci)
{
	double *draw, *meds;
	uint64_t state = seed ? seed : 0x9e3779b97f4a7c15ull;
	unsigned int b;
	size_t i;

	if (!n || !resamples)
		return -1;
	draw = malloc(n * sizeof(*draw));
	meds = malloc(resamples * sizeof(*meds));
	if (!draw || !meds) {
		free(draw);
		free(meds);
		return -1;
	}
	for (b = 0; b < resamples; b++) {
		for (i = 0; i < n; i++)
			draw[i] = v[xorshift64s(&state) % n];
		qsort(draw, n, sizeof(*draw), cmp_double);
		meds[b] = median_sorted(draw, n);
	}
	qsort(meds, resamples, sizeof(*meds), cmp_double);
	ci->median = ovh_median(v, n);
	ci->lo = quantile_sorted(meds, resamples, 0.025);
	ci->hi = quantile_sorted(meds, resamples, 0.975);
	free(draw);
	free(meds);
	return 0;
}

enum ovh_verdict ovh_judge(const struct ovh_ci *ci, double tol)
{
	/* 1e-9: a value exactly on the edge is inside */
	if (ci->median - ci->lo > tol + 1e-9 || ci->hi - ci->median > tol + 1e-9)
		return OVH_CANNOT_TELL;
	if (ci->hi > 1 + tol + 1e-9)
		return OVH_OVER;
	if (ci->lo < 1 - tol - 1e-9)
		return OVH_UNDER;
	return OVH_WITHIN;
}

const char *ovh_verdict_name(enum ovh_verdict v)
{
	switch (v) {
	case OVH_CANNOT_TELL: return "cannot_tell";
	case OVH_WITHIN: return "within_2pct";
	case OVH_OVER: return "over_2pct";
	case OVH_UNDER: return "under_2pct";
	}
	return "?";
}
