/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_energy.h - energy estimation over a window from a model and a snapshot.
 *
 * DOC: the energy estimate
 *
 * Over a window of W us, a performance domain at OPP k with CPUs of
 * utilisation u_i (0..1024, sp_cpu_util_now() at the decision time) spends
 * busy energy
 *
 *	E_busy = sum_i min(u_i, cap_k) / cap_k * P_k * W
 *
 * where the OPP follows the busiest CPU as schedutil would pick it:
 * k = lowest OPP with cap_k >= 1.25 * max_i u_i (else the highest), unless
 * cpufreq reported the domain's current OPP and it is higher.
 * Each CPU is idle for the rest of the window, at the power of the state it
 * is in (or of its shallowest state if it is awake now).  Every group costs
 * active_uw while awake and idle_uw while idle.
 *
 * Putting a task of utilisation u on CPU c changes four separately reported
 * terms (nJ = uW * us / 1000):
 *
 *	busy_nj   = u / cap_k * P_k * W			(same OPP)
 *	pstate_nj = E_busy(pd, k') - E_busy(pd, k)	(all CPUs of the pd pay
 *						 for the step k -> k', with the
 *						 new utilisations)
 *	idle_nj   = -u / cap_k' * P_idle(c) * W		(idle time given up)
 *	wake_nj   = wake-up energy of c's idle state if c sleeps, plus for every
 *		    group above c that is idle: wakeup_uj + (active_uw - idle_uw)
 *		    for the time the task keeps it awake (u / cap_k' * W)
 *
 * and total_nj is their sum.  Raising a busy CPU's P-state shows up as
 * pstate_nj; moving to a CPU that must wake shows up as wake_nj.
 */
#ifndef SP_ENERGY_H
#define SP_ENERGY_H

#include "sp_state.h"

struct sp_energy_terms {
	s64 busy_nj;
	s64 pstate_nj;
	s64 idle_nj;
	s64 wake_nj;
	s64 total_nj;
	u16 opp_before;		/* OPP index of c's pd without the task */
	u16 opp_after;		/* and with it */
	u16 groups_woken;	/* idle groups above c that the task wakes */
	u16 pad;
};

/* OPP index the pd of @cpu runs at in @st (modelled or reported). */
/* (@extra_util is added to @extra_cpu's utilisation; pass 0 for none.)    */
u32 sp_energy_pd_opp(const struct sp_model *m, const struct sp_state *st,
		     u64 now_ns, u32 pd, u32 extra_cpu, u32 extra_util);

/* Energy terms of placing a task of @task_util on @cpu for @window_us. */
void sp_energy_delta(const struct sp_model *m, const struct sp_state *st,
		     u64 now_ns, u32 cpu, u32 task_util, u32 window_us,
		     struct sp_energy_terms *out);

/* Largest pd whose pass sp_energy_delta_cached() keeps. */
#define SP_PD_CACHE_CPUS	16

/*
 * One pass over the CPUs of a pd at one decision time, kept so that the
 * next CPU of the same pd in the same decision needs no second pass.  The
 * caller sets pd = SP_NONE before the first use and keeps @now_ns, @st and
 * the model fixed while the cache lives (one sp_place() call).  With @uc
 * set, the pass reads utilisations through that decision's util cache.
 */
struct sp_pd_cache {
	u16 pd;			/* pd index, or SP_NONE while empty */
	u16 nr_cpus;
	u32 max;		/* max_i u_i */
	u64 sum;		/* sum_i u_i */
	u64 sum_top;		/* sum_i min(u_i, cap of the highest OPP) */
	u16 util[SP_PD_CACHE_CPUS];	/* u_i of the pd's i-th CPU */
	struct sp_util_cache *uc;	/* where the pass reads u_i, or NULL */
};

/*
 * sp_energy_delta() that takes the pd's pass from @cache when it holds @cpu's
 * pd and otherwise refills it (pds above SP_PD_CACHE_CPUS CPUs bypass it).
 * Same result as sp_energy_delta() on the same snapshot.
 */
void sp_energy_delta_cached(const struct sp_model *m, const struct sp_state *st,
			    u64 now_ns, u32 cpu, u32 task_util, u32 window_us,
			    struct sp_pd_cache *cache,
			    struct sp_energy_terms *out);

/* Modelled power of the whole system in snapshot @st, uW. */
u64 sp_energy_power_uw(const struct sp_model *m, const struct sp_state *st,
		       u64 now_ns);

#endif /* SP_ENERGY_H */
