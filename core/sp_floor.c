// SPDX-License-Identifier: GPL-2.0
/*
 * sp_floor.c - the OPP floor's looks: its gap limit and its shared groups
 * (sp_floor.h).
 */
#include "sp_floor.h"
#include "sp_energy.h"

/* @cpu's totals now, from the accounting; @pd is its pd. */
static void sp_floor_read(const struct sp_acct *a, const struct sp_pd *pd, u32 cpu,
			  struct sp_floor_look *now)
{
	const struct sp_acct_cpu *ac = &a->cpu[cpu];

	now->busy_us = sp_acct_cpu_busy_us(ac);
	now->span_us = now->busy_us + sp_acct_cpu_idle_us(ac);
	now->exits = sp_acct_cpu_exits(ac);
}

/*
 * What happened on a CPU since @was: 1 with @d filled, 0 if too few exits
 * to say yet (@was stays the baseline), -1 if the accounting was reset
 * meanwhile.
 */
static int sp_floor_delta(const struct sp_floor_look *was, const struct sp_floor_look *now,
			  struct sp_floor_look *d)
{
	if (now->exits < was->exits || now->span_us < was->span_us ||
	    now->busy_us < was->busy_us)
		return -1;
	d->exits = now->exits - was->exits;
	d->span_us = now->span_us - was->span_us;
	d->busy_us = now->busy_us - was->busy_us;
	if (d->exits < SP_FLOOR_MIN_EXITS || !d->span_us)
		return 0;
	if (d->exits > (1u << 20))	/* one a us at most; keeps exits x cap in a u32 */
		d->exits = 1u << 20;
	return 1;
}

/*
 * The mean idle gap, us, at capacity @cap of a CPU that was busy for
 * @d->busy_us at capacity @cur: its idle time per exit, plus or less the
 * time its work per exit, @d->busy_us x @cur, takes at @cap instead of at
 * @cur.
 */
static u64 sp_floor_gap_us(const struct sp_floor_look *d, u32 cur, u32 cap)
{
	u64 num = d->span_us * cap, less = d->busy_us * cur;

	return num > less ? sp_div_u64(num - less, (u32)d->exits * cap) : 0;
}

/*
 * The wake-up latency from the state a gap of @gap_us reaches on @cpu: the
 * deepest state whose target residency it covers; the deepest state adds
 * the exits of the groups above @cpu.
 */
static u32 sp_floor_gap_lat(const struct sp_model *m, const struct sp_pd *pd, u32 cpu,
			    u64 gap_us)
{
	u32 i, l, lat;

	if (!pd->nr_idle)
		return 0;
	for (i = pd->nr_idle - 1u; i > 0; i--)
		if (pd->idle[i].target_residency_us <= gap_us)
			break;
	lat = pd->idle[i].exit_latency_us;
	if (i + 1u == pd->nr_idle)
		for (l = 0; l < m->nr_levels; l++)
			lat += m->group[m->cpu_group[l][cpu]].exit_latency_us;
	return lat;
}

/*
 * That latency for a CPU that did @d, at OPP @k.  Above @cur the gap is a
 * prediction from a mean over a few periods, which a tick or an interrupt
 * that splits a stay makes shorter than the periodic gap: it counts as
 * reaching a state within 1 / %SP_FLOOR_RAISE_SLACK of its target
 * residency, so that the floor is raised back only past that noise.
 */
static u32 sp_floor_lat_at(const struct sp_model *m, const struct sp_pd *pd, u32 cpu,
			   const struct sp_floor_look *d, u32 cur, u32 k)
{
	u64 gap = sp_floor_gap_us(d, pd->opp[cur].cap, pd->opp[k].cap);

	return sp_floor_gap_lat(m, pd, cpu, k > cur ? gap + gap / SP_FLOOR_RAISE_SLACK : gap);
}

/*
 * @cpu's vote from @d: 1 + the highest OPP up to @floor at which its gap
 * reaches no state slower to leave than at @base (or than @bound_us).
 */
static u32 sp_floor_vote(const struct sp_model *m, const struct sp_pd *pd, u32 cpu,
			 const struct sp_floor_look *d, u32 cur, u32 base, u32 floor,
			 u32 bound_us)
{
	u32 ok, v = floor;

	if (base < floor) {
		ok = sp_floor_lat_at(m, pd, cpu, d, cur, base);
		if (ok < bound_us)
			ok = bound_us;
		while (v > base && sp_floor_lat_at(m, pd, cpu, d, cur, v) > ok)
			v--;
	}
	return v + 1u;
}

/*
 * The limit in force after a look that answers @lim with @cur in force: a
 * move within %SP_FLOOR_SETTLE_LOOKS looks of the last goes to the lower
 * of the two and holds (sp_floor_gap_opp()).
 */
static u32 sp_floor_settle(struct sp_floor_pd *ps, u32 cur, u32 lim)
{
	bool unsettled = ps->settle;

	if (ps->hold) {
		ps->hold--;
		return cur;
	}
	if (ps->settle)
		ps->settle--;
	if (lim == cur) {
		if (ps->backoff && ++ps->still >= ps->backoff) {
			ps->backoff /= 2;
			if (ps->backoff < SP_FLOOR_HOLD_MIN_LOOKS)
				ps->backoff = 0;
			ps->still = 0;
		}
		return cur;
	}
	ps->still = 0;
	if (unsettled) {
		ps->backoff = ps->backoff ? 2 * ps->backoff : SP_FLOOR_HOLD_MIN_LOOKS;
		if (ps->backoff > SP_FLOOR_HOLD_MAX_LOOKS)
			ps->backoff = SP_FLOOR_HOLD_MAX_LOOKS;
		ps->hold = ps->backoff;
		ps->settle = 0;
		return lim < cur ? lim : cur;
	}
	ps->settle = SP_FLOOR_SETTLE_LOOKS;
	return lim;
}

u32 sp_floor_gap_opp(const struct sp_model *m, u32 pdi, u32 floor, u32 cur, u32 bound_us,
		     const struct sp_acct *a, struct sp_floor_look *look,
		     struct sp_floor_pd *ps)
{
	const struct sp_pd *pd;
	const u16 *cpus;
	struct sp_floor_look now, d;
	u32 i, base, max = 0, lim;

	if (pdi >= m->nr_pds || !m->pd[pdi].nr_opps)
		return floor;
	pd = &m->pd[pdi];
	cpus = m->pd_cpus + pd->cpu_off;
	if (floor >= pd->nr_opps)
		floor = pd->nr_opps - 1u;
	if (cur > floor)
		cur = floor;
	lim = floor;
	/* the OPP schedutil asks for: 1.25 x the largest mean utilisation */
	for (i = 0; i < pd->nr_cpus; i++) {
		sp_floor_read(a, pd, cpus[i], &now);
		if (sp_floor_delta(&look[cpus[i]], &now, &d) > 0) {
			u64 u = sp_div_u64(d.busy_us * pd->opp[cur].cap,
					   d.span_us > ~0u ? ~0u : (u32)d.span_us);

			if (u > max)
				max = u > SP_CAP_SCALE ? SP_CAP_SCALE : (u32)u;
		}
	}
	base = sp_model_pd_opp_for(pd, (5 * max + 3) / 4);
	for (i = 0; i < pd->nr_cpus; i++) {
		u32 cpu = cpus[i];
		int r;

		sp_floor_read(a, pd, cpu, &now);
		r = sp_floor_delta(&look[cpu], &now, &d);
		if (r < 0) {
			now.vote = 0;
			look[cpu] = now;
		} else if (r > 0) {
			now.vote = floor ? sp_floor_vote(m, pd, cpu, &d, cur, base, floor,
							 bound_us) : 0;
			look[cpu] = now;
		}
		if (look[cpu].vote && look[cpu].vote - 1u < lim)
			lim = look[cpu].vote - 1u;
	}
	return ps ? sp_floor_settle(ps, cur, lim) : lim;
}

/**
 * DOC: the floor's shared groups
 *
 * The floor's price (sp_energy_opp_floor()) counts every group above the
 * pd as up for the pd's work alone: work done sooner lets each group sleep
 * sooner, so a group's static power is part of the cost of each unit of
 * work.  A group that its other children keep up gains nothing from this
 * pd's race: the phone model's package (280 mW awake) stays up while its
 * big cluster runs, whatever its LITTLE cluster does, and pricing it
 * raises LITTLE's floor to its top OPP, which then only spends more per
 * unit of work.
 *
 * So each look (every %SP_FLOOR_LOOK_MS) adds each group's awake time
 * since the last one to a sum that forgets 1/8 a look (struct
 * sp_floor_groups), and a group g above the pd, at a level above the
 * lowest, counts for the share of its awake time that the pd holds it
 * up::
 *
 *	share = (A_g - sum of A_c over g's other children) / A_own
 *
 * clamped to 0..1, A being those recent awake times and A_own that of the
 * child of g that holds the pd.  A_g less the other children's time is at
 * most the time g was up with none of them up, so the share is at most
 * what the pd's race can take off g's awake time; with children that run
 * independently it is the chance that no other one is up, which is how
 * fast g's awake time falls as the pd's falls.  A child whose pds have
 * this pd's OPP table does not count as other: the same price floors it
 * at the same OPP, so it races with this pd and the time the two hold g
 * together falls with this pd's (the servers' clusters in a package).  A
 * group at the lowest level (its children are CPUs) counts in full, and
 * so does any group while its own child has no recent awake time, or
 * before %SP_FLOOR_SHARE_LOOKS looks have been summed since the first
 * (the sums describe the recent past only then: at the first looks of a
 * busy start they rest on whichever jobs came first).  The floor is the
 * price with those shares (sp_energy_opp_floor_w()), never above the full
 * price and never below the OPP the pd's CPUs ask for at their last idle
 * entry (sp_state.pd_req, what schedutil is modelled to ask): below it the
 * floor would only slow the work that asked for it whenever the governor
 * lags.  The gap limit (sp_floor_gap_opp()) then judges it as before.
 */

_Static_assert(SP_FLOOR_SHARE_LOOKS == 1u << SP_FLOOR_SHARE_SHIFT,
	       "a share counts once the sums span their window");

void sp_floor_groups_look(const struct sp_model *m, const struct sp_acct *a,
			  const struct sp_state *st, u64 now_ns, struct sp_floor_groups *fg,
			  bool totals_only)
{
	struct sp_energy_sum e;
	u32 g;

	if (totals_only)
		fg->looks = 0;
	else if (fg->looks < SP_FLOOR_SHARE_LOOKS)
		fg->looks++;
	for (g = 0; g < m->nr_groups && g < SP_MAX_GROUPS; g++) {
		u64 d;

		sp_acct_group_sum(a, st, m, g, now_ns, &e);
		d = e.busy_us > fg->last_us[g] ? e.busy_us - fg->last_us[g] : 0;
		if (totals_only)
			fg->recent_us[g] = 0;
		else
			fg->recent_us[g] = fg->recent_us[g] -
					   (fg->recent_us[g] >> SP_FLOOR_SHARE_SHIFT) + d;
		fg->last_us[g] = e.busy_us;
	}
}

/* Do @pd and the pd of group @c's first CPU have the same OPP table? */
static bool sp_floor_same_opps(const struct sp_model *m, const struct sp_pd *pd, u32 c)
{
	const struct sp_group *g = &m->group[c];
	const struct sp_pd *q;
	u32 cpu, k;

	if (!g->nr_cpus)
		return false;
	cpu = m->group_cpus[g->cpu_off];
	if (cpu >= m->nr_cpus || m->cpu_pd[cpu] >= m->nr_pds)
		return false;
	q = &m->pd[m->cpu_pd[cpu]];
	if (q->nr_opps != pd->nr_opps)
		return false;
	for (k = 0; k < pd->nr_opps; k++)
		if (q->opp[k].cap != pd->opp[k].cap || q->opp[k].power_uw != pd->opp[k].power_uw)
			return false;
	return true;
}

/* The share, 0..1024, of group @gi at level @l > 0 that @pd (whose first CPU is @cpu) holds up. */
static u32 sp_floor_share(const struct sp_model *m, const struct sp_pd *pd, u32 cpu, u32 l,
			  u32 gi, const struct sp_floor_groups *fg)
{
	const struct sp_group *g;
	u32 own = m->cpu_group[l - 1][cpu], c, end;
	u64 others = 0, mine, held;

	if (gi >= m->nr_groups)
		return SP_CAP_SCALE;
	g = &m->group[gi];
	end = (u32)g->first_child + g->nr_children;
	if (fg->looks < SP_FLOOR_SHARE_LOOKS || own >= m->nr_groups ||
	    m->group[own].parent != gi || end > m->nr_groups)
		return SP_CAP_SCALE;
	mine = fg->recent_us[own];
	if (!mine)
		return SP_CAP_SCALE;
	for (c = g->first_child; c < end; c++)
		if (c != own && !sp_floor_same_opps(m, pd, c))
			others += fg->recent_us[c];
	if (fg->recent_us[gi] <= others)
		return 0;
	held = fg->recent_us[gi] - others;
	if (held >= mine)
		return SP_CAP_SCALE;
	/* held < mine: the quotient is below 1024, mine's 32 bits enough */
	return (u32)sp_div_u64(held << 10, mine > ~0u ? ~0u : (u32)mine);
}

u32 sp_floor_shared_opp(const struct sp_model *m, u32 pdi, const struct sp_state *st,
			const struct sp_floor_groups *fg)
{
	u32 w[SP_MAX_LEVELS], cpu, l, k, full, req;
	const struct sp_pd *pd;

	if (pdi >= m->nr_pds || !m->pd[pdi].nr_opps || !m->pd[pdi].nr_cpus)
		return 0;
	pd = &m->pd[pdi];
	cpu = m->pd_cpus[pd->cpu_off];
	for (l = 0; l < m->nr_levels && l < SP_MAX_LEVELS; l++)
		w[l] = l ? sp_floor_share(m, pd, cpu, l, m->cpu_group[l][cpu], fg) : SP_CAP_SCALE;
	k = sp_energy_opp_floor_w(m, pdi, w);
	full = sp_energy_opp_floor(m, pdi);
	/* not below the OPP the pd's CPUs ask for now (their last idle entries) */
	req = SP_READ_ONCE(st->pd_req[pdi]) & SP_PD_REQ_OPP_MASK;
	k = k > req ? k : req;
	return k < full ? k : full;
}
