// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_derive.c - the per-pd and per-group constants the wake-up path
 * reads, derived once from a linked model instead of once per decision.
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
	u64 eff, idle_max = 0;
	u32 i, cap0;
	s64 lb;

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
	pd->lb_rate_q10 = SP_LB_NONE;
	if (!cap0 || !sp_model_eff_monotone(pd))
		return;
	for (i = 0; i < pd->nr_idle || i == 0; i++)
		if (pd->idle[i].power_uw > idle_max)
			idle_max = pd->idle[i].power_uw;
	/* floor(1024 P_0 / cap_0) - ceil(1024 P_idle / cap_0) */
	lb = (s64)sp_div_u64((u64)pd->opp[0].power_uw << 10, cap0) -
	     (s64)sp_div_u64((idle_max << 10) + cap0 - 1, cap0);
	if (lb > 0x7fffffff)
		lb = 0x7fffffff;
	if (lb > SP_LB_NONE)
		pd->lb_rate_q10 = (s32)lb;
}

static u32 sp_model_sat_u32(u64 v)
{
	return v < SP_U32_MAX ? (u32)v : SP_U32_MAX;
}

/*
 * What waking @cpu costs while its group at level @top sleeps (and so every
 * group below it on @cpu's chain): the cheapest state's wakeup_uj plus the
 * groups' (*uj), and their active - idle power per capacity unit (*s_q10).
 */
static void sp_model_sleep_cost(const struct sp_model *m, u32 cpu, u32 top,
				u64 *uj, u64 *s_q10)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
	u64 s_uw = 0;
	u32 l;

	*uj = pd->wake_min_uj;
	for (l = 0; l <= top && l < m->nr_levels && l < SP_MAX_LEVELS; l++) {
		const struct sp_group *g = &m->group[m->cpu_group[l][cpu]];

		*uj += g->wakeup_uj;
		if (g->active_uw > g->idle_uw)
			s_uw += g->active_uw - g->idle_uw;
	}
	*s_q10 = sp_div_u64(s_uw << 10, pd->cap_top ? pd->cap_top : 1);
}

static void sp_model_derive_group(struct sp_model *m, struct sp_group *g)
{
	s32 lb = 0x7fffffff;
	u64 uj_min = ~0ull, s_min = ~0ull, uj, s_q10;
	u32 j;

	for (j = 0; j < g->nr_cpus; j++) {
		u32 off = (u32)g->cpu_off + j, cpu, pd;

		if (off >= SP_MAX_LEVELS * SP_MAX_CPUS)
			break;
		cpu = m->group_cpus[off];
		pd = cpu < SP_MAX_CPUS ? m->cpu_pd[cpu] : SP_NONE;
		if (pd >= m->nr_pds) {
			lb = SP_LB_NONE;
			uj_min = 0;
			s_min = 0;
			break;
		}
		if (m->pd[pd].lb_rate_q10 < lb)
			lb = m->pd[pd].lb_rate_q10;
		sp_model_sleep_cost(m, cpu, g->level, &uj, &s_q10);
		if (uj < uj_min)
			uj_min = uj;
		if (s_q10 < s_min)
			s_min = s_q10;
	}
	/* idle_uw <= active_uw in a validated model; 0 otherwise */
	g->static_uw = g->active_uw > g->idle_uw ? g->active_uw - g->idle_uw : 0;
	g->wakeup_nj = (u64)g->wakeup_uj * 1000;
	g->lb_rate_q10 = lb;
	g->sleep_wake_uj = j ? sp_model_sat_u32(uj_min) : 0;
	g->sleep_s_q10 = j ? sp_model_sat_u32(s_min) : 0;
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

void sp_model_derive(struct sp_model *m)
{
	u32 i;

	m->cap_max = 0;
	for (i = 0; i < m->nr_pds && i < SP_MAX_PDS; i++) {
		sp_model_derive_pd(&m->pd[i]);
		sp_model_derive_idle(&m->pd[i], &m->pd_idle[i]);
		if (m->pd[i].cap_top > m->cap_max)
			m->cap_max = m->pd[i].cap_top;
	}
	for (i = 0; i < m->nr_groups && i < SP_MAX_GROUPS; i++)
		sp_model_derive_group(m, &m->group[i]);
	for (i = 0; i < m->nr_cpus && i < SP_MAX_CPUS; i++)
		m->cpu_wake_max_us[i] = sp_model_wake_max_us(m, i);
}
