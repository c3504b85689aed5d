// SPDX-License-Identifier: GPL-2.0
/*
 * bound.c - an offline lower bound on the energy of a story on a model.
 *
 * DOC: the lower bound
 *
 * Whatever a policy does, the engine charges (hw.c, energy accounting) every
 * CPU its idle-state power while idle or exiting and its OPP power while
 * awake, every group idle_uw while idle or powering up and active_uw
 * otherwise, and one wakeup_uj per exit, over [0, makespan].  The bound is
 * a sum of terms, each a floor under a disjoint part of that charge, so it
 * is below every schedule the engine can produce, the oracle's included.
 * Notation: P_deep(c) the deepest idle state's power of CPU c, P_min(c)
 * the least power CPU c draws in any state, the smaller of P_deep(c) and
 * its lowest OPP's power (the model orders the idle states and the OPPs
 * each, not the one against the other), dP_g = active_uw - idle_uw of
 * group g (>= 0), N the number of task instances.
 *
 * 1. Makespan.  T_lb = the latest finish of any task instance run alone at
 *    the highest capacity with no latency and no waiting (a simulated
 *    instance never gets ahead of that: runs take at least N * 1024 /
 *    cap_max us, sleeps are the same, timers can only expire later), and
 *    at least B / nr_cpus, B the least total busy time.  Every makespan is
 *    >= T_lb.
 *
 * 2. Floor.  At every instant a CPU draws at least P_min(c) (shallower
 *    states and exiting are not below P_deep(c), no OPP below the lowest)
 *    and a group at least idle_uw: sum P_min * T_lb + sum idle_uw * T_lb.
 *
 * 3. Busy time, CPU and groups priced together.  A group g of n_g CPUs is
 *    active (not idle and not powering up) whenever one of its CPUs runs a
 *    task, and at most min(n_g, N) of its CPUs run tasks at once, so its
 *    active time A_g >= B_g / s_g with B_g its CPUs' task time and s_g =
 *    min(n_g, N).  Hence the energy above the floor is at least, summed
 *    over all task time, P_k - P_min(c) + sum over c's groups of
 *    dP_g / s_g per unit of time on CPU c at OPP k.  "run" work w (us at
 *    capacity 1024) takes w * 1024 / cap_k there, so the cheapest price per
 *    unit of work is
 *
 *	e_min = min over (c, k) of (P_k - P_min(c) + sum_g dP_g / s_g) * 1024 / cap_k
 *
 *    and "runtime" work (wall clock) costs at least the minimum of the same
 *    bracket.  Both are floors whatever OPPs and CPUs the schedule used.
 *
 * 4. The first wake-up.  At t = 0 every CPU is in its deepest state and
 *    every group idle, so the first CPU to leave its deepest state pays its
 *    wakeup_uj and all its groups theirs: min over c of that sum.
 *
 * 5. Forced idle gaps.  In any schedule an event of a task instance
 *    happens no earlier than on its earliest timeline (alone at cap_max,
 *    no latency) and no later than on a late timeline that gives every
 *    segment its slowest execution (at the lowest capacity of the model),
 *    plus all the other instances' slowest busy time (a task only waits
 *    behind a running task), plus one worst CPU wake-up latency X (a state's
 *    exit and every group exit above it) for each time it may wait behind
 *    an exit or be moved onto an idle CPU (once per wake-up and per 1 ms of
 *    its execution, the shortest slice before a preemption), plus 2 X per
 *    wake-up (the timer CPU's and the target's exits).  So each instance
 *    is certainly blocked from the late time it blocks to the earliest time
 *    it wakes, and where every instance is certainly blocked the system is
 *    idle in every schedule: a forced gap [a, b), ended by some wake-up.
 *    With a single instance the system is idle whenever it is blocked, and
 *    what matters is only how long: measured from the same (unknown) timer
 *    arming, each block lasts at least its length on the late timeline, so
 *    those lengths are the gaps.  (With several instances their positions
 *    matter, and the arming times, each known only within a window, widen
 *    the uncertainty.)
 *    The first task segment after the gap starts on some CPU c; either c
 *    was in its deepest state (idle, not exiting) at some moment of the
 *    gap, and left it before that segment, paying its wakeup_uj, or it was
 *    in shallower states, awake or exiting one for the whole gap but the
 *    first X (an exit lasts at most X), drawing at least P_nd(c) - P_min(c)
 *    above the floor, P_nd the least non-deepest power (shallower states,
 *    OPPs).  Likewise each group above c was idle at some moment (and pays
 *    its wakeup_uj before c runs) or active for the gap but X.  So a gap
 *    of length L costs at least
 *
 *	min over c of [ min(wk(c), (P_nd - P_deep) (L - X)) +
 *			sum_g min(wk_g, dP_g (L - X)) ]
 *
 *    and the exits so counted lie in disjoint windows [a_i, a_i+1) (the work
 *    after gap i ends before gap i+1 starts), after the first one's, and
 *    the energy over gaps is disjoint from task time.
 *    The 1 ms shortest slice is SIM_PREEMPT_GRAN's.  Under
 *    SIM_PREEMPT_VRUNTIME (the default, sim_set_preempt()) a running task
 *    has no shortest slice: a task enqueued beside it (a wake-up, a fork,
 *    the balancer's attach) preempts it at once when its vruntime lags by
 *    more than wakeup_granularity, as a long sleeper's does (rq.c), so how
 *    often an instance is preempted is not bounded by its own execution
 *    (the tick's preemption alone needs min_granularity, 0.75 ms on one
 *    CPU, 1.5 ms from two).  There item 5 counts only single-instance
 *    stories, where no other task can preempt and the tick rotates
 *    nothing; with several instances it adds nothing.
 *
 * The bound reports T_lb as its makespan, items 2 in e_idle, 3 in e_busy,
 * 4 and 5 in e_wake.  It has no latencies.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

#define FJ_PER_UJ	1000000000ull

struct bound_ctx {
	const struct sp_model *m;
	const struct sim_story *s;
	u32 cap_max, cap_min;
	u64 x_ns;		/* worst wake-up latency of one CPU */
};

/* An interval [a, b) of ns. */
struct iv {
	u64 a, b;
};

struct iv_list {
	struct iv *v;
	u32 n, cap;
};

static int iv_add(struct iv_list *l, u64 a, u64 b)
{
	if (a >= b)
		return 0;
	if (l->n == l->cap) {
		u32 cap = l->cap ? 2 * l->cap : 64;
		struct iv *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = (struct iv){ a, b };
	return 0;
}

/* The intersection of two sorted, disjoint interval lists. */
static int iv_intersect(const struct iv_list *x, const struct iv_list *y,
			struct iv_list *out)
{
	u32 i = 0, j = 0;

	out->n = 0;
	while (i < x->n && j < y->n) {
		u64 a = x->v[i].a > y->v[j].a ? x->v[i].a : y->v[j].a;
		u64 b = x->v[i].b < y->v[j].b ? x->v[i].b : y->v[j].b;

		if (a < b && iv_add(out, a, b))
			return -1;
		if (x->v[i].b < y->v[j].b)
			i++;
		else
			j++;
	}
	return 0;
}

static u32 pd_cap(const struct sp_pd *pd, u32 k)
{
	return pd->opp[k].cap ? pd->opp[k].cap : 1;
}

static void caps(struct bound_ctx *b)
{
	const struct sp_model *m = b->m;
	u32 p, c, l;

	b->cap_max = 1;
	b->cap_min = SP_CAP_SCALE;
	for (p = 0; p < m->nr_pds; p++) {
		const struct sp_pd *pd = &m->pd[p];

		if (pd->opp[pd->nr_opps - 1].cap > b->cap_max)
			b->cap_max = pd->opp[pd->nr_opps - 1].cap;
		if (pd_cap(pd, 0) < b->cap_min)
			b->cap_min = pd_cap(pd, 0);
	}
	for (c = 0; c < m->nr_cpus; c++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[c]];
		u64 x = pd->idle[pd->nr_idle - 1].exit_latency_us;

		for (l = 0; l < m->nr_levels; l++)
			x += m->group[m->cpu_group[l][c]].exit_latency_us;
		if (x * 1000 > b->x_ns)
			b->x_ns = x * 1000;
	}
}

/* Work of one instance of @d: run (us at 1024) and runtime (us). */
static void def_work(const struct sim_story *s, const struct sim_task_def *d,
		     u64 *w, u64 *rt)
{
	u32 p, i;

	*w = *rt = 0;
	for (p = 0; p < d->nr_phases; p++) {
		const struct sim_phase *ph = &s->phases[d->first_phase + p];

		for (i = 0; i < ph->nr_ev; i++) {
			const struct sim_ev *e = &s->evs[ph->first_ev + i];

			if (e->kind == SIM_EV_RUN)
				*w += e->us * ph->loop;
			else if (e->kind == SIM_EV_RUNTIME)
				*rt += e->us * ph->loop;
		}
	}
	*w *= d->loop;
	*rt *= d->loop;
}

/*
 * The two timelines of one instance, walked together.  @q_ns is the other
 * instances' slowest busy time; the forced-blocked intervals go into @out
 * (NULL: only the earliest finish is wanted, returned).
 */
struct walk {
	u64 e, l;			/* earliest and late time now */
	u64 e_next[SIM_MAX_TIMERS], l_next[SIM_MAX_TIMERS];
	u8 armed[SIM_MAX_TIMERS];
};

static u64 seg_late_ns(const struct bound_ctx *b, u64 exec_ns, u64 q_ns)
{
	return exec_ns + q_ns + b->x_ns * (1 + (exec_ns + 999999) / 1000000);
}

/* After a wake-up: two exits, then the resume segment. */
static void walk_wake(const struct bound_ctx *b, struct walk *w, u64 q_ns)
{
	w->l += 2 * b->x_ns + seg_late_ns(b, 0, q_ns);
}

/*
 * One event on both timelines; a block adds [late block, earliest wake) to
 * @out and, to @own, [late block, late wake): with one instance, the
 * length it is surely blocked for (see item 5).
 */
static int walk_event(const struct bound_ctx *b, const struct sim_ev *e,
		      struct walk *w, u64 q_ns, struct iv_list *out, struct iv_list *own)
{
	u64 ew, lw;

	switch (e->kind) {
	case SIM_EV_RUN:
		w->e += e->us * 1000 * SP_CAP_SCALE / b->cap_max;
		w->l += seg_late_ns(b, e->us * 1000 * SP_CAP_SCALE / b->cap_min, q_ns);
		return 0;
	case SIM_EV_RUNTIME:
		w->e += e->us * 1000;
		w->l += seg_late_ns(b, e->us * 1000, q_ns);
		return 0;
	case SIM_EV_SLEEP:
		ew = w->e + e->us * 1000;
		lw = w->l + e->us * 1000;
		break;
	default:
		if (!w->armed[e->timer]) {
			w->armed[e->timer] = 1;
			w->e_next[e->timer] = w->e;
			w->l_next[e->timer] = w->l;
		}
		w->e_next[e->timer] += e->us * 1000;
		w->l_next[e->timer] += e->us * 1000;
		ew = w->e_next[e->timer] > w->e ? w->e_next[e->timer] : w->e;
		lw = w->l_next[e->timer] > w->l ? w->l_next[e->timer] : w->l;
	}
	if (out && iv_add(out, w->l, ew))
		return -1;
	if (own && iv_add(own, w->l, lw))
		return -1;
	w->e = ew;
	w->l = lw;
	walk_wake(b, w, q_ns);
	return 0;
}

static int walk_def(const struct bound_ctx *b, const struct sim_task_def *d,
		    u64 q_ns, struct iv_list *out, struct iv_list *own, u64 *e_finish)
{
	const struct sim_story *s = b->s;
	struct walk w = { .l = b->x_ns };
	u32 l, p, pl, i;

	w.l += seg_late_ns(b, 0, q_ns);		/* the fork: the thread starts */
	for (l = 0; l < d->loop; l++)
		for (p = 0; p < d->nr_phases; p++) {
			const struct sim_phase *ph = &s->phases[d->first_phase + p];

			for (pl = 0; pl < ph->loop; pl++)
				for (i = 0; i < ph->nr_ev; i++)
					if (walk_event(b, &s->evs[ph->first_ev + i], &w,
						       q_ns, out, own))
						return -1;
		}
	*e_finish = w.e;
	if (out && iv_add(out, w.l, ~0ull))	/* surely done from here on */
		return -1;
	return 0;
}

static sim_fj min_fj(sim_fj a, sim_fj b)
{
	return a < b ? a : b;
}

static u32 sat_sub(u32 a, u32 b)
{
	return a > b ? a - b : 0;
}

/* P_min: the least power a CPU of @pd draws, idle or awake, uW (item 2). */
static u32 min_uw(const struct sp_pd *pd)
{
	u32 i, p = pd->idle[pd->nr_idle - 1].power_uw;

	for (i = 0; i < pd->nr_opps; i++)
		if (pd->opp[i].power_uw < p)
			p = pd->opp[i].power_uw;
	return p;
}

/* Item 3: price per unit of time on @cpu at OPP @k, uW, shares s = min(n, N). */
static u64 busy_uw(const struct sp_model *m, u32 cpu, u32 k, u32 n_tasks)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
	u64 uw = sat_sub(pd->opp[k].power_uw, min_uw(pd));
	u32 l;

	for (l = 0; l < m->nr_levels; l++) {
		const struct sp_group *g = &m->group[m->cpu_group[l][cpu]];
		u32 share = g->nr_cpus < n_tasks ? g->nr_cpus : n_tasks;

		uw += sat_sub(g->active_uw, g->idle_uw) / (share ? share : 1);
	}
	return uw;
}

/* Items 3: the cheapest energy of @w_us run work and @r_us runtime work. */
static sim_fj busy_floor(const struct sp_model *m, u64 w_us, u64 r_us, u32 n_tasks)
{
	sim_fj run = ~(sim_fj)0, runtime = ~(sim_fj)0;
	u32 c, k;

	for (c = 0; c < m->nr_cpus; c++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[c]];

		for (k = 0; k < pd->nr_opps; k++) {
			sim_fj uw = busy_uw(m, c, k, n_tasks);

			run = min_fj(run, uw * w_us * 1000 * SP_CAP_SCALE / pd_cap(pd, k));
			runtime = min_fj(runtime, uw * r_us * 1000);
		}
	}
	return (w_us ? run : 0) + (r_us ? runtime : 0);
}

/* Item 4: the cheapest first wake-up, fJ. */
static sim_fj first_wake(const struct sp_model *m)
{
	sim_fj best = ~(sim_fj)0;
	u32 cpu, l;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
		sim_fj e = pd->idle[pd->nr_idle - 1].wakeup_uj;

		for (l = 0; l < m->nr_levels; l++)
			e += m->group[m->cpu_group[l][cpu]].wakeup_uj;
		best = min_fj(best, e * FJ_PER_UJ);
	}
	return best;
}

/* The least power of @cpu in anything but its deepest state, uW. */
static u32 nondeep_uw(const struct sp_pd *pd)
{
	u32 i, p = pd->opp[0].power_uw;

	for (i = 0; i < pd->nr_opps; i++)
		if (pd->opp[i].power_uw < p)
			p = pd->opp[i].power_uw;
	for (i = 0; i + 1 < pd->nr_idle; i++)
		if (pd->idle[i].power_uw < p)
			p = pd->idle[i].power_uw;
	return p;
}

/* Item 5: the least cost of one forced gap of @len_ns, fJ. */
static sim_fj gap_cost(const struct bound_ctx *b, u64 len_ns)
{
	const struct sp_model *m = b->m;
	u64 l = len_ns > b->x_ns ? len_ns - b->x_ns : 0;
	sim_fj best = ~(sim_fj)0;
	u32 cpu, lv;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
		const struct sp_idle_state *deep = &pd->idle[pd->nr_idle - 1];
		sim_fj e = min_fj((sim_fj)deep->wakeup_uj * FJ_PER_UJ,
				  (sim_fj)sat_sub(nondeep_uw(pd), min_uw(pd)) * l);

		for (lv = 0; lv < m->nr_levels; lv++) {
			const struct sp_group *g = &m->group[m->cpu_group[lv][cpu]];

			e += min_fj((sim_fj)g->wakeup_uj * FJ_PER_UJ,
				    (sim_fj)sat_sub(g->active_uw, g->idle_uw) * l);
		}
		best = min_fj(best, e);
	}
	return best;
}

/* Item 5 over the story: the forced gaps and their cost. */
static int gaps(const struct bound_ctx *b, const u64 *busy_max_ns, u64 busy_all_ns,
		sim_fj *cost)
{
	const struct sim_story *s = b->s;
	struct iv_list acc = { 0 }, one = { 0 }, tmp = { 0 }, own = { 0 };
	u32 i, k;
	int rc = -1;
	u64 fin;

	*cost = 0;
	if (iv_add(&acc, 0, ~0ull))
		goto out;
	for (i = 0; i < s->nr_defs; i++) {
		u64 q = busy_all_ns - busy_max_ns[i];	/* the others of instance 1 */

		one.n = 0;
		if (walk_def(b, &s->defs[i], q, &one, &own, &fin) ||
		    iv_intersect(&acc, &one, &tmp))
			goto out;
		acc.n = 0;
		for (k = 0; k < tmp.n; k++)
			if (iv_add(&acc, tmp.v[k].a, tmp.v[k].b))
				goto out;
	}
	if (sim_story_tasks(s) == 1) {	/* its own blocks are the gaps */
		free(acc.v);
		acc = own;
		own = (struct iv_list){ 0 };
	}
	for (k = 0; k < acc.n; k++)
		if (acc.v[k].b != ~0ull)
			*cost += gap_cost(b, acc.v[k].b - acc.v[k].a);
	rc = 0;
out:
	free(acc.v);
	free(one.v);
	free(tmp.v);
	free(own.v);
	return rc;
}

void sim_lower_bound(const struct sp_model *m, const struct sim_story *s,
		     struct sim_result *r)
{
	struct bound_ctx b = { .m = m, .s = s };
	u64 w = 0, rt = 0, t_lb = 0, b_ns, all_max = 0, *busy_max;
	u32 i, g, n_tasks = sim_story_tasks(s);
	sim_fj gap = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->story, sizeof(r->story), "%s", s->name);
	r->policy = SIM_POL_LOWER_BOUND;
	caps(&b);
	busy_max = calloc(s->nr_defs ? s->nr_defs : 1, sizeof(*busy_max));
	for (i = 0; i < s->nr_defs; i++) {
		u64 dw, drt, fin;

		def_work(s, &s->defs[i], &dw, &drt);
		walk_def(&b, &s->defs[i], 0, NULL, NULL, &fin);
		if (fin > t_lb)
			t_lb = fin;
		w += dw * s->defs[i].instance;
		rt += drt * s->defs[i].instance;
		if (busy_max)
			busy_max[i] = (dw * 1000 * SP_CAP_SCALE / b.cap_min + drt * 1000);
		if (busy_max)
			all_max += busy_max[i] * s->defs[i].instance;
	}
	b_ns = w * 1000 * SP_CAP_SCALE / b.cap_max + rt * 1000;
	if (m->nr_cpus && b_ns / m->nr_cpus > t_lb)
		t_lb = b_ns / m->nr_cpus;
	r->makespan_ns = t_lb;
	for (i = 0; i < m->nr_cpus; i++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[i]];

		r->e_idle += (sim_fj)min_uw(pd) * t_lb;
	}
	for (g = 0; g < m->nr_groups; g++)
		r->e_idle += (sim_fj)m->group[g].idle_uw * t_lb;
	r->e_busy = busy_floor(m, w, rt, n_tasks);
	if (w || rt)
		r->e_wake = first_wake(m);
	if (sim_get_preempt() == SIM_PREEMPT_VRUNTIME && n_tasks > 1)
		gap = 0;	/* no shortest slice: item 5's last paragraph */
	else if (busy_max && !gaps(&b, busy_max, all_max, &gap))
		r->e_wake += gap;
	free(busy_max);
}
