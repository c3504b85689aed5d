// SPDX-License-Identifier: GPL-2.0
/*
 * Power mode's OPP floor, through cpufreq's frequency QoS.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the OPP floor
 *
 * Light work left to schedutil runs at the lowest OPP, which is rarely the
 * cheapest per unit of work once static power is counted: a package stays
 * up for as long as the work takes.  sp_energy_opp_floor() gives, per
 * performance domain, the OPP k that minimises::
 *
 *	(P_k - P_deepest_idle + sum over the groups above of active - idle) / cap_k
 *
 * the energy of a unit of work when the domain's CPU and the groups above
 * it are up for that work alone.  With opp_floor=1 in
 * power mode, every cpufreq policy gets a FREQ_QOS_MIN request at that
 * OPP's frequency, so the governor never runs the domain below it; in any
 * other mode, or with opp_floor=0, the requests are removed.  Without a
 * cpufreq driver there is no policy and nothing to request (the qemu
 * guests have none; the test driver sp_testfreq gives them one,
 * Documentation/testfreq.rst).
 *
 * Requests are made in process context only, under sp_floor_lock: when
 * mode or opp_floor is written (the knobs' notifier), when the model
 * changes (the model's notifier) and when cpufreq creates or removes a
 * policy (its policy notifier, as drivers/acpi/processor_perflib.c does),
 * and from the gap look below.  The wake-up hook neither reads nor waits
 * for any of it.
 */

/**
 * DOC: the floor's gap limit
 *
 * The price above holds while the groups are up for the work alone.  A
 * periodic task's work ends sooner at a higher OPP, so its idle gap
 * (period less run) grows; once the gap covers a deeper idle state's
 * target residency, the CPU and the groups above it sleep in every period
 * and the next timer pays their whole exit chain at every wake-up (phone
 * model: 50 us of work each 1 ms gives a gap of 858 us at LITTLE's floor,
 * past cpu-off's 800 us, and 1050 us wake-ups).  While the floor is on, a
 * deferrable work looks at the idle accounting every SP_FLOOR_LOOK_MS,
 * prices each pd's floor for the groups it holds up (sp_floor_shared_opp():
 * a group that other CPUs keep up gains nothing from this pd's race) and
 * lowers it to sp_floor_gap_opp(): the highest OPP at which
 * no CPU's mean gap reaches a state slower to leave than the one it
 * reaches at schedutil's OPP (or than the latency_us knob).  A move within
 * SP_FLOOR_SETTLE_LOOKS looks of the last one holds the lower limit for a
 * time that doubles at each such move (core/sp_floor.h): where the work's
 * time does not follow the OPP (sp_testfreq in the qemu guests changes no
 * speed) the look would otherwise move the floor at every look or two.
 * Being deferrable, the look wakes no idle CPU.  Debugfs opp_floor lists
 * each pd's limit (gap_limit_opp, the lower of the two), the floor priced
 * for its groups (shared_opp) and gap_limit_changes, the moves of a floor
 * in force.
 */

/**
 * DOC: the lifetime of a floor request
 *
 * A request is linked into one policy's frequency constraints
 * (policy->constraints) from freq_qos_add_request() until
 * freq_qos_remove_request(), and it lives in this module's memory: it must
 * be unlinked before the policy is freed and before the module is.  cpufreq
 * moves policy->cpu to another CPU when that one goes offline, and
 * cpufreq_cpu_get() finds no policy at all once all of its CPUs are
 * offline, so neither can name a request.  The rules:
 *
 *  - a request is filed under its policy's key, the first CPU of
 *    policy->related_cpus, which is fixed for the life of the policy;
 *  - a request remembers its constraints (req.qos): switching the floor
 *    off, or exit, removes every request in force with no policy lookup,
 *    including one on a policy whose CPUs are all offline;
 *  - a policy is freed only after CPUFREQ_REMOVE_POLICY (a cpufreq driver
 *    unload, a CPU device removed), and that notification removes the
 *    request linked to its constraints, whichever CPU policy->cpu names;
 *  - exit closes the door first (no request is added after it), removes
 *    every request, and only then unregisters the policy notifier, so no
 *    policy can be freed in between with a request of ours on it;
 *  - a request is linked only into a policy announced by
 *    CPUFREQ_CREATE_POLICY, or one whose governor is set (cpufreq_online()
 *    sets it after CREATE; the knob and model paths adopt such a policy,
 *    the gap look never does): cpufreq_online() makes a new policy visible
 *    to cpufreq_cpu_get() before CREATE, and a failure in between frees it
 *    without REMOVE;
 *  - the knob and model paths and the look take cpus_read_lock() before
 *    sp_floor_lock, the order the policy notifier already brings (cpufreq
 *    creates and removes policies with the hotplug lock held: driver
 *    registration and removal, the hotplug callbacks).  It keeps online
 *    CPUs still but, being a read lock, does not exclude a driver's
 *    registration or removal: hence the rule above.
 *
 * Without cpufreq (cpufreq.off=1 or Xen: cpufreq_register_notifier()
 * returns -EINVAL) there is no floor and the module loads anyway; debugfs
 * opp_floor says "cpufreq none".  A policy whose CPUs are all offline when
 * the floor is switched on gets its request at the next knob or model
 * write after one of them is back.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/pm_qos.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include "sched_power.h"
#include "core/sp_floor.h"

/* Serialises the requests, their targets and the state below. */
static DEFINE_MUTEX(sp_floor_lock);

struct sp_floor {
	struct freq_qos_request req;	/* on the policy this CPU is the key of */
	struct cpufreq_policy *policy;	/* announced: from CREATE (or init) to REMOVE */
	u32 khz;			/* requested now, 0 = no request */
	u32 target_khz;			/* this CPU's pd floor in the model */
};

static DEFINE_PER_CPU(struct sp_floor, sp_floor);
static u32 sp_floor_gap_lim[SP_MAX_PDS];	/* per pd: sp_floor_gap_opp(), under the lock */
static u32 sp_floor_shared_lim[SP_MAX_PDS];	/* per pd: sp_floor_shared_opp(), under the lock */
static u64 sp_floor_gap_changes;		/* moves of a floor by a look, under the lock */
/* bumped when the floor goes off or the model changes, under the lock */
static u32 sp_floor_gap_epoch;
static u32 sp_floor_nr;		/* requests in force */
static bool sp_floor_closed;	/* exit has begun: no new request */
static bool sp_floor_cpufreq;	/* the policy notifier is registered */

static bool sp_floor_wanted(void)
{
	struct sp_knobs pol;

	lockdep_assert_held(&sp_floor_lock);
	if (sp_floor_closed || !sp_floor_cpufreq)
		return false;
	sp_knob_snapshot(&pol);
	return pol.mode == SP_MODE_POWER && sp_knob_floor_on();
}

/* Every CPU's floor frequency from @m: 0 where the lowest OPP is the floor. */
static void sp_floor_targets(const struct sp_model *m)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct sp_floor *f = per_cpu_ptr(&sp_floor, cpu);
		u32 pd, k = 0;

		pd = (u32)cpu < m->nr_cpus ? m->cpu_pd[cpu] : SP_NONE;
		if (pd < m->nr_pds)
			k = min(sp_energy_opp_floor(m, pd), sp_floor_gap_lim[pd]);
		f->target_khz = k ? m->pd[pd].opp[k].freq_khz : 0;
	}
}

/* The request slot of @policy: its key CPU's. */
static struct sp_floor *sp_floor_of(const struct cpufreq_policy *policy)
{
	return per_cpu_ptr(&sp_floor, cpumask_first(policy->related_cpus));
}

/* Unlink @f's request, if any; needs no policy, only its constraints. */
static void sp_floor_drop(struct sp_floor *f)
{
	lockdep_assert_held(&sp_floor_lock);
	if (!f->khz)
		return;
	freq_qos_remove_request(&f->req);
	f->khz = 0;
	sp_floor_nr--;
}

static void sp_floor_drop_all(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		sp_floor_drop(per_cpu_ptr(&sp_floor, cpu));
}

/* Bring @policy's request to @khz, 0 for none. */
static void sp_floor_set(struct cpufreq_policy *policy, u32 khz)
{
	struct sp_floor *f = sp_floor_of(policy);
	int ret;

	lockdep_assert_held(&sp_floor_lock);
	/* a request on another policy under this key outlived its REMOVE */
	if (WARN_ON_ONCE(f->khz && f->req.qos != &policy->constraints))
		return;
	khz = min(khz, policy->cpuinfo.max_freq);
	if (f->khz == khz)
		return;
	if (!khz) {
		sp_floor_drop(f);
		return;
	}
	if (f->khz)
		ret = freq_qos_update_request(&f->req, khz);
	else
		ret = freq_qos_add_request(&policy->constraints, &f->req,
					   FREQ_QOS_MIN, khz);
	if (ret < 0) {
		pr_warn("cpus %*pbl: frequency floor %u kHz: %d\n",
			cpumask_pr_args(policy->related_cpus), khz, ret);
		return;
	}
	if (!f->khz)
		sp_floor_nr++;
	f->khz = khz;
}

static void sp_floor_policy(struct cpufreq_policy *policy, bool on)
{
	sp_floor_set(policy, on ? sp_floor_of(policy)->target_khz : 0);
}

/*
 * Record @policy as announced if cpufreq_online() has finished it: its
 * governor (or setpolicy policy) is set after CPUFREQ_CREATE_POLICY.  For
 * the policies that existed before the policy notifier was registered.
 */
static void sp_floor_adopt(struct cpufreq_policy *policy)
{
	struct sp_floor *f = sp_floor_of(policy);

	lockdep_assert_held(&sp_floor_lock);
	if (!f->policy && (READ_ONCE(policy->governor) || READ_ONCE(policy->policy)))
		f->policy = policy;
}

/*
 * Floor @cpu's policy if @cpu is its first online CPU: once per policy, and
 * only a policy announced by CPUFREQ_CREATE_POLICY (or adopted, if @adopt).
 * cpufreq_online() publishes a new policy to cpufreq_cpu_get() before it
 * sends CREATE, and if it fails in between it frees the policy without
 * REMOVE: a request linked there would outlive its policy.
 */
static void sp_floor_visit(int cpu, bool adopt)
{
	struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);

	if (!policy)
		return;
	if (cpumask_first(policy->cpus) == cpu) {
		if (adopt)
			sp_floor_adopt(policy);
		if (sp_floor_of(policy)->policy == policy)
			sp_floor_policy(policy, true);
	}
	cpufreq_cpu_put(policy);
}

/*
 * The floor is off: its gap limits are judged only while it is on, so drop
 * them, and the next look after it comes back on only takes the totals
 * (sp_floor_look_pds()).  A floor switched on starts at its priced OPP.
 */
static void sp_floor_gap_drop(void)
{
	u32 pd;
	bool any = false;

	lockdep_assert_held(&sp_floor_lock);
	for (pd = 0; pd < SP_MAX_PDS; pd++) {
		any |= sp_floor_gap_lim[pd] != U32_MAX;
		sp_floor_gap_lim[pd] = U32_MAX;
	}
	sp_floor_gap_epoch++;
	if (any) {
		rcu_read_lock();
		sp_floor_targets(sp_em_model());
		rcu_read_unlock();
	}
}

/*
 * Recompute the targets from @m (if given), then bring every policy with an
 * online CPU to the floor the knobs ask for, or remove every request and
 * the gap limits.  The hotplug lock, taken before sp_floor_lock, keeps each
 * policy's online CPUs still during the walk.
 */
static void sp_floor_update(const struct sp_model *m)
{
	int cpu;

	cpus_read_lock();
	mutex_lock(&sp_floor_lock);
	if (!sp_floor_wanted())
		sp_floor_gap_drop();
	if (m)
		sp_floor_targets(m);
	if (sp_floor_wanted()) {
		for_each_online_cpu(cpu)
			sp_floor_visit(cpu, true);
	} else {
		sp_floor_drop_all();
	}
	mutex_unlock(&sp_floor_lock);
	cpus_read_unlock();
}

/* The gap look's own state: only the look (one work item) touches it. */
static struct sp_floor_look sp_floor_looks[SP_MAX_CPUS];
static struct sp_floor_pd sp_floor_pds[SP_MAX_PDS];
static u32 sp_floor_gap_next[SP_MAX_PDS];
static u32 sp_floor_gap_priced[SP_MAX_PDS];	/* sp_energy_opp_floor() at the look */
static u32 sp_floor_gap_shared[SP_MAX_PDS];	/* sp_floor_shared_opp() at the look */
static struct sp_floor_groups sp_floor_groups;	/* the groups' recent awake time */
static const struct sp_model *sp_floor_look_model;	/* compared, never dereferenced */
static u32 sp_floor_look_epoch;		/* sp_floor_gap_epoch at the last look */

static void sp_floor_look_fn(struct work_struct *work);
static DECLARE_DEFERRABLE_WORK(sp_floor_look_work, sp_floor_look_fn);

static void sp_floor_look_arm(void)
{
	mod_delayed_work(system_wq, &sp_floor_look_work, msecs_to_jiffies(SP_FLOOR_LOOK_MS));
}

/*
 * Every pd's gap limit from the accounting since the last look; the first
 * look since the model changed or the floor was last off (@epoch) only
 * takes the totals.  Return: a limit changed.
 */
static bool sp_floor_look_pds(u32 bound_us, u32 epoch)
{
	const struct sp_model *m;
	bool changed = false;
	u32 pd;

	sp_cpuidle_lock();
	rcu_read_lock();
	m = sp_em_model();
	for (pd = 0; pd < SP_MAX_PDS; pd++) {
		sp_floor_gap_next[pd] = U32_MAX;
		sp_floor_gap_priced[pd] = U32_MAX;
		sp_floor_gap_shared[pd] = U32_MAX;
	}
	if (m && m == sp_floor_look_model && epoch == sp_floor_look_epoch) {
		sp_floor_groups_look(m, sp_cpuidle_acct(), sp_cpuidle_state(),
				     sp_cpuidle_read_ns(), &sp_floor_groups, false);
		for (pd = 0; pd < m->nr_pds; pd++) {
			u32 k = sp_energy_opp_floor(m, pd);
			u32 cur = min(k, READ_ONCE(sp_floor_gap_lim[pd]));
			u32 shared = sp_floor_shared_opp(m, pd, sp_cpuidle_state(),
							 &sp_floor_groups);

			sp_floor_gap_priced[pd] = k;
			sp_floor_gap_shared[pd] = shared;
			sp_floor_gap_next[pd] = sp_floor_gap_opp(m, pd, shared, cur, bound_us,
								 sp_cpuidle_acct(), sp_floor_looks,
								 &sp_floor_pds[pd]);
		}
	} else if (m) {
		memset(sp_floor_looks, 0, sizeof(sp_floor_looks));
		memset(sp_floor_pds, 0, sizeof(sp_floor_pds));
		memset(&sp_floor_groups, 0, sizeof(sp_floor_groups));
		sp_floor_groups_look(m, sp_cpuidle_acct(), sp_cpuidle_state(),
				     sp_cpuidle_read_ns(), &sp_floor_groups, true);
		for (pd = 0; pd < m->nr_pds; pd++)
			sp_floor_gap_opp(m, pd, 0, 0, 0, sp_cpuidle_acct(), sp_floor_looks, NULL);
	}
	sp_floor_look_model = m;
	sp_floor_look_epoch = epoch;
	rcu_read_unlock();
	sp_cpuidle_unlock();
	mutex_lock(&sp_floor_lock);
	/* the floor went off or the model changed meanwhile: nothing to write */
	for (pd = 0; pd < SP_MAX_PDS && epoch == sp_floor_gap_epoch; pd++) {
		u32 k = sp_floor_gap_priced[pd];

		sp_floor_shared_lim[pd] = sp_floor_gap_shared[pd];
		if (sp_floor_gap_lim[pd] == sp_floor_gap_next[pd])
			continue;
		changed = true;
		/* a move of the floor in force; not a reset to no limit */
		if (sp_floor_gap_next[pd] != U32_MAX &&
		    min(k, sp_floor_gap_lim[pd]) != min(k, sp_floor_gap_next[pd]))
			sp_floor_gap_changes++;
		sp_floor_gap_lim[pd] = sp_floor_gap_next[pd];
	}
	mutex_unlock(&sp_floor_lock);
	return changed;
}

static void sp_floor_look_fn(struct work_struct *work)
{
	struct sp_knobs pol;
	u32 epoch;
	bool on;

	mutex_lock(&sp_floor_lock);
	on = sp_floor_wanted();
	epoch = sp_floor_gap_epoch;
	mutex_unlock(&sp_floor_lock);
	if (!on)
		return;
	sp_knob_snapshot(&pol);
	if (sp_floor_look_pds(pol.latency_us, epoch)) {
		cpus_read_lock();
		mutex_lock(&sp_floor_lock);
		rcu_read_lock();
		sp_floor_targets(sp_em_model());
		rcu_read_unlock();
		if (sp_floor_wanted()) {
			int cpu;

			for_each_online_cpu(cpu)
				sp_floor_visit(cpu, false);
		}
		mutex_unlock(&sp_floor_lock);
		cpus_read_unlock();
	}
	sp_floor_look_arm();
}

static int sp_floor_knob_event(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	bool on;

	sp_floor_update(NULL);
	mutex_lock(&sp_floor_lock);
	on = sp_floor_wanted();
	mutex_unlock(&sp_floor_lock);
	if (on)
		sp_floor_look_arm();
	return NOTIFY_OK;
}

static int sp_floor_model_event(struct notifier_block *nb, unsigned long action,
				void *data)
{
	u32 pd;

	if (action != SP_MODEL_CHANGED)
		return NOTIFY_OK;
	/*
	 * The limits were the old model's pds': none until the next look.  A
	 * look that read the old model writes nothing (the epoch), and the
	 * next one only takes the totals, even if the new model sits at the
	 * old one's address.
	 */
	mutex_lock(&sp_floor_lock);
	for (pd = 0; pd < SP_MAX_PDS; pd++)
		sp_floor_gap_lim[pd] = U32_MAX;
	sp_floor_gap_epoch++;
	mutex_unlock(&sp_floor_lock);
	sp_floor_update(data);
	return NOTIFY_OK;
}

/* cpufreq's policy notifier: a policy created, or about to be freed. */
static int sp_floor_cpufreq_event(struct notifier_block *nb, unsigned long action,
				  void *data)
{
	struct cpufreq_policy *policy = data;
	struct sp_floor *f;

	mutex_lock(&sp_floor_lock);
	f = sp_floor_of(policy);
	if (action == CPUFREQ_CREATE_POLICY) {
		f->policy = policy;
		sp_floor_policy(policy, sp_floor_wanted());
	} else if (action == CPUFREQ_REMOVE_POLICY) {
		if (f->khz && f->req.qos == &policy->constraints)
			sp_floor_drop(f);
		if (f->policy == policy)
			f->policy = NULL;
	}
	mutex_unlock(&sp_floor_lock);
	return NOTIFY_OK;
}

static struct notifier_block sp_floor_knob_nb = {
	.notifier_call = sp_floor_knob_event,
};

static struct notifier_block sp_floor_model_nb = {
	.notifier_call = sp_floor_model_event,
};

static struct notifier_block sp_floor_cpufreq_nb = {
	.notifier_call = sp_floor_cpufreq_event,
};

/**
 * sp_floor_init() - start the OPP floor: compute the floors from the
 * published model, register for policy, knob and model changes, and apply
 * the floor the knobs ask for.
 *
 * Return: 0, or a negative errno if a notifier could not be registered.
 * Without cpufreq (cpufreq.off=1) there is no floor, and that is not an
 * error.
 */
int sp_floor_init(void)
{
	int ret;
	u32 pd;

	for (pd = 0; pd < SP_MAX_PDS; pd++) {
		sp_floor_gap_lim[pd] = U32_MAX;
		sp_floor_shared_lim[pd] = U32_MAX;
	}

	ret = cpufreq_register_notifier(&sp_floor_cpufreq_nb, CPUFREQ_POLICY_NOTIFIER);
	if (ret && ret != -EINVAL)
		return ret;
	if (ret)
		pr_info("cpufreq is disabled: no OPP floor\n");
	mutex_lock(&sp_floor_lock);
	sp_floor_cpufreq = !ret;
	rcu_read_lock();
	sp_floor_targets(sp_em_model());
	rcu_read_unlock();
	mutex_unlock(&sp_floor_lock);
	ret = sp_knob_subscribe(&sp_floor_knob_nb);
	if (!ret)
		ret = sp_em_subscribe(&sp_floor_model_nb);
	if (ret) {
		sp_floor_exit();
		return ret;
	}
	sp_floor_update(NULL);
	mutex_lock(&sp_floor_lock);
	if (sp_floor_wanted())
		sp_floor_look_arm();
	mutex_unlock(&sp_floor_lock);
	return 0;
}

/**
 * sp_floor_exit() - remove every floor request and stop listening
 *
 * No request is added once this begins; every request in force is removed
 * before the policy notifier goes, so none can outlive its policy.
 */
void sp_floor_exit(void)
{
	bool registered;

	sp_em_unsubscribe(&sp_floor_model_nb);
	sp_knob_unsubscribe(&sp_floor_knob_nb);
	mutex_lock(&sp_floor_lock);
	sp_floor_closed = true;	/* the look no longer re-arms */
	mutex_unlock(&sp_floor_lock);
	cancel_delayed_work_sync(&sp_floor_look_work);
	mutex_lock(&sp_floor_lock);
	sp_floor_drop_all();
	registered = sp_floor_cpufreq;
	sp_floor_cpufreq = false;
	mutex_unlock(&sp_floor_lock);
	if (registered)
		cpufreq_unregister_notifier(&sp_floor_cpufreq_nb, CPUFREQ_POLICY_NOTIFIER);
}

/* debugfs opp_floor: per CPU, the floor of its pd and the request it keys. */
static int sp_floor_show(struct seq_file *sf, void *v)
{
	int cpu;

	mutex_lock(&sp_floor_lock);
	seq_printf(sf, "# active %u requests %u cpufreq %s\n", sp_floor_wanted(),
		   sp_floor_nr, sp_floor_cpufreq ? "yes" : "none (no floor)");
	for_each_possible_cpu(cpu) {
		const struct sp_floor *f = per_cpu_ptr(&sp_floor, cpu);

		seq_printf(sf, "cpu%d floor_khz %u requested_khz %u\n", cpu,
			   f->target_khz, f->khz);
	}
	for (cpu = 0; cpu < SP_MAX_PDS; cpu++) {
		if (sp_floor_gap_lim[cpu] == U32_MAX)
			continue;
		seq_printf(sf, "pd%d gap_limit_opp %u\n", cpu, sp_floor_gap_lim[cpu]);
		if (sp_floor_shared_lim[cpu] != U32_MAX)
			seq_printf(sf, "pd%d shared_opp %u\n", cpu, sp_floor_shared_lim[cpu]);
	}
	seq_printf(sf, "gap_limit_changes %llu\n", sp_floor_gap_changes);
	mutex_unlock(&sp_floor_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sp_floor);

/**
 * sp_floor_debugfs() - create debugfs opp_floor under @root
 * @root: sched_power's debugfs directory
 */
void sp_floor_debugfs(struct dentry *root)
{
	debugfs_create_file("opp_floor", 0444, root, NULL, &sp_floor_fops);
}
