// SPDX-License-Identifier: GPL-2.0
/*
 * oracle.c - the best static schedule: pinnings x an OPP per pd.
 *
 * DOC: the oracle
 *
 * An actual schedule, not a formula: every task instance is pinned to one
 * CPU for the whole story and every performance domain runs at one fixed
 * OPP (or under the schedutil-like governor), and the run is the real
 * engine's (policy "pinned": no load balancing, a fixed-OPP governor), so
 * its energy, p99 latency and makespan are those of a schedule that exists.
 * The oracle reports the cheapest such schedule it finds.  It is the best
 * *static* schedule, hence an upper bound on the optimum, which may move
 * tasks or change OPPs over time; the lower bound (bound.c) is below both.
 *
 * It applies where its search is small.  Before anything runs, the
 * pinnings up to symmetry (below) are counted, and the oracle searches
 * only if there are at most SIM_ORACLE_MAX_PINNINGS (8192) of them; its
 * arrays hold at most SIM_ORACLE_MAX_TASKS (8) task instances on
 * SIM_ORACLE_MAX_CPUS (8) CPUs.  Elsewhere it reports "n/a".  A search
 * costs about (1 + OPPs) runs per pinning, so the limit holds it to some
 * 50 000 runs on the shipped models, and a run costs what its story's
 * events cost: sparse timers are cheap, busy CPUs tick.  Every shipped
 * story gets an oracle on x86-2pkg (at most 1180 pinnings, idle's: 7
 * instances, 4 of them interchangeable) and on phone-biglittle (at most
 * 5154, idle's again; throughput's 837 pinnings of 8 busy workers are
 * the dearest search, a few seconds); server-64 and server-256 have more
 * CPUs than the arrays.  sp_sim --bench prints each search's pinnings,
 * runs and time.
 *
 * Search.  Pinnings are enumerated up to symmetry: instances of one task
 * definition are interchangeable (their CPUs are taken in non-decreasing
 * order), and so are sibling groups, and CPUs of one lowest group, with
 * identical tables (a task may only open the first unused one of them),
 * except CPU 0 and the groups holding it, which the fork at t = 0 wakes.
 * Every pinning is simulated under schedutil and at each OPP applied to
 * every pd it uses; the ORACLE_KEEP best pinnings so found are then tried
 * with every combination of per-pd settings (schedutil or a fixed OPP) of
 * the pds they use, or, beyond ORACLE_MAX_COMBOS combinations, improved one
 * pd at a time until no single change helps.  A run is abandoned as soon as
 * its energy so far exceeds the one it must beat (energy only grows), which
 * changes what is run, not what is found.  The search is exhaustive over
 * pinnings, not over pinning x OPP pairs: "best found".
 *
 * DOC: oracle-lat
 *
 * The oracle runs a fixed low OPP and queues where that saves energy, so
 * it may take far longer than cfs and wake tasks far later: a target that
 * mixes energy with lost latency.  oracle-lat is the same search with two
 * constraints taken from cfs's run of the same story on the same model: a
 * schedule counts only if its p99 wake-up latency is at most 1.1 x cfs's
 * and its makespan at most 1.02 x cfs's, the bounds issue 19 sets for
 * power mode.  A schedule that breaks either costs as much as one not run
 * (a run stops once it passes the makespan bound), so the kept pinnings
 * and the per-pd refinement are those of schedules that meet both.  It is
 * at least the oracle's energy; if no schedule meets the bounds, its row
 * says "none".
 *
 * DOC: oracle-lat-su
 *
 * oracle-lat's search with one setting per pd only, the schedutil-like
 * governor that every policy runs under: the best static pinning within
 * oracle-lat's bounds at the OPPs its own load makes the governor choose.
 * It separates what placement alone can reach, which an online policy
 * can, from what oracle-lat adds by holding a pd at a fixed lower OPP,
 * which a CPU-bound task never makes schedutil choose.  Every run it makes
 * is also one of oracle-lat's phase-1 runs, so it is never below
 * oracle-lat; its row says "none" if no pinning meets the bounds.  With
 * sp_sim --su-floor 1 its governor floors every pd at its most efficient
 * OPP with static power counted, as sp-power's opp_floor does (the plan
 * then ends in " floor"): the best static placement at sp-power's OPPs.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

#define ORACLE_KEEP		6
#define ORACLE_MAX_COMBOS	216
#define OPP_SU			(-1)

struct oracle {
	const struct sp_model *m;
	const struct sim_story *s;
	u64 max_p99_ns, max_mk_ns;	/* oracle-lat's bounds; 0: none */
	bool su_only;			/* every pd under schedutil (oracle-lat-su) */
	bool floor;			/* ... floored as sp-power's (--su-floor) */
	u32 n;				/* task instances */
	u32 def_of[SIM_ORACLE_MAX_TASKS];
	s16 pin[SIM_ORACLE_MAX_TASKS];
	s8 opp[SP_MAX_PDS];
	struct {
		s16 pin[SIM_ORACLE_MAX_TASKS];
		sim_fj e;
	} keep[ORACLE_KEEP];
	u32 nr_keep;
	sim_fj best_e;
	s16 best_pin[SIM_ORACLE_MAX_TASKS];
	s8 best_opp[SP_MAX_PDS];
	u32 searched;
	bool count_only;		/* enumerate() counts, runs nothing */
	u32 pinnings;			/* ... how many it found so far */
	struct sim_result scratch;
};

static bool pd_same(const struct sp_pd *a, const struct sp_pd *b)
{
	u32 i;

	if (a->nr_opps != b->nr_opps || a->nr_idle != b->nr_idle || a->nr_cpus != b->nr_cpus)
		return false;
	for (i = 0; i < a->nr_opps; i++)
		if (a->opp[i].cap != b->opp[i].cap || a->opp[i].power_uw != b->opp[i].power_uw)
			return false;
	for (i = 0; i < a->nr_idle; i++)
		if (a->idle[i].power_uw != b->idle[i].power_uw ||
		    a->idle[i].exit_latency_us != b->idle[i].exit_latency_us ||
		    a->idle[i].target_residency_us != b->idle[i].target_residency_us ||
		    a->idle[i].wakeup_uj != b->idle[i].wakeup_uj)
			return false;
	return true;
}

/* Does group @g hold CPU 0, where rt-app's main thread forks at t = 0? */
static bool group_has_parent(const struct sp_model *m, u32 g)
{
	return m->cpu_group[m->group[g].level][0] == g;
}

/*
 * Are groups @a and @b (siblings) the same hardware, CPU for CPU?  The
 * group holding CPU 0 is like no other: the fork wakes it at t = 0.
 */
static bool group_same(const struct sp_model *m, u32 a, u32 b)
{
	const struct sp_group *ga = &m->group[a], *gb = &m->group[b];
	u32 i;

	if (group_has_parent(m, a) || group_has_parent(m, b))
		return false;
	if (ga->nr_cpus != gb->nr_cpus || ga->active_uw != gb->active_uw ||
	    ga->idle_uw != gb->idle_uw || ga->wakeup_uj != gb->wakeup_uj ||
	    ga->exit_latency_us != gb->exit_latency_us)
		return false;
	for (i = 0; i < ga->nr_cpus; i++) {
		u32 ca = m->group_cpus[ga->cpu_off + i], cb = m->group_cpus[gb->cpu_off + i];

		if (!pd_same(&m->pd[m->cpu_pd[ca]], &m->pd[m->cpu_pd[cb]]))
			return false;
	}
	return true;
}

static bool group_used(const struct oracle *o, u32 g, u32 upto)
{
	u32 i;

	for (i = 0; i < upto; i++)
		if (o->m->cpu_group[o->m->group[g].level][o->pin[i]] == g)
			return true;
	return false;
}

static bool cpu_used(const struct oracle *o, u32 cpu, u32 upto)
{
	u32 i;

	for (i = 0; i < upto; i++)
		if ((u32)o->pin[i] == cpu)
			return true;
	return false;
}

/* Would pinning task @i to unused @cpu skip an identical unused sibling? */
static bool opens_out_of_order(const struct oracle *o, u32 cpu, u32 i)
{
	const struct sp_model *m = o->m;
	u32 l, c;

	for (c = 1; c < cpu; c++)	/* CPU 0 is the parent's: like no other */
		if (m->cpu_group[0][c] == m->cpu_group[0][cpu] && !cpu_used(o, c, i) &&
		    pd_same(&m->pd[m->cpu_pd[c]], &m->pd[m->cpu_pd[cpu]]))
			return true;
	for (l = 0; l < m->nr_levels; l++) {
		u32 g = m->cpu_group[l][cpu], sib;
		u16 parent = m->group[g].parent;

		if (group_used(o, g, i))
			continue;
		for (sib = m->level[l].first_group; sib < g; sib++)
			if (m->group[sib].parent == parent && !group_used(o, sib, i) &&
			    group_same(m, sib, g))
				return true;
	}
	return false;
}

/* Does @r meet oracle-lat's bounds (always, for the oracle)? */
static bool oracle_meets(const struct oracle *o, const struct sim_result *r)
{
	if (!o->max_mk_ns)
		return true;
	return r->lat_p99_ns <= o->max_p99_ns && r->makespan_ns <= o->max_mk_ns;
}

/*
 * Run one schedule, abandoned as soon as its energy so far passes @limit
 * or its time oracle-lat's makespan bound (then *e is ~0: it could not
 * have been kept, as for a schedule that breaks a bound).
 */
static int run_one(struct oracle *o, const s16 *pin, const s8 *opp, sim_fj limit,
		   sim_fj *e)
{
	struct sim_opts so = { .pin = pin, .fixed_opp = opp, .abort_fj = limit,
			       .abort_ns = o->max_mk_ns, .opp_floor = o->floor };

	if (sim_run(o->m, o->s, SIM_POL_PINNED, &so, &o->scratch))
		return -1;
	o->searched++;
	*e = o->scratch.aborted || !oracle_meets(o, &o->scratch) ? ~(sim_fj)0 :
	     sim_total(&o->scratch);
	if (*e < o->best_e) {
		o->best_e = *e;
		memcpy(o->best_pin, pin, sizeof(o->best_pin));
		memcpy(o->best_opp, opp, sizeof(o->best_opp));
	}
	return 0;
}

/* Insert the current pinning into the sorted list of the best ones. */
static void keep_pinning(struct oracle *o, sim_fj e)
{
	u32 i;

	if (o->nr_keep == ORACLE_KEEP && e >= o->keep[ORACLE_KEEP - 1].e)
		return;
	i = o->nr_keep < ORACLE_KEEP ? o->nr_keep++ : ORACLE_KEEP - 1;
	for (; i && o->keep[i - 1].e > e; i--)
		o->keep[i] = o->keep[i - 1];
	memcpy(o->keep[i].pin, o->pin, sizeof(o->pin));
	o->keep[i].e = e;
}

static bool pd_in_use(const struct oracle *o, const s16 *pin, u32 pd)
{
	u32 i;

	for (i = 0; i < o->n; i++)
		if (o->m->cpu_pd[pin[i]] == pd)
			return true;
	return false;
}

/*
 * What a phase-1 run must beat to matter: this pinning's best so far and,
 * once the list is full, its last entry; 0 (no limit) if neither exists.
 */
static sim_fj phase1_limit(const struct oracle *o, sim_fj best)
{
	sim_fj lim = best;

	if (o->nr_keep == ORACLE_KEEP && o->keep[ORACLE_KEEP - 1].e < lim)
		lim = o->keep[ORACLE_KEEP - 1].e;
	return lim == ~(sim_fj)0 ? 0 : lim;
}

/* Phase 1: one complete pinning under schedutil and each uniform OPP. */
static int try_pinning(struct oracle *o)
{
	sim_fj e, best = ~(sim_fj)0;
	u32 k, p, max_opps = 0;

	for (p = 0; p < o->m->nr_pds && !o->su_only; p++)
		if (o->m->pd[p].nr_opps > max_opps)
			max_opps = o->m->pd[p].nr_opps;
	for (k = 0; k <= max_opps; k++) {
		for (p = 0; p < o->m->nr_pds; p++) {
			u32 top = o->m->pd[p].nr_opps - 1u;

			o->opp[p] = !k || !pd_in_use(o, o->pin, p) ? OPP_SU :
				    (s8)(k - 1 < top ? k - 1 : top);
		}
		if (run_one(o, o->pin, o->opp, phase1_limit(o, best), &e))
			return -1;
		if (e < best)
			best = e;
	}
	if (best != ~(sim_fj)0)
		keep_pinning(o, best);
	return 0;
}

/*
 * Every pinning of tasks @i.. up to symmetry, each tried by try_pinning(),
 * or with o->count_only counted, stopping (1) once there are more than
 * SIM_ORACLE_MAX_PINNINGS.  Returns 0, 1 or -1 if out of memory.
 */
static int enumerate(struct oracle *o, u32 i)
{
	u32 cpu, lo = 0;
	int rc;

	if (i == o->n && o->count_only)
		return ++o->pinnings > SIM_ORACLE_MAX_PINNINGS;
	if (i == o->n)
		return try_pinning(o);
	if (i && o->def_of[i] == o->def_of[i - 1])
		lo = (u32)o->pin[i - 1];
	for (cpu = lo; cpu < o->m->nr_cpus; cpu++) {
		if (!cpu_used(o, cpu, i) && opens_out_of_order(o, cpu, i))
			continue;
		o->pin[i] = (s16)cpu;
		rc = enumerate(o, i + 1);
		if (rc)
			return rc;
	}
	return 0;
}

/* Phase 2, small: every combination of settings of the used pds. */
static int combos(struct oracle *o, const s16 *pin, const u32 *pds, u32 nr, u32 j)
{
	sim_fj e;
	s32 k;

	if (j == nr)
		return run_one(o, pin, o->opp, o->best_e, &e);
	for (k = OPP_SU; k < (s32)o->m->pd[pds[j]].nr_opps; k++) {
		o->opp[pds[j]] = (s8)k;
		if (combos(o, pin, pds, nr, j + 1))
			return -1;
	}
	return 0;
}

/* Phase 2, large: change one pd at a time while it helps. */
static int descend(struct oracle *o, const s16 *pin, const u32 *pds, u32 nr)
{
	sim_fj cur, e;
	bool better = true;
	u32 j;
	s32 k;

	if (run_one(o, pin, o->opp, 0, &cur))
		return -1;
	while (better) {
		better = false;
		for (j = 0; j < nr; j++) {
			s8 was = o->opp[pds[j]], best_k = was;

			for (k = OPP_SU; k < (s32)o->m->pd[pds[j]].nr_opps; k++) {
				if (k == was)
					continue;
				o->opp[pds[j]] = (s8)k;
				if (run_one(o, pin, o->opp, cur, &e))
					return -1;
				if (e < cur) {
					cur = e;
					best_k = (s8)k;
					better = true;
				}
			}
			o->opp[pds[j]] = best_k;
		}
	}
	return 0;
}

static int refine(struct oracle *o, const s16 *pin)
{
	u32 pds[SIM_ORACLE_MAX_TASKS], nr = 0, p, combos_n = 1;

	for (p = 0; p < o->m->nr_pds; p++) {
		o->opp[p] = OPP_SU;
		if (!o->su_only && pd_in_use(o, pin, p) && nr < SIM_ORACLE_MAX_TASKS) {
			pds[nr++] = p;
			combos_n *= o->m->pd[p].nr_opps + 1u;
		}
	}
	if (combos_n <= ORACLE_MAX_COMBOS)
		return combos(o, pin, pds, nr, 0);
	return descend(o, pin, pds, nr);
}

static void plan_text(const struct oracle *o, char *buf, size_t len)
{
	size_t n = 0;
	u32 i, p;

	n += (size_t)snprintf(buf + n, len - n, "pin=");
	for (i = 0; i < o->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "/" : "", o->best_pin[i]);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, " opp=");
	for (p = 0; p < o->m->nr_pds && n < len; p++) {
		if (!pd_in_use(o, o->best_pin, p))
			n += (size_t)snprintf(buf + n, len - n, "%s-", p ? "/" : "");
		else if (o->best_opp[p] == OPP_SU)
			n += (size_t)snprintf(buf + n, len - n, "%ssu", p ? "/" : "");
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%d", p ? "/" : "",
					      o->best_opp[p]);
	}
	if (o->floor && n < len)
		snprintf(buf + n, len - n, " floor");
}

static void def_indices(struct oracle *o)
{
	u32 i, j, n = 0;

	for (i = 0; i < o->s->nr_defs; i++)
		for (j = 0; j < o->s->defs[i].instance && n < SIM_ORACLE_MAX_TASKS; j++)
			o->def_of[n++] = i;
}

/* Count @o's pinnings up to symmetry, up to SIM_ORACLE_MAX_PINNINGS + 1. */
static u32 count_pinnings(struct oracle *o)
{
	o->count_only = true;
	o->pinnings = 0;
	enumerate(o, 0);
	o->count_only = false;
	return o->pinnings;
}

static void oracle_init(struct oracle *o, const struct sp_model *m,
			const struct sim_story *s)
{
	o->m = m;
	o->s = s;
	o->n = sim_story_tasks(s);
	o->best_e = ~(sim_fj)0;
	def_indices(o);
}

/* Can @s on @m have an oracle at all (its arrays' sizes)? */
static bool oracle_fits(const struct sp_model *m, const struct sim_story *s)
{
	return sim_story_tasks(s) && sim_story_tasks(s) <= SIM_ORACLE_MAX_TASKS &&
	       m->nr_cpus <= SIM_ORACLE_MAX_CPUS;
}

u32 sim_oracle_pinnings(const struct sp_model *m, const struct sim_story *s)
{
	struct oracle o = { 0 };

	if (!sim_story_tasks(s))
		return 0;
	if (!oracle_fits(m, s))
		return SIM_ORACLE_MAX_PINNINGS + 1;
	oracle_init(&o, m, s);
	return count_pinnings(&o);
}

/*
 * The search, under @max_p99_ns and @max_mk_ns if @max_mk_ns is set, over
 * pinnings only (every pd under schedutil) for SIM_POL_ORACLE_LAT_SU.
 */
static int oracle_search(const struct sp_model *m, const struct sim_story *s,
			 u64 max_p99_ns, u64 max_mk_ns, u32 policy, bool floor,
			 struct sim_result *r)
{
	struct oracle *o;
	struct sim_opts so = { 0 };
	u32 k;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	snprintf(r->story, sizeof(r->story), "%s", s->name);
	r->policy = policy;
	if (!oracle_fits(m, s))
		return 1;
	o = calloc(1, sizeof(*o));
	if (!o)
		return -1;
	oracle_init(o, m, s);
	if (count_pinnings(o) > SIM_ORACLE_MAX_PINNINGS) {
		rc = 1;		/* too large a search: no oracle */
		goto out;
	}
	o->max_p99_ns = max_p99_ns;
	o->max_mk_ns = max_mk_ns;
	o->su_only = policy == SIM_POL_ORACLE_LAT_SU;
	o->floor = floor;
	if (enumerate(o, 0))
		goto out;
	for (k = 0; k < o->nr_keep; k++)
		if (refine(o, o->keep[k].pin))
			goto out;
	rc = 0;
	if (o->best_e == ~(sim_fj)0) {	/* no schedule meets the bounds */
		r->searched = o->searched;
		snprintf(r->plan, sizeof(r->plan), "none");
		goto out;
	}
	so.pin = o->best_pin;
	so.fixed_opp = o->best_opp;
	so.opp_floor = floor;
	rc = -1;
	if (sim_run(m, s, SIM_POL_PINNED, &so, r))
		goto out;
	r->policy = policy;
	r->searched = o->searched;
	plan_text(o, r->plan, sizeof(r->plan));
	rc = 0;
out:
	free(o);
	return rc;
}

int sim_oracle(const struct sp_model *m, const struct sim_story *s,
	       struct sim_result *r)
{
	return oracle_search(m, s, 0, 0, SIM_POL_ORACLE, false, r);
}

/* oracle-lat's search under cfs's bounds, as @policy. */
static int oracle_lat_search(const struct sp_model *m, const struct sim_story *s,
			     const struct sim_result *cfs, u32 policy, bool floor,
			     struct sim_result *r)
{
	u64 p99 = cfs->lat_p99_ns * 11 / 10, mk = cfs->makespan_ns * 51 / 50;

	return oracle_search(m, s, p99, mk ? mk : 1, policy, floor, r);
}

int sim_oracle_lat(const struct sp_model *m, const struct sim_story *s,
		   const struct sim_result *cfs, struct sim_result *r)
{
	return oracle_lat_search(m, s, cfs, SIM_POL_ORACLE_LAT, false, r);
}

int sim_oracle_lat_su(const struct sp_model *m, const struct sim_story *s,
		      const struct sim_result *cfs, bool floor, struct sim_result *r)
{
	return oracle_lat_search(m, s, cfs, SIM_POL_ORACLE_LAT_SU, floor, r);
}
