/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_acct.h - idle-prediction accuracy and modelled energy, from idle events.
 *
 * The kernel's idle hook (cpuidle_hook.c) and the simulator feed the same
 * two calls, sp_acct_enter() and sp_acct_exit(), with the CPU, the idle
 * state index and a timestamp.  They keep the snapshot (sp_state.h) up to
 * date and account, per CPU and per idle state, how often the state was
 * entered, how long the CPU stayed and whether the stay justified the state
 * (the verdict), and, per CPU and per group, the energy the model says was
 * spent.  Everything is written by the CPU the event is about, except the
 * group energies (atomics, since any CPU of a group can wake or idle it).
 */
#ifndef SP_ACCT_H
#define SP_ACCT_H

#include "sp_state.h"
#include "sp_enums.h"

/*
 * Verdict on one idle stay of residency r in state s (targets t_s):
 *	early	r <  t_s		(too deep: the entry cost was not recovered)
 *	late	r >= t_{s+1}		(too shallow: the next deeper state would
 *					 have paid off; never for the deepest)
 *	hit	otherwise
 */
SP_ENUM_DEFINE(sp_verdict, SP_VERDICT_LIST, SP_V_NR);

extern const char *const sp_verdict_names[SP_V_NR];

struct sp_idle_stat {
	u64 residency_us;	/* total residency of the completed stays since reset */
	u64 verdict[SP_V_NR];	/* the stays by verdict, counted at exit */
};

/*
 * Time, not energy: an idle stay adds to its state's residency_us and
 * verdict count, a busy stretch to busy_opp_us[] of the OPP its pd ran at;
 * the totals (stays, exits, busy and idle time) are the sums of those, and
 * sp_acct_cpu_sum() prices them when read.
 */
struct sp_acct_cpu {
	struct sp_idle_stat state[SP_MAX_IDLE];
	u64 busy_opp_us[SP_MAX_OPPS];	/* closed busy stretches per OPP of the pd */
} SP_ALIGNED(64);

/**
 * sp_acct_stat_entries() - completed stays in one idle state
 * @s: the state's counters
 *
 * Return: the sum of its verdict counts, one per stay.
 */
static inline u64 sp_acct_stat_entries(const struct sp_idle_stat *s)
{
	u64 n = 0;
	u32 v;

	for (v = 0; v < SP_V_NR; v++)
		n += SP_READ_ONCE(s->verdict[v]);
	return n;
}

/**
 * sp_acct_cpu_exits() - a CPU's idle exits since reset
 * @ac: the CPU's counters
 *
 * Return: its completed stays in every state.
 */
static inline u64 sp_acct_cpu_exits(const struct sp_acct_cpu *ac)
{
	u64 n = 0;
	u32 i;

	for (i = 0; i < SP_MAX_IDLE; i++)
		n += sp_acct_stat_entries(&ac->state[i]);
	return n;
}

/**
 * sp_acct_cpu_idle_us() - a CPU's closed idle time since reset
 * @ac: the CPU's counters
 *
 * Return: the residency of its completed stays in every state, us.
 */
static inline u64 sp_acct_cpu_idle_us(const struct sp_acct_cpu *ac)
{
	u64 us = 0;
	u32 i;

	for (i = 0; i < SP_MAX_IDLE; i++)
		us += SP_READ_ONCE(ac->state[i].residency_us);
	return us;
}

/**
 * sp_acct_cpu_busy_us() - a CPU's closed busy time since reset
 * @ac: the CPU's counters
 *
 * Return: the busy time at every OPP, us.
 */
static inline u64 sp_acct_cpu_busy_us(const struct sp_acct_cpu *ac)
{
	u64 us = 0;
	u32 k;

	for (k = 0; k < SP_MAX_OPPS; k++)
		us += SP_READ_ONCE(ac->busy_opp_us[k]);
	return us;
}

struct sp_acct_group {
	sp_atomic64_t wakeups;		/* wakes from idle */
	sp_atomic64_t active_us;	/* closed awake stretches */
	sp_atomic64_t idle_us;		/* closed idle stretches */
} SP_ALIGNED(64);

struct sp_acct {
	u64 reset_ns;		/* stretches are clipped to start here */
	struct sp_acct_cpu cpu[SP_MAX_CPUS];
	struct sp_acct_group group[SP_MAX_GROUPS];
};

/* What an idle exit reports (for the sched_power_idle trace event). */
struct sp_idle_exit_info {
	u32 state;		/* model idle-state index the CPU was in */
	u32 target_us;		/* its target residency */
	u64 residency_us;	/* the whole stay, not clipped to the reset */
	u32 verdict;		/* enum sp_verdict */
};

/*
 * Totals of one CPU or group including the stretch still open at @now_ns.
 * Energies saturate at 2^64 - 1 nJ (584 years at 1 W) rather than wrap.
 */
struct sp_energy_sum {
	u64 busy_us, idle_us;		/* groups: awake (active) and idle time */
	u64 busy_nj, idle_nj, wake_nj;	/* groups: active, idle, wake */
	u64 wakeups;
};

/**
 * sp_acct_verdict() - classify one idle stay
 * @pd: the CPU's pd
 * @idx: the state it stayed in (clamped to @pd's deepest)
 * @residency_us: how long, us
 *
 * Return: SP_V_EARLY, SP_V_LATE or SP_V_HIT, as the rule above enum
 * sp_verdict says; SP_V_HIT for a pd without idle states.
 */
u32 sp_acct_verdict(const struct sp_pd *pd, u32 idx, u64 residency_us);

/**
 * sp_acct_reset() - zero every counter
 * @a: the accounting
 * @now_ns: the time, ns: stretches open now are charged from here on
 *
 * Context: no sp_acct_enter() or sp_acct_exit() may run on @a meanwhile
 * (one that did could be lost).
 */
void sp_acct_reset(struct sp_acct *a, u64 now_ns);

/**
 * sp_acct_enter() - a CPU enters an idle state
 * @a: the accounting
 * @st: the snapshot, updated too (sp_state_idle_enter())
 * @m: the model @st is synchronised with
 * @cpu: the CPU; one outside @m is ignored
 * @idx: the idle state, a kernel/cpuidle index (clamped to the pd's
 *	 deepest state)
 * @now_ns: the time, ns
 *
 * Closes the CPU's busy stretch at the OPP its pd runs at
 * (sp_state_pd_opp()) and the awake stretch of any group that goes idle.
 *
 * Context: @cpu's idle path, or the simulator's event loop: @cpu's entries
 * have one writer.
 */
void sp_acct_enter(struct sp_acct *a, struct sp_state *st,
		   const struct sp_model *m, u32 cpu, u32 idx, u64 now_ns);

/**
 * sp_acct_exit() - a CPU leaves idle
 * @a: the accounting
 * @st: the snapshot, updated too (sp_state_idle_exit())
 * @m: the model @st is synchronised with
 * @cpu: the CPU; one outside @m is ignored
 * @now_ns: the time, ns
 * @out: what the stay was (for the sched_power_idle trace event), or NULL
 *
 * Classifies and counts the stay (sp_acct_verdict()), and closes the idle
 * stretch of every group the CPU wakes, counting one wake-up each.
 *
 * Context: @cpu's idle path, or the simulator's event loop.
 *
 * Return: true; false (and nothing done) if the snapshot had the CPU awake,
 * i.e. its entry was not seen, or @cpu is outside @m.
 */
bool sp_acct_exit(struct sp_acct *a, struct sp_state *st,
		  const struct sp_model *m, u32 cpu, u64 now_ns,
		  struct sp_idle_exit_info *out);

/**
 * sp_acct_cpu_sum() - a CPU's energy and time since reset
 * @a: the accounting
 * @st: the snapshot
 * @m: the model
 * @cpu: the CPU; one outside @m reads as zeros
 * @now_ns: the time, ns: the open stretch is counted up to here
 * @s: the totals: busy and idle time in us, their energy and that of the
 *     wake-ups in nJ, the wake-ups
 *
 * Each OPP's busy time at its P_k, each state's residency at its power,
 * each exit at its state's wakeup_uj.
 *
 * Context: any thread, concurrently with the CPU's events: the counters and
 * the open stretch are read whole (the CPU's sequence count), waiting for
 * an event in progress.
 */
void sp_acct_cpu_sum(const struct sp_acct *a, const struct sp_state *st,
		     const struct sp_model *m, u32 cpu, u64 now_ns,
		     struct sp_energy_sum *s);

/**
 * sp_acct_group_sum() - a group's energy and time since reset
 * @a: the accounting
 * @st: the snapshot
 * @m: the model
 * @g: the group's index in @m; one outside it reads as zeros
 * @now_ns: the time, ns: the open stretch is counted up to here
 * @s: the totals: awake (busy_us) and idle time in us, their energy and
 *     that of the wake-ups in nJ, the wake-ups
 *
 * Awake time at active_uw, idle time at idle_uw, each wake-up at the
 * group's wakeup_uj.
 *
 * Context: as sp_acct_cpu_sum(), by the counts of the group's CPUs, the
 * only ones that change it.
 */
void sp_acct_group_sum(const struct sp_acct *a, const struct sp_state *st,
		       const struct sp_model *m, u32 g, u64 now_ns,
		       struct sp_energy_sum *s);

#endif /* SP_ACCT_H */
