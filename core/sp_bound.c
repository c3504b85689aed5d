// SPDX-License-Identifier: GPL-2.0
/*
 * sp_bound.c - pure rules of per-task wake-up latency bounds.
 */

/**
 * DOC: latency-bound rules
 *
 * The kernel side (latency.c) keeps the bounds and the QoS requests; what a
 * write means, how low a bound may go, who may add one, and which CPUs a
 * bound holds out of deep idle are decided here, so that the host tests
 * check them without a kernel.
 *
 * A bound written with CAP_SYS_NICE holds the CPU of every thread of its
 * target, as /dev/cpu_dma_latency holds every CPU.  Any other bound holds
 * a CPU only while one of its target's threads runs there or ran there in
 * the last SP_BOUND_RECENT_NS, and one user's bounds together hold at most
 * SP_BOUND_USER_CPUS CPUs: a sleeping application leaves every CPU free to
 * go deep, and a busy one keeps at most that many shallow.
 */
#include "sp_compat.h"
#include "sp_bound.h"

/* ASCII decimal, optional single trailing newline; 0 or -EINVAL. */
static int sp_bound_parse_ascii(const char *buf, size_t len, u32 *us)
{
	u64 v = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len || len > 10)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		v = v * 10 + (u64)(buf[i] - '0');
	}
	if (v > SP_BOUND_MAX_US)
		return -EINVAL;
	*us = (u32)v;
	return 0;
}

int sp_bound_parse(const char *buf, size_t len, u32 *us)
{
	s32 bin;

	if (!sp_bound_parse_ascii(buf, len, us))
		return 0;
	if (len != sizeof(bin))
		return -EINVAL;
	memcpy(&bin, buf, sizeof(bin));
	if (bin < 0 || (u32)bin > SP_BOUND_MAX_US)
		return -EINVAL;
	*us = (u32)bin;
	return 0;
}

u32 sp_bound_floor_us(const struct sp_model *m)
{
	u32 best = 0, p, i;

	for (p = 0; m && p < m->nr_pds && p < SP_MAX_PDS; p++) {
		const struct sp_pd *pd = &m->pd[p];

		for (i = 0; i < pd->nr_idle && i < SP_MAX_IDLE; i++) {
			u32 l = pd->idle[i].exit_latency_us;

			if (l && (!best || l < best))
				best = l;
		}
	}
	return best + SP_BOUND_FLOOR_MARGIN_US;
}

int sp_bound_admit(u32 total, u32 user_count, bool privileged)
{
	if (privileged)
		return total < SP_BOUND_MAX_HOLDS ? 0 : -ENOSPC;
	if (total >= SP_BOUND_MAX_HOLDS - SP_BOUND_RESERVED ||
	    user_count >= SP_BOUND_MAX_PER_USER)
		return -ENOSPC;
	return 0;
}

void sp_bound_fold(u32 *want_us, u32 nr_cpus, s32 cpu, u32 bound_us)
{
	if (cpu < 0 || (u32)cpu >= nr_cpus || bound_us == SP_BOUND_NONE)
		return;
	if (want_us[cpu] == SP_BOUND_NONE || bound_us < want_us[cpu])
		want_us[cpu] = bound_us;
}

s32 sp_bound_thread_cpu(s32 task_cpu, bool cpu_allowed, u32 nr_allowed,
			s32 first_allowed)
{
	if (cpu_allowed)
		return task_cpu;
	return nr_allowed == 1 ? first_allowed : -1;
}

bool sp_bound_thread_recent(bool queued, u64 now_ns, u64 last_ran_ns)
{
	if (queued)
		return true;
	/* a clock read before the thread's own last update: it just ran */
	return now_ns <= last_ran_ns || now_ns - last_ran_ns <= SP_BOUND_RECENT_NS;
}

bool sp_bound_user_take(struct sp_bound_user_cpus *u, s32 cpu)
{
	u32 i;

	for (i = 0; i < u->nr && i < SP_BOUND_USER_CPUS; i++)
		if (u->cpu[i] == cpu)
			return true;
	if (sp_bound_user_full(u))
		return false;
	u->cpu[u->nr++] = cpu;
	return true;
}
