/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot_ci.h - percentile-bootstrap 95 % intervals for the tools' tables
 * (make vm-overhead, power-bench): a statistic of a few repetitions, and
 * the interval its resamples give.
 */
#ifndef BOOT_CI_H
#define BOOT_CI_H

#include <stddef.h>
#include <stdint.h>

#define BOOT_RESAMPLES	10000

/* The statistic an interval is about. */
enum boot_stat {
	BOOT_MEDIAN,	/* the median: robust to one wild repetition */
	BOOT_GEOMEAN,	/* exp(mean(log v)) of positive values: for ratios */
};

struct boot_ci {
	double est;	/* the statistic of the samples */
	double lo;	/* 2.5th percentile of the resamples' statistic */
	double hi;	/* 97.5th percentile */
};

/* Median of @n values (@n > 0); @v is not changed.  0 when memory runs out. */
double boot_median(const double *v, size_t n);

/* Geometric mean of @n positive values (@n > 0). */
double boot_geomean(const double *v, size_t n);

/*
 * Percentile-bootstrap interval of @stat over @v: @resamples draws of @n
 * with replacement from a xorshift64* stream seeded with @seed, so the same
 * input gives the same interval.  Returns 0, or -1 when @n or @resamples is
 * 0, a geometric mean meets a value <= 0, or memory runs out.
 */
int boot_ci(const double *v, size_t n, enum boot_stat stat, unsigned int resamples,
	    uint64_t seed, struct boot_ci *ci);

/* Does the interval lie wholly below (-1), wholly above (1) @x, or span it (0)? */
int boot_excludes(const struct boot_ci *ci, double x);

#endif
