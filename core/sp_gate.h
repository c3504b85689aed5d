/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_gate.h - may the load balancer move tasks between top-level groups?
 */
#ifndef SP_GATE_H
#define SP_GATE_H

#include "sp_state.h"
#include "sp_enums.h"

SP_ENUM_DEFINE(sp_gate_reason, SP_GATE_LIST, SP_GATE_NR);

extern const char *const sp_gate_names[SP_GATE_NR];

SP_ENUM_DEFINE(sp_kick_reason, SP_KICK_LIST, SP_KICK_NR);

extern const char *const sp_kick_names[SP_KICK_NR];

/*
 * A task that has waited this long behind another on a CPU of the domain
 * lets CFS balance across the gate: one 250 Hz tick, the time 6.1's own
 * idle balancing takes to answer an overloaded CPU (a nohz kick at the
 * busy CPU's tick), so a gated balance delays a starving task by at most
 * about one tick more than CFS would.
 */
#define SP_GATE_STARVE_NS	4000000ull

/*
 * A group of the gate level awake more than this share of the time (its
 * awake fraction, sp_state_group_awake()) is one that its own tasks keep
 * waking, each wake-up costing them its exit latency: a CPU-bound task
 * alone on its CPU may then move into it (sp_gate.c's DOC block).  Where
 * the awake time counts each exit, the exits take at most that share of
 * the time: power mode's makespan tolerance, 1.02 of CFS's.
 */
#define SP_GATE_AWAKE_PCT	2u

/* What one balance looks at, besides the snapshot. */
struct sp_gate_in {
	u32 mode;		/* enum sp_mode */
	bool enabled;		/* the balance_gate knob */
	u32 overutil_pct;	/* the overutil_pct knob */
	u64 now_ns;		/* same clock as the snapshot */
	u32 dst_cpu;		/* the CPU that would pull; SP_NONE: unknown */
};

/**
 * sp_gate_level() - the model level whose groups the gate keeps apart
 * @m: a derived model (sp_model_derive())
 *
 * The topmost level with more than one group: the packages of a
 * multi-socket machine, the clusters of a one-package big.LITTLE board.
 *
 * Return: the level index, or SP_NONE when every level has one group.
 */
static inline u32 sp_gate_level(const struct sp_model *m)
{
	return m->gate_level;
}

/**
 * sp_gate_begin() - the verdict that needs no look at the domain's CPUs
 * @m: the model
 * @in: mode, knob
 * @crosses: the domain spans CPUs of more than one group of sp_gate_level()
 *
 * Return: SP_GATE_OFF (the mode does not act, or the knob is off),
 * SP_GATE_LOCAL (the domain stays inside one group: CFS's), or
 * SP_GATE_GATED, which sp_gate_cpu() may still turn into a pass.
 */
u32 sp_gate_begin(const struct sp_model *m, const struct sp_gate_in *in,
		  bool crosses);

/**
 * sp_gate_cpu_check() - sp_gate_cpu() past its first tests
 * @m: the model
 * @st: the snapshot
 * @cpu: a CPU of the balanced domain
 * @nr_running: @cpu's nr_running, as sp_gate_cpu_settled() read it
 * @in: the knobs and the time
 * @waited_ns: NULL, or set to the sp_gate_waited_ns() the verdict read,
 *	where it read one (a verdict of SP_GATE_STARVING, SP_GATE_WAITING,
 *	or SP_GATE_GATED with a task waiting); left as it was otherwise
 *
 * Answers whole, without sp_gate_cpu_settled()'s tests; called where they
 * leave the answer open, it reads the decayed utilisation, the time and
 * the groups' state only there.
 *
 * Return: what sp_gate_cpu() returns for @cpu with @nr_running tasks.
 */
u32 sp_gate_cpu_check(const struct sp_model *m, const struct sp_state *st,
		      u32 cpu, u32 nr_running, const struct sp_gate_in *in,
		      u64 *waited_ns);

/**
 * sp_gate_waited_ns() - how long a task has waited on a CPU
 * @st: the snapshot
 * @cpu: a CPU below SP_MAX_CPUS whose nr_running is 2 or more
 * @now_ns: the time
 *
 * Return: @now_ns less the time @cpu's nr_running last reached 2, or 0
 * when that stamp is later than @now_ns (another CPU's clock).
 */
static inline u64 sp_gate_waited_ns(const struct sp_state *st, u32 cpu,
				    u64 now_ns)
{
	u64 since = SP_READ_ONCE(st->cpu[cpu].overload_since_ns);

	return now_ns > since ? now_ns - since : 0;
}

/**
 * sp_gate_group_of() - a CPU's group of the gate level
 * @m: a derived model
 * @cpu: the CPU, or SP_NONE
 *
 * Return: the group's index, or SP_NONE when @cpu or the level is not known.
 */
static inline u32 sp_gate_group_of(const struct sp_model *m, u32 cpu)
{
	if (cpu >= m->nr_cpus || cpu >= SP_MAX_CPUS)
		return SP_NONE;
	return m->gate_cpu[cpu].group;
}

/**
 * sp_gate_util_bound() - at least the utilisation the gate reads of a CPU
 * @c: the CPU's entry in the snapshot
 * @small: a CPU of larger capacity exists
 *
 * sp_state_cpu_util() moves the stored average towards the CPU's rate (its
 * capacity while awake, 0 in idle), never past it; on a @small CPU the
 * gate adds sp_state_cpu_placed(), which only decays or drops the stored
 * sum placed tasks brought.
 *
 * Return: the larger of the stored average and the rate, plus on a @small
 * CPU the stored placed sum.
 */
static inline u64 sp_gate_util_bound(const struct sp_cpu_state *c, bool small)
{
	u32 util = SP_READ_ONCE(c->util), rate = 0;

	if (SP_READ_ONCE(c->idle_state) == SP_CPU_AWAKE)
		rate = SP_READ_ONCE(c->cap);
	if (rate > util)
		util = rate;
	return small ? (u64)util + SP_READ_ONCE(c->placed_util) : util;
}

/**
 * sp_gate_cpu_settled() - sp_gate_cpu()'s answer, if it needs no time
 * @m: the model, derived (sp_model_derive(): its gate_cpu table)
 * @st: the snapshot
 * @cpu: a CPU of the balanced domain
 * @in: the knobs; its now_ns is not read
 * @nr_running: set to @cpu's nr_running as read, for sp_gate_cpu_check()
 *
 * The common case answers here, from @cpu's gate_cpu entry, its
 * nr_running and a bound of its utilisation: a CPU of the largest
 * capacity with nothing waiting is gated unless dst is in another group
 * of the gate level and the bound exceeds overutil_pct.
 *
 * Return: SP_GATE_GATED when that settles it, SP_GATE_NR when
 * sp_gate_cpu_check() must answer (with @in's now_ns).
 */
static inline u32 sp_gate_cpu_settled(const struct sp_model *m,
				      const struct sp_state *st, u32 cpu,
				      const struct sp_gate_in *in, u32 *nr_running)
{
	u32 cap, dst_group;

	*nr_running = 0;
	if (cpu >= m->nr_cpus || cpu >= SP_MAX_CPUS)
		return SP_GATE_GATED;
	*nr_running = SP_READ_ONCE(st->cpu[cpu].nr_running);
	cap = m->gate_cpu[cpu].cap;
	if (*nr_running >= 2 || cap < m->cap_max)
		return SP_GATE_NR;
	dst_group = sp_gate_group_of(m, in->dst_cpu);
	if (dst_group == SP_NONE || dst_group == m->gate_cpu[cpu].group ||
	    sp_gate_util_bound(&st->cpu[cpu], false) * 100 <= (u64)cap * in->overutil_pct)
		return SP_GATE_GATED;
	return SP_GATE_NR;
}

/**
 * sp_gate_cpu() - does one CPU of the domain let the balance through?
 * @m: the model, derived (sp_model_derive(): its gate_cpu table)
 * @st: the snapshot
 * @cpu: a CPU of the balanced domain
 * @in: the knobs and the time
 *
 * sp_gate_cpu_settled(), then if that does not settle it
 * sp_gate_cpu_check().
 *
 * Return: SP_GATE_OVERUTIL (its utilisation exceeds overutil_pct of its
 * capacity and a move can help it: a task waits on it, nr_running >= 2, a
 * CPU of larger capacity exists, or @in's dst_cpu is in a group of
 * sp_gate_level() awake more than SP_GATE_AWAKE_PCT % of the time),
 * SP_GATE_STARVING (it has had a task waiting, nr_running >= 2,
 * for SP_GATE_STARVE_NS or longer), SP_GATE_WAITING (it has a task
 * waiting, for less long, and @in's dst_cpu is in an awake group of
 * sp_gate_level(); never when dst_cpu is SP_NONE), else SP_GATE_GATED.
 */
static inline u32 sp_gate_cpu(const struct sp_model *m, const struct sp_state *st,
			      u32 cpu, const struct sp_gate_in *in)
{
	u32 nr_running, reason = sp_gate_cpu_settled(m, st, cpu, in, &nr_running);

	if (reason != SP_GATE_NR)
		return reason;
	return sp_gate_cpu_check(m, st, cpu, nr_running, in, NULL);
}

/**
 * sp_gate_passes() - does a verdict let the balancer run?
 * @reason: enum sp_gate_reason
 *
 * Return: true for every verdict but SP_GATE_GATED.
 */
static inline bool sp_gate_passes(u32 reason)
{
	return reason != SP_GATE_GATED;
}

/**
 * sp_gate_kick_target() - the CPU a busy CPU's idle-balance kick would wake
 * @m: the model
 * @st: the snapshot
 * @cpu: the busy CPU whose tick kicks
 *
 * find_new_ilb() takes the first CPU of nohz.idle_cpus_mask, in CPU
 * order, that is not @cpu and is idle; the snapshot's idle state (the
 * cpuidle probes') stands for that mask (sp_gate.c's DOC block).
 *
 * Return: the first CPU other than @cpu that is not SP_CPU_AWAKE in @st,
 * or SP_NONE.
 */
u32 sp_gate_kick_target(const struct sp_model *m, const struct sp_state *st,
			u32 cpu);

/**
 * sp_gate_kick_begin() - sp_gate_kick()'s verdicts that need no time
 * @m: the model, derived
 * @st: the snapshot
 * @cpu: the busy CPU whose tick it is
 * @in: mode and knob (its enabled); its dst_cpu is set to the predicted
 *      target when the CPUs must be asked; overutil_pct and now_ns are not
 *      read
 * @target: set to sp_gate_kick_target(), SP_NONE if no CPU would be kicked
 *
 * The first step of sp_gate_kick(): the knobs, the predicted target, its
 * group and whether every CPU of that group is idle.
 *
 * Return: SP_KICK_OFF, SP_KICK_NONE, SP_KICK_LOCAL or SP_KICK_AWAKE, as
 * sp_gate_kick(); SP_KICK_GATED when the verdict is sp_gate_kick_cpus()'s.
 */
u32 sp_gate_kick_begin(const struct sp_model *m, const struct sp_state *st,
		       u32 cpu, struct sp_gate_in *in, u32 *target);

/**
 * sp_gate_kick_cpus() - does a CPU let a balance pulled by dst_cpu through?
 * @m: the model, derived
 * @st: the snapshot
 * @in: overutil_pct, the time and dst_cpu (set by sp_gate_kick_begin())
 *
 * Asks sp_gate_cpu() of every CPU of the model, in CPU order, until one
 * passes.  Every CPU is the span of the target's top-level domain, the
 * one whose balance crosses the gate: each level above sp_gate_level()
 * has one group, and every level partitions the CPUs.  Neither the
 * target's group (idle, but a CPU of it may be overutilised, or have a
 * task queued before it leaves idle) nor the ticking CPU's can be left
 * out.
 *
 * Return: SP_KICK_OVERUTIL, SP_KICK_STARVING or SP_KICK_WAITING for the
 * first CPU's pass, else SP_KICK_GATED.
 */
u32 sp_gate_kick_cpus(const struct sp_model *m, const struct sp_state *st,
		      const struct sp_gate_in *in);

/**
 * sp_gate_kick() - may a busy CPU's tick kick an idle balance?
 * @m: the model, derived
 * @st: the snapshot
 * @cpu: the busy CPU whose tick it is
 * @in: mode, knob (the kick_gate and balance_gate knobs both on), overutil_pct
 *      and the time; its dst_cpu is set to the predicted target
 * @target: set to sp_gate_kick_target(), SP_NONE if no CPU would be kicked
 *
 * sp_gate_kick_begin(), then, if it leaves the verdict to the CPUs,
 * sp_gate_kick_cpus().  The kernel's wrapper calls the two itself and
 * reads overutil_pct and the clock for @in only between them.
 *
 * Return: SP_KICK_GATED when the kick's target is in another group of
 * sp_gate_level() than @cpu, every CPU of that group is idle (in any
 * state), and no CPU of the model lets a balance pulled by the target
 * through sp_gate_cpu() (with dst_cpu the target); else why the tick is
 * CFS's: SP_KICK_OFF (the mode does not act or a knob is off),
 * SP_KICK_NONE (no other CPU idle), SP_KICK_LOCAL (the target is in
 * @cpu's group, or the model has no gate level), SP_KICK_AWAKE (a CPU of
 * the target's group is awake), SP_KICK_OVERUTIL, SP_KICK_STARVING or
 * SP_KICK_WAITING (sp_gate_cpu()'s pass for some CPU).
 */
u32 sp_gate_kick(const struct sp_model *m, const struct sp_state *st, u32 cpu,
		 struct sp_gate_in *in, u32 *target);

/**
 * sp_gate_kick_passes() - does a kick verdict leave the tick to CFS?
 * @reason: enum sp_kick_reason
 *
 * Return: true for every verdict but SP_KICK_GATED.
 */
static inline bool sp_gate_kick_passes(u32 reason)
{
	return reason != SP_KICK_GATED;
}

#endif /* SP_GATE_H */
