// SPDX-License-Identifier: GPL-2.0
/*
 * sp_energy.c - the energy estimate of sp_energy.h, on the wake-up path.
 *
 * DOC: computing the estimate
 *
 * The formula is the one in sp_energy.h's DOC block.  Written out with the
 * integer steps this file takes, for a pd with OPPs (cap_k, P_k), CPU
 * utilisations u_i (clamped to 0..1024) and a window of W us:
 *
 *	need(u)  = ceil(1.25 * u) = (5 * u + 3) / 4
 *	k        = lowest OPP with cap_k >= need(max_i u_i), else the highest;
 *		   raised to the cpufreq-reported OPP if that is higher
 *	S_k      = sum_i min(u_i, cap_k)
 *	Pbusy_k  = P_k * S_k / cap_k				(uW)
 *	E_busy_k = Pbusy_k * W / 1000				(nJ)
 *
 * Below the highest OPP no u_i exceeds cap_k (cap_k >= 1.25 * max u_i), so
 * S_k is the plain sum; only at the highest OPP do utilisations saturate.
 * One pass over the pd therefore collects sum u_i, sum min(u_i, cap_top) and
 * max u_i, and the sums "with the task" follow by adjusting c's entry.
 *
 * With the task (u on CPU c, whose utilisation is u_c) the pd runs at k' and
 * c's busy share at k' grows by d = min(u_c + u, cap_k') - min(u_c, cap_k')
 * capacity units (d = u unless c saturates):
 *
 *	busy_nj   = E_busy_k(with task) - E_busy_k(without)	(c's entry
 *		    saturating at cap_k)
 *	pstate_nj = E_busy_k'(with task) - E_busy_k(with task)
 *	idle_nj   = -(P_idle(c) * d / cap_k') * W / 1000
 *	wake_nj   = 1000 * wakeup_uj(c's state)		if c is idle
 *		  + sum over idle groups g above c of
 *		    1000 * wakeup_uj(g) + ((active_uw - idle_uw) * d / cap_k') * W / 1000
 *
 * P_idle(c) is the power of the idle state c is in, or of the pd's shallowest
 * state if c is awake.  Powers are clamped to 2^40 uW and the window to 10 s,
 * which keeps every product below 2^54; real boards are far inside that.
 *
 * Cost: one sp_state_cpu_util() per CPU of c's pd, a scan of at most 16 OPPs
 * twice and one read per level; no division by a variable except by cap_k.
 */
#include "sp_energy.h"

#define SP_POWER_MAX_UW		0x10000000000ULL	/* 2^40 */

struct sp_pd_load {
	u32 max;		/* max_i u_i */
	u64 sum;		/* sum_i u_i */
	u64 sum_top;		/* sum_i min(u_i, cap of the highest OPP) */
};

static inline u32 sp_energy_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

/*
 * Energy in nJ of @p_uw for @w_us, floor(p * w / 1000), with p clamped to
 * 2^40 uW and w to 10^7 us (the DOC block) so the product fits 64 bits.
 */
static inline u64 sp_energy_nj(u64 p_uw, u32 w_us)
{
	if (p_uw > SP_POWER_MAX_UW)
		p_uw = SP_POWER_MAX_UW;
	return sp_div_u64(p_uw * w_us, 1000);
}

static inline u32 sp_energy_util_of(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	return sp_energy_min_u32(sp_state_cpu_util_fast(st, cpu, now_ns), SP_CAP_SCALE);
}

/* OPP for the busiest CPU's @max_util, or cpufreq's report if higher. */
static u32 sp_energy_opp_for_max(const struct sp_pd *pd, const struct sp_state *st,
				 u32 pd_idx, u32 max_util)
{
	u32 k = sp_model_pd_opp_for(pd, (5 * max_util + 3) / 4);
	s32 rep = SP_READ_ONCE(st->pd_opp[pd_idx]);

	if (rep >= 0 && (u32)rep > k)	/* SP_OPP_MODELLED is negative */
		k = sp_energy_min_u32((u32)rep, pd->nr_opps - 1u);
	return k;
}

/* Busy power of the pd at OPP @k for sum_i min(u_i, cap_k) = @s, uW. */
static inline u64 sp_energy_busy_uw(const struct sp_pd *pd, u32 k, u64 s)
{
	return sp_div_u64((u64)pd->opp[k].power_uw * s, pd->opp[k].cap);
}

/* sum_i min(u_i, cap_k) for an OPP chosen for this load (see DOC). */
static inline u64 sp_energy_sum_at(const struct sp_pd *pd, u32 k, const struct sp_pd_load *l)
{
	return k + 1u == pd->nr_opps ? l->sum_top : l->sum;
}

static void sp_energy_pd_load(const struct sp_model *m, const struct sp_state *st,
			      u64 now_ns, const struct sp_pd *pd, struct sp_pd_load *l,
		       u32 cpu, u32 *util_cpu)
{
	u32 cap_top = pd->opp[pd->nr_opps - 1].cap;
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	u32 i;

	l->max = 0;
	l->sum = 0;
	l->sum_top = 0;
	*util_cpu = 0;
	for (i = 0; i < pd->nr_cpus; i++) {
		u32 u = sp_energy_util_of(st, cpus[i], now_ns);

		if (cpus[i] == cpu)
			*util_cpu = u;
		if (u > l->max)
			l->max = u;
		l->sum += u;
		l->sum_top += sp_energy_min_u32(u, cap_top);
	}
}

u32 sp_energy_pd_opp(const struct sp_model *m, const struct sp_state *st,
		     u64 now_ns, u32 pd, u32 extra_cpu, u32 extra_util)
{
	const struct sp_pd *p = &m->pd[pd];
	const u16 *cpus = m->pd_cpus + p->cpu_off;
	u32 i, max = 0;

	for (i = 0; i < p->nr_cpus; i++) {
		u32 u = sp_energy_util_of(st, cpus[i], now_ns);

		if (cpus[i] == extra_cpu)
			u = sp_energy_min_u32(u + extra_util, SP_CAP_SCALE);
		if (u > max)
			max = u;
	}
	return sp_energy_opp_for_max(p, st, pd, max);
}

/* Power of the state @cpu sits in now, or of its shallowest if awake, uW. */
static inline u32 sp_energy_idle_uw(const struct sp_pd *pd, const struct sp_state *st,
				    u32 cpu, s32 *state)
{
	s32 s = SP_READ_ONCE(st->cpu[cpu].idle_state);

	if (s >= (s32)pd->nr_idle)
		s = pd->nr_idle - 1;
	*state = s;
	return pd->idle[s < 0 ? 0 : s].power_uw;
}

/*
 * Fill @c with @pd's pass (u_i, their max and sums) and what follows from
 * it alone: the OPP k the pd runs at and E_k before the task, for
 * @window_us.  Read through @c->uc when set (the decision's view).
 */
static void sp_energy_pd_fill(const struct sp_model *m, const struct sp_state *st,
			      u64 now_ns, u32 pdi, const struct sp_pd *pd,
			      u32 window_us, struct sp_pd_cache *c)
{
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	u32 cap_top = pd->opp[pd->nr_opps - 1].cap;
	u32 i, max = 0;
	u64 sum = 0, sum_top = 0;

	for (i = 0; i < pd->nr_cpus; i++) {
		u32 u = c->uc ? sp_state_ucache_cpu(c->uc, st, cpus[i], now_ns) :
			 sp_state_cpu_util_fast(st, cpus[i], now_ns);

		u = sp_energy_min_u32(u, SP_CAP_SCALE);
		c->util[i] = (u16)u;
		if (u > max)
			max = u;
		sum += u;
		sum_top += sp_energy_min_u32(u, cap_top);
	}
	c->max = max;
	c->sum = sum;
	c->sum_top = sum_top;
	c->pd = (u16)pdi;
	c->nr_cpus = pd->nr_cpus;
	c->k = (u8)sp_energy_opp_for_max(pd, st, pdi, max);
	c->window_us = window_us;
	c->e_before_nj = sp_energy_nj(sp_energy_busy_uw(pd, c->k, c->k + 1u == pd->nr_opps ?
							sum_top : sum),
				      window_us);
}

/* u_c, the utilisation of @cpu in @c's pass. */
static u32 sp_energy_pd_util(const struct sp_model *m, const struct sp_state *st,
			     u64 now_ns, const struct sp_pd *pd,
			     const struct sp_pd_cache *c, u32 cpu)
{
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	u32 i;

	if (c->uc)	/* the same value the pass read */
		return sp_state_ucache_cpu(c->uc, st, cpu, now_ns);
	for (i = 0; i < pd->nr_cpus; i++)
		if (cpus[i] == cpu)
			return c->util[i];
	return 0;
}

void sp_energy_delta(const struct sp_model *m, const struct sp_state *st,
		     u64 now_ns, u32 cpu, u32 task_util, u32 window_us,
		     struct sp_energy_terms *out)
{
	sp_energy_delta_cached(m, st, now_ns, cpu, SP_NONE, task_util,
			       window_us, NULL, out);
}

/* Is group @g (level @l) idle, with @awake_cpu counted as awake? */
static bool sp_energy_group_idle_for(const struct sp_model *m, const struct sp_state *st,
				     u32 l, u32 g, u32 awake_cpu)
{
	if (awake_cpu < m->nr_cpus && m->cpu_group[l][awake_cpu] == g)
		return false;
	return sp_state_group_idle(st, g);
}

/*
 * The group terms of placing the task on @cpu, whose busy share grows by
 * @d / @cap2 of the window (see the DOC block): for each group above @cpu,
 * with S = (active_uw - idle_uw) * d / cap2 over the window and f its
 * awake fraction,
 *
 *	idle now:  wake_nj   += wakeup_uj + S	(groups_woken++)
 *	awake now: static_nj += S * (1 - f)
 *	always:    future_nj += (wakeup_uj + S) * (1 - f)
 */
static void sp_energy_groups(const struct sp_model *m, const struct sp_state *st,
			     u64 now_ns, u32 cpu, u32 awake_cpu, u32 d, u32 cap2,
			     u32 window_us, struct sp_util_cache *uc,
			     struct sp_energy_terms *out)
{
	u64 wake = 0, stat = 0, future = 0;
	u32 l;

	out->groups_woken = 0;
	for (l = 0; l < m->nr_levels; l++) {
		u32 g = m->cpu_group[l][cpu];
		const struct sp_group *gr = &m->group[g];
		u64 s_nj = sp_energy_nj(sp_div_u64((u64)(gr->active_uw - gr->idle_uw) * d,
						   cap2), window_us);
		u64 cost = (u64)gr->wakeup_uj * 1000 + s_nj;
		u32 asleep = SP_CAP_SCALE - sp_state_ucache_group(uc, st, g, now_ns);

		if (sp_energy_group_idle_for(m, st, l, g, awake_cpu)) {
			wake += cost;
			out->groups_woken++;
		} else {
			stat += (s_nj * asleep) >> 10;	/* / SP_CAP_SCALE */
		}
		future += (cost * asleep) >> 10;
	}
	out->wake_nj += (s64)wake;
	out->static_nj = (s64)stat;
	out->future_nj = (s64)future;
}

void sp_energy_delta_cached(const struct sp_model *m, const struct sp_state *st,
			    u64 now_ns, u32 cpu, u32 awake_cpu, u32 task_util,
			    u32 window_us, struct sp_pd_cache *cache,
			    struct sp_energy_terms *out)
{
	u32 pdi = m->cpu_pd[cpu];
	const struct sp_pd *pd = &m->pd[pdi];
	u32 cap_top = pd->opp[pd->nr_opps - 1].cap;
	u64 e_k_after, e_k2_after, s_k_after, s_k2_after;
	u32 u_c, u_new, k, k2, cap, cap2, d, max_after;
	struct sp_pd_cache local;
	struct sp_pd_cache *c = cache;
	s32 state;
	u64 p_idle, wake = 0;

	if (window_us > SP_ENERGY_WINDOW_MAX_US)
		window_us = SP_ENERGY_WINDOW_MAX_US;
	task_util = sp_energy_min_u32(task_util, SP_CAP_SCALE);
	if (!c || pd->nr_cpus > SP_PD_CACHE_CPUS) {
		c = &local;		/* no cache, or a pd too large for it */
		c->uc = NULL;
		c->pd = SP_NONE;
	}
	if (c->pd != pdi || c->nr_cpus != pd->nr_cpus || c->window_us != window_us)
		sp_energy_pd_fill(m, st, now_ns, pdi, pd, window_us, c);
	u_c = sp_energy_pd_util(m, st, now_ns, pd, c, cpu);

	u_new = sp_energy_min_u32(u_c + task_util, SP_CAP_SCALE);
	max_after = c->max > u_new ? c->max : u_new;
	k = c->k;
	/* the task often leaves the busiest CPU's utilisation as it was */
	k2 = max_after == c->max ? k : sp_energy_opp_for_max(pd, st, pdi, max_after);
	cap2 = pd->opp[k2].cap;
	d = sp_energy_min_u32(u_new, cap2) - sp_energy_min_u32(u_c, cap2);

	/* at k only c's entry changes, and it may saturate at cap_k */
	cap = pd->opp[k].cap;
	s_k_after = (k + 1u == pd->nr_opps ? c->sum_top : c->sum) -
		    sp_energy_min_u32(u_c, cap) + sp_energy_min_u32(u_new, cap);
	e_k_after = sp_energy_nj(sp_energy_busy_uw(pd, k, s_k_after), window_us);
	s_k2_after = k2 + 1u == pd->nr_opps ?
		     c->sum_top - sp_energy_min_u32(u_c, cap_top) +
		     sp_energy_min_u32(u_new, cap_top) :
		     c->sum - u_c + u_new;
	if (k2 == k && s_k2_after == s_k_after)
		e_k2_after = e_k_after;		/* no step: same product */
	else
		e_k2_after = sp_energy_nj(sp_energy_busy_uw(pd, k2, s_k2_after),
					  window_us);

	p_idle = sp_energy_idle_uw(pd, st, cpu, &state);
	if (cpu == awake_cpu)
		state = SP_CPU_AWAKE;	/* up already: no exit to pay */
	out->busy_nj = (s64)e_k_after - (s64)c->e_before_nj;
	out->pstate_nj = (s64)e_k2_after - (s64)e_k_after;
	out->idle_nj = -(s64)sp_energy_nj(sp_div_u64(p_idle * d, cap2), window_us);

	if (state >= 0)
		wake = (u64)pd->idle[state].wakeup_uj * 1000;
	out->wake_nj = (s64)wake;
	sp_energy_groups(m, st, now_ns, cpu, awake_cpu, d, cap2, window_us,
			 c->uc, out);
	out->total_nj = out->busy_nj + out->pstate_nj + out->idle_nj +
			out->wake_nj + out->static_nj + out->future_nj;
	out->opp_before = (u16)k;
	out->opp_after = (u16)k2;
}

/*
 * Net power of running @pd's CPU at OPP @k with the groups above its first
 * CPU kept up: P_k less the deepest idle state's power, plus active_uw less
 * idle_uw of each group, uW.
 */
static u64 sp_energy_floor_uw(const struct sp_model *m, const struct sp_pd *pd, u32 k)
{
	u32 cpu = m->pd_cpus[pd->cpu_off], l;
	u64 p = pd->opp[k].power_uw;

	if (pd->nr_idle)
		p -= sp_energy_min_u32(pd->idle[pd->nr_idle - 1].power_uw, pd->opp[k].power_uw);
	for (l = 0; l < m->nr_levels; l++) {
		const struct sp_group *g = &m->group[m->cpu_group[l][cpu]];

		if (g->active_uw > g->idle_uw)
			p += g->active_uw - g->idle_uw;
	}
	return p;
}

u32 sp_energy_opp_floor(const struct sp_model *m, u32 pdi)
{
	const struct sp_pd *pd;
	u32 k, best = 0;

	if (pdi >= m->nr_pds || !m->pd[pdi].nr_opps || !m->pd[pdi].nr_cpus)
		return 0;
	pd = &m->pd[pdi];
	/* energy per unit of work at k is sp_energy_floor_uw(k) / cap_k */
	for (k = 1; k < pd->nr_opps; k++)
		if (sp_energy_floor_uw(m, pd, k) * pd->opp[best].cap <
		    sp_energy_floor_uw(m, pd, best) * pd->opp[k].cap)
			best = k;
	return best;
}

u64 sp_energy_power_uw(const struct sp_model *m, const struct sp_state *st,
		       u64 now_ns)
{
	u64 total = 0;
	u32 i, j;

	for (i = 0; i < m->nr_pds; i++) {
		const struct sp_pd *pd = &m->pd[i];
		const u16 *cpus = m->pd_cpus + pd->cpu_off;
		struct sp_pd_load l;
		u64 idle_num = 0;
		u32 k, cap, dummy;
		s32 state;

		sp_energy_pd_load(m, st, now_ns, pd, &l, SP_NONE, &dummy);
		k = sp_energy_opp_for_max(pd, st, i, l.max);
		cap = pd->opp[k].cap;
		/* idle share of each CPU, (cap_k - min(u_i, cap_k)) / cap_k */
		for (j = 0; j < pd->nr_cpus; j++) {
			u32 u = sp_energy_util_of(st, cpus[j], now_ns);

			idle_num += (u64)(cap - sp_energy_min_u32(u, cap)) *
				    sp_energy_idle_uw(pd, st, cpus[j], &state);
		}
		total += sp_energy_busy_uw(pd, k, sp_energy_sum_at(pd, k, &l)) + idle_num / cap;
	}
	for (i = 0; i < m->nr_groups; i++)
		total += sp_state_group_idle(st, i) ? m->group[i].idle_uw : m->group[i].active_uw;
	return total;
}
