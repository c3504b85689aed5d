// SPDX-License-Identifier: GPL-2.0
/*
 * opp.c - the OPP of each performance domain: schedutil-like, fixed by
 * the run (the oracle's schedules), or floored (sp-power: opp_floor=1).
 *
 * DOC: the OPP governor
 *
 * Schedutil-like: per pd, unless sim_opts.fixed_opp fixes it, the lowest
 * OPP whose capacity is at least 1.25 x the highest utilisation of its
 * CPUs (sp_model_pd_opp_for()), re-chosen at every wake-up, idle entry and
 * tick of one of its CPUs, and never below the pd's floor in sp-power
 * runs and runs with sim_opts.opp_floor (oracle-lat-su under --su-floor).  A CPU's utilisation is cpu_util_cfs() of 6.1 (rq.c): the larger
 * of its frequency-invariant PELT-like average (the core's snapshot, told
 * each OPP change through sp_state_set_cap()) and the sum of the util_est
 * of the tasks on its run queue (a task's utilisation when it last went to
 * sleep), so queued and just-placed work raises the OPP at once.  The
 * snapshot's pd_opp stays SP_OPP_MODELLED: sp_place() models the OPP from
 * utilisation itself, as on a board without cpufreq; sp-power's pd_opp is
 * its floor, as cpufreq's reports would say.
 *
 * The run queues and the idle entry reach opp_update() through
 * sim_ops.freq_update, as the kernel's scheduler reaches schedutil through
 * the cpufreq_update_util() hook; the tick calls it directly (sim.c).
 */
#include "sim_int.h"

/* schedutil on utilisation, unless the run fixes this pd's OPP. */
static u32 opp_wanted(struct sim *S, u32 pdi)
{
	const struct sp_pd *pd = &S->m->pd[pdi];
	const u16 *cpus = S->m->pd_cpus + pd->cpu_off;
	u32 i, max = 0;

	if (S->o && S->o->fixed_opp && S->o->fixed_opp[pdi] >= 0)
		return (u32)S->o->fixed_opp[pdi] < pd->nr_opps ?
		       (u32)S->o->fixed_opp[pdi] : pd->nr_opps - 1u;
	for (i = 0; i < pd->nr_cpus; i++) {
		u32 u = sim_util_cfs(S, cpus[i]);

		if (u > max)
			max = u;
	}
	i = sp_model_pd_opp_for(pd, (5 * max + 3) / 4);
	return i > S->opp_floor[pdi] ? i : S->opp_floor[pdi];
}

/*
 * Re-choose pd @pdi's OPP.  On a change, the energy and the running tasks'
 * work are brought up to now at the old OPP, and every running task's end
 * is re-armed at the new one.
 */
int opp_update(struct sim *S, u32 pdi)
{
	const struct sp_pd *pd = &S->m->pd[pdi];
	const u16 *cpus = S->m->pd_cpus + pd->cpu_off;
	u32 i, k = opp_wanted(S, pdi);

	if (k == S->pd_opp[pdi])
		return 0;
	for (i = 0; i < pd->nr_cpus; i++) {
		if (S->cpu[cpus[i]].idle >= 0)
			continue;
		hw_cpu_flush(S, cpus[i]);
		rq_progress(S, cpus[i]);
	}
	S->pd_opp[pdi] = k;
	for (i = 0; i < pd->nr_cpus; i++) {
		struct sim_cpu *c = &S->cpu[cpus[i]];

		sp_state_set_cap(S->st, cpus[i], pd->opp[k].cap, S->now);
		if (c->idle >= 0)
			continue;
		hw_timeline(S, cpus[i], 1, (s32)k);
		if (c->curr && rq_arm_done(S, cpus[i]))
			return -1;
	}
	return 0;
}

/* Every pd starts at its lowest OPP, its floor, or the one the run fixes. */
void opp_init(struct sim *S)
{
	u32 p, i;

	for (p = 0; p < S->m->nr_pds; p++) {
		const struct sp_pd *pd = &S->m->pd[p];
		s8 f = S->o && S->o->fixed_opp ? S->o->fixed_opp[p] : -1;

		if (S->policy == SIM_POL_SP_POWER || (S->o && S->o->opp_floor)) {
			S->opp_floor[p] = sp_energy_opp_floor(S->m, p);
			S->floor_priced[p] = S->opp_floor[p];
			S->st->pd_opp[p] = (s32)S->opp_floor[p];
		}
		if (f < 0)
			S->pd_opp[p] = S->opp_floor[p];
		else	/* as opp_wanted(): a fixed OPP past the top is the top */
			S->pd_opp[p] = (u32)f < pd->nr_opps ? (u32)f : pd->nr_opps - 1u;
		for (i = 0; i < pd->nr_cpus; i++)
			sp_state_set_cap(S->st, S->m->pd_cpus[pd->cpu_off + i],
					 pd->opp[S->pd_opp[p]].cap, 0);
	}
}

/*
 * sp-power's floor judged again (opp_floor.c's deferrable look, every
 * SP_FLOOR_LOOK_MS): each pd's floor is the one priced for the groups it
 * holds up (sp_floor_shared_opp(), from the groups' awake time over the
 * recent looks) lowered by sp_floor_gap_opp() from the accounting since
 * the last look.  The look runs at the first event at or after its time,
 * as a deferrable timer runs on the next CPU that is awake anyway.
 */
int opp_floor_look(struct sim *S)
{
	u32 p, k;

	S->floor_next_ns = S->now + SP_FLOOR_LOOK_MS * 1000000ull;
	sp_floor_groups_look(S->m, S->acct, S->st, S->now, &S->floor_groups, false);
	for (p = 0; p < S->m->nr_pds; p++) {
		if (!S->floor_priced[p])
			continue;
		k = sp_floor_shared_opp(S->m, p, S->st, &S->floor_groups);
		k = sp_floor_gap_opp(S->m, p, k, S->opp_floor[p], S->sp_pol.latency_us, S->acct,
				     S->floor_look, &S->floor_pd[p]);
		if (k == S->opp_floor[p])
			continue;
		S->opp_floor[p] = k;
		S->st->pd_opp[p] = (s32)k;
		if (opp_update(S, p))
			return -1;
	}
	return 0;
}
