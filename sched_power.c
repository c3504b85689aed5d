// SPDX-License-Identifier: GPL-2.0
/*
 * sched_power.c - power-aware wake-up placement layered on CFS.
 *
 * DOC: how the module decides
 *
 * Linux has no loadable scheduling classes, so sched_power sits on the one
 * out-of-line function that chooses a waking task's CPU for CFS:
 * select_task_rq_fair().  A kretprobe's entry handler saves the arguments
 * (task, prev_cpu, wake_flags); its return handler sees CFS's choice, asks
 * the pure decision core (core/sp_place.c) where the task should go given the
 * energy model (energy_model.c) and the idle/utilisation snapshot
 * (cpuidle_hook.c), traces the decision (sched_power:sched_power_select) and,
 * in the power and balanced modes only, replaces the return value.
 *
 * The override is applied only after re-checking, on this side of the core,
 * that the CPU is in range, active and in the task's cpus_ptr: the exec path
 * (sched_exec) does not re-check what select_task_rq returns.
 *
 * Both handlers run in try_to_wake_up()/fork/exec with p->pi_lock held and
 * IRQs off: they allocate nothing, take no lock, and read the model under
 * RCU.  Counters are per CPU and summed when `stats` is read.
 *
 * Knobs (/sys/kernel/sched_power/): mode, margin_pct, overutil_pct,
 * window_us, latency_us, wake_types; read-only: version; stats (write 0 to
 * clear).  pm_qos.c adds task_latency and latency_cpu.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>
#include <linux/percpu.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "sched_power.h"

#define CREATE_TRACE_POINTS
#include "sched_power_trace.h"

/* Wake flags of kernel/sched/sched.h (stable from 5.x to 6.12). */
#define SP_WF_EXEC	0x02
#define SP_WF_FORK	0x04
#define SP_WF_TTWU	0x08

#define SP_WAKE_WAKEUP	BIT(0)
#define SP_WAKE_FORK	BIT(1)
#define SP_WAKE_EXEC	BIT(2)
#define SP_WAKE_ALL	(SP_WAKE_WAKEUP | SP_WAKE_FORK | SP_WAKE_EXEC)

static char *mode = "observe";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "initial mode: off, observe, power, balanced, performance");

/* The policy the hook reads; each field is written whole by a sysfs store. */
static struct sp_policy sp_pol = {
	.mode = SP_MODE_OBSERVE,
	.margin_pct = 5,
	.overutil_pct = 80,
	.window_us = 4000,
	.latency_us = 0,
};
static u32 sp_wake_types = SP_WAKE_ALL;

static DEFINE_MUTEX(sp_knob_lock);	/* serialises mode changes */
static struct kobject *sp_kobj;

struct sp_stats {
	u64 calls;		/* return handler entered */
	u64 decisions;		/* sp_place() ran */
	u64 overrides;		/* return value replaced */
	u64 skipped_type;	/* wake type not handled */
	u64 rejected;		/* core chose a CPU the final check refused */
	u64 reason[SP_R_NR];
};
static DEFINE_PER_CPU(struct sp_stats, sp_stats);

/* What the entry handler saves for the return handler. */
struct sp_probe_data {
	struct task_struct *p;
	int prev_cpu;
	int wake_flags;
};

static u32 sp_wake_type(int wake_flags)
{
	if (wake_flags & SP_WF_FORK)
		return SP_WAKE_FORK;
	if (wake_flags & SP_WF_EXEC)
		return SP_WAKE_EXEC;
	return SP_WAKE_WAKEUP;
}

/* The task's utilisation: the larger of its PELT average and util_est. */
static u32 sp_task_util(struct task_struct *p)
{
	unsigned long util = READ_ONCE(p->se.avg.util_avg);
	unsigned long est;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	est = READ_ONCE(p->se.avg.util_est) & ~UTIL_AVG_UNCHANGED;
#else
	est = READ_ONCE(p->se.avg.util_est.enqueued) & ~UTIL_AVG_UNCHANGED;
#endif
	return min_t(unsigned long, max(util, est), SP_CAP_SCALE);
}

/* A CPU the task may run on now: in range, active, allowed. */
static bool sp_cpu_ok(const void *ctx, u32 cpu)
{
	const struct task_struct *p = ctx;

	return cpu < nr_cpu_ids && cpu_active(cpu) && cpumask_test_cpu(cpu, p->cpus_ptr);
}

static int sp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sp_probe_data *d = (struct sp_probe_data *)ri->data;

	d->p = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	d->prev_cpu = (int)regs_get_kernel_argument(regs, 1);
	d->wake_flags = (int)regs_get_kernel_argument(regs, 2);
	return 0;
}

static void sp_read_policy(struct sp_policy *pol)
{
	pol->mode = READ_ONCE(sp_pol.mode);
	pol->margin_pct = READ_ONCE(sp_pol.margin_pct);
	pol->overutil_pct = READ_ONCE(sp_pol.overutil_pct);
	pol->window_us = READ_ONCE(sp_pol.window_us);
	pol->latency_us = READ_ONCE(sp_pol.latency_us);
}

/* Run the core on one decision; returns the CPU to return to the kernel. */
static int sp_decide(struct sp_probe_data *d, int cfs_cpu, struct sp_stats *s)
{
	const struct sp_model *m;
	struct sp_task_info t;
	struct sp_decision dec;
	struct sp_policy pol;
	int ret = cfs_cpu;

	sp_read_policy(&pol);
	t.now_ns = sp_now_ns();
	t.util = sp_task_util(d->p);
	t.prev_cpu = d->prev_cpu;
	t.cfs_cpu = cfs_cpu;

	rcu_read_lock();
	t.latency_us = sp_task_latency_us(d->p);
	m = sp_em_model();
	sp_place(m, sp_idle_state(), &pol, &t, sp_cpu_ok, d->p, &dec);
	rcu_read_unlock();

	s->decisions++;
	if (dec.reason < SP_R_NR)
		s->reason[dec.reason]++;
	if (dec.override && (int)dec.cpu != cfs_cpu) {
		if (sp_cpu_ok(d->p, dec.cpu)) {
			ret = dec.cpu;
			s->overrides++;
		} else {
			s->rejected++;
		}
	}
	trace_sched_power_select(d->p, t.util, d->prev_cpu, cfs_cpu, ret,
				 d->wake_flags, ret == cfs_cpu && dec.override ?
				 SP_R_NOT_ALLOWED : dec.reason,
				 dec.cfs_nj, dec.chosen_nj, dec.terms.pstate_nj,
				 dec.terms.wake_nj);
	return ret;
}

static int sp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sp_probe_data *d = (struct sp_probe_data *)ri->data;
	struct sp_stats *s = this_cpu_ptr(&sp_stats);
	int cfs_cpu = (int)regs_return_value(regs);
	int cpu;

	s->calls++;
	if (READ_ONCE(sp_pol.mode) == SP_MODE_OFF)
		return 0;
	if (!(READ_ONCE(sp_wake_types) & sp_wake_type(d->wake_flags))) {
		s->skipped_type++;
		return 0;
	}
	cpu = sp_decide(d, cfs_cpu, s);
	if (cpu != cfs_cpu)
		regs_set_return_value(regs, cpu);
	return 0;
}

static struct kretprobe sp_krp = {
	.kp.symbol_name = "select_task_rq_fair",
	.entry_handler = sp_entry,
	.handler = sp_ret,
	.data_size = sizeof(struct sp_probe_data),
};
static bool sp_krp_registered;
static int sp_krp_nmissed_before;	/* nmissed of earlier registrations */

static int sp_nmissed(void)
{
	return sp_krp_nmissed_before + (sp_krp_registered ? sp_krp.nmissed : 0);
}

/*
 * The kretprobe is registered once, at insmod, and unregistered once, at
 * rmmod: re-registering a kretprobe while instances of its previous
 * registration are still on other CPUs' stacks was seen to return to a
 * NULL address on 6.1 (an oops under mode switches in test_place.sh).  In
 * mode off the return handler only counts the call.
 */
static int sp_krp_register(void)
{
	int ret = register_kretprobe(&sp_krp);

	if (ret) {
		pr_err("register_kretprobe(select_task_rq_fair): %d\n", ret);
		return ret;
	}
	sp_krp_registered = true;
	return 0;
}

static void sp_krp_unregister(void)
{
	if (!sp_krp_registered)
		return;
	unregister_kretprobe(&sp_krp);
	sp_krp_nmissed_before += sp_krp.nmissed;
	sp_krp_registered = false;
}

static int sp_set_mode(u32 new_mode)
{
	WRITE_ONCE(sp_pol.mode, new_mode);
	return 0;
}

static int sp_parse_mode(const char *buf)
{
	int i;

	for (i = 0; i < SP_MODE_NR; i++)
		if (sysfs_streq(buf, sp_mode_names[i]))
			return i;
	return -EINVAL;
}

/* ---- sysfs ---------------------------------------------------------- */

static ssize_t mode_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	u32 cur = READ_ONCE(sp_pol.mode);
	ssize_t n = 0;
	int i;

	for (i = 0; i < SP_MODE_NR; i++)
		n += sysfs_emit_at(buf, n, i == cur ? "[%s] " : "%s ", sp_mode_names[i]);
	buf[n - 1] = '\n';
	return n;
}

static ssize_t mode_store(struct kobject *k, struct kobj_attribute *a, const char *buf,
			  size_t count)
{
	int m = sp_parse_mode(buf);
	int ret;

	if (m < 0)
		return m;
	mutex_lock(&sp_knob_lock);
	ret = sp_set_mode(m);
	mutex_unlock(&sp_knob_lock);
	return ret ? ret : count;
}

/* A u32 knob with an inclusive range; bad input changes nothing. */
#define SP_U32_KNOB(_name, _field, _min, _max)					\
static ssize_t _name##_show(struct kobject *k, struct kobj_attribute *a,	\
			    char *buf)						\
{										\
	return sysfs_emit(buf, "%u\n", READ_ONCE(_field));			\
}										\
static ssize_t _name##_store(struct kobject *k, struct kobj_attribute *a,	\
			     const char *buf, size_t count)			\
{										\
	u32 v;									\
	int ret = kstrtou32(buf, 0, &v);					\
										\
	if (ret)								\
		return ret;							\
	if (v < (_min) || v > (_max))						\
		return -EINVAL;							\
	WRITE_ONCE(_field, v);							\
	return count;								\
}										\
static struct kobj_attribute _name##_attr = __ATTR_RW(_name)

SP_U32_KNOB(margin_pct, sp_pol.margin_pct, 0, 100);
SP_U32_KNOB(overutil_pct, sp_pol.overutil_pct, 1, 100);
SP_U32_KNOB(window_us, sp_pol.window_us, 100, 1000000);
SP_U32_KNOB(latency_us, sp_pol.latency_us, 0, 10000000);

static const char *const sp_wake_names[] = { "wakeup", "fork", "exec" };

static ssize_t wake_types_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	u32 w = READ_ONCE(sp_wake_types);
	ssize_t n = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(sp_wake_names); i++)
		if (w & BIT(i))
			n += sysfs_emit_at(buf, n, "%s ", sp_wake_names[i]);
	if (!n)
		return sysfs_emit(buf, "none\n");
	buf[n - 1] = '\n';
	return n;
}

/* Accepts a space-separated subset of "wakeup fork exec", or "none". */
static ssize_t wake_types_store(struct kobject *k, struct kobj_attribute *a,
				const char *buf, size_t count)
{
	char tmp[64], *s = tmp, *tok;
	u32 w = 0;
	int i;

	if (count >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, count);
	tmp[count] = '\0';
	while ((tok = strsep(&s, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		if (!strcmp(tok, "none"))
			continue;
		for (i = 0; i < ARRAY_SIZE(sp_wake_names); i++)
			if (!strcmp(tok, sp_wake_names[i]))
				break;
		if (i == ARRAY_SIZE(sp_wake_names))
			return -EINVAL;
		w |= BIT(i);
	}
	WRITE_ONCE(sp_wake_types, w);
	return count;
}

static ssize_t version_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%s\n", SP_VERSION);
}

static void sp_sum_stats(struct sp_stats *sum)
{
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct sp_stats *s = per_cpu_ptr(&sp_stats, cpu);

		sum->calls += READ_ONCE(s->calls);
		sum->decisions += READ_ONCE(s->decisions);
		sum->overrides += READ_ONCE(s->overrides);
		sum->skipped_type += READ_ONCE(s->skipped_type);
		sum->rejected += READ_ONCE(s->rejected);
		for (i = 0; i < SP_R_NR; i++)
			sum->reason[i] += READ_ONCE(s->reason[i]);
	}
}

static ssize_t stats_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	struct sp_stats sum;
	ssize_t n;
	int i;

	sp_sum_stats(&sum);
	n = sysfs_emit(buf, "calls %llu\ndecisions %llu\noverrides %llu\n",
		       sum.calls, sum.decisions, sum.overrides);
	n += sysfs_emit_at(buf, n, "skipped_type %llu\nrejected %llu\n",
			   sum.skipped_type, sum.rejected);
	n += sysfs_emit_at(buf, n, "fallbacks %llu\n", sum.reason[SP_R_OVERUTILISED]);
	for (i = 0; i < SP_R_NR; i++)
		n += sysfs_emit_at(buf, n, "reason_%s %llu\n", sp_reason_names[i],
				   sum.reason[i]);
	n += sysfs_emit_at(buf, n, "kretprobe_registered %d\nkretprobe_nmissed %d\n",
			   sp_krp_registered, sp_nmissed());
	return n;
}

/* Writing 0 to stats clears the counters. */
static ssize_t stats_store(struct kobject *k, struct kobj_attribute *a, const char *buf,
			   size_t count)
{
	int cpu;

	if (!sysfs_streq(buf, "0"))
		return -EINVAL;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&sp_stats, cpu), 0, sizeof(struct sp_stats));
	return count;
}

static struct kobj_attribute mode_attr = __ATTR_RW(mode);
static struct kobj_attribute wake_types_attr = __ATTR_RW(wake_types);
static struct kobj_attribute version_attr = __ATTR_RO(version);
static struct kobj_attribute stats_attr = __ATTR_RW(stats);

static struct attribute *sp_attrs[] = {
	&mode_attr.attr,
	&margin_pct_attr.attr,
	&overutil_pct_attr.attr,
	&window_us_attr.attr,
	&latency_us_attr.attr,
	&wake_types_attr.attr,
	&version_attr.attr,
	&stats_attr.attr,
	NULL,
};

static const struct attribute_group sp_attr_group = {
	.attrs = sp_attrs,
};

/* ---- CPU hotplug ------------------------------------------------------ */

static enum cpuhp_state sp_hp_state;

/* An offline CPU looks like one in its deepest idle state to the core. */
static int sp_cpu_offline(unsigned int cpu)
{
	sp_idle_cpu_offline(cpu);
	return 0;
}

static int sp_cpu_online(unsigned int cpu)
{
	sp_idle_cpu_online(cpu);
	return 0;
}

/* ---- module --------------------------------------------------------- */

static int __init sp_init(void)
{
	int m = sp_parse_mode(mode);
	int ret;

	if (m < 0) {
		pr_err("bad mode=%s\n", mode);
		return -EINVAL;
	}
	sp_kobj = kobject_create_and_add("sched_power", kernel_kobj);
	if (!sp_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(sp_kobj, &sp_attr_group);
	if (ret)
		goto err_kobj;
	ret = sp_em_init(sp_kobj);
	if (ret)
		goto err_kobj;
	ret = sp_idle_init(sp_kobj);
	if (ret)
		goto err_em;
	ret = sp_qos_init(sp_kobj);
	if (ret)
		goto err_idle;
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "sched_power:online",
					sp_cpu_online, sp_cpu_offline);
	if (ret < 0)
		goto err_qos;
	sp_hp_state = ret;
	mutex_lock(&sp_knob_lock);
	sp_set_mode(m);
	mutex_unlock(&sp_knob_lock);
	ret = sp_krp_register();
	if (ret)
		goto err_hp;
	pr_info("loaded, version %s, mode %s\n", SP_VERSION, sp_mode_names[m]);
	return 0;

err_hp:
	cpuhp_remove_state_nocalls(sp_hp_state);
err_qos:
	sp_qos_exit(sp_kobj);
err_idle:
	sp_idle_exit();
err_em:
	sp_em_exit();
err_kobj:
	kobject_put(sp_kobj);
	return ret;
}

static void __exit sp_exit(void)
{
	mutex_lock(&sp_knob_lock);
	sp_set_mode(SP_MODE_OFF);
	mutex_unlock(&sp_knob_lock);
	sp_krp_unregister();
	cpuhp_remove_state_nocalls(sp_hp_state);
	sp_qos_exit(sp_kobj);
	sp_idle_exit();
	sp_em_exit();
	kobject_put(sp_kobj);
	pr_info("unloaded, kretprobe missed %d\n", sp_nmissed());
}

module_init(sp_init);
module_exit(sp_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Power-aware task placement: energy model, idle tracking, wake-up hook");
MODULE_VERSION(SP_VERSION);
MODULE_AUTHOR("sched_power developers");
