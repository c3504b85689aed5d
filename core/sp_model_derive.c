// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_derive.c - the per-pd and per-group constants the wake-up path
 * reads, derived once from a linked model instead of once per decision.
 */

/**
 * DOC: lower bounds of a task's cost
 *
 * sp_place() skips a CPU, or a whole group, when a lower bound of what the
 * task would cost there reaches what it costs at CFS's CPU.  The bound of
 * the utilisation-driven part, busy + P-state + idle given up (sp_energy.c's
 * DOC block), is u * W times a rate per capacity unit, and that rate
 * depends on the OPP the pd runs at.  The pd cannot run below the OPP that
 * the task alone asks for, so the rate is looked up by the task's own
 * request.
 *
 * Take a pd with OPPs (cap_k, P_k), capacities increasing (the model's
 * rule) and efficiency P_k / cap_k not decreasing as k rises
 * (sp_model_eff_monotone(); a pd without it gets no bound, %SP_LB_NONE),
 * and P_idle, the largest power of its idle states.  A task of
 * utilisation u (at most 1024) goes to CPU c, whose utilisation is u_c;
 * the pd's OPP is k before and k' with the task, and c's share grows by
 * d = min(u_c + u, cap_k') - min(u_c, cap_k').
 *
 * 1. k' >= k_u, the lowest OPP covering need(u) = (5u + 3) / 4 (the
 *    highest if none does).  sp_energy_opp_for_max() takes the lowest OPP
 *    covering the need of the pd's largest utilisation, which with the
 *    task is at least min(u_c + u, 1024) >= u, and the covering OPP never
 *    falls as the need grows; cpufreq's reported OPP only ever raises the
 *    result.  Nothing else in sp_energy.c picks k or k'.
 * 2. The pd's entry in row i = need(u) >> SP_OPP_LUT_SHIFT of
 *    sp_model.lb_q10 is taken at opp_lut[i], the lowest OPP covering
 *    i << SP_OPP_LUT_SHIFT <= need(u): opp_lut[i] <= k_u <= k'.
 *    need(1024) = 1280 falls in the last row.
 * 3. busy + P-state = E_k'(S'_0 + d) - E_k(S_0), with S_0 the pd's sum of
 *    min(u_i, cap_k) without the task and S'_0 the same at cap_k' >= cap_k,
 *    so S'_0 >= S_0 >= 0.  With a_k = P_k / cap_k <= a_k':
 *    a_k' (S'_0 + d) - a_k S_0 = a_k' d + a_k' S'_0 - a_k S_0 >= a_k' d.
 *    Each E is floor(floor(P x / cap) * W / 1000), within W / 1000 + 1 nJ
 *    below a x W / 1000, so busy + P-state > a_k' d W / 1000 - W / 1000 - 1.
 * 4. idle = -floor(floor(P_idle(c) d / cap_k') * W / 1000) >=
 *    -P_idle d W / (1000 cap_k'): a floor only makes it larger.
 * 5. So busy + P-state + idle > d W r_k' / 1000 - W / 1000 - 1 with
 *    r_k = (P_k - P_idle) / cap_k, and d = u for a candidate that fits
 *    (u_c + u within headroom_pct <= 100 of cap_top: below the top OPP
 *    cap_k' >= need(u_c + u), at the top the fit itself).  A CPU that
 *    does not fit is never chosen, so its bound does not matter.
 * 6. r_q10(k) = floor(1024 P_k / cap_k) - ceil(1024 P_idle / cap_k) <=
 *    1024 r_k, and row i holds the smallest r_q10(j) over j >= opp_lut[i]:
 *    at most 1024 r_k' for every k' step 2 allows.
 *    (With increasing capacities r_q10 does not fall as k rises, so the
 *    smallest is r_q10(opp_lut[i]) itself; the minimum keeps the table a
 *    bound without relying on that.)
 *
 * sp_place's bounds take floor(rate * u * W / 1024000) less twice
 * W / 1000 + 2 nJ, which covers step 3's rounding and the division's.
 * The estimate clamps a busy power at 2^40 uW, where a difference could
 * fall below the bound; a busy power is at most the pd's CPUs times P_k
 * (each min(u_i, cap_k) <= cap_k), below 2^40 uW in a validated model
 * (%SP_PD_POWER_MAX_UW: a pd's CPUs times its highest OPP's power).
 * Row 0 holds r_q10(0), the rate of the lowest OPP, which bounds every
 * task.  On models/x86-2pkg.model
 * a task of utilisation 741 (need 927) gets r_3 = 3125 - 146.5 = 2978.5 uW
 * per capacity unit, where r_0 = 1054.7 - 585.9 = 468.8.
 *
 * A group's entry in each row (column SP_LB_GROUP0 + its index) is the
 * smallest of its CPUs' pds': a row is the same range of requests in every
 * pd, whatever OPP it maps to there, so a group that mixes pds still takes
 * one lookup.  A decision picks its row once (sp_place_init_search()) and
 * reads one entry per pd or group it bounds.
 *
 * 7. A CPU c under a sleeping group g (level L) wakes every group of its
 *    chain from level 0 up to g, and for each pays, besides its
 *    wakeup_uj, S_h = floor(floor((active_uw - idle_uw) d / cap_k') W /
 *    1000) (sp_energy.c's wake_nj), at the same k' as busy + P-state +
 *    idle: each more than (active_uw - idle_uw) d W / (1000 cap_k') -
 *    W / 1000 - 1.  With S the sum of those groups' active_uw - idle_uw,
 *    busy + P-state + idle + the S_h exceed d W (P_k' - P_idle + S) /
 *    (1000 cap_k') less W / 1000 + 1 per term.  Group g's column of
 *    sp_model.lb_sleep_q10 holds per bucket i the smallest over its CPUs
 *    and over k' >= opp_lut[i] of floor(1024 (P_k' + S) / cap_k') -
 *    ceil(1024 P_idle / cap_k'), %SP_LB_NONE if a pd of g has no lb_q10
 *    bound; sp_place takes it with the slack of step 6 and one more per
 *    group woken.  Bounding the two apart, the rate at its smallest k'
 *    and the static power at the largest cap_k' (cap_top), loses what
 *    the task's run at a lower OPP keeps the groups up for: on
 *    models/x86-2pkg.model a task of utilisation 515 (need 644, OPP 2 at
 *    768) costs at least (1670000 + 1900000 - 150000) / 768 = 4453 uW per
 *    unit in a sleeping package, where the two apart gave 1979 + 1855.
 */
#include "sp_model.h"

#define SP_U32_MAX	0xffffffffu

/* Does P_k / cap_k never fall as k rises?  (cross-multiplied) */
static bool sp_model_eff_monotone(const struct sp_pd *pd)
{
	u32 k;

	for (k = 1; k < pd->nr_opps; k++)
		if ((u64)pd->opp[k].power_uw * pd->opp[k - 1].cap <
		    (u64)pd->opp[k - 1].power_uw * pd->opp[k].cap)
			return false;
	return true;
}

static void sp_model_derive_lut(struct sp_pd *pd)
{
	u32 i;

	for (i = 0; i < SP_OPP_LUT_LEN; i++)
		pd->opp_lut[i] = (u8)sp_model_pd_opp_for(pd, i << SP_OPP_LUT_SHIFT);
	/* sp_model_pd_opp_idx() steps while k + 1 < nr_opps and cap_k < need */
	for (i = 0; i < SP_MAX_OPPS; i++)
		pd->opp_step_cap[i] = i + 1u < pd->nr_opps ? pd->opp[i].cap : SP_U32_MAX;
}

/* ceil(2^SP_RCP_SHIFT / cap_k) per OPP (sp_model_div_cap()); 0 past the OPPs */
static void sp_model_derive_rcp(struct sp_pd *pd)
{
	u32 k;

	for (k = 0; k < SP_MAX_OPPS; k++) {
		u32 cap = k < pd->nr_opps ? pd->opp[k].cap : 0;

		pd->opp_rcp[k] = cap ? sp_div_u64((1ull << SP_RCP_SHIFT) + cap - 1, cap) : 0;
	}
}

/*
 * opp_urange: the utilisations that ask for each OPP.  The lowest OPP that
 * covers a request never falls as the request grows, whatever the order of
 * the capacities, so each OPP's utilisations are one run: from the first u
 * that asks for k, up to the last whose request (5u + 3) / 4 is at most
 * cap_k, i.e. u <= 4 cap_k / 5 (the highest OPP takes every request above).
 */
static void sp_model_derive_urange(const struct sp_pd *pd, struct sp_pd_idle *pi)
{
	u32 u, k;
	u64 hi;

	for (k = 0; k < SP_MAX_OPPS; k++)
		pi->opp_urange[k] = 0xffff;	/* none: lowest 65535, highest 0 */
	for (u = 0; u <= SP_CAP_SCALE; u = (u32)hi + 1) {
		k = sp_model_pd_opp_idx(pd, (5 * u + 3) / 4) % SP_MAX_OPPS;
		hi = k + 1u < pd->nr_opps ? sp_div_u64((u64)pd->opp[k].cap * 4, 5) : SP_CAP_SCALE;
		if (hi > SP_CAP_SCALE)
			hi = SP_CAP_SCALE;
		if (hi < u)	/* cannot happen: k covers u's request */
			hi = u;
		pi->opp_urange[k] = (u32)hi << 16 | u;
	}
}

/* @pd's sp_pd_idle: the clamps, the OPP runs, each state's verdict bounds. */
static void sp_model_derive_idle(const struct sp_pd *pd, struct sp_pd_idle *pi)
{
	u32 i, t, next;

	pi->opp_clamp = pd->nr_opps ? pd->nr_opps - 1u : SP_OPP_NO_CLAMP;
	pi->deepest = pd->nr_idle ? pd->nr_idle - 1u : 0;
	sp_model_derive_urange(pd, pi);
	for (i = 0; i < SP_MAX_IDLE; i++) {	/* sp_acct_verdict() */
		t = i < pd->nr_idle ? pd->idle[i].target_residency_us : 0;
		next = i + 1u < pd->nr_idle && i + 1u < SP_MAX_IDLE ?
		       pd->idle[i + 1].target_residency_us : 0;
		pi->idle_target_us[i] = t;
		pi->idle_late_us[i] = i + 1u < pd->nr_idle ? (next > t ? next : t) : ~0ull;
	}
}

static void sp_model_derive_pd(struct sp_pd *pd)
{
	u64 eff;
	u32 i, cap0;

	sp_model_derive_rcp(pd);
	pd->cap_top = pd->nr_opps ? pd->opp[pd->nr_opps - 1].cap : SP_CAP_SCALE;
	pd->wake_min_uj = pd->nr_idle ? SP_U32_MAX : 0;
	for (i = 0; i < pd->nr_idle && i < SP_MAX_IDLE; i++)
		if (pd->idle[i].wakeup_uj < pd->wake_min_uj)
			pd->wake_min_uj = pd->idle[i].wakeup_uj;
	sp_model_derive_lut(pd);
	cap0 = pd->nr_opps && pd->opp[0].cap ? pd->opp[0].cap : 0;
	eff = cap0 ? pd->opp[0].power_uw / cap0 : 0;
	pd->eff_key = eff < 0xffffff ? (u32)eff : 0xffffff;
}

/* The largest power of @pd's idle states, P_idle of the DOC block. */
static u64 sp_model_idle_max_uw(const struct sp_pd *pd)
{
	u64 idle_max = 0;
	u32 i;

	for (i = 0; i < pd->nr_idle || i == 0; i++)
		if (pd->idle[i].power_uw > idle_max)
			idle_max = pd->idle[i].power_uw;
	return idle_max;
}

/*
 * Pd @pdi's column of lb_q10, from its OPPs, its largest idle power
 * P_idle and its opp_lut (derived before): per OPP k, r_q10(k) =
 * floor(1024 P_k / cap_k) - ceil(1024 P_idle / cap_k); per bucket i, the
 * smallest r_q10(k) over k >= opp_lut[i] (the DOC block).  %SP_LB_NONE
 * throughout unless P_k / cap_k never falls as k rises.
 */
static void sp_model_derive_pd_lb(struct sp_model *m, u32 pdi)
{
	const struct sp_pd *pd = &m->pd[pdi];
	u32 n = pd->nr_opps < SP_MAX_OPPS ? pd->nr_opps : SP_MAX_OPPS, k, i;
	s32 env_k[SP_MAX_OPPS];
	s64 env = 0x7fffffff;
	u64 idle_max;

	for (i = 0; i < SP_OPP_LUT_LEN; i++)
		m->lb_q10[i][pdi] = SP_LB_NONE;
	if (!n || !sp_model_eff_monotone(pd))
		return;
	for (k = 0; k < n; k++)		/* each r_q10(k) divides by cap_k */
		if (!pd->opp[k].cap)
			return;
	idle_max = sp_model_idle_max_uw(pd);
	for (k = n; k-- > 0;) {
		u32 cap = pd->opp[k].cap;
		s64 r = (s64)sp_div_u64((u64)pd->opp[k].power_uw << 10, cap) -
			(s64)sp_div_u64((idle_max << 10) + cap - 1, cap);

		if (r < env)
			env = r;
		env_k[k] = env > SP_LB_NONE ? (s32)env : SP_LB_NONE;
	}
	for (i = 0; i < SP_OPP_LUT_LEN; i++)
		m->lb_q10[i][pdi] = env_k[pd->opp_lut[i] < n ? pd->opp_lut[i] : 0];
}

static u32 sp_model_sat_u32(u64 v)
{
	return v < SP_U32_MAX ? (u32)v : SP_U32_MAX;
}

/*
 * What waking @cpu costs while its group at level @top sleeps (and so every
 * group below it on @cpu's chain): the cheapest state's wakeup_uj plus the
 * groups', uJ.
 */
static u64 sp_model_sleep_wake_uj(const struct sp_model *m, u32 cpu, u32 top)
{
	u64 uj = m->pd[m->cpu_pd[cpu]].wake_min_uj;
	u32 l;

	for (l = 0; l <= top && l < m->nr_levels && l < SP_MAX_LEVELS; l++)
		uj += m->group[m->cpu_group[l][cpu]].wakeup_uj;
	return uj;
}

/* Lower group @gi's column of lb_q10 to pd @pdi's, bucket by bucket. */
static void sp_model_group_lb_min(struct sp_model *m, u32 gi, u32 pdi)
{
	u32 i;

	for (i = 0; i < SP_OPP_LUT_LEN; i++)
		if (m->lb_q10[i][pdi] < m->lb_q10[i][SP_LB_GROUP0 + gi])
			m->lb_q10[i][SP_LB_GROUP0 + gi] = m->lb_q10[i][pdi];
}

static void sp_model_derive_group(struct sp_model *m, u32 gi)
{
	struct sp_group *g = &m->group[gi];
	u64 uj_min = ~0ull, uj;
	u32 j, i, prev_pd = SP_NONE;

	for (i = 0; i < SP_OPP_LUT_LEN; i++)
		m->lb_q10[i][SP_LB_GROUP0 + gi] = 0x7fffffff;
	for (j = 0; j < g->nr_cpus; j++) {
		u32 off = (u32)g->cpu_off + j, cpu, pd;

		if (off >= SP_MAX_LEVELS * SP_MAX_CPUS)
			break;
		cpu = m->group_cpus[off];
		pd = cpu < SP_MAX_CPUS ? m->cpu_pd[cpu] : SP_NONE;
		if (pd >= m->nr_pds) {
			for (i = 0; i < SP_OPP_LUT_LEN; i++)
				m->lb_q10[i][SP_LB_GROUP0 + gi] = SP_LB_NONE;
			uj_min = 0;
			break;
		}
		if (pd != prev_pd)	/* a pd's CPUs are usually adjacent */
			sp_model_group_lb_min(m, gi, pd);
		prev_pd = pd;
		uj = sp_model_sleep_wake_uj(m, cpu, g->level);
		if (uj < uj_min)
			uj_min = uj;
	}
	/* idle_uw <= active_uw in a validated model; 0 otherwise */
	g->static_uw = g->active_uw > g->idle_uw ? g->active_uw - g->idle_uw : 0;
	g->wakeup_nj = (u64)g->wakeup_uj * 1000;
	g->sleep_wake_uj = j ? sp_model_sat_u32(uj_min) : 0;
}

/*
 * Lower group @gi's column of lb_sleep_q10 to what a CPU of pd @pdi under
 * groups of total active - idle power @s_uw costs per unit, bucket by
 * bucket: per OPP k, floor(1024 (P_k + s_uw) / cap_k) - ceil(1024 P_idle /
 * cap_k), the smallest over k >= opp_lut[i] (the DOC block's step 7).
 * @pdi has a bound (its lb_q10 column is not %SP_LB_NONE).
 */
static void sp_model_sleep_lb_min(struct sp_model *m, u32 gi, u32 pdi, u64 s_uw)
{
	const struct sp_pd *pd = &m->pd[pdi];
	u32 n = pd->nr_opps < SP_MAX_OPPS ? pd->nr_opps : SP_MAX_OPPS, k, i;
	u64 idle_max = sp_model_idle_max_uw(pd);
	s32 env_k[SP_MAX_OPPS];
	s64 env = 0x7fffffff;

	for (k = n; k-- > 0;) {
		u32 cap = pd->opp[k].cap;
		s64 r = (s64)sp_div_u64((pd->opp[k].power_uw + s_uw) << 10, cap) -
			(s64)sp_div_u64((idle_max << 10) + cap - 1, cap);

		if (r < env)
			env = r;
		env_k[k] = env > SP_LB_NONE ? (s32)env : SP_LB_NONE;
	}
	for (i = 0; i < SP_OPP_LUT_LEN; i++) {
		s32 v = env_k[pd->opp_lut[i] < n ? pd->opp_lut[i] : 0];

		if (v < m->lb_sleep_q10[i][gi])
			m->lb_sleep_q10[i][gi] = v;
	}
}

/* The active - idle power of @cpu's groups from level 0 up to level @top. */
static u64 sp_model_chain_static_uw(const struct sp_model *m, u32 cpu, u32 top)
{
	u64 s_uw = 0;
	u32 l;

	for (l = 0; l <= top && l < m->nr_levels && l < SP_MAX_LEVELS; l++) {
		const struct sp_group *g = &m->group[m->cpu_group[l][cpu]];

		if (g->active_uw > g->idle_uw)
			s_uw += g->active_uw - g->idle_uw;
	}
	return s_uw;
}

/* Group @gi's column of lb_sleep_q10 (its CPUs' pds have their lb_q10). */
static void sp_model_derive_group_sleep(struct sp_model *m, u32 gi)
{
	const struct sp_group *g = &m->group[gi];
	u32 j, i, prev_pd = SP_NONE;
	u64 prev_s = 0;

	for (i = 0; i < SP_OPP_LUT_LEN; i++)
		m->lb_sleep_q10[i][gi] = 0x7fffffff;
	for (j = 0; j < g->nr_cpus; j++) {
		u32 off = (u32)g->cpu_off + j, cpu, pd;
		u64 s_uw;

		cpu = off < SP_MAX_LEVELS * SP_MAX_CPUS ? m->group_cpus[off] : SP_NONE;
		pd = cpu < SP_MAX_CPUS ? m->cpu_pd[cpu] : SP_NONE;
		if (pd >= m->nr_pds || m->lb_q10[0][pd] == SP_LB_NONE) {
			for (i = 0; i < SP_OPP_LUT_LEN; i++)
				m->lb_sleep_q10[i][gi] = SP_LB_NONE;
			return;
		}
		s_uw = sp_model_chain_static_uw(m, cpu, g->level);
		if (pd == prev_pd && s_uw == prev_s)	/* the CPU before's, again */
			continue;
		sp_model_sleep_lb_min(m, gi, pd, s_uw);
		prev_pd = pd;
		prev_s = s_uw;
	}
	if (!j)
		for (i = 0; i < SP_OPP_LUT_LEN; i++)
			m->lb_sleep_q10[i][gi] = SP_LB_NONE;
}

/* @cpu's slowest wake-up: its deepest state's exit and every group's above. */
static u32 sp_model_wake_max_us(const struct sp_model *m, u32 cpu)
{
	u32 pdi = m->cpu_pd[cpu], lat = 0, l;

	if (pdi < m->nr_pds && m->pd[pdi].nr_idle)
		lat = m->pd[pdi].idle[m->pd[pdi].nr_idle - 1u].exit_latency_us;
	for (l = 0; l < m->nr_levels && l < SP_MAX_LEVELS; l++) {
		u32 g = m->cpu_group[l][cpu];

		if (g < m->nr_groups)
			lat += m->group[g].exit_latency_us;
	}
	return lat;
}

/*
 * The load-balancer gate's level, the topmost with more than one group,
 * and per CPU its capacity and its group there (core/sp_gate.c); after
 * the pds' cap_top.
 */
static void sp_model_derive_gate(struct sp_model *m)
{
	u32 l = m->nr_levels < SP_MAX_LEVELS ? m->nr_levels : SP_MAX_LEVELS, cpu;

	m->gate_level = SP_NONE;
	while (l--)
		if (m->level[l].nr_groups > 1) {
			m->gate_level = l;
			break;
		}
	for (cpu = 0; cpu < SP_MAX_CPUS; cpu++) {
		struct sp_gate_entry *gc = &m->gate_cpu[cpu];
		bool in = cpu < m->nr_cpus;

		gc->cap = in && m->cpu_pd[cpu] < m->nr_pds ?
			  m->pd[m->cpu_pd[cpu]].cap_top : SP_CAP_SCALE;
		gc->group = in && m->gate_level != SP_NONE ?
			    m->cpu_group[m->gate_level][cpu] : SP_NONE;
		if (gc->group >= m->nr_groups)
			gc->group = SP_NONE;
	}
}

void sp_model_derive(struct sp_model *m)
{
	u32 i;

	m->cap_max = 0;
	for (i = 0; i < m->nr_pds && i < SP_MAX_PDS; i++) {
		sp_model_derive_pd(&m->pd[i]);
		sp_model_derive_pd_lb(m, i);
		sp_model_derive_idle(&m->pd[i], &m->pd_idle[i]);
		if (m->pd[i].cap_top > m->cap_max)
			m->cap_max = m->pd[i].cap_top;
	}
	for (i = 0; i < m->nr_groups && i < SP_MAX_GROUPS; i++) {
		sp_model_derive_group(m, i);
		sp_model_derive_group_sleep(m, i);
	}
	for (i = 0; i < m->nr_cpus && i < SP_MAX_CPUS; i++)
		m->cpu_wake_max_us[i] = sp_model_wake_max_us(m, i);
	sp_model_derive_gate(m);
}
