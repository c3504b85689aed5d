// SPDX-License-Identifier: GPL-2.0
/*
 * The decision counters: /sys/kernel/sched_power/stats/ and debugfs stats.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: decision counters
 *
 * The wake-up hook and the balancer gate count what they do in per-CPU
 * u64_stats counters (one list in sched_power.h): sp_stat_inc() for one
 * event, sp_stat_begin(), sp_stat_add() and sp_stat_end() for the several
 * of one decision in one update.  The hot paths touch only their own CPU's
 * cache line, with no locked instruction and no lock.  A reader sums every
 * possible CPU.  stats/reset does not clear the per-CPU counters, which
 * their CPUs write concurrently; it records the sums at the reset, and
 * every reader shows the sums minus those.  sp_stat_lock serialises a
 * reset with the readers so that none sees half a reset.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/sysfs.h>

#include "sched_power.h"

DEFINE_PER_CPU(struct sp_stat_cpu, sp_stat_cpu);

/* Totals at the last stats/reset: shown values are the sums minus these. */
static u64 sp_stat_base[SP_STAT_NR];
static DEFINE_MUTEX(sp_stat_lock);

static u64 sp_stat_sum(u32 i)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct sp_stat_cpu *s = per_cpu_ptr(&sp_stat_cpu, cpu);
		unsigned int seq;
		u64 v;

		do {
			seq = u64_stats_fetch_begin(&s->sync);
			v = u64_stats_read(&s->c[i]);
		} while (u64_stats_fetch_retry(&s->sync, seq));
		sum += v;
	}
	return sum;
}

static u64 sp_stat_get(u32 i)
{
	lockdep_assert_held(&sp_stat_lock);
	return sp_stat_sum(i) - sp_stat_base[i];
}

static void sp_stat_reset(void)
{
	u32 i;

	mutex_lock(&sp_stat_lock);
	for (i = 0; i < SP_STAT_NR; i++)
		sp_stat_base[i] = sp_stat_sum(i);
	mutex_unlock(&sp_stat_lock);
}

/* ---- sysfs: stats/ ------------------------------------------------------ */

struct sp_stat_attr {
	struct kobj_attribute ka;
	u32 idx;
};

static ssize_t sp_stat_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	const struct sp_stat_attr *sa = container_of(a, struct sp_stat_attr, ka);
	u64 v;

	mutex_lock(&sp_stat_lock);
	v = sp_stat_get(sa->idx);
	mutex_unlock(&sp_stat_lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define SP_STAT_ATTR(_name, _idx)					\
	{ .ka = { .attr = { .name = _name, .mode = 0444 },		\
		  .show = sp_stat_show }, .idx = (_idx) }

/* The file of a counter of SP_STAT_LIST, and of a reason of SP_REASON_LIST. */
#define SP_STAT_FILE(idx, name)		SP_STAT_ATTR(name, idx),
#define SP_STAT_REASON_FILE(reason, name)				\
	SP_STAT_ATTR("reason_" name, SP_STAT_REASON0 + (reason)),

/* one file per counter: the counter list, then one per decision reason */
static struct sp_stat_attr sp_stat_attrs[] = {
	SP_STAT_LIST(SP_STAT_FILE, SP_STAT_FILE)
	SP_REASON_LIST(SP_STAT_REASON_FILE, SP_STAT_REASON_FILE)
};

/* stats/reset: writing 1 clears the counters. */
static ssize_t reset_store(struct kobject *k, struct kobj_attribute *a,
			   const char *buf, size_t count)
{
	if (count > 2 || buf[0] != '1' || (count == 2 && buf[1] != '\n'))
		return -EINVAL;
	sp_stat_reset();
	return count;
}

static struct kobj_attribute sp_stat_reset_attr = __ATTR_WO(reset);

static struct attribute *sp_stat_files[ARRAY_SIZE(sp_stat_attrs) + 2];

const struct attribute_group sp_stat_group = {
	.name = "stats",
	.attrs = sp_stat_files,
};

/**
 * sp_stat_init() - fill the stats/ attribute group before it is created
 */
void sp_stat_init(void)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(sp_stat_attrs); i++) {
		sysfs_attr_init(&sp_stat_attrs[i].ka.attr);
		sp_stat_files[i] = &sp_stat_attrs[i].ka.attr;
	}
	sp_stat_files[i++] = &sp_stat_reset_attr.attr;
	sp_stat_files[i] = NULL;
}

/* ---- debugfs: stats ----------------------------------------------------- */

static int sp_stat_seq_show(struct seq_file *sf, void *v)
{
	u32 i;

	mutex_lock(&sp_stat_lock);
	for (i = 0; i < ARRAY_SIZE(sp_stat_attrs); i++)
		seq_printf(sf, "%s %llu\n", sp_stat_attrs[i].ka.attr.name,
			   sp_stat_get(sp_stat_attrs[i].idx));
	mutex_unlock(&sp_stat_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sp_stat_seq);

/**
 * sp_stat_debugfs() - create the debugfs readout of every counter
 * @root: the module's debugfs directory
 */
void sp_stat_debugfs(struct dentry *root)
{
	debugfs_create_file("stats", 0444, root, NULL, &sp_stat_seq_fops);
}
