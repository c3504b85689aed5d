/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the module's kernel files.
 */

/**
 * DOC: the module's files
 *
 * Each kernel file is a door onto one kernel subsystem; the decision logic
 * lives in the pure core (core/).  Every function a file defines, static or
 * not, starts with the file's prefix, so that git grep on a prefix lands in
 * one file:
 *
 * sched_power.c (sp_main_*)
 *	module init and exit, the sysfs and debugfs roots, the trace events
 * knobs.c (sp_knob_*)
 *	the knobs the decision reads (mode, margin_pct, ...); tells its
 *	subscribers of every write
 * redirect.c (sp_redirect_*)
 *	the ftrace redirect the hooks are built on, and symbol lookup
 * select_hook.c (sp_select_*)
 *	the select_task_rq_fair() hook and its decision
 * select_stats.c (sp_stat_*)
 *	the decision counters: stats/ in sysfs, stats in debugfs
 * balance_hook.c (sp_balance_*)
 *	the load-balancer gate between top-level groups (core/sp_gate.c)
 * energy_model.c (sp_em_*)
 *	the live energy model: publication by RCU, its text, the subscribers
 *	told of every change, model_file= at insmod
 * em_defaults.c (sp_emdef_*)
 *	the default model from the kernel's tables
 * model_file.c (sp_mfile_*)
 *	the sysfs file model: staged writes, read snapshots; model_source
 * cpuidle_hook.c (sp_cpuidle_*)
 *	the power:cpu_idle and power:cpu_frequency probes, the snapshot the
 *	hook reads, its clock, CPU hotplug
 * idle_stats.c (sp_idlestat_*)
 *	idle and energy readouts: idle/reset, energy_uj, debugfs idle_stats,
 *	energy and snapshot
 * latency.c (sp_lat_*)
 *	per-task latency bounds (/dev/sched_power_latency) and per-CPU
 *	resume-latency QoS
 * opp_floor.c (sp_floor_*)
 *	power mode's OPP floor through cpufreq's frequency QoS
 *
 * Dependencies point one way: the hooks read the knobs, the model, the
 * snapshot and the latency bounds; a part that must hear of a change (a
 * knob written, a model published) subscribes to it rather than being
 * called by name.  sched_power.c only composes: it initialises every part,
 * then creates the user interface (sysfs, debugfs) last, and removes that
 * interface first.
 */
#ifndef SCHED_POWER_H
#define SCHED_POWER_H

#include <linux/ftrace.h>
#include <linux/kobject.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sysfs.h>
#include <linux/u64_stats_sync.h>
#include "core/sp_place.h"

#define SP_VERSION "0.4.0"

struct dentry;
struct notifier_block;

/* knobs.c */
extern const struct attribute_group sp_knob_group;
/* The knobs' values and the wake_types mask; knobs.c alone writes them. */
extern struct sp_knobs sp_knob_values;
extern u32 sp_knob_wake_mask;

/**
 * sp_knob_snapshot() - a copy of the knobs the decision reads
 * @knobs: where to copy them
 *
 * Each knob is read once, whole (READ_ONCE): a decision sees each either
 * before or after a write, never torn.  Inline: the wake-up hook takes a
 * copy per decision.
 *
 * Context: any.
 */
static inline void sp_knob_snapshot(struct sp_knobs *knobs)
{
	knobs->mode = READ_ONCE(sp_knob_values.mode);
	knobs->margin_pct = READ_ONCE(sp_knob_values.margin_pct);
	knobs->overutil_pct = READ_ONCE(sp_knob_values.overutil_pct);
	knobs->window_us = READ_ONCE(sp_knob_values.window_us);
	knobs->latency_us = READ_ONCE(sp_knob_values.latency_us);
}

/**
 * sp_knob_wants() - is a wake type handled (the wake_types knob)?
 * @wake: enum sp_wake
 *
 * Return: true if decisions are made for @wake; any context.
 */
static inline bool sp_knob_wants(u32 wake)
{
	return wake < SP_WAKE_NR && (READ_ONCE(sp_knob_wake_mask) & BIT(wake));
}

u32 sp_knob_mode(void);
int sp_knob_init(const char *mode_param);
bool sp_knob_floor_on(void);
bool sp_knob_balance_gate_on(void);
bool sp_knob_kick_gate_on(void);
/* Notifier actions of a knob write (see knobs.c's sp_knob_subscribe()). */
#define SP_KNOB_APPLY		1
#define SP_KNOB_ROLLBACK	2
int sp_knob_subscribe(struct notifier_block *nb);
int sp_knob_answer(bool refuse, int ret, const char *what, const char *then);
void sp_knob_unsubscribe(struct notifier_block *nb);

/* redirect.c */
/**
 * struct sp_redirect - one kernel function sent to a module wrapper
 * @names: the function's names, NULL-terminated, tried in order (a
 *	   function renamed across kernel versions)
 * @wrapper: the wrapper's address; it calls @orig.  The owner may switch it
 *	     while registered (WRITE_ONCE()): each call goes to one or the other
 * @orig: the original's entry, set by sp_redirect_register()
 * @name: the name that was found
 * @filtered: the ops's filter is set (sp_redirect_release() frees it)
 * @registered: the ops is registered (debugfs redirects)
 * @failures: registrations that failed (debugfs redirects)
 * @last_err: the last failed registration's errno, 0 if none
 * @listed: on the list debugfs redirects shows, from the first registration
 * @node: that list's link
 * @ops: the IPMODIFY ftrace_ops
 */
struct sp_redirect {
	const char *const *names;
	unsigned long wrapper;
	unsigned long orig;
	const char *name;
	bool filtered;
	bool registered;
	unsigned int failures;
	int last_err;
	bool listed;
	struct list_head node;
	struct ftrace_ops ops;
};

unsigned long sp_redirect_lookup(const char *name);
int sp_redirect_register(struct sp_redirect *r);
void sp_redirect_unregister(struct sp_redirect *r);
void sp_redirect_release(struct sp_redirect *r);
void sp_redirect_debugfs(struct dentry *root);

/* select_hook.c */
int sp_select_init(void);
void sp_select_exit(void);
int sp_select_trace_reg(void);
void sp_select_trace_unreg(void);

/* balance_hook.c */
SP_ENUM_DEFINE(sp_lb_idle, SP_LB_IDLE_LIST, SP_LB_NR);

int sp_balance_init(void);
void sp_balance_exit(void);

/* select_stats.c */
enum sp_stat_idx {
	SP_STAT_LIST(SP_ENUM_VALUE, SP_ENUM_VALUE)
	SP_STAT_REASON0,	/* decisions per enum sp_reason from here */
	SP_STAT_NR = SP_STAT_REASON0 + SP_R_NR,
};

struct sp_stat_cpu {
	struct u64_stats_sync sync;
	u64_stats_t c[SP_STAT_NR];
};

DECLARE_PER_CPU(struct sp_stat_cpu, sp_stat_cpu);

/**
 * sp_stat_begin() - open this CPU's counters for a few increments
 *
 * Return: this CPU's counters, for sp_stat_add() and sp_stat_end().
 *
 * Context: preemption or IRQs off (the hooks, a tracepoint probe), until
 * sp_stat_end().
 */
static inline struct sp_stat_cpu *sp_stat_begin(void)
{
	struct sp_stat_cpu *s = this_cpu_ptr(&sp_stat_cpu);

	u64_stats_update_begin(&s->sync);
	return s;
}

/**
 * sp_stat_add() - count one event between sp_stat_begin() and sp_stat_end()
 * @s: sp_stat_begin()'s counters
 * @i: enum sp_stat_idx
 */
static inline void sp_stat_add(struct sp_stat_cpu *s, u32 i)
{
	u64_stats_inc(&s->c[i]);
}

/**
 * sp_stat_end() - close sp_stat_begin()'s update
 * @s: sp_stat_begin()'s counters
 */
static inline void sp_stat_end(struct sp_stat_cpu *s)
{
	u64_stats_update_end(&s->sync);
}

/**
 * sp_stat_inc() - count one event on this CPU
 * @i: enum sp_stat_idx
 *
 * Context: preemption or IRQs off (the hooks, a tracepoint probe).
 */
static inline void sp_stat_inc(u32 i)
{
	struct sp_stat_cpu *s = sp_stat_begin();

	sp_stat_add(s, i);
	sp_stat_end(s);
}

extern const struct attribute_group sp_stat_group;
void sp_stat_init(void);
void sp_stat_debugfs(struct dentry *root);

/* energy_model.c, em_defaults.c */
int sp_emdef_build(struct sp_model *m, char *src, size_t src_len);
/* Notifier actions of a model change (see energy_model.c's DOC). */
#define SP_MODEL_PREPARE	1
#define SP_MODEL_CHANGED	2
int sp_em_init(void);
void sp_em_exit(void);
/* The published model: energy_model.c alone writes it, under its lock. */
extern struct sp_model __rcu *sp_em_ptr;

/**
 * sp_em_model() - the published model
 *
 * Context: under rcu_read_lock(), or with preemption or IRQs disabled (the
 * wake-up hook, a tracepoint probe); do not keep the model past that
 * section.
 *
 * Return: the model; never NULL between sp_em_init() and sp_em_exit().
 */
static inline const struct sp_model *sp_em_model(void)
{
	return rcu_dereference_check(sp_em_ptr, rcu_read_lock_any_held());
}

int __must_check sp_em_subscribe(struct notifier_block *nb);
void sp_em_unsubscribe(struct notifier_block *nb);

/**
 * struct sp_em_text - the text of a published model
 * @ref: references (sp_em_text_get(), sp_em_text_put())
 * @len: bytes in @buf, without the NUL
 * @src: what model_source says: "opp=... idle=... topology=..."
 * @buf: sp_model_format() of the model, NUL-terminated
 *
 * Immutable once published; reference-counted, so that a reader of the
 * model file keeps the text it started on while the model changes.
 */
struct sp_em_text {
	struct kref ref;
	size_t len;
	char src[64];
	char buf[];
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
/* The snapshot: cpuidle_hook.c alone sets it, before any reader runs. */
extern struct sp_state *sp_cpuidle_st;

/**
 * sp_cpuidle_state() - the live snapshot the wake-up hook reads
 *
 * Return: the snapshot, valid between sp_cpuidle_init() and sp_cpuidle_exit().
 */
static inline struct sp_state *sp_cpuidle_state(void)
{
	return sp_cpuidle_st;
}

/**
 * sp_cpuidle_now_ns() - the time base of the snapshot
 *
 * Return: local_clock(), ns; cheap and usable with IRQs off.
 */
static inline u64 sp_cpuidle_now_ns(void)
{
	return local_clock();
}

struct sp_acct *sp_cpuidle_acct(void);
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
/* Bounds in force: latency.c alone writes it, under its lock. */
extern u32 sp_lat_nr;
u32 sp_lat_task_bound_us(const struct task_struct *p);

/**
 * sp_task_latency_us() - the wake-up latency bound in force for a task
 * @p: the task
 *
 * Context: any, IRQs off included; RCU read side, lock-free, allocates
 * nothing.
 *
 * With no bound in force, one read and no call; else
 * sp_lat_task_bound_us()'s two hash lookups.
 *
 * Return: the smaller of its thread's and its thread group's bounds, in
 * us; 0 if neither has one.
 */
static inline u32 sp_task_latency_us(const struct task_struct *p)
{
	if (!READ_ONCE(sp_lat_nr))
		return 0;
	return sp_lat_task_bound_us(p);
}

void sp_lat_placed(u32 bound_us, int prev_cpu, int cpu);

#endif /* SCHED_POWER_H */
