/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ovh_stats.h - the statistics of make vm-overhead: the median of per-round
 * ratios with a bootstrap 95 % interval (tools/lib/boot_ci.h), and the rule
 * that says when the interval is too wide to tell (Documentation/overhead.rst).
 */
#ifndef OVH_STATS_H
#define OVH_STATS_H

#include "boot_ci.h"

#define OVH_BOOT_RESAMPLES	BOOT_RESAMPLES
#define OVH_TOL			0.02	/* +-2 %: the goal and the "cannot tell" width */

enum ovh_verdict {
	OVH_CANNOT_TELL,	/* the interval reaches beyond median +-tol */
	OVH_WITHIN,		/* interval inside [1 - tol, 1 + tol] */
	OVH_OVER,		/* tight interval, above 1 + tol somewhere */
	OVH_UNDER,		/* tight interval, below 1 - tol somewhere */
};

/* The verdict on a ratio's interval (of the median) against the tolerance tol (0.02). */
enum ovh_verdict ovh_judge(const struct boot_ci *ci, double tol);
const char *ovh_verdict_name(enum ovh_verdict v);

#endif
