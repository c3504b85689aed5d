// SPDX-License-Identifier: GPL-2.0
/*
 * The hook on CFS's wake-up CPU choice, and its decisions.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: the wake-up hook
 *
 * Linux has no loadable scheduling classes, so sched_power sits on the one
 * out-of-line function that chooses a waking, forking or exec'ing task's
 * CPU for CFS: select_task_rq_fair().  The hook lets CFS choose, hands the
 * choice and a snapshot to the pure decision core (core/sp_place.c), traces
 * the decision (sched_power:sched_power_select) and, in the power and
 * balanced modes only, returns the core's CPU instead, after checking it is
 * in range, active, in the task's cpus_ptr and not isolated (the exec path,
 * sched_exec(), re-checks nothing but cpu_active()).
 *
 * Mechanism (hook=ftrace, the default): an ftrace_ops with
 * FTRACE_OPS_FL_IPMODIFY on select_task_rq_fair() redirects every call to
 * sp_select_wrapper(), which calls the original through a pointer and then
 * decides; the ftrace callback recognises the wrapper's own call by its
 * return address and lets it through.  This is the mechanism livepatch
 * uses.  The ops is dynamic, so unregister_ftrace_function() waits (RCU
 * tasks) until no CPU is in the trampoline or the callback, and every CPU
 * in the wrapper is inside try_to_wake_up()'s IRQ-disabled section, which
 * the synchronize_rcu() after it waits for: nothing of the module runs
 * once sp_select_exit() returns.
 *
 * hook=kretprobe keeps the earlier kretprobe (entry handler saves the
 * arguments, return handler decides) so that the overhead benchmark can
 * compare both.  On 6.1 unregistering a kretprobe on this function while
 * wake-ups run panics the kernel (a NULL instruction fetch from the rethook
 * trampoline), with the kernel's own samples/kprobes/kretprobe_example.c as
 * well: Documentation/hook.rst.  Do not rmmod under load with it.
 *
 * Context: try_to_wake_up(), wake_up_new_task() and sched_exec() hold
 * p->pi_lock with IRQs off.  The decision allocates nothing, takes no lock,
 * reads the model and the latency table under RCU, and keeps its working
 * set in a per-CPU buffer (the hook cannot nest on a CPU: IRQs are off), so
 * its stack frame stays small.  Counters are per CPU.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/isolation.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>
#include <linux/mutex.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "sched_power.h"
#include "sched_power_trace.h"

static char *hook = "ftrace";
module_param(hook, charp, 0444);
MODULE_PARM_DESC(hook, "wake-up hook: ftrace (default) or kretprobe (for overhead comparison only)");

/* Wake flags of kernel/sched/sched.h, stable from 5.x to 6.12. */
#define SP_WF_EXEC	0x02
#define SP_WF_FORK	0x04

/* ---- counters ---------------------------------------------------------- */

enum {
	SP_STAT_CALLS,		/* hook entered */
	SP_STAT_DECISIONS,	/* sp_place() ran (= sched_power_select events) */
	SP_STAT_OVERRIDES,	/* returned the policy's CPU instead of CFS's */
	SP_STAT_REJECTED,	/* the policy's CPU failed the final check */
	SP_STAT_SKIPPED,	/* wake type not handled (wake_types) */
	SP_STAT_LAT_BOUNDED,	/* decisions for a task with its own bound */
	SP_STAT_LAT_MISS,	/* a bound applied and no allowed CPU met it */
	SP_STAT_SLOWER,		/* overrides that spent the latency budget */
	SP_STAT_REASON0,	/* decisions per enum sp_reason from here */
	SP_STAT_NR = SP_STAT_REASON0 + SP_R_NR,
};

struct sp_hook_stats {
	struct u64_stats_sync sync;
	u64_stats_t c[SP_STAT_NR];
};

static DEFINE_PER_CPU(struct sp_hook_stats, sp_hook_stats);
/* Totals at the last stats/reset: shown values are the sums minus these. */
static u64 sp_stat_base[SP_STAT_NR];
static DEFINE_MUTEX(sp_stat_lock);	/* serialises resets and their readers */

static void sp_stat_inc(struct sp_hook_stats *s, u32 i)
{
	u64_stats_update_begin(&s->sync);
	u64_stats_inc(&s->c[i]);
	u64_stats_update_end(&s->sync);
}

static u64 sp_stat_sum(u32 i)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct sp_hook_stats *s = per_cpu_ptr(&sp_hook_stats, cpu);
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
	return sp_stat_sum(i) - READ_ONCE(sp_stat_base[i]);
}

/* ---- the decision ------------------------------------------------------ */

/* Working set of one decision; one per CPU, used with IRQs off. */
struct sp_hook_work {
	struct sp_knobs pol;
	struct sp_task_info task;
	struct sp_place_work place;
	struct sp_decision dec;
	struct sp_select_rec rec;
};

static DEFINE_PER_CPU(struct sp_hook_work, sp_hook_work);

static u32 sp_wake_of(int wake_flags)
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

#if KERNEL_VERSION(6, 9, 0) <= LINUX_VERSION_CODE
	est = READ_ONCE(p->se.avg.util_est) & ~UTIL_AVG_UNCHANGED;
#else
	est = READ_ONCE(p->se.avg.util_est.enqueued) & ~UTIL_AVG_UNCHANGED;
#endif
	return min_t(unsigned long, max(util, est), SP_CAP_SCALE);
}

/* A CPU the task may run on now: in range, active, allowed, not isolated. */
static bool sp_cpu_ok(const void *ctx, u32 cpu)
{
	const struct task_struct *p = ctx;

	return cpu < nr_cpu_ids && cpu_active(cpu) &&
	       cpumask_test_cpu(cpu, p->cpus_ptr) &&
	       housekeeping_test_cpu(cpu, HK_TYPE_DOMAIN);
}

/*
 * The task and the context of the decision.  The hook runs on the waker's
 * CPU with IRQs off; if that CPU's current task is its idle task, it was
 * woken by the interrupt that wakes @p and its idle exit is not recorded
 * yet (power:cpu_idle fires after the handler): the core counts it awake.
 */
static void sp_fill_task(struct sp_task_info *t, struct task_struct *p,
			 int prev_cpu, int cfs_cpu, u32 wake,
			 const struct sp_model *m, const struct sp_state *st)
{
	t->now_ns = sp_cpuidle_now_ns();
	t->prev_cpu = prev_cpu;
	t->cfs_cpu = cfs_cpu;
	t->this_cpu = smp_processor_id();
	t->this_ctx = is_idle_task(current) ? SP_THIS_IRQ : SP_THIS_TASK;
	t->wake = wake;
	t->latency_us = sp_task_latency_us(p);
	if (wake == SP_WAKE_FORK)
		t->util = sp_place_fork_util(m, st, t->this_cpu, t->now_ns);
	else
		t->util = sp_task_util(p);
}

static void sp_fill_rec(struct sp_select_rec *r, const struct sp_task_info *t,
			const struct sp_decision *d, const struct sp_knobs *pol,
			u32 wake)
{
	r->util = t->util;
	r->prev_cpu = t->prev_cpu;
	r->cfs_cpu = t->cfs_cpu;
	r->policy_cpu = d->cpu;
	r->wake = wake;
	r->mode = pol->mode;
	r->reason = d->reason;
	r->cfs_nj = d->cfs_nj;
	r->chosen_nj = d->chosen_nj;
	r->busy_nj = d->terms.busy_nj;
	r->idle_nj = d->terms.idle_nj;
	r->wake_nj = d->terms.wake_nj;
	r->pstate_nj = d->terms.pstate_nj;
	r->static_nj = d->terms.static_nj;
	r->future_nj = d->terms.future_nj;
	r->queued = d->queued;
	r->queue_us = d->queue_us;
	r->lat_bound_us = d->lat_bound_us;
	r->wake_lat_us = d->wake_lat_us;
	r->lat_miss = d->lat_miss;
}

/* Latency accounting of one decision that returns @ret for @p. */
static void sp_count_lat(const struct sp_hook_work *w, int ret,
			 struct sp_hook_stats *s)
{
	if (w->dec.lat_miss)
		sp_stat_inc(s, SP_STAT_LAT_MISS);
	if (!w->task.latency_us)
		return;
	sp_stat_inc(s, SP_STAT_LAT_BOUNDED);
	sp_lat_placed(w->task.latency_us, w->task.prev_cpu, ret);
}

/*
 * The CPU @ret a decision hands back: its work in flight, and the latency
 * budget of this CPU, spent if the override made the wake-up slower than
 * CFS's choice.  The snapshot is the one the decision read.
 */
static void sp_note(struct sp_state *st, const struct sp_hook_work *w, int ret,
		    bool slower)
{
	if (ret >= 0)
		sp_state_note_decision(st, w->task.this_cpu, ret, w->task.util,
				       slower, w->task.now_ns);
}

/* Run the core on one decision; returns the CPU to hand back to CFS. */
static int sp_decide(struct task_struct *p, int prev_cpu, int cfs_cpu,
		     u32 wake, struct sp_hook_work *w, struct sp_hook_stats *s)
{
	const struct sp_knobs *pol = &w->pol;
	const struct sp_model *m;
	struct sp_state *st;
	int ret = cfs_cpu;
	bool acts, slower = false;

	rcu_read_lock();
	m = sp_em_model();
	st = sp_cpuidle_state();
	sp_fill_task(&w->task, p, prev_cpu, cfs_cpu, wake, m, st);
	sp_place_w(m, st, pol, &w->task, sp_cpu_ok, p, &w->dec, &w->place);

	acts = pol->mode == SP_MODE_POWER || pol->mode == SP_MODE_BALANCED;
	w->rec.applied = acts;
	if (acts && w->dec.override) {
		if (sp_cpu_ok(p, w->dec.cpu)) {
			ret = w->dec.cpu;
			slower = w->dec.slower;
			sp_stat_inc(s, SP_STAT_OVERRIDES);
			if (slower)
				sp_stat_inc(s, SP_STAT_SLOWER);
		} else {
			w->rec.applied = 0;
			sp_stat_inc(s, SP_STAT_REJECTED);
		}
	}
	sp_note(st, w, ret, slower);
	rcu_read_unlock();
	sp_stat_inc(s, SP_STAT_DECISIONS);
	if (w->dec.reason < SP_R_NR)
		sp_stat_inc(s, SP_STAT_REASON0 + w->dec.reason);
	sp_count_lat(w, ret, s);
	sp_fill_rec(&w->rec, &w->task, &w->dec, pol, wake);
	w->rec.ret_cpu = ret;
	trace_sched_power_select(p, &w->rec);
	return ret;
}

/* Everything the hook does after CFS chose @cfs_cpu. */
static int sp_after_cfs(struct task_struct *p, int prev_cpu, int wake_flags,
			int cfs_cpu)
{
	struct sp_hook_stats *s = this_cpu_ptr(&sp_hook_stats);
	struct sp_hook_work *w = this_cpu_ptr(&sp_hook_work);
	u32 wake = sp_wake_of(wake_flags);

	sp_stat_inc(s, SP_STAT_CALLS);
	sp_knob_snapshot(&w->pol);
	if (w->pol.mode == SP_MODE_OFF)
		return cfs_cpu;
	if (!sp_knob_wants(wake)) {
		sp_stat_inc(s, SP_STAT_SKIPPED);
		return cfs_cpu;
	}
	return sp_decide(p, prev_cpu, cfs_cpu, wake, w, s);
}

/* ---- hook=ftrace ------------------------------------------------------- */

typedef int (*sp_select_fn)(struct task_struct *p, int prev_cpu, int wake_flags);

static sp_select_fn sp_orig_select;

static noinline int sp_select_wrapper(struct task_struct *p, int prev_cpu,
				      int wake_flags)
{
	int cfs_cpu = sp_orig_select(p, prev_cpu, wake_flags);

	return sp_after_cfs(p, prev_cpu, wake_flags, cfs_cpu);
}

static void notrace sp_ftrace_redirect(unsigned long ip, unsigned long parent_ip,
				       struct ftrace_ops *ops,
				       struct ftrace_regs *fregs)
{
	/* the wrapper's own call of the original goes through */
	if (within_module(parent_ip, THIS_MODULE))
		return;
#if defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) && \
	KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE
	ftrace_regs_set_instruction_pointer(fregs, (unsigned long)sp_select_wrapper);
#elif defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
	ftrace_instruction_pointer_set(fregs, (unsigned long)sp_select_wrapper);
#else
	instruction_pointer_set(ftrace_get_regs(fregs),
				(unsigned long)sp_select_wrapper);
#endif
}

static struct ftrace_ops sp_fops = {
	.func = sp_ftrace_redirect,
	.flags = FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_PERMANENT |
#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
		 FTRACE_OPS_FL_SAVE_REGS |
#endif
		 FTRACE_OPS_FL_DYNAMIC,
};

static int sp_ftrace_register(void)
{
	unsigned long addr = sp_redirect_lookup("select_task_rq_fair");
	int ret;

	if (!addr) {
		pr_err("cannot resolve select_task_rq_fair\n");
		return -ENOENT;
	}
	ret = ftrace_set_filter_ip(&sp_fops, addr, 0, 0);
	if (ret) {
		pr_err("ftrace_set_filter_ip(select_task_rq_fair): %d\n", ret);
		return ret;
	}
	WRITE_ONCE(sp_orig_select, (sp_select_fn)addr);
	ret = register_ftrace_function(&sp_fops);
	if (ret) {
		pr_err("register_ftrace_function: %d (another IPMODIFY user, e.g. a livepatch, on select_task_rq_fair?)\n",
		       ret);
		ftrace_free_filter(&sp_fops);
	}
	return ret;
}

static void sp_ftrace_unregister(void)
{
	unregister_ftrace_function(&sp_fops);
	ftrace_free_filter(&sp_fops);
}

/* ---- hook=kretprobe ---------------------------------------------------- */

struct sp_krp_data {
	struct task_struct *p;
	int prev_cpu;
	int wake_flags;
};

static int sp_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sp_krp_data *d = (struct sp_krp_data *)ri->data;

	d->p = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	d->prev_cpu = (int)regs_get_kernel_argument(regs, 1);
	d->wake_flags = (int)regs_get_kernel_argument(regs, 2);
	return 0;
}

static int sp_krp_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct sp_krp_data *d = (struct sp_krp_data *)ri->data;
	int cfs_cpu = (int)regs_return_value(regs);
	int cpu = sp_after_cfs(d->p, d->prev_cpu, d->wake_flags, cfs_cpu);

	if (cpu != cfs_cpu)
		regs_set_return_value(regs, cpu);
	return 0;
}

static struct kretprobe sp_krp = {
	.kp.symbol_name = "select_task_rq_fair",
	.entry_handler = sp_krp_entry,
	.handler = sp_krp_ret,
	.data_size = sizeof(struct sp_krp_data),
};

/* ---- registration ------------------------------------------------------ */

static bool sp_use_kretprobe;
static void sp_stats_attrs_fill(void);

int sp_select_init(void)
{
	int ret;

	sp_stats_attrs_fill();

	if (!strcmp(hook, "kretprobe")) {
		sp_use_kretprobe = true;
		ret = register_kretprobe(&sp_krp);
		if (ret)
			pr_err("register_kretprobe(select_task_rq_fair): %d\n", ret);
		else
			pr_warn("hook=kretprobe: unloading under wake-up load can crash 6.1 (Documentation/hook.rst)\n");
		return ret;
	}
	if (strcmp(hook, "ftrace")) {
		pr_err("bad hook=%s (ftrace or kretprobe)\n", hook);
		return -EINVAL;
	}
	return sp_ftrace_register();
}

void sp_select_exit(void)
{
	if (sp_use_kretprobe)
		unregister_kretprobe(&sp_krp);
	else
		sp_ftrace_unregister();
	/* a CPU still in the wrapper is in an IRQ-disabled section */
	synchronize_rcu();
}

static u64 sp_hook_missed(void)
{
	return sp_use_kretprobe ? READ_ONCE(sp_krp.nmissed) : 0;
}

/* ---- sysfs: hook, stats/ ----------------------------------------------- */

static ssize_t hook_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%s\n", sp_use_kretprobe ? "kretprobe" : "ftrace");
}

static struct kobj_attribute sp_hook_attr = __ATTR_RO(hook);

static struct attribute *sp_hook_attrs[] = {
	&sp_hook_attr.attr,
	NULL,
};

const struct attribute_group sp_select_group = {
	.attrs = sp_hook_attrs,
};

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

#undef EM
#undef EMe
#define EM(a, b)	SP_STAT_ATTR("reason_" b, SP_STAT_REASON0 + (a)),
#define EMe(a, b)	SP_STAT_ATTR("reason_" b, SP_STAT_REASON0 + (a))

static struct sp_stat_attr sp_stat_attrs[] = {
	SP_STAT_ATTR("calls", SP_STAT_CALLS),
	SP_STAT_ATTR("decisions", SP_STAT_DECISIONS),
	SP_STAT_ATTR("overrides", SP_STAT_OVERRIDES),
	SP_STAT_ATTR("rejected", SP_STAT_REJECTED),
	SP_STAT_ATTR("skipped_type", SP_STAT_SKIPPED),
	SP_STAT_ATTR("latency_bounded", SP_STAT_LAT_BOUNDED),
	SP_STAT_ATTR("latency_violations", SP_STAT_LAT_MISS),
	SP_STAT_ATTR("slower_than_cfs", SP_STAT_SLOWER),
	SP_REASON_LIST
};

#undef EM
#undef EMe

static ssize_t hook_missed_show(struct kobject *k, struct kobj_attribute *a,
				char *buf)
{
	return sysfs_emit(buf, "%llu\n", sp_hook_missed());
}

static void sp_stats_reset(void)
{
	u32 i;

	mutex_lock(&sp_stat_lock);
	for (i = 0; i < SP_STAT_NR; i++)
		WRITE_ONCE(sp_stat_base[i], sp_stat_sum(i));
	mutex_unlock(&sp_stat_lock);
}

/* stats/reset: writing 1 clears the counters (hook_missed is the kernel's). */
static ssize_t reset_store(struct kobject *k, struct kobj_attribute *a,
			   const char *buf, size_t count)
{
	if (count > 2 || buf[0] != '1' || (count == 2 && buf[1] != '\n'))
		return -EINVAL;
	sp_stats_reset();
	return count;
}

static struct kobj_attribute sp_hook_missed_attr = __ATTR_RO(hook_missed);
static struct kobj_attribute sp_stats_reset_attr = __ATTR_WO(reset);

static struct attribute *sp_stats_attrs[ARRAY_SIZE(sp_stat_attrs) + 3];

const struct attribute_group sp_stat_group = {
	.name = "stats",
	.attrs = sp_stats_attrs,
};

static void sp_stats_attrs_fill(void)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(sp_stat_attrs); i++) {
		sysfs_attr_init(&sp_stat_attrs[i].ka.attr);
		sp_stats_attrs[i] = &sp_stat_attrs[i].ka.attr;
	}
	sp_stats_attrs[i++] = &sp_hook_missed_attr.attr;
	sp_stats_attrs[i++] = &sp_stats_reset_attr.attr;
	sp_stats_attrs[i] = NULL;
}

/* ---- debugfs: stats ---------------------------------------------------- */

static int sp_stats_seq_show(struct seq_file *sf, void *v)
{
	u32 i;

	mutex_lock(&sp_stat_lock);
	for (i = 0; i < ARRAY_SIZE(sp_stat_attrs); i++)
		seq_printf(sf, "%s %llu\n", sp_stat_attrs[i].ka.attr.name,
			   sp_stat_get(sp_stat_attrs[i].idx));
	mutex_unlock(&sp_stat_lock);
	seq_printf(sf, "hook %s\nhook_missed %llu\n",
		   sp_use_kretprobe ? "kretprobe" : "ftrace", sp_hook_missed());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sp_stats_seq);

void sp_stat_debugfs(struct dentry *root)
{
	debugfs_create_file("stats", 0444, root, NULL, &sp_stats_seq_fops);
}
