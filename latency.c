// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task wake-up latency bounds: /dev/sched_power_latency,
 * the bound table the wake-up hook reads, and per-CPU resume-latency QoS.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: per-task wake-up latency bounds
 *
 * /dev/sched_power_latency works like /dev/cpu_dma_latency: a process
 * opens it, writes a bound in microseconds (a native-endian s32 or ASCII
 * decimal) and keeps the file open.  While it is open, every placement
 * decision for the target only considers CPUs whose modelled wake-up fits
 * the bound; closing the file (which exit does) removes the bound.  The
 * target is the opener's thread group, or the calling thread
 * (SP_LAT_IOC_THREAD), or another process (SP_LAT_IOC_PID: sched_setattr's
 * owner rule on every thread of that group, and the LSM's
 * task_setscheduler check), chosen before the first write.  Every right is
 * the opener's: the file's credentials decide whether its bound is
 * privileged (CAP_SYS_NICE) and which user it is charged to (the owner of
 * the opener's outermost user namespace, so that subordinate uids count as
 * their owner).
 *
 * The table the wake-up hook reads has one entry per target and kind
 * (thread or thread group), keyed by its struct pid, which the entry holds
 * a reference on until an RCU grace period after the entry is gone.  The
 * entry carries the smallest bound of the files that bound it (its holds)
 * and their count, so the hash chain the hook walks with IRQs off grows
 * with targets, not with files.  The hook looks up task_pid(p) and
 * task_tgid(p), compares pointers (a reused PID number never inherits a
 * bound), takes no lock and allocates nothing.  core/sp_bound.c decides
 * who may add a bound (per-user limit, a reserve for privileged writers)
 * and which CPUs a bound holds.
 *
 * The idle side: a privileged bound holds a DEV_PM_QOS_RESUME_LATENCY
 * request on the CPU of every thread of its target; any other bound only
 * on CPUs where a target thread runs or ran in the last
 * SP_BOUND_RECENT_NS, and at most SP_BOUND_USER_CPUS CPUs per user.  A
 * thread counts where it is while that CPU is in its affinity mask, on its
 * one allowed CPU if it was pinned elsewhere, and nowhere otherwise until
 * it is placed again.  One QoS pass recomputes every CPU's wish from the
 * table (at most SP_BOUND_WALK_MAX threads per target, rescheduling
 * between targets) and adds, updates or removes requests.  Passes run from
 * a delayed work item, never more often than once per
 * SP_LAT_QOS_INTERVAL_MS: writes and closes queue one, and so does an
 * irq_work from the wake-up hook (a bounded task moved, or landed on a CPU
 * whose request is missing or too loose) and from the sched_migrate_task
 * tracepoint (the load balancer, an affinity change, a pinned task, which
 * never reaches the hook), hooked while the mode is not off.  While an
 * unprivileged bound holds a CPU, the pass queues the next one itself, so
 * the request lapses once the threads sleep.  Unloading removes every
 * request.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/pm_qos.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include <linux/workqueue.h>

#ifdef CONFIG_X86_KERNEL_IBT
#include <asm/ibt.h>
#endif

#include "sched_power.h"
#include "core/sp_bound.h"
#include "sched_power_latency.h"

#define SP_LAT_HASH_BITS	8
#define SP_LAT_QOS_INTERVAL_MS	10

/* The user unprivileged bounds are charged to. */
struct sp_lat_user {
	struct hlist_node node;	/* in sp_lat_users, keyed by uid */
	kuid_t uid;
	u32 nr_holds;		/* its bounds in force */
	struct sp_bound_user_cpus cpus;	/* CPUs it holds, this pass */
};

/* One target of bounds: what the wake-up hook reads. */
struct sp_lat_entry {
	struct hlist_node node;	/* in sp_lat_hash, keyed by pid pointer */
	struct rcu_head rcu;
	struct pid *pid;	/* the target (referenced); compared, not read */
	bool thread;		/* pid names a thread, else a thread group */
	u32 bound_us;		/* the smallest bound of its holds */
	u32 nr_holds;
	struct list_head holds;	/* sp_lat_file.hold_link */
};

/* An open file of the device; with a bound, one hold of an entry. */
struct sp_lat_file {
	struct list_head link;		/* in sp_lat_files */
	struct pid *opener;		/* thread group (referenced) */
	struct pid *target;		/* referenced */
	bool thread;
	bool privileged;		/* the opener had CAP_SYS_NICE */
	kuid_t uid;			/* the user charged */
	struct sp_lat_entry *e;		/* NULL until the first valid write */
	struct sp_lat_user *user;	/* charged; NULL if privileged */
	struct list_head hold_link;	/* in e->holds */
	u32 bound_us;			/* in force: as asked, floor applied */
	u32 asked_us;			/* as written */
};

/* Per-CPU resume-latency request; written by the QoS pass only. */
struct sp_lat_cpu {
	struct dev_pm_qos_request req;
	s32 applied_us;		/* value of req, -1 = no request */
};

static DEFINE_HASHTABLE(sp_lat_hash, SP_LAT_HASH_BITS);
static DEFINE_HASHTABLE(sp_lat_users, SP_LAT_HASH_BITS);
static LIST_HEAD(sp_lat_files);
/* Entries, holds, users, files, requests, counters, the pass's scratch. */
static DEFINE_MUTEX(sp_lat_lock);
u32 sp_lat_nr;				/* entries in force; sp_task_latency_us() */
static u32 sp_lat_holds;		/* bounds in force */
static u32 sp_lat_nr_files;		/* open files */
static u64 sp_lat_qos_updates;		/* requests added, updated, removed */
static u64 sp_lat_passes;		/* QoS passes run */
static u64 sp_lat_pass_ns;		/* wall time in them, waits included */
static unsigned long sp_lat_qos_last;	/* jiffies of the last QoS pass */
static u32 *sp_lat_want;		/* nr_cpu_ids wishes */
static cpumask_var_t sp_lat_all;	/* one target's threads' CPUs */
static cpumask_var_t sp_lat_recent;	/* of those, where one ran recently */
static DEFINE_PER_CPU(struct sp_lat_cpu, sp_lat_cpu);
static struct tracepoint *sp_lat_migrate_tp;
static bool sp_lat_migrate_on;		/* its probe is registered */
/* security_task_setscheduler(): not exported, resolved at init; or NULL */
static int (*sp_lat_lsm_setsched)(struct task_struct *p);

static void sp_lat_qos_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(sp_lat_qos_work, sp_lat_qos_fn);

/* ---- the hot path ------------------------------------------------------ */

static u32 sp_lat_find(const struct pid *pid, bool thread)
{
	const struct sp_lat_entry *e;

	hash_for_each_possible_rcu(sp_lat_hash, e, node, (unsigned long)pid) {
		if (e->pid == pid && e->thread == thread)
			return READ_ONCE(e->bound_us);
	}
	return 0;
}

static u32 sp_lat_min_set(u32 a, u32 b)
{
	if (!a)
		return b;
	return b && b < a ? b : a;
}

/**
 * sp_lat_task_bound_us() - sp_task_latency_us() while bounds are in force
 * @p: the task
 *
 * Context: any, IRQs off included; RCU read side, lock-free, allocates
 * nothing.
 *
 * Two hash lookups by pointer (task_pid(), task_tgid()), so a recycled PID
 * never inherits a bound.
 *
 * Return: the smaller of its thread's and its thread group's bounds, in
 * us; 0 if neither has one.
 */
u32 sp_lat_task_bound_us(const struct task_struct *p)
{
	struct task_struct *t = (struct task_struct *)p;

	return sp_lat_min_set(sp_lat_find(task_pid(t), true),
			      sp_lat_find(task_tgid(t), false));
}

/* Queue a QoS pass, no earlier than SP_LAT_QOS_INTERVAL_MS after the last. */
static void sp_lat_qos_schedule(void)
{
	unsigned long due = READ_ONCE(sp_lat_qos_last) +
			    msecs_to_jiffies(SP_LAT_QOS_INTERVAL_MS);

	schedule_delayed_work(&sp_lat_qos_work,
			      time_after(due, jiffies) ? due - jiffies : 0);
}

static void sp_lat_iw_fn(struct irq_work *iw)
{
	sp_lat_qos_schedule();
}

static DEFINE_IRQ_WORK(sp_lat_iw, sp_lat_iw_fn);

/**
 * sp_lat_placed() - the hook placed a task that has its own bound
 * @bound_us: the task's bound
 * @prev_cpu: the CPU it was on
 * @cpu: the CPU it goes to
 *
 * Queues a QoS pass if the task moved, or if @cpu's request is missing or
 * looser than @bound_us.
 *
 * Context: any, IRQs off included (the pass is queued through an irq_work).
 */
void sp_lat_placed(u32 bound_us, int prev_cpu, int cpu)
{
	s32 applied;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return;
	applied = READ_ONCE(per_cpu(sp_lat_cpu, cpu).applied_us);
	if (cpu != prev_cpu || applied < 0 || applied > bound_us)
		irq_work_queue(&sp_lat_iw);
}

/* sched_migrate_task: any move of a bounded task, the hook's or not. */
static void sp_lat_migrate_probe(void *data, struct task_struct *p, int dest_cpu)
{
	if (sp_task_latency_us(p))
		irq_work_queue(&sp_lat_iw);
}

/* ---- the QoS pass (process context) ------------------------------------ */

/* Note where one thread of a target holds a request (sp_bound.c's rules). */
static void sp_lat_note_thread(struct task_struct *t)
{
	int tcpu = task_cpu(t);
	s32 cpu;

	cpu = sp_bound_thread_cpu(tcpu, cpumask_test_cpu(tcpu, t->cpus_ptr),
				  t->nr_cpus_allowed, cpumask_first(t->cpus_ptr));
	if (cpu < 0 || cpu >= nr_cpu_ids)
		return;
	cpumask_set_cpu(cpu, sp_lat_all);
	if (sp_bound_thread_recent(READ_ONCE(t->on_rq), local_clock(),
				   READ_ONCE(t->se.exec_start)))
		cpumask_set_cpu(cpu, sp_lat_recent);
}

/* The CPUs of @e's threads (at most SP_BOUND_WALK_MAX) into the scratch. */
static void sp_lat_entry_cpus(const struct sp_lat_entry *e)
{
	struct task_struct *p, *t;
	u32 n = 0;

	cpumask_clear(sp_lat_all);
	cpumask_clear(sp_lat_recent);
	rcu_read_lock();
	p = pid_task(e->pid, e->thread ? PIDTYPE_PID : PIDTYPE_TGID);
	if (p && e->thread) {
		sp_lat_note_thread(p);
	} else if (p) {
		for_each_thread(p, t) {
			sp_lat_note_thread(t);
			if (++n >= SP_BOUND_WALK_MAX)
				break;
		}
	}
	rcu_read_unlock();
}

static void sp_lat_fold_mask(const struct cpumask *mask, u32 bound_us)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		sp_bound_fold(sp_lat_want, nr_cpu_ids, cpu, bound_us);
}

/* An unprivileged bound: recent CPUs, within its user's CPU budget. */
static bool sp_lat_fold_user(struct sp_lat_user *u, u32 bound_us)
{
	bool held = false;
	unsigned int cpu;
	u32 i;

	for_each_cpu(cpu, sp_lat_recent) {
		if (sp_bound_user_full(&u->cpus))
			break;
		sp_bound_user_take(&u->cpus, cpu);
	}
	for (i = 0; i < u->cpus.nr; i++) {
		if (cpumask_test_cpu(u->cpus.cpu[i], sp_lat_recent)) {
			sp_bound_fold(sp_lat_want, nr_cpu_ids, u->cpus.cpu[i],
				      bound_us);
			held = true;
		}
	}
	return held;
}

/* Fold @e's holds into the wish; true if an unprivileged one holds a CPU. */
static bool sp_lat_fold_entry(const struct sp_lat_entry *e)
{
	const struct sp_lat_file *fl;
	u32 privileged_us = SP_BOUND_NONE;
	bool lease = false;

	list_for_each_entry(fl, &e->holds, hold_link) {
		if (fl->privileged)
			privileged_us = sp_lat_min_set(privileged_us, fl->bound_us);
		else
			lease |= sp_lat_fold_user(fl->user, fl->bound_us);
	}
	if (privileged_us != SP_BOUND_NONE)
		sp_lat_fold_mask(sp_lat_all, privileged_us);
	return lease;
}

/*
 * Bring @cpu's request to @want_us.  A physical hot-remove destroys the
 * CPU device's requests (dev_pm_qos_constraints_destroy()): ours then is
 * no longer active and is not touched again; a CPU without a device gets
 * none.  sp_lat_apply() holds the hotplug lock, which keeps the device
 * from going away meanwhile.
 */
static void sp_lat_apply_cpu(unsigned int cpu, u32 want_us)
{
	struct sp_lat_cpu *c = per_cpu_ptr(&sp_lat_cpu, cpu);
	s32 v = want_us == SP_BOUND_NONE ? -1 : (s32)want_us;
	struct device *dev;
	int ret;

	if (c->applied_us >= 0 && !dev_pm_qos_request_active(&c->req))
		WRITE_ONCE(c->applied_us, -1);
	if (v == c->applied_us)
		return;
	if (v < 0) {
		ret = dev_pm_qos_remove_request(&c->req);
	} else if (c->applied_us >= 0) {
		ret = dev_pm_qos_update_request(&c->req, v);
	} else {
		dev = get_cpu_device(cpu);
		if (!dev)
			return;
		ret = dev_pm_qos_add_request(dev, &c->req,
					     DEV_PM_QOS_RESUME_LATENCY, v);
	}
	if (ret < 0) {
		pr_warn_ratelimited("cpu%u resume-latency request %d us: %d\n",
				    cpu, v, ret);
		return;
	}
	WRITE_ONCE(c->applied_us, v);
	sp_lat_qos_updates++;
}

static void sp_lat_apply(void)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_possible_cpu(cpu)
		sp_lat_apply_cpu(cpu, sp_lat_want[cpu]);
	cpus_read_unlock();
}

/* Recompute every CPU's wish from the table and apply it. */
static void sp_lat_qos_pass(void)
{
	struct sp_lat_entry *e;
	u64 start_ns = ktime_get_ns();
	struct sp_lat_user *u;
	unsigned int bkt;
	bool lease = false;

	lockdep_assert_held(&sp_lat_lock);
	memset(sp_lat_want, 0, nr_cpu_ids * sizeof(*sp_lat_want));
	hash_for_each(sp_lat_users, bkt, u, node)
		u->cpus.nr = 0;
	hash_for_each(sp_lat_hash, bkt, e, node) {
		sp_lat_entry_cpus(e);
		lease |= sp_lat_fold_entry(e);
		cond_resched();
	}
	sp_lat_apply();
	sp_lat_passes++;
	sp_lat_pass_ns += ktime_get_ns() - start_ns;
	WRITE_ONCE(sp_lat_qos_last, jiffies);
	/* an unprivileged request lapses once its threads stop running */
	if (lease)
		schedule_delayed_work(&sp_lat_qos_work,
				      msecs_to_jiffies(SP_LAT_QOS_INTERVAL_MS));
}

static void sp_lat_qos_fn(struct work_struct *w)
{
	mutex_lock(&sp_lat_lock);
	sp_lat_qos_pass();
	mutex_unlock(&sp_lat_lock);
}

/* ---- users, entries, holds (sp_lat_lock) ------------------------------- */

/*
 * The uid a file's bounds are charged to: its opener's effective uid in
 * the initial user namespace, else the owner of the opener's outermost
 * user namespace (subordinate uids, newuidmap, are their owner's).
 */
static kuid_t sp_lat_charge_uid(const struct cred *cred)
{
	const struct user_namespace *ns = cred->user_ns;

	if (ns == &init_user_ns)
		return cred->euid;
	while (ns->parent != &init_user_ns)
		ns = ns->parent;
	return ns->owner;
}

static struct sp_lat_user *sp_lat_user_find(kuid_t uid)
{
	struct sp_lat_user *u;

	lockdep_assert_held(&sp_lat_lock);
	hash_for_each_possible(sp_lat_users, u, node, __kuid_val(uid)) {
		if (uid_eq(u->uid, uid))
			return u;
	}
	return NULL;
}

/* The user @uid, added with no bound if new; NULL if out of memory. */
static struct sp_lat_user *sp_lat_user_get(kuid_t uid)
{
	struct sp_lat_user *u = sp_lat_user_find(uid);

	lockdep_assert_held(&sp_lat_lock);
	if (u)
		return u;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return NULL;
	u->uid = uid;
	hash_add(sp_lat_users, &u->node, __kuid_val(uid));
	return u;
}

static void sp_lat_user_put(struct sp_lat_user *u)
{
	lockdep_assert_held(&sp_lat_lock);
	if (u && !u->nr_holds) {
		hash_del(&u->node);
		kfree(u);
	}
}

static struct sp_lat_entry *sp_lat_entry_find(const struct pid *pid, bool thread)
{
	struct sp_lat_entry *e;

	lockdep_assert_held(&sp_lat_lock);
	hash_for_each_possible(sp_lat_hash, e, node, (unsigned long)pid) {
		if (e->pid == pid && e->thread == thread)
			return e;
	}
	return NULL;
}

/* The entry of (@pid, @thread), added with no hold if new; NULL if no memory. */
static struct sp_lat_entry *sp_lat_entry_get(struct pid *pid, bool thread)
{
	struct sp_lat_entry *e = sp_lat_entry_find(pid, thread);

	lockdep_assert_held(&sp_lat_lock);
	if (e)
		return e;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return NULL;
	e->pid = get_pid(pid);
	e->thread = thread;
	INIT_LIST_HEAD(&e->holds);
	hash_add_rcu(sp_lat_hash, &e->node, (unsigned long)pid);
	WRITE_ONCE(sp_lat_nr, sp_lat_nr + 1);
	return e;
}

/*
 * The pid is put only after the grace period: until then a wake-up may
 * still compare against this entry, and a struct pid freed earlier could
 * come back as a new task's pid and match it.
 */
static void sp_lat_entry_free_rcu(struct rcu_head *rcu)
{
	struct sp_lat_entry *e = container_of(rcu, struct sp_lat_entry, rcu);

	put_pid(e->pid);
	kfree(e);
}

/* The entry's bound from its holds, or its removal when none is left. */
static void sp_lat_entry_update(struct sp_lat_entry *e)
{
	const struct sp_lat_file *fl;
	u32 us = SP_BOUND_NONE;

	lockdep_assert_held(&sp_lat_lock);
	if (!e->nr_holds) {
		hash_del_rcu(&e->node);
		WRITE_ONCE(sp_lat_nr, sp_lat_nr - 1);
		call_rcu(&e->rcu, sp_lat_entry_free_rcu);
		return;
	}
	list_for_each_entry(fl, &e->holds, hold_link)
		us = sp_lat_min_set(us, fl->bound_us);
	WRITE_ONCE(e->bound_us, us);
}

static u32 sp_lat_floor_now(void)
{
	u32 floor_us;

	rcu_read_lock();
	floor_us = sp_bound_floor_us(sp_em_model());
	rcu_read_unlock();
	return floor_us;
}

/* Make @fl a hold of its target's entry, charged to its user. */
static int sp_lat_hold(struct sp_lat_file *fl)
{
	struct sp_lat_user *u = NULL;
	struct sp_lat_entry *e;
	int ret;

	lockdep_assert_held(&sp_lat_lock);
	if (!fl->privileged) {
		u = sp_lat_user_find(fl->uid);
		ret = sp_bound_admit(sp_lat_holds, u ? u->nr_holds : 0, false);
	} else {
		ret = sp_bound_admit(sp_lat_holds, 0, true);
	}
	if (ret)
		return ret;
	if (!fl->privileged) {
		u = sp_lat_user_get(fl->uid);
		if (!u)
			return -ENOMEM;
	}
	e = sp_lat_entry_get(fl->target, fl->thread);
	if (!e) {
		sp_lat_user_put(u);
		return -ENOMEM;
	}
	list_add_tail(&fl->hold_link, &e->holds);
	e->nr_holds++;
	if (u)
		u->nr_holds++;
	sp_lat_holds++;
	fl->e = e;
	fl->user = u;
	return 0;
}

static void sp_lat_unhold(struct sp_lat_file *fl)
{
	struct sp_lat_entry *e = fl->e;

	lockdep_assert_held(&sp_lat_lock);
	list_del(&fl->hold_link);
	e->nr_holds--;
	sp_lat_holds--;
	if (fl->user) {
		fl->user->nr_holds--;
		sp_lat_user_put(fl->user);
	}
	fl->e = NULL;
	fl->user = NULL;
	sp_lat_entry_update(e);
}

/* Set the file's bound to @us (floor applied). */
static int sp_lat_set(struct sp_lat_file *fl, u32 us)
{
	u32 bound_us = sp_bound_effective_us(us, sp_lat_floor_now());
	int ret;

	lockdep_assert_held(&sp_lat_lock);
	if (!fl->e) {
		ret = sp_lat_hold(fl);
		if (ret)
			return ret;
	}
	fl->bound_us = bound_us;
	fl->asked_us = us;
	sp_lat_entry_update(fl->e);
	return 0;
}

/* ---- the device -------------------------------------------------------- */

static ssize_t sp_lat_write(struct file *f, const char __user *ubuf,
			    size_t n, loff_t *ppos)
{
	struct sp_lat_file *fl = f->private_data;
	char buf[16];
	u32 us;
	int ret;

	if (!n || n > sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, n))
		return -EFAULT;
	ret = sp_bound_parse(buf, n, &us);
	if (ret)
		return ret;
	mutex_lock(&sp_lat_lock);
	ret = sp_lat_set(fl, us);
	mutex_unlock(&sp_lat_lock);
	if (ret)
		return ret;
	sp_lat_qos_schedule();
	return n;
}

static ssize_t sp_lat_read(struct file *f, char __user *ubuf, size_t n,
			   loff_t *ppos)
{
	struct sp_lat_file *fl = f->private_data;
	s32 v;

	rcu_read_lock();
	v = sp_lat_find(fl->target, fl->thread);
	rcu_read_unlock();
	return simple_read_from_buffer(ubuf, n, ppos, &v, sizeof(v));
}

/* sched_setattr's owner rule for one thread, with the opener's @cred. */
static bool sp_lat_same_owner(const struct cred *cred, struct task_struct *t)
{
	const struct cred *tcred = __task_cred(t);

	return uid_eq(cred->euid, tcred->euid) || uid_eq(cred->euid, tcred->uid);
}

/* The owner rule on every thread of @p's group: 0 or -EPERM. */
static int sp_lat_owner_group(struct file *f, struct task_struct *p)
{
	struct task_struct *t;
	int ret = 0;

	if (file_ns_capable(f, &init_user_ns, CAP_SYS_NICE))
		return 0;
	rcu_read_lock();
	for_each_thread(p, t) {
		if (!sp_lat_same_owner(f->f_cred, t)) {
			ret = -EPERM;
			break;
		}
	}
	rcu_read_unlock();
	return ret;
}

/*
 * Referenced threads of @p's group into @tv (room for @max); returns how
 * many, or @max + 1 if there were more.
 */
static unsigned int sp_lat_grab_threads(struct task_struct *p,
					struct task_struct **tv, unsigned int max)
{
	struct task_struct *t;
	unsigned int n = 0;

	rcu_read_lock();
	for_each_thread(p, t) {
		if (n == max) {
			n++;
			break;
		}
		get_task_struct(t);
		tv[n++] = t;
	}
	rcu_read_unlock();
	return n;
}

/*
 * The LSM's verdict on changing the scheduling of every thread of @p's
 * group, as sched_setattr() asks it for one thread (the calling task's
 * credentials, as the LSM hook reads them).  -EPERM if the hook could not
 * be resolved.
 */
static int sp_lat_lsm_group(struct task_struct *p)
{
	unsigned int max = get_nr_threads(p) + 16, n, i;
	struct task_struct **tv;
	int ret = 0;

	if (!IS_ENABLED(CONFIG_SECURITY))
		return 0;	/* no LSM: sched_setattr() asks nobody either */
	if (!sp_lat_lsm_setsched)
		return -EPERM;
	tv = kvmalloc_array(max, sizeof(*tv), GFP_KERNEL);
	if (!tv)
		return -ENOMEM;
	n = sp_lat_grab_threads(p, tv, max);
	if (n > max) {
		n = max;
		ret = -EAGAIN;	/* the group grew by more than 16 meanwhile */
	}
	for (i = 0; i < n; i++) {
		if (!ret)
			ret = sp_lat_lsm_setsched(tv[i]);
		put_task_struct(tv[i]);
	}
	kvfree(tv);
	return ret;
}

/*
 * May the file bind @p's whole thread group?  The owner rule (or
 * CAP_SYS_NICE) on every thread, then the LSM on every thread.
 */
static int sp_lat_may_bind(struct file *f, struct task_struct *p)
{
	return sp_lat_owner_group(f, p) ?: sp_lat_lsm_group(p);
}

/* The referenced tgid pid of the task numbered @nr for the caller, or ERR_PTR. */
static struct pid *sp_lat_target_of(struct file *f, s32 nr)
{
	struct task_struct *p;
	struct pid *pid;
	int ret;

	if (nr <= 0)
		return ERR_PTR(-EINVAL);
	pid = find_get_pid(nr);
	p = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	put_pid(pid);
	if (!p)
		return ERR_PTR(-ESRCH);
	ret = sp_lat_may_bind(f, p);
	pid = ret ? ERR_PTR(ret) : get_pid(task_tgid(p));
	put_task_struct(p);
	return pid;
}

static long sp_lat_retarget(struct sp_lat_file *fl, struct pid *pid, bool thread)
{
	long ret = 0;

	mutex_lock(&sp_lat_lock);
	if (fl->e) {
		ret = -EBUSY;
		put_pid(pid);
	} else {
		put_pid(fl->target);
		fl->target = pid;
		fl->thread = thread;
	}
	mutex_unlock(&sp_lat_lock);
	return ret;
}

static long sp_lat_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct sp_lat_file *fl = f->private_data;
	struct pid *pid;
	s32 nr;

	switch (cmd) {
	case SP_LAT_IOC_THREAD:
		return sp_lat_retarget(fl, get_pid(task_pid(current)), true);
	case SP_LAT_IOC_PID:
		if (get_user(nr, (s32 __user *)arg))
			return -EFAULT;
		pid = sp_lat_target_of(f, nr);
		if (IS_ERR(pid))
			return PTR_ERR(pid);
		return sp_lat_retarget(fl, pid, false);
	default:
		return -ENOTTY;
	}
}

static int sp_lat_open(struct inode *inode, struct file *f)
{
	/* any user may open the device: charge the file's state to its memcg */
	struct sp_lat_file *fl = kzalloc(sizeof(*fl), GFP_KERNEL_ACCOUNT);

	if (!fl)
		return -ENOMEM;
	fl->opener = get_pid(task_tgid(current));
	fl->target = get_pid(task_tgid(current));
	fl->privileged = file_ns_capable(f, &init_user_ns, CAP_SYS_NICE);
	fl->uid = sp_lat_charge_uid(f->f_cred);
	f->private_data = fl;
	mutex_lock(&sp_lat_lock);
	list_add_tail(&fl->link, &sp_lat_files);
	sp_lat_nr_files++;
	mutex_unlock(&sp_lat_lock);
	return nonseekable_open(inode, f);
}

static int sp_lat_release(struct inode *inode, struct file *f)
{
	struct sp_lat_file *fl = f->private_data;
	bool held;

	mutex_lock(&sp_lat_lock);
	held = fl->e;
	if (held)
		sp_lat_unhold(fl);
	list_del(&fl->link);
	sp_lat_nr_files--;
	mutex_unlock(&sp_lat_lock);
	put_pid(fl->target);
	put_pid(fl->opener);
	kfree(fl);
	if (held)
		sp_lat_qos_schedule();
	return 0;
}

static const struct file_operations sp_lat_fops = {
	.owner = THIS_MODULE,
	.open = sp_lat_open,
	.release = sp_lat_release,
	.read = sp_lat_read,
	.write = sp_lat_write,
	.unlocked_ioctl = sp_lat_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice sp_lat_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "sched_power_latency",
	.fops = &sp_lat_fops,
	.mode = 0666,	/* Documentation/latency.rst: the permission model */
};

/* ---- debugfs: latency -------------------------------------------------- */

/* @pid as the reader's namespace numbers it, 0 if exited or not visible. */
static pid_t sp_lat_nr_of(struct pid *pid, enum pid_type type,
			  struct pid_namespace *ns)
{
	return pid_task(pid, type) ? pid_nr_ns(pid, ns) : 0;
}

static void sp_lat_show_entry(struct seq_file *sf, const struct sp_lat_entry *e,
			      struct pid_namespace *ns, u32 *hidden)
{
	pid_t nr = sp_lat_nr_of(e->pid, e->thread ? PIDTYPE_PID : PIDTYPE_TGID, ns);

	if (!nr) {
		(*hidden)++;	/* exited, or not visible from this namespace */
		return;
	}
	seq_printf(sf, "%d %s %u %u\n", nr, e->thread ? "thread" : "process",
		   e->bound_us, e->nr_holds);
}

static void sp_lat_show_file(struct seq_file *sf, const struct sp_lat_file *fl,
			     struct pid_namespace *ns)
{
	pid_t opener = sp_lat_nr_of(fl->opener, PIDTYPE_TGID, ns);
	pid_t target = sp_lat_nr_of(fl->target,
				    fl->thread ? PIDTYPE_PID : PIDTYPE_TGID, ns);

	seq_printf(sf, "file %d %d %s %u %u %u %s\n", opener, target,
		   fl->thread ? "thread" : "process",
		   fl->e ? fl->bound_us : 0, fl->e ? fl->asked_us : 0,
		   from_kuid_munged(current_user_ns(), fl->uid),
		   fl->privileged ? "nice" : "user");
}

static int sp_lat_seq_show(struct seq_file *sf, void *v)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	const struct sp_lat_entry *e;
	const struct sp_lat_file *fl;
	const struct sp_lat_user *u;
	unsigned int bkt, cpu;
	u32 hidden = 0;

	mutex_lock(&sp_lat_lock);
	seq_printf(sf, "# entries %u holds %u files %u floor_us %u passes %llu pass_us %llu qos_updates %llu\n",
		   sp_lat_nr, sp_lat_holds, sp_lat_nr_files, sp_lat_floor_now(),
		   sp_lat_passes, div_u64(sp_lat_pass_ns, NSEC_PER_USEC),
		   sp_lat_qos_updates);
	seq_puts(sf, "# pid kind bound_us holds\n");
	rcu_read_lock();
	hash_for_each(sp_lat_hash, bkt, e, node)
		sp_lat_show_entry(sf, e, ns, &hidden);
	seq_printf(sf, "# hidden %u\n", hidden);
	seq_puts(sf, "# file opener_pid target_pid kind bound_us asked_us uid rights\n");
	list_for_each_entry(fl, &sp_lat_files, link)
		sp_lat_show_file(sf, fl, ns);
	rcu_read_unlock();
	hash_for_each(sp_lat_users, bkt, u, node)
		seq_printf(sf, "# user %u holds %u cpus %u\n",
			   from_kuid_munged(current_user_ns(), u->uid),
			   u->nr_holds, u->cpus.nr);
	for_each_possible_cpu(cpu)
		seq_printf(sf, "# cpu %u resume_latency_us %d\n", cpu,
			   per_cpu(sp_lat_cpu, cpu).applied_us);
	mutex_unlock(&sp_lat_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sp_lat_seq);

/**
 * sp_lat_debugfs() - create the debugfs file "latency" (the table)
 * @root: sched_power's debugfs directory
 */
void sp_lat_debugfs(struct dentry *root)
{
	debugfs_create_file("latency", 0444, root, NULL, &sp_lat_seq_fops);
}

/* ---- init, exit -------------------------------------------------------- */

static void sp_lat_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_migrate_task"))
		sp_lat_migrate_tp = tp;
}

/*
 * security_task_setscheduler() for SP_LAT_IOC_PID.  Not exported; where
 * IBT is on, a function whose landing pad the kernel sealed (never called
 * indirectly) would fault when called through a pointer, so it counts as
 * unresolved.  Without CONFIG_SECURITY it is an inline that allows
 * everything, and there is nothing to resolve.
 */
static void sp_lat_lsm_resolve(void)
{
	unsigned long addr;

	if (!IS_ENABLED(CONFIG_SECURITY))
		return;
	addr = sp_redirect_lookup("security_task_setscheduler");

#ifdef CONFIG_X86_KERNEL_IBT
	if (addr && cpu_feature_enabled(X86_FEATURE_IBT) && !is_endbr(*(u32 *)addr))
		addr = 0;
#endif
	if (!addr)
		pr_warn("security_task_setscheduler() not callable: SP_LAT_IOC_PID refused\n");
	sp_lat_lsm_setsched = (int (*)(struct task_struct *))addr;
}

/*
 * The sched_migrate_task probe is registered while the mode is not off:
 * mode=off leaves every migration without a call into the module.  The
 * exit waits for the probe (tracepoint_synchronize_unregister()).
 */
static int sp_lat_migrate_sync(void)
{
	bool want = sp_knob_mode() != SP_MODE_OFF;
	int ret = 0;

	lockdep_assert_held(&sp_lat_lock);
	if (want && !sp_lat_migrate_on) {
		ret = tracepoint_probe_register(sp_lat_migrate_tp,
						sp_lat_migrate_probe, NULL);
		sp_lat_migrate_on = !ret;
	} else if (!want && sp_lat_migrate_on) {
		tracepoint_probe_unregister(sp_lat_migrate_tp,
					    sp_lat_migrate_probe, NULL);
		sp_lat_migrate_on = false;
	}
	return ret;
}

/* Remove the sched_migrate_task probe if it is in, and wait for its callers. */
static void sp_lat_migrate_unhook(void)
{
	mutex_lock(&sp_lat_lock);
	if (sp_lat_migrate_on)
		tracepoint_probe_unregister(sp_lat_migrate_tp,
					    sp_lat_migrate_probe, NULL);
	sp_lat_migrate_on = false;
	mutex_unlock(&sp_lat_lock);
	tracepoint_synchronize_unregister();
}

static int sp_lat_knob_event(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	int ret;

	mutex_lock(&sp_lat_lock);
	ret = sp_lat_migrate_sync();
	mutex_unlock(&sp_lat_lock);
	return sp_knob_answer(action == SP_KNOB_APPLY, ret,
			      "sched_migrate_task not hooked",
			      "bounded tasks moved by the balancer are seen at the next pass");
}

static struct notifier_block sp_lat_knob_nb = {
	.notifier_call = sp_lat_knob_event,
};

/* Find sched_migrate_task, hook it unless the mode is off, follow the mode. */
static int sp_lat_migrate_register(void)
{
	int ret;

	for_each_kernel_tracepoint(sp_lat_find_tp, NULL);
	if (!sp_lat_migrate_tp) {
		pr_err("tracepoint sched_migrate_task not found\n");
		return -ENOENT;
	}
	mutex_lock(&sp_lat_lock);
	ret = sp_lat_migrate_sync();
	mutex_unlock(&sp_lat_lock);
	if (!ret)
		ret = sp_knob_subscribe(&sp_lat_knob_nb);
	if (ret)
		sp_lat_migrate_unhook();
	return ret;
}

static void sp_lat_free(void)
{
	free_cpumask_var(sp_lat_recent);
	free_cpumask_var(sp_lat_all);
	kfree(sp_lat_want);
}

/**
 * sp_lat_init() - set up the bound table and the QoS pass; no device yet
 *
 * Return: 0, or a negative errno with nothing left behind.
 */
int sp_lat_init(void)
{
	unsigned int cpu;
	int ret;

	sp_lat_want = kcalloc(nr_cpu_ids, sizeof(*sp_lat_want), GFP_KERNEL);
	if (!sp_lat_want || !zalloc_cpumask_var(&sp_lat_all, GFP_KERNEL) ||
	    !zalloc_cpumask_var(&sp_lat_recent, GFP_KERNEL)) {
		sp_lat_free();
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu)
		per_cpu(sp_lat_cpu, cpu).applied_us = -1;
	sp_lat_lsm_resolve();
	ret = sp_lat_migrate_register();
	if (ret)
		sp_lat_free();
	return ret;
}

/**
 * sp_lat_dev_register() - create /dev/sched_power_latency, last in init
 *
 * Return: 0 or misc_register()'s error.  Once the device exists an open()
 * can hold the module, so no init step may follow this one that can fail.
 */
int sp_lat_dev_register(void)
{
	int ret = misc_register(&sp_lat_misc);

	if (ret)
		pr_err("misc_register(sched_power_latency): %d\n", ret);
	return ret;
}

/**
 * sp_lat_dev_unregister() - remove /dev/sched_power_latency
 *
 * The first step of module exit.  No file is open: each holds a module
 * reference, so exit cannot start while one is.
 */
void sp_lat_dev_unregister(void)
{
	misc_deregister(&sp_lat_misc);
}

/**
 * sp_lat_exit() - remove every request and free the table
 *
 * After the wake-up hook is gone and the device is unregistered.
 */
void sp_lat_exit(void)
{
	sp_knob_unsubscribe(&sp_lat_knob_nb);
	sp_lat_migrate_unhook();
	irq_work_sync(&sp_lat_iw);
	cancel_delayed_work_sync(&sp_lat_qos_work);
	mutex_lock(&sp_lat_lock);
	WARN_ON_ONCE(sp_lat_nr || sp_lat_nr_files);
	sp_lat_qos_pass();	/* empty table: removes every request */
	mutex_unlock(&sp_lat_lock);
	rcu_barrier();		/* entries queued with call_rcu() */
	sp_lat_free();
}
