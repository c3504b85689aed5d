// SPDX-License-Identifier: GPL-2.0
/*
 * sp_acct.c - idle-prediction accuracy and modelled energy from idle events.
 *
 * DOC: how well idle was predicted
 *
 * An idle governor picks a state when a CPU goes idle; the state pays off
 * only if the CPU then stays at least the state's target residency.  For
 * every completed stay of residency r in state s sp_acct_exit() gives the
 * verdict of sp_acct.h: early (r < target of s: the governor went too
 * deep), late (r >= target of the next deeper state: it could have gone
 * deeper) or hit.  Counts and total residency are kept per CPU and per
 * state; their ratios are the governor's accuracy.  The states and targets
 * are the model's (which come from the cpuidle driver where there is one),
 * so a board without a cpuidle driver is classified against the model.
 *
 * DOC: energy without a power meter
 *
 * The same events integrate the model over time.  A CPU between an idle
 * exit and the next entry is busy: it is charged the busy power of its
 * pd's OPP at the entry (the OPP cpufreq last reported, else the one its
 * utilisation asks for, sp_energy_pd_opp()) for the whole stretch.  A CPU in
 * state s is charged that state's power, and each exit one wakeup_uj of s.
 * A group is charged active_uw while any of its CPUs is awake, idle_uw
 * while all are idle, and its wakeup_uj each time a CPU wakes it.  Units:
 * nJ = uW * us / 1000.
 *
 * Every stretch is clipped to start no earlier than the last reset, and the
 * sums (sp_acct_cpu_sum()) add the stretch still open, so that busy_us +
 * idle_us of a CPU equals the wall time since reset.  The CPU an event is
 * about is the only writer of its entry; a reset races with events in
 * flight and may lose one of them, which is documented, not prevented.
 */
#include "sp_acct.h"
#include "sp_energy.h"

/* names in list order: the list defines the enum in the same order */
#undef EM
#undef EMe
#define EM(a, b)	b,
#define EMe(a, b)	b
const char *const sp_verdict_names[SP_V_NR] = SP_ENUM_NAMES(SP_VERDICT_LIST);
#undef EM
#undef EMe

static u32 sp_acct_clamp_idx(const struct sp_pd *pd, u32 idx)
{
	if (!pd->nr_idle)
		return 0;
	return idx < pd->nr_idle ? idx : pd->nr_idle - 1u;
}

u32 sp_acct_verdict(const struct sp_pd *pd, u32 idx, u64 residency_us)
{
	if (!pd->nr_idle)
		return SP_V_HIT;
	idx = sp_acct_clamp_idx(pd, idx);
	if (residency_us < pd->idle[idx].target_residency_us)
		return SP_V_EARLY;
	if (idx + 1u < pd->nr_idle &&
	    residency_us >= pd->idle[idx + 1u].target_residency_us)
		return SP_V_LATE;
	return SP_V_HIT;
}

void sp_acct_reset(struct sp_acct *a, u64 now_ns)
{
	u32 i;

	memset(a->cpu, 0, sizeof(a->cpu));
	for (i = 0; i < SP_MAX_GROUPS; i++) {
		sp_atomic64_set(&a->group[i].active_nj, 0);
		sp_atomic64_set(&a->group[i].idle_nj, 0);
		sp_atomic64_set(&a->group[i].wake_nj, 0);
		sp_atomic64_set(&a->group[i].wakeups, 0);
		sp_atomic64_set(&a->group[i].active_us, 0);
		sp_atomic64_set(&a->group[i].idle_us, 0);
	}
	SP_WRITE_ONCE(a->reset_ns, now_ns);
}

/* Microseconds from max(@since_ns, reset) to @now_ns, 0 if negative. */
static u64 sp_acct_stretch_us(const struct sp_acct *a, u64 since_ns, u64 now_ns)
{
	u64 from = since_ns > SP_READ_ONCE(a->reset_ns) ? since_ns :
		   SP_READ_ONCE(a->reset_ns);

	return now_ns > from ? sp_div_u64(now_ns - from, 1000) : 0;
}

/*
 * nJ of @uw over @us without overflow: uw * us wraps a u64 after 15 h at
 * 350 W, (uw / 1000) * us only after 1.6 years.
 */
static u64 sp_acct_nj(u32 uw, u64 us)
{
	return (u64)(uw / 1000) * us + sp_div_u64((u64)(uw % 1000) * us, 1000);
}

/* Busy power of one CPU of @pd right now, uW. */
static u32 sp_acct_busy_uw(const struct sp_model *m, const struct sp_state *st,
			   u32 pdi, u64 now_ns)
{
	const struct sp_pd *pd = &m->pd[pdi];

	if (!pd->nr_opps)
		return 0;
	return pd->opp[sp_energy_pd_opp(m, st, now_ns, pdi, 0, 0)].power_uw;
}

static bool sp_acct_cpu_ok(const struct sp_model *m, u32 cpu)
{
	return cpu < m->nr_cpus && cpu < SP_MAX_CPUS;
}

void sp_acct_enter(struct sp_acct *a, struct sp_state *st,
		   const struct sp_model *m, u32 cpu, u32 idx, u64 now_ns)
{
	struct sp_acct_cpu *ac;
	const struct sp_pd *pd;
	u32 changed, l;

	if (!sp_acct_cpu_ok(m, cpu))
		return;
	ac = &a->cpu[cpu];
	pd = &m->pd[m->cpu_pd[cpu]];
	idx = sp_acct_clamp_idx(pd, idx);
	if (!sp_state_cpu_idle(st, cpu)) {
		u64 us = sp_acct_stretch_us(a, st->cpu[cpu].busy_since_ns, now_ns);

		ac->busy_us += us;
		ac->busy_nj += sp_acct_nj(sp_acct_busy_uw(m, st, m->cpu_pd[cpu], now_ns), us);
	}
	changed = sp_state_idle_enter(st, m, cpu, idx, now_ns);
	for (l = 0; changed && l < m->nr_levels; l++) {
		u32 g = m->cpu_group[l][cpu];
		u64 us;

		if (!(changed & (1u << l)))
			continue;
		us = sp_acct_stretch_us(a, SP_READ_ONCE(st->group[g].awake_since_ns), now_ns);
		sp_atomic64_add(&a->group[g].active_nj,
				(s64)sp_acct_nj(m->group[g].active_uw, us));
		sp_atomic64_add(&a->group[g].active_us, (s64)us);
	}
}

static void sp_acct_charge_woken(struct sp_acct *a, const struct sp_state *st,
				 const struct sp_model *m, u32 cpu, u32 changed,
				   u64 now_ns)
{
	u32 l;

	for (l = 0; changed && l < m->nr_levels; l++) {
		u32 g = m->cpu_group[l][cpu];
		struct sp_acct_group *ag = &a->group[g];
		u64 us;

		if (!(changed & (1u << l)))
			continue;
		us = sp_acct_stretch_us(a, SP_READ_ONCE(st->group[g].idle_since_ns), now_ns);
		sp_atomic64_add(&ag->idle_nj, (s64)sp_acct_nj(m->group[g].idle_uw, us));
		sp_atomic64_add(&ag->idle_us, (s64)us);
		sp_atomic64_add(&ag->wake_nj, (s64)m->group[g].wakeup_uj * 1000);
		sp_atomic64_add(&ag->wakeups, 1);
	}
}

bool sp_acct_exit(struct sp_acct *a, struct sp_state *st,
		  const struct sp_model *m, u32 cpu, u64 now_ns,
		  struct sp_idle_exit_info *out)
{
	const struct sp_cpu_state *c;
	struct sp_acct_cpu *ac;
	struct sp_idle_stat *s;
	const struct sp_pd *pd;
	u64 since, res, us;
	u32 idx, v;

	if (!sp_acct_cpu_ok(m, cpu) || !sp_state_cpu_idle(st, cpu))
		return false;
	c = &st->cpu[cpu];
	ac = &a->cpu[cpu];
	pd = &m->pd[m->cpu_pd[cpu]];
	idx = sp_acct_clamp_idx(pd, (u32)SP_READ_ONCE(c->idle_state));
	since = SP_READ_ONCE(c->idle_since_ns);
	res = now_ns > since ? sp_div_u64(now_ns - since, 1000) : 0;
	us = sp_acct_stretch_us(a, since, now_ns);
	v = sp_acct_verdict(pd, idx, res);

	s = &ac->state[idx];
	s->entries++;
	s->residency_us += us;
	s->verdict[v]++;
	ac->idle_us += us;
	ac->exits++;
	if (pd->nr_idle) {
		ac->idle_nj += sp_acct_nj(pd->idle[idx].power_uw, us);
		ac->wake_nj += (u64)pd->idle[idx].wakeup_uj * 1000;
	}
	sp_acct_charge_woken(a, st, m, cpu, sp_state_idle_exit(st, m, cpu, now_ns),
			     now_ns);
	if (out) {
		out->state = idx;
		out->target_us = pd->nr_idle ? pd->idle[idx].target_residency_us : 0;
		out->residency_us = res;
		out->verdict = v;
	}
	return true;
}

void sp_acct_cpu_sum(const struct sp_acct *a, const struct sp_state *st,
		     const struct sp_model *m, u32 cpu, u64 now_ns,
		     struct sp_energy_sum *s)
{
	const struct sp_acct_cpu *ac = &a->cpu[cpu];
	const struct sp_cpu_state *c = &st->cpu[cpu];
	const struct sp_pd *pd;
	u64 us;

	memset(s, 0, sizeof(*s));
	if (!sp_acct_cpu_ok(m, cpu))
		return;
	pd = &m->pd[m->cpu_pd[cpu]];
	s->busy_us = SP_READ_ONCE(ac->busy_us);
	s->idle_us = SP_READ_ONCE(ac->idle_us);
	s->busy_nj = SP_READ_ONCE(ac->busy_nj);
	s->idle_nj = SP_READ_ONCE(ac->idle_nj);
	s->wake_nj = SP_READ_ONCE(ac->wake_nj);
	s->wakeups = SP_READ_ONCE(ac->exits);
	if (sp_state_cpu_idle(st, cpu)) {
		u32 idx = sp_acct_clamp_idx(pd, (u32)SP_READ_ONCE(c->idle_state));

		us = sp_acct_stretch_us(a, SP_READ_ONCE(c->idle_since_ns), now_ns);
		s->idle_us += us;
		if (pd->nr_idle)
			s->idle_nj += sp_acct_nj(pd->idle[idx].power_uw, us);
	} else {
		us = sp_acct_stretch_us(a, SP_READ_ONCE(c->busy_since_ns), now_ns);
		s->busy_us += us;
		s->busy_nj += sp_acct_nj(sp_acct_busy_uw(m, st, m->cpu_pd[cpu], now_ns), us);
	}
}

void sp_acct_group_sum(const struct sp_acct *a, const struct sp_state *st,
		       const struct sp_model *m, u32 g, u64 now_ns,
		       struct sp_energy_sum *s)
{
	const struct sp_acct_group *ag = &a->group[g];
	const struct sp_group_state *gs = &st->group[g];
	u64 us;

	memset(s, 0, sizeof(*s));
	if (g >= m->nr_groups)
		return;
	s->busy_nj = (u64)sp_atomic64_read(&ag->active_nj);
	s->idle_nj = (u64)sp_atomic64_read(&ag->idle_nj);
	s->wake_nj = (u64)sp_atomic64_read(&ag->wake_nj);
	s->wakeups = (u64)sp_atomic64_read(&ag->wakeups);
	s->busy_us = (u64)sp_atomic64_read(&ag->active_us);
	s->idle_us = (u64)sp_atomic64_read(&ag->idle_us);
	if (sp_state_group_idle(st, g)) {
		us = sp_acct_stretch_us(a, SP_READ_ONCE(gs->idle_since_ns), now_ns);
		s->idle_us += us;
		s->idle_nj += sp_acct_nj(m->group[g].idle_uw, us);
	} else {
		us = sp_acct_stretch_us(a, SP_READ_ONCE(gs->awake_since_ns), now_ns);
		s->busy_us += us;
		s->busy_nj += sp_acct_nj(m->group[g].active_uw, us);
	}
}
