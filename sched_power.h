/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the module's kernel files.
 *
 * Each kernel file is a door onto one kernel subsystem; the decision logic
 * lives in the pure core (core/).  Dependencies point one way: the wake-up
 * hook reads the knobs, the model, the snapshot and the latency bounds;
 * the model publishes changes to whoever subscribed.  sched_power.c only
 * composes: it initialises every part, then creates the user interface
 * (sysfs, debugfs) last, and removes that interface first.
 *
 *	sched_power.c	module init/exit, the sysfs and debugfs roots
 *	knobs.c		the knobs the decision reads (mode, margins, ...)
 *	redirect.c	the ftrace redirect the hooks are built on
 *	select_hook.c	the select_task_rq_fair hook and its decision
 *	select_stats.c	the decision counters (stats/, debugfs stats)
 *	energy_model.c	the live energy model: publication by RCU, its text,
 *			subscribers, model_file= at insmod
 *	em_defaults.c	the default model from the kernel's tables
 *	model_file.c	the sysfs model file: staged writes, read snapshots
 *	cpuidle_hook.c	power:cpu_idle probes, the snapshot, hotplug
 *	idle_stats.c	idle and energy readouts (idle/, energy_uj, debugfs)
 *	latency.c	per-task latency bounds (/dev/sched_power_latency),
 *			per-CPU resume-latency QoS
 *	opp_floor.c	power mode's OPP floor through cpufreq's frequency QoS
 */
#ifndef SCHED_POWER_H
#define SCHED_POWER_H

#include <linux/ftrace.h>
#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sysfs.h>
#include <linux/u64_stats_sync.h>
#include "core/sp_place.h"

#define SP_VERSION "0.4.0"

struct dentry;
struct notifier_block;

/* knobs.c */
extern const struct attribute_group sp_knob_group;
void sp_knob_snapshot(struct sp_knobs *knobs);
bool sp_knob_wants(u32 wake);
u32 sp_knob_mode(void);
int sp_knob_init(const char *mode_param);
bool sp_knob_floor_on(void);
int sp_knob_subscribe(struct notifier_block *nb);
void sp_knob_unsubscribe(struct notifier_block *nb);

/* redirect.c */
/**
 * struct sp_redirect - one kernel function sent to a module wrapper
 * @names: the function's names, NULL-terminated, tried in order (a
 *	   function renamed across kernel versions)
 * @wrapper: the wrapper's address; it calls @orig
 * @orig: the original's entry, set by sp_redirect_register()
 * @name: the name that was found
 * @filtered: the ops's filter is set (sp_redirect_release() frees it)
 * @ops: the IPMODIFY ftrace_ops
 */
struct sp_redirect {
	const char *const *names;
	unsigned long wrapper;
	unsigned long orig;
	const char *name;
	bool filtered;
	struct ftrace_ops ops;
};

unsigned long sp_redirect_lookup(const char *name);
int sp_redirect_register(struct sp_redirect *r);
void sp_redirect_unregister(struct sp_redirect *r);
void sp_redirect_release(struct sp_redirect *r);

/* select_hook.c */
int sp_select_init(void);
void sp_select_exit(void);

/* select_stats.c */
#undef EM
#undef EMe
#define EM(a, b)	a,
#define EMe(a, b)	a,
enum sp_stat_idx {
	SP_STAT_LIST
	SP_STAT_REASON0,	/* decisions per enum sp_reason from here */
	SP_STAT_NR = SP_STAT_REASON0 + SP_R_NR,
};

#undef EM
#undef EMe

struct sp_stat_cpu {
	struct u64_stats_sync sync;
	u64_stats_t c[SP_STAT_NR];
};

DECLARE_PER_CPU(struct sp_stat_cpu, sp_stat_cpu);

/* Count one event @i on this CPU; preemption or IRQs must be off. */
static inline void sp_stat_inc(u32 i)
{
	struct sp_stat_cpu *s = this_cpu_ptr(&sp_stat_cpu);

	u64_stats_update_begin(&s->sync);
	u64_stats_inc(&s->c[i]);
	u64_stats_update_end(&s->sync);
}

extern const struct attribute_group sp_stat_group;
void sp_stat_init(void);
void sp_stat_debugfs(struct dentry *root);

/* energy_model.c, em_defaults.c */
/* Build the default model from the kernel's tables; @src says from which. */
int sp_emdef_build(struct sp_model *m, char *src, size_t src_len);
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
struct sp_acct;
int sp_cpuidle_init(void);
void sp_cpuidle_exit(void);
struct sp_state *sp_cpuidle_state(void);
struct sp_acct *sp_cpuidle_acct(void);
u64 sp_cpuidle_now_ns(void);
u64 sp_cpuidle_read_ns(void);
void sp_cpuidle_lock(void);
void sp_cpuidle_unlock(void);
void sp_cpuidle_reset(void);
void sp_cpuidle_probe_cost(u64 *ns, u64 *samples);

/* idle_stats.c */
extern const struct attribute_group sp_idlestat_idle_group;
extern const struct attribute_group sp_idlestat_energy_group;
void sp_idlestat_debugfs(struct dentry *root);

/* opp_floor.c */
int sp_floor_init(void);
void sp_floor_exit(void);
void sp_floor_debugfs(struct dentry *root);

/* latency.c */
int sp_lat_init(void);
void sp_lat_exit(void);
int sp_lat_dev_register(void);
void sp_lat_dev_unregister(void);
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
