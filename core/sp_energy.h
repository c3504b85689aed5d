/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_energy.h - energy estimation over a window from a model and a snapshot.
 */

/**
 * DOC: the energy estimate
 *
 * Over a window of W us, a performance domain at OPP k with CPUs of
 * utilisation u_i (0..1024, sp_state_cpu_util_stored() at the decision
 * time) spends busy energy::
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
 * Putting a task of utilisation u on CPU c changes six separately reported
 * terms (nJ = uW * us / 1000)::
 *
 *	busy_nj   = u / cap_k * P_k * W			(same OPP)
 *	pstate_nj = E_busy(pd, k') - E_busy(pd, k)	(all CPUs of the pd pay
 *						 for the step k -> k', with the
 *						 new utilisations)
 *	idle_nj   = -u / cap_k' * P_idle(c) * W		(idle time given up)
 *	wake_nj   = wake-up energy of c's idle state if c sleeps, plus for every
 *		    group above c that is idle: wakeup_uj + (active_uw - idle_uw)
 *		    for the time the task keeps it awake (u / cap_k' * W)
 *	static_nj = for every group above c that is awake: (active_uw -
 *		    idle_uw) for that same busy time, times (1 - f_g), where
 *		    f_g is the group's recent awake fraction (an average of
 *		    awake and asleep with a 128 ms half-life, folded at every
 *		    transition: sp_state.h): the share of the task's run that
 *		    would otherwise have found the group asleep, so a package
 *		    kept up by its own work is not free to stretch; times 1
 *		    for a group that the task's own timer woke and that no
 *		    other CPU holds awake (sp_state_ucache_asleep()): it would
 *		    sleep through the whole run if the task went elsewhere,
 *		    and its awake fraction is then mostly the task's own past
 *		    runs, not other work that keeps it up
 *	future_nj = for every group above c, its wake cost (wakeup_uj plus the
 *		    same static power for the busy time) times (1 - f_g): the
 *		    task's next wake-up lands on c's groups (6.1 keeps a sleeping
 *		    task's timer on the CPU it slept on, and a wake-up starts at
 *		    prev_cpu), and finds them asleep with probability 1 - f_g
 *
 * and total_nj is their sum.  Raising a busy CPU's P-state shows up as
 * pstate_nj; moving to a CPU that must wake shows up as wake_nj; keeping a
 * package up that would sleep, now or at the next wake-up, as static_nj and
 * future_nj.  The last two make a package that is busy anyway cheaper to
 * join than one the task would keep up alone: periodic tasks gather on one
 * package and the other sleeps.  Without the full price of a group woken
 * for the task alone, a light task left alone on a package is priced
 * there by its own awake fraction, as if other work kept that package up
 * as often as it keeps it up itself; it would not leave at its timer
 * wake-ups even while the other package is up for another task.  The
 * move that gathers them adds the destination CPU's exit latency to that
 * one wake-up, which is what the decision's latency budget pays for;
 * after it, the task's timer fires on its new package.
 */
#ifndef SP_ENERGY_H
#define SP_ENERGY_H

#include "sp_state.h"

/*
 * The window is clamped to this, 1 s, the window_us knob's largest value
 * (sp_energy.c's DOC block; sp_place.c's rate bound multiplies it by a
 * utilisation and a rate below 2^31).
 */
#define SP_ENERGY_WINDOW_MAX_US	1000000u

struct sp_energy_terms {
	s64 busy_nj;
	s64 pstate_nj;
	s64 idle_nj;
	s64 wake_nj;
	s64 static_nj;		/* awake groups kept up longer */
	s64 future_nj;		/* the task's next wake-up there */
	s64 total_nj;
	u16 opp_before;		/* OPP index of c's pd without the task */
	u16 opp_after;		/* and with it */
	u16 groups_woken;	/* idle groups above c that the task wakes */
};

/**
 * sp_energy_pd_opp() - the OPP a pd runs at for its CPUs' utilisation
 * @m: the model
 * @st: the snapshot
 * @now_ns: the time, ns
 * @pd: the pd's index in @m
 * @extra_cpu: a CPU whose utilisation counts @extra_util more
 * @extra_util: what it adds, 0..1024; 0 for none
 *
 * The OPP schedutil would pick for the busiest CPU, from the stored
 * utilisations (sp_state_cpu_util_stored()): the lowest whose capacity
 * covers 1.25 times it, else the highest; raised to the OPP cpufreq
 * reported, if that is higher.
 *
 * Return: the OPP index.
 */
u32 sp_energy_pd_opp(const struct sp_model *m, const struct sp_state *st,
		     u64 now_ns, u32 pd, u32 extra_cpu, u32 extra_util);

/**
 * sp_energy_delta() - the energy of placing a task on a CPU
 * @m: the model
 * @st: the snapshot
 * @now_ns: the decision's time, ns
 * @cpu: the CPU, in @m
 * @task_util: the task's utilisation, 0..1024 (larger is clamped)
 * @window_us: the window, us (clamped to %SP_ENERGY_WINDOW_MAX_US)
 * @out: the terms, in nJ, and the OPPs before and after
 *
 * The terms of "the energy estimate", with a pass of its own over @cpu's
 * pd; every CPU counts as the snapshot says.
 */
void sp_energy_delta(const struct sp_model *m, const struct sp_state *st,
		     u64 now_ns, u32 cpu, u32 task_util, u32 window_us,
		     struct sp_energy_terms *out);

/*
 * One pass over the CPUs of a pd at one decision time, kept so that the
 * next CPU of the same pd in the same decision needs no second pass.  The
 * caller sets pd = SP_NONE before the first use and keeps @now_ns, @st and
 * the model fixed while the cache lives (one sp_place() call).  With @uc
 * set, the pass reads utilisations through that decision's util cache.
 */
struct sp_pd_cache {
	u16 pd;			/* pd index, or SP_NONE while empty */
	u8 k;			/* the OPP the pd runs at without the task */
	u32 window_us;		/* the window e_before_nj is for */
	u32 w_ms;		/* window_us / 1000 if 1000 divides it, else 0 */
	u32 max;		/* max_i u_i */
	u32 cap_k;		/* capacity at k */
	u32 p_k;		/* busy power at k, uW */
	u32 sum_k;		/* sum_i min(u_i, cap_k): the plain sum below the top */
	u32 sum;		/* sum_i u_i (at most 512 * 1024) */
	u32 sum_top;		/* sum_i min(u_i, cap of the highest OPP) */
	u64 rcp_k;		/* opp_rcp[k]: division by cap_k */
	u64 e_before_nj;	/* E_k over the window, without the task */
	struct sp_util_cache *uc;	/* where the pass reads u_i, or NULL */
};

/**
 * sp_energy_delta_cached() - sp_energy_delta() within one decision
 * @m: the model
 * @st: the snapshot
 * @now_ns: the decision's time, ns
 * @cpu: the CPU, in @m
 * @awake_cpu: a CPU counted as awake whatever the snapshot says (the CPU
 *	       that runs the decision, up for an interrupt before its idle
 *	       exit is recorded), or %SP_NONE
 * @task_util: the task's utilisation, 0..1024 (larger is clamped)
 * @window_us: the window, us (clamped to %SP_ENERGY_WINDOW_MAX_US)
 * @cache: the decision's pass over a pd: taken when it holds @cpu's pd for
 *	   the same window, else refilled; NULL for a pass of its own
 * @out: the terms, in nJ, and the OPPs before and after
 *
 * With @awake_cpu %SP_NONE, the same result as sp_energy_delta().
 */
void sp_energy_delta_cached(const struct sp_model *m, const struct sp_state *st,
			    u64 now_ns, u32 cpu, u32 awake_cpu, u32 task_util,
			    u32 window_us, struct sp_pd_cache *cache,
			    struct sp_energy_terms *out);

/*
 * What every energy of one decision shares, set once per decision by
 * sp_energy_args_init(): the caller keeps it beside its pd caches (in the
 * kernel, in the per-CPU working set), so that a call carries four
 * arguments instead of nine.
 */
struct sp_energy_args {
	const struct sp_model *m;
	const struct sp_state *st;
	u64 now_ns;
	u32 awake_cpu;		/* counted as awake, or SP_NONE */
	u32 task_util;		/* 0..1024 */
	u32 window_us;		/* at most SP_ENERGY_WINDOW_MAX_US */
	u32 w_ms;		/* window_us / 1000 if 1000 divides it, else 0 */
};

/**
 * sp_energy_args_init() - the shared arguments of one decision's energies
 * @a: filled in whole
 * @m: the model
 * @st: the snapshot
 * @now_ns: the decision's time, ns
 * @awake_cpu: as for sp_energy_delta_cached()
 * @task_util: the task's utilisation (larger than 1024 is clamped)
 * @window_us: the window, us (clamped to %SP_ENERGY_WINDOW_MAX_US)
 */
static inline void sp_energy_args_init(struct sp_energy_args *a, const struct sp_model *m,
				       const struct sp_state *st, u64 now_ns, u32 awake_cpu,
				       u32 task_util, u32 window_us)
{
	a->m = m;
	a->st = st;
	a->now_ns = now_ns;
	a->awake_cpu = awake_cpu;
	a->task_util = task_util < SP_CAP_SCALE ? task_util : SP_CAP_SCALE;
	a->window_us = window_us < SP_ENERGY_WINDOW_MAX_US ? window_us : SP_ENERGY_WINDOW_MAX_US;
	a->w_ms = a->window_us % 1000 ? 0 : a->window_us / 1000;
}

/**
 * sp_energy_delta_at() - sp_energy_delta_cached() with the shared arguments
 * @a: the decision's arguments (sp_energy_args_init())
 * @cpu: the CPU, in @a->m
 * @cache: the decision's pass over a pd, not NULL: taken when it holds
 *	   @cpu's pd for the same window, else refilled
 * @out: the terms, in nJ, and the OPPs before and after
 *
 * The same result as sp_energy_delta_cached() with @a's arguments.
 */
void sp_energy_delta_at(const struct sp_energy_args *a, u32 cpu, struct sp_pd_cache *cache,
			struct sp_energy_terms *out);

/**
 * sp_energy_opp_floor() - the OPP that runs a unit of work for the least energy
 * @m: the model
 * @pd: the pd's index in @m
 *
 * The energy of a unit of work at OPP k when the pd's CPU and every group
 * above it are up only for that work is::
 *
 *	(P_k - P_deepest_idle + sum over the groups of (active_uw - idle_uw)) / cap_k
 *
 * (the groups are those above the pd's first CPU).  opp_floor.c floors
 * each cpufreq policy there in power mode.
 *
 * Return: the index of the OPP that minimises it, the lowest on a tie; 0
 * for a pd out of range or without OPPs or CPUs.
 */
u32 sp_energy_opp_floor(const struct sp_model *m, u32 pd);

/**
 * sp_energy_opp_floor_w() - sp_energy_opp_floor() with a share of each group
 * @m: the model
 * @pd: the pd's index in @m
 * @w: per level of @m, the share of the group's active_uw - idle_uw that
 *     the pd's work holds up, 0..1024 (more counts as 1024); NULL for all
 *     of it, which is sp_energy_opp_floor()
 *
 * Return: as sp_energy_opp_floor(), with each group's term times
 * w[level] / 1024.
 */
u32 sp_energy_opp_floor_w(const struct sp_model *m, u32 pd, const u32 *w);

/**
 * sp_energy_power_uw() - the modelled power of the whole system now
 * @m: the model
 * @st: the snapshot
 * @now_ns: the time, ns
 *
 * Per pd, its busy power at the OPP its CPUs' utilisation asks for
 * (sp_energy_pd_opp()) plus each CPU's idle share at the power of the state
 * it is in (its shallowest if awake); per group, active_uw while awake and
 * idle_uw while asleep.
 *
 * Return: the power, uW.
 */
u64 sp_energy_power_uw(const struct sp_model *m, const struct sp_state *st,
		       u64 now_ns);

#endif /* SP_ENERGY_H */
