// SPDX-License-Identifier: GPL-2.0
/*
 * Idle tracking, idle-prediction accuracy and modelled
 * energy, from the power:cpu_idle and power:cpu_frequency tracepoints.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: idle events
 *
 * The kernel announces every idle entry with trace_cpu_idle(state, cpu) and
 * every exit with trace_cpu_idle(PWR_EVENT_EXIT, cpu), both on the CPU
 * concerned, with RCU watching and preemption off: from cpuidle_enter_state()
 * (the driver's state index) and, without a cpuidle driver, from
 * default_idle_call() (index 1).  The probe hands each event to the pure
 * core (core/sp_acct.c), which
 *
 *  - keeps the snapshot the wake-up hook reads: this CPU idle in state s
 *    since t, or busy since t, and how many CPUs of each group are awake,
 *    so the placement knows which CPUs and packages a choice would wake;
 *  - counts per CPU and state the stays, their residency and the verdict
 *    against the state's target residency (early, hit, late);
 *  - integrates the energy model over those stretches.
 *
 * The state index is taken as an index into the model's idle states of the
 * CPU's pd, clamped to the deepest.  When the model's states came from the
 * cpuidle driver (idle=cpuidle in model_source) the two agree; otherwise
 * (the qemu guest: driver "none") the stays are classified against the
 * model's states, which debugfs idle_stats says in its header
 * ("source=model").
 *
 * A polling state (CPUIDLE_FLAG_POLLING: x86's POLL, index 0, where the
 * CPU spins in poll_idle()) is marked so in a model read from the driver
 * (em_defaults.c; poll=1 in a model text).  A CPU in it is idle in that
 * state for the placement (free, the shallowest) and for the per-state
 * counts, residency, verdicts and power, but it runs: it keeps its groups
 * awake, and leaving it wakes nothing.  Groups sleep only while all their
 * CPUs sit in their pd's deepest state (core/sp_state.h), so the mark
 * changes what a group does only where the deepest state polls (a driver
 * with POLL alone): then the groups of those CPUs never sleep.
 * Without a driver every idle is the platform's default idle, reported as
 * index 1 whatever the model lists, or cpu_idle_poll(), reported as index
 * 0 (idle=poll, or an expired broadcast tick); either is taken as the
 * model's deepest state, so that a package whose CPUs all idle counts as
 * asleep (a polling CPU too, which overstates its saving).
 *
 * cpu_frequency(khz, cpu) records the OPP of the CPU's pd (the lowest
 * model OPP at or above the frequency), so that the estimate uses the
 * frequency cpufreq really set; without it the OPP is modelled from
 * utilisation.
 *
 * Cost: the probe touches this CPU's entries and one atomic per level, and
 * never allocates or locks.  Every 64th call on a CPU is timed with
 * local_clock(); the mean is probe_ns_avg in idle_stats.
 *
 * Writers: each CPU writes its own entry, from its probe or, for CPU
 * hotplug, from its own hotplug callback with preemption off (online and
 * offline callbacks of CPUHP_AP_ONLINE_DYN states run on the CPU that goes
 * up or down).  An offline CPU is held in its deepest idle state and its
 * events are ignored until it is online again.  A model change pauses the
 * probes from SP_MODEL_PREPARE (the old group indices stop being used)
 * until SP_MODEL_CHANGED has rebuilt the counters for the new model; a
 * reset of the statistics pauses them for one grace period.  A pause is
 * the probes' own model pointer set to NULL, so that one load says both
 * whether they run and against which model.  Transitions in
 * a pause are lost, so the resume asks every CPU whether it is running
 * (sp_cpuidle_recheck()): a CPU that woke meanwhile is marked awake at once.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/power.h>

#include "sched_power.h"
#include "core/sp_acct.h"
#include "core/sp_energy.h"
#include "sched_power_trace.h"

#define SP_CPUIDLE_SAMPLE	64

struct sp_state *sp_cpuidle_st;		/* read by sp_cpuidle_state() */
static struct sp_acct *sp_cpuidle_acc;
/*
 * The model the probes account against, NULL while they are paused: the
 * one load that gates them.  Set (release) when a pause ends, to the model
 * the counters were last rebuilt for; cleared when one begins.
 */
static const struct sp_model *sp_cpuidle_model;
static bool sp_cpuidle_on;		/* probes registered: the mode is not off */
static u64 sp_cpuidle_off_ns;		/* when the probes last went off */
static struct cpumask sp_cpuidle_offline_mask;	/* CPUs held idle by hotplug */
static enum cpuhp_state sp_cpuidle_hp_state;
static DEFINE_MUTEX(sp_cpuidle_mutex);	/* resync and reset, and their readers */

struct sp_cpuidle_cost {
	u32 calls;
	u64 ns;
	u64 samples;
};

static DEFINE_PER_CPU(struct sp_cpuidle_cost, sp_cpuidle_cost_cpu);

static bool sp_cpuidle_no_driver;		/* default_idle_call(): deepest state */

/**
 * sp_cpuidle_acct() - the idle and energy accounting the probes keep
 *
 * Return: the accounting, valid between sp_cpuidle_init() and sp_cpuidle_exit().
 */
struct sp_acct *sp_cpuidle_acct(void)
{
	return sp_cpuidle_acc;
}

/**
 * sp_cpuidle_read_ns() - the time a reader of the accounting sums up to
 *
 * Context: under sp_cpuidle_lock().
 *
 * Return: ns on the snapshot's clock: now while the probes run; while the
 * mode is off, the moment they went off, so that energy_uj and the tables
 * hold still instead of charging a frozen snapshot for time nobody watched.
 */
u64 sp_cpuidle_read_ns(void)
{
	lockdep_assert_held(&sp_cpuidle_mutex);
	return sp_cpuidle_on ? local_clock() : sp_cpuidle_off_ns;
}

/**
 * sp_cpuidle_lock() - hold off model resyncs and resets of the accounting
 *
 * A reader of the accounting's tables takes it so that the counters are not
 * rebuilt under it; it must not write the model while holding it.
 */
void sp_cpuidle_lock(void)
{
	mutex_lock(&sp_cpuidle_mutex);
}

/**
 * sp_cpuidle_unlock() - release sp_cpuidle_lock()
 */
void sp_cpuidle_unlock(void)
{
	mutex_unlock(&sp_cpuidle_mutex);
}

/**
 * sp_cpuidle_probe_cost() - what the idle probe has cost since the reset
 * @ns: total ns of the timed calls (every SP_CPUIDLE_SAMPLE-th call)
 * @samples: the number of timed calls
 */
void sp_cpuidle_probe_cost(u64 *ns, u64 *samples)
{
	int cpu;

	*ns = 0;
	*samples = 0;
	for_each_possible_cpu(cpu) {
		*ns += per_cpu(sp_cpuidle_cost_cpu, cpu).ns;
		*samples += per_cpu(sp_cpuidle_cost_cpu, cpu).samples;
	}
}

/* ---- probes ------------------------------------------------------------- */

/* An idle exit with the sched_power_idle trace event on: the stay's details for it. */
static noinline void sp_cpuidle_exit_traced(const struct sp_model *m, unsigned int cpu,
					    u64 now)
{
	struct sp_idle_exit_info x;

	if (sp_acct_exit(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, now, &x))
		trace_sched_power_idle(cpu, x.state, x.residency_us, x.target_us,
				       x.verdict);
}

static __always_inline void sp_cpuidle_event(const struct sp_model *m, unsigned int state,
					     unsigned int cpu)
{
	u64 now = local_clock();

	if (state != PWR_EVENT_EXIT) {
		if (sp_cpuidle_no_driver)
			state = UINT_MAX;	/* clamped to the deepest */
		sp_acct_enter(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, state, now);
	} else if (!trace_sched_power_idle_enabled()) {
		sp_acct_exit(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, now, NULL);
	} else {
		sp_cpuidle_exit_traced(m, cpu, now);
	}
}

/* Every SP_CPUIDLE_SAMPLE-th event of a CPU, timed with local_clock(). */
static noinline void sp_cpuidle_event_timed(struct sp_cpuidle_cost *c, const struct sp_model *m,
					    unsigned int state, unsigned int cpu)
{
	u64 t0 = local_clock();

	sp_cpuidle_event(m, state, cpu);
	c->ns += local_clock() - t0;
	c->samples++;
}

/* One acquire load of sp_cpuidle_model says both "not paused" and which model. */
static void sp_cpuidle_probe_idle(void *data, unsigned int state, unsigned int cpu)
{
	/* pairs with sp_cpuidle_resume()'s release: its rebuilt counters are seen */
	const struct sp_model *m = smp_load_acquire(&sp_cpuidle_model);

	/*
	 * @cpu is the CPU running this (cpuidle_enter_state(),
	 * default_idle_call()), so below nr_cpu_ids; one outside the model is
	 * ignored by sp_acct_enter() and sp_acct_exit() themselves.
	 */
	if (!m || cpumask_test_cpu(cpu, &sp_cpuidle_offline_mask))
		return;
	if (unlikely(this_cpu_inc_return(sp_cpuidle_cost_cpu.calls) % SP_CPUIDLE_SAMPLE == 0))
		sp_cpuidle_event_timed(this_cpu_ptr(&sp_cpuidle_cost_cpu), m, state, cpu);
	else
		sp_cpuidle_event(m, state, cpu);
}

static void sp_cpuidle_probe_freq(void *data, unsigned int khz, unsigned int cpu)
{
	/* acquire: pairs with sp_cpuidle_resume()'s release, as in the idle probe */
	const struct sp_model *m = smp_load_acquire(&sp_cpuidle_model);
	const struct sp_pd *pd;
	u32 pdi, k;

	if (!m || cpu >= m->nr_cpus)
		return;
	pdi = m->cpu_pd[cpu];
	pd = &m->pd[pdi];
	if (!pd->nr_opps)
		return;
	for (k = 0; k + 1 < pd->nr_opps; k++)
		if (pd->opp[k].freq_khz >= khz)
			break;
	WRITE_ONCE(sp_cpuidle_st->pd_opp[pdi], (s32)k);
}

/* ---- model changes and reset --------------------------------------------- */

/* Stop the probes and wait until none runs (they are RCU-sched readers). */
static void sp_cpuidle_pause(void)
{
	WRITE_ONCE(sp_cpuidle_model, NULL);
	synchronize_rcu();
}

/*
 * Runs on every online CPU with IRQs off, after a pause: a CPU that left
 * idle while the probes were paused still shows idle in the snapshot, and
 * would stay so for as long as it runs (its utilisation decaying towards
 * 0); it is awake unless this IPI interrupted its idle task.  The opposite
 * case needs nothing: the IPI wakes an idle CPU, whose next idle entry the
 * probe sees.  Nothing else writes this CPU's entries meanwhile: its own
 * probe cannot run inside the IPI.
 */
static void sp_cpuidle_recheck(void *unused)
{
	unsigned int cpu = smp_processor_id();
	const struct sp_model *m = sp_em_model();

	if (!m || cpu >= m->nr_cpus || cpumask_test_cpu(cpu, &sp_cpuidle_offline_mask))
		return;
	if (!is_idle_task(current) && sp_state_cpu_idle(sp_cpuidle_st, cpu))
		sp_acct_exit(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, local_clock(), NULL);
}

static u32 sp_cpuidle_deepest(const struct sp_model *m, u32 cpu)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

	return pd->nr_idle ? pd->nr_idle - 1u : 0;
}

/*
 * A CPU that went offline while the probes were paused was not put in its
 * deepest state by its hotplug callback: do it now.  The caller holds the
 * hotplug lock, so the CPU stays offline and nothing else writes its entry.
 */
static void sp_cpuidle_hold_offline(void)
{
	const struct sp_model *m = sp_em_model();
	u64 now = local_clock();
	u32 cpu;

	if (!m)
		return;
	for_each_cpu(cpu, &sp_cpuidle_offline_mask) {
		u32 deep;

		if (cpu >= m->nr_cpus)
			continue;
		deep = sp_cpuidle_deepest(m, cpu);
		if (READ_ONCE(sp_cpuidle_st->cpu[cpu].idle_state) == (s32)deep)
			continue;
		if (sp_state_cpu_idle(sp_cpuidle_st, cpu))
			sp_acct_exit(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, now, NULL);
		sp_acct_enter(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, deep, now);
	}
}

/*
 * End a pause: offline CPUs to their deepest state, the rebuilt state
 * published before the probes see it, every online CPU rechecked.  While
 * the mode is off (the probes unregistered) the pause goes on.
 */
static void sp_cpuidle_resume(void)
{
	const struct sp_model *m;

	lockdep_assert_held(&sp_cpuidle_mutex);
	if (!sp_cpuidle_on)
		return;
	cpus_read_lock();
	rcu_read_lock();
	sp_cpuidle_hold_offline();
	/*
	 * The published model stays until a change's SP_MODEL_PREPARE, which
	 * waits for sp_cpuidle_mutex and pauses again before it is freed.
	 */
	m = sp_em_model();
	rcu_read_unlock();
	/* the rebuilt state before the probes see it: pairs with their acquire */
	smp_store_release(&sp_cpuidle_model, m);
	on_each_cpu(sp_cpuidle_recheck, NULL, 1);
	cpus_read_unlock();
}

/*
 * Zero the statistics and the energy at @now.  While the mode is off the
 * readers sum up to sp_cpuidle_off_ns, which must not precede the reset:
 * they hold still at the reset instead (since_reset_us 0, energy 0).
 * Under sp_cpuidle_mutex, or in init before anything else runs.
 */
static void sp_cpuidle_acct_reset(u64 now)
{
	sp_acct_reset(sp_cpuidle_acc, now);
	if (!sp_cpuidle_on)
		sp_cpuidle_off_ns = now;
}

/* Clamp every CPU's state to @m and rebuild the counters; probes paused. */
static void sp_cpuidle_resync_locked(const struct sp_model *m)
{
	u64 now = local_clock();
	u32 cpu, pd;

	lockdep_assert_held(&sp_cpuidle_mutex);
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sp_cpu_state *c = &sp_cpuidle_st->cpu[cpu];
		const struct sp_pd *p = &m->pd[m->cpu_pd[cpu]];

		if (c->idle_state != SP_CPU_AWAKE && c->idle_state >= p->nr_idle)
			c->idle_state = p->nr_idle ? p->nr_idle - 1 : 0;
	}
	for (pd = 0; pd < SP_MAX_PDS; pd++)
		sp_cpuidle_st->pd_opp[pd] = SP_OPP_MODELLED;
	sp_state_resync(sp_cpuidle_st, m, now);
	sp_cpuidle_acct_reset(now);
}

static int sp_cpuidle_model_event(struct notifier_block *nb, unsigned long action,
				  void *data)
{
	const struct sp_model *m = data;

	if (action == SP_MODEL_PREPARE) {
		mutex_lock(&sp_cpuidle_mutex);
		sp_cpuidle_pause();
		return NOTIFY_OK;
	}
	if (action == SP_MODEL_CHANGED) {
		sp_cpuidle_resync_locked(m);
		sp_cpuidle_resume();
		mutex_unlock(&sp_cpuidle_mutex);
	}
	return NOTIFY_OK;
}

static struct notifier_block sp_cpuidle_model_nb = {
	.notifier_call = sp_cpuidle_model_event,
};

/* ---- CPU hotplug --------------------------------------------------------- */

/* Runs on @cpu itself as it goes down: hold it in its deepest state. */
static int sp_cpuidle_offline(unsigned int cpu)
{
	const struct sp_model *m;
	u64 now;

	preempt_disable();
	WARN_ON_ONCE(smp_processor_id() != cpu);
	cpumask_set_cpu(cpu, &sp_cpuidle_offline_mask);
	m = READ_ONCE(sp_cpuidle_model);	/* NULL while paused */
	now = local_clock();
	if (m && cpu < m->nr_cpus) {
		if (sp_state_cpu_idle(sp_cpuidle_st, cpu))
			sp_acct_exit(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, now, NULL);
		sp_acct_enter(sp_cpuidle_acc, sp_cpuidle_st, m, cpu,
			      sp_cpuidle_deepest(m, cpu), now);
	}
	preempt_enable();
	return 0;
}

/* Runs on @cpu itself as it comes up: it is awake, running this. */
static int sp_cpuidle_online(unsigned int cpu)
{
	const struct sp_model *m;

	preempt_disable();
	WARN_ON_ONCE(smp_processor_id() != cpu);
	m = READ_ONCE(sp_cpuidle_model);	/* NULL while paused */
	if (m && cpu < m->nr_cpus && sp_state_cpu_idle(sp_cpuidle_st, cpu))
		sp_acct_exit(sp_cpuidle_acc, sp_cpuidle_st, m, cpu, local_clock(), NULL);
	cpumask_clear_cpu(cpu, &sp_cpuidle_offline_mask);
	preempt_enable();
	return 0;
}

/* Probes are paused: no CPU is updating its own cost counters. */
static void sp_cpuidle_cost_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sp_cpuidle_cost_cpu, cpu), 0,
		       sizeof(struct sp_cpuidle_cost));
}

/**
 * sp_cpuidle_reset() - zero the idle statistics, the energy and the probe cost
 *
 * Context: process context; sleeps.
 *
 * The probes are paused for one grace period; transitions meanwhile are
 * recovered by the resume's recheck.  While the mode is off the readouts
 * then hold still at the reset, at 0.
 */
void sp_cpuidle_reset(void)
{
	mutex_lock(&sp_cpuidle_mutex);
	sp_cpuidle_pause();
	sp_cpuidle_acct_reset(local_clock());
	sp_cpuidle_cost_reset();
	sp_cpuidle_resume();
	mutex_unlock(&sp_cpuidle_mutex);
}

/* ---- on and off, init and exit ------------------------------------------ */

static void sp_cpuidle_free(void)
{
	kvfree(sp_cpuidle_acc);
	kvfree(sp_cpuidle_st);
	sp_cpuidle_acc = NULL;
	sp_cpuidle_st = NULL;
}

/*
 * The snapshot, the idle statistics and the energy afresh at now, as at
 * insmod: every online CPU awake (the recheck then marks the idle ones as
 * their probes see them), every offline one in its deepest state.  Called
 * under cpus_read_lock(), so the online mask holds still
 * (lockdep_assert_cpus_held() is not exported).
 */
static void sp_cpuidle_restart_locked(void)
{
	const struct cpuidle_driver *drv;
	const struct sp_model *m;
	u64 now = local_clock();
	u32 cpu;

	preempt_disable();
	drv = cpuidle_get_driver();
	sp_cpuidle_no_driver = !drv || drv->state_count <= 0;
	preempt_enable();

	rcu_read_lock();
	m = sp_em_model();
	sp_state_init(sp_cpuidle_st, m, now);
	sp_cpuidle_acct_reset(now);
	cpumask_clear(&sp_cpuidle_offline_mask);
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (cpu_online(cpu))
			continue;
		cpumask_set_cpu(cpu, &sp_cpuidle_offline_mask);
		sp_acct_enter(sp_cpuidle_acc, sp_cpuidle_st, m, cpu,
			      sp_cpuidle_deepest(m, cpu), now);
	}
	rcu_read_unlock();
}

/*
 * Register the probes, paused, and start the snapshot.  The probes go in
 * outside cpus_read_lock(): registering a tracepoint probe updates its
 * static call, which takes that lock itself (lockdep saw the recursion on
 * the debug kernel).
 */
static int sp_cpuidle_start(void)
{
	int ret;

	lockdep_assert_held(&sp_cpuidle_mutex);
	WRITE_ONCE(sp_cpuidle_model, NULL);	/* paused */
	ret = register_trace_cpu_idle(sp_cpuidle_probe_idle, NULL);
	if (ret)
		return ret;
	/* optional: without it the OPP is modelled */
	if (register_trace_cpu_frequency(sp_cpuidle_probe_freq, NULL))
		pr_info("power:cpu_frequency not hooked: OPPs are modelled\n");
	cpus_read_lock();
	sp_cpuidle_restart_locked();
	cpus_read_unlock();
	sp_cpuidle_on = true;
	sp_cpuidle_resume();
	return 0;
}

/* Unregister the probes; no probe runs once it returns.  Sleeps. */
static void sp_cpuidle_stop(void)
{
	lockdep_assert_held(&sp_cpuidle_mutex);
	WRITE_ONCE(sp_cpuidle_model, NULL);	/* paused */
	sp_cpuidle_on = false;
	sp_cpuidle_off_ns = local_clock();
	unregister_trace_cpu_frequency(sp_cpuidle_probe_freq, NULL);
	unregister_trace_cpu_idle(sp_cpuidle_probe_idle, NULL);
	tracepoint_synchronize_unregister();
}

/*
 * mode=off unregisters the probes, so an idle entry costs nothing, and the
 * readouts hold the values of that moment; leaving off registers them
 * again and starts the snapshot, the idle statistics and the energy afresh,
 * as insmod does.  Knob writes arrive here in process context; a write
 * whose probes cannot be registered is refused (sp_cpuidle_start() leaves
 * nothing registered and the readouts as they were).
 */
static int sp_cpuidle_knob_event(struct notifier_block *nb, unsigned long action,
				 void *data)
{
	bool want = sp_knob_mode() != SP_MODE_OFF;
	int ret = 0;

	mutex_lock(&sp_cpuidle_mutex);
	if (want && !sp_cpuidle_on)
		ret = sp_cpuidle_start();
	else if (!want && sp_cpuidle_on)
		sp_cpuidle_stop();
	mutex_unlock(&sp_cpuidle_mutex);
	return sp_knob_answer(action == SP_KNOB_APPLY, ret,
			      "cannot register the idle probes",
			      "the snapshot stays frozen");
}

static struct notifier_block sp_cpuidle_knob_nb = {
	.notifier_call = sp_cpuidle_knob_event,
};

/**
 * sp_cpuidle_init() - allocate the snapshot, install the hotplug callbacks,
 * and register the idle probes unless the mode is off
 *
 * Return: 0 or a negative error; nothing is left registered on error.
 */
int sp_cpuidle_init(void)
{
	int ret;

	sp_cpuidle_st = kvzalloc(sizeof(*sp_cpuidle_st), GFP_KERNEL);
	sp_cpuidle_acc = kvzalloc(sizeof(*sp_cpuidle_acc), GFP_KERNEL);
	if (!sp_cpuidle_st || !sp_cpuidle_acc) {
		sp_cpuidle_free();
		return -ENOMEM;
	}
	WRITE_ONCE(sp_cpuidle_model, NULL);	/* paused */
	cpus_read_lock();
	sp_cpuidle_restart_locked();
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "sched_power:online",
						   sp_cpuidle_online, sp_cpuidle_offline);
	cpus_read_unlock();
	if (ret < 0)
		goto err_free;
	sp_cpuidle_hp_state = ret;
	mutex_lock(&sp_cpuidle_mutex);
	ret = sp_knob_mode() != SP_MODE_OFF ? sp_cpuidle_start() : 0;
	mutex_unlock(&sp_cpuidle_mutex);
	if (ret)
		goto err_hp;
	ret = sp_em_subscribe(&sp_cpuidle_model_nb);
	if (!ret)
		ret = sp_knob_subscribe(&sp_cpuidle_knob_nb);
	if (ret)
		goto err_model;
	return 0;

err_model:
	sp_em_unsubscribe(&sp_cpuidle_model_nb);
	mutex_lock(&sp_cpuidle_mutex);
	if (sp_cpuidle_on)
		sp_cpuidle_stop();
	mutex_unlock(&sp_cpuidle_mutex);
err_hp:
	cpuhp_remove_state_nocalls(sp_cpuidle_hp_state);
err_free:
	tracepoint_synchronize_unregister();
	sp_cpuidle_free();
	return ret;
}

/**
 * sp_cpuidle_exit() - unregister everything sp_cpuidle_init() registered
 * and free the snapshot; no probe or callback runs once it returns
 */
void sp_cpuidle_exit(void)
{
	if (!sp_cpuidle_st)
		return;
	sp_knob_unsubscribe(&sp_cpuidle_knob_nb);
	sp_em_unsubscribe(&sp_cpuidle_model_nb);
	cpuhp_remove_state_nocalls(sp_cpuidle_hp_state);
	mutex_lock(&sp_cpuidle_mutex);
	if (sp_cpuidle_on)
		sp_cpuidle_stop();
	mutex_unlock(&sp_cpuidle_mutex);
	tracepoint_synchronize_unregister();
	sp_cpuidle_free();
}
