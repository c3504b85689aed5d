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
 * core (core/sp_idle.c), which
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
 * Without a driver every idle is the platform's default idle, reported as
 * index 1 whatever the model lists; it is taken as the model's deepest
 * state, so that a package whose CPUs all idle counts as asleep.
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
 * reset of the statistics pauses them for one grace period.  Transitions in
 * a pause are lost, so the resume asks every CPU whether it is running
 * (sp_cpu_recheck()): a CPU that woke meanwhile is marked awake at once.
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
#include "core/sp_idle.h"
#include "core/sp_energy.h"
#include "sched_power_trace.h"

#define SP_PROBE_SAMPLE	64

static struct sp_state *sp_st;
static struct sp_acct *sp_acct;
static bool sp_paused;			/* probes drop events while set */
static struct cpumask sp_offline;	/* CPUs held idle by hotplug */
static enum cpuhp_state sp_hp_state;
static DEFINE_MUTEX(sp_idle_lock);	/* resync and reset, and their readers */

struct sp_probe_cost {
	u32 calls;
	u64 ns;
	u64 samples;
};

static DEFINE_PER_CPU(struct sp_probe_cost, sp_cost);

static bool sp_no_idle_driver;		/* default_idle_call(): deepest state */

struct sp_state *sp_idle_state(void)
{
	return sp_st;
}

u64 sp_now_ns(void)
{
	return local_clock();
}

/* ---- probes ------------------------------------------------------------- */

static void sp_idle_event(const struct sp_model *m, unsigned int state,
			  unsigned int cpu)
{
	struct sp_idle_exit_info x;
	u64 now = local_clock();

	if (state != PWR_EVENT_EXIT) {
		if (sp_no_idle_driver)
			state = UINT_MAX;	/* clamped to the deepest */
		sp_acct_enter(sp_acct, sp_st, m, cpu, state, now);
		return;
	}
	if (sp_acct_exit(sp_acct, sp_st, m, cpu, now, &x))
		trace_sched_power_idle(cpu, x.state, x.residency_us, x.target_us,
				       x.verdict);
}

static void sp_probe_cpu_idle(void *data, unsigned int state, unsigned int cpu)
{
	struct sp_probe_cost *c = this_cpu_ptr(&sp_cost);
	const struct sp_model *m;
	u64 t0 = 0;
	bool timed;

	/* pairs with sp_resume()'s release: its rebuilt counters are seen */
	if (smp_load_acquire(&sp_paused) || cpu >= nr_cpu_ids ||
	    cpumask_test_cpu(cpu, &sp_offline))
		return;
	m = sp_em_model();
	if (!m || cpu >= m->nr_cpus)
		return;
	timed = ++c->calls % SP_PROBE_SAMPLE == 0;
	if (timed)
		t0 = local_clock();
	sp_idle_event(m, state, cpu);
	if (timed) {
		c->ns += local_clock() - t0;
		c->samples++;
	}
}

static void sp_probe_cpu_frequency(void *data, unsigned int khz, unsigned int cpu)
{
	const struct sp_model *m = sp_em_model();
	const struct sp_pd *pd;
	u32 pdi, k;

	/* acquire: pairs with sp_resume()'s release, as in the idle probe */
	if (!m || cpu >= m->nr_cpus || smp_load_acquire(&sp_paused))
		return;
	pdi = m->cpu_pd[cpu];
	pd = &m->pd[pdi];
	if (!pd->nr_opps)
		return;
	for (k = 0; k + 1 < pd->nr_opps; k++)
		if (pd->opp[k].freq_khz >= khz)
			break;
	WRITE_ONCE(sp_st->pd_opp[pdi], (s32)k);
}

/* ---- model changes and reset --------------------------------------------- */

/* Stop the probes and wait until none runs (they are RCU-sched readers). */
static void sp_pause(void)
{
	WRITE_ONCE(sp_paused, true);
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
static void sp_cpu_recheck(void *unused)
{
	unsigned int cpu = smp_processor_id();
	const struct sp_model *m = sp_em_model();

	if (!m || cpu >= m->nr_cpus || cpumask_test_cpu(cpu, &sp_offline))
		return;
	if (!is_idle_task(current) && sp_cpu_idle(sp_st, cpu))
		sp_acct_exit(sp_acct, sp_st, m, cpu, local_clock(), NULL);
}

static void sp_resume(void)
{
	/* the rebuilt state before the probes see it */
	smp_store_release(&sp_paused, false);
	on_each_cpu(sp_cpu_recheck, NULL, 1);
}

/* Clamp every CPU's state to @m and rebuild the counters; probes paused. */
static void sp_resync_locked(const struct sp_model *m)
{
	u64 now = local_clock();
	u32 cpu, pd;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		struct sp_cpu_state *c = &sp_st->cpu[cpu];
		const struct sp_pd *p = &m->pd[m->cpu_pd[cpu]];

		if (c->idle_state != SP_CPU_AWAKE && c->idle_state >= p->nr_idle)
			c->idle_state = p->nr_idle ? p->nr_idle - 1 : 0;
	}
	for (pd = 0; pd < SP_MAX_PDS; pd++)
		sp_st->pd_opp[pd] = SP_OPP_MODELLED;
	sp_state_resync(sp_st, m, now);
	sp_acct_reset(sp_acct, now);
}

static int sp_model_event(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	const struct sp_model *m = data;

	if (action == SP_MODEL_PREPARE) {
		mutex_lock(&sp_idle_lock);
		sp_pause();
		return NOTIFY_OK;
	}
	if (action == SP_MODEL_CHANGED) {
		sp_resync_locked(m);
		sp_resume();
		mutex_unlock(&sp_idle_lock);
	}
	return NOTIFY_OK;
}

static struct notifier_block sp_model_nb = {
	.notifier_call = sp_model_event,
};

static u32 sp_deepest(const struct sp_model *m, u32 cpu)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

	return pd->nr_idle ? pd->nr_idle - 1u : 0;
}

/* ---- CPU hotplug --------------------------------------------------------- */

/* Runs on @cpu itself as it goes down: hold it in its deepest state. */
static int sp_cpu_offline(unsigned int cpu)
{
	const struct sp_model *m;
	u64 now;

	preempt_disable();
	WARN_ON_ONCE(smp_processor_id() != cpu);
	cpumask_set_cpu(cpu, &sp_offline);
	m = sp_em_model();
	now = local_clock();
	if (m && cpu < m->nr_cpus && !READ_ONCE(sp_paused)) {
		if (sp_cpu_idle(sp_st, cpu))
			sp_acct_exit(sp_acct, sp_st, m, cpu, now, NULL);
		sp_acct_enter(sp_acct, sp_st, m, cpu, sp_deepest(m, cpu), now);
	}
	preempt_enable();
	return 0;
}

/* Runs on @cpu itself as it comes up: it is awake, running this. */
static int sp_cpu_online(unsigned int cpu)
{
	const struct sp_model *m;

	preempt_disable();
	WARN_ON_ONCE(smp_processor_id() != cpu);
	m = sp_em_model();
	if (m && cpu < m->nr_cpus && !READ_ONCE(sp_paused) && sp_cpu_idle(sp_st, cpu))
		sp_acct_exit(sp_acct, sp_st, m, cpu, local_clock(), NULL);
	cpumask_clear_cpu(cpu, &sp_offline);
	preempt_enable();
	return 0;
}

/* ---- sysfs: idle/reset, energy_uj ---------------------------------------- */

/* Probes are paused: no CPU is updating its own cost counters. */
static void sp_cost_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sp_cost, cpu), 0, sizeof(struct sp_probe_cost));
}

/* idle/reset: writing 1 zeroes the idle statistics and the energy. */
static ssize_t reset_store(struct kobject *k, struct kobj_attribute *a,
			   const char *buf, size_t count)
{
	if (count > 2 || buf[0] != '1' || (count == 2 && buf[1] != '\n'))
		return -EINVAL;
	mutex_lock(&sp_idle_lock);
	sp_pause();
	sp_acct_reset(sp_acct, local_clock());
	sp_cost_reset();
	sp_resume();
	mutex_unlock(&sp_idle_lock);
	return count;
}

static struct kobj_attribute sp_reset_attr = __ATTR_WO(reset);

static struct attribute *sp_idle_attrs[] = {
	&sp_reset_attr.attr,
	NULL,
};

const struct attribute_group sp_idle_group = {
	.name = "idle",
	.attrs = sp_idle_attrs,
};

/* Modelled energy since reset, every CPU and group, open stretches included. */
static u64 sp_energy_total_nj(const struct sp_model *m, u64 now)
{
	struct sp_energy_sum s;
	u64 total = 0;
	u32 cpu, g;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		sp_acct_cpu_sum(sp_acct, sp_st, m, cpu, now, &s);
		total += s.busy_nj + s.idle_nj + s.wake_nj;
	}
	for (g = 0; g < m->nr_groups; g++) {
		sp_acct_group_sum(sp_acct, sp_st, m, g, now, &s);
		total += s.busy_nj + s.idle_nj + s.wake_nj;
	}
	return total;
}

static ssize_t energy_uj_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	u64 nj;

	mutex_lock(&sp_idle_lock);
	rcu_read_lock();
	nj = sp_energy_total_nj(sp_em_model(), local_clock());
	rcu_read_unlock();
	mutex_unlock(&sp_idle_lock);
	return sysfs_emit(buf, "%llu\n", div_u64(nj, 1000));
}

static struct kobj_attribute sp_energy_uj_attr = __ATTR_RO(energy_uj);

static struct attribute *sp_energy_attrs[] = {
	&sp_energy_uj_attr.attr,
	NULL,
};

const struct attribute_group sp_energy_group = {
	.attrs = sp_energy_attrs,
};

/* ---- debugfs: idle_stats, snapshot, energy ------------------------------- */

static void sp_seq_idle_header(struct seq_file *sf, u64 now)
{
	u64 ns = 0, samples = 0;
	const char *drv = "none";
	struct cpuidle_driver *d;
	int cpu;

	for_each_possible_cpu(cpu) {
		ns += per_cpu(sp_cost, cpu).ns;
		samples += per_cpu(sp_cost, cpu).samples;
	}
	preempt_disable();
	d = cpuidle_get_driver();
	if (d && d->state_count > 0)
		drv = d->name;
	preempt_enable();
	seq_printf(sf, "# source=%s driver=%s since_reset_us=%llu probe_ns_avg=%llu probe_samples=%llu\n",
		   strcmp(drv, "none") ? "driver" : "model", drv,
		   div_u64(now - READ_ONCE(sp_acct->reset_ns), 1000),
		   samples ? div64_u64(ns, samples) : 0, samples);
}

static void sp_seq_idle(struct seq_file *sf, const struct sp_model *m, u64 now)
{
	u32 cpu, i;

	sp_seq_idle_header(sf, now);
	seq_puts(sf, "cpu state target_us entries residency_us early hit late\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

		for (i = 0; i < pd->nr_idle; i++) {
			const struct sp_idle_stat *s = &sp_acct->cpu[cpu].state[i];

			seq_printf(sf, "%u %s %u %llu %llu %llu %llu %llu\n", cpu,
				   pd->idle[i].name, pd->idle[i].target_residency_us,
				   READ_ONCE(s->entries), READ_ONCE(s->residency_us),
				   READ_ONCE(s->verdict[SP_V_EARLY]),
				   READ_ONCE(s->verdict[SP_V_HIT]),
				   READ_ONCE(s->verdict[SP_V_LATE]));
		}
	}
}

static void sp_seq_energy(struct seq_file *sf, const struct sp_model *m, u64 now)
{
	struct sp_energy_sum s;
	u32 cpu, g;

	seq_printf(sf, "# modelled energy since reset, uJ; since_reset_us=%llu\n",
		   div_u64(now - READ_ONCE(sp_acct->reset_ns), 1000));
	seq_puts(sf, "cpu busy_us idle_us busy_uj idle_uj wake_uj wakeups\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		sp_acct_cpu_sum(sp_acct, sp_st, m, cpu, now, &s);
		seq_printf(sf, "%u %llu %llu %llu %llu %llu %llu\n", cpu, s.busy_us,
			   s.idle_us, div_u64(s.busy_nj, 1000), div_u64(s.idle_nj, 1000),
			   div_u64(s.wake_nj, 1000), s.wakeups);
	}
	seq_puts(sf, "group level id active_us idle_us active_uj idle_uj wake_uj wakeups\n");
	for (g = 0; g < m->nr_groups; g++) {
		const struct sp_group *gr = &m->group[g];

		sp_acct_group_sum(sp_acct, sp_st, m, g, now, &s);
		seq_printf(sf, "group %s %u %llu %llu %llu %llu %llu %llu\n",
			   m->level[gr->level].name, gr->id, s.busy_us, s.idle_us,
			   div_u64(s.busy_nj, 1000), div_u64(s.idle_nj, 1000),
			   div_u64(s.wake_nj, 1000), s.wakeups);
	}
	seq_printf(sf, "total_uj %llu\n", div_u64(sp_energy_total_nj(m, now), 1000));
}

static const char *sp_state_name(const struct sp_pd *pd, s32 idx)
{
	if (idx == SP_CPU_AWAKE)
		return "awake";
	if (!pd->nr_idle)
		return "idle";
	return pd->idle[min_t(u32, idx, pd->nr_idle - 1)].name;
}

/* The live snapshot as the wake-up hook sees it now. */
static void sp_seq_snapshot(struct seq_file *sf, const struct sp_model *m, u64 now)
{
	u32 cpu, g;

	seq_puts(sf, "cpu state util for_us opp\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_cpu_state *c = &sp_st->cpu[cpu];
		s32 idx = READ_ONCE(c->idle_state);
		u64 since = idx == SP_CPU_AWAKE ? READ_ONCE(c->busy_since_ns) :
			    READ_ONCE(c->idle_since_ns);

		seq_printf(sf, "%u %s %u %llu %u\n", cpu,
			   sp_state_name(&m->pd[m->cpu_pd[cpu]], idx),
			   sp_cpu_util_now(sp_st, cpu, now),
			   now > since ? div_u64(now - since, 1000) : 0,
			   sp_energy_pd_opp(m, sp_st, now, m->cpu_pd[cpu], 0, 0));
	}
	seq_puts(sf, "group level id nr_awake\n");
	for (g = 0; g < m->nr_groups; g++)
		seq_printf(sf, "group %s %u %d\n", m->level[m->group[g].level].name,
			   m->group[g].id, atomic_read(&sp_st->group[g].nr_awake));
}

typedef void (*sp_seq_fn)(struct seq_file *sf, const struct sp_model *m, u64 now);

static int sp_seq_show(struct seq_file *sf, void *v)
{
	sp_seq_fn fn = sf->private;

	mutex_lock(&sp_idle_lock);	/* no resync under our feet */
	rcu_read_lock();
	fn(sf, sp_em_model(), local_clock());
	rcu_read_unlock();
	mutex_unlock(&sp_idle_lock);
	return 0;
}

static int sp_seq_open(struct inode *inode, struct file *file)
{
	return single_open(file, sp_seq_show, inode->i_private);
}

static const struct file_operations sp_seq_fops = {
	.owner = THIS_MODULE,
	.open = sp_seq_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

void sp_idle_debugfs(struct dentry *root)
{
	debugfs_create_file("idle_stats", 0444, root, sp_seq_idle, &sp_seq_fops);
	debugfs_create_file("energy", 0444, root, sp_seq_energy, &sp_seq_fops);
	debugfs_create_file("snapshot", 0444, root, sp_seq_snapshot, &sp_seq_fops);
}

/* ---- init / exit --------------------------------------------------------- */

static void sp_idle_free(void)
{
	kvfree(sp_acct);
	kvfree(sp_st);
	sp_acct = NULL;
	sp_st = NULL;
}

/* The snapshot at insmod; CPU hotplug is held off by the caller. */
static void sp_idle_start_locked(void)
{
	const struct cpuidle_driver *drv;
	const struct sp_model *m;
	u64 now = local_clock();
	u32 cpu;

	preempt_disable();
	drv = cpuidle_get_driver();
	sp_no_idle_driver = !drv || drv->state_count <= 0;
	preempt_enable();

	rcu_read_lock();
	m = sp_em_model();
	sp_state_init(sp_st, m, now);
	sp_acct_reset(sp_acct, now);
	/* CPUs offline at insmod are held idle like hot-unplugged ones */
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (cpu_online(cpu))
			continue;
		cpumask_set_cpu(cpu, &sp_offline);
		sp_acct_enter(sp_acct, sp_st, m, cpu, sp_deepest(m, cpu), now);
	}
	rcu_read_unlock();
}

/*
 * The probes go in first, paused (they drop events until sp_resume()), and
 * outside cpus_read_lock(): registering a tracepoint probe updates its
 * static call, which takes that lock itself (lockdep saw the recursion on
 * the debug kernel; a hotplug writer queued between the two read locks
 * would deadlock insmod).  The lock then covers only what must not race a
 * hotplug: the online mask read into the snapshot and the hotplug
 * callbacks' installation.
 */
static int sp_idle_register(void)
{
	int ret;

	WRITE_ONCE(sp_paused, true);
	ret = register_trace_cpu_idle(sp_probe_cpu_idle, NULL);
	if (ret)
		return ret;
	/* optional: without it the OPP is modelled */
	if (register_trace_cpu_frequency(sp_probe_cpu_frequency, NULL))
		pr_info("power:cpu_frequency not hooked: OPPs are modelled\n");
	cpus_read_lock();
	sp_idle_start_locked();
	ret = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
						   "sched_power:online",
						   sp_cpu_online, sp_cpu_offline);
	cpus_read_unlock();
	if (ret < 0) {
		unregister_trace_cpu_frequency(sp_probe_cpu_frequency, NULL);
		unregister_trace_cpu_idle(sp_probe_cpu_idle, NULL);
		return ret;
	}
	sp_hp_state = ret;
	sp_resume();
	return 0;
}

int sp_idle_init(void)
{
	int ret;

	sp_st = kvzalloc(sizeof(*sp_st), GFP_KERNEL);
	sp_acct = kvzalloc(sizeof(*sp_acct), GFP_KERNEL);
	if (!sp_st || !sp_acct) {
		sp_idle_free();
		return -ENOMEM;
	}
	ret = sp_idle_register();
	if (ret) {
		tracepoint_synchronize_unregister();
		sp_idle_free();
		return ret;
	}
	ret = sp_em_subscribe(&sp_model_nb);
	if (ret)
		sp_idle_exit();
	return ret;
}

void sp_idle_exit(void)
{
	if (!sp_st)
		return;
	sp_em_unsubscribe(&sp_model_nb);
	cpuhp_remove_state_nocalls(sp_hp_state);
	unregister_trace_cpu_frequency(sp_probe_cpu_frequency, NULL);
	unregister_trace_cpu_idle(sp_probe_cpu_idle, NULL);
	tracepoint_synchronize_unregister();
	sp_idle_free();
}
