// SPDX-License-Identifier: GPL-2.0
/*
 * The load-balancer gate: load_balance() between the model's top-level groups.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the load-balancer gate in the kernel
 *
 * The rule is core/sp_gate.c's; this file puts it in front of CFS's
 * balancer.  load_balance() (sched_balance_rq() from 6.10: the redirect
 * tries both names) is the narrowest out-of-line function of the balance
 * path whose arguments are all public types: the CPU being balanced, its
 * run queue (opaque), the struct sched_domain being balanced, the balance
 * type and CFS's continue flag.  rebalance_domains() calls it from the
 * SCHED_SOFTIRQ for the periodic balance and for the idle balance a busy
 * CPU kicks on behalf of tickless ones; sched_balance_newidle() calls it
 * with IRQs off as a CPU is about to idle; both hold rcu_read_lock().
 *
 * The redirect (redirect.c) sends every call to sp_balance_wrapper().  It
 * asks sp_gate_begin() whether the domain crosses the gate: whether its
 * span leaves the balanced CPU's group of the gate level (sp_gate_level(),
 * one cpumask per CPU, rebuilt when the model changes).  If it does, each
 * active CPU of the span is asked sp_gate_cpu(), with the balanced CPU as
 * the one that would pull, until one is overutilised with a task waiting,
 * a larger CPU to grow onto or the balanced CPU in another group that its
 * tasks keep waking, starving, or has a task waiting while the balanced
 * CPU's group is awake.  Each CPU is asked in two steps,
 * sp_gate_cpu_settled() and, only where that leaves it open,
 * sp_gate_cpu_check(), which alone reads the time: the clock is read once
 * per balance, at the first such CPU, and a domain whose CPUs all settle
 * is gated without it.  A balance that passes runs CFS's load_balance()
 * unchanged; a gated one returns 0 (nothing moved) and leaves the domain
 * as CFS leaves a balanced one: nr_balance_failed is cleared and, except
 * for a newidle balance, balance_interval doubles up to max_interval.  So a
 * gated domain is retried at a balanced domain's cadence (4 and 8 ms idle
 * on the two-package guest, 16 times that from a busy CPU), as under
 * mainline EAS, whose find_busiest_group() reports "balanced" while no CPU
 * is overutilised; without the back-off the gate would be asked at the
 * shortest interval for as long as it holds, and a failure count kept
 * from before could send the first balance it lets through to an active
 * (stopper) migration.
 *
 * The starvation guard needs each CPU's nr_running, from the exported
 * sched_update_nr_running_tp tracepoint (every enqueue and dequeue, with
 * the run queue's lock held).  6.1 to 6.12 export no accessor for its
 * struct rq (sched_trace_rq_cpu() and friends are gone since 5.16), so the
 * probe reads nr_running as the second field of struct rq, after its
 * raw_spinlock_t (the same head from 4.4 to 6.12, and the module is built
 * with the kernel's own spinlock type), and finds the CPU from the run
 * queue's address: run queues are one per-CPU variable, so rq minus the
 * variable's address is the CPU's per-CPU offset.  The wrapper learns that
 * address from the CPU and run-queue pair every call hands it.  Every
 * event checks the reading against the tracepoint's own count (nr_running
 * after = before + change, exact under the run queue's lock); one failure
 * turns the gate off for the module's life and counts in
 * stats/balance_nr_mismatch, so a kernel whose layout differs gets CFS's
 * balancer, never a gate that cannot see waiting tasks.  The snapshot's
 * count is written only when it crosses 2: the gate and the wake-up hook
 * ask only whether a task waits, so a CPU whose count goes 0, 1, 0 (one
 * task at a time) costs the check and nothing more.
 *
 * The redirect and the probe are registered only while the gate can act:
 * mode power or balanced, balance_gate 1.  The knobs' notifier registers
 * and removes them in process context, so in the other modes the balancer
 * and every enqueue run as without the module.  A knob write whose gate
 * cannot be registered (load_balance() owned by another IPMODIFY user:
 * -EBUSY) is refused with that errno and undone (knobs.c).  Counters: stats/
 * balance_gated, balance_passed, and the passes by reason (balance_local,
 * balance_overutilised, balance_starving, balance_waiting); the trace event
 * sched_power:sched_power_balance has one record per call.
 *
 * The kick gate (core/sp_gate.c's DOC "the kick gate") is a second
 * redirect, of trigger_load_balance() (sched_balance_trigger() from
 * 6.10), the only out-of-line function in front of the idle-balance
 * kick's IPI: nohz_balancer_kick(), kick_ilb() and find_new_ilb() are
 * inlined in 6.1 (x86, arm64) and 6.12.  scheduler_tick() calls it on
 * the ticking CPU for its own run queue, after dropping the run queue's
 * lock, with IRQs off.  sp_balance_kick_wrapper() asks sp_gate_kick()'s
 * two steps: sp_gate_kick_begin() with the mode and the knobs' on/off,
 * then, only if it leaves the verdict to the CPUs, sp_gate_kick_cpus()
 * with overutil_pct and the clock.  A gated tick calls raise_softirq(SCHED_SOFTIRQ)
 * (not exported: its address is looked up with sp_redirect_lookup() when
 * the kick gate first registers, and without it the kick gate is not
 * registered) instead of the original, so the CPU's own periodic
 * balance runs as before; any other verdict calls the original.  It is
 * registered after the balance gate and removed before it, only while the
 * balance gate is registered and kick_gate is 1: it reads the counts of
 * waiting tasks that the balance gate's probe keeps, and its verdict is
 * off when the layout check has turned the balance gate off.  Its unload
 * proof is the redirect's (redirect.c): the wrapper runs with IRQs off, so
 * sp_redirect_unregister()'s synchronize_rcu() waits for it.  Counters:
 * stats/kick_gated, kick_passed; the trace event sched_power_kick.
 *
 * Where the kernel's domains do not separate the gate's groups (qemu's
 * arm64 virt board has one DIE domain over both clusters), a balance
 * inside a group and one between groups are the same call, and both are
 * gated; the starvation guard then bounds how long a task can wait.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched/topology.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock_types.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include "sched_power.h"
#include "core/sp_gate.h"
#include "sched_power_trace.h"

/*
 * The head of struct rq (kernel/sched/sched.h), the same from 4.4 to 6.12;
 * checked on every event (sp_balance_probe_nr()).
 */
struct sp_balance_rq_head {
	raw_spinlock_t lock;
	unsigned int nr_running;
};

/* Per CPU, the CPUs of its group at the gate level; one per model. */
struct sp_balance_groups {
	struct rcu_head rcu;
	u32 level;		/* sp_gate_level(), SP_NONE: nothing to gate */
	unsigned long masks[];	/* nr_cpu_ids masks of cpumask_size() bytes */
};

/* One CPU's per-CPU offset; sorted by offset, a run queue's CPU. */
struct sp_balance_off {
	unsigned long off;
	unsigned int cpu;
};

/* Serialises registration, the groups' writers and the offsets table. */
static DEFINE_MUTEX(sp_balance_lock);
static bool sp_balance_active;		/* redirect and probe registered */
static struct sp_balance_groups __rcu *sp_balance_groups_ptr;
static struct sp_balance_off *sp_balance_offs;
static unsigned int sp_balance_nr_offs;
static unsigned long sp_balance_rq_base;	/* the run queues' per-CPU address */
static bool sp_balance_nr_ok = true;	/* no reading has failed its check */
/*
 * Odd while the probe is being registered: enabling a tracepoint patches
 * each inlined add_nr_running()/sub_nr_running() site in turn, so a run
 * queue can change once through a site that already calls the probe and
 * then through one that does not yet, and its next reading would jump.
 * The readings are checked only against one taken in the same even epoch.
 */
static u32 sp_balance_nr_epoch;
/* Per run queue, its last reading and the epoch it was taken in. */
struct sp_balance_seen {
	u32 nr;		/* nr_running as read */
	u32 epoch;	/* sp_balance_nr_epoch then, rounded down to even */
};

static DEFINE_PER_CPU(struct sp_balance_seen, sp_balance_nr_seen);
/* The snapshot the probe writes (sp_cpuidle_state(), set before it runs). */
static struct sp_state *sp_balance_st;

/* ---- the run queues' nr_running ------------------------------------------ */

static void sp_balance_nr_fail(void)
{
	sp_stat_inc(SP_STAT_BAL_NR_BAD);
	WRITE_ONCE(sp_balance_nr_ok, false);
}

/* The CPU whose per-CPU offset is @off, -1 if none: this CPU first. */
static noinline int sp_balance_cpu_of_off(unsigned long off)
{
	unsigned int lo = 0, hi = sp_balance_nr_offs, mid;

	if (off == __my_cpu_offset)
		return smp_processor_id();
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (sp_balance_offs[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sp_balance_nr_offs && sp_balance_offs[lo].off == off)
		return sp_balance_offs[lo].cpu;
	return -1;
}

/*
 * The snapshot's count of @cpu (-1: this CPU), now @nr, which has just
 * crossed 2.  The time is only the start of a stretch with tasks waiting,
 * the one use sp_state_set_nr_running() makes of it.
 */
static noinline void sp_balance_nr_store(int cpu, u32 nr)
{
	u64 now = 0;

	if (cpu < 0)
		cpu = smp_processor_id();
	if (nr >= 2)
		now = sp_cpuidle_now_ns();
	sp_state_set_nr_running(sp_balance_st, cpu, nr, now);
}

/*
 * Check the reading of @rq, at per-CPU offset @off of CPU @cpu (-1: this
 * CPU, named only when the snapshot is written), against the last one
 * (if taken in this even epoch), record it, and write the snapshot's count
 * where it crosses 2 (the last reading and the snapshot are on the same
 * side of it: the reset and the probe are their only writers while the
 * probe is registered; the idle probes' restart, which clears the
 * snapshot, runs only as the mode leaves off, in the knobs' notifier
 * before this file's, which then resets both).  The snapshot's readers,
 * the gate and the wake-up hook's sync test, ask only whether a task
 * waits.
 */
static __always_inline void sp_balance_nr_read(const struct rq *rq,
					       unsigned long off, int cpu, int change)
{
	struct sp_balance_seen *seen = SHIFT_PERCPU_PTR(&sp_balance_nr_seen, off);
	u32 nr, last = seen->nr, epoch = READ_ONCE(sp_balance_nr_epoch);
	bool waited, waits;

	nr = READ_ONCE(((const struct sp_balance_rq_head *)rq)->nr_running);
	if (seen->epoch != epoch)
		seen->epoch = epoch & ~1u;	/* odd: never checked */
	else if (nr != last + (u32)change)
		sp_balance_nr_fail();
	seen->nr = nr;
	waited = last >= 2;
	waits = nr >= 2;
	if (unlikely(waited != waits))
		sp_balance_nr_store(cpu, nr);
}

/* sp_balance_nr_read() for a run queue not this CPU's: @off looked up once. */
static noinline void sp_balance_nr_remote(const struct rq *rq, unsigned long off,
					  int change)
{
	int cpu = sp_balance_cpu_of_off(off);

	if (cpu < 0) {
		sp_balance_nr_fail();
		return;
	}
	sp_balance_nr_read(rq, off, cpu, change);
}

/*
 * sched_update_nr_running_tp: @rq's nr_running just moved by @change, under
 * its lock (so one writer per CPU's entries).  Before the wrapper has seen
 * a run queue, there is no way to tell whose this is: nothing is recorded.
 * A run queue whose offset is this CPU's is this CPU's; another offset is
 * looked up, and one that is no CPU's fails the check.  Per-CPU variables
 * share the offsets, so the offset finds the run queue's last reading.
 * Every enqueue and dequeue runs this, hence notrace.
 */
static notrace void sp_balance_probe_nr(void *data, struct rq *rq, int change)
{
	unsigned long base = READ_ONCE(sp_balance_rq_base), off;

	if (!base)
		return;
	off = (unsigned long)rq - base;
	if (unlikely(off != __my_cpu_offset))
		sp_balance_nr_remote(rq, off, change);
	else
		sp_balance_nr_read(rq, off, -1, change);
}

/* The wrapper's CPU and run queue give the run queues' per-CPU address. */
static void sp_balance_learn(int this_cpu, const struct rq *this_rq)
{
	unsigned long base, old;

	if ((unsigned int)this_cpu >= nr_cpu_ids)
		return;
	base = (unsigned long)this_rq - per_cpu_offset(this_cpu);
	if (likely(READ_ONCE(sp_balance_rq_base) == base))
		return;
	/* another CPU may have learnt the same address since the read */
	old = cmpxchg(&sp_balance_rq_base, 0, base);
	if (old && old != base)
		sp_balance_nr_fail();	/* another CPU's pair disagrees */
}

/*
 * Before the probe is registered: start each CPU's count afresh from its
 * run queue if the address is known (a CPU found overloaded counts from
 * now), else from 0, and its last reading with it, in an epoch the probe
 * will have left.
 */
static void sp_balance_nr_reset(void)
{
	unsigned long base = READ_ONCE(sp_balance_rq_base);
	struct sp_state *st = sp_cpuidle_state();
	u64 now = sp_cpuidle_now_ns();
	unsigned int cpu, nr;

	for_each_possible_cpu(cpu) {
		const struct sp_balance_rq_head *rq;

		struct sp_balance_seen *seen = per_cpu_ptr(&sp_balance_nr_seen, cpu);

		nr = 0;
		if (base) {
			rq = (const void *)(base + per_cpu_offset(cpu));
			nr = READ_ONCE(rq->nr_running);
		}
		sp_state_set_nr_running(st, cpu, 0, now);
		sp_state_set_nr_running(st, cpu, nr, now);
		seen->nr = nr;
		seen->epoch = sp_balance_nr_epoch;	/* the next one is not checked */
	}
}

static int sp_balance_off_cmp(const void *a, const void *b)
{
	const struct sp_balance_off *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int sp_balance_offs_init(void)
{
	unsigned int cpu, n = 0;

	sp_balance_offs = kcalloc(num_possible_cpus(), sizeof(*sp_balance_offs),
				  GFP_KERNEL);
	if (!sp_balance_offs)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		sp_balance_offs[n].off = per_cpu_offset(cpu);
		sp_balance_offs[n++].cpu = cpu;
	}
	sort(sp_balance_offs, n, sizeof(*sp_balance_offs), sp_balance_off_cmp, NULL);
	sp_balance_nr_offs = n;
	return 0;
}

/* ---- the groups of the gate level ---------------------------------------- */

static const struct cpumask *sp_balance_mask(const struct sp_balance_groups *g,
					     unsigned int cpu)
{
	return (const struct cpumask *)((const char *)g->masks + cpu * cpumask_size());
}

/* @m's groups of its gate level into @g, a zeroed nr_cpu_ids-mask block. */
static void sp_balance_groups_fill(struct sp_balance_groups *g,
				   const struct sp_model *m)
{
	unsigned int cpu, i;

	g->level = sp_gate_level(m);
	if (g->level == SP_NONE)
		return;
	for (cpu = 0; cpu < m->nr_cpus && cpu < nr_cpu_ids; cpu++) {
		struct cpumask *mask = (struct cpumask *)sp_balance_mask(g, cpu);
		const struct sp_group *gr;
		u32 gi = m->gate_cpu[cpu].group;

		if (gi >= m->nr_groups)
			continue;
		gr = &m->group[gi];
		for (i = 0; i < gr->nr_cpus; i++)
			if (m->group_cpus[gr->cpu_off + i] < nr_cpu_ids)
				cpumask_set_cpu(m->group_cpus[gr->cpu_off + i], mask);
	}
}

static struct sp_balance_groups *sp_balance_groups_alloc(void)
{
	return kvzalloc(sizeof(struct sp_balance_groups) + nr_cpu_ids * cpumask_size(),
			GFP_KERNEL);
}

/* Publish @g (NULL: nothing gated) and free the groups it replaces. */
static void sp_balance_groups_publish(struct sp_balance_groups *g)
{
	struct sp_balance_groups *old;

	old = rcu_dereference_protected(sp_balance_groups_ptr,
					lockdep_is_held(&sp_balance_lock));
	rcu_assign_pointer(sp_balance_groups_ptr, g);
	if (old)
		kvfree_rcu(old, rcu);
}

/* Does @sd's span leave @cpu's group?  RCU read side. */
static bool sp_balance_crosses(int cpu, struct sched_domain *sd)
{
	const struct sp_balance_groups *g = rcu_dereference(sp_balance_groups_ptr);

	if (!g || g->level == SP_NONE || (unsigned int)cpu >= nr_cpu_ids)
		return false;
	return !cpumask_subset(sched_domain_span(sd), sp_balance_mask(g, cpu));
}

/* ---- the wrapper ------------------------------------------------------- */

static u32 sp_balance_idle_of(enum cpu_idle_type idle)
{
	if (idle == CPU_NEWLY_IDLE)
		return SP_LB_NEWIDLE;
	if (idle == CPU_IDLE)
		return SP_LB_IDLE;
	return SP_LB_BUSY;
}

static void sp_balance_count(u32 reason)
{
	switch (reason) {
	case SP_GATE_GATED:
		sp_stat_inc(SP_STAT_BAL_GATED);
		return;
	case SP_GATE_LOCAL:
		sp_stat_inc(SP_STAT_BAL_LOCAL);
		break;
	case SP_GATE_OVERUTIL:
		sp_stat_inc(SP_STAT_BAL_OVERUTIL);
		break;
	case SP_GATE_STARVING:
		sp_stat_inc(SP_STAT_BAL_STARVING);
		break;
	case SP_GATE_WAITING:
		sp_stat_inc(SP_STAT_BAL_WAITING);
		break;
	}
	sp_stat_inc(SP_STAT_BAL_PASSED);
}

/* Which CPU let a balance through, and how long a task had waited on it. */
struct sp_balance_why {
	int trigger;		/* -1: none */
	u64 waited_ns;		/* its starving or waiting task's wait, else 0 */
};

/*
 * Ask @sd's active CPUs, until one lets the balance through (@why).
 * The clock is read once, at the first CPU that sp_gate_cpu_settled()
 * leaves to sp_gate_cpu_check(): a domain whose CPUs run one task each,
 * or none, far from overutilised, is gated without it.
 */
static u32 sp_balance_ask_cpus(const struct sp_model *m, const struct sp_state *st,
			       struct sched_domain *sd, struct sp_gate_in *in,
			       struct sp_balance_why *why)
{
	u32 reason = SP_GATE_GATED, nr_running;
	bool timed = false;
	int cpu;

	for_each_cpu_and(cpu, sched_domain_span(sd), cpu_active_mask) {
		reason = sp_gate_cpu_settled(m, st, cpu, in, &nr_running);
		if (reason == SP_GATE_NR) {
			if (!timed)
				in->now_ns = sp_cpuidle_now_ns();
			timed = true;
			reason = sp_gate_cpu_check(m, st, cpu, nr_running, in,
						   &why->waited_ns);
		}
		if (sp_gate_passes(reason)) {
			why->trigger = cpu;
			break;
		}
		why->waited_ns = 0;
	}
	return reason;
}

/* The gate's reason for one balance, and @why it passed. */
static u32 sp_balance_verdict(int this_cpu, struct sched_domain *sd,
			      struct sp_gate_in *in, struct sp_balance_why *why)
{
	const struct sp_model *m;
	const struct sp_state *st;
	u32 reason;

	rcu_read_lock();
	m = sp_em_model();
	st = sp_cpuidle_state();
	reason = sp_gate_begin(m, in, sp_balance_crosses(this_cpu, sd));
	if (reason == SP_GATE_GATED)
		reason = sp_balance_ask_cpus(m, st, sd, in, why);
	rcu_read_unlock();
	return reason;
}

/* May CFS balance @sd for @this_cpu?  Counts and traces the answer. */
static bool sp_balance_passes(int this_cpu, const struct rq *this_rq,
			      struct sched_domain *sd, enum cpu_idle_type idle)
{
	struct sp_balance_why why = { .trigger = -1, .waited_ns = 0 };
	struct sp_gate_in in;
	struct sp_knobs knobs;
	u32 reason;

	sp_balance_learn(this_cpu, this_rq);
	sp_knob_snapshot(&knobs);
	in.mode = knobs.mode;
	in.enabled = sp_knob_balance_gate_on() && READ_ONCE(sp_balance_nr_ok);
	in.overutil_pct = knobs.overutil_pct;
	in.now_ns = 0;
	in.dst_cpu = (unsigned int)this_cpu < nr_cpu_ids ? this_cpu : SP_NONE;
	reason = sp_balance_verdict(this_cpu, sd, &in, &why);
	sp_balance_count(reason);
	trace_sched_power_balance(this_cpu, sd, sp_balance_idle_of(idle), reason,
				  why.trigger, why.waited_ns);
	return sp_gate_passes(reason);
}

/* What CFS's load_balance() does to a domain it finds balanced. */
static void sp_balance_backoff(struct sched_domain *sd, enum cpu_idle_type idle)
{
	WRITE_ONCE(sd->nr_balance_failed, 0);
	if (idle == CPU_NEWLY_IDLE)
		return;
	if (sd->balance_interval < sd->max_interval)
		WRITE_ONCE(sd->balance_interval, sd->balance_interval * 2);
}

typedef int (*sp_balance_fn)(int this_cpu, struct rq *this_rq,
			     struct sched_domain *sd, enum cpu_idle_type idle,
			     int *continue_balancing);

static int sp_balance_wrapper(int this_cpu, struct rq *this_rq,
			      struct sched_domain *sd, enum cpu_idle_type idle,
			      int *continue_balancing);

static const char *const sp_balance_names[] = {
	"load_balance", "sched_balance_rq", NULL
};

static struct sp_redirect sp_balance_redirect = {
	.names = sp_balance_names,
	.wrapper = (unsigned long)sp_balance_wrapper,
};

static noinline int sp_balance_wrapper(int this_cpu, struct rq *this_rq,
				       struct sched_domain *sd,
				       enum cpu_idle_type idle,
				       int *continue_balancing)
{
	sp_balance_fn orig = (sp_balance_fn)READ_ONCE(sp_balance_redirect.orig);
	int moved;

	if (!sp_balance_passes(this_cpu, this_rq, sd, idle)) {
		sp_balance_backoff(sd, idle);
		return 0;
	}
	moved = orig(this_cpu, this_rq, sd, idle, continue_balancing);
	/*
	 * Not a tail call: a jump to the original would return to this
	 * function's caller, and the redirect lets a call through only when
	 * it returns into this module (redirect.c): it would loop.
	 */
	barrier();
	return moved;
}

/* ---- the kick gate ------------------------------------------------------- */

/* raise_softirq(), not exported: looked up when the kick gate first registers. */
typedef void (*sp_balance_raise_fn)(unsigned int nr);
static sp_balance_raise_fn sp_balance_raise;
static bool sp_balance_kick_active;	/* the kick redirect is registered */

typedef void (*sp_balance_tick_fn)(struct rq *rq);

static void sp_balance_kick_wrapper(struct rq *rq);

static const char *const sp_balance_kick_names[] = {
	"trigger_load_balance", "sched_balance_trigger", NULL
};

static struct sp_redirect sp_balance_kick_redirect = {
	.names = sp_balance_kick_names,
	.wrapper = (unsigned long)sp_balance_kick_wrapper,
};

/*
 * sp_gate_kick() for this CPU's tick; @target: the CPU a kick would wake.
 * overutil_pct and the clock are read only when the CPUs are asked
 * (core/sp_gate.c's DOC "the kick gate").
 */
static u32 sp_balance_kick_verdict(int cpu, u32 *target)
{
	const struct sp_model *m;
	const struct sp_state *st;
	struct sp_gate_in in;
	u32 reason;

	in.mode = READ_ONCE(sp_knob_values.mode);
	in.enabled = sp_knob_balance_gate_on() && sp_knob_kick_gate_on() &&
		     READ_ONCE(sp_balance_nr_ok);
	in.overutil_pct = 0;
	in.now_ns = 0;
	in.dst_cpu = SP_NONE;
	rcu_read_lock();
	m = sp_em_model();
	st = sp_cpuidle_state();
	reason = sp_gate_kick_begin(m, st, cpu, &in, target);
	if (reason == SP_KICK_GATED) {
		in.overutil_pct = READ_ONCE(sp_knob_values.overutil_pct);
		in.now_ns = sp_cpuidle_now_ns();
		reason = sp_gate_kick_cpus(m, st, &in);
	}
	rcu_read_unlock();
	return reason;
}

/*
 * trigger_load_balance(rq) on @rq's CPU, from scheduler_tick() with IRQs
 * off.  A gated tick raises the CPU's own SCHED_SOFTIRQ and kicks nobody:
 * run_rebalance_domains() balances each domain whose interval has passed
 * and no other, so raising it at every gated tick, where CFS raises it
 * only once rq->next_balance (private) has passed, costs the softirq's
 * walk of the domains and an update of this CPU's blocked averages.  An
 * inactive CPU's tick is CFS's (it returns at once there).
 */
static noinline void sp_balance_kick_wrapper(struct rq *rq)
{
	sp_balance_tick_fn orig = (sp_balance_tick_fn)READ_ONCE(sp_balance_kick_redirect.orig);
	int cpu = smp_processor_id();
	u32 reason, target;

	if (cpu_active(cpu)) {
		reason = sp_balance_kick_verdict(cpu, &target);
		trace_sched_power_kick(cpu, target, reason);
		if (!sp_gate_kick_passes(reason)) {
			sp_stat_inc(SP_STAT_KICK_GATED);
			sp_balance_raise(SCHED_SOFTIRQ);
			return;
		}
		sp_stat_inc(SP_STAT_KICK_PASSED);
	}
	orig(rq);
	barrier();	/* not a tail call: see sp_balance_wrapper() */
}

/*
 * Register the kick redirect; raise_softirq() is looked up first, and
 * without it the kick gate is not registered (-ENOENT).
 */
static int sp_balance_kick_start(void)
{
	unsigned long raise = (unsigned long)sp_balance_raise;
	int ret;

	lockdep_assert_held(&sp_balance_lock);
	if (!raise)
		raise = sp_redirect_lookup("raise_softirq");
	if (!raise)
		return -ENOENT;
	sp_balance_raise = (sp_balance_raise_fn)raise;
	ret = sp_redirect_register(&sp_balance_kick_redirect);
	if (!ret)
		sp_balance_kick_active = true;
	return ret;
}

/* Returns once no CPU runs the kick wrapper.  Sleeps. */
static void sp_balance_kick_stop(void)
{
	lockdep_assert_held(&sp_balance_lock);
	sp_redirect_unregister(&sp_balance_kick_redirect);
	sp_balance_kick_active = false;
}

/* ---- registration -------------------------------------------------------- */

static bool sp_balance_wanted(void)
{
	struct sp_knobs knobs;

	sp_knob_snapshot(&knobs);
	return sp_place_mode_acts(knobs.mode) && sp_knob_balance_gate_on();
}

/*
 * sp_balance_nr_clear(), and sp_balance_probe_off() once the nr_running
 * probe is unregistered and no CPU runs it: the counts go back to 0, "not
 * known to queue" (the wake-up hook's sync test reads them), as they are
 * while the gate is off, rather than stay as they were at the last event.
 */
static void sp_balance_nr_clear(void)
{
	struct sp_state *st = sp_cpuidle_state();
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		sp_state_set_nr_running(st, cpu, 0, 0);
}

static void sp_balance_probe_off(void)
{
	unregister_trace_sched_update_nr_running_tp(sp_balance_probe_nr, NULL);
	tracepoint_synchronize_unregister();
	sp_balance_nr_clear();
}

/* Register the probe, then the redirect; on error neither is left. */
static int sp_balance_start(void)
{
	int ret;

	lockdep_assert_held(&sp_balance_lock);
	sp_balance_nr_reset();
	WRITE_ONCE(sp_balance_nr_epoch, sp_balance_nr_epoch + 1);	/* odd: unchecked */
	ret = register_trace_sched_update_nr_running_tp(sp_balance_probe_nr, NULL);
	/*
	 * Every site calls the probe now: text patching ends with a
	 * serialising IPI to every CPU, which an add_nr_running() under its
	 * run queue's lock (IRQs off) holds off until it is done.
	 */
	WRITE_ONCE(sp_balance_nr_epoch, sp_balance_nr_epoch + 1);
	if (ret) {
		sp_balance_nr_clear();
		return ret;
	}
	ret = sp_redirect_register(&sp_balance_redirect);
	if (ret) {
		sp_balance_probe_off();
		return ret;
	}
	sp_balance_active = true;
	return 0;
}

/*
 * Returns once no CPU runs the wrapper or the probe.  Sleeps.
 */
static void sp_balance_stop(void)
{
	lockdep_assert_held(&sp_balance_lock);
	sp_redirect_unregister(&sp_balance_redirect);
	sp_balance_probe_off();
	sp_balance_active = false;
}

/* Register or remove the balance gate as the knobs now want it. */
static int sp_balance_apply_gate(bool want)
{
	if (want == sp_balance_active)
		return 0;
	if (!want) {
		sp_balance_stop();
		return 0;
	}
	return sp_balance_start();
}

/*
 * Register or remove the balance gate, and the kick gate with it when
 * kick_gate is 1, as the knobs now want them.  The kick gate is removed
 * before the balance gate and registered after it: it reads the counts
 * of waiting tasks that the balance gate's probe keeps.  A kick gate that
 * cannot be registered leaves the kicks CFS's and refuses no write.
 */
static int sp_balance_apply(void)
{
	bool want = sp_balance_wanted();
	bool kick = want && sp_knob_kick_gate_on();
	int ret;

	lockdep_assert_held(&sp_balance_lock);
	if (sp_balance_kick_active && !kick)
		sp_balance_kick_stop();
	ret = sp_balance_apply_gate(want);
	if (ret || !kick || sp_balance_kick_active)
		return ret;
	ret = sp_balance_kick_start();
	if (ret)
		pr_warn_ratelimited("kick gate not registered (%d): the kicks stay CFS's\n",
				    ret);
	return 0;
}

/* A knob write: refused if the gate it asks for cannot be registered. */
static int sp_balance_knob_event(struct notifier_block *nb, unsigned long action,
				 void *data)
{
	int ret;

	mutex_lock(&sp_balance_lock);
	ret = sp_balance_apply();
	mutex_unlock(&sp_balance_lock);
	return sp_knob_answer(action == SP_KNOB_APPLY, ret,
			      "balance gate not registered", "not gating");
}

static int sp_balance_model_event(struct notifier_block *nb, unsigned long action,
				  void *data)
{
	struct sp_balance_groups *g;

	if (action != SP_MODEL_CHANGED)
		return NOTIFY_OK;
	g = sp_balance_groups_alloc();
	if (g)
		sp_balance_groups_fill(g, data);
	else
		pr_warn("no memory for the balance gate's groups: not gating\n");
	mutex_lock(&sp_balance_lock);
	sp_balance_groups_publish(g);
	mutex_unlock(&sp_balance_lock);
	return NOTIFY_OK;
}

static struct notifier_block sp_balance_knob_nb = {
	.notifier_call = sp_balance_knob_event,
};

static struct notifier_block sp_balance_model_nb = {
	.notifier_call = sp_balance_model_event,
};

static void sp_balance_free(void)
{
	struct sp_balance_groups *g;

	mutex_lock(&sp_balance_lock);
	if (sp_balance_kick_active)
		sp_balance_kick_stop();
	if (sp_balance_active)
		sp_balance_stop();
	sp_redirect_release(&sp_balance_kick_redirect);
	sp_redirect_release(&sp_balance_redirect);
	g = rcu_dereference_protected(sp_balance_groups_ptr,
				      lockdep_is_held(&sp_balance_lock));
	RCU_INIT_POINTER(sp_balance_groups_ptr, NULL);
	mutex_unlock(&sp_balance_lock);
	synchronize_rcu();
	kvfree(g);
	kfree(sp_balance_offs);
	sp_balance_offs = NULL;
}

/**
 * sp_balance_init() - the gate's groups, and the gate itself if the knobs
 * want it (mode power or balanced, balance_gate 1; the knobs' notifier
 * registers it later otherwise)
 *
 * Return: 0, -ENOMEM, or the error of a subscription, of the redirect or
 * of the tracepoint.  The model, the snapshot, the knobs and the counters
 * must exist.
 */
int sp_balance_init(void)
{
	struct sp_balance_groups *g;
	int ret;

	ret = sp_balance_offs_init();
	if (ret)
		return ret;
	sp_balance_st = sp_cpuidle_state();
	g = sp_balance_groups_alloc();
	if (!g) {
		kfree(sp_balance_offs);
		sp_balance_offs = NULL;
		return -ENOMEM;
	}
	/* the model's one writer, its sysfs file, does not exist yet */
	mutex_lock(&sp_balance_lock);
	rcu_read_lock();
	sp_balance_groups_fill(g, sp_em_model());
	rcu_read_unlock();
	sp_balance_groups_publish(g);
	mutex_unlock(&sp_balance_lock);
	ret = sp_em_subscribe(&sp_balance_model_nb);
	if (!ret)
		ret = sp_knob_subscribe(&sp_balance_knob_nb);
	if (!ret) {
		mutex_lock(&sp_balance_lock);
		ret = sp_balance_apply();
		mutex_unlock(&sp_balance_lock);
	}
	if (ret) {
		pr_err("balance gate: cannot start: %d\n", ret);
		sp_balance_exit();
	}
	return ret;
}

/**
 * sp_balance_exit() - remove the gate; no CPU runs its code afterwards
 */
void sp_balance_exit(void)
{
	sp_knob_unsubscribe(&sp_balance_knob_nb);
	sp_em_unsubscribe(&sp_balance_model_nb);
	sp_balance_free();
}
