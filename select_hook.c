// SPDX-License-Identifier: GPL-2.0
/*
 * The hook on CFS's wake-up CPU choice, and its decisions.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the wake-up hook
 *
 * select_task_rq_fair() is the one out-of-line function that chooses a
 * waking, forking or exec'ing task's CPU for CFS.  sched_power redirects it
 * (redirect.c) to sp_select_full() (in observe mode through
 * sp_select_wrapper()), which lets CFS choose, hands the
 * choice and the snapshot to the pure decision core (core/sp_place.c),
 * traces the decision (sched_power:sched_power_select) and, in the modes
 * that act (sp_place_mode_acts(): power and balanced), returns the core's
 * CPU instead, after checking it is in range, active, in the task's
 * cpus_ptr and not isolated (the exec path, sched_exec(), re-checks
 * nothing but cpu_active()).  Observe mode exists to trace: while the
 * event has no consumer (tracefs, perf or BPF), the redirect is not
 * registered at all and select_task_rq_fair() runs as the kernel built
 * it.  The event's first consumer and its last one's removal call the
 * tracepoint's reg and unreg callbacks (TRACE_EVENT_FN), under
 * tracepoints_mutex and, from tracefs, event_mutex: too deep to patch
 * text and wait for RCU grace periods there, so they only note the
 * event's state and queue a work item, which registers or unregisters
 * the redirect under the same lock and by the same path as a mode write
 * (sp_select_sync()).  Decisions, and their records, start once that work
 * has run, a few milliseconds after the event is enabled (more under
 * TCG).  While the redirect is registered in observe mode and the event is
 * off (between its removal and the work, or a mode write racing with
 * them), the wrapper takes a quiet path that lets CFS choose and counts
 * the call, without reading the knobs or deciding.
 *
 * A registration can fail (another IPMODIFY user, e.g. a livepatch, owns
 * select_task_rq_fair(): -EBUSY).  A write of a mode that decides (power,
 * balanced, performance) is then refused with that errno and undone
 * (knobs.c).  The event's work cannot hand an error to the tracer that
 * enabled the event: it leaves the redirect out, the state as before the
 * event was enabled but for the event's flag, prints a warning, and the
 * failure counts in debugfs redirects; the event has no records until its
 * next enable, or a mode write, registers the redirect.
 *
 * Context: try_to_wake_up(), wake_up_new_task() and sched_exec() hold
 * p->pi_lock with IRQs off.  The decision allocates nothing, takes no lock,
 * reads the model and the latency table as an RCU reader (IRQs off make
 * one; their writers wait with synchronize_rcu() and call_rcu()), counts
 * in one update of this CPU's counters (select_stats.c), and keeps its
 * working set in a per-CPU buffer (the hook cannot nest on a CPU: IRQs are
 * off), so its stack frame stays small.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/sched/isolation.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#include "sched_power.h"
#include "sched_power_trace.h"

/* Wake flags of kernel/sched/sched.h, stable from 5.x to 6.12. */
#define SP_WF_EXEC	0x02
#define SP_WF_FORK	0x04
#define SP_WF_SYNC	0x10

/* Working set of one decision; one per CPU, used with IRQs off. */
struct sp_select_work {
	struct sp_knobs knobs;
	struct sp_task_info task;
	struct sp_place_work place;
	struct sp_decision dec;
};

static DEFINE_PER_CPU(struct sp_select_work, sp_select_work);

static u32 sp_select_wake_of(int wake_flags)
{
	if (wake_flags & SP_WF_FORK)
		return SP_WAKE_FORK;
	if (wake_flags & SP_WF_EXEC)
		return SP_WAKE_EXEC;
	return SP_WAKE_WAKEUP;
}

/* The task's utilisation: the larger of its PELT average and util_est. */
static u32 sp_select_task_util(struct task_struct *p)
{
	unsigned long util = READ_ONCE(p->se.avg.util_avg);
	unsigned long est;

#if KERNEL_VERSION(6, 9, 0) <= LINUX_VERSION_CODE
	est = READ_ONCE(p->se.avg.util_est) & ~UTIL_AVG_UNCHANGED;
#else
	est = READ_ONCE(p->se.avg.util_est.enqueued) & ~UTIL_AVG_UNCHANGED;
#endif
	return min_t(unsigned long, max(util, est), SP_CAP_SCALE);
}

/* A CPU the task may run on now: in range, active, allowed, not isolated. */
static bool sp_select_cpu_ok(const void *ctx, u32 cpu)
{
	const struct task_struct *p = ctx;

	return cpu < nr_cpu_ids && cpu_active(cpu) &&
	       cpumask_test_cpu(cpu, p->cpus_ptr) &&
	       housekeeping_test_cpu(cpu, HK_TYPE_DOMAIN);
}

/*
 * What the CPU running the decision is doing.  The hook runs on the
 * waker's CPU with IRQs off.  If that CPU's current task is its idle task,
 * it was woken by the interrupt that wakes @p.  Its idle exit may not be
 * recorded yet: default_idle_call() (no cpuidle driver) fires
 * power:cpu_idle's exit after the handler, cpuidle_enter_state() before
 * it; either way the CPU is up with nothing to run.  A sync wake-up
 * that CFS sends to this CPU, with nothing placed here in flight, is the
 * one 6.1's wake_affine_idle() trusts (the waker is the CPU's only task and
 * about to sleep), so the task will not wait behind it; with the balancer
 * gate's nr_running probe on, the snapshot's count confirms it.
 */
static u32 sp_select_this_ctx(const struct sp_state *st, int cfs_cpu,
			      int wake_flags, u32 this_cpu, u64 now_ns)
{
	if (is_idle_task(current))
		return SP_THIS_IRQ;
	if ((wake_flags & SP_WF_SYNC) && cfs_cpu == (int)this_cpu &&
	    !sp_state_cpu_pending_nr(st, this_cpu, now_ns) &&
	    READ_ONCE(st->cpu[this_cpu].nr_running) <= 1)
		return SP_THIS_SYNC;
	return SP_THIS_TASK;
}

/* The task and the context of the decision. */
static void sp_select_fill_task(struct sp_task_info *t, struct task_struct *p,
				int prev_cpu, int cfs_cpu, int wake_flags,
				const struct sp_model *m, const struct sp_state *st)
{
	u32 wake = sp_select_wake_of(wake_flags);

	t->now_ns = sp_cpuidle_now_ns();
	t->prev_cpu = prev_cpu;
	t->cfs_cpu = cfs_cpu;
	t->this_cpu = smp_processor_id();
	t->this_ctx = sp_select_this_ctx(st, cfs_cpu, wake_flags, t->this_cpu,
					 t->now_ns);
	t->wake = wake;
	t->latency_us = sp_task_latency_us(p);
	if (wake == SP_WAKE_FORK)
		t->util = sp_place_fork_util(m, st, t->this_cpu, t->now_ns);
	else
		t->util = sp_select_task_util(p);
}

/*
 * The counters of one decision, in one update of this CPU's counters: the
 * call, the decision, its reason, the override and the latency bound.
 */
static void sp_select_count(const struct sp_select_work *w)
{
	const struct sp_decision *d = &w->dec;
	struct sp_stat_cpu *s = sp_stat_begin();

	sp_stat_add(s, SP_STAT_CALLS);
	sp_stat_add(s, SP_STAT_DECISIONS);
	if (d->reason < SP_R_NR)
		sp_stat_add(s, SP_STAT_REASON0 + d->reason);
	if (d->applied)
		sp_stat_add(s, SP_STAT_OVERRIDES);
	if (d->ret_cpu >= 0 && sp_place_spends(d, (u32)d->ret_cpu))
		sp_stat_add(s, SP_STAT_SLOWER);
	if (d->lat_miss)
		sp_stat_add(s, SP_STAT_LAT_MISS);
	if (w->task.latency_us)
		sp_stat_add(s, SP_STAT_LAT_BOUNDED);
	sp_stat_end(s);
}

/*
 * Hand the core's CPU back if the mode acts and the CPU passes the final
 * check; returns the CPU the hook returns and sets dec.applied.
 */
static int sp_select_apply(struct task_struct *p, struct sp_decision *d,
			   int cfs_cpu)
{
	d->applied = false;
	if (!sp_place_mode_acts(d->mode) || !d->override)
		return cfs_cpu;
	if (!sp_select_cpu_ok(p, d->cpu)) {
		sp_stat_inc(SP_STAT_REJECTED);
		return cfs_cpu;
	}
	d->applied = true;
	return d->cpu;
}

/*
 * Run the core on one decision; returns the CPU to hand back to CFS.  IRQs
 * are off (the callers hold p->pi_lock), which makes the whole decision an
 * RCU read-side critical section for the model's and the latency table's
 * synchronize_rcu() and call_rcu() (sp_em_model() checks
 * rcu_read_lock_any_held()): no rcu_read_lock() of its own.
 */
static int sp_select_decide(struct task_struct *p, int prev_cpu, int cfs_cpu,
			    int wake_flags, struct sp_select_work *w)
{
	struct sp_decision *d = &w->dec;
	const struct sp_model *m;
	struct sp_state *st;
	int ret;

	lockdep_assert_irqs_disabled();
	m = sp_em_model();
	st = sp_cpuidle_state();
	sp_select_fill_task(&w->task, p, prev_cpu, cfs_cpu, wake_flags, m, st);
	sp_place_w_filter(&w->place, sp_select_cpu_ok, p);
	sp_place_w(m, st, &w->knobs, &w->task, d, &w->place);
	if (trace_sched_power_select_enabled())
		sp_place_w_energy(&w->place, d);	/* before the note changes @st */
	ret = sp_select_apply(p, d, cfs_cpu);
	d->ret_cpu = ret;
	if (ret >= 0)
		sp_place_note(m, st, d, w->task.this_cpu, (u32)ret,
			      sp_place_spends(d, (u32)ret), w->task.now_ns);
	sp_select_count(w);
	if (w->task.latency_us)
		sp_lat_placed(w->task.latency_us, w->task.prev_cpu, ret);
	trace_sched_power_select(p, d);
	return ret;
}

/* Everything the hook does after CFS chose @cfs_cpu. */
static int sp_select_after_cfs(struct task_struct *p, int prev_cpu,
			       int wake_flags, int cfs_cpu)
{
	struct sp_select_work *w = this_cpu_ptr(&sp_select_work);
	struct sp_stat_cpu *s;

	sp_knob_snapshot(&w->knobs);
	/*
	 * off: the redirect is on its way out; observe mode exists to trace:
	 * without the event there is nothing to do
	 */
	if (w->knobs.mode == SP_MODE_OFF ||
	    (w->knobs.mode == SP_MODE_OBSERVE && !trace_sched_power_select_enabled())) {
		sp_stat_inc(SP_STAT_CALLS);
		return cfs_cpu;
	}
	if (!sp_knob_wants(sp_select_wake_of(wake_flags))) {
		s = sp_stat_begin();
		sp_stat_add(s, SP_STAT_CALLS);
		sp_stat_add(s, SP_STAT_SKIPPED);
		sp_stat_end(s);
		return cfs_cpu;
	}
	return sp_select_decide(p, prev_cpu, cfs_cpu, wake_flags, w);	/* counts the call */
}

typedef int (*sp_select_fn)(struct task_struct *p, int prev_cpu, int wake_flags);

static int sp_select_wrapper(struct task_struct *p, int prev_cpu, int wake_flags);

static const char *const sp_select_names[] = { "select_task_rq_fair", NULL };

static struct sp_redirect sp_select_redirect = {
	.names = sp_select_names,
	.wrapper = (unsigned long)sp_select_wrapper,
};

/*
 * Observe mode with the event off while the redirect is still (or already)
 * registered: CFS's choice, counted, and nothing else (no knob snapshot,
 * no decision).
 */
static noinline int sp_select_observe_quiet(struct task_struct *p, int prev_cpu,
					    int wake_flags)
{
	sp_select_fn orig = (sp_select_fn)READ_ONCE(sp_select_redirect.orig);
	int cfs_cpu = orig(p, prev_cpu, wake_flags);

	sp_stat_inc(SP_STAT_CALLS);
	return cfs_cpu;
}

/* CFS's choice, then the decision on it. */
static noinline int sp_select_full(struct task_struct *p, int prev_cpu, int wake_flags)
{
	sp_select_fn orig = (sp_select_fn)READ_ONCE(sp_select_redirect.orig);
	int cfs_cpu = orig(p, prev_cpu, wake_flags);

	return sp_select_after_cfs(p, prev_cpu, wake_flags, cfs_cpu);
}

/*
 * The redirect's target in observe mode: a frameless choice between the
 * two paths, each of which calls the original from its own frame
 * (redirect.c lets calls from the module's text through).  In the modes
 * that decide, the redirect sends calls to sp_select_full() directly
 * (sp_select_target()).
 */
static noinline int sp_select_wrapper(struct task_struct *p, int prev_cpu,
				      int wake_flags)
{
	if (!trace_sched_power_select_enabled())
		return sp_select_observe_quiet(p, prev_cpu, wake_flags);
	return sp_select_full(p, prev_cpu, wake_flags);
}

/*
 * The redirect's target for @mode, set by sp_select_sync() on every knob
 * write and every change of the event's consumers: sp_select_wrapper() in
 * observe mode, where a call may find the event off, sp_select_full() in
 * the others, with no test on the way.  A wake-up that races with a mode
 * write may still take the old target; either path reads the knobs or the
 * event again (sp_select_after_cfs(), sp_select_wrapper()).
 */
static unsigned long sp_select_target(u32 mode)
{
	if (mode == SP_MODE_OBSERVE)
		return (unsigned long)sp_select_wrapper;
	return (unsigned long)sp_select_full;
}

/*
 * Serialises the redirect's registration with mode changes and with the
 * work that follows the event's consumers.
 */
static DEFINE_MUTEX(sp_select_lock);
static bool sp_select_on;		/* the redirect is registered */

/*
 * sp_select_traced: the sched_power_select tracepoint has a probe (set by
 * its reg callback, cleared by its unreg callback, which tracepoints_mutex
 * serialises).  sp_select_live: the work may be queued, from
 * sp_select_init() until sp_select_exit() stops it.  The callbacks also
 * run outside that span: the module's events exist from its
 * MODULE_STATE_COMING notifier, before its init, and tracing removes them,
 * disabling an enabled one, from MODULE_STATE_GOING, after its exit; the
 * flag, under sp_select_trace_lock, keeps them from queueing the work then.
 */
static bool sp_select_traced;
static bool sp_select_live;
static DEFINE_SPINLOCK(sp_select_trace_lock);

static void sp_select_trace_work_fn(struct work_struct *work);
static DECLARE_WORK(sp_select_trace_work, sp_select_trace_work_fn);

/* The redirect is wanted in @mode, with the event traced or not. */
static bool sp_select_wants(u32 mode, bool traced)
{
	return mode != SP_MODE_OFF && (mode != SP_MODE_OBSERVE || traced);
}

/*
 * The redirect is registered while the mode is power, balanced or
 * performance, and in observe mode while the event has a consumer:
 * mode=off, and observe with nothing to trace, leave select_task_rq_fair()
 * as the kernel built it, with no call into the module.  Registering
 * patches one ftrace site and unregistering waits for RCU tasks and RCU,
 * so a switch takes a few grace periods.  A registration that fails
 * leaves everything as it was, with the redirect out.
 */
static int sp_select_sync(void)
{
	u32 mode = sp_knob_mode();
	bool want = sp_select_wants(mode, READ_ONCE(sp_select_traced));
	unsigned long target = READ_ONCE(sp_select_redirect.wrapper);
	int ret = 0;

	lockdep_assert_held(&sp_select_lock);
	WRITE_ONCE(sp_select_redirect.wrapper, sp_select_target(mode));
	if (want && !sp_select_on) {
		ret = sp_redirect_register(&sp_select_redirect);
		sp_select_on = !ret;
		if (ret)
			WRITE_ONCE(sp_select_redirect.wrapper, target);
	} else if (!want && sp_select_on) {
		sp_redirect_unregister(&sp_select_redirect);
		sp_select_on = false;
	}
	return ret;
}

/*
 * The event gained its first consumer or lost its last one: follow it.
 * Each change queues the work after setting sp_select_traced, so the last
 * run reads the last state; a mode write in between syncs on its own.
 */
static void sp_select_trace_work_fn(struct work_struct *work)
{
	int ret;

	mutex_lock(&sp_select_lock);
	ret = sp_select_sync();
	mutex_unlock(&sp_select_lock);
	if (ret)
		pr_warn_ratelimited("cannot redirect select_task_rq_fair (%d): no sched_power_select events until the event or the mode changes\n",
				    ret);
}

static void sp_select_trace_set(bool traced)
{
	spin_lock(&sp_select_trace_lock);
	WRITE_ONCE(sp_select_traced, traced);
	if (sp_select_live)
		schedule_work(&sp_select_trace_work);
	spin_unlock(&sp_select_trace_lock);
}

/**
 * sp_select_trace_reg() - the sched_power_select event's first consumer
 * arrived
 *
 * Context: under tracepoints_mutex (and event_mutex from tracefs): defers
 * the redirect's registration to a work item.
 *
 * Return: 0.
 */
int sp_select_trace_reg(void)
{
	sp_select_trace_set(true);
	return 0;
}

/**
 * sp_select_trace_unreg() - the sched_power_select event's last consumer
 * left
 *
 * Context: as sp_select_trace_reg().
 */
void sp_select_trace_unreg(void)
{
	sp_select_trace_set(false);
}

/*
 * A knob write: follow the mode.  A mode that decides (power, balanced,
 * performance) needs the redirect, and a write of such a mode refuses
 * when it cannot be registered.  In observe mode the redirect serves the
 * event alone and follows it as the event's work does: a registration
 * that fails there is printed and counted (debugfs redirects), not a
 * write's error.
 */
static int sp_select_knob_event(struct notifier_block *nb, unsigned long action,
				void *data)
{
	int ret;

	mutex_lock(&sp_select_lock);
	ret = sp_select_sync();
	mutex_unlock(&sp_select_lock);
	return sp_knob_answer(action == SP_KNOB_APPLY &&
			      sp_select_wants(sp_knob_mode(), false), ret,
			      "cannot redirect select_task_rq_fair",
			      "no decisions or events");
}

static struct notifier_block sp_select_knob_nb = {
	.notifier_call = sp_select_knob_event,
};

/**
 * sp_select_init() - redirect select_task_rq_fair() to the hook when the
 * mode and the event want it (sp_select_sync()), and follow both from then on
 *
 * Return: 0 or the redirect's error.
 */
int sp_select_init(void)
{
	int ret;

	spin_lock(&sp_select_trace_lock);
	sp_select_live = true;
	spin_unlock(&sp_select_trace_lock);
	mutex_lock(&sp_select_lock);
	ret = sp_select_sync();
	mutex_unlock(&sp_select_lock);
	if (!ret)
		ret = sp_knob_subscribe(&sp_select_knob_nb);
	/* also frees the filter a failed registration leaves set */
	if (ret)
		sp_select_exit();
	return ret;
}

/**
 * sp_select_exit() - remove the redirect; no CPU runs the hook, and no
 * work of the event's callbacks runs or is queued, afterwards
 */
void sp_select_exit(void)
{
	sp_knob_unsubscribe(&sp_select_knob_nb);
	spin_lock(&sp_select_trace_lock);
	sp_select_live = false;
	spin_unlock(&sp_select_trace_lock);
	/* not under sp_select_lock: the work takes it */
	cancel_work_sync(&sp_select_trace_work);
	mutex_lock(&sp_select_lock);
	if (sp_select_on)
		sp_redirect_unregister(&sp_select_redirect);
	sp_select_on = false;
	sp_redirect_release(&sp_select_redirect);
	mutex_unlock(&sp_select_lock);
}
