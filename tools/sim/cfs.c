// SPDX-License-Identifier: GPL-2.0
/*
 * cfs.c - the "cfs" policy: Linux 6.1's select_task_rq_fair(), modelled.
 *
 * DOC: the cfs baseline
 *
 * The placement of kernel/sched/fair.c in 6.1 (Debian's 6.1 source), with
 * EAS off (the x86 path; on an asymmetric model the asym-capacity branch of
 * select_idle_sibling() is taken, as 6.1 does when EAS is off or the root
 * domain is overutilised; the "eas" policy is the EAS path):
 *
 * Wake-up (WF_TTWU), from the waker's CPU this_cpu to a task last on
 * prev_cpu.  wake_wide() is false (no story has task-to-task wake-ups, so
 * wakee_flips stay 0), so want_affine holds; at the lowest domain spanning
 * both CPUs, if this_cpu != prev_cpu, wake_affine() picks between them:
 * wake_affine_idle() (this_cpu idle and cache-affine: prev_cpu if idle, else
 * this_cpu; else prev_cpu if idle), then wake_affine_weight() (this_cpu if
 * (load(this) + load(task)) * 100 * cap(prev) < (load(prev) - load(task)) *
 * (100 + (imbalance_pct - 100) / 2) * cap(this)); no sync wake-ups.  Then
 * select_idle_sibling(prev, target): target if idle; prev if idle and in
 * target's LLC; the task's recent_used_cpu if idle and in target's LLC (it
 * becomes prev); on an asymmetric model select_idle_capacity() over
 * sd_asym_cpucapacity (the first idle CPU from target where the task's
 * util_est fits, util * 1.25 < capacity, else the idle CPU of the largest
 * capacity); with SMT, an idle core (has_idle_cores is taken as exact) or
 * an idle sibling of prev; then select_idle_cpu(): the LLC's CPUs from
 * target + 1, wrapping, at most nr_idle_scan of them (SIS_UTIL:
 * nr = llc_weight * (1 - (x / 1024)^2 * 1.17^2), x the mean utilisation of
 * the LLC's CPUs, so none once the LLC is 85 % busy, even with an idle
 * core, whose scan is not limited otherwise; a hint that only a
 * periodic balance of the LLC domain writes, as 6.1's update_idle_cpu_scan()
 * (balance.c), from the idle machine's value at t = 0), the first idle
 * one; else target.  For timer wake-ups, the only
 * kind the stories have, this_cpu is the CPU the task slept on, i.e.
 * prev_cpu, so the choice is prev_cpu or an idle CPU of its LLC: CFS does
 * not move a waking task out of its package; the load balancer does.
 *
 * Fork (WF_FORK), from the parent's CPU: the slow path, find_idlest_cpu()
 * from the highest domain down: find_idlest_group() classifies every
 * sched_group (has_spare, fully_busy, misfit, overloaded from its tasks,
 * utilisation, runnable sum and capacity, imbalance_pct as in 6.1) and
 * keeps the local group unless another is of a lower type, or (both with
 * spare capacity) has more idle CPUs, or (both busy) is lighter by more
 * than the imbalance allowances; NUMA domains allow the small imbalance of
 * adjust_numa_imbalance().  find_idlest_group_cpu() then takes the idle CPU
 * of the shallowest state (ties: the most recently idled), else the least
 * loaded, and the search continues one domain down from there.  The forked
 * task's utilisation is 0 at that point in 6.1.  Exec is not modelled (no
 * story execs).
 *
 * Per-CPU quantities: "idle" is available_idle_cpu(): no task running or
 * queued (an awake CPU that only handles an interrupt counts as idle, the
 * parent counts as running on its CPU during the forks); nr_running counts
 * running and queued tasks; the utilisation is cpu_util_cfs() (hw.c);
 * cpu_load() and the runnable average, which 6.1 keeps as separate PELT
 * sums, are taken as that utilisation plus the util_est of the tasks
 * waiting in the queue (all tasks are nice 0, so load follows runnable
 * time).
 */
#include "sim_int.h"

#define CFS_NONE	(~0u)

bool cfs_cpu_idle(const struct sim *S, u32 cpu)
{
	const struct sim_cpu *c = &S->cpu[cpu];

	if (S->forking && (s32)cpu == S->parent_cpu)
		return false;
	return !c->curr && !c->q_head;
}

u32 cfs_nr_running(const struct sim *S, u32 cpu)
{
	const struct sim_cpu *c = &S->cpu[cpu];

	return !!c->curr + c->nr_queued + (S->forking && (s32)cpu == S->parent_cpu);
}

/* Utilisation plus the util_est of the tasks waiting (runnable, not running). */
u32 cfs_cpu_load(const struct sim *S, u32 cpu)
{
	const struct sim_task *t;
	u32 load = sim_util_cfs(S, cpu);

	for (t = S->cpu[cpu].q_head; t; t = t->rq_next)
		load += t->util_est;
	return load;
}

/* fits_capacity(): util * 1.25 < capacity. */
static bool task_fits(const struct sim *S, const struct sim_task *t, u32 cpu)
{
	return (u64)sim_task_util_est(t) * 1280 < (u64)topo_cpu_cap(S, cpu) * 1024;
}

static bool asym_fits(const struct sim *S, const struct sim_task *t, u32 cpu)
{
	return S->topo.asym < 0 || task_fits(S, t, cpu);
}

/* Index of @cpu in @sp, for for_each_cpu_wrap() from it. */
static u32 span_pos(struct sim_span sp, u32 cpu)
{
	u32 i;

	for (i = 0; i < sp.nr; i++)
		if (sp.cpus[i] >= cpu)
			return i;
	return 0;
}

static bool in_span(struct sim_span sp, u32 cpu)
{
	u32 i;

	for (i = 0; i < sp.nr; i++)
		if (sp.cpus[i] == cpu)
			return true;
	return false;
}

/* ---- the wake-up fast path ---- */

static u32 wake_affine_idle(const struct sim *S, u32 this, u32 prev)
{
	if (cfs_cpu_idle(S, this) && topo_share_llc(S, this, prev))
		return cfs_cpu_idle(S, prev) ? prev : this;
	if (cfs_cpu_idle(S, prev))
		return prev;
	return CFS_NONE;
}

static u32 wake_affine_weight(const struct sim *S, u32 d, const struct sim_task *t,
			      u32 this, u32 prev)
{
	u32 pct = S->topo.dom[d].imbalance_pct;
	s64 this_eff = (s64)cfs_cpu_load(S, this) + t->util;
	s64 prev_eff = (s64)cfs_cpu_load(S, prev) - t->util;

	this_eff *= 100 * (s64)topo_cpu_cap(S, prev);
	prev_eff *= (100 + (pct - 100) / 2) * (s64)topo_cpu_cap(S, this);
	return this_eff < prev_eff ? this : CFS_NONE;
}

static u32 wake_affine(const struct sim *S, u32 d, const struct sim_task *t,
		       u32 this, u32 prev)
{
	u32 target = wake_affine_idle(S, this, prev);

	if (target == CFS_NONE)
		target = wake_affine_weight(S, d, t, this, prev);
	return target == this ? this : prev;
}

static s32 select_idle_capacity(const struct sim *S, const struct sim_task *t,
				u32 target)
{
	struct sim_span sp = topo_span(S, (u32)S->topo.asym, target);
	u32 i, start = span_pos(sp, target), best_cap = 0;
	s32 best = -1;

	for (i = 0; i < sp.nr; i++) {
		u32 cpu = sp.cpus[(start + i) % sp.nr], cap = topo_cpu_cap(S, cpu);

		if (!cfs_cpu_idle(S, cpu))
			continue;
		if (task_fits(S, t, cpu))
			return (s32)cpu;
		if (cap > best_cap) {
			best_cap = cap;
			best = (s32)cpu;
		}
	}
	return best;
}

/* SIS_UTIL's nr_idle_scan for the LLC holding @cpu, as the balancer left it. */
static u32 nr_idle_scan(const struct sim *S, u32 cpu)
{
	return S->llc_scan[topo_span_id(S, (u32)S->topo.llc, cpu)];
}

static bool core_idle(const struct sim *S, u32 cpu)
{
	struct sim_span core = topo_span(S, (u32)S->topo.smt, cpu);
	u32 i;

	for (i = 0; i < core.nr; i++)
		if (!cfs_cpu_idle(S, core.cpus[i]))
			return false;
	return true;
}

static bool llc_has_idle_core(const struct sim *S, u32 target)
{
	struct sim_span sp = topo_span(S, (u32)S->topo.llc, target);
	u32 i;

	for (i = 0; i < sp.nr; i++)
		if (core_idle(S, sp.cpus[i]))
			return true;
	return false;
}

static s32 select_idle_smt(const struct sim *S, u32 prev, u32 target)
{
	struct sim_span core = topo_span(S, (u32)S->topo.smt, prev);
	u32 i;

	for (i = 0; i < core.nr; i++) {
		u32 cpu = core.cpus[i];

		if (cpu != prev && topo_share_llc(S, cpu, target) && cfs_cpu_idle(S, cpu))
			return (s32)cpu;
	}
	return -1;
}

static s32 select_idle_cpu(const struct sim *S, bool idle_core, u32 target)
{
	struct sim_span sp = topo_span(S, (u32)S->topo.llc, target);
	u32 i, start = span_pos(sp, target + 1), nr = nr_idle_scan(S, target) + 1;
	s32 idle_cpu = -1;

	/* SIS_UTIL: an overloaded LLC is not scanned, idle core or not */
	if (nr == 1)
		return -1;
	for (i = 0; i < sp.nr; i++) {
		u32 cpu = sp.cpus[(start + i) % sp.nr];

		if (idle_core) {
			if (core_idle(S, cpu))
				return (s32)cpu;
			if (idle_cpu < 0 && cfs_cpu_idle(S, cpu))
				idle_cpu = (s32)cpu;
			continue;
		}
		if (!--nr)
			return -1;
		if (cfs_cpu_idle(S, cpu))
			return (s32)cpu;
	}
	return idle_cpu;
}

static u32 select_idle_sibling(struct sim *S, struct sim_task *t, u32 prev, u32 target)
{
	s32 recent = t->recent_used, i;
	bool idle_core = false;

	if (cfs_cpu_idle(S, target) && asym_fits(S, t, target))
		return target;
	if (prev != target && topo_share_llc(S, prev, target) &&
	    cfs_cpu_idle(S, prev) && asym_fits(S, t, prev))
		return prev;
	t->recent_used = (s32)prev;
	if (recent >= 0 && (u32)recent != prev && (u32)recent != target &&
	    topo_share_llc(S, (u32)recent, target) && cfs_cpu_idle(S, (u32)recent) &&
	    asym_fits(S, t, (u32)recent))
		return (u32)recent;
	if (S->topo.asym >= 0) {
		i = select_idle_capacity(S, t, target);
		return i >= 0 ? (u32)i : target;
	}
	if (S->topo.llc < 0)
		return target;
	if (S->topo.smt >= 0) {
		idle_core = llc_has_idle_core(S, target);
		if (!idle_core && topo_share_llc(S, prev, target)) {
			i = select_idle_smt(S, prev, target);
			if (i >= 0)
				return (u32)i;
		}
	}
	i = select_idle_cpu(S, idle_core, target);
	return i >= 0 ? (u32)i : target;
}

/* ---- sched_group statistics, shared with the load balancer ---- */

static bool group_has_capacity(u32 pct, const struct sim_sgs *g)
{
	if (g->nr_running < g->weight)
		return true;
	if (g->capacity * pct < g->runnable * 100)
		return false;
	return g->capacity * 100 > g->util * pct;
}

static bool group_is_overloaded(u32 pct, const struct sim_sgs *g)
{
	if (g->nr_running <= g->weight)
		return false;
	return g->capacity * 100 < g->util * pct || g->capacity * pct < g->runnable * 100;
}

u32 cfs_group_classify(u32 pct, const struct sim_sgs *g)
{
	if (group_is_overloaded(pct, g))
		return SIM_GT_OVERLOADED;
	if (g->misfit_load)
		return SIM_GT_MISFIT;
	if (!group_has_capacity(pct, g))
		return SIM_GT_FULLY_BUSY;
	return SIM_GT_HAS_SPARE;
}

/*
 * Statistics of sched_group @member of domain @d, as update_sg_wakeup_stats()
 * (@t is the task placed: misfit means it fits no CPU of the group) or,
 * with @t NULL, update_sg_lb_stats() (misfit: the largest running task that
 * does not fit its CPU, outside the @local group).
 */
void cfs_group_stats(const struct sim *S, u32 d, u32 member,
		     const struct sim_task *t, bool local, struct sim_sgs *g)
{
	struct sim_span sp = topo_member_cpus(S, d, member);
	bool asym = S->topo.dom[d].flags & SIM_SD_ASYM;
	u32 i;

	memset(g, 0, sizeof(*g));
	g->misfit_load = t && asym;
	for (i = 0; i < sp.nr; i++) {
		u32 c = sp.cpus[i], nr = cfs_nr_running(S, c), cap = topo_cpu_cap(S, c);
		u32 load = cfs_cpu_load(S, c);

		g->weight++;
		g->capacity += cap;
		if (cap > g->max_cap)
			g->max_cap = cap;
		if (!g->min_cap || cap < g->min_cap)
			g->min_cap = cap;
		g->util += sim_util_cfs(S, c);
		g->load += load;
		g->runnable += load;
		g->nr_running += nr;
		if (t && asym && task_fits(S, t, c))
			g->misfit_load = 0;
		if (!nr && cfs_cpu_idle(S, c)) {
			g->idle_cpus++;
			continue;
		}
		if (!t && asym && !local && S->cpu[c].curr &&
		    !task_fits(S, S->cpu[c].curr, c) && S->cpu[c].curr->util > g->misfit_load)
			g->misfit_load = S->cpu[c].curr->util;
	}
	g->type = cfs_group_classify(S->topo.dom[d].imbalance_pct, g);
	if (g->type == SIM_GT_OVERLOADED || (t && g->type == SIM_GT_FULLY_BUSY))
		g->avg_load = g->load * SP_CAP_SCALE / g->capacity;
}

/* ---- the fork slow path ---- */

static bool pick_idlest(const struct sim_sgs *idlest, const struct sim_sgs *g)
{
	if (g->type != idlest->type)
		return g->type < idlest->type;
	switch (g->type) {
	case SIM_GT_OVERLOADED:
	case SIM_GT_FULLY_BUSY:
		return g->avg_load < idlest->avg_load;
	case SIM_GT_MISFIT:
		return g->max_cap > idlest->max_cap;
	default:
		if (g->idle_cpus != idlest->idle_cpus)
			return g->idle_cpus > idlest->idle_cpus;
		return g->util < idlest->util;
	}
}

/* adjust_numa_imbalance(): a small imbalance is allowed across nodes. */
u32 cfs_numa_imbalance(u32 imbalance, u32 dst_running, u32 imb_numa_nr)
{
	if (dst_running > imb_numa_nr)
		return imbalance;
	return imbalance <= 2 ? 0 : imbalance;
}

/* Should the task leave the local group for @idlest?  (find_idlest_group) */
static bool leave_local(const struct sim *S, u32 d, const struct sim_sgs *local,
			const struct sim_sgs *idlest)
{
	const struct sim_dom *dm = &S->topo.dom[d];
	u64 imb = SP_CAP_SCALE * (dm->imbalance_pct - 100u) / 100u;

	if (local->type != idlest->type)
		return local->type > idlest->type;
	switch (local->type) {
	case SIM_GT_OVERLOADED:
	case SIM_GT_FULLY_BUSY:
		if ((dm->flags & SIM_SD_NUMA) && idlest->avg_load + imb >= local->avg_load)
			return false;
		if (idlest->avg_load >= local->avg_load + imb)
			return false;
		return 100 * local->avg_load > dm->imbalance_pct * idlest->avg_load;
	case SIM_GT_MISFIT:
		return local->max_cap < idlest->max_cap;
	default:
		if ((dm->flags & SIM_SD_NUMA) &&
		    !cfs_numa_imbalance(local->idle_cpus > idlest->idle_cpus ?
					local->idle_cpus - idlest->idle_cpus :
					idlest->idle_cpus - local->idle_cpus,
					local->nr_running + 1, dm->imb_numa_nr))
			return false;
		return local->idle_cpus < idlest->idle_cpus;
	}
}

/* find_idlest_group(): the idlest group's member, or CFS_NONE to stay. */
static u32 find_idlest_group(const struct sim *S, u32 d, const struct sim_task *t, u32 this)
{
	struct sim_sgs local = { 0 }, best = { 0 }, g;
	u32 n, i, best_mem = CFS_NONE, local_mem = topo_group_id(S, d, this);
	const u16 *mem = topo_groups(S, d, this, &n);

	for (i = 0; i < n; i++) {
		cfs_group_stats(S, d, mem[i], t, false, &g);
		if (mem[i] == local_mem) {
			local = g;
			continue;
		}
		if (best_mem == CFS_NONE || pick_idlest(&best, &g)) {
			best = g;
			best_mem = mem[i];
		}
	}
	if (best_mem == CFS_NONE || !leave_local(S, d, &local, &best))
		return CFS_NONE;
	return best_mem;
}

static u32 cpu_exit_latency(const struct sim *S, u32 cpu, bool *has_state)
{
	const struct sim_cpu *c = &S->cpu[cpu];

	*has_state = c->idle >= 0;
	return *has_state ? sim_cpu_pd(S, cpu)->idle[c->idle].exit_latency_us : 0;
}

/* find_idlest_group_cpu() over sched_group @member of domain @d. */
static u32 find_idlest_group_cpu(const struct sim *S, u32 d, u32 member, u32 this)
{
	struct sim_span sp = topo_member_cpus(S, d, member);
	u32 i, min_exit = ~0u, least = this;
	u64 min_load = ~0ull, latest = 0;
	s32 shallowest = -1;

	if (sp.nr == 1)
		return sp.cpus[0];
	for (i = 0; i < sp.nr; i++) {
		u32 c = sp.cpus[i], lat;
		bool has_state;

		if (cfs_cpu_idle(S, c)) {
			lat = cpu_exit_latency(S, c, &has_state);
			if (has_state && lat < min_exit) {
				min_exit = lat;
				latest = S->cpu[c].idle_ns;
				shallowest = (s32)c;
			} else if ((!has_state || lat == min_exit) &&
				   S->cpu[c].idle_ns > latest) {
				latest = S->cpu[c].idle_ns;
				shallowest = (s32)c;
			}
		} else if (shallowest < 0 && cfs_cpu_load(S, c) < min_load) {
			min_load = cfs_cpu_load(S, c);
			least = c;
		}
	}
	if (shallowest >= 0)
		return (u32)shallowest;
	return least;
}

static u32 find_idlest_cpu(const struct sim *S, const struct sim_task *t, u32 cpu)
{
	s32 d = (s32)S->topo.nr_doms - 1;
	u32 new_cpu = cpu;

	while (d >= 0) {
		u32 first = find_idlest_group(S, (u32)d, t, cpu);

		if (first == CFS_NONE) {
			d--;
			continue;
		}
		new_cpu = find_idlest_group_cpu(S, (u32)d, first, cpu);
		if (new_cpu != cpu)
			cpu = new_cpu;
		d--;
	}
	return new_cpu;
}

/* ---- select_task_rq_fair() ---- */

u32 cfs_select(struct sim *S, struct sim_task *t, u32 waker, u32 wf)
{
	u32 prev = (u32)t->cpu, d, target = prev;

	if (wf & SIM_WF_FORK)
		return find_idlest_cpu(S, t, waker);
	for (d = 0; d < S->topo.nr_doms; d++) {
		if (!in_span(topo_span(S, d, waker), prev))
			continue;
		if (waker != prev)
			target = wake_affine(S, d, t, waker, prev);
		break;
	}
	return select_idle_sibling(S, t, prev, target);
}
