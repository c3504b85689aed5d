/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_int.h - the simulator's private state, shared by the engine (sim.c,
 * evq.c, rq.c, opp.c, hw.c), the topology (topo.c), CFS's placement
 * (cfs.c), the load balancer (balance.c) and the other policies (policy.c).
 */
#ifndef SIM_INT_H
#define SIM_INT_H

#include "sim.h"
#include "sp_acct.h"
#include "sp_floor.h"

#define SIM_TICK_NS		4000000ull	/* HZ=250 */
#define SIM_WAKEUP_GRAN_NS	1000000ull	/* wake-up preemption */
#define SIM_MIGRATION_COST_NS	500000ull	/* sysctl_sched_migration_cost */
#define SIM_LOAD_AVG_PERIOD_NS	32000000ull	/* nohz blocked-load refresh */
#define SIM_BUSY_FACTOR		16u		/* sd->busy_factor */
#define SIM_NO_CPU		(-1)
#define SIM_MAX_DOMS		(SP_MAX_LEVELS + 1)
#define SIM_RNG_SEED		0x9e3779b97f4a7c15ull	/* any non-zero value */

/* Wake flags of one placement, as the kernel's WF_TTWU and WF_FORK. */
#define SIM_WF_TTWU		0x1u
#define SIM_WF_FORK		0x2u

enum sim_task_state {
	SIM_T_NEW,		/* not forked yet */
	SIM_T_SLEEPING,
	SIM_T_QUEUED,
	SIM_T_RUNNING,
	SIM_T_DONE,
};

struct sim_task {
	const struct sim_task_def *def;
	u32 id;			/* index in sim.task[] */
	u32 state;		/* enum sim_task_state */
	u32 loop_left, phase, phase_loop_left, ev;	/* program counter */
	u64 timer_next[SIM_MAX_TIMERS];
	u8 timer_armed[SIM_MAX_TIMERS];
	u64 left;		/* work left in the segment, capacity x ns */
	bool wall;		/* runtime segment: progresses at 1024 */
	bool waking;		/* placed by a wake-up: latency sample pending */
	u32 util;		/* PELT-like, frequency invariant */
	u32 util_est;		/* util when it last went to sleep (util_est) */
	u64 util_ns;
	s32 cpu;		/* task_cpu(): queued or running there, or slept there */
	s32 recent_used;	/* p->recent_used_cpu */
	u64 wake_ns;		/* when the pending wake-up was due */
	u64 place_ns;		/* when the pending wake-up was placed */
	s32 place_waker, place_prev;	/* its deciding CPU and prev_cpu */
	s32 place_idle;		/* the target's idle state then, -1 awake */
	bool place_busy;	/* the target was running a task then */
	u64 sleep_until;
	u64 last_ran_ns;	/* when it last stopped running (cache hotness) */
	s64 vr;			/* SIM_PREEMPT_VRUNTIME: vruntime, ns (nice 0) */
	struct sim_task *rq_next;
	struct sim_task *sl_next, *sl_prev;	/* sleepers whose timer is on a CPU */
};

/* The energy of one CPU or group, as hw.c sums it into the row's three. */
struct sim_part_e {
	sim_fj busy, idle, wake;
	u64 exits;		/* idle -> awake */
	u64 up_ns;		/* drawing OPP power (CPU), active_uw (group) */
};

struct sim_cpu {
	struct sim_task *curr, *q_head, *q_tail;
	u32 nr_queued;
	u32 pd;
	u32 pkg;		/* package index (topo.pkg_level), for the metrics */
	u64 run_start;		/* up from here: the exit from idle is over */
	u64 prog_ns;		/* curr's progress is accounted up to here */
	u64 slice_start;
	u32 done_gen, tick_gen, preempt_gen;
	s64 min_vr;		/* SIM_PREEMPT_VRUNTIME: cfs_rq->min_vruntime */
	u64 vr_ns;		/* curr's vruntime is accounted up to here */
	struct sim_task *next_buddy;	/* of a wake-up preemption */
	s32 idle;		/* idle state index, or -1 when awake */
	s32 exit_from;		/* state whose power is drawn until run_start */
	bool exit_unseen;	/* the snapshot has not seen this exit yet (hw.c) */
	u32 exit_gen;		/* EV_EXIT_END's generation */
	bool acct_unseen;	/* the accounting sees this exit at its end */
	u32 acct_gen;		/* the accounting's EV_EXIT_END generation */
	u64 idle_ns;		/* idle since (rq->idle_stamp) */
	u64 last_resid_ns;	/* the last idle stay, the governor's history */
	bool governed;		/* idle state chosen by the governor */
	bool ticking;		/* a tick event is pending for this CPU */
	u32 irq_pending;	/* interrupt handlers queued on this CPU */
	u32 ucache;		/* sim_cpu_util() at ucache_ns */
	u64 ucache_ns;
	u64 acct_ns;		/* energy accounted up to here */
	struct sim_task *sleepers;
	u64 tl_start;		/* timeline: current segment */
	s32 tl_kind, tl_level;
	/* load balancing: 6.1 keeps these per CPU and domain */
	u64 last_balance_ns[SIM_MAX_DOMS];
	u32 balance_ms[SIM_MAX_DOMS];	/* sd->balance_interval */
	u32 nr_balance_failed[SIM_MAX_DOMS];
	/* NI_RANDOM: sd->newidle_call, newidle_success, newidle_ratio */
	u32 ni_call[SIM_MAX_DOMS], ni_success[SIM_MAX_DOMS], ni_ratio[SIM_MAX_DOMS];
	u64 next_balance_ns;	/* rq->next_balance */
	struct sim_part_e e;	/* its own energy (sp_sim --energy) */
};

/* Domain flags, after the kernel's SD_* of the same meaning. */
#define SIM_SD_LLC		0x01u	/* SD_SHARE_PKG_RESOURCES */
#define SIM_SD_SMT		0x02u	/* SD_SHARE_CPUCAPACITY */
#define SIM_SD_ASYM		0x04u	/* SD_ASYM_CPUCAPACITY */
#define SIM_SD_NUMA		0x08u	/* SD_NUMA */
#define SIM_SD_PREFER_SIBLING	0x10u	/* SD_PREFER_SIBLING */

#define SIM_LEVEL_ALL		0xffu	/* a span of every CPU */
#define SIM_LEVEL_CPU		0xfeu	/* sched_groups of one CPU each */

/* One scheduling-domain level, built from the model (topo.c). */
struct sim_dom {
	u8 level;		/* model level whose groups are the spans, or ALL */
	u8 child;		/* model level of the sched_groups, or CPU */
	u16 flags;		/* SIM_SD_* */
	u16 imbalance_pct;
	u16 cache_nice_tries;
	u16 imb_numa_nr;	/* SIM_SD_NUMA: the imbalance allowed in tasks */
};

/*
 * A sched_group is named by a "member": a CPU when the domain's child is
 * SIM_LEVEL_CPU, else a model group index of the child level.
 */
struct sim_topo {
	u32 nr_doms;
	struct sim_dom dom[SIM_MAX_DOMS];
	s32 llc;		/* sd_llc's index, -1 if none */
	s32 smt;		/* the SMT domain, -1 if none */
	s32 asym;		/* sd_asym_cpucapacity, -1 if none */
	u32 pkg_level;		/* model level of the packages */
	u32 nr_pkgs;
	u16 all_cpus[SP_MAX_CPUS];
	u16 cap[SP_MAX_CPUS];	/* capacity_of(): the highest OPP's cap */
	u16 max_cap;		/* rd->max_cpu_capacity */
	u16 grp_off[SIM_MAX_DOMS][SP_MAX_GROUPS];	/* by span id */
	u16 grp_nr[SIM_MAX_DOMS][SP_MAX_GROUPS];
	u16 grp_pool[SIM_MAX_DOMS * SP_MAX_CPUS];	/* members, span by span */
};

/* A span: the CPUs of one domain instance. */
struct sim_span {
	const u16 *cpus;
	u32 nr;
};

/* group_type of 6.1, in its order (the ones the models can produce). */
enum sim_group_type {
	SIM_GT_HAS_SPARE,
	SIM_GT_FULLY_BUSY,
	SIM_GT_MISFIT,
	SIM_GT_OVERLOADED,
};

/* struct sg_lb_stats: one sched_group's statistics. */
struct sim_sgs {
	u64 load, util, runnable, capacity, avg_load;
	u32 nr_running, idle_cpus, weight, max_cap, min_cap, type;
	u32 misfit_load;
};

struct sim_evt {
	u64 t;
	u64 seq;
	u32 kind;
	u32 id;
	u32 gen;
	u32 arg;
};

struct sim {
	const struct sp_model *m;
	const struct sim_story *story;
	const struct sim_opts *o;
	const struct sim_ops *ops;
	u32 policy;
	struct sim_topo topo;
	struct sp_state *st;		/* what the placement reads */
	struct sp_state *acct_st;	/* the module's accounting's own view */
	struct sp_acct *acct;
	struct sp_knobs sp_pol;		/* the module's knobs; mode: the policy's */
	bool balance_gate;		/* the balance_gate knob (sp-* policies) */
	bool kick_gate;			/* the kick_gate knob (sp-* policies) */
	bool ni_random;			/* 6.1.192's NI_RANDOM sched feature */
	bool vrt;			/* SIM_PREEMPT_VRUNTIME (rq.c) */
	u64 vr_latency, vr_min_gran, vr_wake_gran;	/* its sysctls, ns */
	u64 rng;			/* sched_rng()'s state: xorshift64*, fixed seed */
	u64 now;
	struct sim_cpu *cpu;
	struct sim_task *task;
	u32 nr_tasks, nr_done, nr_idle, nr_queued;
	bool balance_on;	/* this policy runs the load balancer */
	bool ou;		/* some CPU overutilised, as of ou_ns - 1 */
	u64 ou_ns;
	u32 nr_nohz;		/* CPUs idle in their deepest state: no tick */
	s32 parent_cpu;		/* rt-app's main thread, forking at t = 0 */
	bool forking;		/* the parent counts as running on parent_cpu */
	u64 nohz_next_balance_ns, nohz_next_blocked_ns;
	u16 llc_scan[SP_MAX_GROUPS];	/* SIS_UTIL's nr_idle_scan, by LLC span id */
	u32 pd_opp[SP_MAX_PDS];
	u32 opp_floor[SP_MAX_PDS];	/* sp-power: lowest OPP per pd, else 0 */
	u32 floor_priced[SP_MAX_PDS];	/* sp-power: sp_energy_opp_floor() per pd */
	bool floor_gap;			/* sp-power: the floor's gap limit judges */
	u64 floor_next_ns;		/* its next look */
	struct sp_floor_look floor_look[SP_MAX_CPUS];
	struct sp_floor_pd floor_pd[SP_MAX_PDS];	/* its limits over time */
	struct sp_floor_groups floor_groups;	/* the groups' recent awake time */
	u64 grp_acct[SP_MAX_GROUPS];
	u64 grp_wake_end[SP_MAX_GROUPS];	/* woken group: its CPU's chain ends */
	u64 grp_ready[SP_MAX_GROUPS];	/* woken group: up for a second CPU */
	u32 grp_up[SP_MAX_GROUPS];	/* the hardware's: CPUs keeping it up */
	struct sim_part_e grp_e[SP_MAX_GROUPS];
	u32 pkg_awake[SP_MAX_GROUPS];
	u32 nr_pkgs_awake;
	u64 all_awake_since;
	struct sim_evt *heap;
	u32 heap_n, heap_cap;
	u64 seq;
	u64 *lat;
	u64 lat_n, lat_cap;
	struct sim_result *r;
};

enum sim_ev_type { EV_WAKE, EV_DONE, EV_TICK, EV_PREEMPT, EV_IRQ, EV_IDLE_TICK, EV_EXIT_END };

/* What an interrupt on a CPU does (EV_IRQ's gen). */
enum sim_irq { IRQ_FORK, IRQ_TIMER, IRQ_ILB, IRQ_TICK };

/*
 * The calls go one way, down this list: the loop (sim.c), the policies
 * (policy.c), the load balancer (balance.c), cfs's placement (cfs.c), the
 * OPP governor (opp.c), the run queues (rq.c), the hardware (hw.c), the
 * event queue (evq.c); topo.c builds the domains the inline helpers below
 * read.  Where a lower file must reach a higher one it calls through these
 * pointers, which sim.c fills at setup:
 *
 *	freq_update	a pd's load changed (a task was enqueued, a CPU went
 *			idle): re-choose its OPP (opp_update(); the kernel's
 *			cpufreq_update_util() hook into schedutil)
 *	newidle		a CPU is about to go idle with nothing queued: may it
 *			pull a task (lb_newidle(); newidle_balance()); NULL
 *			when the policy runs no load balancer
 *
 * scripts/check-circles.sh (make circles) fails on any call back up.
 */
struct sim_ops {
	int (*freq_update)(struct sim *S, u32 pd);
	int (*newidle)(struct sim *S, u32 cpu);
};

/* evq.c: the event queue */
int evq_push(struct sim *S, u64 t, u32 kind, u32 id, u32 gen, u32 arg);
struct sim_evt evq_pop(struct sim *S);

/* hw.c: power, idle states, interrupts */
void hw_cpu_flush(struct sim *S, u32 cpu);
void hw_groups_flush(struct sim *S, u32 cpu);
void hw_group_flush(struct sim *S, u32 g);
u64 hw_cpu_wake(struct sim *S, u32 cpu);
void hw_exit_seen(struct sim *S, u32 cpu);
void hw_acct_seen(struct sim *S, u32 cpu);
int hw_cpu_go_idle(struct sim *S, u32 cpu);
int hw_irq_raise(struct sim *S, u32 cpu, u32 irq, u32 arg);
void hw_timeline(struct sim *S, u32 cpu, s32 kind, s32 level);
void hw_init_cpu(struct sim *S, u32 cpu);
void hw_finish(struct sim *S);
u32 hw_cpu_rate(const struct sim *S, u32 cpu);

/* rq.c: run queues */
int rq_enqueue(struct sim *S, u32 cpu, struct sim_task *t);
int rq_start_run(struct sim *S, u32 cpu, struct sim_task *t, u64 start);
int rq_arm_done(struct sim *S, u32 cpu);
void rq_progress(struct sim *S, u32 cpu);
int rq_rotate(struct sim *S, u32 cpu);
int rq_tick(struct sim *S, u32 cpu);
void rq_vr_init(struct sim *S);
void rq_q_add(struct sim *S, u32 cpu, struct sim_task *t);
struct sim_task *rq_q_pop(struct sim *S, u32 cpu);
void rq_q_del(struct sim *S, u32 cpu, struct sim_task *t);
void rq_dequeue(struct sim *S, u32 cpu, struct sim_task *t);
int rq_cpu_next(struct sim *S, u32 cpu);
void rq_set_task_cpu(struct sim *S, struct sim_task *t, u32 cpu);
void task_util_idle(struct sim_task *t, u64 now);
u32 sim_util_cfs(const struct sim *S, u32 cpu);

/* opp.c: the OPP governor */
int opp_update(struct sim *S, u32 pd);
void opp_init(struct sim *S);
int opp_floor_look(struct sim *S);

/* topo.c */
void topo_build(const struct sp_model *m, struct sim_topo *tp);

/* cfs.c: Linux 6.1's select_task_rq_fair() */
u32 cfs_select(struct sim *S, struct sim_task *t, u32 waker, u32 wf);
bool cfs_cpu_idle(const struct sim *S, u32 cpu);
u32 cfs_nr_running(const struct sim *S, u32 cpu);
u32 cfs_cpu_load(const struct sim *S, u32 cpu);
void cfs_group_stats(const struct sim *S, u32 d, u32 member,
		     const struct sim_task *t, bool local, struct sim_sgs *g);
u32 cfs_group_classify(u32 pct, const struct sim_sgs *g);
u32 cfs_numa_imbalance(u32 imbalance, u32 dst_running, u32 imb_numa_nr);

/* balance.c: Linux 6.1's load balancer */
void lb_init(struct sim *S);
void lb_idle_scan_refresh(struct sim *S, u32 cpu);
int lb_newidle(struct sim *S, u32 cpu);
int lb_tick(struct sim *S, u32 cpu);
int lb_idle_irq(struct sim *S, u32 cpu, u32 irq, u32 arg);

/* policy.c */
u32 sim_policy_select(struct sim *S, struct sim_task *t, u32 waker, u32 wf);
u32 sim_policy_mode(u32 policy);

static inline bool sim_cpu_is_idle(const struct sim *S, u32 cpu)
{
	return S->cpu[cpu].idle >= 0;
}

static inline const struct sp_pd *sim_cpu_pd(const struct sim *S, u32 cpu)
{
	return &S->m->pd[S->cpu[cpu].pd];
}

/*
 * max(util, util_est): 6.1's task_util_est() (the sim keeps no ewma, so
 * util_est is util_est.enqueued), and what select_hook.c hands sp_place()
 * for a woken task, max(util_avg, util_est.enqueued).
 */
static inline u32 sim_task_util_est(const struct sim_task *t)
{
	return t->util > t->util_est ? t->util : t->util_est;
}

/* The snapshot's utilisation of @cpu now, read once per timestamp. */
static inline u32 sim_cpu_util(const struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &((struct sim *)S)->cpu[cpu];

	if (c->ucache_ns != S->now) {
		c->ucache = sp_state_cpu_util(S->st, cpu, S->now);
		c->ucache_ns = S->now;
	}
	return c->ucache;
}

/* ---- the domains (topo.c builds them) ---- */

/* The CPUs of @cpu's span of domain @d. */
static inline struct sim_span topo_span(const struct sim *S, u32 d, u32 cpu)
{
	const struct sim_dom *dm = &S->topo.dom[d];
	const struct sp_group *g;

	if (dm->level == SIM_LEVEL_ALL)
		return (struct sim_span){ S->topo.all_cpus, S->m->nr_cpus };
	g = &S->m->group[S->m->cpu_group[dm->level][cpu]];
	return (struct sim_span){ S->m->group_cpus + g->cpu_off, g->nr_cpus };
}

/* An id of @cpu's span of domain @d (equal ids = same span). */
static inline u32 topo_span_id(const struct sim *S, u32 d, u32 cpu)
{
	const struct sim_dom *dm = &S->topo.dom[d];

	return dm->level == SIM_LEVEL_ALL ? 0 : S->m->cpu_group[dm->level][cpu];
}

/* The member naming @cpu's sched_group within domain @d. */
static inline u32 topo_group_id(const struct sim *S, u32 d, u32 cpu)
{
	const struct sim_dom *dm = &S->topo.dom[d];

	return dm->child == SIM_LEVEL_CPU ? cpu : S->m->cpu_group[dm->child][cpu];
}

/* The sched_groups (members) of @cpu's span of domain @d. */
static inline const u16 *topo_groups(const struct sim *S, u32 d, u32 cpu, u32 *n)
{
	u32 span = topo_span_id(S, d, cpu);

	*n = S->topo.grp_nr[d][span];
	return S->topo.grp_pool + S->topo.grp_off[d][span];
}

/* The CPUs of sched_group @member of domain @d. */
static inline struct sim_span topo_member_cpus(const struct sim *S, u32 d, u32 member)
{
	const struct sp_group *g;

	if (S->topo.dom[d].child == SIM_LEVEL_CPU)
		return (struct sim_span){ &S->topo.all_cpus[member], 1 };
	g = &S->m->group[member];
	return (struct sim_span){ S->m->group_cpus + g->cpu_off, g->nr_cpus };
}

static inline bool topo_share_llc(const struct sim *S, u32 a, u32 b)
{
	if (S->topo.llc < 0)
		return a == b;
	return topo_span_id(S, (u32)S->topo.llc, a) == topo_span_id(S, (u32)S->topo.llc, b);
}

/* capacity_of(): the CPU's capacity at its highest OPP (no RT/IRQ pressure). */
static inline u32 topo_cpu_cap(const struct sim *S, u32 cpu)
{
	return S->topo.cap[cpu];
}

#endif /* SIM_INT_H */
