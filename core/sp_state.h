/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_state.h - the snapshot the decision core reads: per-CPU utilisation,
 * idle state and OPP, and per-group "how many CPUs keep the group awake".
 */

/**
 * DOC: the snapshot's writers and readers
 *
 * Writers are the idle hook (each CPU writes its own entry on idle entry and
 * exit, and moves the awake counters of the groups above it) and, in the
 * simulator, the event loop.  Readers are the placement hook on any CPU; they
 * tolerate a stale value (a decision is a heuristic), never a torn one, so
 * every field is a naturally aligned word read with SP_READ_ONCE.
 *
 * Group indices, and the offsets of each CPU's groups (group_off), are
 * those of the sp_model the state was last synchronised with
 * (sp_state_resync()); after a model swap the kernel resyncs once.
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
	u32 nr_running;		/* runnable tasks, read against 2 only */
	u32 placed_util;	/* sum placed since the last idle entry */
	u64 overload_since_ns;	/* since when nr_running >= 2, if it is */
	u64 placed_ns;		/* ... as of this placement */
	/*
	 * Per level, the byte offset in sp_state.group of the CPU's group, as
	 * of the last sp_state_resync(): the idle path's walk reads them from
	 * the line it writes anyway.
	 */
	u16 group_off[SP_MAX_LEVELS];
	/*
	 * What the idle path reads of the CPU's pd (struct sp_pd_idle) in the
	 * model of the last sp_state_resync(), from the same line: the run
	 * of utilisations that ask for its OPP request opp_req
	 * (sp_model_pd_urange(), kept by every writer of opp_req), the pd's
	 * opp_clamp, its deepest state and the first state that lets the
	 * groups sleep (sp_state_sleep_from()).
	 */
	u32 req_urange;
	u32 opp_clamp;
	u32 deepest;
	u32 sleep_from;
	u32 seq;		/* odd while an idle event writes (core/sp_acct.c) */
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

_Static_assert(SP_MAX_GROUPS * sizeof(struct sp_group_state) <= 0x10000,
	       "sp_cpu_state.group_off is 16 bits");

/**
 * sp_state_group_idx() - a group's index from its offset
 * @off: the offset, as sp_cpu_state.group_off holds it
 *
 * Return: the group's index in the model.
 */
static inline u32 sp_state_group_idx(u32 off)
{
	return off / (u32)sizeof(struct sp_group_state);
}

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
	/*
	 * Per pd, the largest opp_req of its CPUs (bits 0-7) and a CPU that
	 * asks for it (bits 8 and up), kept by the CPUs' idle entries
	 * (sp_state_req_update()) so that the idle path reads the pd's OPP
	 * without a scan.
	 */
	u32 pd_req[SP_MAX_PDS];
	struct sp_cpu_state cpu[SP_MAX_CPUS];
	struct sp_group_state group[SP_MAX_GROUPS];
};

/**
 * sp_state_group_at() - a group's entry from its offset
 * @st: the snapshot
 * @off: the offset, as sp_cpu_state.group_off holds it
 *
 * Return: the entry sp_state_group_idx() of @off indexes in @st->group,
 * without the multiply.
 */
static inline struct sp_group_state *sp_state_group_at(struct sp_state *st, u32 off)
{
	return (struct sp_group_state *)((char *)st->group + off);
}

/**
 * sp_state_pd_opp() - the OPP a pd runs at, as the idle events last left it
 * @st: the snapshot
 * @m: the model @st is synchronised with
 * @pdi: index of the pd in @m
 *
 * The largest of the OPPs its CPUs asked for at their last idle entry
 * (opp_req), raised to cpufreq's report if that is higher.  O(CPUs of the
 * pd) byte reads; no utilisation is decayed.
 *
 * Return: the OPP index, at most the pd's highest.
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

#define SP_PD_REQ_CPU_SHIFT	8
#define SP_PD_REQ_OPP_MASK	0xffu

/**
 * sp_state_pd_req_scan() - the largest OPP request of a pd's CPUs, by a scan
 * @st: the snapshot
 * @m: the model @st is synchronised with
 * @pdi: index of the pd in @m
 *
 * Return: the largest opp_req of the pd's CPUs (bits 0-7) and the first
 * CPU that asks for it (bits %SP_PD_REQ_CPU_SHIFT and up), as pd_req holds
 * them; 0 for a pd without CPUs.
 */
static inline u32 sp_state_pd_req_scan(const struct sp_state *st, const struct sp_model *m,
				       u32 pdi)
{
	const struct sp_pd *pd = &m->pd[pdi];
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	u32 i, k = 0, holder = pd->nr_cpus ? cpus[0] : 0;

	for (i = 0; i < pd->nr_cpus; i++) {
		u32 r = SP_READ_ONCE(st->opp_req[cpus[i]]);

		if (r > k) {
			k = r;
			holder = cpus[i];
		}
	}
	return holder << SP_PD_REQ_CPU_SHIFT | k;
}

/**
 * sp_state_pd_req_rescan() - sp_state_pd_req_scan() after the holder asked less
 * @st: the snapshot
 * @m: the model @st is synchronised with
 * @pdi: index of the pd in @m
 *
 * While pd_req is current its OPP is the largest any CPU of the pd asks
 * for: the first CPU that still asks for it holds it, as the scan would
 * find; only if none does is the pd scanned for its new largest request.
 *
 * Return: what sp_state_pd_req_scan() returns while pd_req is current.
 */
static inline SP_INLINE u32 sp_state_pd_req_rescan(const struct sp_state *st,
						   const struct sp_model *m, u32 pdi)
{
	const struct sp_pd *pd = &m->pd[pdi];
	const u16 *cpus = m->pd_cpus + pd->cpu_off;
	u32 top = SP_READ_ONCE(st->pd_req[pdi]) & SP_PD_REQ_OPP_MASK, n = pd->nr_cpus, i;

	for (i = 0; i < n; i++)
		if (SP_READ_ONCE(st->opp_req[cpus[i]]) == top)
			return (u32)cpus[i] << SP_PD_REQ_CPU_SHIFT | top;
	return sp_state_pd_req_scan(st, m, pdi);
}

/**
 * sp_state_req_set() - write a CPU's OPP request
 * @st: the snapshot
 * @m: the model @st is synchronised with
 * @pdi: the CPU's pd
 * @cpu: the CPU
 * @k: its request
 *
 * opp_req and the entry's req_urange, which follows it.
 *
 * Context: @cpu's idle path (opp_req[@cpu] has one writer).
 */
static inline void sp_state_req_set(struct sp_state *st, const struct sp_model *m, u32 pdi,
				    u32 cpu, u32 k)
{
	SP_WRITE_ONCE(st->opp_req[cpu], (u8)k);
	SP_WRITE_ONCE(st->cpu[cpu].req_urange, sp_model_pd_urange(&m->pd_idle[pdi], (u8)k));
}

/**
 * sp_state_req_update() - a CPU's new OPP request, and its pd's largest
 * @st: the snapshot
 * @m: the model @st is synchronised with
 * @pdi: the CPU's pd
 * @cpu: the CPU
 * @k: the OPP its utilisation asks for now
 *
 * pd_req stays the largest request of the pd's CPUs with a CPU that holds
 * it: a request above it takes over; the holder asking for less rescans
 * (sp_state_pd_req_scan()); any other change leaves it.  Two CPUs of a pd
 * racing can leave it off until the holder's next idle entry, which checks
 * it again; readers take it as a heuristic, as they take opp_req.
 *
 * Context: @cpu's idle path (opp_req[@cpu] has one writer).
 */
static inline void sp_state_req_update(struct sp_state *st, const struct sp_model *m,
				       u32 pdi, u32 cpu, u32 k)
{
	u32 req = SP_READ_ONCE(st->pd_req[pdi]), top = req & SP_PD_REQ_OPP_MASK;

	if (SP_READ_ONCE(st->opp_req[cpu]) != k)
		sp_state_req_set(st, m, pdi, cpu, k);
	if (k > top)
		SP_WRITE_ONCE(st->pd_req[pdi], cpu << SP_PD_REQ_CPU_SHIFT | k);
	else if (k < top && req >> SP_PD_REQ_CPU_SHIFT == cpu)
		SP_WRITE_ONCE(st->pd_req[pdi], sp_state_pd_req_rescan(st, m, pdi));
}

/**
 * sp_state_pd_opp_req() - sp_state_pd_opp() from the kept pd_req
 * @st: the snapshot
 * @pi: the pd's idle-path table, of a derived model (sp_model_derive())
 * @pdi: the pd's index in the model @st is synchronised with
 *
 * Return: the same OPP as sp_state_pd_opp() while pd_req is current, in
 * O(1).
 */
static inline u32 sp_state_pd_opp_req(const struct sp_state *st, const struct sp_pd_idle *pi,
				      u32 pdi)
{
	s32 rep = SP_READ_ONCE(st->pd_opp[pdi]);
	u32 k = SP_READ_ONCE(st->pd_req[pdi]) & SP_PD_REQ_OPP_MASK;

	if (rep >= 0 && (u32)rep > k)	/* SP_OPP_MODELLED is negative */
		k = (u32)rep;
	return k > pi->opp_clamp ? pi->opp_clamp : k;	/* sp_model_derive() */
}

/**
 * sp_state_pd_opp_top() - sp_state_pd_opp_req() with pd_req's OPP known
 * @st: the snapshot
 * @opp_clamp: the pd's sp_pd_idle.opp_clamp, as a CPU's entry keeps it
 * @pdi: the pd's index in the model @st is synchronised with
 * @top: the largest OPP request of its CPUs, as pd_req holds it
 *
 * Return: @top raised to cpufreq's report if that is higher, at most the
 * pd's highest OPP.
 */
static inline u32 sp_state_pd_opp_top(const struct sp_state *st, u32 opp_clamp, u32 pdi,
				      u32 top)
{
	s32 rep = SP_READ_ONCE(st->pd_opp[pdi]);

	if (rep > (s32)top)	/* SP_OPP_MODELLED is negative; top is at most 255 */
		top = (u32)rep;
	return top > opp_clamp ? opp_clamp : top;	/* sp_model_derive() */
}

/* 2^-(j/32) in Q32 for j = 0..32: the decay's table (sp_state.c). */
extern const u64 sp_state_decay_q32[33];

/*
 * The interpolation's table: per j, q32 = sp_state_decay_q32[j] and the
 * step to j + 1 per us in Q20 rounded up, step_q20 = ceil((q32[j] -
 * q32[j + 1]) * 2^20 / 1000), so that floor(step * part / 1000) over part
 * of a ms is (part * step_q20) >> 20 exactly: for part < 1000 the rounding
 * adds less than 1000 / 2^20 < 1/1000, and step * part / 1000 is at least
 * 1/1000 below the next integer.
 */
struct sp_state_decay_table {
	u64 q32[32];
	u64 step_q20[32];
};

/*
 * Two arrays of 8-byte entries, not one of pairs: an x86 address scales an
 * index by 8 at most, so each entry is one load with j as it is.
 */
extern const struct sp_state_decay_table sp_state_decay_steps;

/* entry 0 of sp_state_decay_steps, known to every caller: 2^32 and its step */
#define SP_Q32_ONE			0x100000000ULL
#define SP_STATE_DECAY_STEP0_Q20	0x167804b021ULL

/*
 * util * f + cap * (2^32 - f) for a Q32 factor f, rounded to nearest and
 * clamped to 1024: the fold shared by sp_state_decay_far() and
 * sp_state_decay_near().  Computed modulo 2^64 as written that way.
 */
static inline u32 sp_state_decay_mix(u32 util, u64 f, u32 cap)
{
	u64 u = ((u64)cap << 32) + ((u64)util - cap) * f;

	u = (u + 0x80000000ULL) >> 32;		/* round to nearest */
	return u > SP_CAP_SCALE ? SP_CAP_SCALE : (u32)u;
}

/*
 * sp_state_decay_mix() of an average and a target both at most 1024, as
 * the idle path's are (their writers clamp): util * f + cap * (2^32 - f),
 * for f at most 2^32, is then at most 1024 * 2^32 and rounds to at most
 * 1024, so the clamp is left out.
 */
static inline u32 sp_state_decay_mix_in(u32 util, u64 f, u32 cap)
{
	return (u32)((((u64)cap << 32) + ((u64)util - cap) * f + 0x80000000ULL) >> 32);
}

/* 40 half-lives, us: they leave nothing of the past (sp_state_decay_factor()) */
#define SP_STATE_DECAY_FAR_US	(40u * 32u * 1000u)

/*
 * sp_state_decay_factor() of a stretch known to be under
 * %SP_STATE_DECAY_FAR_US, without the test: the idle path's steady events
 * leave longer ones to the general path.
 */
static inline SP_INLINE u64 sp_state_decay_factor_in(u64 dt_us)
{
	/* ms = dt_us / 1000 as a product: exact for any u32 (2^38 / 1000 rounded up) */
	u32 ms = (u32)(((u64)dt_us * 0x10624dd3u) >> 38), j = ms & 31;
	u32 part = (u32)dt_us - ms * 1000;
	const struct sp_state_decay_table *d = &sp_state_decay_steps;

	return (d->q32[j] - ((part * d->step_q20[j]) >> 20)) >> (ms >> 5);
}

/**
 * sp_state_decay_factor() - y^dt in Q32, the factor of sp_state_decay_far()
 * @dt_us: time since the average was last folded, us
 *
 * The us split into whole ms (the table's index within a half-life, and the
 * number of half-lives) and the us within the ms (linear interpolation).
 *
 * Return: the factor, at most 2^32; 0 past 40 half-lives.
 */
static inline SP_INLINE u64 sp_state_decay_factor(u64 dt_us)
{
	return dt_us < SP_STATE_DECAY_FAR_US ? sp_state_decay_factor_in(dt_us) : 0;
}

/**
 * sp_state_decay_far() - the decay of an average over a stretch
 * @util: the average, 0..1024
 * @dt_us: time since it was last folded, us
 * @cap: what it moves towards, 0..1024 (sp_cpu_state.cap is: its writers
 *	 clamp it)
 *
 * y^dt from sp_state_decay_steps: the us split into whole ms (the table's
 * index within a half-life, and the number of half-lives) and the us within
 * the ms (linear interpolation).  An average at @cap comes out as @cap.
 *
 * Return: util * y^dt + cap * (1 - y^dt), rounded to nearest, at most 1024.
 */
static inline u32 sp_state_decay_far(u32 util, u64 dt_us, u32 cap)
{
	return sp_state_decay_mix(util, sp_state_decay_factor(dt_us), cap);
}

/**
 * sp_state_decay_to() - sp_state_decay_us() for a rate known to be in range
 * @util: the average, 0..1024
 * @dt_us: time since it was last folded, us
 * @cap: what it moves towards, 0..1024
 *
 * sp_state_decay_far(), with an average at its target returned at once:
 * the idle path, whose averages seldom sit there, calls
 * sp_state_decay_far() itself.
 *
 * Return: the same as sp_state_decay_far().
 */
static inline u32 sp_state_decay_to(u32 util, u64 dt_us, u32 cap)
{
	if (util == cap)	/* at its target it stays there, whatever dt */
		return cap;
	return sp_state_decay_far(util, dt_us, cap);
}

/* The factor of a stretch under 1 ms: the table's first step, linear in @dt_us. */
static inline u64 sp_state_decay_step0(u64 dt_us)
{
	return SP_Q32_ONE - (((u32)dt_us * SP_STATE_DECAY_STEP0_Q20) >> 20);
}

/**
 * sp_state_decay_near() - sp_state_decay_to() for the idle path
 * @util: the average, 0..1024
 * @dt_us: time since it was last folded, us
 * @cap: what it moves towards, 0..1024
 *
 * A stretch under 1 ms (a pipe's, a busy server's) is the table's first
 * step alone: no whole ms to split off, no half-lives to shift by.  With
 * @util and @cap in range the fold needs no clamp (sp_state_decay_mix_in()).
 *
 * Return: the same as sp_state_decay_far().
 */
static inline u32 sp_state_decay_near(u32 util, u64 dt_us, u32 cap)
{
	u64 f = dt_us >= 1000 ? sp_state_decay_factor(dt_us) : sp_state_decay_step0(dt_us);

	return sp_state_decay_mix_in(util, f, cap);
}

/**
 * sp_state_decay_near_in() - sp_state_decay_near() of a stretch known to be short
 * @util: the average, 0..1024
 * @dt_us: time since it was last folded, us, under %SP_STATE_DECAY_FAR_US
 * @cap: what it moves towards, 0..1024
 *
 * The idle path's steady events take stretches under 40 half-lives only,
 * so the factor needs no test of its range (sp_state_decay_factor_in()).
 *
 * Return: the same as sp_state_decay_far().
 */
static inline u32 sp_state_decay_near_in(u32 util, u64 dt_us, u32 cap)
{
	u64 f = dt_us >= 1000 ? sp_state_decay_factor_in(dt_us) : sp_state_decay_step0(dt_us);

	return sp_state_decay_mix_in(util, f, cap);
}

/**
 * sp_state_decay_us() - sp_state_decay_cap() without a call
 * @util: the average, 0..1024
 * @dt_us: time since it was last folded, us
 * @cap: the capacity the CPU ran at meanwhile, 0 (idle) to 1024 (larger is
 *	 taken as 1024)
 *
 * Return: sp_state_decay_to() towards @cap: util * y^dt + cap * (1 - y^dt),
 * rounded to nearest, at most 1024.
 */
static inline u32 sp_state_decay_us(u32 util, u64 dt_us, u32 cap)
{
	return sp_state_decay_to(util, dt_us, cap > SP_CAP_SCALE ? SP_CAP_SCALE : cap);
}

/**
 * sp_state_init() - reset a snapshot for a model
 * @st: the snapshot
 * @m: the model
 * @now_ns: the time, ns, on the clock of every later call
 *
 * Every CPU awake with zero utilisation and no latency tokens, at the full
 * capacity of its pd (its highest OPP, at most 1024; 1024 without OPPs);
 * the group counters as sp_state_resync() sets them.
 */
void sp_state_init(struct sp_state *st, const struct sp_model *m, u64 now_ns);

/**
 * sp_state_resync() - rebuild the group counters for another model
 * @st: the snapshot
 * @m: the model from now on
 * @now_ns: the time, ns
 *
 * Counts, for every group of @m, the CPUs of @st that keep it awake (awake,
 * or idle in a state shallower than their pd's deepest); the awake
 * fractions restart at 0 and the groups' idle or awake stamps at @now_ns.
 * Each CPU's group_off is set to its groups in @m (0 past @m's CPUs and
 * levels), its req_urange, opp_clamp and deepest to its pd's in @m (pd
 * 0's past @m's CPUs).  The CPU entries are kept otherwise: the caller clamps their
 * idle states to @m.
 *
 * Context: no idle event may run on @st meanwhile (the kernel pauses its
 * probes).
 */
void sp_state_resync(struct sp_state *st, const struct sp_model *m, u64 now_ns);

/**
 * sp_state_decay() - the PELT-like average over a stretch
 * @util: the average, 0..1024
 * @dt_us: length of the stretch, us
 * @busy: whether the CPU (or group) was busy (awake) during it
 *
 * Return: u' = u * y^dt + 1024 * (1 - y^dt) * busy, with y^32ms = 1/2.
 */
u32 sp_state_decay(u32 util, u64 dt_us, bool busy);

/**
 * sp_state_decay_cap() - the average of a CPU that ran at some capacity
 * @util: the average, 0..1024
 * @dt_us: length of the stretch, us
 * @cap: the capacity it was busy at, 0..1024 (0: idle)
 *
 * A CPU kept busy at OPP k converges to cap_k, so a periodic load reads the
 * same whatever the OPP it ran at (busy share x cap_k = work rate), as
 * PELT's frequency invariance gives.
 *
 * Return: u' = u * y^dt + cap * (1 - y^dt).
 */
u32 sp_state_decay_cap(u32 util, u64 dt_us, u32 cap);

/**
 * sp_state_set_cap() - the capacity a CPU runs at from now on
 * @st: the snapshot
 * @cpu: the CPU; one at or above %SP_MAX_CPUS is ignored
 * @cap: cap_k of its pd's current OPP, 0..1024 (larger is clamped)
 * @now_ns: the time of the change, ns
 *
 * Utilisation up to @now_ns is folded in at the old capacity first, so call
 * it when the OPP changes.  Without a call the CPU stays at full capacity,
 * as on a board without cpufreq.
 *
 * Context: serialised with @cpu's idle hook (the entry has one writer).
 */
void sp_state_set_cap(struct sp_state *st, u32 cpu, u32 cap, u64 now_ns);

/**
 * sp_state_cpu_util() - a CPU's utilisation, brought forward to now
 * @st: the snapshot
 * @cpu: the CPU, below %SP_MAX_CPUS
 * @now_ns: the time, ns
 *
 * The stored average folded forward without writing it back: a CPU that
 * has been busy since its last idle exit keeps climbing, an idle one keeps
 * decaying.  The exact average, for readouts and the simulator.
 *
 * Return: the utilisation at @now_ns, 0..1024.
 */
u32 sp_state_cpu_util(const struct sp_state *st, u32 cpu, u64 now_ns);

/**
 * sp_state_cpu_util_stored() - a CPU's utilisation as the wake-up path reads it
 * @st: the snapshot
 * @cpu: the CPU, below %SP_MAX_CPUS
 * @now_ns: the time, ns
 *
 * Return: the stored value while its stamp is at most %SP_STALE_NS old (no
 * decay work), else sp_state_cpu_util(); 0..1024.
 */
static inline u32 sp_state_cpu_util_stored(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	if (now_ns <= SP_READ_ONCE(st->cpu[cpu].util_stamp_ns) + SP_STALE_NS)
		return SP_READ_ONCE(st->cpu[cpu].util);
	return sp_state_cpu_util(st, cpu, now_ns);
}

/**
 * sp_state_cpu_pending() - utilisation placed on a CPU and not run yet
 * @st: the snapshot
 * @cpu: the CPU, below %SP_MAX_CPUS
 * @now_ns: the time, ns
 *
 * Return: the sum that sp_state_note_decision() noted on @cpu since it last
 * entered idle, at most 1024, if the last placement is at most
 * %SP_PENDING_NS old, else 0.
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

/**
 * sp_state_cpu_pending_nr() - tasks placed on a CPU and not run yet
 * @st: the snapshot
 * @cpu: the CPU, below %SP_MAX_CPUS
 * @now_ns: the time, ns
 *
 * Return: their number, with sp_state_cpu_pending()'s expiry (0 once the
 * last placement is over %SP_PENDING_NS old).
 */
static inline u32 sp_state_cpu_pending_nr(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	const struct sp_cpu_state *c = &st->cpu[cpu];
	int n = sp_atomic_read(&c->pending_nr);

	if (n <= 0 || now_ns > SP_READ_ONCE(c->pending_ns) + SP_PENDING_NS)
		return 0;
	return (u32)n;
}

/**
 * sp_state_cpu_placed() - utilisation brought to a CPU, not yet in its average
 * @st: the snapshot
 * @cpu: the CPU, below %SP_MAX_CPUS
 * @now_ns: the time, ns
 *
 * Return: the sum sp_state_note_task() kept for @cpu, decayed as PELT
 * decays (sp_state_decay()) from the last placement to @now_ns, if @cpu
 * has not entered idle since (its idle_since_ns, written at every idle
 * entry, is not later than the placement), else 0: the CPU's queue ran
 * dry, and the tasks' utilisation is blocked, as the kernel's own is.
 */
static inline u32 sp_state_cpu_placed(const struct sp_state *st, u32 cpu, u64 now_ns)
{
	const struct sp_cpu_state *c = &st->cpu[cpu];
	u64 at = SP_READ_ONCE(c->placed_ns);
	u32 util;

	if (at < SP_READ_ONCE(c->idle_since_ns))
		return 0;
	util = SP_READ_ONCE(c->placed_util);
	if (!util || now_ns <= at)
		return util;
	return sp_state_decay(util, sp_div_u64(now_ns - at, 1000), false);
}

/**
 * sp_state_note_task() - add a placed task's utilisation to a CPU's
 * @st: the snapshot
 * @cpu: the CPU the task was placed on (outside the snapshot: ignored)
 * @util: the utilisation the task brings, 0..1024: sp_place_note_util()'s
 *	  (its own, except 0 when woken back onto the CPU whose average
 *	  already holds its past)
 * @now_ns: the time of the placement, ns
 *
 * The CPU's average (sp_state_cpu_util()) is made of its own busy time, so
 * a task that arrives with a history elsewhere (a job that ran at 800 on
 * big, woken onto a LITTLE CPU) takes tens of ms to show in it, where
 * 6.1's cpu_util_cfs() holds the task's utilisation from the moment it is
 * enqueued (attach_entity_load_avg(), util_est).  PELT being linear, the
 * kernel's value for a CPU that has run since is the average plus the
 * brought utilisation decayed over the time since: sp_state_cpu_placed()
 * gives that term, summed over the placements since the CPU last entered
 * idle.  A concurrent placement on the same CPU may lose one sum.
 */
static inline void sp_state_note_task(struct sp_state *st, u32 cpu, u32 util,
				      u64 now_ns)
{
	struct sp_cpu_state *c;
	u32 old;

	if (cpu >= SP_MAX_CPUS || cpu >= st->nr_cpus || !util)
		return;
	c = &st->cpu[cpu];
	old = sp_state_cpu_placed(st, cpu, now_ns);
	util = old + util < SP_CAP_SCALE ? old + util : SP_CAP_SCALE;
	/* the value before its stamp: a reader between the two sees it stale */
	SP_WRITE_ONCE(c->placed_util, util);
	SP_WRITE_ONCE(c->placed_ns, now_ns);
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

/* One decision made on @this_cpu: its latency budget (above). */
static inline void sp_state_charge(struct sp_state *st, u32 this_cpu, bool slower)
{
	struct sp_cpu_state *c;
	u32 tokens;

	if (this_cpu >= SP_MAX_CPUS || this_cpu >= st->nr_cpus)
		return;
	c = &st->cpu[this_cpu];
	tokens = c->lat_tokens + 1;
	if (slower)
		tokens = tokens > SP_LAT_TOKENS_SLOWER ? tokens - SP_LAT_TOKENS_SLOWER : 0;
	SP_WRITE_ONCE(c->lat_tokens, tokens < SP_LAT_TOKENS_MAX ? tokens : SP_LAT_TOKENS_MAX);
}

/**
 * sp_state_note_decision() - record where a decision sent a task
 * @st: the snapshot
 * @this_cpu: the CPU that made the decision (%SP_NONE: unknown, no budget
 *	      kept)
 * @cpu: the CPU the task was placed on
 * @util: the task's utilisation, 0..1024 (counted at least 1, so that a
 *	  task whose utilisation reads 0 still claims the CPU)
 * @slower: the placement is slower than CFS's choice
 * @now_ns: the time of the decision, ns
 *
 * Adds the task to @cpu's work in flight (sp_state_cpu_pending(),
 * sp_state_cpu_pending_nr()) and keeps @this_cpu's latency budget: one
 * token earned, %SP_LAT_TOKENS_SLOWER spent if @slower.  A CPU outside the
 * snapshot is ignored.
 *
 * Context: any CPU may place on any other concurrently (an atomic sum and a
 * time stamp); @this_cpu's budget has one writer, the CPU itself.
 */
static inline void sp_state_note_decision(struct sp_state *st, u32 this_cpu, u32 cpu,
					  u32 util, bool slower, u64 now_ns)
{
	struct sp_cpu_state *c;

	sp_state_charge(st, this_cpu, slower);
	if (cpu >= SP_MAX_CPUS || cpu >= st->nr_cpus)
		return;
	c = &st->cpu[cpu];
	/* an expired sum starts again from this placement */
	if (now_ns > SP_READ_ONCE(c->pending_ns) + SP_PENDING_NS) {
		sp_atomic_set(&c->pending_util, 0);
		sp_atomic_set(&c->pending_nr, 0);
	}
	if (util > SP_CAP_SCALE)
		util = SP_CAP_SCALE;
	sp_atomic_add(&c->pending_util, util ? (int)util : 1);
	sp_atomic_add(&c->pending_nr, 1);
	SP_WRITE_ONCE(c->pending_ns, now_ns);
}

/**
 * sp_state_may_slow() - may a decision make a wake-up slower than CFS would?
 * @st: the snapshot
 * @this_cpu: the CPU making the decision
 *
 * Return: true if @this_cpu holds %SP_LAT_TOKENS_SLOWER tokens, or is
 * unknown (at or above %SP_MAX_CPUS: no budget is kept).
 */
static inline bool sp_state_may_slow(const struct sp_state *st, u32 this_cpu)
{
	if (this_cpu >= SP_MAX_CPUS)
		return true;
	return SP_READ_ONCE(st->cpu[this_cpu].lat_tokens) >= SP_LAT_TOKENS_SLOWER;
}

/**
 * sp_state_set_nr_running() - a CPU's number of runnable tasks
 * @st: the snapshot
 * @cpu: the CPU; one at or above %SP_MAX_CPUS is ignored
 * @nr: its runnable tasks from @now_ns on (the kernel's nr_running, or
 *	the simulator's run queue)
 * @now_ns: the time, ns
 *
 * Its readers (the load balancer's gate, core/sp_gate.h, and the wake-up
 * hook's sync test) ask only whether a task waits (@nr >= 2), and
 * overload_since_ns marks the start of such a stretch, so a caller may
 * skip the calls that leave @nr on the same side of 2 as the stored count
 * (the kernel's probe does): the stored count is then one on that side,
 * not the exact one.
 *
 * Context: one writer per CPU.
 */
void sp_state_set_nr_running(struct sp_state *st, u32 cpu, u32 nr, u64 now_ns);

/**
 * sp_state_group_awake() - a group's recent awake fraction
 * @st: the snapshot
 * @g: the group's index in the model
 * @now_ns: the time, ns
 *
 * The stored fraction (struct sp_group_state) while its stamp is at most
 * %SP_STALE_NS old, else brought forward.  Stored, it is a one-sided bound
 * of the exact value: at most the exact one while the group is awake, at
 * least while it sleeps, and within 2.1 % of 1024 minus it (4 ms of a
 * 128 ms half-life).
 *
 * Return: the awake fraction at @now_ns, 0..1024.
 */
u32 sp_state_group_awake(const struct sp_state *st, u32 g, u64 now_ns);

/**
 * sp_state_group_awake_stored() - sp_state_group_awake() for the wake-up path
 * @st: the snapshot
 * @g: the group's index in the model
 * @now_ns: the time, ns
 *
 * The common case of a recent stamp without a call.
 *
 * Return: the same as sp_state_group_awake().
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
 * entry is valid only if its key is the decision's number (16 bits, in
 * the upper half) with the CPU's (below SP_MAX_CPUS, in the lower half),
 * one compare (sp_state_ucache_begin()), so nothing is cleared per
 * decision but once every 65535, when the number wraps.  It lives with the
 * caller's working set for one decision at one now_ns.
 */
#define SP_UTIL_CACHE_SLOTS	64

struct sp_util_cache {
	u32 gen;			/* number of the decision being made << 16 */
	u32 without_cpu;		/* CPU whose value leaves out ... */
	u32 without_util;		/* ... this much: the waking task's own */
	u32 alone_levels;		/* its groups kept up for this wake-up alone */
	u32 key[SP_UTIL_CACHE_SLOTS];	/* gen | CPU: who filled the slot, for whom */
	u16 util[SP_UTIL_CACHE_SLOTS];	/* its view of the CPU */
};

/* The slot key of @cpu (below SP_MAX_CPUS) in this decision: one compare. */
static inline u32 sp_state_ucache_key(const struct sp_util_cache *uc, u32 cpu)
{
	return uc->gen | cpu;
}

/**
 * sp_state_ucache_begin() - start a decision with a util cache
 * @uc: the cache
 *
 * Every entry of the previous decisions becomes stale, and no CPU is read
 * without a task.
 */
static inline void sp_state_ucache_begin(struct sp_util_cache *uc)
{
	uc->gen += 1u << 16;
	if (uc->gen == 0) {		/* wrapped: keys could match again */
		memset(uc->key, 0, sizeof(uc->key));
		uc->gen = 1u << 16;
	}
	uc->without_cpu = SP_NONE;
	uc->without_util = 0;
	uc->alone_levels = 0;
}

/**
 * sp_state_ucache_without() - read a CPU without the waking task's share
 * @uc: the cache, after sp_state_ucache_begin()
 * @cpu: the CPU the task last ran on
 * @util: the task's utilisation, 0..1024
 *
 * A waking task's past running is still in the average of the CPU it last
 * ran on: read that CPU without it (mainline EAS's cpu_util_without()), so
 * that placing the task back there does not count it twice.
 */
static inline void sp_state_ucache_without(struct sp_util_cache *uc, u32 cpu, u32 util)
{
	uc->without_cpu = cpu;
	uc->without_util = util;
}

/**
 * sp_state_ucache_asleep() - the share of a task's run a group would sleep
 * @m: the model
 * @uc: the decision's util cache, or NULL
 * @l: the group's level
 * @g: the group's index in @m
 * @asleep: 1 - f of the group, 0..1024 (f its awake fraction)
 *
 * @asleep, except for a group above the CPU the task last ran on that
 * woke for this wake-up alone (sp_util_cache.alone_levels: the timer
 * interrupt of the task's own wake-up woke it, and no other CPU holds it
 * awake): nothing else keeps it up, so it would sleep through the whole
 * run, 1024.  Its awake fraction is mostly the task's own past runs.
 *
 * Return: the factor, 0..1024.
 */
static inline u32 sp_state_ucache_asleep(const struct sp_model *m,
					 const struct sp_util_cache *uc, u32 l, u32 g,
					 u32 asleep)
{
	if (uc && (uc->alone_levels >> l & 1u) && m->cpu_group[l][uc->without_cpu] == g)
		return SP_CAP_SCALE;
	return asleep;
}

/**
 * sp_state_ucache_put() - note a utilisation as the decision's view of a CPU
 * @uc: the cache
 * @cpu: the CPU
 * @util: its utilisation as the decision reads it, 0..1024
 */
static inline void sp_state_ucache_put(struct sp_util_cache *uc, u32 cpu, u32 util)
{
	u32 i = cpu % SP_UTIL_CACHE_SLOTS;

	uc->key[i] = sp_state_ucache_key(uc, cpu);
	uc->util[i] = (u16)util;
}

/**
 * sp_state_ucache_fill() - read a CPU into the cache
 * @uc: the cache
 * @st: the snapshot
 * @cpu: the CPU
 * @now_ns: the decision's time, ns
 * @i: @cpu's slot
 *
 * Return: the decision's view of @cpu: its stored utilisation
 * (sp_state_cpu_util_stored()) less the waking task's share if @cpu is the
 * one sp_state_ucache_without() named, plus its work in flight, at most
 * 1024.
 */
static inline u32 sp_state_ucache_fill(struct sp_util_cache *uc, const struct sp_state *st,
				       u32 cpu, u64 now_ns, u32 i)
{
	u32 u = sp_state_cpu_util_stored(st, cpu, now_ns);

	if (cpu == uc->without_cpu)
		u = u > uc->without_util ? u - uc->without_util : 0;
	u += sp_state_cpu_pending(st, cpu, now_ns);
	if (u > SP_CAP_SCALE)
		u = SP_CAP_SCALE;
	uc->key[i] = sp_state_ucache_key(uc, cpu);
	uc->util[i] = (u16)u;
	return u;
}

/**
 * sp_state_ucache_cpu() - the decision's view of a CPU, read once
 * @uc: the cache
 * @st: the snapshot
 * @cpu: the CPU
 * @now_ns: the decision's time, ns
 *
 * Return: the cached value if this decision has read @cpu already, else
 * sp_state_ucache_fill()'s.
 */
static inline u32 sp_state_ucache_cpu(struct sp_util_cache *uc,
				      const struct sp_state *st, u32 cpu, u64 now_ns)
{
	u32 i = cpu % SP_UTIL_CACHE_SLOTS;

	if (uc->key[i] == sp_state_ucache_key(uc, cpu))
		return uc->util[i];
	return sp_state_ucache_fill(uc, st, cpu, now_ns, i);
}

/**
 * sp_state_idle_enter() - a CPU enters an idle state
 * @st: the snapshot
 * @m: the model @st is synchronised with
 * @cpu: the CPU; one outside @m is ignored
 * @idx: the idle state's index in its pd
 * @now_ns: the time, ns
 *
 * Folds the CPU's busy stretch into its utilisation and its OPP request,
 * and updates the groups upward: they count @cpu as keeping them awake
 * unless @idx is the deepest state of its pd (any index at or past it).  A
 * second entry without an exit only changes the state; if it moves between
 * deepest and shallower the groups follow.
 *
 * Context: @cpu's idle path (its entry has one writer).
 *
 * Return: a mask with bit l set when @cpu's group at level l went idle
 * because of this call, which the energy accounting (core/sp_acct.c)
 * charges to that group; 0 if none did.
 */
u32 sp_state_idle_enter(struct sp_state *st, const struct sp_model *m,
			u32 cpu, u32 idx, u64 now_ns);

/**
 * sp_state_idle_exit() - a CPU leaves idle
 * @st: the snapshot
 * @m: the model @st is synchronised with
 * @cpu: the CPU; one outside @m, or awake already, is ignored
 * @now_ns: the time, ns
 *
 * Decays the CPU's utilisation over its idle stretch and, if it sat in its
 * pd's deepest state, counts it again in the groups above it.
 *
 * Context: @cpu's idle path (its entry has one writer).
 *
 * Return: a mask with bit l set when @cpu's group at level l woke up
 * because of this call; 0 if none did.
 */
u32 sp_state_idle_exit(struct sp_state *st, const struct sp_model *m,
		       u32 cpu, u64 now_ns);

/**
 * sp_state_group_idle() - is a group asleep?
 * @st: the snapshot
 * @g: the group's index in the model
 *
 * Return: true while none of its CPUs is awake or in a state shallower
 * than its pd's deepest.
 */
static inline bool sp_state_group_idle(const struct sp_state *st, u32 g)
{
	return sp_atomic_read(&st->group[g].nr_awake) <= 0;
}

/*
 * A bound on 2^32 - f, the decay factor's complement in Q32, per ns of the
 * group's half-life: f is at least the chord of its table less 1/2, so
 * 2^32 - f <= 2^32 * (1 - 2^-x) + 1/2 <= 2^32 * x * ln 2 + 1/2 with
 * x = dt / 128 ms, i.e. at most 23.26 per ns, plus 1/2.
 */
#define SP_GROUP_DECAY_Q32_PER_NS	24u

/*
 * Below this many ns since its stamp a fold leaves any fraction (0..1024)
 * as it is: 1024 * (24 dt + 1) < 2^31 for every dt below it, so
 * sp_state_group_fold_keeps() is true whatever the fraction.
 */
#define SP_GROUP_KEEPS_NS \
	(((1ull << 31) / SP_CAP_SCALE - 1) / SP_GROUP_DECAY_Q32_PER_NS + 1)

/**
 * sp_state_group_fold_keeps() - would a fold leave a group's fraction as it is?
 * @avg: the awake fraction
 * @awake: whether the group was awake since the stamp
 * @dt_ns: time since the stamp, ns
 *
 * The fold rounds to nearest: a fraction d away from its target (1024
 * awake, 0 asleep) stays where it is while d * (2^32 - f) < 2^31.  An
 * awake package refreshed every few ms sits a few units below 1024 for
 * good, and its refreshes only move the stamp.  Checked with a bound of f
 * (%SP_GROUP_DECAY_Q32_PER_NS), so a false answer only means "fold".
 *
 * Return: true if sp_state_group_fold() would write @avg back unchanged.
 */
static inline bool sp_state_group_fold_keeps(u32 avg, bool awake, u64 dt_ns)
{
	u32 d = awake ? SP_CAP_SCALE - avg : avg;

	if (!d)
		return true;
	if (avg > SP_CAP_SCALE || dt_ns >= 1ull << 31)
		return false;
	return (u64)d * (SP_GROUP_DECAY_Q32_PER_NS * dt_ns + 1) < 1ull << 31;
}

/**
 * sp_state_group_fold() - fold a group's awake fraction up to now
 * @g: the group's entry
 * @now_ns: the time, ns
 * @awake: whether the group was awake since the fraction's stamp
 *
 * Called by the CPU that moves nr_awake through zero, or by one of an awake
 * group whose stamp is stale; two CPUs doing so at once may lose one fold,
 * which only blurs an average that is a heuristic anyway.
 */
void sp_state_group_fold(struct sp_group_state *g, u64 now_ns, bool awake);

/**
 * sp_state_group_dt_us() - a group's time as the CPUs' decay takes it
 * @dt_ns: time, ns
 *
 * Return: @dt_ns in us scaled by %SP_UTIL_HALFLIFE_US /
 * %SP_GROUP_HALFLIFE_US, so that sp_state_decay() and its kin, whose
 * half-life is the CPUs', decay over it at the group's half-life.
 */
static inline u64 sp_state_group_dt_us(u64 dt_ns)
{
	return sp_div_u64(dt_ns, 1000u * (SP_GROUP_HALFLIFE_US / SP_UTIL_HALFLIFE_US));
}

/**
 * sp_state_group_fold_move() - sp_state_group_fold() once it is known to move
 * @g: the group's entry
 * @avg: its awake fraction, as read
 * @dt_ns: time since its stamp, ns, positive
 * @now_ns: the time, ns: the new stamp
 * @awake: whether the group was awake since the stamp
 *
 * For a caller that read the fraction and its stamp: the fraction decays
 * over @dt_ns at the group's half-life (sp_state_group_dt_us()), towards
 * 1024 if @awake, else 0.
 */
static inline void sp_state_group_fold_move(struct sp_group_state *g, u32 avg, u64 dt_ns,
					    u64 now_ns, bool awake)
{
	u64 dt_us = sp_state_group_dt_us(dt_ns);

	SP_WRITE_ONCE(g->awake_avg, sp_state_decay_us(avg, dt_us, awake ? SP_CAP_SCALE : 0));
	SP_WRITE_ONCE(g->avg_stamp_ns, now_ns);
}

/**
 * sp_state_group_fold_at() - sp_state_group_fold() for the idle path
 * @g: the group's entry
 * @now_ns: the time, ns
 * @awake: whether the group was awake since the fraction's stamp
 *
 * The same result; a fold that would write the fraction back unchanged
 * (sp_state_group_fold_keeps()) only moves the stamp, without a call.
 */
static inline void sp_state_group_fold_at(struct sp_group_state *g, u64 now_ns, bool awake)
{
	u64 stamp = SP_READ_ONCE(g->avg_stamp_ns);
	u32 avg = SP_READ_ONCE(g->awake_avg);

	if (now_ns > stamp && !sp_state_group_fold_keeps(avg, awake, now_ns - stamp))
		sp_state_group_fold_move(g, avg, now_ns - stamp, now_ns, awake);
	else
		SP_WRITE_ONCE(g->avg_stamp_ns, now_ns);
}

/**
 * sp_state_group_refresh() - fold an awake group forward if its stamp is stale
 * @g: the group's entry
 * @now_ns: the time, ns
 *
 * Folds it (sp_state_group_fold()) only when its stamp is over
 * %SP_STALE_NS old, so that readers can take it as stored.
 */
static inline void sp_state_group_refresh(struct sp_group_state *g, u64 now_ns)
{
	if (now_ns > SP_READ_ONCE(g->avg_stamp_ns) + SP_STALE_NS)
		sp_state_group_fold_at(g, now_ns, true);
}

/**
 * sp_state_groups_release() - a CPU stops keeping its groups awake
 * @st: the snapshot
 * @m: the model
 * @cpu: the CPU, in @m
 * @now_ns: the time, ns
 *
 * Return: the mask of levels whose group went idle (bit l for level l).
 */
static inline u32 sp_state_groups_release(struct sp_state *st, const struct sp_model *m,
					  u32 cpu, u64 now_ns)
{
	u32 l, changed = 0;

	for (l = 0; l < m->nr_levels; l++) {
		struct sp_group_state *g = &st->group[m->cpu_group[l][cpu]];

		if (sp_atomic_dec(&g->nr_awake) == 0) {
			sp_state_group_fold_at(g, now_ns, true);
			SP_WRITE_ONCE(g->idle_since_ns, now_ns);
			changed |= 1u << l;
		} else {
			sp_state_group_refresh(g, now_ns);
		}
	}
	return changed;
}

/**
 * sp_state_groups_hold() - a CPU starts keeping its groups awake
 * @st: the snapshot
 * @m: the model
 * @cpu: the CPU, in @m
 * @now_ns: the time, ns
 *
 * Return: the mask of levels whose group woke up (bit l for level l).
 */
static inline u32 sp_state_groups_hold(struct sp_state *st, const struct sp_model *m,
				       u32 cpu, u64 now_ns)
{
	u32 l, changed = 0;

	for (l = 0; l < m->nr_levels; l++) {
		struct sp_group_state *g = &st->group[m->cpu_group[l][cpu]];

		if (sp_atomic_inc(&g->nr_awake) == 1) {
			sp_state_group_fold_at(g, now_ns, false);
			SP_WRITE_ONCE(g->awake_since_ns, now_ns);
			changed |= 1u << l;
		} else {
			sp_state_group_refresh(g, now_ns);
		}
	}
	return changed;
}

/**
 * sp_state_groups_touch() - refresh the groups of a CPU that keeps them awake
 * @st: the snapshot
 * @m: the model
 * @cpu: the CPU, in @m
 * @now_ns: the time, ns
 *
 * @cpu stays in a shallow state or leaves one: its groups are all awake,
 * and each is folded forward if its stamp is stale
 * (sp_state_group_refresh()).
 */
static inline void sp_state_groups_touch(struct sp_state *st, const struct sp_model *m,
					 u32 cpu, u64 now_ns)
{
	u32 l;

	for (l = 0; l < m->nr_levels; l++)
		sp_state_group_refresh(&st->group[m->cpu_group[l][cpu]], now_ns);
}

/**
 * sp_state_deep() - does an idle state let the groups above sleep?
 * @pd: the pd
 * @idx: an idle-state index of @pd (not %SP_CPU_AWAKE)
 *
 * A polling state keeps the groups awake (the CPU runs): a pd whose deepest
 * state polls never lets them sleep (sp_state_sleep_from()).
 *
 * Return: true if @idx is @pd's deepest state or past it and that state
 * does not poll, or @pd has no idle states.
 */
static inline bool sp_state_deep(const struct sp_pd *pd, u32 idx)
{
	u32 n = pd->nr_idle;

	return !n || (idx + 1u >= n && pd->nr_poll < n);
}

/**
 * sp_state_sleep_from() - the first idle state that lets the groups sleep
 * @pd: the pd
 *
 * Return: @pd's deepest state, one past it if that state polls (none
 * does), 0 without states: the states at or past it are sp_state_deep().
 */
static inline u32 sp_state_sleep_from(const struct sp_pd *pd)
{
	u32 n = pd->nr_idle;

	return n ? n - 1u + (pd->nr_poll >= n) : 0;
}

/**
 * sp_state_fold_idle() - the idle path's fold of a CPU's utilisation
 * @c: the CPU's entry
 * @rate: what it moved towards since its stamp: cap_k while it ran, 0
 *	  while it idled
 * @now_ns: the time, ns; the new stamp
 *
 * Context: @c's CPU, the entry's one writer.
 *
 * Return: the new utilisation, 0..1024.
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

/**
 * sp_state_enter_cpu() - sp_state_idle_enter() for a CPU of the model
 * @st: the snapshot
 * @m: the model
 * @pd: @cpu's pd
 * @cpu: the CPU
 * @idx: the idle state's index, within @pd's states
 * @now_ns: the time, ns
 *
 * The idle path, inline for the accounting (core/sp_acct.c), which feeds
 * every idle event through it.  On the first entry after a busy stretch it
 * clears the CPU's work in flight (its queue ran dry), folds the stretch in
 * at the CPU's capacity and notes the OPP that utilisation asks for
 * (schedutil's 1.25 headroom) in opp_req.
 *
 * Context: @cpu's idle path.
 *
 * Return: as sp_state_idle_enter().
 */
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
	sp_state_req_update(st, m, m->cpu_pd[cpu], cpu, k);
	SP_WRITE_ONCE(c->idle_since_ns, now_ns);
	SP_WRITE_ONCE(c->idle_state, (s32)idx);
	if (deep)
		return sp_state_groups_release(st, m, cpu, now_ns);
	sp_state_groups_touch(st, m, cpu, now_ns);
	return 0;
}

/**
 * sp_state_exit_cpu() - sp_state_idle_exit() for an idle CPU of the model
 * @st: the snapshot
 * @m: the model
 * @pd: @cpu's pd
 * @cpu: the CPU, idle in @st
 * @now_ns: the time, ns
 *
 * Context: @cpu's idle path.
 *
 * Return: as sp_state_idle_exit().
 */
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

/**
 * sp_state_cpu_idle() - is a CPU idle in the snapshot?
 * @st: the snapshot
 * @cpu: the CPU, below %SP_MAX_CPUS
 *
 * Return: true if it is in an idle state, false if awake.
 */
static inline bool sp_state_cpu_idle(const struct sp_state *st, u32 cpu)
{
	return SP_READ_ONCE(st->cpu[cpu].idle_state) != SP_CPU_AWAKE;
}

/**
 * sp_state_is_deepest() - does a CPU's state let its groups sleep?
 * @m: the model
 * @cpu: the CPU, in @m
 * @idx: an idle-state index of its pd, or %SP_CPU_AWAKE
 *
 * Return: false for %SP_CPU_AWAKE, else as sp_state_deep().
 */
static inline bool sp_state_is_deepest(const struct sp_model *m, u32 cpu, s32 idx)
{
	if (idx == SP_CPU_AWAKE)
		return false;
	return sp_state_deep(&m->pd[m->cpu_pd[cpu]], (u32)idx);
}

#endif /* SP_STATE_H */
