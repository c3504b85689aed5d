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

/**
 * sp_bound_parse() - what one write to /dev/sched_power_latency asks for
 * @buf: the bytes written
 * @len: how many
 * @us: the bound, us; set only on success
 *
 * Exactly 4 bytes that are not ASCII decimal are a native-endian s32 (as
 * /dev/cpu_dma_latency takes it); otherwise ASCII decimal digits with at
 * most one trailing newline.  No valid binary bound (top byte 0) reads as
 * ASCII digits, so the two forms cannot be confused.
 *
 * Return: 0, or -EINVAL (negative, above %SP_BOUND_MAX_US, short, garbage).
 */
int sp_bound_parse(const char *buf, size_t len, u32 *us);

/**
 * sp_bound_floor_us() - the smallest bound worth asking for
 * @m: the model, or NULL
 *
 * A bound below the floor would ask for polling.
 *
 * Return: the smallest non-zero exit latency of any idle state in @m, plus
 * %SP_BOUND_FLOOR_MARGIN_US, in us.
 */
u32 sp_bound_floor_us(const struct sp_model *m);

/**
 * sp_bound_effective_us() - the bound in force for a request
 * @us: the bound asked for
 * @floor_us: sp_bound_floor_us() when it was asked
 *
 * Return: @us raised to @floor_us.
 */
static inline u32 sp_bound_effective_us(u32 us, u32 floor_us)
{
	return us < floor_us ? floor_us : us;
}

/**
 * sp_bound_admit() - may one more bound be added?
 * @total: bounds in force
 * @user_count: of those, charged to the writer's user
 * @privileged: the writer has CAP_SYS_NICE
 *
 * A privileged writer is limited by %SP_BOUND_MAX_HOLDS only; any other by
 * %SP_BOUND_MAX_PER_USER and by the pool less %SP_BOUND_RESERVED, so the
 * last %SP_BOUND_RESERVED slots stay free for privileged writers.
 *
 * Return: 0 or -ENOSPC.
 */
int sp_bound_admit(u32 total, u32 user_count, bool privileged);

/**
 * sp_bound_fold() - add a bound held on one CPU to the per-CPU wish
 * @want_us: the wish per CPU, in us (%SP_BOUND_NONE: no request)
 * @nr_cpus: its length
 * @cpu: the CPU held; one outside 0..nr_cpus-1 is ignored
 * @bound_us: the bound
 *
 * The CPU's wish becomes the smaller of the two.
 */
void sp_bound_fold(u32 *want_us, u32 nr_cpus, s32 cpu, u32 bound_us);

/**
 * sp_bound_thread_cpu() - where a thread's request goes
 * @task_cpu: the CPU the thread is on
 * @cpu_allowed: @task_cpu is in its affinity mask
 * @nr_allowed: CPUs in its affinity mask
 * @first_allowed: the first of them
 *
 * Return: @task_cpu while it is allowed; else, if the mask has one CPU,
 * that CPU, where the thread must run next; else -1 (nowhere) until the
 * scheduler places it again.
 */
s32 sp_bound_thread_cpu(s32 task_cpu, bool cpu_allowed, u32 nr_allowed,
			s32 first_allowed);

/**
 * sp_bound_thread_recent() - does a thread count for an unprivileged bound?
 * @queued: it is running or runnable
 * @now_ns: now
 * @last_ran_ns: when it last stopped running, on the same clock
 *
 * Return: true while it is queued, or ran within %SP_BOUND_RECENT_NS
 * before @now_ns.
 */
bool sp_bound_thread_recent(bool queued, u64 now_ns, u64 last_ran_ns);

/**
 * struct sp_bound_user_cpus - the CPUs one user's bounds hold in a QoS pass
 * @nr: how many
 * @cpu: which
 *
 * For an unprivileged user; sp_bound_user_take() fills it.
 */
struct sp_bound_user_cpus {
	u32 nr;
	s32 cpu[SP_BOUND_USER_CPUS];
};

/**
 * sp_bound_user_take() - may this user's bound hold a CPU?
 * @u: the CPUs the user holds in this QoS pass
 * @cpu: the CPU
 *
 * Return: true if the user already holds @cpu, or holds fewer than
 * %SP_BOUND_USER_CPUS (then @cpu is added to @u); else false.
 */
bool sp_bound_user_take(struct sp_bound_user_cpus *u, s32 cpu);

/**
 * sp_bound_user_full() - does the user hold %SP_BOUND_USER_CPUS CPUs already?
 * @u: the CPUs the user holds in this QoS pass
 *
 * Return: true if it can take no other.
 */
static inline bool sp_bound_user_full(const struct sp_bound_user_cpus *u)
{
	return u->nr >= SP_BOUND_USER_CPUS;
}

#endif /* SP_BOUND_H */
