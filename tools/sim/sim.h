/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - the sched_power simulator as a library: stories, policies, runs.
 *
 * A story (story.c) is an rt-app-like JSON description of tasks; a run
 * (sim.c) plays it on a model (a models/NAME.model file) under one placement policy
 * (policy.c) and fills a struct sim_result; report.c prints results as a
 * text table, CSV and the headline ratio table.  main.c only parses the
 * command line.  Documentation/simulator.rst describes the event model.
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

enum sim_policy_id {
	SIM_POL_SP_OBSERVE,
	SIM_POL_SP_POWER,
	SIM_POL_SP_BALANCED,
	SIM_POL_SP_PERFORMANCE,
	SIM_POL_SPREAD,
	SIM_POL_PACK,
	SIM_POL_EAS,
	SIM_POL_NR,		/* real policies end here */
	SIM_POL_LOWER_BOUND = SIM_POL_NR,
	SIM_POL_ALL,
};

extern const char *const sim_policy_names[SIM_POL_ALL];
int sim_policy_by_name(const char *name);

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
	u64 migrations;
	u64 verdict[3];		/* early, hit, late */
	u64 events;		/* scheduling events processed */
	u64 decisions;		/* placement decisions */
};

/* Per-CPU timeline, written by a run when sim_opts.timeline is set. */
struct sim_opts {
	FILE *timeline;		/* "cpu start_us end_us state" lines, or NULL */
	u64 timeline_end_ns;	/* stop writing after this, 0 = never */
};

/* Play @s on @m under @policy.  Returns 0, or -1 if out of memory. */
int sim_run(const struct sp_model *m, const struct sim_story *s, u32 policy,
	    const struct sim_opts *o, struct sim_result *r);

/* The offline lower bound on energy for the work of @s on @m. */
void sim_lower_bound(const struct sp_model *m, const struct sim_story *s,
		     struct sim_result *r);

static inline sim_fj sim_total(const struct sim_result *r)
{
	return r->e_busy + r->e_idle + r->e_wake;
}

/* uJ (rounded down) of @e fJ, as a double for printing. */
double sim_uj(sim_fj e);

/* Load a model file; -1 with a message on error. */
int sim_model_load(const char *path, struct sp_model *m, char *err, size_t len);

/* Reports over @n results (grouped by story in order). */
void sim_report_text(FILE *f, const struct sim_result *r, u32 n);
void sim_report_csv(FILE *f, const struct sim_result *r, u32 n);
void sim_report_ratios(FILE *f, const struct sim_result *r, u32 n);

/* gnuplot data: "policy energy_uj p99_us" per story into @dir. */
int sim_report_plotdata(const char *dir, const struct sim_result *r, u32 n);

/* The verdict rule of core/sp_idle (until it lands): early / hit / late. */
enum sim_verdict { SIM_V_EARLY, SIM_V_HIT, SIM_V_LATE };
u32 sim_verdict(const struct sp_pd *pd, u32 idx, u64 residency_us);

#endif /* SIM_H */
