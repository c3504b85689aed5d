// SPDX-License-Identifier: GPL-2.0
/*
 * bound.c - an offline lower bound on the energy of a story on a model.
 *
 * DOC: the lower bound
 *
 * Whatever a policy does, the simulator charges (sim.c, energy accounting)
 * every CPU its idle-state power while idle and its OPP power while busy,
 * every group idle_uw or active_uw, plus wake-up energies, over
 * [0, makespan].  Each of the following is a floor on one part of that sum,
 * so their total is a floor on the whole:
 *
 * 1. Makespan.  T_lb = the latest finish of any task instance run alone on
 *    a CPU of the highest capacity with no wake-up latency and no waiting.
 *    A simulated instance never gets ahead of that: a run takes at least
 *    N * 1024 / cap_max us, sleeps are the same, and a timer's first
 *    expiry can only move later.  Nor can N CPUs finish the least total
 *    busy time B (item 4) in less than B / N.  T_lb is the larger of the
 *    two, and every makespan is >= T_lb.
 *
 * 2. CPU floor.  At any instant a CPU of pd p draws at least P_deep(p), the
 *    power of its deepest idle state (OPP powers and the stall power, the
 *    shallowest state's, are larger): sum over CPUs of P_deep * T_lb.
 *
 * 3. Busy excess.  Running work w (us at capacity 1024) at OPP k of pd p
 *    takes w * 1024 / cap_k us at P_k, i.e. (P_k - P_deep(p)) * w * 1024 /
 *    cap_k above the floor of 2.  The cheapest way to run all the "run"
 *    work W is at the (pd, OPP) minimising (P_k - P_deep) / cap_k, and
 *    "runtime" work R (wall-clock) at the smallest P_k - P_deep.
 *
 * 4. Groups.  Every group draws at least idle_uw over T_lb.  A group g
 *    of n_g CPUs is active whenever one of its CPUs is busy, so if it is
 *    active for a_g in total it hosts at most n_g * a_g of CPU busy time.
 *    The groups of one level partition the CPUs, hence sum_g n_g * a_g >= B,
 *    with B = W * 1024 / cap_max + R the least total CPU busy time, and
 *    the excess sum_g (active_uw - idle_uw) * a_g is at least
 *    B * min_g (active_uw - idle_uw) / n_g.  That holds at every level.
 *
 * 5. Wake-ups.  All CPUs start in their deepest state and all groups idle,
 *    so the first piece of work must wake one CPU and all groups above it:
 *    the cheapest such CPU's wakeup_uj plus those of its groups.  No later
 *    wake-up is unavoidable (a CPU may stay in a shallow state for free).
 *
 * Makespan reported for the bound is T_lb; it has no latencies.
 */
#include <string.h>

#include "sim.h"

static u32 cap_max(const struct sp_model *m)
{
	u32 p, c = 1;

	for (p = 0; p < m->nr_pds; p++)
		if (m->pd[p].opp[m->pd[p].nr_opps - 1].cap > c)
			c = m->pd[p].opp[m->pd[p].nr_opps - 1].cap;
	return c;
}

/* Time (ns) instance of @d needs alone at capacity @cap; adds work to @w, @rt. */
static u64 alone_ns(const struct sim_story *s, const struct sim_task_def *d,
		    u32 cap, u64 *w, u64 *rt)
{
	u64 t = 0, next[SIM_MAX_TIMERS];
	u8 armed[SIM_MAX_TIMERS] = { 0 };
	u32 l, p, pl, i;

	for (l = 0; l < d->loop; l++) {
		for (p = 0; p < d->nr_phases; p++) {
			const struct sim_phase *ph = &s->phases[d->first_phase + p];

			for (pl = 0; pl < ph->loop; pl++) {
				for (i = 0; i < ph->nr_ev; i++) {
					const struct sim_ev *e = &s->evs[ph->first_ev + i];

					if (e->kind == SIM_EV_RUN) {
						t += e->us * 1000 * SP_CAP_SCALE / cap;
						*w += e->us;
					} else if (e->kind == SIM_EV_RUNTIME) {
						t += e->us * 1000;
						*rt += e->us;
					} else if (e->kind == SIM_EV_SLEEP) {
						t += e->us * 1000;
					} else {
						if (!armed[e->timer]) {
							armed[e->timer] = 1;
							next[e->timer] = t;
						}
						next[e->timer] += e->us * 1000;
						if (next[e->timer] > t)
							t = next[e->timer];
					}
				}
			}
		}
	}
	return t;
}

static sim_fj min_fj(sim_fj a, sim_fj b)
{
	return a < b ? a : b;
}

/* Items 3: cheapest excess energy of @w_ns (capacity-1024 ns) and @r_ns. */
static void busy_excess(const struct sp_model *m, u64 w_ns, u64 r_ns,
			sim_fj *run, sim_fj *runtime)
{
	u32 p, k;

	*run = ~(sim_fj)0;
	*runtime = ~(sim_fj)0;
	for (p = 0; p < m->nr_pds; p++) {
		const struct sp_pd *pd = &m->pd[p];
		u32 deep = pd->idle[pd->nr_idle - 1].power_uw;

		for (k = 0; k < pd->nr_opps; k++) {
			u32 dp = pd->opp[k].power_uw > deep ? pd->opp[k].power_uw - deep : 0;

			*run = min_fj(*run, (sim_fj)dp * w_ns * SP_CAP_SCALE / pd->opp[k].cap);
			*runtime = min_fj(*runtime, (sim_fj)dp * r_ns);
		}
	}
}

/* Item 5: cheapest first wake-up, in fJ. */
static sim_fj first_wake(const struct sp_model *m)
{
	sim_fj best = ~(sim_fj)0;
	u32 cpu, l;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
		sim_fj e = pd->idle[pd->nr_idle - 1].wakeup_uj;

		for (l = 0; l < m->nr_levels; l++)
			e += m->group[m->cpu_group[l][cpu]].wakeup_uj;
		best = min_fj(best, e * 1000000000ull);
	}
	return best;
}

void sim_lower_bound(const struct sp_model *m, const struct sim_story *s,
		     struct sim_result *r)
{
	u32 cap = cap_max(m), i, l, g;
	u64 w = 0, rt = 0, t_lb = 0, b_ns;
	sim_fj run, runtime;

	memset(r, 0, sizeof(*r));
	snprintf(r->story, sizeof(r->story), "%s", s->name);
	r->policy = SIM_POL_LOWER_BOUND;
	for (i = 0; i < s->nr_defs; i++) {
		u64 dw = 0, drt = 0, t = alone_ns(s, &s->defs[i], cap, &dw, &drt);

		if (t > t_lb)
			t_lb = t;
		w += dw * s->defs[i].instance;
		rt += drt * s->defs[i].instance;
	}
	b_ns = w * 1000 * SP_CAP_SCALE / cap + rt * 1000;
	if (m->nr_cpus && b_ns / m->nr_cpus > t_lb)
		t_lb = b_ns / m->nr_cpus;	/* all CPUs at cap_max, no gaps */
	r->makespan_ns = t_lb;
	for (i = 0; i < m->nr_cpus; i++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[i]];

		r->e_idle += (sim_fj)pd->idle[pd->nr_idle - 1].power_uw * t_lb;
	}
	busy_excess(m, w * 1000, rt * 1000, &run, &runtime);
	r->e_busy = run + runtime;
	for (g = 0; g < m->nr_groups; g++)
		r->e_idle += (sim_fj)m->group[g].idle_uw * t_lb;
	for (l = 0; l < m->nr_levels; l++) {
		const struct sp_level *lv = &m->level[l];
		sim_fj best = ~(sim_fj)0;

		for (g = lv->first_group; g < lv->first_group + lv->nr_groups; g++) {
			const struct sp_group *gr = &m->group[g];
			u32 d = gr->active_uw > gr->idle_uw ? gr->active_uw - gr->idle_uw : 0;

			best = min_fj(best, (sim_fj)d * b_ns / gr->nr_cpus);
		}
		r->e_busy += best;
	}
	if (w || rt)
		r->e_wake = first_wake(m);
}
