/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_state.h - the snapshot the decision core reads: per-CPU utilisation,
 * idle state and OPP, and per-group "how many CPUs keep the group awake".
 *
 * Writers are the idle hook (each CPU writes its own entry on idle entry and
 * exit, and moves the awake counters of the groups above it) and, in the
 * simulator, the event loop.  Readers are the placement hook on any CPU; they
 * tolerate a stale value (a decision is a heuristic), never a torn one, so
 * every field is a naturally aligned word read with SP_READ_ONCE.
 *
 * Group indices are those of the sp_model the state was last synchronised
 * with (sp_state_resync()); after a model swap the kernel resyncs once.
 */
#ifndef SP_STATE_H
#define SP_STATE_H

#include "sp_model.h"

#define SP_CPU_AWAKE		(-1)
#define SP_OPP_MODELLED		(-1)

/* PELT-like utilisation: geometric average of busy time, half-life 32 ms. */
#define SP_UTIL_HALFLIFE_US	32000u

/*
 * A stored average is read as it is while its stamp is at most SP_STALE_NS
 * (one 250 Hz tick) old: the writers fold it forward at every idle entry
 * and exit of the CPU, or of any CPU of the group, so an active CPU or
 * group always has a recent stamp, as PELT's averages are updated at
 * enqueue, dequeue and tick and read as stored.  An older stamp (a CPU that
 * has run one task for longer, a group none of whose CPUs entered or left
 * idle meanwhile) is brought forward to the read time.
 */
#define SP_STALE_NS		4000000ull

/*
 * Work placed on a CPU stays "in flight" until the CPU's own accounting can
 * see it: from the placement until the CPU next enters idle (its queue ran
 * dry), for at most SP_PENDING_NS.  Meanwhile the CPU counts as having
 * queued work and the placed utilisation is added to its own.
 */
#define SP_PENDING_NS		4000000ull	/* one 250 Hz tick */

struct sp_cpu_state {
	u32 util;		/* frequency-invariant utilisation, 0..1024 */
	u32 cap;		/* capacity at the current OPP: busy time accrues at cap/1024 */
	s32 idle_state;		/* SP_CPU_AWAKE or model idle-state index */
	sp_atomic_t pending_util;	/* utilisation placed here, in flight */
	sp_atomic_t pending_nr;		/* tasks placed here, in flight */
	u32 lat_tokens;		/* latency budget of decisions made here */
	u64 idle_since_ns;	/* when it entered idle_state (valid if idle) */
	u64 util_stamp_ns;	/* last time util was brought up to date */
	u64 busy_since_ns;	/* when it last left idle */
	u64 pending_ns;		/* time of the last placement here */
	u32 nr_running;		/* runnable tasks (sp_state_set_nr_running()) */
	u64 overload_since_ns;	/* since when nr_running >= 2, if it is */
} SP_ALIGNED(64);

/*
 * A group is idle only while every one of its CPUs sits in the deepest idle
 * state of its pd: a package whose cores halt in C1 keeps its uncore, LLC
 * and clocks running.  nr_awake counts the CPUs that are awake or in a
 * shallower state; sp_state_group_idle() is nr_awake == 0.
 */
/*
 * awake_avg is the group's awake fraction, 0..1024, a PELT-like average of
 * "awake" (1024) and "asleep" (0) with a half-life of SP_GROUP_HALFLIFE_US,
 * folded at every transition of nr_awake through zero: the probability
 * that the group is awake at a moment unrelated to its own activity.
 */
#define SP_GROUP_HALFLIFE_US	128000u

struct sp_group_state {
	sp_atomic_t nr_awake;	/* CPUs of the group not in their deepest state */
	u32 awake_avg;		/* awake fraction, 0..1024, at avg_stamp_ns */
	u64 idle_since_ns;	/* when nr_awake last dropped to zero */
	u64 awake_since_ns;	/* when nr_awake last rose from zero */
	u64 avg_stamp_ns;	/* awake_avg folded up to here */
} SP_ALIGNED(64);

struct sp_state {
	u32 nr_cpus;
	s32 pd_opp[SP_MAX_PDS];	/* OPP index from cpufreq, or SP_OPP_MODELLED */
	/*
	 * The OPP each CPU's utilisation asked for (schedutil's 1.25 headroom)
	 * when it last entered idle, the end of its last busy stretch, written
	 * by the CPU itself: the OPP a pd runs at is the largest of its CPUs',
	 * unless cpufreq reported a higher one (sp_state_pd_opp()).
	 */
	u8 opp_req[SP_MAX_CPUS];
	struct sp_cpu_state cpu[SP_MAX_CPUS];
	struct sp_group_state group[SP_MAX_GROUPS];
};

/*
 * The OPP index @pd runs at as the idle events last left it: the largest of
 * its CPUs' requests, raised to cpufreq's report if that is higher.  O(CPUs
 * of the pd) byte reads; no utilisation is decayed.
 */
static inline u32 sp_state_pd_opp(const struct sp_state *st, const struct sp_model *m, u32 pdi)
{
	const struct sp_pd *pd = &m->pd[pdi];
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	s32 rep = SP_READ_ONCE(st->pd_opp[pdi]);
	u32 i, k = 0;

	for (i = 0; i < pd->nr_cpus; i++) {
		u32 r = SP_READ_ONCE(st->opp_req[cpus[i]]);

		if (r > k)
			k = r;
	}
	if (rep >= 0 && (u32)rep > k)	/* SP_OPP_MODELLED is negative */
		k = (u32)rep;
	return pd->nr_opps && k >= pd->nr_opps ? pd->nr_opps - 1u : k;
}

/* 2^-(j/32) in Q32 for j = 0..32: the decay's table (sp_state.c). */
extern const u64 sp_state_decay_q32[33];

/*
 * sp_state_decay_cap() without a call: y^dt from the table, the us split
 * into whole ms (the table's index within a half-life, and the number of
 * half-lives) and the us within the ms (linear interpolation).
 */
static inline u32 sp_state_decay_us(u32 util, u64 dt_us, u32 cap)
{
	u64 ms = sp_div_u64(dt_us, 1000), f = 0, u;
	u32 part = (u32)(dt_us - ms * 1000), j = (u32)ms & 31;

	if (ms < 40 * 32) {	/* 40 half-lives leave nothing of the past */
		f = sp_state_decay_q32[j] -
		    sp_div_u64((sp_state_decay_q32[j] - sp_state_decay_q32[j + 1]) * part, 1000);
		f >>= ms >> 5;
	}
	if (cap > SP_CAP_SCALE)
		cap = SP_CAP_SCALE;
	u = (u64)util * f + (u64)cap * (0x100000000ULL - f);
	u = (u + 0x80000000ULL) >> 32;		/* round to nearest */
	return u > SP_CAP_SCALE ? SP_CAP_SCALE : (u32)u;
}

/*
 * Reset @st for @m: every CPU awake with zero utilisation at time @now_ns,
 * at the full capacity of its pd (its highest OPP; 1024 without OPPs).
 */
void sp_state_init(struct sp_state *st, const struct sp_model *m, u64 now_ns);

/* Recompute the group counters of @st from its CPU entries, for model @m. */
void sp_state_resync(struct sp_state *st, const struct sp_model *m, u64 now_ns);

/*
 * Decay @util (0..1024) over @dt_us and add the busy share: the PELT-like
 * average u' = u * y^dt + 1024 * (1 - y^dt) * busy, with y^32ms = 1/2.
 */
u32 sp_state_decay(u32 util, u64 dt_us, bool busy);

/*
 * The same average for a CPU that was busy at capacity @cap (0 = idle):
 * u' = u * y^dt + cap * (1 - y^dt).  A CPU kept busy at OPP k converges to
 * cap_k, so a periodic load reads the same whatever the OPP it ran at
 * (busy share x cap_k = work rate), as PELT's frequency invariance gives.
 */
u32 sp_state_decay_cap(u32 util, u64 dt_us, u32 cap);

/*
 * The capacity @cpu runs at from @now_ns on (cap_k of its pd's current OPP,
 * 0..1024).  Utilisation up to @now_ns is folded in at the old capacity
 * first, so call it when the OPP changes, from a context serialised with
 * @cpu's idle hook (the entry has one writer).  Without a call the CPU
 * stays at full capacity, as on a board without cpufreq.
 */
void sp_state_set_cap(struct sp_state *st, u32 cpu, u32 cap, u64 now_ns);

/*
 * Utilisation of @cpu brought forward to @now_ns without writing it back:
 * a CPU that has been busy since its last idle exit keeps climbing, an idle
 * one keeps decaying.  The exact average, for readouts and the simulator.
 */
u32 sp_state_cpu_util(const struct sp_state *st, u32 cpu, u64 now_ns);

/*
 * Utilisation of @cpu as the wake-up path and the energy estimate read it:
 * the stored value while its stamp is at most SP_STALE_NS old (no decay
 * work), else sp_state_cpu_util().
 */
static inline u32 sp_state_cpu_util_stored(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	if (now_ns <= SP_READ_ONCE(st->cpu[cpu].util_stamp_ns) + SP_STALE_NS)
		return SP_READ_ONCE(st->cpu[cpu].util);
	return sp_state_cpu_util(st, cpu, now_ns);
}

/*
 * Utilisation placed on @cpu and not yet visible in its own average: the
 * sum of sp_state_note_placed() since the CPU last entered idle, if the
 * last placement is less than SP_PENDING_NS old, else 0.
 */
static inline u32 sp_state_cpu_pending(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	const struct sp_cpu_state *c = &st->cpu[cpu];
	int u = sp_atomic_read(&c->pending_util);
	u64 at;

	if (u <= 0)
		return 0;
	at = SP_READ_ONCE(c->pending_ns);
	if (now_ns > at + SP_PENDING_NS)
		return 0;
	return (u32)u < SP_CAP_SCALE ? (u32)u : SP_CAP_SCALE;
}

/* Tasks placed on @cpu and not run yet, with sp_state_cpu_pending()'s expiry. */
static inline u32 sp_state_cpu_pending_nr(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	const struct sp_cpu_state *c = &st->cpu[cpu];
	int n = sp_atomic_read(&c->pending_nr);

	if (n <= 0 || now_ns > SP_READ_ONCE(c->pending_ns) + SP_PENDING_NS)
		return 0;
	return (u32)n;
}

/*
 * The latency budget: every decision made on a CPU earns it one token, up
 * to SP_LAT_TOKENS_MAX; a placement whose modelled wake-up latency exceeds
 * that of CFS's CPU costs SP_LAT_TOKENS_SLOWER.  So at most 1 wake-up in
 * SP_LAT_TOKENS_SLOWER decided on a CPU is made slower than CFS would make
 * it, and a latency percentile below 1 - 1/SP_LAT_TOKENS_SLOWER (p99 with
 * 200) stays CFS's.
 */
#define SP_LAT_TOKENS_SLOWER	200u
#define SP_LAT_TOKENS_MAX	(2 * SP_LAT_TOKENS_SLOWER)

/*
 * A decision made on @this_cpu (SP_NONE: unknown, no budget kept) placed a
 * task of utilisation @util on @cpu at @now_ns, @slower than CFS's choice
 * or not.  Any CPU may place on any other concurrently (an atomic sum and
 * a time stamp; utilisation counted at least 1, so that a task whose
 * utilisation reads 0 still claims the CPU); @this_cpu's budget has one
 * writer, the CPU itself.
 */
void sp_state_note_decision(struct sp_state *st, u32 this_cpu, u32 cpu,
			    u32 util, bool slower, u64 now_ns);

/* May a decision on @this_cpu make a wake-up slower than CFS would? */
static inline bool sp_state_may_slow(const struct sp_state *st, u32 this_cpu)
{
	if (this_cpu >= SP_MAX_CPUS)
		return true;
	return SP_READ_ONCE(st->cpu[this_cpu].lat_tokens) >= SP_LAT_TOKENS_SLOWER;
}

/*
 * @cpu has @nr runnable tasks from @now_ns on (the kernel's nr_running, or
 * the simulator's run queue).  Only the load balancer's gate reads it
 * (core/sp_gate.h): overload_since_ns marks the start of a stretch with
 * tasks waiting.  One writer per CPU.
 */
void sp_state_set_nr_running(struct sp_state *st, u32 cpu, u32 nr, u64 now_ns);

/*
 * Awake fraction of group @g at @now_ns, 0..1024 (see sp_group_state): the
 * stored one while its stamp is at most SP_STALE_NS old, else brought
 * forward.  Stored, it is a one-sided bound of the exact value: at most
 * the exact one while the group is awake, at least while it sleeps, and
 * within 2.1 % of 1024 minus it (4 ms of a 128 ms half-life).
 */
u32 sp_state_group_awake(const struct sp_state *st, u32 g, u64 now_ns);

/*
 * sp_state_group_awake() for the wake-up path: the common case of a recent
 * stamp without a call; same result.
 */
static inline u32 sp_state_group_awake_stored(const struct sp_state *st, u32 g, u64 now_ns)
{
	const struct sp_group_state *gs = &st->group[g];
	u32 avg = SP_READ_ONCE(gs->awake_avg);

	if (now_ns > SP_READ_ONCE(gs->avg_stamp_ns) + SP_STALE_NS)
		return sp_state_group_awake(st, g, now_ns);
	return avg < SP_CAP_SCALE ? avg : SP_CAP_SCALE;
}

/*
 * The utilisations one decision has read, so that a CPU looked at twice
 * (ranked by the placement scan, then summed in its pd's energy pass) is
 * read once and both uses see the same value.  A decision sees a CPU's own
 * average plus its work in flight (sp_state_cpu_pending()), less the
 * waking task's own share on the CPU it last ran on.  Direct-mapped; an
 * entry is valid only if its stamp is the decision's number
 * (sp_state_ucache_begin()), so nothing is cleared per decision.  It lives
 * with the caller's working set for one decision at one now_ns.
 */
#define SP_UTIL_CACHE_SLOTS	64

struct sp_util_cache {
	u32 gen;			/* number of the decision being made */
	u32 without_cpu;		/* CPU whose value leaves out ... */
	u32 without_util;		/* ... this much: the waking task's own */
	u32 cpu_gen[SP_UTIL_CACHE_SLOTS];	/* decision that filled the slot */
	u16 cpu[SP_UTIL_CACHE_SLOTS];	/* CPU held in the slot */
	u16 util[SP_UTIL_CACHE_SLOTS];	/* its view of the CPU */
};

/* Start a decision: every entry of the previous ones becomes stale. */
static inline void sp_state_ucache_begin(struct sp_util_cache *uc)
{
	if (++uc->gen == 0) {		/* wrapped: stamps could match again */
		memset(uc->cpu_gen, 0, sizeof(uc->cpu_gen));
		uc->gen = 1;
	}
	uc->without_cpu = SP_NONE;
	uc->without_util = 0;
}

/*
 * A waking task's past running is still in the average of the CPU it last
 * ran on: read that CPU without it (mainline EAS's cpu_util_without()), so
 * that placing the task back there does not count it twice.
 */
static inline void sp_state_ucache_without(struct sp_util_cache *uc, u32 cpu, u32 util)
{
	uc->without_cpu = cpu;
	uc->without_util = util;
}

/* Note @util as the decision's view of @cpu. */
static inline void sp_state_ucache_put(struct sp_util_cache *uc, u32 cpu, u32 util)
{
	u32 i = cpu % SP_UTIL_CACHE_SLOTS;

	uc->cpu_gen[i] = uc->gen;
	uc->cpu[i] = (u16)cpu;
	uc->util[i] = (u16)util;
}

/* The decision's view of @cpu, read into slot @i. */
static inline u32 sp_state_ucache_fill(struct sp_util_cache *uc, const struct sp_state *st,
				       u32 cpu, u64 now_ns, u32 i)
{
	u32 u = sp_state_cpu_util_stored(st, cpu, now_ns);

	if (cpu == uc->without_cpu)
		u = u > uc->without_util ? u - uc->without_util : 0;
	u += sp_state_cpu_pending(st, cpu, now_ns);
	if (u > SP_CAP_SCALE)
		u = SP_CAP_SCALE;
	uc->cpu_gen[i] = uc->gen;
	uc->cpu[i] = (u16)cpu;
	uc->util[i] = (u16)u;
	return u;
}

static inline u32 sp_state_ucache_cpu(struct sp_util_cache *uc,
				      const struct sp_state *st, u32 cpu, u64 now_ns)
{
	u32 i = cpu % SP_UTIL_CACHE_SLOTS;

	if (uc->cpu_gen[i] == uc->gen && uc->cpu[i] == cpu)
		return uc->util[i];
	return sp_state_ucache_fill(uc, st, cpu, now_ns, i);
}

/*
 * Mark @cpu idle in state @idx / awake at @now_ns, updating groups upward:
 * the groups count @cpu as keeping them awake unless @idx is the deepest
 * state of its pd (any index at or past it).  Both return a mask with bit l
 * set when @cpu's group at level l changed state (went idle / woke up)
 * because of this call, which the energy accounting (core/sp_acct.c)
 * charges to that group; 0 if nothing changed.  A second entry without an
 * exit only changes the state; if it moves between deepest and shallower
 * the groups follow, and the mask reports only groups that went idle.
 */
u32 sp_state_idle_enter(struct sp_state *st, const struct sp_model *m,
			u32 cpu, u32 idx, u64 now_ns);
u32 sp_state_idle_exit(struct sp_state *st, const struct sp_model *m,
		       u32 cpu, u64 now_ns);

static inline bool sp_state_group_idle(const struct sp_state *st, u32 g)
{
	return sp_atomic_read(&st->group[g].nr_awake) <= 0;
}

/*
 * The idle path, inline for the accounting (core/sp_acct.c), which feeds
 * every idle event through it: sp_state_idle_enter() and _exit() for a CPU
 * known to be in the model, @pd its pd.
 */
void sp_state_group_fold(struct sp_group_state *g, u64 now_ns, bool awake);

/* Fold awake group @g forward if its stamp is over SP_STALE_NS old. */
static inline void sp_state_group_refresh(struct sp_group_state *g, u64 now_ns)
{
	if (now_ns > SP_READ_ONCE(g->avg_stamp_ns) + SP_STALE_NS)
		sp_state_group_fold(g, now_ns, true);
}

/* @cpu stops keeping its groups awake: returns the mask of groups that slept. */
static inline u32 sp_state_groups_release(struct sp_state *st, const struct sp_model *m,
					  u32 cpu, u64 now_ns)
{
	u32 l, changed = 0;

	for (l = 0; l < m->nr_levels; l++) {
		struct sp_group_state *g = &st->group[m->cpu_group[l][cpu]];

		if (sp_atomic_dec(&g->nr_awake) == 0) {
			sp_state_group_fold(g, now_ns, true);
			SP_WRITE_ONCE(g->idle_since_ns, now_ns);
			changed |= 1u << l;
		} else {
			sp_state_group_refresh(g, now_ns);
		}
	}
	return changed;
}

/* @cpu starts keeping its groups awake: returns the mask of groups woken. */
static inline u32 sp_state_groups_hold(struct sp_state *st, const struct sp_model *m,
				       u32 cpu, u64 now_ns)
{
	u32 l, changed = 0;

	for (l = 0; l < m->nr_levels; l++) {
		struct sp_group_state *g = &st->group[m->cpu_group[l][cpu]];

		if (sp_atomic_inc(&g->nr_awake) == 1) {
			sp_state_group_fold(g, now_ns, false);
			SP_WRITE_ONCE(g->awake_since_ns, now_ns);
			changed |= 1u << l;
		} else {
			sp_state_group_refresh(g, now_ns);
		}
	}
	return changed;
}

/* @cpu stays in a shallow state or leaves one: its groups are all awake. */
static inline void sp_state_groups_touch(struct sp_state *st, const struct sp_model *m,
					 u32 cpu, u64 now_ns)
{
	u32 l;

	for (l = 0; l < m->nr_levels; l++)
		sp_state_group_refresh(&st->group[m->cpu_group[l][cpu]], now_ns);
}

/* Does state @idx (not SP_CPU_AWAKE) of @pd let the groups above sleep? */
static inline bool sp_state_deep(const struct sp_pd *pd, u32 idx)
{
	return !pd->nr_idle || idx + 1u >= pd->nr_idle;
}

/*
 * The idle path's fold of @c: its utilisation moves towards @rate since its
 * stamp (cap_k while it ran, 0 while it idled).  Returns the new value.
 */
static inline u32 sp_state_fold_idle(struct sp_cpu_state *c, u32 rate, u64 now_ns)
{
	u64 stamp = c->util_stamp_ns;
	u32 u = c->util;

	if (now_ns > stamp) {
		u = sp_state_decay_us(u, sp_div_u64(now_ns - stamp, 1000), rate);
		SP_WRITE_ONCE(c->util, u);
	}
	SP_WRITE_ONCE(c->util_stamp_ns, now_ns);
	return u;
}

static inline u32 sp_state_enter_cpu(struct sp_state *st, const struct sp_model *m,
				     const struct sp_pd *pd, u32 cpu, u32 idx, u64 now_ns)
{
	struct sp_cpu_state *c = &st->cpu[cpu];
	s32 old = c->idle_state;
	bool deep = sp_state_deep(pd, idx);
	u32 k;

	sp_atomic_set(&c->pending_util, 0);	/* its queue ran dry */
	sp_atomic_set(&c->pending_nr, 0);
	if (old != SP_CPU_AWAKE) {	/* already idle: new state only */
		bool was_deep = sp_state_deep(pd, (u32)old);

		SP_WRITE_ONCE(c->idle_state, (s32)idx);
		if (deep && !was_deep)
			return sp_state_groups_release(st, m, cpu, now_ns);
		if (!deep && was_deep)
			sp_state_groups_hold(st, m, cpu, now_ns);
		return 0;
	}
	k = sp_model_pd_opp_idx(pd, (5 * sp_state_fold_idle(c, c->cap, now_ns) + 3) / 4);
	if (SP_READ_ONCE(st->opp_req[cpu]) != k)
		SP_WRITE_ONCE(st->opp_req[cpu], (u8)k);
	SP_WRITE_ONCE(c->idle_since_ns, now_ns);
	SP_WRITE_ONCE(c->idle_state, (s32)idx);
	if (deep)
		return sp_state_groups_release(st, m, cpu, now_ns);
	sp_state_groups_touch(st, m, cpu, now_ns);
	return 0;
}

static inline u32 sp_state_exit_cpu(struct sp_state *st, const struct sp_model *m,
				    const struct sp_pd *pd, u32 cpu, u64 now_ns)
{
	struct sp_cpu_state *c = &st->cpu[cpu];
	s32 old = c->idle_state;

	sp_state_fold_idle(c, 0, now_ns);
	SP_WRITE_ONCE(c->busy_since_ns, now_ns);
	SP_WRITE_ONCE(c->idle_state, SP_CPU_AWAKE);
	if (sp_state_deep(pd, (u32)old))
		return sp_state_groups_hold(st, m, cpu, now_ns);
	sp_state_groups_touch(st, m, cpu, now_ns);
	return 0;
}

static inline bool sp_state_cpu_idle(const struct sp_state *st, u32 cpu)
{
	return SP_READ_ONCE(st->cpu[cpu].idle_state) != SP_CPU_AWAKE;
}

/* Does idle-state index @idx (or SP_CPU_AWAKE) let @cpu's groups sleep? */
static inline bool sp_state_is_deepest(const struct sp_model *m, u32 cpu, s32 idx)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

	if (idx == SP_CPU_AWAKE)
		return false;
	return !pd->nr_idle || (u32)idx + 1u >= pd->nr_idle;
}

#endif /* SP_STATE_H */
