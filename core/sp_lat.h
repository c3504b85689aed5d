/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_lat.h - the pure rules of per-task wake-up latency bounds: what a
 * write to /dev/sched_power_latency means, the floor, the limits, and the
 * per-CPU resume-latency wish.  latency.c is the kernel door onto them.
 */
#ifndef SP_LAT_H
#define SP_LAT_H

#include "sp_model.h"

#define SP_LAT_MAX_US		2000000u	/* largest bound accepted, us */
#define SP_LAT_FLOOR_MARGIN_US	10u	/* floor = shallowest exit + this */
#define SP_LAT_MAX_ENTRIES	4096u	/* bounds in force, all users */
#define SP_LAT_MAX_PER_UID	256u	/* bounds in force per user */
#define SP_LAT_NONE		0u	/* "no bound" in a per-CPU wish */

/*
 * Parse one write of @len bytes: exactly 4 bytes that are not ASCII decimal
 * are a native-endian s32 (as /dev/cpu_dma_latency takes it); otherwise
 * ASCII decimal digits with at most one trailing newline.  Returns 0 and the
 * bound in @us, or -EINVAL (negative, above SP_LAT_MAX_US, short, garbage).
 * No valid binary bound (top byte 0) reads as ASCII digits, so the two
 * forms cannot be confused.
 */
int sp_lat_parse(const char *buf, size_t len, u32 *us);

/*
 * The floor: the smallest non-zero exit latency of any idle state in @m,
 * plus SP_LAT_FLOOR_MARGIN_US.  A bound below it would ask for polling.
 */
u32 sp_lat_floor_us(const struct sp_model *m);

/* The bound in force for a request of @us under @floor_us. */
static inline u32 sp_lat_effective_us(u32 us, u32 floor_us)
{
	return us < floor_us ? floor_us : us;
}

/* May one more bound be added (@total in force, @uid_count of this user)? */
int sp_lat_admit(u32 total, u32 uid_count);

/*
 * Fold a bounded task that runs (or last ran) on @cpu into the per-CPU
 * wish @want_us[@nr_cpus] (SP_LAT_NONE = no request): the smallest bound.
 * A CPU outside 0..nr_cpus-1 is ignored.
 */
void sp_lat_fold(u32 *want_us, u32 nr_cpus, s32 cpu, u32 bound_us);

#endif /* SP_LAT_H */
