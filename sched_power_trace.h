/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sched_power's trace events (system "sched_power").
 *
 * Documentation/tracepoints.rst describes every field.  Fields print as
 * key=value so that trace-cmd report output greps and parses; enums print
 * by name, from the one list per enum in core/sp_enums.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_power

#if !defined(_SCHED_POWER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SCHED_POWER_TRACE_H

#include <linux/tracepoint.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>
#include "sched_power.h"
#include "core/sp_acct.h"
#include "core/sp_gate.h"

#undef EM
#undef EMe
#define EM(a, b)	TRACE_DEFINE_ENUM(a);
#define EMe(a, b)	TRACE_DEFINE_ENUM(a);

SP_MODE_LIST(EM, EMe)
SP_REASON_LIST(EM, EMe)
SP_WAKE_LIST(EM, EMe)
SP_VERDICT_LIST(EM, EMe)
SP_GATE_LIST(EM, EMe)
SP_LB_IDLE_LIST(EM, EMe)
SP_KICK_LIST(EM, EMe)

#undef EM
#undef EMe
#define EM(a, b)	{ a, b },
#define EMe(a, b)	{ a, b }

/*
 * sched_power_select: one per placement decision of the wake-up hook, a
 * copy of the core's struct sp_decision.  cfs_cpu is CFS's choice,
 * model_cpu the model's (computed in observe mode too), ret_cpu what the
 * hook returned; applied says ret_cpu is the model's because the mode acts
 * and the final check (active, allowed, not isolated) passed.  Energies
 * are nJ over the decision window, of model_cpu (chosen_nj = busy_nj +
 * idle_nj + wake_nj + pstate_nj + static_nj + future_nj) and of cfs_cpu
 * (cfs_nj).  wake_lat_us is model_cpu's modelled wake-up latency: exit
 * latencies plus, when queued, the expected wait behind the work it runs
 * or has in flight.  Its first consumer (tracefs, perf, BPF) and its last
 * one's removal call sp_select_trace_reg() and sp_select_trace_unreg():
 * in observe mode the redirect is registered only while the event has a
 * consumer (select_hook.c).
 */
TRACE_EVENT_FN(sched_power_select,

	TP_PROTO(const struct task_struct *p, const struct sp_decision *d),

	TP_ARGS(p, d),

	TP_STRUCT__entry(
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(u32, util)
		__field(s32, prev_cpu)
		__field(s32, cfs_cpu)
		__field(s32, model_cpu)
		__field(s32, ret_cpu)
		__field(u8, applied)
		__field(u8, wake)
		__field(u8, mode)
		__field(u8, reason)
		__field(s64, cfs_nj)
		__field(s64, chosen_nj)
		__field(s64, busy_nj)
		__field(s64, idle_nj)
		__field(s64, wake_nj)
		__field(s64, pstate_nj)
		__field(s64, static_nj)
		__field(s64, future_nj)
		__field(u32, lat_bound_us)
		__field(u32, wake_lat_us)
		__field(u32, queue_us)
		__field(u8, lat_miss)
		__field(u8, queued)
	),

	TP_fast_assign(
		__entry->pid = p->pid;
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->util = d->util;
		__entry->prev_cpu = (s32)d->prev_cpu;
		__entry->cfs_cpu = (s32)d->cfs_cpu;
		__entry->model_cpu = (s32)d->cpu;
		__entry->ret_cpu = d->ret_cpu;
		__entry->applied = d->applied;
		__entry->wake = d->wake;
		__entry->mode = d->mode;
		__entry->reason = d->reason;
		__entry->cfs_nj = d->cfs_nj;
		__entry->chosen_nj = d->chosen_nj;
		__entry->busy_nj = d->terms.busy_nj;
		__entry->idle_nj = d->terms.idle_nj;
		__entry->wake_nj = d->terms.wake_nj;
		__entry->pstate_nj = d->terms.pstate_nj;
		__entry->static_nj = d->terms.static_nj;
		__entry->future_nj = d->terms.future_nj;
		__entry->lat_bound_us = d->lat_bound_us;
		__entry->wake_lat_us = d->wake_lat_us;
		__entry->queue_us = d->queue_us;
		__entry->lat_miss = d->lat_miss;
		__entry->queued = d->queued;
	),

	TP_printk("pid=%d comm=%s util=%u prev_cpu=%d cfs_cpu=%d model_cpu=%d ret_cpu=%d applied=%u wake=%s mode=%s reason=%s cfs_nj=%lld chosen_nj=%lld busy_nj=%lld idle_nj=%lld wake_nj=%lld pstate_nj=%lld static_nj=%lld future_nj=%lld lat_bound_us=%u wake_lat_us=%u queue_us=%u lat_miss=%u queued=%u",
		  __entry->pid, __entry->comm, __entry->util, __entry->prev_cpu,
		  __entry->cfs_cpu, __entry->model_cpu, __entry->ret_cpu,
		  __entry->applied,
		  __print_symbolic(__entry->wake, SP_WAKE_LIST(EM, EMe)),
		  __print_symbolic(__entry->mode, SP_MODE_LIST(EM, EMe)),
		  __print_symbolic(__entry->reason, SP_REASON_LIST(EM, EMe)),
		  __entry->cfs_nj, __entry->chosen_nj, __entry->busy_nj,
		  __entry->idle_nj, __entry->wake_nj, __entry->pstate_nj,
		  __entry->static_nj, __entry->future_nj,
		  __entry->lat_bound_us, __entry->wake_lat_us, __entry->queue_us,
		  __entry->lat_miss, __entry->queued),

	sp_select_trace_reg, sp_select_trace_unreg
);

/* sched_power_idle: one per idle exit, with the prediction verdict. */
TRACE_EVENT(sched_power_idle,

	TP_PROTO(int cpu, int state, u64 residency_us, u32 target_us, int verdict),

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
		  __entry->target_us,
		  __print_symbolic(__entry->verdict, SP_VERDICT_LIST(EM, EMe)))
);

/*
 * sched_power_balance: one per load_balance() call while the gate is
 * registered (balance_hook.c).  cpu is the CPU being balanced (the trace
 * record's own CPU runs the balance: another one for the idle balance a
 * busy CPU kicks on behalf of tickless CPUs), level and span_weight the
 * domain's (sd->level: 0 is the lowest), idle the balance type, passed
 * whether CFS balanced (0: the gate moved nothing), reason why
 * (core/sp_enums.h SP_GATE_LIST), trigger_cpu the overutilised, starving
 * or waiting CPU that let it through, -1 for none, waited_us how long a
 * task had waited on a starving or waiting trigger_cpu (0 for the other
 * reasons), as the verdict read it.
 */
TRACE_EVENT(sched_power_balance,

	TP_PROTO(int cpu, const struct sched_domain *sd, u32 idle, u32 reason,
		 int trigger_cpu, u64 waited_ns),

	TP_ARGS(cpu, sd, idle, reason, trigger_cpu, waited_ns),

	TP_STRUCT__entry(
		__field(s32, cpu)
		__field(s32, level)
		__field(u32, span_weight)
		__field(u8, idle)
		__field(u8, passed)
		__field(u8, reason)
		__field(s32, trigger_cpu)
		__field(u32, waited_us)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->level = sd->level;
		__entry->span_weight = sd->span_weight;
		__entry->idle = idle;
		__entry->passed = sp_gate_passes(reason);
		__entry->reason = reason;
		__entry->trigger_cpu = trigger_cpu;
		__entry->waited_us = min_t(u64, div_u64(waited_ns, NSEC_PER_USEC),
					   U32_MAX);
	),

	TP_printk("cpu=%d level=%d span_weight=%u idle=%s passed=%u reason=%s trigger_cpu=%d waited_us=%u",
		  __entry->cpu, __entry->level, __entry->span_weight,
		  __print_symbolic(__entry->idle, SP_LB_IDLE_LIST(EM, EMe)),
		  __entry->passed,
		  __print_symbolic(__entry->reason, SP_GATE_LIST(EM, EMe)),
		  __entry->trigger_cpu, __entry->waited_us)
);

/*
 * sched_power_kick: one per tick of an active CPU while the kick gate is
 * registered (balance_hook.c: trigger_load_balance(), core/sp_gate.c
 * sp_gate_kick()).  cpu is the ticking CPU, target_cpu the CPU its
 * idle-balance kick is predicted to wake (-1: none), passed whether the
 * tick was CFS's (0: no kick, only the CPU's own SCHED_SOFTIRQ), reason
 * why (core/sp_enums.h SP_KICK_LIST).  A tick that passes may still kick
 * nobody: nohz_balancer_kick() decides that.
 */
TRACE_EVENT(sched_power_kick,

	TP_PROTO(int cpu, u32 target_cpu, u32 reason),

	TP_ARGS(cpu, target_cpu, reason),

	TP_STRUCT__entry(
		__field(s32, cpu)
		__field(s32, target_cpu)
		__field(u8, passed)
		__field(u8, reason)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->target_cpu = target_cpu == SP_NONE ? -1 : (s32)target_cpu;
		__entry->passed = sp_gate_kick_passes(reason);
		__entry->reason = reason;
	),

	TP_printk("cpu=%d target_cpu=%d passed=%u reason=%s",
		  __entry->cpu, __entry->target_cpu, __entry->passed,
		  __print_symbolic(__entry->reason, SP_KICK_LIST(EM, EMe)))
);

#undef EM
#undef EMe

#endif /* _SCHED_POWER_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sched_power_trace
#include <trace/define_trace.h>
