/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_int.h - the simulator's private state, shared by sim.c and policy.c.
 */
#ifndef SIM_INT_H
#define SIM_INT_H

#include "sim.h"

#define SIM_TICK_NS		4000000ull	/* HZ=250: OPP update, slice */
#define SIM_WAKEUP_GRAN_NS	1000000ull	/* wake-up preemption */
#define SIM_NO_CPU		(-1)

enum sim_task_state { SIM_T_SLEEPING, SIM_T_QUEUED, SIM_T_RUNNING, SIM_T_DONE };

struct sim_task {
	const struct sim_task_def *def;
	u32 state;		/* enum sim_task_state */
	u32 loop_left, phase, phase_loop_left, ev;	/* program counter */
	u64 timer_next[SIM_MAX_TIMERS];
	u8 timer_armed[SIM_MAX_TIMERS];
	u64 left;		/* work left in the segment, capacity x ns */
	bool wall;		/* runtime segment: progresses at 1024 */
	bool waking;		/* queued by a wake-up: latency pending */
	u32 util;		/* PELT-like, frequency invariant */
	u64 util_ns;
	s32 cpu;		/* CPU it is queued or running on */
	s32 prev;		/* CPU it last ran on, SIM_NO_CPU before */
	u64 wake_ns;		/* when the pending wake-up happened */
	u64 sleep_until;
	struct sim_task *rq_next;
	struct sim_task *sl_next, *sl_prev;	/* sleepers of one CPU */
};

struct sim_cpu {
	struct sim_task *curr, *q_head, *q_tail;
	u32 nr_queued;
	u32 pd;
	u64 run_start;		/* curr progresses from here (after exit) */
	u64 prog_ns;		/* curr's progress is accounted up to here */
	u64 slice_start;
	u32 done_gen, tick_gen, preempt_gen;
	s32 idle;		/* idle state index, or -1 when awake */
	u64 idle_ns;		/* idle since */
	u64 last_resid_ns;
	bool governed;		/* idle state chosen by the governor */
	u64 acct_ns;		/* energy accounted up to here */
	u32 stall_uw;		/* power while leaving an idle state */
	struct sim_task *sleepers;
	u64 tl_start;		/* timeline: current segment */
	s32 tl_kind, tl_level;
};

struct sim_evt {
	u64 t;
	u64 seq;
	u32 kind;
	u32 id;
	u32 gen;
};

struct sim {
	const struct sp_model *m;
	const struct sim_story *story;
	const struct sim_opts *o;
	u32 policy;
	struct sp_state *st;
	struct sp_policy sp_pol;
	u64 now;
	struct sim_cpu *cpu;
	struct sim_task *task;
	u32 nr_tasks, nr_done, nr_idle, nr_queued;
	u32 pd_opp[SP_MAX_PDS];
	u64 grp_acct[SP_MAX_GROUPS];
	struct sim_evt *heap;
	u32 heap_n, heap_cap;
	u64 seq;
	u64 *lat;
	u64 lat_n, lat_cap;
	struct sim_result *r;
};

/* policy.c: the CPU a waking @t should be queued on. */
u32 sim_policy_select(struct sim *S, struct sim_task *t);
/* CFS-like choice, also used by the load balancer; @t may be NULL. */
u32 sim_spread_select(struct sim *S, struct sim_task *t, s32 prev);

static inline bool sim_cpu_is_idle(const struct sim *S, u32 cpu)
{
	return S->cpu[cpu].idle >= 0;
}

static inline u32 sim_cpu_cap(const struct sim *S, u32 cpu)
{
	const struct sp_pd *pd = &S->m->pd[S->m->cpu_pd[cpu]];

	return pd->opp[pd->nr_opps - 1].cap;
}

#endif /* SIM_INT_H */
