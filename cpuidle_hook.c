// SPDX-License-Identifier: GPL-2.0
/*
 * cpuidle_hook.c - idle tracking, idle-prediction accuracy and modelled
 * energy, from the power:cpu_idle and power:cpu_frequency tracepoints.
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
 * model's states, which idle/stats says in its header ("source=model").
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
 * local_clock(); the mean is probe_ns_avg in idle/stats.
 *
 * Model changes and hotplug: when a new model is published the probes are
 * paused for one RCU grace period while the group counters are rebuilt and
 * the statistics reset.  An offline CPU is held in its deepest idle state
 * and its events (if any) are ignored until it is online again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/cpuidle.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
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
static struct kobject *sp_idle_kobj;
static DEFINE_MUTEX(sp_idle_lock);	/* resync, reset, hotplug */

struct sp_probe_cost {
	u32 calls;
	u64 ns;
	u64 samples;
};
static DEFINE_PER_CPU(struct sp_probe_cost, sp_cost);

static struct tracepoint *sp_tp_idle, *sp_tp_freq;
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

	if (READ_ONCE(sp_paused) || cpu >= nr_cpu_ids ||
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

	if (!m || cpu >= m->nr_cpus || READ_ONCE(sp_paused))
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

static void sp_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "cpu_idle"))
		sp_tp_idle = tp;
	else if (!strcmp(tp->name, "cpu_frequency"))
		sp_tp_freq = tp;
}

/* ---- resync, reset, hotplug ------------------------------------------- */

/* Stop the probes and wait until none runs (they are RCU-sched readers). */
static void sp_pause(void)
{
	WRITE_ONCE(sp_paused, true);
	synchronize_rcu();
}

static void sp_resume(void)
{
	smp_wmb();	/* the rebuilt state before the probes see it */
	WRITE_ONCE(sp_paused, false);
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

void sp_idle_model_changed(const struct sp_model *m)
{
	mutex_lock(&sp_idle_lock);
	sp_pause();
	sp_resync_locked(m);
	sp_resume();
	mutex_unlock(&sp_idle_lock);
}

static u32 sp_deepest(const struct sp_model *m, u32 cpu)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

	return pd->nr_idle ? pd->nr_idle - 1u : 0;
}

/* Hotplug: an offline CPU sits in its deepest state; its events are ignored. */
void sp_idle_cpu_offline(unsigned int cpu)
{
	const struct sp_model *m;

	mutex_lock(&sp_idle_lock);
	cpumask_set_cpu(cpu, &sp_offline);
	sp_pause();
	rcu_read_lock();
	m = sp_em_model();
	if (m && cpu < m->nr_cpus) {
		if (sp_cpu_idle(sp_st, cpu))
			sp_acct_exit(sp_acct, sp_st, m, cpu, local_clock(), NULL);
		sp_acct_enter(sp_acct, sp_st, m, cpu, sp_deepest(m, cpu), local_clock());
	}
	rcu_read_unlock();
	sp_resume();
	mutex_unlock(&sp_idle_lock);
}

void sp_idle_cpu_online(unsigned int cpu)
{
	const struct sp_model *m;

	mutex_lock(&sp_idle_lock);
	sp_pause();
	rcu_read_lock();
	m = sp_em_model();
	if (m && cpu < m->nr_cpus && sp_cpu_idle(sp_st, cpu))
		sp_acct_exit(sp_acct, sp_st, m, cpu, local_clock(), NULL);
	rcu_read_unlock();
	cpumask_clear_cpu(cpu, &sp_offline);
	sp_resume();
	mutex_unlock(&sp_idle_lock);
}

/* ---- sysfs: idle/stats, idle/reset, energy ------------------------------ */

/*
 * The tables can exceed a page on big machines, so they are binary
 * attributes: each read formats the whole table and copies the slice.
 */
typedef size_t (*sp_fmt_fn)(const struct sp_model *m, char *buf, size_t size);

static size_t sp_fmt_idle(const struct sp_model *m, char *buf, size_t size)
{
	u64 now = local_clock(), ns = 0, samples = 0;
	const char *drv = "none";
	struct cpuidle_driver *d;
	size_t n = 0;
	u32 cpu, i;

	for_each_possible_cpu(cpu) {
		ns += per_cpu(sp_cost, cpu).ns;
		samples += per_cpu(sp_cost, cpu).samples;
	}
	preempt_disable();
	d = cpuidle_get_driver();
	preempt_enable();
	if (d && d->state_count > 0)
		drv = d->name;
	n += scnprintf(buf + n, size - n,
		       "# source=%s driver=%s since_reset_us=%llu probe_ns_avg=%llu probe_samples=%llu\n",
		       d && d->state_count > 0 ? "driver" : "model", drv,
		       div_u64(now - READ_ONCE(sp_acct->reset_ns), 1000),
		       samples ? div64_u64(ns, samples) : 0, samples);
	n += scnprintf(buf + n, size - n,
		       "cpu state target_us entries residency_us early hit late\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

		for (i = 0; i < pd->nr_idle; i++) {
			const struct sp_idle_stat *s = &sp_acct->cpu[cpu].state[i];

			n += scnprintf(buf + n, size - n,
				       "%u %s %u %llu %llu %llu %llu %llu\n", cpu,
				       pd->idle[i].name, pd->idle[i].target_residency_us,
				       READ_ONCE(s->entries), READ_ONCE(s->residency_us),
				       READ_ONCE(s->verdict[SP_V_EARLY]),
				       READ_ONCE(s->verdict[SP_V_HIT]),
				       READ_ONCE(s->verdict[SP_V_LATE]));
		}
	}
	return n;
}

static size_t sp_fmt_energy(const struct sp_model *m, char *buf, size_t size)
{
	u64 now = local_clock(), total = 0;
	struct sp_energy_sum s;
	size_t n = 0;
	u32 cpu, g;

	n += scnprintf(buf + n, size - n, "# modelled energy since reset, uJ; since_reset_us=%llu\n",
		       div_u64(now - READ_ONCE(sp_acct->reset_ns), 1000));
	n += scnprintf(buf + n, size - n,
		       "cpu busy_us idle_us busy_uj idle_uj wake_uj wakeups\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		sp_acct_cpu_sum(sp_acct, sp_st, m, cpu, now, &s);
		total += s.busy_nj + s.idle_nj + s.wake_nj;
		n += scnprintf(buf + n, size - n, "%u %llu %llu %llu %llu %llu %llu\n",
			       cpu, s.busy_us, s.idle_us, div_u64(s.busy_nj, 1000),
			       div_u64(s.idle_nj, 1000), div_u64(s.wake_nj, 1000), s.wakeups);
	}
	n += scnprintf(buf + n, size - n,
		       "group level id active_us idle_us active_uj idle_uj wake_uj wakeups\n");
	for (g = 0; g < m->nr_groups; g++) {
		const struct sp_group *gr = &m->group[g];

		sp_acct_group_sum(sp_acct, sp_st, m, g, now, &s);
		total += s.busy_nj + s.idle_nj + s.wake_nj;
		n += scnprintf(buf + n, size - n, "group %s %u %llu %llu %llu %llu %llu %llu\n",
			       m->level[gr->level].name, gr->id, s.busy_us, s.idle_us,
			       div_u64(s.busy_nj, 1000),
			       div_u64(s.idle_nj, 1000), div_u64(s.wake_nj, 1000), s.wakeups);
	}
	n += scnprintf(buf + n, size - n, "total_uj %llu\n", div_u64(total, 1000));
	return n;
}

/* The live snapshot as the wake-up hook sees it now. */
static size_t sp_fmt_snapshot(const struct sp_model *m, char *buf, size_t size)
{
	u64 now = local_clock();
	size_t n = 0;
	u32 cpu, g;

	n += scnprintf(buf + n, size - n, "cpu state util for_us opp\n");
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		const struct sp_cpu_state *c = &sp_st->cpu[cpu];
		const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];
		s32 idx = READ_ONCE(c->idle_state);
		u64 since = idx == SP_CPU_AWAKE ? READ_ONCE(c->busy_since_ns) :
			    READ_ONCE(c->idle_since_ns);

		n += scnprintf(buf + n, size - n, "%u %s %u %llu %u\n", cpu,
			       idx == SP_CPU_AWAKE ? "awake" :
			       pd->nr_idle ? pd->idle[min_t(u32, idx, pd->nr_idle - 1)].name : "idle",
			       sp_cpu_util_now(sp_st, cpu, now),
			       now > since ? div_u64(now - since, 1000) : 0,
			       sp_energy_pd_opp(m, sp_st, now, m->cpu_pd[cpu], 0, 0));
	}
	n += scnprintf(buf + n, size - n, "group level id nr_awake\n");
	for (g = 0; g < m->nr_groups; g++)
		n += scnprintf(buf + n, size - n, "group %s %u %d\n",
			       m->level[m->group[g].level].name, m->group[g].id,
			       atomic_read(&sp_st->group[g].nr_awake));
	return n;
}

static ssize_t sp_table_read(sp_fmt_fn fmt, char *buf, loff_t pos, size_t count)
{
	const struct sp_model *m;
	size_t size, len;
	ssize_t ret = 0;
	char *text;

	rcu_read_lock();
	m = sp_em_model();
	size = 512 + (size_t)m->nr_cpus * (SP_MAX_IDLE + 1) * 96 +
	       (size_t)m->nr_groups * 96;
	rcu_read_unlock();
	text = kvmalloc(size, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	mutex_lock(&sp_idle_lock);	/* no resync under our feet */
	rcu_read_lock();
	len = fmt(sp_em_model(), text, size);
	rcu_read_unlock();
	mutex_unlock(&sp_idle_lock);
	if (pos >= 0 && pos < len) {
		ret = min_t(size_t, count, len - pos);
		memcpy(buf, text + pos, ret);
	}
	kvfree(text);
	return ret;
}

static ssize_t stats_read(struct file *f, struct kobject *k, struct bin_attribute *a,
			  char *buf, loff_t pos, size_t count)
{
	return sp_table_read(sp_fmt_idle, buf, pos, count);
}

static ssize_t energy_read(struct file *f, struct kobject *k, struct bin_attribute *a,
			   char *buf, loff_t pos, size_t count)
{
	return sp_table_read(sp_fmt_energy, buf, pos, count);
}

static ssize_t snapshot_read(struct file *f, struct kobject *k, struct bin_attribute *a,
			     char *buf, loff_t pos, size_t count)
{
	return sp_table_read(sp_fmt_snapshot, buf, pos, count);
}

static struct bin_attribute sp_snapshot_attr = {
	.attr = { .name = "snapshot", .mode = 0444 },
	.read = snapshot_read,
};

static struct bin_attribute sp_idle_stats_attr = {
	.attr = { .name = "stats", .mode = 0444 },
	.read = stats_read,
};

static struct bin_attribute sp_energy_attr = {
	.attr = { .name = "energy", .mode = 0444 },
	.read = energy_read,
};

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
	unsigned int v;

	if (kstrtouint(buf, 0, &v) || v != 1)
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

/* ---- init / exit -------------------------------------------------------- */

static void sp_idle_free(void)
{
	kvfree(sp_acct);
	kvfree(sp_st);
	sp_acct = NULL;
	sp_st = NULL;
}

static int sp_idle_alloc(void)
{
	const struct cpuidle_driver *drv;
	const struct sp_model *m;
	u64 now = local_clock();
	u32 cpu;

	preempt_disable();
	drv = cpuidle_get_driver();
	sp_no_idle_driver = !drv || drv->state_count <= 0;
	preempt_enable();

	sp_st = kvzalloc(sizeof(*sp_st), GFP_KERNEL);
	sp_acct = kvzalloc(sizeof(*sp_acct), GFP_KERNEL);
	if (!sp_st || !sp_acct) {
		sp_idle_free();
		return -ENOMEM;
	}
	mutex_lock(&sp_idle_lock);
	rcu_read_lock();
	m = sp_em_model();
	sp_state_init(sp_st, m, now);
	sp_acct_reset(sp_acct, now);
	/* CPUs already offline at insmod are held idle like hot-unplugged ones */
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (cpu_online(cpu))
			continue;
		cpumask_set_cpu(cpu, &sp_offline);
		sp_acct_enter(sp_acct, sp_st, m, cpu, sp_deepest(m, cpu), now);
	}
	rcu_read_unlock();
	mutex_unlock(&sp_idle_lock);
	return 0;
}

static int sp_idle_sysfs(struct kobject *kobj)
{
	int ret;

	sp_idle_kobj = kobject_create_and_add("idle", kobj);
	if (!sp_idle_kobj)
		return -ENOMEM;
	ret = sysfs_create_bin_file(sp_idle_kobj, &sp_idle_stats_attr);
	if (!ret)
		ret = sysfs_create_bin_file(sp_idle_kobj, &sp_snapshot_attr);
	if (!ret)
		ret = sysfs_create_file(sp_idle_kobj, &sp_reset_attr.attr);
	if (!ret)
		ret = sysfs_create_bin_file(kobj, &sp_energy_attr);
	if (ret) {
		kobject_put(sp_idle_kobj);
		sp_idle_kobj = NULL;
	}
	return ret;
}

int sp_idle_init(struct kobject *kobj)
{
	int ret;

	ret = sp_idle_alloc();
	if (ret)
		return ret;
	for_each_kernel_tracepoint(sp_find_tp, NULL);
	if (!sp_tp_idle) {
		pr_err("tracepoint power:cpu_idle not found\n");
		ret = -ENOENT;
		goto err_free;
	}
	ret = tracepoint_probe_register(sp_tp_idle, sp_probe_cpu_idle, NULL);
	if (ret)
		goto err_free;
	if (sp_tp_freq && tracepoint_probe_register(sp_tp_freq, sp_probe_cpu_frequency, NULL))
		sp_tp_freq = NULL;	/* optional: the OPP is then modelled */
	ret = sp_idle_sysfs(kobj);
	if (ret)
		goto err_probes;
	return 0;

err_probes:
	if (sp_tp_freq)
		tracepoint_probe_unregister(sp_tp_freq, sp_probe_cpu_frequency, NULL);
	tracepoint_probe_unregister(sp_tp_idle, sp_probe_cpu_idle, NULL);
	tracepoint_synchronize_unregister();
err_free:
	sp_idle_free();
	return ret;
}

void sp_idle_exit(void)
{
	if (!sp_st)
		return;
	if (sp_idle_kobj) {
		sysfs_remove_bin_file(sp_idle_kobj->parent, &sp_energy_attr);
		kobject_put(sp_idle_kobj);
		sp_idle_kobj = NULL;
	}
	if (sp_tp_freq)
		tracepoint_probe_unregister(sp_tp_freq, sp_probe_cpu_frequency, NULL);
	tracepoint_probe_unregister(sp_tp_idle, sp_probe_cpu_idle, NULL);
	tracepoint_synchronize_unregister();
	sp_tp_idle = sp_tp_freq = NULL;
	sp_idle_free();
}
