/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_place.h - the placement choice: which CPU a waking task should run on.
 */

/**
 * DOC: what a decision reads and returns
 *
 * A caller fills a struct sp_task_info (the task's utilisation and bound,
 * prev_cpu, CFS's choice, the deciding CPU and what it is doing, the kind
 * of wake-up, the time on the snapshot's clock), passes the knobs (struct
 * sp_knobs), the model and the snapshot, and an sp_allowed_fn that says
 * whether the task may run on a CPU.  It gets back a struct sp_decision:
 * the CPU, the reason, the energies of CFS's CPU and of the chosen one,
 * the chosen CPU's terms and modelled wake-up latency.  The kernel
 * (select_hook.c) calls sp_place_w() with a per-CPU working set, the host
 * sp_place() with one on its stack; sp_place_exhaustive() is the same rule
 * without pruning, for the equivalence checks.  The caller then applies
 * the CPU if sp_place_mode_acts() and records the placement with
 * sp_place_note().
 * The rule itself is sp_place.c's DOC block.
 */
#ifndef SP_PLACE_H
#define SP_PLACE_H

#include "sp_energy.h"
#include "sp_enums.h"

SP_ENUM_DEFINE(sp_mode, SP_MODE_LIST, SP_MODE_NR);
SP_ENUM_DEFINE(sp_reason, SP_REASON_LIST, SP_R_NR);
SP_ENUM_DEFINE(sp_wake, SP_WAKE_LIST, SP_WAKE_NR);

extern const char *const sp_mode_names[SP_MODE_NR];
extern const char *const sp_reason_names[SP_R_NR];
extern const char *const sp_wake_names[SP_WAKE_NR];

struct sp_knobs {
	u32 mode;		/* enum sp_mode */
	u32 margin_pct;		/* override only if saving >= this % of CFS's */
	/*
	 * CPU util above this % of capacity: overutilised; 0 for the default,
	 * else 1..100 (the knob's range): it is also the candidates' headroom,
	 * and the rate bounds' d = u (sp_model_derive.c, step 5) needs <= 100
	 */
	u32 overutil_pct;
	u32 window_us;		/* energy window, us (at most SP_ENERGY_WINDOW_MAX_US counts) */
	u32 latency_us;		/* default wake-up latency bound, 0 = none */
};

/*
 * What the CPU running the decision is doing (sp_task_info.this_ctx).  The
 * kernel decides inside try_to_wake_up() on the waker's CPU: a CPU woken by
 * an interrupt may run the handler before its idle exit is recorded
 * (default_idle_call(); cpuidle_enter_state() records it first), so the
 * snapshot may still show it asleep although it is up and has nothing to
 * run.
 */
enum sp_this_ctx {
	SP_THIS_NONE,		/* unknown: trust the snapshot */
	SP_THIS_TASK,		/* this_cpu runs a task (the waker) */
	SP_THIS_IRQ,		/* this_cpu runs an interrupt on its idle task */
	SP_THIS_SYNC,		/* this_cpu runs only the waker, about to sleep */
};

struct sp_task_info {
	u64 now_ns;		/* decision time, same clock as the idle hook */
	u32 util;		/* task utilisation, 0..1024 */
	u32 latency_us;		/* the task's own bound, 0 = the latency_us knob's */
	u32 prev_cpu;
	u32 cfs_cpu;		/* CFS's choice */
	u32 this_cpu;		/* the CPU deciding (valid unless SP_THIS_NONE) */
	u32 this_ctx;		/* enum sp_this_ctx */
	u32 wake;		/* enum sp_wake: a fork's util is not on prev_cpu */
};

/* Is @cpu a valid target for the task? (kernel: active && in cpus_ptr) */
typedef bool (*sp_allowed_fn)(const void *ctx, u32 cpu);

/*
 * One decision, as the core made it and the caller applied it; the
 * sched_power_select trace event copies it whole.
 */
struct sp_decision {
	u32 cpu;		/* where the task should go */
	s32 ret_cpu;		/* what the caller returned (set by the caller) */
	u32 util;		/* task utilisation the decision used, 0..1024 */
	u32 prev_cpu;
	u32 cfs_cpu;		/* CFS's choice */
	u8 wake;		/* enum sp_wake */
	u8 mode;		/* enum sp_mode */
	u16 reason;		/* enum sp_reason */
	bool override;		/* cpu != cfs_cpu and the mode acts on it */
	bool applied;		/* ret_cpu is cpu: the caller acted (set by it) */
	u16 nr_candidates;
	s64 cfs_nj;		/* total_nj of CFS's CPU */
	s64 chosen_nj;		/* total_nj of the chosen CPU */
	struct sp_energy_terms terms;	/* of the chosen CPU */
	/* the three 0 when the fast path's bound kept CFS's CPU: sp_place_w_energy() */
	u32 lat_bound_us;	/* wake-up latency bound applied, 0 = none */
	u32 wake_lat_us;	/* modelled wake-up latency at the chosen CPU, */
				/* exit latency plus expected queueing wait */
	bool lat_miss;		/* a bound applied and no allowed CPU met it */
	bool queued;		/* the chosen CPU runs or has work in flight */
	u32 queue_us;		/* the expected wait part of wake_lat_us */
	bool slower;		/* it spends the latency budget: wake_lat_us */
				/* exceeds CFS's CPU's, or it queues the task */
				/* where a sleeping group's CPU wakes sooner */
};

/**
 * sp_place_mode_acts() - does a mode act on the decisions it computes?
 * @mode: enum sp_mode
 *
 * Return: true for power and balanced, where the caller applies the
 * decision's CPU and the balancer gate acts (sp_gate_begin()); false for
 * off, observe and performance.
 */
static inline bool sp_place_mode_acts(u32 mode)
{
	return mode == SP_MODE_POWER || mode == SP_MODE_BALANCED;
}

/**
 * sp_place_spends() - does handing the task to @cpu spend the latency budget?
 * @d: the decision
 * @cpu: the CPU the caller handed the task to
 *
 * Return: true if the mode acts, @cpu is the decision's CPU (an applied
 * move, or CFS's CPU kept) and the decision is slower (d->slower).
 */
static inline bool sp_place_spends(const struct sp_decision *d, u32 cpu)
{
	return d->slower && cpu == d->cpu && sp_place_mode_acts(d->mode);
}

/**
 * sp_place_note_util() - the utilisation a placement leaves in flight
 * @d: the decision
 * @cpu: the CPU the caller handed the task to
 *
 * What the caller passes to sp_state_note_decision().  A task woken (or
 * exec'ed) back onto its previous CPU is in that CPU's average already:
 * the decision took its share out (mainline's cpu_util_without()) and
 * added it back as task_util.  Noting it in flight as well would count it
 * twice until the CPU next idles (a task of 560 on a CPU of 560 reads 1024,
 * overutilised, and every decision in between falls back to CFS).  A fork
 * has no share anywhere yet.
 *
 * Return: 0 for a wake-up or exec onto @d->prev_cpu, else @d->util.
 */
static inline u32 sp_place_note_util(const struct sp_decision *d, u32 cpu)
{
	return d->wake != SP_WAKE_FORK && cpu == d->prev_cpu ? 0 : d->util;
}

/**
 * sp_place_brought_util() - the utilisation a placed task brings to its CPU
 * @m: the model
 * @st: the snapshot
 * @d: the decision
 * @cpu: the CPU the caller handed the task to
 * @now_ns: the time, ns
 *
 * What the caller passes to sp_state_note_task(): for a wake-up or exec,
 * sp_place_note_util()'s share; for a fork, what 6.1's
 * post_init_entity_util_avg() gives the child on @cpu once it has landed,
 * half the spare capacity of @cpu at its highest OPP, (cap - u) / 2 with u
 * the snapshot's utilisation of @cpu (the decision's own estimate,
 * sp_place_fork_util(), is taken on the parent's CPU before the child has
 * any).
 *
 * Return: the utilisation, 0..1024; 0 for a CPU outside @m and for a
 * CPU of the largest capacity, where sp_gate_cpu() does not read it.
 */
u32 sp_place_brought_util(const struct sp_model *m, const struct sp_state *st,
			  const struct sp_decision *d, u32 cpu, u64 now_ns);

/*
 * Below the largest capacity: the gate's per-CPU table, 1024 outside the
 * model.
 */
static inline bool sp_place_below_cap_max(const struct sp_model *m, u32 cpu)
{
	return cpu < m->nr_cpus && cpu < SP_MAX_CPUS && m->gate_cpu[cpu].cap < m->cap_max;
}

/**
 * sp_place_note_below() - sp_place_note() on a CPU below the largest capacity
 * @m: the model the decision was made with
 * @st: the snapshot
 * @d: the decision
 * @this_cpu: the deciding CPU (%SP_NONE if unknown)
 * @cpu: the CPU the caller handed the task to, below the model's cap_max
 * @slower: the placement spends the latency budget (sp_place_spends())
 * @now_ns: the time, ns
 *
 * The work in flight and the latency budget as sp_place_note() notes them,
 * and the utilisation the task brings to @cpu (sp_state_note_task() with
 * what sp_place_brought_util() gives), which the balancer gate reads only
 * below the largest capacity.  Out of line: only asymmetric models reach it.
 */
void sp_place_note_below(const struct sp_model *m, struct sp_state *st,
			 const struct sp_decision *d, u32 this_cpu, u32 cpu,
			 bool slower, u64 now_ns);

/**
 * sp_place_note() - record where a placement sent the task
 * @m: the model the decision was made with
 * @st: the snapshot
 * @d: the decision
 * @this_cpu: the deciding CPU (%SP_NONE if unknown)
 * @cpu: the CPU the caller handed the task to
 * @slower: the placement spends the latency budget (sp_place_spends())
 * @now_ns: the time, ns
 *
 * What every caller of the decision does after it, the kernel's hook and
 * the simulator alike: the work in flight and the latency budget
 * (sp_state_note_decision() with sp_place_note_util()), and the
 * utilisation the task brings to @cpu (sp_state_note_task() with
 * sp_place_brought_util()).
 */
static inline void sp_place_note(const struct sp_model *m, struct sp_state *st,
				 const struct sp_decision *d, u32 this_cpu, u32 cpu,
				 bool slower, u64 now_ns)
{
	/*
	 * The CPUs of the largest capacity, all CPUs of a symmetric model,
	 * take no brought utilisation (sp_place_brought_util()): one
	 * compare, then the work in flight and the budget, in line.
	 */
	if (sp_place_below_cap_max(m, cpu)) {
		sp_place_note_below(m, st, d, this_cpu, cpu, slower, now_ns);
		return;
	}
	sp_state_note_decision(st, this_cpu, cpu, sp_place_note_util(d, cpu), slower, now_ns);
}

/*
 * Expected wait of a task woken onto a CPU that runs another one: the order
 * of CFS's wake-up preemption granularity (1 ms scaled by 1 + log2(CPUs),
 * CPUs capped at 8, on 6.1) and of a tick.  The snapshot does not know the
 * running task's remaining slice, nor whether the waker is about to sleep
 * (a sync wake-up), so this is a constant: conservative for the latter.
 */
#define SP_QUEUE_WAIT_US	1000u

/* Wake-up classes: awake CPU, idle CPU, idle CPU under 1..SP_MAX_LEVELS idle groups. */
#define SP_NR_CLASSES		(SP_MAX_LEVELS + 2)
/* Awake CPUs are kept per performance domain, in this many slots. */
#define SP_AWAKE_SLOTS		2
#define SP_NR_SLOTS		(SP_NR_CLASSES - 1 + SP_AWAKE_SLOTS)
#define SP_PLACE_MAX_CANDS	(2 + SP_MAX_LEVELS + SP_NR_SLOTS)
/* CPUs one scan of the walk probes at most (sp_place.c) */
#define SP_PLACE_SCAN_MAX	16

/* One candidate CPU of a decision (internal to sp_place.c). */
struct sp_cand {
	u16 cpu;
	u16 pd;			/* index of the CPU's performance domain */
	u8 flags;		/* SP_CF_* */
	u8 idle_groups;		/* idle groups above the CPU */
	u32 wake_lat_us;	/* exit latencies plus queue_us */
	u32 queue_us;		/* expected wait behind queued tasks */
	u32 wake_uj;		/* wake-up energy of its state and idle groups */
	u64 wake_s_uw;		/* active - idle power of the idle groups above */
	u64 score;		/* ranking within the scan, lower is better */
	s64 total_nj;
};

/*
 * The working set of one decision.  sp_place() keeps it on its stack;
 * a caller with little stack (the kernel hook, inside try_to_wake_up())
 * passes its own to sp_place_w().  Its content is internal to sp_place.c,
 * but for the CPU filter (sp_place_w_filter()).
 */
struct sp_place_work {
	const struct sp_model *m;
	const struct sp_state *st;
	const struct sp_task_info *t;
	sp_allowed_fn allowed;	/* the caller's filter (sp_place_w_filter()) */
	const void *ctx;
	u32 task_util;		/* t->util clamped to SP_CAP_SCALE */
	u32 headroom_pct;	/* candidates keep util + task below this % */
	u32 overutil_pct;	/* a CPU above this % means overutilised */
	u32 lat_bound_us;	/* 0 = no bound */
	u32 this_cpu;		/* t->this_cpu, SP_NONE if unknown */
	bool this_free;		/* this_cpu is up but runs nothing that stays */
	bool queue_ok;		/* a queueing candidate may be chosen */
	bool slow_ok;		/* a candidate slower than CFS's may be chosen */
	u32 cfs_lat_us;		/* wake_lat_us of CFS's CPU */
	u32 queue_ref_us;	/* a queue at least this slow is slower than CFS's */
	s64 cfs_nj;		/* total_nj of CFS's CPU */
	bool forced;		/* CFS's CPU breaks the bound or queues: leave it */
	bool cfs_queues;	/* CFS's CPU queues the task */
	u32 rot;		/* start offset of bounded scans */
	bool exhaustive;	/* evaluate every candidate: no bound, no fast path */
	u64 now_ns;		/* t->now_ns */
	u32 lb_w;		/* the window, clamped (the lower bounds') */
	s64 lb_uw;		/* task_util * lb_w */
	s64 lb_slack_nj;	/* lb_w / 1000 + 2: one rounded term's slack */
	const s32 *lb_q10;	/* the task's row of the model's lb_q10 */
	const s32 *lb_sleep_q10;	/* ... and of its lb_sleep_q10 */
	u32 lat_lim_us;		/* exit latencies allowed: the bound, or ~0 */
	u32 own_lim_us;		/* whole wake-up latency allowed: the task's bound, or ~0 */
	u32 nr_levels;		/* the model's, at most SP_MAX_LEVELS */
	u16 this_group[SP_MAX_LEVELS];	/* this_cpu's group per level, or SP_NONE */
	u32 eff_pdi;			/* sp_place_pdinfo()'s cache: pd index, */
	const struct sp_pd *eff_pd;	/* the pd (NULL if invalid), */
	u32 cap, cap_ou, cap_hr;	/* its top capacity, x overutil, x headroom */
	u64 eff_key;			/* and its efficiency key */
	bool overutilised;
	u8 pdc_next;		/* pdc[] entry refilled next */
	struct sp_energy_args ea;	/* the energies' shared arguments */
	struct sp_pd_cache pdc[2];	/* pd passes of this decision */
	struct sp_util_cache uc;	/* utilisations read by this decision */
	u16 nr;
	u16 prev;		/* index of prev_cpu in c[], or SP_PLACE_MAX_CANDS */
	struct sp_cand c[SP_PLACE_MAX_CANDS];
	/* scratch of the scan and the evaluation, kept off the stack */
	const struct sp_cand *scan_best[SP_NR_SLOTS], *scan_refused[SP_NR_SLOTS];
	struct sp_cand scan_pool[SP_PLACE_SCAN_MAX];
	u16 fast_stack[32];	/* groups the fast path has yet to look at */
	u8 nr_pend, nr_skip;	/* sleeping groups the walk deferred, skipped */
	u8 pend_at[SP_MAX_LEVELS];	/* where their candidate goes in c[] */
	u16 pend_group[SP_MAX_LEVELS], skip_group[SP_MAX_LEVELS];
	struct sp_energy_terms terms_buf[2];	/* sp_place_eval()'s, in turn */
	const struct sp_energy_terms *best_terms;	/* the best one's, in terms_buf[] */
	int refused;		/* sp_place_eval()'s best refused candidate, or -1 */
	const struct sp_pd *cfs_pd;	/* CFS's pd, if its CPU is free (fast path) */
	u32 cfs_wake_uj;	/* and its state's wake-up energy, 0 if up */
	u32 cfs_util;		/* CFS's CPU's utilisation (sp_place_saturated()) */
	s64 cfs_ub_nj;		/* an upper bound of CFS's total_nj (fast path) */
	s64 fast_lim;		/* the fast path's limit */
	s64 fast_miss_nj;	/* the bound the fast path found short */
	u8 ub_skip;		/* fast looks left without the upper bound */
	bool terms_due;		/* CFS's terms left for sp_place_w_energy() */
};

/**
 * sp_place() - where a waking task should run
 * @m: the model
 * @st: the snapshot, synchronised with @m
 * @pol: the knobs
 * @t: the task and the context of the decision
 * @allowed: may the task run on a CPU? (NULL: every CPU of @m)
 * @ctx: passed to @allowed
 * @d: the decision, filled in whole
 *
 * The rule of "the decision rule", with its working set on the stack: for
 * host builds only (tests, simulator, tools); the kernel keeps one per CPU
 * and calls sp_place_w().
 */
void sp_place(const struct sp_model *m, const struct sp_state *st,
	      const struct sp_knobs *pol, const struct sp_task_info *t,
	      sp_allowed_fn allowed, const void *ctx, struct sp_decision *d);

/**
 * sp_place_exhaustive() - sp_place() without pruning
 * @m: the model
 * @st: the snapshot, synchronised with @m
 * @pol: the knobs
 * @t: the task and the context of the decision
 * @allowed: may the task run on a CPU? (NULL: every CPU of @m)
 * @ctx: passed to @allowed
 * @d: the decision, filled in whole
 *
 * Without the lower bounds that skip candidates and without the fast path
 * that keeps CFS's free CPU: every admissible candidate's energy is
 * computed.  The same CPU by construction (the bounds only skip what cannot
 * win); the host tests, make place-equiv and make sim-equiv check it.  Host
 * builds only.
 */
void sp_place_exhaustive(const struct sp_model *m, const struct sp_state *st,
			 const struct sp_knobs *pol, const struct sp_task_info *t,
			 sp_allowed_fn allowed, const void *ctx,
			 struct sp_decision *d);

/**
 * sp_place_w_filter() - set the CPU filter of the next sp_place_w() calls
 * @w: the working set
 * @allowed: may the task run on a CPU? (NULL: every CPU of the model)
 * @ctx: passed to @allowed
 *
 * Kept in the working set, so that sp_place_w() takes six arguments, all
 * in registers on x86-64 and arm64.
 */
static inline void sp_place_w_filter(struct sp_place_work *w, sp_allowed_fn allowed,
				     const void *ctx)
{
	w->allowed = allowed;
	w->ctx = ctx;
}

/**
 * sp_place_w() - sp_place() with the caller's working set
 * @m: the model
 * @st: the snapshot, synchronised with @m
 * @pol: the knobs
 * @t: the task and the context of the decision
 * @d: the decision, filled in whole
 * @w: the working set, kept by the caller from one decision to the next
 *     (its util cache must start zeroed), with the CPU filter set by
 *     sp_place_w_filter()
 *
 * The same result as sp_place() with @w's filter.  The kernel's hook keeps
 * one working set per CPU, so that the decision's stack frame stays small.
 *
 * Context: reads @m and @st without locks; allocates nothing.  In the
 * kernel, inside try_to_wake_up() with IRQs off.
 */
void sp_place_w(const struct sp_model *m, const struct sp_state *st,
		const struct sp_knobs *pol, const struct sp_task_info *t,
		struct sp_decision *d, struct sp_place_work *w);

/**
 * sp_place_w_energy() - the energy a fast decision left out
 * @w: the working set of the decision just made by sp_place_w()
 * @d: that decision
 *
 * A decision that keeps CFS's free CPU because no other CPU can cost less
 * than an upper bound of CFS's estimate (the fast path) leaves cfs_nj,
 * chosen_nj and terms 0: nothing in the decision needs them.  This
 * computes them, as the full evaluation would, for a reader such as the
 * trace event; it does nothing for any other decision.  Call it before
 * the next decision, with @m, @st and the task of the decision still valid
 * (the caller's RCU read section).
 */
void sp_place_w_energy(struct sp_place_work *w, struct sp_decision *d);

#ifndef __KERNEL__
/*
 * Decisions of sp_place() that kept CFS's CPU on the fast path's upper
 * bound of CFS's estimate, and those whose bound fell below the estimate
 * (must stay 0); make place-equiv and make sim-equiv report them.
 */
extern unsigned long sp_place_ub_violations, sp_place_ub_taken;
#endif

/**
 * sp_place_fork_util() - the utilisation to assume for a task being forked
 * @m: the model
 * @st: the snapshot
 * @cpu: the CPU the fork runs on
 * @now_ns: the time, ns
 *
 * Linux decides a fork's CPU before post_init_entity_util_avg() gives the
 * child any utilisation, so the task's own PELT value is 0 there.  The
 * estimate is what post_init_entity_util_avg() would give it next to its
 * parent, on the CPU the fork runs on: with the run queue's util_avg
 * replaced by the snapshot's utilisation u of @cpu and one nice-0 task on
 * it, half the spare capacity, (cap - u) / 2, and no more than u when u is
 * not 0.  (The kernel computes it on the CPU the child lands on; taking the
 * parent's CPU keeps one estimate for every candidate, and on big.LITTLE
 * lets a child forked from a LITTLE CPU fit one.)  Work in flight then
 * keeps forks made at the same instant from piling onto one CPU.
 *
 * Return: the estimate, 0..1024; 512 for a CPU outside @m.
 */
u32 sp_place_fork_util(const struct sp_model *m, const struct sp_state *st, u32 cpu,
		       u64 now_ns);

#endif /* SP_PLACE_H */
