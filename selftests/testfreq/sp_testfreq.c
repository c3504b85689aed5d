// SPDX-License-Identifier: GPL-2.0
/*
 * sp_testfreq: a cpufreq driver and Energy Model for test guests.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: a cpufreq driver for the test guests
 *
 * The qemu guests have no cpufreq driver: schedutil never runs, no
 * cpu_frequency event fires, there is no frequency QoS for sched_power's
 * OPP floor to act on and no Energy Model, so mainline EAS cannot start.
 * This test-only module gives them one.  It is not part of sched_power and
 * is never installed on a board.
 *
 * Policies: one per package (x86) or per cluster (arm64, the DT's cpu-map),
 * taken from the ids the topology keeps for offline CPUs too, so a policy
 * spans the same CPUs whichever of them is online when it is created.
 *
 * Frequencies: every policy has the table freq_khz= (ascending, at most
 * SP_TESTFREQ_MAX_OPPS entries; default 0.8, 1.6, 2.4, 3.2 GHz, the OPPs of
 * sched_power's synthetic model).  A policy starts at its highest OPP.
 * target_index() and fast_switch() only store the frequency; the cpufreq
 * core then emits power:cpu_frequency, updates policy->cur and calls
 * arch_set_freq_scale(), which on arm64 makes utilisation
 * frequency-invariant.  fast_switch_possible is set, so schedutil (Debian's
 * default governor) switches from the scheduler's update hook.
 *
 * Energy Model: each new policy registers a perf domain through the
 * register_em callback, with power_uw= (microwatts of one CPU of capacity
 * 1024 at each OPP; default 0.27, 0.8, 1.67, 3.2 W, the synthetic model's)
 * scaled by (capacity / 1024)^2 on a smaller CPU, as em_defaults.c scales
 * the synthetic model for a LITTLE CPU.  With the defaults sched_power's
 * default model is the same with or without this driver (it then reads
 * opp=em).  On a board with asymmetric capacities and no SMT, the EM plus
 * schedutil on every policy is what mainline EAS needs to start.
 *
 * What it cannot do: nothing gets slower at a lower OPP.  Under TCG the
 * guest runs at the host's pace whatever frequency is set; only the
 * numbers (policy->cur, the scheduler's frequency scale, the trace) change.
 * Energy must therefore be estimated from the work done at each OPP, never
 * from run time (Documentation/testfreq.rst).
 *
 * Lifetime: 6.1 cannot unregister a CPU's Energy Model
 * (em_dev_unregister_perf_domain() ignores CPU devices), so the EM of the
 * first load stays until reboot; a later load finds it and keeps it.  It
 * holds no pointer into this module (the table is copied at registration).
 * em=0 registers none, so that an unload leaves the kernel as it was.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/energy_model.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/version.h>

#define SP_TESTFREQ_MAX_OPPS	16

static unsigned int freq_khz[SP_TESTFREQ_MAX_OPPS] = {
	800000, 1600000, 2400000, 3200000,
};

static int nr_freq_khz = 4;
module_param_array(freq_khz, uint, &nr_freq_khz, 0444);
MODULE_PARM_DESC(freq_khz, "OPP frequencies in kHz, ascending (default 800000,1600000,2400000,3200000)");

static unsigned int power_uw[SP_TESTFREQ_MAX_OPPS] = {
	270000, 800000, 1670000, 3200000,
};

static int nr_power_uw = 4;
module_param_array(power_uw, uint, &nr_power_uw, 0444);
MODULE_PARM_DESC(power_uw, "power of a CPU of capacity 1024 at each OPP, uW (default 270000,800000,1670000,3200000)");

static bool em = true;
module_param(em, bool, 0444);
MODULE_PARM_DESC(em, "register an Energy Model per policy (default 1; it stays until reboot)");

static unsigned int rate_limit_us = 1000;
module_param(rate_limit_us, uint, 0444);
MODULE_PARM_DESC(rate_limit_us, "policy transition_delay_us: schedutil's rate limit (default 1000)");

/* The frequency each CPU's policy is at now, kHz. */
static DEFINE_PER_CPU(unsigned int, sp_testfreq_cur_khz);

/* The parameters: 1..MAX OPPs, frequencies and powers both rising. */
static int sp_testfreq_check_params(void)
{
	int i;

	if (nr_freq_khz < 1 || nr_power_uw != nr_freq_khz) {
		pr_err("freq_khz= and power_uw= need the same number of entries (%d, %d)\n",
		       nr_freq_khz, nr_power_uw);
		return -EINVAL;
	}
	for (i = 0; i < nr_freq_khz; i++) {
		if (!freq_khz[i] || !power_uw[i] || power_uw[i] > EM_MAX_POWER ||
		    (i && (freq_khz[i] <= freq_khz[i - 1] ||
			   power_uw[i] <= power_uw[i - 1]))) {
			pr_err("OPP %d (%u kHz, %u uW): frequencies and powers must rise, powers at most %u uW\n",
			       i, freq_khz[i], power_uw[i], EM_MAX_POWER);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The domain @cpu belongs to: its cluster where the architecture keeps
 * cluster ids (arm64's cpu-map), else its package.  Both are kept for
 * offline CPUs, unlike the sibling masks.
 */
static u32 sp_testfreq_domain(unsigned int cpu)
{
	u32 pkg = topology_physical_package_id(cpu) & 0xffff;

#ifdef CONFIG_GENERIC_ARCH_TOPOLOGY
	if (topology_cluster_id(cpu) >= 0)
		return pkg << 16 | (topology_cluster_id(cpu) & 0xffff);
#endif
	return pkg << 16;
}

static void sp_testfreq_span(unsigned int cpu, struct cpumask *span)
{
	u32 dom = sp_testfreq_domain(cpu);
	unsigned int c;

	cpumask_clear(span);
	for_each_possible_cpu(c)
		if (sp_testfreq_domain(c) == dom)
			cpumask_set_cpu(c, span);
}

static void sp_testfreq_store(struct cpufreq_policy *policy, unsigned int khz)
{
	unsigned int cpu;

	for_each_cpu(cpu, policy->related_cpus)
		WRITE_ONCE(per_cpu(sp_testfreq_cur_khz, cpu), khz);
}

static int sp_testfreq_target_index(struct cpufreq_policy *policy,
				    unsigned int index)
{
	sp_testfreq_store(policy, policy->freq_table[index].frequency);
	return 0;
}

/* schedutil, from the scheduler's update hook: the lowest OPP >= @target. */
static unsigned int sp_testfreq_fast_switch(struct cpufreq_policy *policy,
					    unsigned int target_khz)
{
	int index = cpufreq_frequency_table_target(policy, target_khz, policy->min,
						   policy->max, CPUFREQ_RELATION_L);
	unsigned int khz = policy->freq_table[index].frequency;

	sp_testfreq_store(policy, khz);
	return khz;
}

static unsigned int sp_testfreq_get(unsigned int cpu)
{
	return READ_ONCE(per_cpu(sp_testfreq_cur_khz, cpu));
}

static int sp_testfreq_init(struct cpufreq_policy *policy)
{
	struct cpufreq_frequency_table *table;
	int i;

	table = kcalloc(nr_freq_khz + 1, sizeof(*table), GFP_KERNEL);
	if (!table)
		return -ENOMEM;
	for (i = 0; i < nr_freq_khz; i++)
		table[i].frequency = freq_khz[i];
	table[nr_freq_khz].frequency = CPUFREQ_TABLE_END;
	sp_testfreq_span(policy->cpu, policy->cpus);
	policy->freq_table = table;
	policy->cpuinfo.transition_latency = rate_limit_us * NSEC_PER_USEC;
	policy->transition_delay_us = rate_limit_us;
	policy->fast_switch_possible = true;
	policy->dvfs_possible_from_any_cpu = true;
	/* start at the top, as a board's firmware usually leaves it */
	for_each_cpu(i, policy->cpus)
		WRITE_ONCE(per_cpu(sp_testfreq_cur_khz, i), freq_khz[nr_freq_khz - 1]);
	return 0;
}

static void sp_testfreq_free(struct cpufreq_policy *policy)
{
	kfree(policy->freq_table);
	policy->freq_table = NULL;
}

#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
static void sp_testfreq_exit(struct cpufreq_policy *policy)
{
	sp_testfreq_free(policy);
}
#else
static int sp_testfreq_exit(struct cpufreq_policy *policy)
{
	sp_testfreq_free(policy);
	return 0;
}
#endif

/* The EM's callback: the lowest OPP at or above *@khz, its power in uW. */
static int sp_testfreq_active_power(struct device *dev, unsigned long *uw,
				    unsigned long *khz)
{
	u64 cap = arch_scale_cpu_capacity(dev->id);
	int i;

	for (i = 0; i < nr_freq_khz && freq_khz[i] < *khz; i++)
		;
	if (i == nr_freq_khz)
		return -EINVAL;
	*khz = freq_khz[i];
	cap = min_t(u64, cap, SCHED_CAPACITY_SCALE);
	*uw = max_t(u64, 1, div64_u64(power_uw[i] * cap * cap,
				      SCHED_CAPACITY_SCALE * SCHED_CAPACITY_SCALE));
	return 0;
}

static void sp_testfreq_register_em(struct cpufreq_policy *policy)
{
	struct em_data_callback cb = EM_DATA_CB(sp_testfreq_active_power);
	struct device *dev = get_cpu_device(policy->cpu);
	int ret;

	if (!em)
		return;
	if (em_cpu_get(policy->cpu)) {
		pr_info("cpus %*pbl: keeping the Energy Model already registered (6.1 cannot unregister a CPU's)\n",
			cpumask_pr_args(policy->related_cpus));
		return;
	}
	ret = em_dev_register_perf_domain(dev, nr_freq_khz, &cb,
					  policy->related_cpus, true);
	if (ret)
		pr_warn("cpus %*pbl: Energy Model not registered: %d\n",
			cpumask_pr_args(policy->related_cpus), ret);
}

static struct cpufreq_driver sp_testfreq_driver = {
	.name		= "sp_testfreq",
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= sp_testfreq_target_index,
	.fast_switch	= sp_testfreq_fast_switch,
	.get		= sp_testfreq_get,
	.init		= sp_testfreq_init,
	.exit		= sp_testfreq_exit,
	.register_em	= sp_testfreq_register_em,
	.attr		= cpufreq_generic_attr,
};

static int __init sp_testfreq_module_init(void)
{
	int ret = sp_testfreq_check_params();

	if (ret)
		return ret;
	ret = cpufreq_register_driver(&sp_testfreq_driver);
	if (ret)
		pr_err("cpufreq_register_driver: %d%s\n", ret,
		       ret == -ENODEV ? " (cpufreq disabled, cpufreq.off=1?)" :
		       ret == -EEXIST ? " (another cpufreq driver is loaded)" : "");
	return ret;
}

static void __exit sp_testfreq_module_exit(void)
{
	cpufreq_unregister_driver(&sp_testfreq_driver);
}

module_init(sp_testfreq_module_init);
module_exit(sp_testfreq_module_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test-only cpufreq driver and Energy Model for sched_power's qemu guests");
MODULE_AUTHOR("sched_power developers");
