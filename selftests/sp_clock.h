/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_clock.h - the monotonic clock and busy-wait of the guest workloads
 * (sp_load, sp_lat), in microseconds.
 */
#ifndef SP_CLOCK_H
#define SP_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Spin on the CPU for @us microseconds: work, not sleep. */
static inline void spin_us(uint64_t us)
{
	uint64_t end = now_us() + us;

	while (now_us() < end)
		;
}

#endif /* SP_CLOCK_H */
