// SPDX-License-Identifier: GPL-2.0
/*
 * sp_floor.c - the OPP floor's gap limit (sp_floor.h).
 */
#include "sp_floor.h"

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
