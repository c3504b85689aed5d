/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot_ci.h - percentile-bootstrap 95 % intervals for the tools' tables:
 * the median of a few repetitions (make vm-overhead's per-round ratios),
 * and the ratio of two sums over paired repetitions (power-bench: a
 * configuration against the reference, repetition by repetition).
 */
#ifndef BOOT_CI_H
#define BOOT_CI_H

#include <stddef.h>
#include <stdint.h>

#define BOOT_RESAMPLES	10000

struct boot_ci {
	double est;	/* the statistic of the samples */
	double lo;	/* 2.5th percentile of the resamples' statistic */
	double hi;	/* 97.5th percentile */
};

/* Median of @n values (@n > 0); @v is not changed.  0 when memory runs out. */
double boot_median(const double *v, size_t n);

/*
 * Percentile-bootstrap interval of the median of @v: @resamples draws of @n
 * with replacement from a xorshift64* stream seeded with @seed, so the same
 * input gives the same interval.  Returns 0, or -1 when @n or @resamples is
 * 0 or memory runs out.
 */
int boot_ci(const double *v, size_t n, unsigned int resamples, uint64_t seed,
	    struct boot_ci *ci);

/*
 * The same for sum(@num) / sum(@den) over @n pairs, resampling pairs (so a
 * slow host minute that slowed both sides of a pair stays in one draw).
 * Zeros are fine as long as sum(@den) > 0; a resample whose @den sum is 0
 * counts as +inf (as 1 when its @num sum is 0 too).  -1 when sum(@den) <= 0.
 */
int boot_ci_ratio(const double *num, const double *den, size_t n, unsigned int resamples,
		  uint64_t seed, struct boot_ci *ci);

/*
 * Does the interval lie wholly below (-1), wholly above (1) @x, or span it
 * (0)?  An end within a relative 1e-9 of @x (floating-point rounding of the
 * sums) spans it.
 */
int boot_excludes(const struct boot_ci *ci, double x);

#endif
