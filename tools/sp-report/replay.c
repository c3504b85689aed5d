// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - modelled energy rebuilt from power:cpu_idle, by the module's code.
 *
 * DOC: replaying the idle events
 *
 * The module charges energy from the power:cpu_idle and power:cpu_frequency
 * tracepoints through the pure core (core/sp_acct.c).  sp-report feeds the
 * recorded events, in time order, to the same sp_acct_enter() and
 * sp_acct_exit() with the same model, so its busy, idle and wake-up terms
 * are the module's accounting applied to the recording; the only
 * difference is the timestamp (the ring buffer's clock instead of the
 * probe's local_clock() a few hundred ns away).  A cpu_frequency event sets
 * its pd's OPP as the module's probe does: the lowest model OPP whose
 * frequency is at or above the reported one.  A pd whose frequency does not
 * change during the recording has no cpu_frequency event (a power mode OPP
 * floor at the top OPP, a fixed governor): power-bench writes each cpufreq
 * policy's frequency as tracing starts into the recording, a trace_marker
 * line "sp_freq cpu=N khz=K" (N the policy's first CPU), and the replay
 * starts the pd of CPU N at that frequency unless a cpu_frequency event of
 * the pd comes before the marker.  Without either, the pd runs at the OPP
 * its utilisation asks for.
 *
 * The recording starts in the middle of things.  Every CPU is taken awake
 * at the first event, except a CPU whose first cpu_idle event is an exit
 * (it was idle: it is put in the state of its next entry, or the deepest)
 * and a CPU with no event at all while others have cpu_idle events (idle
 * throughout: the deepest state).
 *
 * The P-state term is the part of the busy energy above what the same busy
 * time would cost at each pd's lowest OPP: a second replay with every OPP's
 * power set to the lowest one (OPP choice depends on capacities, not
 * powers, so both replays walk the same states) and the difference of the
 * two busy terms.
 *
 * DOC: energy from work, the estimator of power-bench
 *
 * Under TCG a lower OPP does not slow the guest: a busy stretch takes the
 * same guest time whatever OPP the model says is in force, so charging it
 * power x time rewards a configuration for asking for a low OPP without
 * paying the longer run a real CPU would need.  The estimator charges work
 * instead.  A busy microsecond of the guest is one unit of work at capacity
 * 1024 (SP_CAP_SCALE); done at an OPP of capacity cap it costs
 *
 *	power_uw(opp) x 1024 / cap(opp)		(uW per unit: the EM's "cost")
 *
 * so a third replay runs with every OPP's power replaced by that cost.  A
 * busy microsecond is a unit of work only at the speed the work was
 * calibrated at: with --slowdown the busy stretches have been shortened to
 * that speed first (analyse.c, DOC: the work timeline).  Idle
 * stretches are charged at the state's power and every wake-up at its energy,
 * as in the module's accounting; the groups' shared power follows guest
 * time (the longer awake time a low OPP would bring is not added).  Every
 * configuration of a benchmark gets the same estimator from the same kind
 * of recording, module loaded or not.
 *
 * Nor is a small CPU slower: under TCG a LITTLE CPU of capacity 410 runs
 * the work as fast as a big one.  On hardware a busy stretch of d units at
 * an OPP of capacity cap lasts d x 1024 / cap, and every group above the
 * CPU stays awake for the extra d x (1024 - cap) / cap.  The stretch bound
 * (est_stretch_uj) charges that extra time at each such group's
 * active_uw - idle_uw: the most the longer runs can add, reached when no
 * other CPU keeps the group awake meanwhile (it may; and the CPU's own
 * idle power in that time, charged by the estimator, would not be spent).
 * The energy on hardware lies between the estimate and the estimate plus
 * the bound, up to that idle power.
 *
 * DOC: packages, and all of them awake
 *
 * The packages are the groups of the highest model level that has more
 * than one group (the clusters of a big.LITTLE phone whose top level is one
 * package).  A package sleeps while every CPU of it is in its deepest idle
 * state (the model's group rule, the one its idle_uw and wake_uj follow).
 * The replay also sums the time in which every package is awake at once.
 *
 * With --window, the replay still starts at the first event (so every
 * CPU's state and utilisation are known) and the accounting is reset at the
 * window's first marker, exactly as the module's idle/reset does.
 *
 * Latency-bound violations (0.2 event format): a decision with
 * lat_bound_us > 0 whose returned CPU, in the replayed state at that
 * instant, needs longer than the bound to start the task: the exit latency
 * of its idle state plus that of every idle group above it (the rule of
 * sp_place()), plus queue_us when the returned CPU is the policy's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sp_energy.h"

struct rep_replay {
	const struct sp_model *m;
	struct sp_model *flat;		/* m with every OPP at its pd's lowest power */
	struct sp_model *work;		/* m with every OPP's power per unit of work */
	struct sp_state *st, *st_flat, *st_work;
	struct sp_acct *acct, *acct_flat, *acct_work;
	u32 pkg_level;			/* the packages' model level */
	u64 all_awake_from_ns;		/* last event time, for all_awake_ns */
	uint64_t seg_start[SP_MAX_CPUS];
	bool idle_deepest;		/* every idle entry is the deepest state */
};

/* Power per unit of work at @opp (see the DOC block), clamped to u32. */
static u32 rep_cost_uw(const struct sp_opp *opp)
{
	u64 cost;

	if (!opp->cap)
		return opp->power_uw;
	cost = (u64)opp->power_uw * SP_CAP_SCALE / opp->cap;
	return cost > 0xffffffffull ? 0xffffffffu : (u32)cost;
}

u32 rep_pkg_level(const struct sp_model *m)
{
	u32 lvl;

	if (!m->nr_levels)
		return 0;
	for (lvl = m->nr_levels; lvl-- > 0;)
		if (m->level[lvl].nr_groups > 1)
			return lvl;
	return m->nr_levels - 1u;
}

static int rep_replay_alloc(struct rep_replay *p, const struct sp_model *m)
{
	uint32_t i, k;

	memset(p, 0, sizeof(*p));
	p->m = m;
	p->flat = malloc(sizeof(*p->flat));
	p->st = calloc(1, sizeof(*p->st));
	p->st_flat = calloc(1, sizeof(*p->st_flat));
	p->acct = calloc(1, sizeof(*p->acct));
	p->acct_flat = calloc(1, sizeof(*p->acct_flat));
	p->work = malloc(sizeof(*p->work));
	p->st_work = calloc(1, sizeof(*p->st_work));
	p->acct_work = calloc(1, sizeof(*p->acct_work));
	if (!p->flat || !p->st || !p->st_flat || !p->acct || !p->acct_flat || !p->work ||
	    !p->st_work || !p->acct_work)
		return -ENOMEM;
	memcpy(p->flat, m, sizeof(*m));
	memcpy(p->work, m, sizeof(*m));
	for (i = 0; i < m->nr_pds; i++) {
		for (k = 1; k < p->flat->pd[i].nr_opps; k++)
			p->flat->pd[i].opp[k].power_uw = p->flat->pd[i].opp[0].power_uw;
		for (k = 0; k < p->work->pd[i].nr_opps; k++)
			p->work->pd[i].opp[k].power_uw = rep_cost_uw(&m->pd[i].opp[k]);
	}
	p->pkg_level = rep_pkg_level(m);
	return 0;
}

static void rep_replay_free(struct rep_replay *p)
{
	free(p->flat);
	free(p->st);
	free(p->st_flat);
	free(p->acct);
	free(p->acct_flat);
	free(p->work);
	free(p->st_work);
	free(p->acct_work);
}

static u32 rep_deepest(const struct sp_model *m, u32 cpu)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

	return pd->nr_idle ? pd->nr_idle - 1u : 0;
}

static int rep_seg_push(struct rep_result *r, u32 cpu, u64 start, u64 end,
			int idle, int opp)
{
	struct rep_seg *s;

	if (start < r->start_ns)
		start = r->start_ns;
	if (end > r->end_ns)
		end = r->end_ns;
	if (end <= start)
		return 0;
	if (r->nr_segs == r->cap_segs) {
		size_t cap = r->cap_segs ? r->cap_segs * 2 : 4096;
		struct rep_seg *p = realloc(r->segs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->segs = p;
		r->cap_segs = cap;
	}
	s = &r->segs[r->nr_segs++];
	s->cpu = (uint16_t)cpu;
	s->start_ns = start;
	s->end_ns = end;
	s->idle = (int16_t)idle;
	s->opp = (int16_t)opp;
	return 0;
}

/* Close @cpu's current stretch at @now for the timeline. */
static int rep_seg_close(struct rep_result *r, struct rep_replay *p, u32 cpu, u64 now)
{
	const struct sp_state *st = p->st;
	s32 idle = st->cpu[cpu].idle_state;
	int opp = -1, ret;

	if (idle == SP_CPU_AWAKE)
		opp = (int)sp_energy_pd_opp(p->m, st, now, p->m->cpu_pd[cpu], 0, 0);
	ret = rep_seg_push(r, cpu, p->seg_start[cpu], now, idle == SP_CPU_AWAKE ? -1 : idle,
			   opp);
	p->seg_start[cpu] = now;
	return ret;
}

static void rep_enter(struct rep_replay *p, u32 cpu, u32 idx, u64 now)
{
	sp_acct_enter(p->acct, p->st, p->m, cpu, idx, now);
	sp_acct_enter(p->acct_flat, p->st_flat, p->flat, cpu, idx, now);
	sp_acct_enter(p->acct_work, p->st_work, p->work, cpu, idx, now);
}

static bool rep_exit(struct rep_replay *p, u32 cpu, u64 now)
{
	bool seen = sp_acct_exit(p->acct, p->st, p->m, cpu, now, NULL);

	sp_acct_exit(p->acct_flat, p->st_flat, p->flat, cpu, now, NULL);
	sp_acct_exit(p->acct_work, p->st_work, p->work, cpu, now, NULL);
	return seen;
}

/* The module's cpu_frequency probe: lowest OPP at or above @khz. */
static void rep_freq(struct rep_replay *p, u32 cpu, u64 khz)
{
	u32 pdi = p->m->cpu_pd[cpu];
	const struct sp_pd *pd = &p->m->pd[pdi];
	u32 k;

	if (!pd->nr_opps)
		return;
	for (k = 0; k + 1 < pd->nr_opps; k++)
		if (pd->opp[k].freq_khz >= khz)
			break;
	p->st->pd_opp[pdi] = (s32)k;
	p->st_flat->pd_opp[pdi] = (s32)k;
	p->st_work->pd_opp[pdi] = (s32)k;
}

/* Each pd's frequency at the start, from the sp_freq markers (the DOC block). */
static void rep_initial_freqs(struct rep_replay *p, const struct rep_trace *t)
{
	const struct sp_model *m = p->m;
	bool seen[SP_MAX_PDS] = { false };
	unsigned long long khz;
	unsigned int cpu;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct rep_event *e = &t->ev[i];

		if (e->kind == REP_EV_CPU_FREQ && e->pw.cpu >= 0 && (u32)e->pw.cpu < m->nr_cpus) {
			seen[m->cpu_pd[e->pw.cpu]] = true;
		} else if (e->kind == REP_EV_MARKER &&
			   sscanf(e->mark, "sp_freq cpu=%u khz=%llu", &cpu, &khz) == 2 &&
			   cpu < m->nr_cpus && !seen[m->cpu_pd[cpu]]) {
			seen[m->cpu_pd[cpu]] = true;
			rep_freq(p, cpu, khz);
		}
	}
}

/* Initial idle state of each CPU (see the DOC block). */
static void rep_initial_states(struct rep_replay *p, const struct rep_trace *t, u64 start)
{
	const struct sp_model *m = p->m;
	int32_t first[SP_MAX_CPUS];	/* -1 none, -2 exit first, else entry index */
	int32_t next_entry[SP_MAX_CPUS];
	bool any[SP_MAX_CPUS] = { false };
	size_t i;
	u32 cpu;

	for (cpu = 0; cpu < SP_MAX_CPUS; cpu++) {
		first[cpu] = next_entry[cpu] = -1;
		any[cpu] = t->cpu_seen[cpu / 64] & (1ull << (cpu % 64));
	}
	for (i = 0; i < t->nr; i++) {
		const struct rep_event *e = &t->ev[i];
		int32_t c = e->kind == REP_EV_CPU_IDLE ? e->pw.cpu : e->cpu;

		if (c < 0 || c >= SP_MAX_CPUS)
			continue;
		any[c] = true;
		if (e->kind != REP_EV_CPU_IDLE)
			continue;
		if (e->pw.value == REP_IDLE_EXIT) {
			if (first[c] == -1)
				first[c] = -2;
		} else {
			if (first[c] == -1)
				first[c] = (int32_t)e->pw.value;
			else if (first[c] == -2 && next_entry[c] == -1)
				next_entry[c] = (int32_t)e->pw.value;
		}
	}
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		u32 idx = rep_deepest(m, cpu);

		if (first[cpu] == -2 && next_entry[cpu] >= 0 && !p->idle_deepest)
			idx = (u32)next_entry[cpu];
		if (first[cpu] == -2 || !any[cpu])
			rep_enter(p, cpu, idx, start);
	}
}

/* sp_place()'s wake-up latency of @cpu in the replayed state, us. */
static u64 rep_wake_lat_us(const struct rep_replay *p, u32 cpu)
{
	const struct sp_model *m = p->m;
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
	s32 idx = p->st->cpu[cpu].idle_state;
	u64 lat = 0;
	u32 l;

	if (idx != SP_CPU_AWAKE && pd->nr_idle)
		lat = pd->idle[(u32)idx < pd->nr_idle ? (u32)idx : pd->nr_idle - 1u].exit_latency_us;
	for (l = 0; l < m->nr_levels && l < SP_MAX_LEVELS; l++) {
		u32 g = m->cpu_group[l][cpu];

		if (g >= m->nr_groups || !sp_state_group_idle(p->st, g))
			break;
		lat += m->group[g].exit_latency_us;
	}
	return lat;
}

static void rep_check_bound(struct rep_result *r, const struct rep_replay *p,
			    const struct rep_select *s)
{
	u64 lat;

	if (s->lat_bound_us <= 0 || s->ret_cpu < 0 || (u32)s->ret_cpu >= p->m->nr_cpus)
		return;
	lat = rep_wake_lat_us(p, (u32)s->ret_cpu);
	if (s->ret_cpu == s->policy_cpu && s->queue_us > 0)
		lat += (u64)s->queue_us;
	if (lat > (u64)s->lat_bound_us)
		r->bound_model_violations++;
}

/* Energy so far at @now over all CPUs and groups. */
static int rep_sample(struct rep_result *r, const struct rep_replay *p, u64 now)
{
	const struct sp_model *m = p->m;
	struct rep_sample smp = { .ts_ns = now };
	struct sp_energy_sum s, f;
	u32 cpu, g;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		sp_acct_cpu_sum(p->acct, p->st, m, cpu, now, &s);
		sp_acct_cpu_sum(p->acct_flat, p->st_flat, p->flat, cpu, now, &f);
		smp.busy_nj += s.busy_nj;
		smp.pstate_nj += s.busy_nj > f.busy_nj ? s.busy_nj - f.busy_nj : 0;
		smp.idle_nj += s.idle_nj;
		smp.wake_nj += s.wake_nj;
	}
	for (g = 0; g < m->nr_groups; g++) {
		sp_acct_group_sum(p->acct, p->st, m, g, now, &s);
		smp.shared_nj += s.busy_nj + s.idle_nj;
		smp.shared_wake_nj += s.wake_nj;
	}
	if (r->nr_samples == r->cap_samples) {
		size_t cap = r->cap_samples ? r->cap_samples * 2 : 256;
		struct rep_sample *q = realloc(r->samples, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		r->samples = q;
		r->cap_samples = cap;
	}
	r->samples[r->nr_samples++] = smp;
	return 0;
}

/* Does the cpu_idle event @e change its CPU's state (an exit of a CPU the
 * replay has idle, or an entry)?  Events of CPUs the model lacks do not. */
static bool rep_idle_changes(const struct rep_replay *p, const struct rep_event *e)
{
	if (e->pw.cpu < 0 || (u32)e->pw.cpu >= p->m->nr_cpus)
		return false;
	return e->pw.value != REP_IDLE_EXIT || sp_state_cpu_idle(p->st, (u32)e->pw.cpu);
}

/* The state change of the cpu_idle event @e, once rep_idle_changes() said so. */
static void rep_idle_apply(struct rep_replay *p, const struct rep_event *e)
{
	u32 cpu = (u32)e->pw.cpu;

	if (e->pw.value == REP_IDLE_EXIT)
		rep_exit(p, cpu, e->ts_ns);
	else if (p->idle_deepest)
		rep_enter(p, cpu, rep_deepest(p->m, cpu), e->ts_ns);
	else
		rep_enter(p, cpu, (u32)(e->pw.value > 0xffff ? 0xffff : e->pw.value), e->ts_ns);
}

static int rep_on_cpu_idle(struct rep_result *r, struct rep_replay *p,
			   const struct rep_event *e)
{
	int ret;

	if (!rep_idle_changes(p, e)) {
		r->idle_exits_unseen += e->pw.cpu >= 0 && (u32)e->pw.cpu < p->m->nr_cpus;
		return 0;
	}
	ret = rep_seg_close(r, p, (u32)e->pw.cpu, e->ts_ns);
	rep_idle_apply(p, e);
	return ret;
}

static void rep_pkgs(struct rep_result *r, const struct rep_replay *p, u64 end)
{
	const struct sp_model *m = p->m;
	u32 lvl, g, i, cpu;

	if (!m->nr_levels)
		return;
	lvl = p->pkg_level;
	snprintf(r->pkg_level, sizeof(r->pkg_level), "%s", m->level[lvl].name);
	for (g = m->level[lvl].first_group;
	     g < (u32)m->level[lvl].first_group + m->level[lvl].nr_groups && r->nr_pkgs < SP_MAX_GROUPS;
	     g++) {
		struct rep_pkg *pk = &r->pkg[r->nr_pkgs++];
		uint64_t mask[(SP_MAX_CPUS + 63) / 64] = { 0 };

		pk->group = g;
		pk->id = m->group[g].id;
		sp_acct_group_sum(p->acct, p->st, m, g, end, &pk->grp);
		for (i = 0; i < m->group[g].nr_cpus; i++) {
			cpu = m->group_cpus[m->group[g].cpu_off + i];
			if (cpu >= m->nr_cpus)
				continue;
			mask[cpu / 64] |= 1ull << (cpu % 64);
			pk->busy_nj += r->cpu_sum[cpu].busy_nj;
			pk->pstate_nj += r->cpu_pstate_nj[cpu];
			pk->idle_nj += r->cpu_sum[cpu].idle_nj;
			pk->wake_nj += r->cpu_sum[cpu].wake_nj;
			pk->cpu_wakeups += r->cpu_sum[cpu].wakeups;
		}
		rep_cpus_str(mask, m->nr_cpus, pk->cpus, sizeof(pk->cpus));
		r->total_nj += pk->grp.busy_nj + pk->grp.idle_nj + pk->grp.wake_nj;
	}
	/* groups of the other levels count in the total too */
	for (g = 0; g < m->nr_groups; g++) {
		struct sp_energy_sum s;

		if (m->group[g].level == lvl)
			continue;
		sp_acct_group_sum(p->acct, p->st, m, g, end, &s);
		r->total_nj += s.busy_nj + s.idle_nj + s.wake_nj;
	}
}

/* The groups' shared power above @cpu while awake rather than asleep, uW. */
static u64 rep_cpu_shared_uw(const struct sp_model *m, u32 cpu)
{
	u64 uw = 0;
	u32 l, g;

	for (l = 0; l < m->nr_levels && l < SP_MAX_LEVELS; l++) {
		g = m->cpu_group[l][cpu];
		if (g < m->nr_groups && m->group[g].active_uw > m->group[g].idle_uw)
			uw += m->group[g].active_uw - m->group[g].idle_uw;
	}
	return uw;
}

/* How much longer @us of work at @o lasts on hardware than at capacity 1024. */
static u64 rep_extra_us(const struct sp_opp *o, u64 us)
{
	if (!o->cap || o->cap >= SP_CAP_SCALE)
		return 0;
	return us * (SP_CAP_SCALE - o->cap) / o->cap;
}

/*
 * The stretch bound of @cpu (the DOC block): its busy time per OPP, the
 * open stretch (@busy_us beyond the closed ones) at the pd's OPP now,
 * lengthened by (1024 - cap) / cap, at the shared power of its groups.
 */
static u64 rep_stretch_nj(const struct rep_replay *p, u32 cpu, u64 busy_us)
{
	const struct sp_model *m = p->work;
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
	const u64 *opp_us = p->acct_work->cpu[cpu].busy_opp_us;
	u64 extra_us = 0, closed = 0;
	u32 k, open = sp_state_pd_opp(p->st_work, m, m->cpu_pd[cpu]);

	for (k = 0; k < pd->nr_opps && k < SP_MAX_OPPS; k++) {
		closed += opp_us[k];
		extra_us += rep_extra_us(&pd->opp[k], opp_us[k]);
	}
	if (busy_us > closed && open < pd->nr_opps)
		extra_us += rep_extra_us(&pd->opp[open], busy_us - closed);
	return extra_us * rep_cpu_shared_uw(m, cpu) / 1000;
}

/* The estimator's totals: the work replay's CPU and group terms. */
static void rep_work_totals(struct rep_result *r, const struct rep_replay *p, u64 end)
{
	const struct sp_model *m = p->work;
	struct sp_energy_sum s;
	u32 cpu, g;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		sp_acct_cpu_sum(p->acct_work, p->st_work, m, cpu, end, &s);
		r->work_busy_nj += s.busy_nj;
		r->work_total_nj += s.busy_nj + s.idle_nj + s.wake_nj;
		r->work_stretch_nj += rep_stretch_nj(p, cpu, s.busy_us);
	}
	for (g = 0; g < m->nr_groups; g++) {
		sp_acct_group_sum(p->acct_work, p->st_work, m, g, end, &s);
		r->work_total_nj += s.busy_nj + s.idle_nj + s.wake_nj;
	}
}

static void rep_totals(struct rep_result *r, const struct rep_replay *p, u64 end)
{
	const struct sp_model *m = p->m;
	struct sp_energy_sum f;
	u32 cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sp_energy_sum *s = &r->cpu_sum[cpu];

		sp_acct_cpu_sum(p->acct, p->st, m, cpu, end, s);
		sp_acct_cpu_sum(p->acct_flat, p->st_flat, p->flat, cpu, end, &f);
		r->cpu_pstate_nj[cpu] = s->busy_nj > f.busy_nj ? s->busy_nj - f.busy_nj : 0;
		r->total_nj += s->busy_nj + s->idle_nj + s->wake_nj;
	}
	rep_pkgs(r, p, end);
	rep_work_totals(r, p, end);
}

static bool rep_all_pkgs_awake(const struct rep_replay *p)
{
	const struct sp_level *lv = &p->m->level[p->pkg_level];
	u32 g;

	for (g = lv->first_group; g < (u32)lv->first_group + lv->nr_groups; g++)
		if (sp_state_group_idle(p->st, g))
			return false;
	return true;
}

/* Adds the time from the last event to @now, clipped to the span, to
 * all_pkgs_awake_ns if every package was awake in it. */
static void rep_all_awake_until(struct rep_result *r, struct rep_replay *p, u64 now)
{
	u64 from = p->all_awake_from_ns > r->start_ns ? p->all_awake_from_ns : r->start_ns;
	u64 to = now < r->end_ns ? now : r->end_ns;

	if (p->m->nr_levels && to > from && rep_all_pkgs_awake(p))
		r->all_pkgs_awake_ns += to - from;
	p->all_awake_from_ns = now;
}

static int rep_replay_events(struct rep_result *r, struct rep_replay *p,
			     const struct rep_trace *t, uint32_t nr_samples)
{
	u64 span = r->end_ns - r->start_ns, next = r->start_ns;
	bool reset = false;
	uint32_t k = 0;
	size_t i;
	int ret = 0;

	for (i = 0; i < t->nr && !ret && t->ev[i].ts_ns <= r->end_ns; i++) {
		const struct rep_event *e = &t->ev[i];

		if (!reset && e->ts_ns >= r->start_ns) {
			sp_acct_reset(p->acct, r->start_ns);
			sp_acct_reset(p->acct_flat, r->start_ns);
			sp_acct_reset(p->acct_work, r->start_ns);
			reset = true;
		}
		while (reset && k < nr_samples && next < e->ts_ns && !ret) {
			ret = rep_sample(r, p, next);
			k++;
			next = r->start_ns + span * k / (nr_samples - 1u);
		}
		if (e->kind == REP_EV_CPU_IDLE) {
			rep_all_awake_until(r, p, e->ts_ns);
			ret = rep_on_cpu_idle(r, p, e);
		}
		else if (e->kind == REP_EV_CPU_FREQ && e->pw.cpu >= 0 &&
			 (u32)e->pw.cpu < p->m->nr_cpus)
			rep_freq(p, (u32)e->pw.cpu, e->pw.value);
		else if (e->kind == REP_EV_SELECT)
			rep_check_bound(r, p, &e->sel);
	}
	if (!reset) {
		sp_acct_reset(p->acct, r->start_ns);
		sp_acct_reset(p->acct_flat, r->start_ns);
		sp_acct_reset(p->acct_work, r->start_ns);
	}
	rep_all_awake_until(r, p, r->end_ns);
	while (k < nr_samples && !ret) {
		ret = rep_sample(r, p, next);
		k++;
		next = r->start_ns + span * k / (nr_samples - 1u);
	}
	return ret;
}

/* Every CPU's state at the first event of @t (the DOC block); returns its time. */
static u64 rep_replay_start(struct rep_replay *p, const struct rep_trace *t)
{
	u64 first = t->ev[0].ts_ns;
	u32 cpu;

	sp_state_init(p->st, p->m, first);
	sp_state_init(p->st_flat, p->flat, first);
	sp_state_init(p->st_work, p->work, first);
	sp_acct_reset(p->acct, first);
	sp_acct_reset(p->acct_flat, first);
	sp_acct_reset(p->acct_work, first);
	p->all_awake_from_ns = first;
	for (cpu = 0; cpu < SP_MAX_CPUS; cpu++)
		p->seg_start[cpu] = first;
	rep_initial_freqs(p, t);
	rep_initial_states(p, t, first);
	return first;
}

int rep_replay(struct rep_result *r, const struct rep_trace *t, const struct sp_model *m,
	       uint32_t nr_samples)
{
	struct rep_replay *p = calloc(1, sizeof(*p));
	u32 cpu;
	int ret;

	if (!p)
		return -ENOMEM;
	ret = rep_replay_alloc(p, m);
	p->idle_deepest = r->idle_deepest;
	r->model_cpus = m->nr_cpus;
	if (ret || !t->fmt.has_cpu_idle || !t->nr)
		goto out;
	r->energy = true;
	rep_replay_start(p, t);
	ret = rep_replay_events(r, p, t, nr_samples < 2 ? 2 : nr_samples);
	for (cpu = 0; cpu < m->nr_cpus && !ret; cpu++)
		ret = rep_seg_close(r, p, cpu, r->end_ns);
	if (!ret)
		rep_totals(r, p, r->end_ns);
out:
	rep_replay_free(p);
	free(p);
	return ret;
}

static int rep_flip_push(struct rep_result *r, u64 ts_ns, u32 pkg, bool awake)
{
	struct rep_flip *f;

	if (r->nr_flips == r->cap_flips) {
		size_t cap = r->cap_flips ? r->cap_flips * 2 : 1024;

		f = realloc(r->flips, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		r->flips = f;
		r->cap_flips = cap;
	}
	f = &r->flips[r->nr_flips++];
	f->ts_ns = ts_ns;
	f->pkg = pkg;
	f->awake = awake;
	return 0;
}

/* Package @k (an index among the packages) awake in the replayed state? */
static bool rep_pkg_awake(const struct rep_replay *p, u32 k)
{
	return !sp_state_group_idle(p->st, p->m->level[p->pkg_level].first_group + k);
}

static int rep_flips(struct rep_result *r, struct rep_replay *p, const struct rep_trace *t)
{
	const struct sp_level *lv = &p->m->level[p->pkg_level];
	u64 first = rep_replay_start(p, t);
	size_t i;
	u32 k;
	int ret = 0;

	for (k = 0; k < lv->nr_groups && !ret; k++)
		ret = rep_flip_push(r, first, k, rep_pkg_awake(p, k));
	for (i = 0; i < t->nr && !ret; i++) {
		const struct rep_event *e = &t->ev[i];
		bool was;

		if (e->kind != REP_EV_CPU_IDLE || !rep_idle_changes(p, e))
			continue;
		k = p->m->cpu_group[p->pkg_level][e->pw.cpu] - lv->first_group;
		if (k >= lv->nr_groups)
			continue;
		was = rep_pkg_awake(p, k);
		rep_idle_apply(p, e);
		if (rep_pkg_awake(p, k) != was)
			ret = rep_flip_push(r, e->ts_ns, k, !was);
	}
	return ret;
}

int rep_awake_timeline(struct rep_result *r, const struct rep_trace *t, const struct sp_model *m)
{
	struct rep_replay *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	ret = rep_replay_alloc(p, m);
	p->idle_deepest = r->idle_deepest;
	if (!ret && t->fmt.has_cpu_idle && t->nr && m->nr_levels) {
		ret = rep_flips(r, p, t);
		r->awake_known = !ret;
	}
	rep_replay_free(p);
	free(p);
	return ret;
}
