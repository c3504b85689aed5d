/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ovh_stats.h - the statistics of make vm-overhead: the median of per-round
 * ratios with a bootstrap 95 % interval, and the rule that says when the
 * interval is too wide to tell (Documentation/overhead.rst).
 */
#ifndef OVH_STATS_H
#define OVH_STATS_H

#include <stddef.h>
#include <stdint.h>

#define OVH_BOOT_RESAMPLES	10000
#define OVH_TOL			0.02	/* +-2 %: the goal and the "cannot tell" width */

struct ovh_ci {
	double median;	/* median of the samples */
	double lo;	/* 2.5th percentile of the bootstrap medians */
	double hi;	/* 97.5th percentile */
};

enum ovh_verdict {
	OVH_CANNOT_TELL,	/* the interval reaches beyond median +-tol */
	OVH_WITHIN,		/* interval inside [1 - tol, 1 + tol] */
	OVH_OVER,		/* tight interval, above 1 + tol somewhere */
	OVH_UNDER,		/* tight interval, below 1 - tol somewhere */
};

/* Median of n values (n > 0); v is not changed. */
double ovh_median(const double *v, size_t n);

/* Percentile-bootstrap interval of the median: resamples draws of n with
 * replacement from a xorshift64* stream seeded with seed.  Returns 0, or -1
 * when n is 0 or memory runs out. */
int ovh_boot_ci(const double *v, size_t n, unsigned int resamples, uint64_t seed,
		struct ovh_ci *ci);

/* The verdict on a ratio's interval against the tolerance tol (0.02). */
enum ovh_verdict ovh_judge(const struct ovh_ci *ci, double tol);
const char *ovh_verdict_name(enum ovh_verdict v);

#endif
