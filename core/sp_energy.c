// SPDX-License-Identifier: GPL-2.0
/*
 * sp_energy.c - the energy estimate of sp_energy.h, on the wake-up path.
 */

/**
 * DOC: computing the estimate
 *
 * The formula is the one in sp_energy.h's DOC block.  Written out with the
 * integer steps this file takes, for a pd with OPPs (cap_k, P_k), CPU
 * utilisations u_i (clamped to 0..1024) and a window of W us::
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
 * capacity units (d = u unless c saturates), and with S_g =
 * ((active_uw - idle_uw) * d / cap_k') * W / 1000 for a group g above c and
 * f_g its awake fraction, 0..1 (held as 0..1024)::
 *
 *	busy_nj   = E_busy_k(with task) - E_busy_k(without)	(c's entry
 *		    saturating at cap_k)
 *	pstate_nj = E_busy_k'(with task) - E_busy_k(with task)
 *	idle_nj   = -(P_idle(c) * d / cap_k') * W / 1000
 *	wake_nj   = 1000 * wakeup_uj(c's state)		if c is idle
 *		  + sum over idle groups g above c of 1000 * wakeup_uj(g) + S_g
 *	static_nj = sum over awake groups g above c of S_g * (1 - f_g),
 *		    S_g * 1 for a group woken for the task alone
 *	future_nj = sum over all groups g above c of
 *		    (1000 * wakeup_uj(g) + S_g) * (1 - f_g)
 *
 * P_idle(c) is the power of the idle state c is in, or of the pd's shallowest
 * state if c is awake.  Every "/" is a division rounded down, each term on
 * its own, as written.  Busy powers are clamped to 2^40 uW (no busy power of
 * a validated model reaches it: %SP_PD_POWER_MAX_UW) and the window
 * to 1 s, which keeps every product below 2^63; the idle and group powers
 * times d / cap_k' stay below 2^32 uW (d <= cap_k'), so they need no clamp.
 *
 * None of these divisions is a division instruction.  x / cap_k is a
 * multiply by the pd's reciprocal of cap_k derived at model swap
 * (sp_pd.opp_rcp, sp_model_div_cap()): exact for x below 2^51, and every x
 * here is (a power below 2^32 uW times a capacity sum of at most 512 *
 * 1024).  x * W / 1000 is x * (W / 1000) when 1000 divides the window (the
 * default 4000 us; sp_pd_cache.w_ms), else a division by the constant 1000,
 * which the compiler makes a multiply.  The group terms read the derived
 * active_uw - idle_uw and 1000 * wakeup_uj of each group (sp_group.static_uw,
 * wakeup_nj).  The results are those of the divisions, to the last nJ.
 *
 * Cost: one read per CPU of c's pd (through the decision's util cache), an
 * OPP lookup by index, made once per pd and decision (struct sp_pd_cache,
 * which keeps cap_k, P_k and opp_rcp[k] of the OPP it found); then per CPU
 * evaluated, at most one more lookup (when the task moves the pd to another
 * OPP), five or six multiplies by a reciprocal and one read of the awake
 * fraction and the idle state of each group above the CPU.  The walk over
 * the groups, one level at a time, and the pass over the pd are most of it
 * (Documentation/placement.rst, "Benchmark").
 */
#include "sp_energy.h"

#define SP_POWER_MAX_UW		SP_PD_POWER_MAX_UW	/* 2^40 */

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
 * Energy in nJ of @p_uw over @c's window, floor(p * w / 1000): p * (w /
 * 1000) when 1000 divides w (sp_pd_cache.w_ms), the same value.  @p_uw
 * below 2^41 (the DOC block) and w at most 10^7 us keep the product in 64
 * bits.
 */
static inline u64 sp_energy_nj(const struct sp_pd_cache *c, u64 p_uw)
{
	return c->w_ms ? p_uw * c->w_ms : sp_div_u64(p_uw * c->window_us, 1000);
}

/* sp_energy_nj() of a busy power, clamped to 2^40 uW (the DOC block). */
static inline u64 sp_energy_busy_nj(const struct sp_pd_cache *c, u64 p_uw)
{
	return sp_energy_nj(c, p_uw < SP_POWER_MAX_UW ? p_uw : SP_POWER_MAX_UW);
}

static inline u32 sp_energy_util_of(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	return sp_energy_min_u32(sp_state_cpu_util_stored(st, cpu, now_ns), SP_CAP_SCALE);
}

/* OPP for the busiest CPU's @max_util, or cpufreq's report if higher. */
static inline u32 sp_energy_opp_for_max(const struct sp_pd *pd, const struct sp_state *st,
					u32 pd_idx, u32 max_util)
{
	u32 k = sp_model_pd_opp_idx(pd, (5 * max_util + 3) / 4);
	s32 rep = SP_READ_ONCE(st->pd_opp[pd_idx]);

	if (rep >= 0 && (u32)rep > k)	/* SP_OPP_MODELLED is negative */
		k = sp_energy_min_u32((u32)rep, pd->nr_opps - 1u);
	return k;
}

/* Busy power of the pd at OPP @k for sum_i min(u_i, cap_k) = @s, uW. */
static inline u64 sp_energy_busy_uw(const struct sp_pd *pd, u32 k, u64 s)
{
	return sp_model_div_cap(pd, k, (u64)pd->opp[k].power_uw * s);
}

/* sum_i min(u_i, cap_k) for an OPP chosen for this load (see DOC). */
static inline u64 sp_energy_sum_at(const struct sp_pd *pd, u32 k, const struct sp_pd_load *l)
{
	return k + 1u == pd->nr_opps ? l->sum_top : l->sum;
}

static void sp_energy_pd_load(const struct sp_model *m, const struct sp_state *st,
			      u64 now_ns, const struct sp_pd *pd, struct sp_pd_load *l)
{
	u32 cap_top = pd->opp[pd->nr_opps - 1].cap;
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	u32 i;

	l->max = 0;
	l->sum = 0;
	l->sum_top = 0;
	for (i = 0; i < pd->nr_cpus; i++) {
		u32 u = sp_energy_util_of(st, cpus[i], now_ns);

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

/* u_i of @cpu for the pass of @c: through the decision's view if it has one. */
static inline u32 sp_energy_pass_util(const struct sp_pd_cache *c, const struct sp_state *st,
				      u32 cpu, u64 now_ns)
{
	u32 u = c->uc ? sp_state_ucache_cpu(c->uc, st, cpu, now_ns) :
		sp_state_cpu_util_stored(st, cpu, now_ns);

	return sp_energy_min_u32(u, SP_CAP_SCALE);
}

/*
 * Fill @c with @pd's pass (the max and sums of u_i) and what follows from
 * it alone: the OPP k the pd runs at and E_k before the task, for
 * @window_us (@w_ms: sp_energy_args.w_ms).  Read through @c->uc when set
 * (the decision's view).
 */
static void sp_energy_pd_fill(const struct sp_model *m, const struct sp_state *st,
			      u64 now_ns, u32 pdi, const struct sp_pd *pd, u32 window_us,
			      u32 w_ms, struct sp_pd_cache *c)
{
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	struct sp_util_cache *uc = c->uc;
	u32 top = pd->nr_opps - 1u, cap_top = pd->cap_top;
	u32 i, n = pd->nr_cpus, max = 0, k;
	u32 sum = 0, sum_top, sum_k;	/* at most 512 * 1024 */

	if (uc) {	/* sp_state_ucache_cpu(): values at most 1024 already */
		u32 gen = uc->gen;	/* a fill leaves it */

		for (i = 0; i < n; i++) {
			u32 cpu = cpus[i], slot = cpu % SP_UTIL_CACHE_SLOTS, u;

			if (uc->key[slot] == (gen | cpu))
				u = uc->util[slot];
			else
				u = sp_state_ucache_fill(uc, st, cpu, now_ns, slot);
			max = u > max ? u : max;
			sum += u;
		}
	} else {
		for (i = 0; i < n; i++) {
			u32 u = sp_energy_util_of(st, cpus[i], now_ns);

			max = u > max ? u : max;
			sum += u;
		}
	}
	sum_top = sum;
	if (max > cap_top) {	/* a CPU above the top capacity: read again */
		sum_top = 0;
		for (i = 0; i < n; i++)
			sum_top += sp_energy_min_u32(sp_energy_pass_util(c, st, cpus[i], now_ns),
						     cap_top);
	}
	k = sp_energy_opp_for_max(pd, st, pdi, max);
	sum_k = k == top ? sum_top : sum;
	c->max = max;
	c->sum = sum;
	c->sum_top = sum_top;
	c->sum_k = sum_k;
	c->cap_k = pd->opp[k].cap;
	c->p_k = pd->opp[k].power_uw;
	c->rcp_k = pd->opp_rcp[k];
	c->pd = (u16)pdi;
	c->k = (u8)k;
	c->window_us = window_us;
	c->w_ms = w_ms;
	c->e_before_nj = sp_energy_busy_nj(c, sp_model_div_rcp((u64)c->p_k * sum_k, c->rcp_k));
}

void sp_energy_delta(const struct sp_model *m, const struct sp_state *st,
		     u64 now_ns, u32 cpu, u32 task_util, u32 window_us,
		     struct sp_energy_terms *out)
{
	sp_energy_delta_cached(m, st, now_ns, cpu, SP_NONE, task_util,
			       window_us, NULL, out);
}

/*
 * The group terms of placing the task on @cpu, whose busy share grows by
 * @d / cap_k2 of the window (@rcp2 = opp_rcp[k2], see the DOC block): for each
 * group above @cpu, with S = (active_uw - idle_uw) * d / cap_k2 over the
 * window and f its awake fraction,
 *
 *	idle now:  wake_nj   += wakeup_uj + S	(groups_woken++)
 *	awake now: static_nj += S * (1 - f), or S if it woke for the task alone
 *	always:    future_nj += (wakeup_uj + S) * (1 - f)
 *
 * A group is idle unless it holds @awake_cpu (SP_NONE: none).  With
 * @alone, a group that woke for the waking task alone counts S in full
 * in static_nj (sp_state_ucache_asleep()); sp_energy_groups() passes a
 * constant, so that the common case has no test per level.  Adds to
 * @out's wake_nj, sets its static_nj, future_nj and groups_woken, and
 * returns what the three add to total_nj.
 */
static inline SP_INLINE s64 sp_energy_groups_at(const struct sp_model *m,
						const struct sp_state *st, u64 now_ns,
						u32 cpu, u32 awake_cpu, u32 d, u64 rcp2,
						const struct sp_pd_cache *c, bool alone,
						struct sp_energy_terms *out)
{
	u64 wake = 0, stat = 0, future = 0;
	u32 l, woken = 0, nl = m->nr_levels;
	bool aw = awake_cpu < m->nr_cpus;

	for (l = 0; l < nl; l++) {
		u32 g = m->cpu_group[l][cpu];
		const struct sp_group *gr = &m->group[g];
		/* (active - idle) * d / cap_k2 < 2^32: no clamp */
		u64 s_nj = sp_energy_nj(c, sp_model_div_rcp((u64)gr->static_uw * d, rcp2));
		u64 cost = gr->wakeup_nj + s_nj;
		u32 asleep = SP_CAP_SCALE - sp_state_group_awake_stored(st, g, now_ns);

		if (!(aw && m->cpu_group[l][awake_cpu] == g) && sp_state_group_idle(st, g)) {
			wake += cost;
			woken++;
		} else {
			stat += (s_nj * (alone ? sp_state_ucache_asleep(m, c->uc, l, g, asleep) :
					 asleep)) >> 10;
		}
		future += (cost * asleep) >> 10;
	}
	out->wake_nj += (s64)wake;
	out->static_nj = (s64)stat;
	out->future_nj = (s64)future;
	out->groups_woken = (u16)woken;
	return (s64)(wake + stat + future);
}

/* sp_energy_groups_at(), with @c's util cache's alone groups if it has any. */
static inline SP_INLINE s64 sp_energy_groups(const struct sp_model *m,
					     const struct sp_state *st, u64 now_ns,
					     u32 cpu, u32 awake_cpu, u32 d, u64 rcp2,
					     const struct sp_pd_cache *c,
					     struct sp_energy_terms *out)
{
	if (c->uc && c->uc->alone_levels)
		return sp_energy_groups_at(m, st, now_ns, cpu, awake_cpu, d, rcp2, c,
					   true, out);
	return sp_energy_groups_at(m, st, now_ns, cpu, awake_cpu, d, rcp2, c, false, out);
}

/*
 * busy_nj and pstate_nj of raising the entry of a CPU of @pd from @u_c to
 * @u_new in @c's pass, with the OPPs before and after, into @out (the DOC
 * block).  Returns the OPP after, k'.
 */
static inline SP_INLINE u32 sp_energy_busy(const struct sp_pd *pd, const struct sp_state *st,
					   u32 pdi, const struct sp_pd_cache *c, u32 u_c,
					   u32 u_new, struct sp_energy_terms *out)
{
	u32 k = c->k, cap = c->cap_k, k2 = k;
	/* at k only c's entry changes, and it may saturate at cap_k */
	u32 s_k = c->sum_k - sp_energy_min_u32(u_c, cap) + sp_energy_min_u32(u_new, cap);
	u64 e_k, e_k2;

	e_k = sp_energy_busy_nj(c, sp_model_div_rcp((u64)c->p_k * s_k, c->rcp_k));
	e_k2 = e_k;
	/* the task often leaves the busiest CPU's utilisation as it was */
	if (u_new > c->max) {
		k2 = sp_energy_opp_for_max(pd, st, pdi, u_new);
		if (k2 != k) {
			u32 top = pd->nr_opps - 1u, cap_top = pd->cap_top;
			u64 s_k2 = k2 == top ?
				   c->sum_top - sp_energy_min_u32(u_c, cap_top) +
				   sp_energy_min_u32(u_new, cap_top) :
				   c->sum - u_c + u_new;

			e_k2 = sp_energy_busy_nj(c, sp_energy_busy_uw(pd, k2, s_k2));
		}
	}
	out->busy_nj = (s64)e_k - (s64)c->e_before_nj;
	out->pstate_nj = (s64)e_k2 - (s64)e_k;
	out->opp_before = (u16)k;
	out->opp_after = (u16)k2;
	return k2;
}

void sp_energy_delta_cached(const struct sp_model *m, const struct sp_state *st,
			    u64 now_ns, u32 cpu, u32 awake_cpu, u32 task_util,
			    u32 window_us, struct sp_pd_cache *c,
			    struct sp_energy_terms *out)
{
	struct sp_pd_cache local = { .pd = SP_NONE, .uc = NULL };
	struct sp_energy_args a;

	sp_energy_args_init(&a, m, st, now_ns, awake_cpu, task_util, window_us);
	sp_energy_delta_at(&a, cpu, c ? c : &local, out);
}

void sp_energy_delta_at(const struct sp_energy_args *a, u32 cpu, struct sp_pd_cache *c,
			struct sp_energy_terms *out)
{
	const struct sp_model *m = a->m;
	const struct sp_state *st = a->st;
	u64 now_ns = a->now_ns;
	u32 pdi = m->cpu_pd[cpu];
	const struct sp_pd *pd = &m->pd[pdi];
	u32 u_c, u_new, k2, cap2, d;
	s64 idle, wake = 0, total;
	u64 rcp2;
	s32 state;

	if (c->pd != pdi || c->window_us != a->window_us)
		sp_energy_pd_fill(m, st, now_ns, pdi, pd, a->window_us, a->w_ms, c);
	u_c = sp_energy_pass_util(c, st, cpu, now_ns);	/* the pass's value */
	u_new = sp_energy_min_u32(u_c + a->task_util, SP_CAP_SCALE);
	k2 = sp_energy_busy(pd, st, pdi, c, u_c, u_new, out);
	if (k2 == c->k) {
		cap2 = c->cap_k;
		rcp2 = c->rcp_k;
	} else {
		cap2 = pd->opp[k2].cap;
		rcp2 = pd->opp_rcp[k2];
	}
	d = sp_energy_min_u32(u_new, cap2) - sp_energy_min_u32(u_c, cap2);
	/* P_idle * d / cap_k2 < 2^32: no clamp */
	idle = -(s64)sp_energy_nj(c, sp_model_div_rcp((u64)sp_energy_idle_uw(pd, st, cpu,
									     &state) * d, rcp2));
	if (state >= 0 && cpu != a->awake_cpu)	/* up already: no exit to pay */
		wake = (s64)pd->idle[state].wakeup_uj * 1000;
	out->idle_nj = idle;
	out->wake_nj = wake;
	total = out->busy_nj + out->pstate_nj + idle + wake;
	out->total_nj = total + sp_energy_groups(m, st, now_ns, cpu, a->awake_cpu, d, rcp2,
						 c, out);
}

/*
 * Net power of running @pd's CPU at OPP @k with the groups above its first
 * CPU kept up: P_k less the deepest idle state's power, plus active_uw less
 * idle_uw of each group, times its share @w[level] / 1024 (all of it
 * without @w), uW.
 */
static u64 sp_energy_floor_uw(const struct sp_model *m, const struct sp_pd *pd, u32 k,
			      const u32 *w)
{
	u32 cpu = m->pd_cpus[pd->cpu_off], l;
	u64 p = pd->opp[k].power_uw;

	if (pd->nr_idle)
		p -= sp_energy_min_u32(pd->idle[pd->nr_idle - 1].power_uw, pd->opp[k].power_uw);
	for (l = 0; l < m->nr_levels; l++) {
		const struct sp_group *g = &m->group[m->cpu_group[l][cpu]];
		u64 s = g->active_uw > g->idle_uw ? g->active_uw - g->idle_uw : 0;

		p += w ? (s * sp_energy_min_u32(w[l], SP_CAP_SCALE)) >> 10 : s;
	}
	return p;
}

u32 sp_energy_opp_floor_w(const struct sp_model *m, u32 pdi, const u32 *w)
{
	const struct sp_pd *pd;
	u32 k, best = 0;

	if (pdi >= m->nr_pds || !m->pd[pdi].nr_opps || !m->pd[pdi].nr_cpus)
		return 0;
	pd = &m->pd[pdi];
	/* energy per unit of work at k is sp_energy_floor_uw(k) / cap_k */
	for (k = 1; k < pd->nr_opps; k++)
		if (sp_energy_floor_uw(m, pd, k, w) * pd->opp[best].cap <
		    sp_energy_floor_uw(m, pd, best, w) * pd->opp[k].cap)
			best = k;
	return best;
}

u32 sp_energy_opp_floor(const struct sp_model *m, u32 pdi)
{
	return sp_energy_opp_floor_w(m, pdi, NULL);
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
		u32 k, cap;
		s32 state;

		sp_energy_pd_load(m, st, now_ns, pd, &l);
		k = sp_energy_opp_for_max(pd, st, i, l.max);
		cap = pd->opp[k].cap;
		/* idle share of each CPU, (cap_k - min(u_i, cap_k)) / cap_k */
		for (j = 0; j < pd->nr_cpus; j++) {
			u32 u = sp_energy_util_of(st, cpus[j], now_ns);

			idle_num += (u64)(cap - sp_energy_min_u32(u, cap)) *
				    sp_energy_idle_uw(pd, st, cpus[j], &state);
		}
		total += sp_energy_busy_uw(pd, k, sp_energy_sum_at(pd, k, &l)) +
			 sp_model_div_cap(pd, k, idle_num);
	}
	for (i = 0; i < m->nr_groups; i++)
		total += sp_state_group_idle(st, i) ? m->group[i].idle_uw : m->group[i].active_uw;
	return total;
}
