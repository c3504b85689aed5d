/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mono_clock.h - CLOCK_MONOTONIC in nanoseconds, for the host tools that
 * time themselves (the benchmarks' ns per decision or event, the
 * simulator's run time).
 */
#ifndef MONO_CLOCK_H
#define MONO_CLOCK_H

#include <time.h>

#include "sp_compat.h"

/**
 * mono_ns() - the monotonic clock now
 *
 * Return: CLOCK_MONOTONIC in ns.
 */
static inline u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

#endif /* MONO_CLOCK_H */
