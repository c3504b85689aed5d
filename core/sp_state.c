// SPDX-License-Identifier: GPL-2.0
/*
 * sp_state.c - the snapshot: PELT-like utilisation and idle/awake counters.
 */

/**
 * DOC: utilisation without the scheduler's private data
 *
 * A module cannot read the run queues' PELT sums (cpu_util_cfs() is private),
 * so sched_power keeps its own per-CPU utilisation from what the idle hook
 * sees: a CPU is busy between an idle exit and the next idle entry.  The
 * average follows PELT's shape: over dt us::
 *
 *	u' = u * y^dt + cap * (1 - y^dt) * busy,	y^32000 = 1/2
 *
 * where cap is the capacity the CPU ran at (cap_k of its pd's OPP, as given
 * by sp_state_set_cap(); the CPU's full capacity until told otherwise).  So
 * a CPU busy at full capacity for 32 ms climbs from 0 to 512, one idle for
 * 32 ms halves, and the average is frequency invariant as PELT's is: work
 * that keeps a CPU busy half the time at OPP k reads cap_k / 2, which is the
 * same work rate at every OPP.  (PELT scales time rather than the rate, so
 * a CPU saturated at a low OPP reads 1024 there and cap_k here; schedutil's
 * 1.25 headroom still moves it up an OPP.)
 * y^dt is 2^-(dt/32000): whole half-lives are a shift, the rest comes from a
 * 33-entry table of 2^-(j/32) in Q32 with linear interpolation between
 * entries, whose error is below 2^-10 of the exact value (tests/test_state.c
 * checks it against the closed form at many points).
 *
 * Group counters: every group holds the number of its CPUs that are awake
 * or idle in a state shallower than their pd's deepest (a package stays up
 * while one of its cores halts in C1); the CPU that takes it to zero stamps
 * idle_since_ns.  Each CPU writes only its own entry; group counters are
 * atomics, so CPUs of one package can enter and leave idle concurrently.
 * The CPU that moves a counter through zero also folds the group's awake
 * fraction (awake_avg), the same average with a half-life of
 * SP_GROUP_HALFLIFE_US: a package woken for 1 ms every 10 ms reads about
 * 102, one kept up reads 1024.  Any other idle entry or exit of a CPU of an
 * awake group folds it forward too when its stamp is over SP_STALE_NS old,
 * so that readers can take it as stored (sp_state.h).
 *
 * Readers take a CPU's utilisation and a group's awake fraction as stored
 * while the stamp is at most SP_STALE_NS old, and bring only older ones
 * forward: the wake-up path reads without decaying in the common case.
 *
 * Work in flight: the wake-up hook calls sp_state_note_decision() for the
 * CPU it hands a task to, from any CPU (an atomic sum and a time stamp); the
 * CPU's next idle entry clears it, and a reader ignores a sum whose last
 * placement is over SP_PENDING_NS old.  The same call keeps the deciding
 * CPU's latency budget (sp_state.h).
 */
#include "sp_state.h"

#define SP_Q32		0x100000000ULL	/* 2^32 */

/* 2^-(j/32) in Q32 for j = 0..32, rounded. */
const u64 sp_state_decay_q32[33] = {
	0x100000000, 0xfa83b2db, 0xf5257d15, 0xefe4b99c, 0xeac0c6e8, 0xe5b906e7,
	0xe0ccdeec, 0xdbfbb798, 0xd744fccb, 0xd2a81d92, 0xce248c15, 0xc9b9bd86,
	0xc5672a11, 0xc12c4cca, 0xbd08a39f, 0xb8fbaf47, 0xb504f334, 0xb123f582,
	0xad583eea, 0xa9a15ab5, 0xa5fed6aa, 0xa2704303, 0x9ef53261, 0x9b8d39ba,
	0x9837f052, 0x94f4efa9, 0x91c3d374, 0x8ea4398b, 0x8b95c1e4, 0x88980e81,
	0x85aac368, 0x82cd8699, 0x80000000,
};

/*
 * Per j: sp_state_decay_q32[j], and its step to j + 1 over 1000 us in Q20,
 * rounded up: ceil((q32[j] - q32[j + 1]) * 2^20 / 1000).
 */
const struct sp_state_decay_table sp_state_decay_steps = {
	.q32 = {
		SP_Q32_ONE, 0xfa83b2db, 0xf5257d15, 0xefe4b99c, 0xeac0c6e8,
		0xe5b906e7, 0xe0ccdeec, 0xdbfbb798, 0xd744fccb, 0xd2a81d92,
		0xce248c15, 0xc9b9bd86, 0xc5672a11, 0xc12c4cca, 0xbd08a39f,
		0xb8fbaf47, 0xb504f334, 0xb123f582, 0xad583eea, 0xa9a15ab5,
		0xa5fed6aa, 0xa2704303, 0x9ef53261, 0x9b8d39ba, 0x9837f052,
		0x94f4efa9, 0x91c3d374, 0x8ea4398b, 0x8b95c1e4, 0x88980e81,
		0x85aac368, 0x82cd8699,
	},
	.step_q20 = {
		SP_STATE_DECAY_STEP0_Q20, 0x15fcc3ae15, 0x158426cccd, 0x150e1f8d50,
		0x149a9fc290, 0x142999851f, 0x13baff4bc7, 0x134ec3cac1,
		0x12e4da0000, 0x127d353334, 0x1217c8f1aa, 0x11b4890a3e,
		0x1153699582, 0x10f45ee561, 0x10975d9169, 0x103c5a6a7f,
		0xfe34a872c, 0xf8c233334, 0xf36d9ef9e, 0xee364872c,
		0xe91b8f1aa, 0xe41cd5811, 0xdf3982d0f, 0xda7100000,
		0xd5c2ba9fc, 0xd12e220c5, 0xccb2aa3d8, 0xc84fc872c,
		0xc404f6873, 0xbfd1b0625, 0xbbb5747af, 0xb7afc4dd3,
	},
};

u32 sp_state_decay_cap(u32 util, u64 dt_us, u32 cap)
{
	return sp_state_decay_us(util, dt_us, cap);
}

u32 sp_state_decay(u32 util, u64 dt_us, bool busy)
{
	return sp_state_decay_us(util, dt_us, busy ? SP_CAP_SCALE : 0);
}

/* The rate @c's utilisation moves towards now: its capacity if busy, else 0. */
static u32 sp_state_cpu_rate(const struct sp_cpu_state *c)
{
	if (SP_READ_ONCE(c->idle_state) != SP_CPU_AWAKE)
		return 0;
	return SP_READ_ONCE(c->cap);
}

u32 sp_state_cpu_util(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	const struct sp_cpu_state *c = &st->cpu[cpu];
	u32 util = SP_READ_ONCE(c->util);
	u64 stamp = SP_READ_ONCE(c->util_stamp_ns);
	u32 rate;

	if (now_ns <= stamp)
		return util;
	rate = sp_state_cpu_rate(c);
	if (util == rate && util <= SP_CAP_SCALE)
		return util;	/* at its rate already: decay leaves it there */
	return sp_state_decay_cap(util, sp_div_u64(now_ns - stamp, 1000), rate);
}

/* Fold @c's utilisation up to @now_ns at its current rate and restamp. */
static void sp_state_cpu_fold(struct sp_cpu_state *c, u64 now_ns)
{
	u64 dt_us;

	if (now_ns > c->util_stamp_ns) {
		dt_us = sp_div_u64(now_ns - c->util_stamp_ns, 1000);
		SP_WRITE_ONCE(c->util, sp_state_decay_cap(c->util, dt_us, sp_state_cpu_rate(c)));
	}
	SP_WRITE_ONCE(c->util_stamp_ns, now_ns);
}

void sp_state_set_cap(struct sp_state *st, u32 cpu, u32 cap, u64 now_ns)
{
	struct sp_cpu_state *c;

	if (cpu >= SP_MAX_CPUS)
		return;
	c = &st->cpu[cpu];
	sp_state_cpu_fold(c, now_ns);
	SP_WRITE_ONCE(c->cap, cap > SP_CAP_SCALE ? SP_CAP_SCALE : cap);
}

static u32 sp_state_full_cap(const struct sp_model *m, u32 cpu)
{
	const struct sp_pd *pd;

	if (cpu >= m->nr_cpus || m->cpu_pd[cpu] >= m->nr_pds)
		return SP_CAP_SCALE;
	pd = &m->pd[m->cpu_pd[cpu]];
	if (!pd->nr_opps || pd->opp[pd->nr_opps - 1].cap > SP_CAP_SCALE)
		return SP_CAP_SCALE;
	return pd->opp[pd->nr_opps - 1].cap;
}

void sp_state_init(struct sp_state *st, const struct sp_model *m, u64 now_ns)
{
	u32 i;

	memset(st, 0, sizeof(*st));
	st->nr_cpus = m->nr_cpus;
	for (i = 0; i < SP_MAX_PDS; i++)
		st->pd_opp[i] = SP_OPP_MODELLED;
	for (i = 0; i < SP_MAX_CPUS; i++) {
		st->cpu[i].idle_state = SP_CPU_AWAKE;
		st->cpu[i].cap = sp_state_full_cap(m, i);
		st->cpu[i].util_stamp_ns = now_ns;
		st->cpu[i].busy_since_ns = now_ns;
		st->cpu[i].lat_tokens = 0;	/* earned before spent */
	}
	sp_state_resync(st, m, now_ns);
}

void sp_state_resync(struct sp_state *st, const struct sp_model *m, u64 now_ns)
{
	u32 g, i;

	st->nr_cpus = m->nr_cpus;
	for (i = 0; i < m->nr_pds; i++)
		st->pd_req[i] = sp_state_pd_req_scan(st, m, i);
	for (i = 0; i < SP_MAX_CPUS; i++) {
		const struct sp_pd_idle *pi = &m->pd_idle[i < m->nr_cpus ? m->cpu_pd[i] : 0];
		struct sp_cpu_state *c = &st->cpu[i];

		for (g = 0; g < SP_MAX_LEVELS; g++)
			c->group_off[g] = i < m->nr_cpus && g < m->nr_levels ?
				(u16)(m->cpu_group[g][i] * sizeof(struct sp_group_state)) : 0;
		c->req_urange = sp_model_pd_urange(pi, st->opp_req[i]);
		c->opp_clamp = pi->opp_clamp;
		c->deepest = pi->deepest;
		c->sleep_from = i < m->nr_cpus ? sp_state_sleep_from(&m->pd[m->cpu_pd[i]]) : 0;
	}
	for (g = 0; g < m->nr_groups; g++) {
		const struct sp_group *gr = &m->group[g];
		int awake = 0;

		for (i = 0; i < gr->nr_cpus; i++) {
			u32 cpu = m->group_cpus[gr->cpu_off + i];

			if (!sp_state_is_deepest(m, cpu, st->cpu[cpu].idle_state))
				awake++;
		}
		sp_atomic_set(&st->group[g].nr_awake, awake);
		st->group[g].awake_avg = 0;
		st->group[g].avg_stamp_ns = now_ns;
		if (!awake)
			st->group[g].idle_since_ns = now_ns;
		else
			st->group[g].awake_since_ns = now_ns;
	}
}

static bool sp_state_cpu_in_model(const struct sp_model *m, u32 cpu)
{
	return cpu < m->nr_cpus && cpu < SP_MAX_CPUS;
}

void sp_state_group_fold(struct sp_group_state *g, u64 now_ns, bool awake)
{
	sp_state_group_fold_at(g, now_ns, awake);
}

u32 sp_state_group_awake(const struct sp_state *st, u32 g, u64 now_ns)
{
	const struct sp_group_state *gs = &st->group[g];
	u32 avg = SP_READ_ONCE(gs->awake_avg);
	u64 stamp = SP_READ_ONCE(gs->avg_stamp_ns);

	if (now_ns > stamp + SP_STALE_NS)
		avg = sp_state_decay(avg, sp_state_group_dt_us(now_ns - stamp),
				     !sp_state_group_idle(st, g));
	return avg < SP_CAP_SCALE ? avg : SP_CAP_SCALE;
}

u32 sp_state_idle_enter(struct sp_state *st, const struct sp_model *m,
			u32 cpu, u32 idx, u64 now_ns)
{
	const struct sp_pd *pd;

	if (!sp_state_cpu_in_model(m, cpu))
		return 0;
	pd = &m->pd[m->cpu_pd[cpu]];
	if (idx >= pd->nr_idle)		/* past the deepest: the deepest */
		idx = pd->nr_idle ? pd->nr_idle - 1u : 0;
	return sp_state_enter_cpu(st, m, pd, cpu, idx, now_ns);
}

u32 sp_state_idle_exit(struct sp_state *st, const struct sp_model *m,
		       u32 cpu, u64 now_ns)
{
	if (!sp_state_cpu_in_model(m, cpu) || !sp_state_cpu_idle(st, cpu))
		return 0;
	return sp_state_exit_cpu(st, m, &m->pd[m->cpu_pd[cpu]], cpu, now_ns);
}

void sp_state_set_nr_running(struct sp_state *st, u32 cpu, u32 nr, u64 now_ns)
{
	struct sp_cpu_state *c;

	if (cpu >= SP_MAX_CPUS)
		return;
	c = &st->cpu[cpu];
	if (nr >= 2 && SP_READ_ONCE(c->nr_running) < 2)
		SP_WRITE_ONCE(c->overload_since_ns, now_ns);
	SP_WRITE_ONCE(c->nr_running, nr);
}
