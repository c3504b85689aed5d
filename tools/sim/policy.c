// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - the placement policies the simulator compares.
 *
 * DOC: policies
 *
 * Every policy answers one question at each wake-up and fork: which CPU
 * does the task go to.  The load balancing after that is 6.1's (balance.c)
 * for all but "pinned", as it is CFS's in the kernel whatever sched_power
 * decides, gated between top-level groups for the sp-* policies whose mode
 * acts, as the module gates it (core/sp_gate.c).
 *
 * cfs: Linux 6.1's select_task_rq_fair() (cfs.c).  This is the reference
 * baseline and "CFS's choice" handed to sp_place().
 *
 * spread: the idlest package first.  Walking down the model's levels from
 * the top, it takes the group with the most idle CPUs (ties: the one
 * holding prev_cpu, then the lowest), and in the lowest group prev_cpu if
 * idle, else its first idle CPU; with no idle CPU anywhere, the CPU with
 * the fewest tasks (then the lowest utilisation, prev_cpu winning ties).
 * The same at fork.  Unlike cfs it leaves the waking task's package.
 *
 * sp-observe, sp-power, sp-balanced, sp-performance: the real sp_place()
 * of core/sp_place.c on the simulator's snapshot, with the module's default
 * knobs (margin 5 %, overutilised at 80 %, window 4000 us, no latency
 * bound, balance_gate 1, opp_floor 1), CFS's choice from cfs, the task's
 * utilisation (0 at fork, as the module sees it on 6.1).  The task goes
 * where sp_place() says when it overrides (power, balanced); observe and
 * performance keep CFS's CPU.  sp-power runs with the module's OPP floor,
 * which acts in power mode only: every pd runs at least at
 * sp_energy_opp_floor() (opp.c), and the snapshot's pd_opp says so, as
 * cpufreq's reports would.  sp-power-nofloor is power mode with
 * opp_floor=0, for comparison.
 *
 * pack (small-task packing after Vincent Guittot's 2012-2013 proposal, a
 * patch on CFS's wake-up path): a waking task whose utilisation is below
 * 25 % of 1024 goes to the first CPU, in CPU order, that stays at or below
 * 80 % of its capacity with it; bigger tasks, tasks that fit nowhere and
 * forks take CFS's path.  Its load balancer runs only while some CPU is
 * overutilised, as EAS's.
 *
 * eas (6.1's find_energy_efficient_cpu() on wake-ups only, on every
 * model, including symmetric ones, where 6.1 builds no EAS): unless a CPU
 * is overutilised (util > 80 % of capacity: then CFS's path), take from
 * every performance domain the CPU with the most spare capacity that fits
 * the task, plus prev_cpu, and compute for each the pd's busy energy with
 * the task minus without,
 *
 *	E_pd = P_k * sum_i min(u_i, cap_k) / cap_k, k = OPP for 1.25 * max u_i,
 *
 * u_i as 6.1's cpu_util_next() (the task's util_avg moved off prev_cpu,
 * its util_est added where it goes), ignoring idle states, wake-up energy
 * and groups.  The cheapest wins if strictly cheaper than prev_cpu, with
 * no margin, as in 6.1.  Forks take CFS's slow path, and the balancer runs
 * only while overutilised (6.1 with EAS).
 *
 * pinned: every task instance on the CPU sim_opts.pin[] gives it, never
 * balanced (the oracle's schedules).
 *
 * With sim_opts.decisions, every sp_place() of an sp-* policy writes one
 * line of key=value fields (decision_line()): the time in us, the task
 * (name#index among the story's instances), its utilisation, prev_cpu,
 * the deciding CPU and its context (enum sp_this_ctx: none, task, irq,
 * sync), CFS's CPU, the CPU the task went to, the reason, override,
 * total_nj at CFS's CPU and at the chosen one, the chosen CPU's energy
 * terms (sp_energy.h), its OPP before and after, its modelled wake-up
 * latency, queued and slower: what the kernel's sched_power_select trace
 * event reports, on the simulator's snapshot.
 */
#include "sim_int.h"

const char *const sim_policy_names[SIM_POL_ALL] = {
	[SIM_POL_CFS]			= "cfs",
	[SIM_POL_SPREAD]		= "spread",
	[SIM_POL_PACK]			= "pack",
	[SIM_POL_EAS]			= "eas",
	[SIM_POL_SP_OBSERVE]		= "sp-observe",
	[SIM_POL_SP_POWER]		= "sp-power",
	[SIM_POL_SP_BALANCED]		= "sp-balanced",
	[SIM_POL_SP_PERFORMANCE]	= "sp-performance",
	[SIM_POL_SP_POWER_NOFLOOR]	= "sp-power-nofloor",
	[SIM_POL_PINNED]		= "pinned",
	[SIM_POL_ORACLE]		= "oracle",
	[SIM_POL_ORACLE_LAT]		= "oracle-lat",
	[SIM_POL_ORACLE_LAT_SU]		= "oracle-lat-su",
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

static bool fits(const struct sim *S, u32 cpu, u32 util)
{
	return (sim_util_cfs(S, cpu) + util) * 100 <= topo_cpu_cap(S, cpu) * FIT_PCT;
}

/* ---- spread ---- */

static u32 idle_in_group(const struct sim *S, u32 g)
{
	const struct sp_group *gr = &S->m->group[g];
	u32 i, n = 0;

	for (i = 0; i < gr->nr_cpus; i++)
		n += cfs_cpu_idle(S, S->m->group_cpus[gr->cpu_off + i]);
	return n;
}

static bool group_has_cpu(const struct sp_model *m, u32 g, u32 cpu)
{
	return cpu < m->nr_cpus && m->cpu_group[m->group[g].level][cpu] == g;
}

/* Among groups first..first+nr-1, the one with the most idle CPUs. */
static u32 idlest_group(const struct sim *S, u32 first, u32 nr, u32 prev)
{
	u32 g, best = first, best_n = 0;
	bool best_prev = false;

	for (g = first; g < first + nr; g++) {
		u32 n = idle_in_group(S, g);
		bool p = group_has_cpu(S->m, g, prev);

		if (g == first || n > best_n || (n == best_n && p && !best_prev)) {
			best = g;
			best_n = n;
			best_prev = p;
		}
	}
	return best;
}

static u32 least_loaded(const struct sim *S, u32 prev)
{
	u32 i, best = prev, best_n = ~0u, best_u = ~0u;

	for (i = 0; i < S->m->nr_cpus; i++) {
		u32 n = cfs_nr_running(S, i), u = sim_util_cfs(S, i);

		if (n < best_n || (n == best_n && u < best_u) ||
		    (n == best_n && u == best_u && i == prev)) {
			best = i;
			best_n = n;
			best_u = u;
		}
	}
	return best;
}

static u32 spread_select(const struct sim *S, const struct sim_task *t)
{
	const struct sp_model *m = S->m;
	const struct sp_level *top = &m->level[m->nr_levels - 1];
	u32 prev = t->cpu >= 0 ? (u32)t->cpu : 0, g, i;
	const struct sp_group *gr;

	g = idlest_group(S, top->first_group, top->nr_groups, prev);
	if (!idle_in_group(S, g))
		return least_loaded(S, prev);
	while (m->group[g].first_child != SP_NONE)
		g = idlest_group(S, m->group[g].first_child, m->group[g].nr_children, prev);
	gr = &m->group[g];
	if (group_has_cpu(m, g, prev) && cfs_cpu_idle(S, prev))
		return prev;
	for (i = 0; i < gr->nr_cpus; i++)
		if (cfs_cpu_idle(S, m->group_cpus[gr->cpu_off + i]))
			return m->group_cpus[gr->cpu_off + i];
	return least_loaded(S, prev);
}

/* ---- sched_power ---- */

static bool allow_all(const void *ctx, u32 cpu)
{
	return true;
}

/* One decision as a line of key=value fields (the DOC block). */
static void decision_line(FILE *f, const struct sim *S, const struct sim_task *t,
			     const struct sp_task_info *ti, const struct sp_decision *d,
			     u32 cpu)
{
	const struct sp_energy_terms *e = &d->terms;

	static const char *const ctx[] = { "none", "task", "irq", "sync" };

	fprintf(f, "t_us=%llu task=%s#%u util=%u prev=%u this=%u ctx=%s cfs=%u cpu=%u "
		"reason=%s override=%d cfs_nj=%lld chosen_nj=%lld busy_nj=%lld "
		"pstate_nj=%lld idle_nj=%lld wake_nj=%lld static_nj=%lld future_nj=%lld "
		"opp=%u>%u wake_lat_us=%u queued=%d slower=%d\n",
		(unsigned long long)(S->now / 1000), t->def->name,
		t->id, d->util, ti->prev_cpu, ti->this_cpu,
		ti->this_ctx < SP_ARRAY_SIZE(ctx) ? ctx[ti->this_ctx] : "?", ti->cfs_cpu, cpu,
		d->reason < SP_R_NR ? sp_reason_names[d->reason] : "?", d->override,
		(long long)d->cfs_nj, (long long)d->chosen_nj, (long long)e->busy_nj,
		(long long)e->pstate_nj, (long long)e->idle_nj, (long long)e->wake_nj,
		(long long)e->static_nj, (long long)e->future_nj, e->opp_before,
		e->opp_after, d->wake_lat_us, d->queued, d->slower);
}

/*
 * A woken task's utilisation as select_hook.c reads it: the larger of its
 * PELT average and util_est.enqueued, at most SP_CAP_SCALE.  A task that
 * slept long has a decayed average; util_est still holds its utilisation
 * when it last went to sleep.
 */
static u32 hook_task_util(const struct sim_task *t)
{
	u32 util = sim_task_util_est(t);

	return util < SP_CAP_SCALE ? util : SP_CAP_SCALE;
}

/*
 * What the kernel hook hands sp_place(): the deciding CPU (the waker's:
 * an interrupt on an idle CPU, or rt-app's forking main thread), the
 * woken task's utilisation (hook_task_util()), a fork's estimated
 * utilisation (sp_place_fork_util() on the forking CPU, as select_hook.c
 * does), and after the choice the task noted in flight on the CPU it goes
 * to.  The stories set no per-task latency bound (latency_us 0: the
 * knob's) and wake only from timers, never a sync wake-up, so the context
 * is an interrupt on an idle CPU or a running task, as in the kernel.
 */
static u32 sp_select(struct sim *S, struct sim_task *t, u32 waker, u32 wf)
{
	struct sp_knobs pol = S->sp_pol;
	struct sp_task_info ti = {
		.now_ns = S->now,
		.util = hook_task_util(t),
		.prev_cpu = (u32)t->cpu,
		.cfs_cpu = cfs_select(S, t, waker, wf),
		.this_cpu = waker,
		.this_ctx = S->cpu[waker].curr || (S->forking && (s32)waker == S->parent_cpu) ?
			    SP_THIS_TASK : SP_THIS_IRQ,
	};
	struct sp_decision d;
	u32 cpu;

	if (wf & SIM_WF_FORK) {
		ti.util = sp_place_fork_util(S->m, S->st, waker, S->now);
		ti.wake = SP_WAKE_FORK;
	}
	sp_place(S->m, S->st, &pol, &ti, allow_all, NULL, &d);
	cpu = d.override ? d.cpu : ti.cfs_cpu;
	sp_place_note(S->m, S->st, &d, waker, cpu, sp_place_spends(&d, cpu), S->now);
	if (S->o && S->o->decisions)
		decision_line(S->o->decisions, S, t, &ti, &d, cpu);
	return cpu;
}

/* ---- pack ---- */

static u32 pack_select(struct sim *S, struct sim_task *t, u32 waker, u32 wf)
{
	u32 i;

	if ((wf & SIM_WF_TTWU) && t->util < PACK_SMALL_UTIL)
		for (i = 0; i < S->m->nr_cpus; i++)
			if (fits(S, i, t->util))
				return i;
	return cfs_select(S, t, waker, wf);
}

/* ---- eas ---- */

/*
 * cpu_util_next() of 6.1 for CPU @cpu with @t on @dst (-1: nowhere):
 * max(util_avg, util_est.enqueued) with the task's util_avg taken off its
 * prev_cpu when it goes elsewhere and put on @dst, and its util_est on
 * @dst (a sleeping task is in no CPU's util_est sum); capped at capacity.
 */
static u32 eas_cpu_util(const struct sim *S, const struct sim_task *t, u32 cpu, s32 dst)
{
	const struct sim_cpu *c = &S->cpu[cpu];
	const struct sim_task *q;
	u32 avg = sim_cpu_util(S, cpu), est = c->curr ? c->curr->util_est : 0;
	u32 cap = topo_cpu_cap(S, cpu);

	for (q = c->q_head; q; q = q->rq_next)
		est += q->util_est;
	if ((s32)cpu == t->cpu && dst != (s32)cpu)
		avg = avg > t->util ? avg - t->util : 0;
	else if ((s32)cpu != t->cpu && dst == (s32)cpu)
		avg += t->util;
	if (dst == (s32)cpu)
		est += sim_task_util_est(t);
	if (est > avg)
		avg = est;
	return avg < cap ? avg : cap;
}

/* Busy energy rate of pd @p with @t on @dst, -1 for nowhere (uW). */
static u64 pd_busy_uw(const struct sim *S, const struct sim_task *t, u32 p, s32 dst)
{
	const struct sp_pd *pd = &S->m->pd[p];
	const u16 *cpus = S->m->pd_cpus + pd->cpu_off;
	u32 i, k, max = 0, u[SP_MAX_CPUS];
	u64 sum = 0;

	for (i = 0; i < pd->nr_cpus; i++) {
		u[i] = eas_cpu_util(S, t, cpus[i], dst);
		if (u[i] > max)
			max = u[i];
	}
	k = sp_model_pd_opp_for(pd, (5 * max + 3) / 4);
	for (i = 0; i < pd->nr_cpus; i++)
		sum += u[i] < pd->opp[k].cap ? u[i] : pd->opp[k].cap;
	return (u64)pd->opp[k].power_uw * sum / pd->opp[k].cap;
}

static bool overutilised(const struct sim *S)
{
	u32 i;

	for (i = 0; i < S->m->nr_cpus; i++)
		if (sim_util_cfs(S, i) * 100 > topo_cpu_cap(S, i) * FIT_PCT)
			return true;
	return false;
}

/*
 * find_energy_efficient_cpu() of 6.1 without uclamp and thermal pressure:
 * per pd, the CPUs where the task fits (its CPU's utilisation with it,
 * util * 1.25 < capacity); prev_cpu if it fits, and the fitting CPU of
 * the most spare capacity if that has more than prev_cpu; each priced as
 * the pd's busy energy with the task there minus without it.  The
 * cheapest of them, only if strictly cheaper than prev_cpu (6.1 has no
 * energy margin); prev_cpu if nothing fits or the task's util_est is 0.
 */
static u32 eas_select(struct sim *S, struct sim_task *t, u32 waker, u32 wf)
{
	u64 best_d = ~0ull, prev_d = ~0ull;
	s32 best = -1;
	u32 p, i;

	if (!(wf & SIM_WF_TTWU) || overutilised(S))
		return cfs_select(S, t, waker, wf);
	if (!sim_task_util_est(t))
		return (u32)t->cpu;
	for (p = 0; p < S->m->nr_pds; p++) {
		const struct sp_pd *pd = &S->m->pd[p];
		s64 prev_spare = -1, max_spare = -1;
		s32 cand = -1;
		u64 base, e;

		for (i = 0; i < pd->nr_cpus; i++) {
			u32 c = S->m->pd_cpus[pd->cpu_off + i];
			u32 cap = topo_cpu_cap(S, c), u = eas_cpu_util(S, t, c, (s32)c);

			if ((u64)u * 1280 >= (u64)cap * 1024)
				continue;
			if ((s32)c == t->cpu) {
				prev_spare = cap - u;
			} else if ((s64)(cap - u) > max_spare) {
				max_spare = cap - u;
				cand = (s32)c;
			}
		}
		if (cand < 0 && prev_spare < 0)
			continue;
		base = pd_busy_uw(S, t, p, -1);
		if (prev_spare >= 0) {
			e = pd_busy_uw(S, t, p, t->cpu);
			prev_d = e > base ? e - base : 0;
			if (prev_d < best_d)
				best_d = prev_d;
		}
		if (cand >= 0 && max_spare > prev_spare) {
			e = pd_busy_uw(S, t, p, cand);
			e = e > base ? e - base : 0;
			if (e >= best_d)
				continue;
			best_d = e;
			best = cand;
		}
	}
	if (best >= 0 && best_d < prev_d)
		return (u32)best;
	return (u32)t->cpu;
}

static u32 pinned_select(const struct sim *S, const struct sim_task *t)
{
	s32 c = S->o && S->o->pin ? S->o->pin[t->id] : 0;

	return c >= 0 && (u32)c < S->m->nr_cpus ? (u32)c : 0;
}

u32 sim_policy_mode(u32 policy)
{
	switch (policy) {
	case SIM_POL_SP_OBSERVE:
		return SP_MODE_OBSERVE;
	case SIM_POL_SP_POWER:
	case SIM_POL_SP_POWER_NOFLOOR:
		return SP_MODE_POWER;
	case SIM_POL_SP_BALANCED:
		return SP_MODE_BALANCED;
	case SIM_POL_SP_PERFORMANCE:
		return SP_MODE_PERFORMANCE;
	default:
		return SP_MODE_OFF;
	}
}

u32 sim_policy_select(struct sim *S, struct sim_task *t, u32 waker, u32 wf)
{
	if (sim_policy_is_sp(S->policy))
		return sp_select(S, t, waker, wf);
	switch (S->policy) {
	case SIM_POL_SPREAD:
		return spread_select(S, t);
	case SIM_POL_PACK:
		return pack_select(S, t, waker, wf);
	case SIM_POL_EAS:
		return eas_select(S, t, waker, wf);
	case SIM_POL_PINNED:
		return pinned_select(S, t);
	default:
		return cfs_select(S, t, waker, wf);
	}
}
