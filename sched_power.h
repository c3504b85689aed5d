/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the module's kernel files.
 *
 * Each kernel file is a door onto one kernel subsystem; the decision logic
 * lives in the pure core (core/).  Dependencies point one way: the wake-up
 * hook reads the policy, the model, the snapshot and the latency bounds;
 * the model publishes changes to whoever subscribed.  sched_power.c only
 * composes: it initialises every part, then creates the user interface
 * (sysfs, debugfs) last, and removes that interface first.
 *
 *	sched_power.c	module init/exit, the sysfs and debugfs roots
 *	policy.c	the knobs the decision reads (mode, margins, ...)
 *	select_hook.c	the select_task_rq_fair hook, decisions, stats
 *	energy_model.c	the live energy model: publication by RCU, its text,
 *			subscribers, model_file= at insmod
 *	em_defaults.c	the default model from the kernel's tables
 *	model_file.c	the sysfs model file: staged writes, read snapshots
 *	cpuidle_hook.c	power:cpu_idle probes, snapshot, idle and energy
 *	latency.c	per-task latency bounds (/dev/sched_power_latency),
 *			per-CPU resume-latency QoS
 *	opp_floor.c	power mode's OPP floor through cpufreq's frequency QoS
 */
#ifndef SCHED_POWER_H
#define SCHED_POWER_H

#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/sched.h>
#include <linux/sysfs.h>
#include "core/sp_place.h"

#define SP_VERSION "0.3.0"

struct dentry;
struct notifier_block;

/* policy.c */
extern const struct attribute_group sp_policy_group;
/* A consistent copy of the knobs the decision reads; any context. */
void sp_policy_read(struct sp_policy *pol);
/* Is wake type @wake (enum sp_wake) handled?  Any context. */
bool sp_policy_wants(u32 wake);
int sp_policy_init(const char *mode_param);
/* Is the opp_floor knob set?  Any context. */
bool sp_policy_opp_floor(void);
/*
 * A write of a knob is published on a blocking notifier chain, after the
 * new value is visible, in the writer's process context (no lock held).
 */
int sp_policy_subscribe(struct notifier_block *nb);
void sp_policy_unsubscribe(struct notifier_block *nb);

/* select_hook.c */
extern const struct attribute_group sp_stats_group;
extern const struct attribute_group sp_hook_group;
int sp_hook_init(void);
void sp_hook_exit(void);
void sp_hook_debugfs(struct dentry *root);

/* What one decision reports to the sched_power_select trace event. */
struct sp_select_rec {
	u32 util;		/* task utilisation the decision used, 0..1024 */
	s32 prev_cpu, cfs_cpu, policy_cpu, ret_cpu;
	u8 applied;		/* ret_cpu is policy_cpu because the mode acts */
	u8 wake;		/* enum sp_wake */
	u8 mode;		/* enum sp_mode */
	u8 reason;		/* enum sp_reason */
	s64 cfs_nj, chosen_nj;	/* total energy of cfs_cpu and policy_cpu */
	s64 busy_nj, idle_nj, wake_nj, pstate_nj;	/* terms of policy_cpu */
	s64 static_nj, future_nj;			/* and its group terms */
	u32 lat_bound_us;	/* latency bound applied, 0 = none */
	u32 wake_lat_us;	/* modelled wake-up latency of policy_cpu, us */
	u8 lat_miss;		/* a bound applied and no allowed CPU met it */
	u8 queued;		/* policy_cpu runs or has work in flight */
	u32 queue_us;		/* the expected-wait part of wake_lat_us */
};

/* energy_model.c, em_defaults.c */
/* Build the default model from the kernel's tables; @src says from which. */
int sp_em_build_default(struct sp_model *m, char *src, size_t src_len);
/* Notifier actions of a model change (see energy_model.c's DOC). */
#define SP_MODEL_PREPARE	1
#define SP_MODEL_CHANGED	2
int sp_em_init(void);
void sp_em_exit(void);
/*
 * The published model; call under rcu_read_lock() (or with preemption or
 * IRQs disabled, as in the wake-up hook or a tracepoint probe) and do not
 * keep it past that section.  Never NULL between sp_em_init() and
 * sp_em_exit().
 */
const struct sp_model *sp_em_model(void);
/*
 * Model changes are published on a notifier chain: the callback gets the
 * new model (at SP_MODEL_CHANGED already visible to readers, the old one
 * not yet freed) in process context with the model's writer mutex held,
 * which also guards the chain; it must not write the model, nor
 * subscribe.  Register during init, unregister during exit.
 */
int __must_check sp_em_subscribe(struct notifier_block *nb);
void sp_em_unsubscribe(struct notifier_block *nb);
/*
 * The text of a published model: sp_model_format() of it and where it came
 * from.  Immutable; reference-counted, so that a reader of the model file
 * keeps the one it started on while the model changes.
 */
struct sp_em_text {
	struct kref ref;
	size_t len;		/* bytes in buf, without the NUL */
	char src[64];		/* model_source: "opp=... idle=... topology=..." */
	char buf[];		/* the text, NUL-terminated */
};

struct sp_em_text *sp_em_text_get(void);
void sp_em_text_put(struct sp_em_text *t);
int sp_em_apply_text(const char *text, size_t len, const char *how,
		     const char *src, struct sp_em_text **published);
int sp_em_restore_text(const struct sp_em_text *cur, const struct sp_em_text *prev);

/* model_file.c */
extern const struct attribute_group sp_mfile_group;
void sp_mfile_exit(void);

/* cpuidle_hook.c */
extern const struct attribute_group sp_idle_group;
extern const struct attribute_group sp_energy_group;
int sp_idle_init(void);
void sp_idle_exit(void);
void sp_idle_debugfs(struct dentry *root);
/* The live snapshot the placement hook reads; valid between init and exit. */
struct sp_state *sp_idle_state(void);
/* The time base of the snapshot (ns); cheap, usable with IRQs off. */
u64 sp_now_ns(void);

/* opp_floor.c */
int sp_floor_init(void);
void sp_floor_exit(void);
void sp_floor_debugfs(struct dentry *root);

/* latency.c */
int sp_lat_init(void);
void sp_lat_exit(void);
void sp_lat_debugfs(struct dentry *root);
/*
 * The wake-up latency bound in force for @p (its thread's or its thread
 * group's, the smaller), 0 if none.  RCU read side, lock-free, any context.
 */
u32 sp_task_latency_us(const struct task_struct *p);
/*
 * The hook placed a task with its own bound @bound_us on @cpu (it was on
 * @prev_cpu): queue a QoS pass if that CPU's request may be missing or too
 * loose, or the old one stale.  IRQs-off safe (irq_work).
 */
void sp_lat_placed(u32 bound_us, int prev_cpu, int cpu);

#endif /* SCHED_POWER_H */
