// SPDX-License-Identifier: GPL-2.0
/*
 * ovh_stats_lib.c - the "cannot tell" rule of make vm-overhead; the median
 * and its bootstrap interval are tools/lib/boot_ci.c's.
 *
 * Copyright (C) 2026 sched_power developers
 */
#include "ovh_stats.h"

enum ovh_verdict ovh_judge(const struct boot_ci *ci, double tol)
{
	/* 1e-9: a value exactly on the edge is inside */
	if (ci->est - ci->lo > tol + 1e-9 || ci->hi - ci->est > tol + 1e-9)
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
