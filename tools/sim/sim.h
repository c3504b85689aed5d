/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - the sched_power simulator as a library: stories, policies, runs.
 *
 * A story (story.c) is an rt-app-like JSON description of tasks; a run
 * (sim.c) plays it on a model (a models/NAME.model file) under one placement
 * policy (policy.c, cfs.c) with Linux 6.1's load balancer (balance.c) and
 * fills a struct sim_result; bound.c gives a lower bound on the energy and
 * oracle.c the best static schedule it can find; report.c prints results as
 * text tables, CSV and ratios.  main.c only parses the command line.
 * Documentation/simulator.rst describes the model.
 */
#ifndef SIM_H
#define SIM_H

#include <stdio.h>

#include "sp_place.h"

#define SIM_NAME_LEN		32
#define SIM_DESC_LEN		256
#define SIM_MAX_TIMERS		8
#define SIM_ERR_LEN		256

enum sim_ev_kind {
	SIM_EV_RUN,		/* work: us at capacity 1024 */
	SIM_EV_RUNTIME,		/* busy for wall-clock us, whatever the OPP */
	SIM_EV_SLEEP,		/* block for us */
	SIM_EV_TIMER,		/* block until the next period of a timer */
};

struct sim_ev {
	u32 kind;		/* enum sim_ev_kind */
	u32 timer;		/* SIM_EV_TIMER: index into the task's timers */
	u64 us;			/* amount, or the timer's period */
};

struct sim_phase {
	u32 loop;
	u32 first_ev;
	u32 nr_ev;
};

struct sim_task_def {
	char name[SIM_NAME_LEN];
	u32 instance;
	u32 loop;
	u32 first_phase;
	u32 nr_phases;
	u32 nr_timers;
};

struct sim_story {
	char name[SIM_NAME_LEN];
	char desc[SIM_DESC_LEN];
	u32 nr_defs, nr_phases, nr_evs;
	struct sim_task_def *defs;
	struct sim_phase *phases;
	struct sim_ev *evs;
};

/* Load @path into @s; on error returns -1 with a message naming the place. */
int sim_story_load(const char *path, struct sim_story *s, char *err, size_t len);
int sim_story_parse(const char *text, size_t n, const char *where,
		    struct sim_story *s, char *err, size_t len);
void sim_story_free(struct sim_story *s);

/* Task instances of @s (the sum of the definitions' "instance"). */
u32 sim_story_tasks(const struct sim_story *s);

enum sim_policy_id {
	SIM_POL_CFS,
	SIM_POL_SPREAD,
	SIM_POL_PACK,
	SIM_POL_EAS,
	SIM_POL_SP_OBSERVE,
	SIM_POL_SP_POWER,
	SIM_POL_SP_BALANCED,
	SIM_POL_SP_PERFORMANCE,
	SIM_POL_SP_POWER_NOFLOOR,	/* power mode with opp_floor=0 */
	SIM_POL_NR,		/* the policies of a default run end here */
	SIM_POL_PINNED = SIM_POL_NR,	/* sim_opts.pin[]: the oracle's runs */
	SIM_POL_ORACLE,		/* result rows: the oracle's best schedule */
	SIM_POL_ORACLE_LAT,	/* result rows: the best within cfs's latency */
	SIM_POL_ORACLE_LAT_SU,	/* ... with every pd under schedutil */
	SIM_POL_LOWER_BOUND,	/* result rows: the bound */
	SIM_POL_ALL,
};

extern const char *const sim_policy_names[SIM_POL_ALL];
int sim_policy_by_name(const char *name);

static inline bool sim_policy_is_sp(u32 p)
{
	return p >= SIM_POL_SP_OBSERVE && p <= SIM_POL_SP_POWER_NOFLOOR;
}

/* Energies in fJ (uW * ns); __int128 keeps 256 CPUs x minutes exact. */
typedef unsigned __int128 sim_fj;

struct sim_result {
	char story[SIM_NAME_LEN];
	u32 policy;		/* enum sim_policy_id */
	u64 makespan_ns;
	sim_fj e_busy, e_idle, e_wake;
	u64 lat_p50_ns, lat_p99_ns, lat_max_ns;
	u64 wakeups;		/* task wake-ups (latency samples) */
	u64 pkg_wakeups;	/* top-level group idle -> awake */
	u64 migrations;		/* task_cpu changes: placement and balancer */
	u64 verdict[3];		/* early, hit, late */
	u64 events;		/* scheduling events processed */
	u64 decisions;		/* placement decisions */
	/* the validation metrics (Documentation/simulator.rst) */
	u64 wake_prev_pkg;	/* wake-ups placed in the package of prev_cpu */
	u64 wake_placed;	/* wake-ups with a prev_cpu (forks excluded) */
	u64 wake_on_prev;	/* ... placed on prev_cpu */
	u64 wake_on_waker;	/* ... on the waker's CPU (not prev_cpu) */
	u64 wake_queued;	/* ... on a CPU with a task running or queued */
	u64 wake_queued_idle_pkg;	/* ... while a CPU of its package idled */
	u64 wake_queued_idle_far;	/* ... while only another package's did */
	u64 wake_queued_idle_awake_pkg;	/* ... while another CPU idled in an
					 * awake package (the latency defect) */
	u64 all_pkgs_awake_ns;	/* time every package had an awake CPU */
	sim_fj e_acct;		/* the module's modelled energy (core/sp_acct.c) */
	/* what the balancer and the interrupts did */
	u64 lb_pulled;		/* tasks moved by load balancing */
	u64 lb_active;		/* of which running tasks (active balance) */
	u64 ilb_kicks;		/* idle CPUs woken to balance for others */
	u64 irq_wakes;		/* idle CPUs woken by a timer whose task went elsewhere */
	u64 lb_gated;		/* load_balance() calls sched_power's gate stopped */
	u64 lb_gate_passed;	/* ... that crossed the gate level, let through */
	u64 kick_gated;		/* nohz kicks sched_power's kick gate stopped */
	u64 work_ns;		/* the story's run segments, ns at full capacity */
	bool aborted;		/* stopped at sim_opts.abort_fj: energy is partial */
	/* the oracle's schedule (SIM_POL_ORACLE, _ORACLE_LAT and _LAT_SU rows) */
	u32 searched;		/* schedules simulated */
	char plan[96];		/* "pins=0,0,2 opp=2,su" */
};

/* A run's knobs; a NULL sim_opts is all defaults. */
struct sim_opts {
	FILE *timeline;		/* "cpu start_us end_us state level" lines, or NULL */
	u64 timeline_end_ns;	/* stop writing after this, 0 = never */
	FILE *decisions;	/* sp-* policies: one line per sp_place(), or NULL */
	FILE *wakeups;		/* one line per wake-up latency sample, or NULL */
	FILE *energy;		/* the energy per CPU and per group, or NULL */
	const s16 *pin;		/* SIM_POL_PINNED: CPU of each task instance */
	const s8 *fixed_opp;	/* per pd: fixed OPP index, -1 schedutil; NULL all */
	bool acct_deepest;	/* the module's accounting sees every idle as the
				 * deepest state (a kernel without cpuidle driver) */
	sim_fj abort_fj;	/* stop once the energy so far exceeds it; 0 never */
	u64 abort_ns;		/* stop once the time exceeds it; 0 never */
	bool opp_floor;		/* every pd floored as sp-power's (opp_floor=1) */
	bool balance_gate_off;	/* sched_power's balance_gate knob at 0 */
	bool kick_gate_off;	/* sched_power's kick_gate knob at 0 */
	bool ni_random_off;	/* every newly-idle balance runs (NO_NI_RANDOM) */
	u64 rng_seed;		/* NI_RANDOM's dice: 0 = SIM_RNG_SEED */
	bool idle_exit_end;	/* the snapshot and the module's accounting see
				 * an idle exit when it ends, as 6.1's
				 * cpu_idle exit event; by default when it
				 * starts (hw.c) */
};

/*
 * The run queues' preemption model, for every run and bound of the
 * process (the oracles' runs included) from the call on:
 *
 *	SIM_PREEMPT_VRUNTIME	the default, 6.1's CFS for nice-0 tasks:
 *				per-task vruntime and per-CPU min_vruntime,
 *				wake-up preemption by wakeup_preempt_entity(),
 *				tick preemption by check_preempt_tick()
 *				(tools/sim/rq.c)
 *	SIM_PREEMPT_GRAN	a flat slice: a woken task queues ahead of the
 *				waiting ones and preempts the running one once
 *				that has had 1 ms of its slice; the tick rotates
 *				after a 4 ms slice.  Simpler to reason about by
 *				hand (the bound's item 5, tests of a mechanism
 *				that preemption would blur)
 */
enum sim_preempt { SIM_PREEMPT_GRAN, SIM_PREEMPT_VRUNTIME };
void sim_set_preempt(u32 model);
u32 sim_get_preempt(void);

/* Play @s on @m under @policy.  Returns 0, or -1 if out of memory. */
int sim_run(const struct sp_model *m, const struct sim_story *s, u32 policy,
	    const struct sim_opts *o, struct sim_result *r);

/* The offline lower bound on energy and makespan for the work of @s on @m. */
void sim_lower_bound(const struct sp_model *m, const struct sim_story *s,
		     struct sim_result *r);

/*
 * Where the oracle applies (oracle.c): stories of at most 8 task instances
 * on models of at most 8 CPUs (the sizes of its arrays) whose pinnings up
 * to symmetry number at most SIM_ORACLE_MAX_PINNINGS.
 */
#define SIM_ORACLE_MAX_TASKS	8
#define SIM_ORACLE_MAX_CPUS	8
#define SIM_ORACLE_MAX_PINNINGS	8192

/*
 * The number of pinnings of @s's task instances on @m's CPUs up to
 * symmetry, the oracle's search: 0 for a story without tasks, and
 * SIM_ORACLE_MAX_PINNINGS + 1 for any number above SIM_ORACLE_MAX_PINNINGS
 * or a story beyond SIM_ORACLE_MAX_TASKS or SIM_ORACLE_MAX_CPUS.
 */
u32 sim_oracle_pinnings(const struct sp_model *m, const struct sim_story *s);

/*
 * The best static schedule found for @s on @m (oracle.c): a pinning of
 * every task instance to a CPU and an OPP per pd, simulated by sim_run().
 * Returns 0 with @r its result, 1 if the oracle does not apply (@r zeroed,
 * policy SIM_POL_ORACLE), -1 if out of memory.
 */
int sim_oracle(const struct sp_model *m, const struct sim_story *s,
	       struct sim_result *r);

/*
 * oracle-lat (oracle.c): the best static schedule found whose p99 wake-up
 * latency is at most 1.1 x that of @cfs (cfs's run of @s on @m) and whose
 * makespan at most 1.02 x.  Returns as sim_oracle(); with 0 and @r's
 * makespan 0 and plan "none" when no schedule searched meets the bounds.
 */
int sim_oracle_lat(const struct sp_model *m, const struct sim_story *s,
		   const struct sim_result *cfs, struct sim_result *r);

/*
 * oracle-lat-su (oracle.c): as sim_oracle_lat(), with every pd under the
 * schedutil-like governor: the best static placement at the OPPs that
 * cfs's governor picks, what placement alone reaches; with @floor, the
 * governor floors every pd as sp-power's does (sim_opts.opp_floor).
 */
int sim_oracle_lat_su(const struct sp_model *m, const struct sim_story *s,
		      const struct sim_result *cfs, bool floor, struct sim_result *r);

static inline sim_fj sim_total(const struct sim_result *r)
{
	return r->e_busy + r->e_idle + r->e_wake;
}

/* uJ (rounded down) of @e fJ, as a double for printing. */
double sim_uj(sim_fj e);

/* Reports over @n results (grouped by story in order). */
void sim_report_text(FILE *f, const struct sim_result *r, u32 n);
void sim_report_csv(FILE *f, const struct sim_result *r, u32 n);
void sim_report_ratios(FILE *f, const struct sim_result *r, u32 n);
void sim_report_metrics(FILE *f, const struct sim_result *r, u32 n);

/* The four validation metrics of one result, as printed. */
double sim_metric_prev_pkg(const struct sim_result *r);
double sim_metric_migr_per_s(const struct sim_result *r);
double sim_metric_all_awake(const struct sim_result *r);

/* gnuplot data: "policy energy_mJ p99_us" per story into @dir. */
int sim_report_plotdata(const char *dir, const struct sim_result *r, u32 n);

/* The verdict rule of core/sp_idle: early / hit / late. */
enum sim_verdict { SIM_V_EARLY, SIM_V_HIT, SIM_V_LATE };
u32 sim_verdict(const struct sp_pd *pd, u32 idx, u64 residency_us);

#endif /* SIM_H */
