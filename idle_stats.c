// SPDX-License-Identifier: GPL-2.0
/*
 * Idle and energy readouts: idle/reset, energy_uj and the debugfs tables.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: idle and energy readouts
 *
 * cpuidle_hook.c keeps the snapshot and the accounting (core/sp_acct.c) up
 * to date from the idle events; this file only reads them.  sysfs holds
 * one value per file: idle/reset (write 1: zero the idle statistics and the
 * energy) and energy_uj (modelled energy since the reset, every CPU and
 * group, open stretches included).  debugfs holds the tables, each read
 * whole through seq_file under the idle hook's lock (sp_cpuidle_lock()), so
 * that no model change resyncs the counters under a reader: idle_stats
 * (per CPU and state: entries, residency, early / hit / late), energy (per
 * CPU and group: busy, idle and wake-up terms) and snapshot (what the
 * wake-up hook sees now).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuidle.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/sysfs.h>

#include "sched_power.h"
#include "core/sp_acct.h"
#include "core/sp_energy.h"

/* ---- sysfs: idle/reset, energy_uj ---------------------------------------- */

/* idle/reset: writing 1 zeroes the idle statistics and the energy. */
static ssize_t reset_store(struct kobject *k, struct kobj_attribute *a,
			   const char *buf, size_t count)
{
	if (count > 2 || buf[0] != '1' || (count == 2 && buf[1] != '\n'))
		return -EINVAL;
	sp_cpuidle_reset();
	return count;
}

static struct kobj_attribute sp_idlestat_reset_attr = __ATTR_WO(reset);

static struct attribute *sp_idlestat_idle_attrs[] = {
	&sp_idlestat_reset_attr.attr,
	NULL,
};

const struct attribute_group sp_idlestat_idle_group = {
	.name = "idle",
	.attrs = sp_idlestat_idle_attrs,
};

/* Modelled energy since reset, every CPU and group, open stretches included. */
/* @s's three terms in uJ, each rounded down, added without wrapping. */
static u64 sp_idlestat_add_uj(u64 total, const struct sp_energy_sum *s)
{
	u64 uj = div_u64(s->busy_nj, 1000) + div_u64(s->idle_nj, 1000) +
		 div_u64(s->wake_nj, 1000);

	return total > U64_MAX - uj ? U64_MAX : total + uj;
}

/*
 * Modelled energy since reset, every CPU and group, open stretches
 * included, uJ.  Each term is summed in uJ, and the total saturates at
 * U64_MAX rather than wrap: in nJ, 512 CPUs at 1 kW in all would wrap a
 * u64 after 213 days; in uJ, after 585 000 years.
 */
static u64 sp_idlestat_total_uj(const struct sp_model *m, u64 now)
{
	struct sp_energy_sum s;
	u64 total = 0;
	u32 cpu, g;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		sp_acct_cpu_sum(sp_cpuidle_acct(), sp_cpuidle_state(), m, cpu, now, &s);
		total = sp_idlestat_add_uj(total, &s);
	}
	for (g = 0; g < m->nr_groups; g++) {
		sp_acct_group_sum(sp_cpuidle_acct(), sp_cpuidle_state(), m, g, now, &s);
		total = sp_idlestat_add_uj(total, &s);
	}
	return total;
}

static ssize_t energy_uj_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	u64 uj;

	sp_cpuidle_lock();
	rcu_read_lock();
	uj = sp_idlestat_total_uj(sp_em_model(), sp_cpuidle_read_ns());
	rcu_read_unlock();
	sp_cpuidle_unlock();
	return sysfs_emit(buf, "%llu\n", uj);
}

static struct kobj_attribute sp_idlestat_energy_uj_attr = __ATTR_RO(energy_uj);

static struct attribute *sp_idlestat_energy_attrs[] = {
	&sp_idlestat_energy_uj_attr.attr,
	NULL,
};

const struct attribute_group sp_idlestat_energy_group = {
	.attrs = sp_idlestat_energy_attrs,
};

/* ---- debugfs: idle_stats, snapshot, energy ------------------------------- */

/*
 * us from the reset to @now, 0 if @now precedes it: local_clock() is not
 * monotonic across CPUs, and the reset may have read it on another one.
 */
static u64 sp_idlestat_since_us(u64 now)
{
	u64 reset_ns = READ_ONCE(sp_cpuidle_acct()->reset_ns);

	return now > reset_ns ? div_u64(now - reset_ns, 1000) : 0;
}

static void sp_idlestat_seq_header(struct seq_file *sf, u64 now)
{
	const char *drv = "none";
	struct cpuidle_driver *d;
	u64 ns, samples;

	sp_cpuidle_probe_cost(&ns, &samples);
	preempt_disable();
	d = cpuidle_get_driver();
	if (d && d->state_count > 0)
		drv = d->name;
	preempt_enable();
	seq_printf(sf, "# source=%s driver=%s since_reset_us=%llu probe_ns_avg=%llu probe_samples=%llu\n",
		   strcmp(drv, "none") ? "driver" : "model", drv,
		   sp_idlestat_since_us(now), samples ? div64_u64(ns, samples) : 0, samples);
}

static void sp_idlestat_seq_idle(struct seq_file *sf, const struct sp_model *m, u64 now)
{
	u32 cpu, i;

	sp_idlestat_seq_header(sf, now);
	seq_puts(sf, "cpu state target_us entries residency_us early hit late\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

		for (i = 0; i < pd->nr_idle; i++) {
			const struct sp_idle_stat *s = &sp_cpuidle_acct()->cpu[cpu].state[i];

			seq_printf(sf, "%u %s %u %llu %llu %llu %llu %llu\n", cpu,
				   pd->idle[i].name, pd->idle[i].target_residency_us,
				   sp_acct_stat_entries(s), READ_ONCE(s->residency_us),
				   READ_ONCE(s->verdict[SP_V_EARLY]),
				   READ_ONCE(s->verdict[SP_V_HIT]),
				   READ_ONCE(s->verdict[SP_V_LATE]));
		}
	}
}

static void sp_idlestat_seq_energy(struct seq_file *sf, const struct sp_model *m, u64 now)
{
	struct sp_energy_sum s;
	u32 cpu, g;

	seq_printf(sf, "# modelled energy since reset, uJ; since_reset_us=%llu\n",
		   sp_idlestat_since_us(now));
	seq_puts(sf, "cpu busy_us idle_us busy_uj idle_uj wake_uj wakeups\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		sp_acct_cpu_sum(sp_cpuidle_acct(), sp_cpuidle_state(), m, cpu, now, &s);
		seq_printf(sf, "%u %llu %llu %llu %llu %llu %llu\n", cpu, s.busy_us,
			   s.idle_us, div_u64(s.busy_nj, 1000), div_u64(s.idle_nj, 1000),
			   div_u64(s.wake_nj, 1000), s.wakeups);
	}
	seq_puts(sf, "group level id active_us idle_us active_uj idle_uj wake_uj wakeups\n");
	for (g = 0; g < m->nr_groups; g++) {
		const struct sp_group *gr = &m->group[g];

		sp_acct_group_sum(sp_cpuidle_acct(), sp_cpuidle_state(), m, g, now, &s);
		seq_printf(sf, "group %s %u %llu %llu %llu %llu %llu %llu\n",
			   m->level[gr->level].name, gr->id, s.busy_us, s.idle_us,
			   div_u64(s.busy_nj, 1000), div_u64(s.idle_nj, 1000),
			   div_u64(s.wake_nj, 1000), s.wakeups);
	}
	seq_printf(sf, "total_uj %llu\n", sp_idlestat_total_uj(m, now));
}

static const char *sp_idlestat_state_name(const struct sp_pd *pd, s32 idx)
{
	if (idx == SP_CPU_AWAKE)
		return "awake";
	if (!pd->nr_idle)
		return "idle";
	return pd->idle[min_t(u32, idx, pd->nr_idle - 1)].name;
}

/* The live snapshot as the wake-up hook sees it now. */
static void sp_idlestat_seq_snapshot(struct seq_file *sf, const struct sp_model *m, u64 now)
{
	u32 cpu, g;

	seq_puts(sf, "cpu state util for_us opp\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_cpu_state *c = &sp_cpuidle_state()->cpu[cpu];
		s32 idx = READ_ONCE(c->idle_state);
		u64 since = idx == SP_CPU_AWAKE ? READ_ONCE(c->busy_since_ns) :
			    READ_ONCE(c->idle_since_ns);

		seq_printf(sf, "%u %s %u %llu %u\n", cpu,
			   sp_idlestat_state_name(&m->pd[m->cpu_pd[cpu]], idx),
			   sp_state_cpu_util(sp_cpuidle_state(), cpu, now),
			   now > since ? div_u64(now - since, 1000) : 0,
			   sp_energy_pd_opp(m, sp_cpuidle_state(), now, m->cpu_pd[cpu], 0, 0));
	}
	seq_puts(sf, "group level id nr_awake\n");
	for (g = 0; g < m->nr_groups; g++)
		seq_printf(sf, "group %s %u %d\n", m->level[m->group[g].level].name,
			   m->group[g].id, atomic_read(&sp_cpuidle_state()->group[g].nr_awake));
}

typedef void (*sp_idlestat_seq_fn)(struct seq_file *sf, const struct sp_model *m, u64 now);

static int sp_idlestat_seq_show(struct seq_file *sf, void *v)
{
	sp_idlestat_seq_fn fn = sf->private;

	sp_cpuidle_lock();	/* no resync under our feet */
	rcu_read_lock();
	fn(sf, sp_em_model(), sp_cpuidle_read_ns());
	rcu_read_unlock();
	sp_cpuidle_unlock();
	return 0;
}

static int sp_idlestat_seq_open(struct inode *inode, struct file *file)
{
	return single_open(file, sp_idlestat_seq_show, inode->i_private);
}

static const struct file_operations sp_idlestat_seq_fops = {
	.owner = THIS_MODULE,
	.open = sp_idlestat_seq_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * sp_idlestat_debugfs() - create the idle_stats, energy and snapshot readouts
 * @root: the module's debugfs directory
 */
void sp_idlestat_debugfs(struct dentry *root)
{
	debugfs_create_file("idle_stats", 0444, root, sp_idlestat_seq_idle, &sp_idlestat_seq_fops);
	debugfs_create_file("energy", 0444, root, sp_idlestat_seq_energy, &sp_idlestat_seq_fops);
	debugfs_create_file("snapshot", 0444, root, sp_idlestat_seq_snapshot,
			    &sp_idlestat_seq_fops);
}
