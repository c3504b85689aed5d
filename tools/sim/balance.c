// SPDX-License-Identifier: GPL-2.0
/*
 * balance.c - Linux 6.1's load balancer, modelled (kernel/sched/fair.c).
 *
 * DOC: the load balancer
 *
 * Every policy but "pinned" runs under it, as sched_power runs under CFS's
 * balancer in the kernel: the module only changes where a waking task goes.
 * "eas" and "pack" balance only while some CPU is overutilised (util * 1.25
 * > capacity), as 6.1's find_busiest_group() bails out under EAS when the
 * root domain is not overutilised; their idle CPUs are still kicked.
 *
 * The sp-* policies whose mode acts (sp-power, sp-balanced, sp-power-nofloor)
 * run under sched_power's gate (core/sp_gate.c; the balance_gate knob, on
 * unless sim_opts.balance_gate_off), asked as the module's wrapper around
 * load_balance() asks it: every load_balance(dst, domain) first computes
 * whether the domain's span holds CPUs of more than one group of
 * sp_gate_level(), calls sp_gate_begin(), then sp_gate_cpu() over the
 * span's CPUs, with dst as the CPU that would pull, until one lets the
 * balance through (overutilised, starving, or a task waiting while dst's
 * group is awake).  A gated call moves nothing and ends as a balance that
 * found no imbalance: nr_balance_failed is reset and a periodic balance doubles
 * the domain's interval, as 6.1 does when find_busiest_group() returns
 * NULL (the module's wrapper is not written yet: if its gated call leaves
 * sd->balance_interval and nr_balance_failed alone, so must this one);
 * continue_balancing is left as it was.  A nohz kick is asked
 * sp_gate_kick() as the module's wrapper around trigger_load_balance()
 * asks it (the kick_gate knob, on unless sim_opts.kick_gate_off; both
 * knobs must be on): a kick whose predicted target, the first CPU the
 * snapshot sees idle, sits in another, sleeping group of the gate level,
 * with no CPU that would let a balance pulled by it through, is not sent
 * (the tick's own periodic balance runs as before).  The gate reads the placement's snapshot (S->st):
 * the utilisation the idle accounting keeps, what the placements noted
 * (sp_state_note_task(), policy.c, as select_hook.c notes it) and
 * nr_running from the run queues (rq.c).
 *
 * When a CPU balances:
 *
 *  - newidle: a CPU about to go idle (newidle_balance()), at every domain
 *    from the lowest up until it pulled a task, if some CPU has more than
 *    one task or a misfit task (rd->overload); at most one task is pulled
 *    (a PREEMPTION kernel); it also takes over the blocked-load refresh
 *    when that is due, so no idle CPU need be woken for it.  6.1.192's
 *    NI_RANDOM sched feature (on by default; sim_opts.ni_random_off turns
 *    it off) balances each domain only with probability (1 + ratio) /
 *    1024, a 1024-sided die thrown from a seeded generator (SIM_RNG_SEED,
 *    or sim_opts.rng_seed): the ratio is the domain's successes per 1024
 *    newly-idle calls, skips counted as failed calls and a success
 *    weighted by 1024 / (1 + ratio), and starts at 512 as for a domain
 *    just built; an active balance counts as no success (load_balance()
 *    returns no moved task for it).  The
 *    kernel's other gate, avg_idle against the domain's largest newly-idle
 *    cost, is left out: on hardware that cost is microseconds;
 *  - periodic: on the tick of an awake CPU, for each domain whose interval
 *    has passed (balance_interval, from span weight ms up to twice that,
 *    times busy_factor 16 less one jiffy for a busy CPU, in whole 4 ms
 *    jiffies);
 *  - nohz: idle CPUs in the deepest state have no tick.  A busy CPU's
 *    tick kicks the first such CPU (an IPI: it wakes, with the exit
 *    latency and wake-up energy of its state and any package it wakes)
 *    when nohz.next_balance has passed and the kicking CPU runs two tasks
 *    or more, has a misfit task while smaller than the largest CPU
 *    (check_misfit_status()), or, on a symmetric machine, shares its LLC
 *    with another busy CPU (nohz_balancer_kick()); also, without
 *    balancing, every 32 ms while an idle CPU still has blocked
 *    utilisation.  The kicked CPU balances on
 *    behalf of every tickless idle CPU whose own interval has passed,
 *    itself last, stopping if it pulled a task for itself; a task pulled
 *    for another idle CPU wakes that CPU;
 *  - an idle CPU in a shallower state keeps its tick and balances at it.
 *
 * load_balance(dst, domain): should_we_balance() (newidle: always; else
 * only the first idle CPU of dst's sched_group, or its first CPU if none
 * is idle), then find_busiest_group() with 6.1's statistics, group types
 * and decision matrix (sched_group types has_spare < fully_busy < misfit <
 * overloaded; the busiest by type, then avg_load, idle CPUs, tasks; on an
 * asymmetric domain a has_spare or fully_busy group is never busiest for
 * a CPU smaller than all of its CPUs, nor a misfit group for a CPU not
 * larger than its largest or while the local group lacks spare capacity;
 * misfit: the running task's util_est does not fit its CPU; the
 * local group pulls when the busiest is overloaded, when the child domain
 * prefers siblings and the busiest runs more than one task more, or when
 * it has at least two idle CPUs more and a task waiting), and
 * calculate_imbalance() for migrate_task / util / load / misfit.
 * find_busiest_queue() picks the CPU by that type; detach_tasks() moves
 * waiting tasks (not the running one) that are not cache-hot (ran within
 * 0.5 ms, unless the domain failed more than cache_nice_tries times) until
 * the imbalance is met (for misfit: one waiting task that does not fit the
 * source CPU).  If nothing could move, the domain's failure count
 * rises (not for newidle) and once it exceeds cache_nice_tries + 2 (or for
 * a misfit task) the running task itself is moved (active balance, done at
 * once rather than by the stopper thread).  Simplifications: load is taken
 * as utilisation (all tasks nice 0); no affinity, so no pinned-task
 * handling and no group_imbalanced; no asym packing; no NUMA balancing
 * (fbq); capacity is never reduced by RT or IRQ pressure.
 */
#include "sim_int.h"
#include "sp_gate.h"
#include "xorshift.h"

enum lb_idle { LB_NOT_IDLE, LB_IDLE, LB_NEWLY_IDLE };
enum lb_type { MIG_LOAD, MIG_UTIL, MIG_TASK, MIG_MISFIT };

#define NOHZ_STATS	0x1u
#define NOHZ_BALANCE	0x2u

struct lb_env {
	u32 dst, d, idle, type;
	s64 imbalance;
	u32 busiest_mem;
	struct sim_sgs local, busiest;
	u64 total_load, total_cap;
	bool have_busiest;
};

static bool cpu_overutilised(const struct sim *S, u32 cpu)
{
	return (u64)sim_util_cfs(S, cpu) * 1280 > (u64)topo_cpu_cap(S, cpu) * 1024;
}

/* rd->overutilized, looked at once per timestamp. */
static bool lb_allowed(struct sim *S)
{
	u32 c;

	if (S->policy != SIM_POL_EAS && S->policy != SIM_POL_PACK)
		return true;
	if (S->ou_ns == S->now + 1)
		return S->ou;
	S->ou = false;
	for (c = 0; c < S->m->nr_cpus && !S->ou; c++)
		S->ou = cpu_overutilised(S, c);
	S->ou_ns = S->now + 1;
	return S->ou;
}

/* !task_fits_cpu(): @t's util_est does not fit @cpu (util * 1.25 >= capacity). */
static bool task_misfits(const struct sim *S, const struct sim_task *t, u32 cpu)
{
	return (u64)sim_task_util_est(t) * 1280 >= (u64)topo_cpu_cap(S, cpu) * 1024;
}

/* rq->misfit_task_load != 0: the running task does not fit its CPU. */
static bool misfit_on(const struct sim *S, u32 cpu)
{
	const struct sim_task *t = S->cpu[cpu].curr;

	return S->topo.asym >= 0 && t && task_misfits(S, t, cpu);
}

/*
 * check_misfit_status(): a misfit task on a CPU below the root domain's
 * largest capacity, the only kind a nohz kick is for.
 */
static bool misfit_can_grow(const struct sim *S, u32 cpu)
{
	return topo_cpu_cap(S, cpu) < S->topo.max_cap && misfit_on(S, cpu);
}

/* rd->overload: some CPU runs more than one task or a misfit one. */
static bool overloaded(const struct sim *S)
{
	u32 c;

	if (S->nr_queued)	/* a task waits only behind another */
		return true;
	for (c = 0; S->topo.asym >= 0 && c < S->m->nr_cpus; c++)
		if (misfit_on(S, c))
			return true;
	return false;
}

/* A CPU in the deepest state has stopped its tick: nohz.idle_cpus_mask. */
static bool nohz_idle(const struct sim *S, u32 cpu)
{
	const struct sim_cpu *c = &S->cpu[cpu];

	return c->idle >= 0 && (u32)c->idle + 1 >= sim_cpu_pd(S, cpu)->nr_idle;
}

static u32 span_weight(const struct sim *S, u32 d, u32 cpu)
{
	return topo_span(S, d, cpu).nr;
}

/*
 * get_sd_balance_interval(), in ns of whole jiffies: a busy CPU's interval
 * is one jiffy short of busy_factor times the domain's, so that the
 * domains' periods are not multiples of each other.
 */
static u64 balance_interval_ns(const struct sim *S, u32 cpu, u32 d, bool busy)
{
	u64 ms = S->cpu[cpu].balance_ms[d], jif;
	u64 max = 250ull * S->m->nr_cpus / 10;

	if (!ms)
		ms = span_weight(S, d, cpu);
	if (busy)
		ms *= SIM_BUSY_FACTOR;
	jif = (ms + 3) / 4;
	if (busy && jif)
		jif--;
	if (jif < 1)
		jif = 1;
	if (jif > max && max >= 1)
		jif = max;
	return jif * SIM_TICK_NS;
}

static bool should_we_balance(const struct sim *S, const struct lb_env *env)
{
	struct sim_span sp = topo_member_cpus(S, env->d, topo_group_id(S, env->d, env->dst));
	u32 i;

	if (env->idle == LB_NEWLY_IDLE)
		return !cfs_nr_running(S, env->dst);
	for (i = 0; i < sp.nr; i++)
		if (cfs_cpu_idle(S, sp.cpus[i]))
			return sp.cpus[i] == env->dst;
	return sp.cpus[0] == env->dst;
}

/* capacity_greater(): a is more than ~5 % above b. */
static bool cap_greater(u64 a, u64 b)
{
	return a * 1024 > b * 1078;
}

static bool pick_busiest(const struct sim *S, const struct lb_env *env,
			 const struct sim_sgs *g)
{
	const struct sim_sgs *b = &env->busiest;
	bool asym = S->topo.dom[env->d].flags & SIM_SD_ASYM;

	if (!g->nr_running)
		return false;
	if (asym && g->type == SIM_GT_MISFIT &&
	    (!cap_greater(topo_cpu_cap(S, env->dst), g->max_cap) ||
	     env->local.type != SIM_GT_HAS_SPARE))
		return false;
	if (asym && g->type <= SIM_GT_FULLY_BUSY &&
	    cap_greater(g->min_cap, topo_cpu_cap(S, env->dst)))
		return false;	/* no pulling down to a smaller CPU */
	if (!env->have_busiest || g->type != b->type)
		return !env->have_busiest || g->type > b->type;
	switch (g->type) {
	case SIM_GT_OVERLOADED:
	case SIM_GT_FULLY_BUSY:
		return g->avg_load > b->avg_load;
	case SIM_GT_MISFIT:
		return g->misfit_load >= b->misfit_load;
	default:
		if (g->idle_cpus != b->idle_cpus)
			return g->idle_cpus < b->idle_cpus;
		return g->nr_running > b->nr_running;
	}
}

/*
 * update_idle_cpu_scan(): SIS_UTIL's hint for the LLC holding @cpu from
 * @sum_util, the summed cpu_util_cfs() of its CPUs: nr = weight * (1 -
 * (x / 1024)^2 * (pct / 100)^2), x the mean utilisation, so none once the
 * LLC is 85 % busy.
 */
static void update_idle_cpu_scan(struct sim *S, u32 cpu, u64 sum_util)
{
	u64 nr = topo_span(S, (u32)S->topo.llc, cpu).nr, x = sum_util / nr, tmp;
	u64 pct = S->topo.dom[S->topo.llc].imbalance_pct;

	tmp = x * x * pct * pct / (10000 * SP_CAP_SCALE);
	if (tmp > SP_CAP_SCALE)
		tmp = SP_CAP_SCALE;
	S->llc_scan[topo_span_id(S, (u32)S->topo.llc, cpu)] =
		(u16)((SP_CAP_SCALE - tmp) * nr / SP_CAP_SCALE);
}

/* The hint recomputed from @cpu's LLC as it is now (tests, start of a run). */
void lb_idle_scan_refresh(struct sim *S, u32 cpu)
{
	struct sim_span sp;
	u64 sum = 0;
	u32 i;

	if (S->topo.llc < 0)
		return;
	sp = topo_span(S, (u32)S->topo.llc, cpu);
	for (i = 0; i < sp.nr; i++)
		sum += sim_util_cfs(S, sp.cpus[i]);
	update_idle_cpu_scan(S, cpu, sum);
}

/*
 * Every LLC's hint as for an idle machine: the story starts on one; every
 * domain's newidle statistics as sd_init() sets them (a 50 % success rate).
 */
void lb_init(struct sim *S)
{
	u32 c, d;

	for (c = 0; c < S->m->nr_cpus; c++) {
		lb_idle_scan_refresh(S, c);
		for (d = 0; d < SIM_MAX_DOMS; d++) {
			S->cpu[c].ni_call[d] = 512;
			S->cpu[c].ni_success[d] = 256;
			S->cpu[c].ni_ratio[d] = 512;
		}
	}
}

static void update_sd_lb_stats(struct sim *S, struct lb_env *env)
{
	u32 n, i, local_mem = topo_group_id(S, env->d, env->dst);
	const u16 *mem = topo_groups(S, env->d, env->dst, &n);
	u64 sum_util;
	struct sim_sgs g;

	cfs_group_stats(S, env->d, local_mem, NULL, true, &env->local);
	env->total_load += env->local.load;
	env->total_cap += env->local.capacity;
	sum_util = env->local.util;
	for (i = 0; i < n; i++) {
		if (mem[i] == local_mem)
			continue;
		cfs_group_stats(S, env->d, mem[i], NULL, false, &g);
		env->total_load += g.load;
		env->total_cap += g.capacity;
		sum_util += g.util;
		if (pick_busiest(S, env, &g)) {
			env->busiest = g;
			env->busiest_mem = mem[i];
			env->have_busiest = true;
		}
	}
	/* only a periodic balance of the LLC domain writes the hint */
	if (env->d == (u32)S->topo.llc && env->idle != LB_NEWLY_IDLE)
		update_idle_cpu_scan(S, env->dst, sum_util);
}

static bool prefer_sibling(const struct sim *S, u32 d)
{
	return d && (S->topo.dom[d - 1].flags & SIM_SD_PREFER_SIBLING);
}

static void imbalance_has_spare(const struct sim *S, struct lb_env *env)
{
	const struct sim_dom *dm = &S->topo.dom[env->d];
	struct sim_sgs *l = &env->local, *b = &env->busiest;

	if (b->type > SIM_GT_FULLY_BUSY && !(dm->flags & SIM_SD_LLC)) {
		env->type = MIG_UTIL;
		env->imbalance = (s64)(l->capacity > l->util ? l->capacity : l->util) -
				 (s64)l->util;
		if (env->idle != LB_NOT_IDLE && !env->imbalance) {
			env->type = MIG_TASK;
			env->imbalance = 1;
		}
		return;
	}
	env->type = MIG_TASK;
	if (b->weight == 1 || prefer_sibling(S, env->d))
		env->imbalance = b->nr_running > l->nr_running ?
				 b->nr_running - l->nr_running : 0;
	else
		env->imbalance = l->idle_cpus > b->idle_cpus ?
				 l->idle_cpus - b->idle_cpus : 0;
	if (dm->flags & SIM_SD_NUMA)
		env->imbalance = cfs_numa_imbalance((u32)env->imbalance,
						    l->nr_running + 1, dm->imb_numa_nr);
	env->imbalance >>= 1;
}

static void calculate_imbalance(const struct sim *S, struct lb_env *env)
{
	struct sim_sgs *l = &env->local, *b = &env->busiest;
	u64 avg;

	if (b->type == SIM_GT_MISFIT) {
		env->type = MIG_MISFIT;
		env->imbalance = 1;
		return;
	}
	if (l->type == SIM_GT_HAS_SPARE) {
		imbalance_has_spare(S, env);
		return;
	}
	avg = env->total_load * SP_CAP_SCALE / env->total_cap;
	if (l->type < SIM_GT_OVERLOADED) {
		l->avg_load = l->load * SP_CAP_SCALE / l->capacity;
		if (l->avg_load >= b->avg_load || l->avg_load >= avg) {
			env->imbalance = 0;
			return;
		}
	}
	env->type = MIG_LOAD;
	if (b->avg_load <= avg || avg <= l->avg_load) {
		env->imbalance = 0;
		return;
	}
	env->imbalance = (s64)((b->avg_load - avg) * b->capacity <
			       (avg - l->avg_load) * l->capacity ?
			       (b->avg_load - avg) * b->capacity :
			       (avg - l->avg_load) * l->capacity) / SP_CAP_SCALE;
}

/* find_busiest_group(): is there an imbalance worth pulling? */
static bool find_busiest_group(struct sim *S, struct lb_env *env)
{
	struct sim_sgs *l = &env->local, *b = &env->busiest;
	u32 pct = S->topo.dom[env->d].imbalance_pct;

	update_sd_lb_stats(S, env);
	if (!env->have_busiest)
		return false;
	if (b->type != SIM_GT_MISFIT) {
		if (l->type > b->type)
			return false;
		if (l->type == SIM_GT_OVERLOADED) {
			u64 avg = env->total_load * SP_CAP_SCALE / env->total_cap;

			if (l->avg_load >= b->avg_load || l->avg_load >= avg ||
			    100 * b->avg_load <= pct * l->avg_load)
				return false;
		}
		if (!(prefer_sibling(S, env->d) && l->type == SIM_GT_HAS_SPARE &&
		      b->nr_running > l->nr_running + 1) &&
		    b->type != SIM_GT_OVERLOADED) {
			if (env->idle == LB_NOT_IDLE)
				return false;
			if (b->weight > 1 && l->idle_cpus <= b->idle_cpus + 1)
				return false;
			if (b->nr_running == 1)
				return false;
		}
	}
	calculate_imbalance(S, env);
	return env->imbalance > 0;
}

static s32 find_busiest_queue(const struct sim *S, const struct lb_env *env)
{
	struct sim_span sp = topo_member_cpus(S, env->d, env->busiest_mem);
	bool asym = S->topo.dom[env->d].flags & SIM_SD_ASYM;
	u64 best_load = 0, best_cap = 1, best_util = 0;
	u32 i, best_nr = 0, dst_cap = topo_cpu_cap(S, env->dst);
	s32 best = -1;

	for (i = 0; i < sp.nr; i++) {
		u32 c = sp.cpus[i], nr = cfs_nr_running(S, c), cap = topo_cpu_cap(S, c);
		u64 load = cfs_cpu_load(S, c), util = sim_util_cfs(S, c);

		if (env->type == MIG_MISFIT) {
			if (misfit_on(S, c) && S->cpu[c].curr->util > best_load) {
				best_load = S->cpu[c].curr->util;
				best = (s32)c;
			}
			continue;
		}
		if (asym && !cap_greater(dst_cap, cap) && nr == 1)
			continue;
		switch (env->type) {
		case MIG_LOAD:
			if (nr == 1 && (s64)load > env->imbalance)
				continue;
			if (load * best_cap > best_load * cap) {
				best_load = load;
				best_cap = cap;
				best = (s32)c;
			}
			break;
		case MIG_UTIL:
			if (nr <= 1)
				continue;
			if (util > best_util) {
				best_util = util;
				best = (s32)c;
			}
			break;
		default:
			if (nr > best_nr) {
				best_nr = nr;
				best = (s32)c;
			}
		}
	}
	return best;
}

/* task_hot(): ran within the migration cost, and the domain has not failed long. */
static bool task_hot(const struct sim *S, const struct lb_env *env,
		     const struct sim_task *t)
{
	if (S->topo.dom[env->d].flags & SIM_SD_SMT)
		return false;
	if (S->cpu[env->dst].nr_balance_failed[env->d] > S->topo.dom[env->d].cache_nice_tries)
		return false;
	return S->now - t->last_ran_ns < SIM_MIGRATION_COST_NS;
}

static int move_task(struct sim *S, struct sim_task *t, u32 src, u32 dst)
{
	rq_dequeue(S, src, t);
	S->r->lb_pulled++;
	return rq_enqueue(S, dst, t);
}

/* detach_tasks() + attach_tasks(): returns how many moved, or -1. */
static int detach_tasks(struct sim *S, struct lb_env *env, u32 src)
{
	struct sim_task *t = S->cpu[src].q_head, *next;
	int moved = 0;

	if (cfs_nr_running(S, src) <= 1)
		return 0;
	for (; t && env->imbalance > 0; t = next) {
		u32 load = t->util, util = sim_task_util_est(t);
		u32 failed = S->cpu[env->dst].nr_balance_failed[env->d];

		next = t->rq_next;
		if (task_hot(S, env, t))
			continue;
		switch (env->type) {
		case MIG_LOAD:
			if ((failed < 32 ? load >> failed : 0) > env->imbalance)
				continue;
			env->imbalance -= load;
			break;
		case MIG_UTIL:
			if (util > env->imbalance)
				continue;
			env->imbalance -= util;
			break;
		case MIG_MISFIT:
			if (!task_misfits(S, t, src))
				continue;
			env->imbalance = 0;
			break;
		default:
			env->imbalance--;
		}
		if (move_task(S, t, src, env->dst))
			return -1;
		moved++;
		if (env->idle == LB_NEWLY_IDLE || cfs_nr_running(S, src) <= 1)
			break;
	}
	return moved;
}

/* Active balance: the running task of @src moves to @dst at once. */
static int active_balance(struct sim *S, u32 src, u32 dst)
{
	struct sim_cpu *c = &S->cpu[src];
	struct sim_task *t = c->curr;

	if (!t || S->now < c->run_start)
		return 0;
	rq_progress(S, src);
	c->curr = NULL;
	c->done_gen++;
	t->last_ran_ns = S->now;
	S->r->lb_pulled++;
	S->r->lb_active++;
	if (rq_enqueue(S, dst, t) || rq_cpu_next(S, src))
		return -1;
	return 1;
}

static bool need_active_balance(const struct sim *S, const struct lb_env *env)
{
	const struct sim_dom *dm = &S->topo.dom[env->d];

	if (env->type == MIG_MISFIT)
		return true;
	return env->type == MIG_TASK &&
	       S->cpu[env->dst].nr_balance_failed[env->d] > dm->cache_nice_tries + 2u;
}

/* Does @sp hold CPUs of more than one group of model level @level? */
static bool span_crosses(const struct sim *S, struct sim_span sp, u32 level)
{
	u32 i, g;

	if (level >= S->m->nr_levels || !sp.nr)
		return false;
	g = S->m->cpu_group[level][sp.cpus[0]];
	for (i = 1; i < sp.nr; i++)
		if (S->m->cpu_group[level][sp.cpus[i]] != g)
			return true;
	return false;
}

/*
 * sched_power's gate (core/sp_gate.c) on load_balance(@dst, @d), asked as
 * the module's wrapper around load_balance() asks it.  False: the call
 * moves nothing.
 */
static bool lb_gate(struct sim *S, u32 dst, u32 d)
{
	const struct sp_gate_in in = {
		.mode = S->sp_pol.mode,
		.enabled = S->balance_gate,
		.overutil_pct = S->sp_pol.overutil_pct,
		.now_ns = S->now,
		.dst_cpu = dst,
	};
	struct sim_span sp = topo_span(S, d, dst);
	u32 i, reason;

	reason = sp_gate_begin(S->m, &in, span_crosses(S, sp, sp_gate_level(S->m)));
	for (i = 0; reason == SP_GATE_GATED && i < sp.nr; i++)
		reason = sp_gate_cpu(S->m, S->st, sp.cpus[i], &in);
	if (reason == SP_GATE_GATED)
		S->r->lb_gated++;
	else if (reason == SP_GATE_OVERUTIL || reason == SP_GATE_STARVING ||
		 reason == SP_GATE_WAITING)
		S->r->lb_gate_passed++;
	return sp_gate_passes(reason);
}

/* load_balance(): returns tasks moved, 0, or -1; clears *cont to stop. */
static int load_balance(struct sim *S, u32 dst, u32 d, u32 idle, bool *cont)
{
	struct lb_env env = { .dst = dst, .d = d, .idle = idle };
	struct sim_cpu *c = &S->cpu[dst];
	u32 weight = span_weight(S, d, dst);
	int moved = 0;
	s32 src;

	if (!lb_gate(S, dst, d))
		goto balanced;	/* as find_busiest_group() finding nothing */
	if (!should_we_balance(S, &env)) {
		*cont = false;
		goto balanced;
	}
	if (!find_busiest_group(S, &env))
		goto balanced;
	src = find_busiest_queue(S, &env);
	if (src < 0 || (u32)src == dst)
		goto balanced;
	moved = detach_tasks(S, &env, (u32)src);
	if (moved < 0)
		return -1;
	if (!moved) {
		if (idle != LB_NEWLY_IDLE)
			c->nr_balance_failed[d]++;
		if (need_active_balance(S, &env)) {
			moved = active_balance(S, (u32)src, dst);
			if (moved < 0)
				return -1;
		}
	}
	if (moved)
		c->nr_balance_failed[d] = 0;
	c->balance_ms[d] = weight;
	return moved;
balanced:
	c->nr_balance_failed[d] = 0;
	if (idle != LB_NEWLY_IDLE && c->balance_ms[d] < 2 * weight)
		c->balance_ms[d] = c->balance_ms[d] ? 2 * c->balance_ms[d] : 2 * weight;
	return 0;
}

/* rebalance_domains() for @cpu. */
static int rebalance_domains(struct sim *S, u32 cpu, u32 idle)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 next = S->now + 60000000000ull;
	bool cont = true;
	u32 d;

	for (d = 0; d < S->topo.nr_doms && cont; d++) {
		u64 iv = balance_interval_ns(S, cpu, d, idle != LB_IDLE);

		if (S->now >= c->last_balance_ns[d] + iv) {
			int rc = lb_allowed(S) ? load_balance(S, cpu, d, idle, &cont) : 0;

			if (rc < 0)
				return -1;
			if (rc)
				idle = cfs_cpu_idle(S, cpu) ? LB_IDLE : LB_NOT_IDLE;
			c->last_balance_ns[d] = S->now;
			iv = balance_interval_ns(S, cpu, d, idle != LB_IDLE);
		}
		if (c->last_balance_ns[d] + iv < next)
			next = c->last_balance_ns[d] + iv;
	}
	c->next_balance_ns = next;
	return 0;
}

/* sched_rng(): xorshift64* from a fixed seed, so that every run is the same. */
static u32 sim_rng(struct sim *S)
{
	return xorshift_u32(&S->rng);
}

/* update_newidle_stats(): the ratio is the success count per 1024 calls. */
static void ni_stats(struct sim_cpu *c, u32 d, u32 success)
{
	c->ni_call[d]++;
	c->ni_success[d] += success;
	if (c->ni_call[d] >= 1024) {
		c->ni_ratio[d] = c->ni_success[d];
		c->ni_call[d] /= 2;
		c->ni_success[d] /= 2;
	}
}

int lb_newidle(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	bool cont = true;
	u32 d;

	if (S->now >= S->nohz_next_blocked_ns)	/* this CPU refreshes blocked load */
		S->nohz_next_blocked_ns = S->now + SIM_LOAD_AVG_PERIOD_NS;
	if (!lb_allowed(S) || !overloaded(S))
		return 0;
	for (d = 0; d < S->topo.nr_doms && cont; d++) {
		u64 active = S->r->lb_active;
		u32 weight = 1 + c->ni_ratio[d];
		int rc;

		if (S->ni_random && sim_rng(S) % 1024 > weight) {
			ni_stats(c, d, 0);
			continue;
		}
		weight = (1024 + weight / 2) / weight;
		rc = load_balance(S, cpu, d, LB_NEWLY_IDLE, &cont);
		if (rc < 0)
			return -1;
		/* an active balance moves nothing in load_balance()'s count */
		if (S->ni_random)
			ni_stats(c, d, rc && S->r->lb_active == active ? weight : 0);
		if (rc || cfs_nr_running(S, cpu))
			break;
	}
	return 0;
}

static bool has_blocked(const struct sim *S)
{
	u32 c;

	for (c = 0; c < S->m->nr_cpus; c++)
		if (nohz_idle(S, c) && sim_cpu_util(S, c))
			return true;
	return false;
}

static u32 llc_busy(const struct sim *S, u32 cpu)
{
	struct sim_span sp;
	u32 i, n = 0;

	if (S->topo.llc < 0)
		return 1;
	sp = topo_span(S, (u32)S->topo.llc, cpu);
	for (i = 0; i < sp.nr; i++)
		n += !nohz_idle(S, sp.cpus[i]);
	return n;
}

static int kick_ilb(struct sim *S, u32 cpu, u32 flags)
{
	u32 c;

	if (flags & NOHZ_BALANCE)
		S->nohz_next_balance_ns = S->now + SIM_TICK_NS;
	for (c = 0; c < S->m->nr_cpus; c++) {
		if (c == cpu || !nohz_idle(S, c))
			continue;
		S->r->ilb_kicks++;
		return hw_irq_raise(S, c, IRQ_ILB, flags);
	}
	return 0;
}

/* sched_power's kick gate on a kick from @cpu's tick.  False: not sent. */
static bool kick_gate(struct sim *S, u32 cpu)
{
	struct sp_gate_in in = {
		.mode = S->sp_pol.mode,
		.enabled = S->balance_gate && S->kick_gate,
		.overutil_pct = S->sp_pol.overutil_pct,
		.now_ns = S->now,
		.dst_cpu = SP_NONE,
	};
	u32 target;

	if (sp_gate_kick_passes(sp_gate_kick(S->m, S->st, cpu, &in, &target)))
		return true;
	S->r->kick_gated++;
	return false;
}

/* nohz_balancer_kick() on the tick of busy @cpu. */
static int nohz_kick(struct sim *S, u32 cpu)
{
	u32 flags = 0;

	if (!S->nr_nohz)
		return 0;
	if (S->now > S->nohz_next_blocked_ns && has_blocked(S))
		flags = NOHZ_STATS;
	if (S->now >= S->nohz_next_balance_ns &&
	    (cfs_nr_running(S, cpu) >= 2 || misfit_can_grow(S, cpu) ||
	     (S->topo.asym < 0 && llc_busy(S, cpu) > 1)))
		flags |= NOHZ_STATS | NOHZ_BALANCE;
	return flags && kick_gate(S, cpu) ? kick_ilb(S, cpu, flags) : 0;
}

int lb_tick(struct sim *S, u32 cpu)
{
	if (S->now >= S->cpu[cpu].next_balance_ns &&
	    rebalance_domains(S, cpu, cfs_cpu_idle(S, cpu) ? LB_IDLE : LB_NOT_IDLE))
		return -1;
	return nohz_kick(S, cpu);
}

/* _nohz_idle_balance() on the kicked CPU @ilb, for every tickless idle CPU. */
static int nohz_idle_balance(struct sim *S, u32 ilb, u32 flags)
{
	u64 next = S->now + 60000000000ull;
	u32 i, n = S->m->nr_cpus;

	for (i = 1; i <= n; i++) {
		u32 c = (ilb + i) % n;

		if (c != ilb && !nohz_idle(S, c))
			continue;
		if (!cfs_cpu_idle(S, ilb))
			break;		/* it pulled work for itself */
		if ((flags & NOHZ_BALANCE) && S->now >= S->cpu[c].next_balance_ns &&
		    rebalance_domains(S, c, LB_IDLE))
			return -1;
		if (S->cpu[c].next_balance_ns < next)
			next = S->cpu[c].next_balance_ns;
	}
	if (flags & NOHZ_BALANCE)
		S->nohz_next_balance_ns = next > S->now ? next : S->now + SIM_TICK_NS;
	if (flags & NOHZ_STATS)
		S->nohz_next_blocked_ns = S->now + SIM_LOAD_AVG_PERIOD_NS;
	return 0;
}

int lb_idle_irq(struct sim *S, u32 cpu, u32 irq, u32 flags)
{
	if (irq == IRQ_ILB)
		return nohz_idle_balance(S, cpu, flags);
	if (S->now >= S->cpu[cpu].next_balance_ns)
		return rebalance_domains(S, cpu, LB_IDLE);
	return 0;
}
