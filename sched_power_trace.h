/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_power_trace.h - sched_power's trace events (system "sched_power").
 *
 * sched_power_select: one per wake-up decision the kretprobe sees.
 * sched_power_idle:   one per idle exit, with the prediction verdict.
 *
 * Fields print as key=value so trace-cmd report output greps and parses.
 * Energies are nJ over the decision window (see core/sp_energy.h).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_power

#if !defined(_SCHED_POWER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SCHED_POWER_TRACE_H

#include <linux/tracepoint.h>
#include <linux/sched.h>
#include "core/sp_place.h"

/* Enums print as names; kept beside sp_reason_names[] in core/sp_place.c. */
#define SP_TRACE_REASONS						\
	{ SP_R_CFS_CHEAPEST, "cfs_cheapest" },				\
	{ SP_R_BELOW_MARGIN, "below_margin" },				\
	{ SP_R_PACK_AWAKE_GROUP, "pack_awake_group" },			\
	{ SP_R_AVOID_PKG_WAKEUP, "avoid_package_wakeup" },		\
	{ SP_R_PSTATE_CHEAPER, "pstate_cheaper" },			\
	{ SP_R_WAKE_CHEAPER, "wake_cheaper" },				\
	{ SP_R_LATENCY_BOUND, "latency_bound" },			\
	{ SP_R_OVERUTILISED, "overutilised_fallback" },			\
	{ SP_R_NOT_ALLOWED, "not_allowed" },				\
	{ SP_R_MODE, "mode" }

TRACE_DEFINE_ENUM(SP_R_CFS_CHEAPEST);
TRACE_DEFINE_ENUM(SP_R_BELOW_MARGIN);
TRACE_DEFINE_ENUM(SP_R_PACK_AWAKE_GROUP);
TRACE_DEFINE_ENUM(SP_R_AVOID_PKG_WAKEUP);
TRACE_DEFINE_ENUM(SP_R_PSTATE_CHEAPER);
TRACE_DEFINE_ENUM(SP_R_WAKE_CHEAPER);
TRACE_DEFINE_ENUM(SP_R_LATENCY_BOUND);
TRACE_DEFINE_ENUM(SP_R_OVERUTILISED);
TRACE_DEFINE_ENUM(SP_R_NOT_ALLOWED);
TRACE_DEFINE_ENUM(SP_R_MODE);

/* Verdicts of core/sp_idle.h: too deep, right, too shallow. */
#define SP_TRACE_VERDICTS { 0, "early" }, { 1, "hit" }, { 2, "late" }

TRACE_EVENT(sched_power_select,

	TP_PROTO(struct task_struct *p, u32 util, int prev_cpu, int cfs_cpu,
		 int chosen_cpu, int wake_flags, int reason,
		 s64 cfs_nj, s64 chosen_nj, s64 pstate_nj, s64 wake_nj),

	TP_ARGS(p, util, prev_cpu, cfs_cpu, chosen_cpu, wake_flags, reason,
		cfs_nj, chosen_nj, pstate_nj, wake_nj),

	TP_STRUCT__entry(
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(u32, util)
		__field(int, prev_cpu)
		__field(int, cfs_cpu)
		__field(int, chosen_cpu)
		__field(int, wake_flags)
		__field(int, reason)
		__field(s64, cfs_nj)
		__field(s64, chosen_nj)
		__field(s64, pstate_nj)
		__field(s64, wake_nj)
	),

	TP_fast_assign(
		__entry->pid = p->pid;
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->util = util;
		__entry->prev_cpu = prev_cpu;
		__entry->cfs_cpu = cfs_cpu;
		__entry->chosen_cpu = chosen_cpu;
		__entry->wake_flags = wake_flags;
		__entry->reason = reason;
		__entry->cfs_nj = cfs_nj;
		__entry->chosen_nj = chosen_nj;
		__entry->pstate_nj = pstate_nj;
		__entry->wake_nj = wake_nj;
	),

	TP_printk("pid=%d comm=%s util=%u prev_cpu=%d cfs_cpu=%d chosen_cpu=%d wake_flags=0x%x reason=%s cfs_nj=%lld chosen_nj=%lld pstate_nj=%lld wake_nj=%lld",
		  __entry->pid, __entry->comm, __entry->util, __entry->prev_cpu,
		  __entry->cfs_cpu, __entry->chosen_cpu, __entry->wake_flags,
		  __print_symbolic(__entry->reason, SP_TRACE_REASONS), __entry->cfs_nj, __entry->chosen_nj,
		  __entry->pstate_nj, __entry->wake_nj)
);

TRACE_EVENT(sched_power_idle,

	TP_PROTO(int cpu, int state, u64 residency_us, u32 target_us,
		 int verdict),

	TP_ARGS(cpu, state, residency_us, target_us, verdict),

	TP_STRUCT__entry(
		__field(int, cpu)
		__field(int, state)
		__field(u64, residency_us)
		__field(u32, target_us)
		__field(int, verdict)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->state = state;
		__entry->residency_us = residency_us;
		__entry->target_us = target_us;
		__entry->verdict = verdict;
	),

	TP_printk("cpu=%d state=%d residency_us=%llu target_us=%u verdict=%s",
		  __entry->cpu, __entry->state, __entry->residency_us,
		  __entry->target_us, __print_symbolic(__entry->verdict, SP_TRACE_VERDICTS))
);

#endif /* _SCHED_POWER_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sched_power_trace
#include <trace/define_trace.h>
