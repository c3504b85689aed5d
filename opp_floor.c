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
 * performance domain, the OPP k that minimises
 *
 *	(P_k - P_deepest_idle + sum over the groups above of active - idle) / cap_k
 *
 * the energy of a unit of work when the domain's CPU and the groups above
 * it are up for that work alone (core/sp_energy.c).  With opp_floor=1 in
 * power mode, every cpufreq policy gets a FREQ_QOS_MIN request at that
 * OPP's frequency, so the governor never runs the domain below it; in any
 * other mode, or with opp_floor=0, the requests are removed.  Without
 * cpufreq (the qemu guest) there is no policy and nothing to request.
 *
 * Requests are made in process context only, under sp_floor_lock: when
 * mode or opp_floor is written (the policy's notifier), when the model
 * changes (the model's notifier) and when cpufreq creates or removes a
 * policy (its policy notifier, as drivers/acpi/processor_perflib.c does).
 * The wake-up hook neither reads nor waits for any of it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/pm_qos.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>

#include "sched_power.h"

/* Serialises the requests, their targets and the count below. */
static DEFINE_MUTEX(sp_floor_lock);

struct sp_floor {
	struct freq_qos_request req;	/* on the policy whose ->cpu this is */
	u32 khz;			/* requested now, 0 = no request */
	u32 target_khz;			/* this CPU's pd floor in the model */
};

static DEFINE_PER_CPU(struct sp_floor, sp_floor);
static u32 sp_floor_nr;		/* requests in force */

static bool sp_floor_wanted(void)
{
	struct sp_knobs pol;

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
			k = sp_energy_opp_floor(m, pd);
		f->target_khz = k ? m->pd[pd].opp[k].freq_khz : 0;
	}
}

/* Bring @policy's request to @khz, 0 for none. */
static void sp_floor_set(struct cpufreq_policy *policy, u32 khz)
{
	struct sp_floor *f = per_cpu_ptr(&sp_floor, policy->cpu);
	int ret;

	lockdep_assert_held(&sp_floor_lock);
	khz = min(khz, policy->cpuinfo.max_freq);
	if (f->khz == khz)
		return;
	if (!khz) {
		freq_qos_remove_request(&f->req);
		f->khz = 0;
		sp_floor_nr--;
		return;
	}
	if (f->khz)
		ret = freq_qos_update_request(&f->req, khz);
	else
		ret = freq_qos_add_request(&policy->constraints, &f->req,
					   FREQ_QOS_MIN, khz);
	if (ret < 0) {
		pr_warn("cpu%u: frequency floor %u kHz: %d\n", policy->cpu, khz, ret);
		return;
	}
	if (!f->khz)
		sp_floor_nr++;
	f->khz = khz;
}

static void sp_floor_policy(struct cpufreq_policy *policy, bool on)
{
	sp_floor_set(policy, on ? per_cpu_ptr(&sp_floor, policy->cpu)->target_khz : 0);
}

/* Every policy to the floor in force (@on) or to none. */
static void sp_floor_apply(bool on)
{
	int cpu;

	lockdep_assert_held(&sp_floor_lock);
	for_each_possible_cpu(cpu) {
		struct cpufreq_policy *policy = cpufreq_cpu_get(cpu);

		if (!policy)
			continue;
		if (policy->cpu == cpu)
			sp_floor_policy(policy, on);
		cpufreq_cpu_put(policy);
	}
}

static int sp_floor_knob_event(struct notifier_block *nb, unsigned long action,
			       void *data)
{
	mutex_lock(&sp_floor_lock);
	sp_floor_apply(sp_floor_wanted());
	mutex_unlock(&sp_floor_lock);
	return NOTIFY_OK;
}

static int sp_floor_model_event(struct notifier_block *nb, unsigned long action,
				void *data)
{
	if (action != SP_MODEL_CHANGED)
		return NOTIFY_OK;
	mutex_lock(&sp_floor_lock);
	sp_floor_targets(data);
	sp_floor_apply(sp_floor_wanted());
	mutex_unlock(&sp_floor_lock);
	return NOTIFY_OK;
}

static int sp_floor_cpufreq_event(struct notifier_block *nb, unsigned long action,
				  void *data)
{
	struct cpufreq_policy *policy = data;

	mutex_lock(&sp_floor_lock);
	if (action == CPUFREQ_CREATE_POLICY)
		sp_floor_policy(policy, sp_floor_wanted());
	else if (action == CPUFREQ_REMOVE_POLICY)
		sp_floor_set(policy, 0);
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

int sp_floor_init(void)
{
	int ret;

	rcu_read_lock();
	sp_floor_targets(sp_em_model());
	rcu_read_unlock();
	ret = cpufreq_register_notifier(&sp_floor_cpufreq_nb, CPUFREQ_POLICY_NOTIFIER);
	if (ret)
		return ret;
	ret = sp_knob_subscribe(&sp_floor_knob_nb);
	if (!ret)
		ret = sp_em_subscribe(&sp_floor_model_nb);
	if (ret) {
		sp_floor_exit();
		return ret;
	}
	mutex_lock(&sp_floor_lock);
	sp_floor_apply(sp_floor_wanted());
	mutex_unlock(&sp_floor_lock);
	return 0;
}

void sp_floor_exit(void)
{
	sp_em_unsubscribe(&sp_floor_model_nb);
	sp_knob_unsubscribe(&sp_floor_knob_nb);
	cpufreq_unregister_notifier(&sp_floor_cpufreq_nb, CPUFREQ_POLICY_NOTIFIER);
	mutex_lock(&sp_floor_lock);
	sp_floor_apply(false);
	mutex_unlock(&sp_floor_lock);
}

/* debugfs opp_floor: per CPU, the floor of its pd and the request in force. */
static int sp_floor_show(struct seq_file *sf, void *v)
{
	int cpu;

	mutex_lock(&sp_floor_lock);
	seq_printf(sf, "# active %u requests %u\n", sp_floor_wanted(), sp_floor_nr);
	for_each_possible_cpu(cpu) {
		const struct sp_floor *f = per_cpu_ptr(&sp_floor, cpu);

		seq_printf(sf, "cpu%d floor_khz %u requested_khz %u\n", cpu,
			   f->target_khz, f->khz);
	}
	mutex_unlock(&sp_floor_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sp_floor);

void sp_floor_debugfs(struct dentry *root)
{
	debugfs_create_file("opp_floor", 0444, root, NULL, &sp_floor_fops);
}
