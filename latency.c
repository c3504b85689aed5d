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
 * (SP_LAT_IOC_THREAD), or another process (SP_LAT_IOC_PID, with
 * sched_setattr's permission rule), chosen before the first write.
 *
 * Each open file with a bound is one entry of an RCU hash keyed by the
 * target's struct pid, which the entry holds a reference on; the wake-up
 * hook looks up task_pid(p) and task_tgid(p) and compares pointers, so a
 * reused PID number never inherits a bound, and it takes no lock and
 * allocates nothing.  Entries never dereference their pid in the hook; a
 * target that exits while the file stays open simply never matches again.
 * At most SP_LAT_MAX_ENTRIES bounds are in force, SP_LAT_MAX_PER_UID per
 * user; past that a write fails with ENOSPC.  A bound below the floor (the
 * shallowest non-polling exit latency of the model plus
 * SP_LAT_FLOOR_MARGIN_US) is raised to it, so no task can ask for polling.
 *
 * The idle side: each CPU that a bounded task runs on or last ran on
 * carries a DEV_PM_QOS_RESUME_LATENCY request equal to the smallest bound
 * among those tasks; every other CPU keeps its deep states.  The hook only
 * notices that a bounded task moved, or landed on a CPU whose request is
 * missing or too loose, and queues an irq_work; that queues a delayed work
 * item, which recomputes every CPU's wish from the table (task_cpu() of
 * each target thread) and adds, updates or removes requests, at most once
 * per SP_LAT_QOS_INTERVAL_MS.  Unloading removes every request.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/pm_qos.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "sched_power.h"
#include "core/sp_lat.h"
#include "sched_power_latency.h"

#define SP_LAT_HASH_BITS	8
#define SP_LAT_QOS_INTERVAL_MS	10

/* One bound in force: one open file that has written a bound. */
struct sp_lat_entry {
	struct hlist_node node;	/* in sp_lat_hash, keyed by pid pointer */
	struct rcu_head rcu;
	struct pid *pid;	/* the target (referenced); compared, not read */
	bool thread;		/* pid names a thread, else a thread group */
	u32 bound_us;		/* in force: the request, floor applied */
	u32 asked_us;		/* as written */
	kuid_t uid;		/* the user charged for it */
};

/* An open file of the device. */
struct sp_lat_file {
	struct pid *target;	/* referenced */
	bool thread;
	struct sp_lat_entry *e;	/* NULL until the first valid write */
};

/* Per-CPU resume-latency request; written by the QoS work only. */
struct sp_lat_cpu {
	struct dev_pm_qos_request req;
	s32 applied_us;		/* value of req, -1 = no request */
};

static DEFINE_HASHTABLE(sp_lat_hash, SP_LAT_HASH_BITS);
static DEFINE_MUTEX(sp_lat_lock);	/* entries, requests, counters */
static u32 sp_lat_nr;			/* entries in force */
static u64 sp_lat_qos_updates;		/* requests added, updated, removed */
static unsigned long sp_lat_qos_last;	/* jiffies of the last QoS pass */
static u32 *sp_lat_want;		/* nr_cpu_ids wishes, QoS work only */
static DEFINE_PER_CPU(struct sp_lat_cpu, sp_lat_cpu);

static void sp_lat_qos_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(sp_lat_qos_work, sp_lat_qos_fn);

/* ---- the hot path ------------------------------------------------------ */

static u32 sp_lat_find(const struct pid *pid, bool thread)
{
	const struct sp_lat_entry *e;
	u32 us = 0;

	hash_for_each_possible_rcu(sp_lat_hash, e, node, (unsigned long)pid) {
		u32 b = READ_ONCE(e->bound_us);

		if (e->pid == pid && e->thread == thread && (!us || b < us))
			us = b;
	}
	return us;
}

static u32 sp_lat_min_set(u32 a, u32 b)
{
	if (!a)
		return b;
	return b && b < a ? b : a;
}

u32 sp_task_latency_us(const struct task_struct *p)
{
	struct task_struct *t = (struct task_struct *)p;

	if (!READ_ONCE(sp_lat_nr))
		return 0;
	return sp_lat_min_set(sp_lat_find(task_pid(t), true),
			      sp_lat_find(task_tgid(t), false));
}

static void sp_lat_iw_fn(struct irq_work *iw)
{
	unsigned long due = sp_lat_qos_last +
			    msecs_to_jiffies(SP_LAT_QOS_INTERVAL_MS);

	schedule_delayed_work(&sp_lat_qos_work,
			      time_after(due, jiffies) ? due - jiffies : 0);
}

static DEFINE_IRQ_WORK(sp_lat_iw, sp_lat_iw_fn);

void sp_lat_placed(u32 bound_us, int prev_cpu, int cpu)
{
	s32 applied;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return;
	applied = READ_ONCE(per_cpu(sp_lat_cpu, cpu).applied_us);
	if (cpu != prev_cpu || applied < 0 || applied > bound_us)
		irq_work_queue(&sp_lat_iw);
}

/* ---- the QoS pass (process context) ------------------------------------ */

static void sp_lat_fold_entry(const struct sp_lat_entry *e)
{
	struct task_struct *p, *t;

	p = pid_task(e->pid, e->thread ? PIDTYPE_PID : PIDTYPE_TGID);
	if (!p)
		return;
	if (e->thread) {
		sp_lat_fold(sp_lat_want, nr_cpu_ids, task_cpu(p), e->bound_us);
		return;
	}
	for_each_thread(p, t)
		sp_lat_fold(sp_lat_want, nr_cpu_ids, task_cpu(t), e->bound_us);
}

static void sp_lat_apply_cpu(unsigned int cpu, u32 want_us)
{
	struct sp_lat_cpu *c = per_cpu_ptr(&sp_lat_cpu, cpu);
	s32 v = want_us == SP_LAT_NONE ? -1 : (s32)want_us;
	struct device *dev;
	int ret;

	if (v == c->applied_us)
		return;
	if (v < 0) {
		ret = dev_pm_qos_remove_request(&c->req);
	} else if (c->applied_us >= 0) {
		ret = dev_pm_qos_update_request(&c->req, v);
	} else {
		dev = get_cpu_device(cpu);
		ret = dev ? dev_pm_qos_add_request(dev, &c->req,
						   DEV_PM_QOS_RESUME_LATENCY, v)
			  : -ENODEV;
	}
	if (ret < 0) {
		pr_warn_ratelimited("cpu%u resume-latency request %d us: %d\n",
				    cpu, v, ret);
		return;
	}
	WRITE_ONCE(c->applied_us, v);
	sp_lat_qos_updates++;
}

/* Recompute every CPU's wish from the table and apply it; lock held. */
static void sp_lat_qos_pass(void)
{
	const struct sp_lat_entry *e;
	unsigned int cpu, bkt;

	memset(sp_lat_want, 0, nr_cpu_ids * sizeof(*sp_lat_want));
	rcu_read_lock();
	hash_for_each_rcu(sp_lat_hash, bkt, e, node)
		sp_lat_fold_entry(e);
	rcu_read_unlock();
	for_each_possible_cpu(cpu)
		sp_lat_apply_cpu(cpu, sp_lat_want[cpu]);
	sp_lat_qos_last = jiffies;
}

static void sp_lat_qos_fn(struct work_struct *w)
{
	mutex_lock(&sp_lat_lock);
	sp_lat_qos_pass();
	mutex_unlock(&sp_lat_lock);
}

/* ---- the device -------------------------------------------------------- */

static u32 sp_lat_uid_count(kuid_t uid)
{
	const struct sp_lat_entry *e;
	unsigned int bkt;
	u32 n = 0;

	hash_for_each(sp_lat_hash, bkt, e, node)
		n += uid_eq(e->uid, uid);
	return n;
}

static u32 sp_lat_floor_now(void)
{
	u32 floor_us;

	rcu_read_lock();
	floor_us = sp_lat_floor_us(sp_em_model());
	rcu_read_unlock();
	return floor_us;
}

/* Set the file's bound to @us (floor applied); lock held. */
static int sp_lat_set(struct sp_lat_file *fl, u32 us)
{
	u32 bound_us = sp_lat_effective_us(us, sp_lat_floor_now());
	struct sp_lat_entry *e = fl->e;
	int ret;

	if (e) {
		WRITE_ONCE(e->bound_us, bound_us);
		e->asked_us = us;
		return 0;
	}
	ret = sp_lat_admit(sp_lat_nr, sp_lat_uid_count(current_euid()));
	if (ret)
		return ret;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->pid = get_pid(fl->target);
	e->thread = fl->thread;
	e->bound_us = bound_us;
	e->asked_us = us;
	e->uid = current_euid();
	hash_add_rcu(sp_lat_hash, &e->node, (unsigned long)e->pid);
	WRITE_ONCE(sp_lat_nr, sp_lat_nr + 1);
	fl->e = e;
	return 0;
}

static void sp_lat_kick(void)
{
	mod_delayed_work(system_wq, &sp_lat_qos_work, 0);
}

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
	ret = sp_lat_parse(buf, n, &us);
	if (ret)
		return ret;
	mutex_lock(&sp_lat_lock);
	ret = sp_lat_set(fl, us);
	mutex_unlock(&sp_lat_lock);
	if (ret)
		return ret;
	sp_lat_kick();
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

/* sched_setattr's rule: CAP_SYS_NICE, or the same owner. */
static bool sp_lat_may_target(struct task_struct *p)
{
	const struct cred *cred = current_cred(), *pcred;
	bool match;

	if (capable(CAP_SYS_NICE))
		return true;
	rcu_read_lock();
	pcred = __task_cred(p);
	match = uid_eq(cred->euid, pcred->euid) || uid_eq(cred->euid, pcred->uid);
	rcu_read_unlock();
	return match;
}

/* The referenced tgid pid of the task numbered @nr for the caller, or ERR_PTR. */
static struct pid *sp_lat_target_of(s32 nr)
{
	struct pid *pid, *tgid = ERR_PTR(-ESRCH);
	struct task_struct *p;

	if (nr <= 0)
		return ERR_PTR(-EINVAL);
	pid = find_get_pid(nr);
	p = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	put_pid(pid);
	if (!p)
		return tgid;
	tgid = sp_lat_may_target(p) ? get_pid(task_tgid(p)) : ERR_PTR(-EPERM);
	put_task_struct(p);
	return tgid;
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
		pid = sp_lat_target_of(nr);
		if (IS_ERR(pid))
			return PTR_ERR(pid);
		return sp_lat_retarget(fl, pid, false);
	default:
		return -ENOTTY;
	}
}

static int sp_lat_open(struct inode *inode, struct file *f)
{
	struct sp_lat_file *fl = kzalloc(sizeof(*fl), GFP_KERNEL);

	if (!fl)
		return -ENOMEM;
	fl->target = get_pid(task_tgid(current));
	f->private_data = fl;
	return nonseekable_open(inode, f);
}

static int sp_lat_release(struct inode *inode, struct file *f)
{
	struct sp_lat_file *fl = f->private_data;
	struct sp_lat_entry *e;

	mutex_lock(&sp_lat_lock);
	e = fl->e;
	if (e) {
		hash_del_rcu(&e->node);
		WRITE_ONCE(sp_lat_nr, sp_lat_nr - 1);
		/* readers compare e->pid, never dereference it */
		put_pid(e->pid);
		kfree_rcu(e, rcu);
	}
	mutex_unlock(&sp_lat_lock);
	put_pid(fl->target);
	kfree(fl);
	if (e)
		sp_lat_kick();
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
	.mode = 0666,	/* Documentation/latency.rst: why every user */
};

/* ---- debugfs: latency -------------------------------------------------- */

static void sp_lat_show_entry(struct seq_file *sf, const struct sp_lat_entry *e,
			      struct pid_namespace *ns, u32 *hidden)
{
	enum pid_type type = e->thread ? PIDTYPE_PID : PIDTYPE_TGID;
	pid_t nr = pid_task(e->pid, type) ? pid_nr_ns(e->pid, ns) : 0;

	if (!nr) {
		(*hidden)++;	/* exited, or not visible from this namespace */
		return;
	}
	seq_printf(sf, "%d %s %u %u %u\n", nr, e->thread ? "thread" : "process",
		   e->bound_us, e->asked_us, from_kuid_munged(current_user_ns(), e->uid));
}

static int sp_lat_seq_show(struct seq_file *sf, void *v)
{
	struct pid_namespace *ns = task_active_pid_ns(current);
	const struct sp_lat_entry *e;
	unsigned int bkt, cpu;
	u32 hidden = 0;

	mutex_lock(&sp_lat_lock);
	seq_printf(sf, "# entries %u floor_us %u qos_updates %llu\n",
		   sp_lat_nr, sp_lat_floor_now(), sp_lat_qos_updates);
	seq_puts(sf, "# pid kind bound_us asked_us uid\n");
	rcu_read_lock();
	hash_for_each_rcu(sp_lat_hash, bkt, e, node)
		sp_lat_show_entry(sf, e, ns, &hidden);
	rcu_read_unlock();
	seq_printf(sf, "# hidden %u\n", hidden);
	for_each_possible_cpu(cpu)
		seq_printf(sf, "# cpu %u resume_latency_us %d\n", cpu,
			   per_cpu(sp_lat_cpu, cpu).applied_us);
	mutex_unlock(&sp_lat_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sp_lat_seq);

void sp_lat_debugfs(struct dentry *root)
{
	debugfs_create_file("latency", 0444, root, NULL, &sp_lat_seq_fops);
}

/* ---- init, exit -------------------------------------------------------- */

int sp_lat_init(void)
{
	unsigned int cpu;
	int ret;

	sp_lat_want = kcalloc(nr_cpu_ids, sizeof(*sp_lat_want), GFP_KERNEL);
	if (!sp_lat_want)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		per_cpu(sp_lat_cpu, cpu).applied_us = -1;
	ret = misc_register(&sp_lat_misc);
	if (ret) {
		pr_err("misc_register(sched_power_latency): %d\n", ret);
		kfree(sp_lat_want);
	}
	return ret;
}

/* After the hook is gone; no file is open (each holds a module reference). */
void sp_lat_exit(void)
{
	misc_deregister(&sp_lat_misc);
	irq_work_sync(&sp_lat_iw);
	cancel_delayed_work_sync(&sp_lat_qos_work);
	mutex_lock(&sp_lat_lock);
	WARN_ON_ONCE(sp_lat_nr);
	sp_lat_qos_pass();	/* empty table: removes every request */
	mutex_unlock(&sp_lat_lock);
	rcu_barrier();		/* entries queued with kfree_rcu() */
	kfree(sp_lat_want);
}
