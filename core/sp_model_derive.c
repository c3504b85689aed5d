// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_derive.c - the per-pd and per-group constants the wake-up path
 * reads, derived once from a linked model instead of once per decision.
 */
#include "sp_model.h"

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

static void sp_model_derive_pd(struct sp_pd *pd)
{
	u64 eff, idle_max = 0;
	u32 i, cap0;
	s64 lb;

	pd->cap_top = pd->nr_opps ? pd->opp[pd->nr_opps - 1].cap : SP_CAP_SCALE;
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
	lb = (s64)(((u64)pd->opp[0].power_uw << 10) / cap0) -
	     (s64)(((idle_max << 10) + cap0 - 1) / cap0);
	if (lb > 0x7fffffff)
		lb = 0x7fffffff;
	if (lb > SP_LB_NONE)
		pd->lb_rate_q10 = (s32)lb;
}

/**
 * sp_model_derive() - the derived fields of a linked model
 * @m: the model
 *
 * Per pd: cap_top, eff_key and lb_rate_q10 (sp_model.h); per group:
 * lb_rate_q10, the smallest of its CPUs' pds.  sp_model_link() calls it;
 * a caller that changes a linked model's OPP or idle tables calls it again.
 */
void sp_model_derive(struct sp_model *m)
{
	u32 i, j;

	for (i = 0; i < m->nr_pds && i < SP_MAX_PDS; i++)
		sp_model_derive_pd(&m->pd[i]);
	for (i = 0; i < m->nr_groups && i < SP_MAX_GROUPS; i++) {
		struct sp_group *g = &m->group[i];
		s32 lb = 0x7fffffff;

		for (j = 0; j < g->nr_cpus; j++) {
			u32 off = (u32)g->cpu_off + j, cpu, pd;

			if (off >= SP_MAX_LEVELS * SP_MAX_CPUS)
				break;
			cpu = m->group_cpus[off];
			pd = cpu < SP_MAX_CPUS ? m->cpu_pd[cpu] : SP_NONE;
			if (pd >= m->nr_pds || m->pd[pd].lb_rate_q10 < lb)
				lb = pd < m->nr_pds ? m->pd[pd].lb_rate_q10 : SP_LB_NONE;
		}
		g->lb_rate_q10 = lb;
	}
}
