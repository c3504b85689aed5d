// SPDX-License-Identifier: GPL-2.0
/*
 * pm_qos.c - application latency bounds without keeping every CPU awake.
 *
 * DOC: per-task wake-up latency bounds
 *
 * The usual way for an application to ask for low wake-up latency is
 * /dev/cpu_dma_latency (cpu_latency_qos), which forbids deep C-states on
 * every CPU of the system.  sched_power narrows it to the tasks that asked and
 * to one CPU:
 *
 *  - `task_latency` holds up to SP_LAT_MAX "tgid latency_us" entries.  At
 *    every wake-up of a listed task the placement core only considers CPUs
 *    whose modelled wake-up latency (exit latency of their idle state plus that
 *    of every idle group above them) fits the bound.
 *  - So that such a CPU exists, one CPU, `latency_cpu`, carries a device PM
 *    QoS resume-latency request equal to the smallest bound in the table;
 *    cpuidle governors keep that CPU in states that wake in time, and every
 *    other CPU may still sleep as deeply as it likes.  With an empty table the
 *    request is "no constraint".
 *
 * The table is replaced whole under a mutex and published with RCU; the
 * wake-up hook only scans it (a handful of entries, and nothing at all when
 * it is empty).  PM QoS calls happen in process context, in the sysfs stores.
 * Entries are keyed by thread-group id, so every thread of a process shares
 * its bound; an entry outlives its process until it is removed (write
 * "PID 0"), and a reused PID inherits it: documented, not guessed around.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/pm_qos.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "sched_power.h"

#define SP_LAT_MAX	32

struct sp_lat_table {
	struct rcu_head rcu;
	int nr;
	pid_t tgid[SP_LAT_MAX];
	u32 latency_us[SP_LAT_MAX];
};

static struct sp_lat_table __rcu *sp_lat;
static DEFINE_MUTEX(sp_lat_lock);	/* writers of sp_lat and the QoS request */
static struct dev_pm_qos_request sp_lat_req;
static int sp_lat_cpu = -1;		/* CPU holding sp_lat_req, -1 none */
static unsigned int sp_lat_cpu_want;	/* `latency_cpu` knob */
static s32 sp_lat_applied_us = -1;	/* value of sp_lat_req, -1 none */

u32 sp_task_latency_us(const struct task_struct *p)
{
	const struct sp_lat_table *t;
	u32 us = 0;
	int i;

	t = rcu_dereference(sp_lat);
	if (!t)
		return 0;
	for (i = 0; i < t->nr; i++) {
		if (t->tgid[i] == p->tgid) {
			us = t->latency_us[i];
			break;
		}
	}
	return us;
}

static s32 sp_lat_min_us(const struct sp_lat_table *t)
{
	s32 best = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
	int i;

	for (i = 0; t && i < t->nr; i++)
		if (t->latency_us[i] < (u32)best)
			best = t->latency_us[i];
	return best;
}

/* Move or update the resume-latency request; caller holds sp_lat_lock. */
static int sp_lat_apply_qos(const struct sp_lat_table *t)
{
	s32 want = sp_lat_min_us(t);
	struct device *dev;
	int ret;

	if (sp_lat_cpu >= 0 && (sp_lat_cpu != sp_lat_cpu_want ||
				want == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)) {
		dev_pm_qos_remove_request(&sp_lat_req);
		sp_lat_cpu = -1;
	}
	if (want == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT) {
		sp_lat_applied_us = -1;
		return 0;
	}
	if (sp_lat_cpu >= 0) {
		ret = dev_pm_qos_update_request(&sp_lat_req, want);
		if (ret < 0)
			return ret;
		sp_lat_applied_us = want;
		return 0;
	}
	dev = get_cpu_device(sp_lat_cpu_want);
	if (!dev)
		return -ENODEV;
	ret = dev_pm_qos_add_request(dev, &sp_lat_req, DEV_PM_QOS_RESUME_LATENCY, want);
	if (ret < 0)
		return ret;
	sp_lat_cpu = sp_lat_cpu_want;
	sp_lat_applied_us = want;
	return 0;
}

/* Copy @old, set tgid's bound (0 removes), publish; caller holds the lock. */
static int sp_lat_set(pid_t tgid, u32 us)
{
	struct sp_lat_table *old, *new;
	int i, j = 0;

	old = rcu_dereference_protected(sp_lat, lockdep_is_held(&sp_lat_lock));
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	for (i = 0; old && i < old->nr; i++) {
		if (old->tgid[i] == tgid)
			continue;
		new->tgid[j] = old->tgid[i];
		new->latency_us[j++] = old->latency_us[i];
	}
	if (us) {
		if (j == SP_LAT_MAX) {
			kfree(new);
			return -ENOSPC;
		}
		new->tgid[j] = tgid;
		new->latency_us[j++] = us;
	}
	new->nr = j;
	rcu_assign_pointer(sp_lat, new);
	if (old)
		kfree_rcu(old, rcu);
	return sp_lat_apply_qos(new);
}

static ssize_t task_latency_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	const struct sp_lat_table *t;
	ssize_t n = 0;
	int i;

	n += sysfs_emit_at(buf, n, "# tgid latency_us; resume-latency request on cpu %d: %d us\n",
			   sp_lat_cpu, sp_lat_applied_us);
	rcu_read_lock();
	t = rcu_dereference(sp_lat);
	for (i = 0; t && i < t->nr; i++)
		n += sysfs_emit_at(buf, n, "%d %u\n", t->tgid[i], t->latency_us[i]);
	rcu_read_unlock();
	return n;
}

/* "PID US": set the bound of PID's thread group; US = 0 removes it. */
static ssize_t task_latency_store(struct kobject *k, struct kobj_attribute *a,
				  const char *buf, size_t count)
{
	struct task_struct *p;
	struct pid *spid;
	pid_t tgid = 0;
	int pid, ret;
	u32 us;
	char c;

	if (sscanf(buf, "%d %u %c", &pid, &us, &c) != 2 || pid <= 0 || us > 10000000)
		return -EINVAL;
	spid = find_get_pid(pid);
	p = spid ? get_pid_task(spid, PIDTYPE_PID) : NULL;
	if (p) {
		tgid = p->tgid;
		put_task_struct(p);
	}
	put_pid(spid);
	if (!tgid && us)
		return -ESRCH;
	mutex_lock(&sp_lat_lock);
	ret = sp_lat_set(tgid ? tgid : pid, us);
	mutex_unlock(&sp_lat_lock);
	return ret ? ret : count;
}

static ssize_t latency_cpu_show(struct kobject *k, struct kobj_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(sp_lat_cpu_want));
}

static ssize_t latency_cpu_store(struct kobject *k, struct kobj_attribute *a,
				 const char *buf, size_t count)
{
	unsigned int cpu;
	int ret = kstrtouint(buf, 0, &cpu);

	if (ret)
		return ret;
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu) || !get_cpu_device(cpu))
		return -EINVAL;
	mutex_lock(&sp_lat_lock);
	sp_lat_cpu_want = cpu;
	ret = sp_lat_apply_qos(rcu_dereference_protected(sp_lat,
							 lockdep_is_held(&sp_lat_lock)));
	mutex_unlock(&sp_lat_lock);
	return ret ? ret : count;
}

static struct kobj_attribute task_latency_attr = __ATTR_RW(task_latency);
static struct kobj_attribute latency_cpu_attr = __ATTR_RW(latency_cpu);

static struct attribute *sp_lat_attrs[] = {
	&task_latency_attr.attr,
	&latency_cpu_attr.attr,
	NULL,
};

const struct attribute_group sp_qos_group = {
	.attrs = sp_lat_attrs,
};

int sp_qos_init(void)
{
	sp_lat_cpu_want = cpumask_first(cpu_online_mask);
	return 0;
}

/* After the hook is gone: drop the request and the table. */
void sp_qos_exit(void)
{
	struct sp_lat_table *t;

	mutex_lock(&sp_lat_lock);
	if (sp_lat_cpu >= 0)
		dev_pm_qos_remove_request(&sp_lat_req);
	sp_lat_cpu = -1;
	sp_lat_applied_us = -1;
	t = rcu_dereference_protected(sp_lat, lockdep_is_held(&sp_lat_lock));
	RCU_INIT_POINTER(sp_lat, NULL);
	mutex_unlock(&sp_lat_lock);
	synchronize_rcu();
	kfree(t);
	rcu_barrier();	/* earlier tables queued with kfree_rcu() */
}
