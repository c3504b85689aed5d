// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - the placement policies the simulator compares.
 *
 * DOC: policies
 *
 * Every policy answers one question at each wake-up: which CPU does the
 * task go to.  The load balancing after that (newidle pull, tick push) is
 * the same for all, as it is CFS's in the kernel whatever sched_power does.
 *
 * spread (CFS-like): prev_cpu if it is idle; else the first idle CPU in the
 * smallest group around prev_cpu that has one (the LLC first, as
 * select_idle_sibling()); else the CPU with the fewest tasks, then the
 * lowest utilisation, prev_cpu winning ties.  This is also "CFS's choice"
 * handed to sp_place().
 *
 * sp-observe, sp-power, sp-balanced, sp-performance: the real sp_place()
 * of core/sp_place.c on the simulator's snapshot, with the module's default
 * knobs (margin 5 %, overutilised at 80 %, window 4000 us, no latency
 * bound), CFS's choice from spread.  The task goes where sp_place() says
 * when it overrides (power, balanced); observe and performance keep CFS's
 * CPU (observe still pays for the computation).
 *
 * pack (small-task packing after Vincent Guittot's proposal): a task whose
 * utilisation is below 25 % of 1024 goes to the first CPU, in CPU order,
 * that stays non-saturated with it (util + task util <= 80 % of the CPU's
 * capacity); bigger tasks, and small ones that fit nowhere, are spread.
 *
 * eas (mainline-EAS-like): unless a CPU is overutilised (util > 80 % of
 * capacity: then spread), take from every performance domain the CPU with
 * the most spare capacity that fits the task, plus prev_cpu, and compute
 * for each the pd's busy energy with the task minus without,
 *
 *	E_pd = P_k * sum_i min(u_i, cap_k) / cap_k, k = OPP for 1.25 * max u_i,
 *
 * ignoring idle states, wake-up energy and groups.  The cheapest wins,
 * unless prev_cpu is within 6 % of it.
 */
#include "sim_int.h"

const char *const sim_policy_names[SIM_POL_ALL] = {
	[SIM_POL_SP_OBSERVE]		= "sp-observe",
	[SIM_POL_SP_POWER]		= "sp-power",
	[SIM_POL_SP_BALANCED]		= "sp-balanced",
	[SIM_POL_SP_PERFORMANCE]	= "sp-performance",
	[SIM_POL_SPREAD]		= "spread",
	[SIM_POL_PACK]			= "pack",
	[SIM_POL_EAS]			= "eas",
	[SIM_POL_LOWER_BOUND]		= "lower-bound",
};

#define PACK_SMALL_UTIL		256	/* 25 % of 1024 */
#define FIT_PCT			80

int sim_policy_by_name(const char *name)
{
	int i;

	for (i = 0; i < SIM_POL_ALL; i++)
		if (!strcmp(name, sim_policy_names[i]))
			return i;
	return -1;
}

static u32 cpu_util(const struct sim *S, u32 cpu)
{
	return sp_cpu_util_now(S->st, cpu, S->now);
}

static bool fits(const struct sim *S, u32 cpu, u32 util)
{
	return (cpu_util(S, cpu) + util) * 100 <= sim_cpu_cap(S, cpu) * FIT_PCT;
}

/* First idle CPU of group @g, scanning from @from's position. */
static int group_idle_cpu(const struct sim *S, u32 g, u32 from)
{
	const struct sp_group *gr = &S->m->group[g];
	const u16 *cpus = S->m->group_cpus + gr->cpu_off;
	u32 i, start = 0;

	for (i = 0; i < gr->nr_cpus; i++)
		if (cpus[i] == from)
			start = i;
	for (i = 0; i < gr->nr_cpus; i++) {
		u32 c = cpus[(start + i) % gr->nr_cpus];

		if (sim_cpu_is_idle(S, c))
			return (int)c;
	}
	return -1;
}

static u32 least_loaded(const struct sim *S, u32 prev)
{
	u32 i, best = prev, best_n = ~0u, best_u = ~0u;

	for (i = 0; i < S->m->nr_cpus; i++) {
		const struct sim_cpu *c = &S->cpu[i];
		u32 n = c->nr_queued + !!c->curr, u = cpu_util(S, i);

		if (n < best_n || (n == best_n && u < best_u) ||
		    (n == best_n && u == best_u && i == prev)) {
			best = i;
			best_n = n;
			best_u = u;
		}
	}
	return best;
}

u32 sim_spread_select(struct sim *S, struct sim_task *t, s32 prev)
{
	u32 base = prev >= 0 ? (u32)prev : 0, l;
	int c;

	if (prev >= 0 && sim_cpu_is_idle(S, (u32)prev))
		return (u32)prev;
	if (S->nr_idle) {
		for (l = 0; l < S->m->nr_levels; l++) {
			c = group_idle_cpu(S, S->m->cpu_group[l][base], base);
			if (c >= 0)
				return (u32)c;
		}
		for (l = 0; l < S->m->nr_cpus; l++)
			if (sim_cpu_is_idle(S, (base + l) % S->m->nr_cpus))
				return (base + l) % S->m->nr_cpus;
	}
	return least_loaded(S, base);
}

static bool allow_all(const void *ctx, u32 cpu)
{
	return true;
}

static u32 sp_select(struct sim *S, struct sim_task *t, u32 mode)
{
	struct sp_policy pol = S->sp_pol;
	struct sp_task_info ti = {
		.now_ns = S->now,
		.util = t->util,
		.prev_cpu = t->prev >= 0 ? (u32)t->prev : ~0u,
		.cfs_cpu = sim_spread_select(S, t, t->prev),
	};
	struct sp_decision d;

	pol.mode = mode;
	sp_place(S->m, S->st, &pol, &ti, allow_all, NULL, &d);
	return d.override ? d.cpu : ti.cfs_cpu;
}

static u32 pack_select(struct sim *S, struct sim_task *t)
{
	u32 i;

	if (t->util < PACK_SMALL_UTIL)
		for (i = 0; i < S->m->nr_cpus; i++)
			if (fits(S, i, t->util))
				return i;
	return sim_spread_select(S, t, t->prev);
}

/* Busy energy rate of pd @p with @extra added to @cpu's util (uW). */
static u64 pd_busy_uw(const struct sim *S, u32 p, u32 cpu, u32 extra)
{
	const struct sp_pd *pd = &S->m->pd[p];
	const u16 *cpus = S->m->pd_cpus + pd->cpu_off;
	u32 i, k, max = 0, u[SP_MAX_CPUS];
	u64 sum = 0;

	for (i = 0; i < pd->nr_cpus; i++) {
		u[i] = cpu_util(S, cpus[i]) + (cpus[i] == cpu ? extra : 0);
		if (u[i] > SP_CAP_SCALE)
			u[i] = SP_CAP_SCALE;
		if (u[i] > max)
			max = u[i];
	}
	k = sp_pd_opp_for(pd, (5 * max + 3) / 4);
	for (i = 0; i < pd->nr_cpus; i++)
		sum += u[i] < pd->opp[k].cap ? u[i] : pd->opp[k].cap;
	return (u64)pd->opp[k].power_uw * sum / pd->opp[k].cap;
}

static s64 eas_delta(const struct sim *S, u32 cpu, u32 util)
{
	u32 p = S->m->cpu_pd[cpu];

	return (s64)pd_busy_uw(S, p, cpu, util) - (s64)pd_busy_uw(S, p, cpu, 0);
}

static u32 eas_select(struct sim *S, struct sim_task *t)
{
	s64 best_e = 0, prev_e = 0;
	s32 best = -1;
	u32 p, i;

	for (i = 0; i < S->m->nr_cpus; i++)
		if (cpu_util(S, i) * 100 > sim_cpu_cap(S, i) * FIT_PCT)
			return sim_spread_select(S, t, t->prev);
	for (p = 0; p < S->m->nr_pds; p++) {
		const struct sp_pd *pd = &S->m->pd[p];
		s32 cand = -1;
		u32 spare = 0;
		s64 e;

		for (i = 0; i < pd->nr_cpus; i++) {
			u32 c = S->m->pd_cpus[pd->cpu_off + i];
			u32 cap = sim_cpu_cap(S, c), u = cpu_util(S, c);

			if (!fits(S, c, t->util))
				continue;
			if (cand < 0 || cap - u > spare) {
				cand = (s32)c;
				spare = cap - u;
			}
		}
		if (cand < 0)
			continue;
		e = eas_delta(S, (u32)cand, t->util);
		if (best < 0 || e < best_e) {
			best = cand;
			best_e = e;
		}
	}
	if (best < 0)
		return sim_spread_select(S, t, t->prev);
	if (t->prev >= 0 && fits(S, (u32)t->prev, t->util)) {
		prev_e = eas_delta(S, (u32)t->prev, t->util);
		if ((prev_e - best_e) * 100 <= 6 * (prev_e < 0 ? -prev_e : prev_e))
			return (u32)t->prev;
	}
	return (u32)best;
}

u32 sim_policy_select(struct sim *S, struct sim_task *t)
{
	switch (S->policy) {
	case SIM_POL_SP_OBSERVE:
		return sp_select(S, t, SP_MODE_OBSERVE);
	case SIM_POL_SP_POWER:
		return sp_select(S, t, SP_MODE_POWER);
	case SIM_POL_SP_BALANCED:
		return sp_select(S, t, SP_MODE_BALANCED);
	case SIM_POL_SP_PERFORMANCE:
		return sp_select(S, t, SP_MODE_PERFORMANCE);
	case SIM_POL_PACK:
		return pack_select(S, t);
	case SIM_POL_EAS:
		return eas_select(S, t);
	default:
		return sim_spread_select(S, t, t->prev);
	}
}
