/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_bound.h - the pure rules of per-task wake-up latency bounds: what a
 * write to /dev/sched_power_latency means, the floor, who may add a bound,
 * and which CPUs a bound holds out of deep idle.  latency.c is the kernel
 * door onto them; Documentation/latency.rst states the permission model.
 */
#ifndef SP_BOUND_H
#define SP_BOUND_H

#include "sp_model.h"

#define SP_BOUND_MAX_US		2000000u	/* largest bound accepted, us */
#define SP_BOUND_FLOOR_MARGIN_US 10u	/* floor = shallowest exit + this */
#define SP_BOUND_MAX_HOLDS	4096u	/* bounds in force (files), all users */
#define SP_BOUND_RESERVED	512u	/* of those, left to CAP_SYS_NICE */
#define SP_BOUND_MAX_PER_USER	256u	/* bounds in force per unprivileged user */
#define SP_BOUND_USER_CPUS	2u	/* CPUs one unprivileged user holds */
#define SP_BOUND_RECENT_NS	10000000ull	/* "ran recently": 10 ms */
#define SP_BOUND_WALK_MAX	1024u	/* threads of one target per QoS pass */
#define SP_BOUND_NONE		0u	/* "no bound" in a per-CPU wish */

/*
 * Parse one write of @len bytes: exactly 4 bytes that are not ASCII decimal
 * are a native-endian s32 (as /dev/cpu_dma_latency takes it); otherwise
 * ASCII decimal digits with at most one trailing newline.  Returns 0 and the
 * bound in @us, or -EINVAL (negative, above SP_BOUND_MAX_US, short, garbage).
 * No valid binary bound (top byte 0) reads as ASCII digits, so the two
 * forms cannot be confused.
 */
int sp_bound_parse(const char *buf, size_t len, u32 *us);

/*
 * The floor: the smallest non-zero exit latency of any idle state in @m,
 * plus SP_BOUND_FLOOR_MARGIN_US.  A bound below it would ask for polling.
 */
u32 sp_bound_floor_us(const struct sp_model *m);

/* The bound in force for a request of @us under @floor_us. */
static inline u32 sp_bound_effective_us(u32 us, u32 floor_us)
{
	return us < floor_us ? floor_us : us;
}

/*
 * May one more bound be added?  @total bounds are in force, @user_count of
 * them charged to the writer's user.  A @privileged writer (CAP_SYS_NICE)
 * is limited by SP_BOUND_MAX_HOLDS only; any other by SP_BOUND_MAX_PER_USER
 * and by the pool less SP_BOUND_RESERVED, so the last SP_BOUND_RESERVED
 * slots stay free for privileged writers.  0 or -ENOSPC.
 */
int sp_bound_admit(u32 total, u32 user_count, bool privileged);

/*
 * Fold a bound @bound_us held on @cpu into the per-CPU wish
 * @want_us[@nr_cpus] (SP_BOUND_NONE = no request): the smallest bound.
 * A CPU outside 0..nr_cpus-1 is ignored.
 */
void sp_bound_fold(u32 *want_us, u32 nr_cpus, s32 cpu, u32 bound_us);

/*
 * Where a thread's request goes: the CPU it is on (@task_cpu) while that
 * CPU is in its affinity mask (@cpu_allowed); else, if the mask has one CPU
 * (@nr_allowed == 1, @first_allowed), that CPU, where it must run next;
 * else nowhere (-1) until the scheduler places it again.
 */
s32 sp_bound_thread_cpu(s32 task_cpu, bool cpu_allowed, u32 nr_allowed,
			s32 first_allowed);

/*
 * Does a thread count for an unprivileged bound?  Only while it is
 * @queued (running or runnable), or ran within SP_BOUND_RECENT_NS before
 * @now_ns (@last_ran_ns: when it last stopped running, on the same clock).
 */
bool sp_bound_thread_recent(bool queued, u64 now_ns, u64 last_ran_ns);

/* The CPUs that one unprivileged user's bounds hold in one QoS pass. */
struct sp_bound_user_cpus {
	u32 nr;
	s32 cpu[SP_BOUND_USER_CPUS];
};

/*
 * May this user's bound hold @cpu?  Yes if the user already holds it, or
 * holds fewer than SP_BOUND_USER_CPUS (then @cpu is added); else no.
 */
bool sp_bound_user_take(struct sp_bound_user_cpus *u, s32 cpu);

/* Does the user hold SP_BOUND_USER_CPUS CPUs already? */
static inline bool sp_bound_user_full(const struct sp_bound_user_cpus *u)
{
	return u->nr >= SP_BOUND_USER_CPUS;
}

#endif /* SP_BOUND_H */
