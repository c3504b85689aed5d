/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_power.h - interfaces between the module's kernel files.
 *
 * sched_power.c	module init/exit, sysfs knobs, the wake-up kretprobe
 * energy_model.c	the live energy model: defaults at insmod, sysfs
 *			read/write, RCU publication
 * cpuidle_hook.c	power:cpu_idle probes, the live snapshot, idle and
 *			energy accounting
 * pm_qos.c		per-task latency bounds, one CPU's resume-latency QoS
 */
#ifndef SCHED_POWER_H
#define SCHED_POWER_H

#include <linux/kobject.h>
#include <linux/sched.h>
#include "core/sp_place.h"

#define SP_VERSION "0.1.0"

/* energy_model.c */
int sp_em_init(struct kobject *kobj);
void sp_em_exit(void);
/*
 * The published model; call under rcu_read_lock() (or with preemption or
 * IRQs disabled, as in a kretprobe or tracepoint probe) and do not keep it
 * past that section.  Never NULL between sp_em_init() and sp_em_exit().
 */
const struct sp_model *sp_em_model(void);

/* cpuidle_hook.c */
int sp_idle_init(struct kobject *kobj);
void sp_idle_exit(void);
/* The live snapshot the placement hook reads; valid between init and exit. */
struct sp_state *sp_idle_state(void);
/* The time base of the snapshot (ns); cheap, usable with IRQs off. */
u64 sp_now_ns(void);
/*
 * energy_model.c calls this, in process context with its writer mutex held,
 * after publishing @m and before freeing the old model: resynchronise the
 * snapshot's group counters and per-state statistics with @m.
 */
void sp_idle_model_changed(const struct sp_model *m);
/* CPU hotplug (process context): hold @cpu idle while it is offline. */
void sp_idle_cpu_offline(unsigned int cpu);
void sp_idle_cpu_online(unsigned int cpu);

/* pm_qos.c */
int sp_qos_init(struct kobject *kobj);
void sp_qos_exit(struct kobject *kobj);
/* The wake-up latency bound registered for @p's thread group, 0 if none. */
u32 sp_task_latency_us(const struct task_struct *p);

#endif /* SCHED_POWER_H */
