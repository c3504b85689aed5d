/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - sp-report: what a trace-cmd recording of sched_power says.
 *
 * The reader (read.c) turns a trace.dat into a flat array of decoded
 * events (struct rep_event), looking every field up by name.  The analysis
 * (analyse.c, replay.c) works on that array only, so host tests and the
 * fuzzer can feed it without a trace file.  print.c, plot.c and diff.c
 * format the result (struct rep_result).
 */
#ifndef SP_REPORT_H
#define SP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sp_acct.h"

#define REP_NAME_LEN	24
#define REP_COMM_LEN	16
#define REP_MAX_NAMES	32	/* reasons, modes, wake types */
#define REP_NONE	(-1)
#define REP_MARK_LEN	40

enum rep_kind {
	REP_EV_SELECT,		/* sched_power:sched_power_select */
	REP_EV_SP_IDLE,		/* sched_power:sched_power_idle */
	REP_EV_CPU_IDLE,	/* power:cpu_idle */
	REP_EV_CPU_FREQ,	/* power:cpu_frequency */
	REP_EV_WAKING,		/* sched:sched_waking */
	REP_EV_WAKEUP_NEW,	/* sched:sched_wakeup_new */
	REP_EV_WAKEUP,		/* sched:sched_wakeup (where the waking task was placed) */
	REP_EV_MIGRATE,		/* sched:sched_migrate_task */
	REP_EV_SWITCH,		/* sched:sched_switch */
	REP_EV_MARKER,		/* ftrace:print (trace_marker), for --window */
	REP_EV_BALANCE,		/* sched_power:sched_power_balance (the gate) */
	REP_EV_OTHER,		/* any other event: counted in cpu_seen, not kept */
};

/* power:cpu_idle's state for an idle exit (PWR_EVENT_EXIT). */
#define REP_IDLE_EXIT	4294967295ull

/* One sched_power_select, in either event format (missing fields: -1). */
struct rep_select {
	int32_t pid;
	char comm[REP_COMM_LEN];
	int32_t util;
	int32_t prev_cpu, cfs_cpu, policy_cpu, ret_cpu;
	int32_t applied;		/* 0.2 only */
	uint8_t reason, mode, wake;	/* indices into rep_names tables */
	int64_t cfs_nj, chosen_nj;
	int64_t busy_nj, idle_nj, wake_nj, pstate_nj, static_nj;
	int64_t queue_us, lat_bound_us;	/* 0.2 only */
};

struct rep_event {
	uint64_t ts_ns;		/* trace clock (local_clock() by default) */
	int32_t cpu;		/* CPU of the ring buffer the record is from */
	uint8_t kind;		/* enum rep_kind */
	union {
		struct rep_select sel;
		struct {		/* sched_power_idle */
			int32_t cpu, state, verdict;	/* verdict: name index */
			uint64_t residency_us, target_us;
		} spi;
		struct {		/* cpu_idle, cpu_frequency */
			int32_t cpu;
			uint64_t value;	/* state index / REP_IDLE_EXIT, or kHz */
		} pw;
		struct {		/* sched_waking, sched_wakeup(_new) */
			int32_t pid, target_cpu;
			char comm[REP_COMM_LEN];
		} wk;
		struct {		/* sched_migrate_task */
			int32_t pid, orig_cpu, dest_cpu;
			char comm[REP_COMM_LEN];
		} mg;
		struct {		/* sched_switch */
			int32_t prev_pid, next_pid;
			int64_t prev_state;
			char next_comm[REP_COMM_LEN];
		} sw;
		char mark[REP_MARK_LEN];	/* trace_marker text, no newline */
		struct {		/* sched_power_balance */
			int32_t cpu, passed;
			uint8_t reason;	/* index into rep_trace.gates */
		} lb;
	};
};

/* A table of names (reasons, modes, wake types, verdicts), index = id. */
struct rep_names {
	uint32_t nr;
	char name[REP_MAX_NAMES][REP_NAME_LEN];
};

/* Which optional parts the recording has. */
struct rep_format {
	bool has_select, has_sp_idle, has_cpu_idle, has_cpu_freq;
	bool has_waking, has_switch;
	bool has_wakeup, has_migrate;	/* sched_wakeup, sched_migrate_task */
	bool v01;		/* older select format: chosen_cpu, wake_flags */
	bool has_mode, has_applied, has_queue, has_lat_bound;
	bool has_static;	/* 0.3: static_nj, future_nj, queue_us, queued */
	bool has_model_cpu;	/* 0.4: policy_cpu renamed model_cpu */
	bool has_balance;	/* sched_power_balance */
};

struct rep_trace {
	struct rep_event *ev;
	size_t nr, cap;
	uint32_t nr_cpus;	/* CPUs of the recording */
	uint64_t lost;		/* events the ring buffer dropped */
	uint64_t lost_pages;	/* records that said "lost an unknown number" */
	uint64_t nr_records;	/* every record read, of any event */
	uint64_t cpu_seen[(SP_MAX_CPUS + 63) / 64];	/* CPUs with any record */
	struct rep_format fmt;
	struct rep_names reasons, modes, wakes, verdicts;
	struct rep_names gates;	/* sched_power_balance's reasons */
	char version[32];	/* libtracecmd's file version */
};

/* Grow-on-demand sample array. */
struct rep_vec {
	uint64_t *v;
	size_t nr, cap;
};

struct rep_task {
	int32_t pid;
	char comm[REP_COMM_LEN];
	uint64_t cpus[(SP_MAX_CPUS + 63) / 64];	/* CPUs it was switched in on */
	int32_t last_cpu;		/* REP_NONE before its first switch-in */
	uint64_t migrations;		/* switch-ins on another CPU than the last */
	uint64_t decisions, overrides;
	uint64_t util_sum;		/* the util field of its decisions, summed */
	uint64_t waking_ns;		/* pending wake-up, 0 if none */
	int64_t bound_us;		/* lat_bound_us of its last decision */
	bool running;			/* switched in and not out */
	struct rep_vec lat_ns;		/* wake-up latencies */
	uint64_t bound_missed;		/* measured latency > its bound */
};

struct rep_count {
	uint64_t decisions, overrides;
	int64_t saved_nj;		/* sum of cfs_nj - chosen_nj of overrides */
};

/* One busy or idle stretch of one CPU, for the timeline plot. */
struct rep_seg {
	uint64_t start_ns, end_ns;
	uint16_t cpu;
	int16_t idle;		/* idle state index, or -1 when busy */
	int16_t opp;		/* OPP index the accounting charged when busy */
};

/* Modelled energy so far, for "energy terms over time". */
struct rep_sample {
	uint64_t ts_ns;
	uint64_t busy_nj, pstate_nj, idle_nj, wake_nj, shared_nj, shared_wake_nj;
};

/* Package @pkg (index among the packages) turned awake or asleep at @ts_ns. */
struct rep_flip {
	uint64_t ts_ns;			/* the recorded clock, before --slowdown */
	uint32_t pkg;
	bool awake;
};

struct rep_pkg {
	uint32_t group;			/* model group index */
	uint32_t id;			/* id as written in the model */
	char cpus[64];			/* "0-1" */
	struct sp_energy_sum grp;	/* the group's own terms */
	uint64_t busy_nj, pstate_nj, idle_nj, wake_nj;	/* its CPUs' terms */
	uint64_t cpu_wakeups;		/* idle exits of its CPUs */
};

struct rep_state_verdict {
	char name[SP_NAME_LEN];
	uint64_t target_us;
	uint64_t entries, residency_us;
	uint64_t verdict[SP_V_NR];
};

struct rep_result {
	const char *path;
	const char *win_from, *win_to;	/* --window markers, or NULL */
	uint64_t span_from_ns, span_to_ns;	/* --span; span_to_ns 0: none */
	double slowdown;		/* --slowdown: guest time per unit of work, 0 = 1 */
	bool idle_deepest;		/* idle entries count as the deepest state */
	char model_path[512];
	uint64_t start_ns, end_ns;
	uint32_t nr_cpus;
	struct rep_trace *t;

	/* decisions */
	struct rep_count total;
	struct rep_count by_reason[REP_MAX_NAMES];
	struct rep_count by_mode[REP_MAX_NAMES];
	struct rep_count by_wake[REP_MAX_NAMES];

	/* tasks */
	struct rep_task *tasks;
	size_t nr_tasks, cap_tasks;
	struct rep_vec all_lat_ns;

	/* modelled energy (replay) */
	bool energy;			/* power:cpu_idle replayed */
	uint32_t model_cpus;
	struct rep_pkg pkg[SP_MAX_GROUPS];
	uint32_t nr_pkgs;
	char pkg_level[SP_NAME_LEN];
	struct sp_energy_sum cpu_sum[SP_MAX_CPUS];
	uint64_t cpu_pstate_nj[SP_MAX_CPUS];
	uint64_t total_nj;
	uint64_t all_pkgs_awake_ns;	/* every package awake at once */
	uint64_t work_total_nj;		/* the estimator: busy charged per unit of work */
	uint64_t work_busy_nj;		/* its busy term */
	uint64_t work_stretch_nj;	/* at most this more on hardware (replay.c) */
	struct rep_seg *segs;
	size_t nr_segs, cap_segs;
	struct rep_sample *samples;
	size_t nr_samples, cap_samples;
	uint64_t idle_exits_unseen;	/* exits whose entry was not seen */
	bool awake_known;		/* flips holds the packages' awake timeline */
	struct rep_flip *flips;		/* its changes in time order, from the first event */
	size_t nr_flips, cap_flips;

	/* latency bound */
	uint64_t bounded;		/* decisions with lat_bound_us > 0 */
	uint64_t bound_model_violations;
	uint64_t bound_measured;	/* bounded wake-ups whose latency was measured */
	uint64_t bound_measured_violations;
	uint64_t reason_latency_bound;

	/* idle verdicts (sched_power_idle) */
	struct rep_state_verdict vstate[SP_MAX_IDLE];
	uint32_t nr_vstates;
	uint64_t verdict_total[SP_V_NR];
};

/* The mechanism counts of one recording (counts.c, --counts). */
struct rep_counts {
	uint64_t wakeups;		/* story-thread wake-ups in the span */
	struct rep_vec lat_ns;		/* their latencies */
	bool migr_from_migrate;		/* sched_migrate_task, else sched_switch */
	uint64_t migrations, xpkg_migrations;	/* all moves, moves between packages */
	uint64_t sel_n, sel_same;	/* wake-up decisions, those in prev_cpu's package */
	uint64_t ttwu_n, ttwu_same;	/* the same from sched_waking/sched_wakeup */
	uint64_t run_ns[SP_MAX_GROUPS];	/* story threads on a CPU of package N, in the span */
	uint64_t run_total_ns;		/* their sum */
	bool complete;			/* the recording covers the span */
	/* counts.c's DOC: wake-ups that queue */
	uint64_t wake_judged;		/* wake-ups whose decision was seen */
	uint64_t wake_queued;		/* placed on a CPU running or expecting a task */
	uint64_t wake_queued_idle_pkg;	/* ... while a CPU of its package idled */
	uint64_t wake_queued_idle_far;	/* ... while only another package's did */
	uint64_t wake_queued_idle_awake_pkg;	/* ... while a CPU of an awake package idled */
	uint64_t awake_by_reason[REP_MAX_NAMES + 1];	/* the last: no decision event */
	uint64_t awake_waited, awake_moved;	/* ... then ran where placed, or elsewhere */
	struct rep_vec awake_lat_ns;	/* ... their wake-up latencies */
	uint64_t awake_lb[REP_MAX_NAMES];	/* balances meanwhile on those idle CPUs */
	bool has_pkgs;			/* a model: the package counts exist */
	bool has_awake;			/* the awake timeline: wake_queued_idle_awake_pkg exists */
};

struct rep_opts {
	const char *model_file;		/* --model, else next to the recording */
	const char *default_model;	/* models/x86-2pkg.model */
	const char *win_from, *win_to;	/* --window FROM,TO trace_marker texts */
	uint64_t span_from_ns, span_to_ns;	/* --span, trace clock; to 0: none */
	const char *comms;		/* --comm: the story's thread names */
	double slowdown;		/* --slowdown */
	uint32_t max_tasks;		/* rows of the task table, 0 = all */
	uint32_t nr_samples;		/* energy-over-time points */
	bool quiet;			/* no notes on stderr */
	bool idle_deepest;		/* --idle-deepest */
	bool counts;			/* --counts */
};

/* read.c */
int rep_read(const char *path, struct rep_trace *t, char *err, size_t len);
int rep_read_fd(int fd, struct rep_trace *t, char *err, size_t len);
void rep_trace_free(struct rep_trace *t);
int rep_trace_push(struct rep_trace *t, const struct rep_event *e);
uint8_t rep_name_id(struct rep_names *n, const char *name);
const char *rep_name(const struct rep_names *n, uint32_t id);

/* analyse.c */
int rep_analyse(struct rep_result *r, struct rep_trace *t, const struct sp_model *m);
void rep_result_free(struct rep_result *r);
bool rep_is_override(const struct rep_trace *t, const struct rep_select *s);
uint64_t rep_pct_ns(struct rep_vec *v, uint32_t pct);
int rep_vec_push(struct rep_vec *v, uint64_t x);

/* replay.c */
uint32_t rep_pkg_level(const struct sp_model *m);
int rep_replay(struct rep_result *r, const struct rep_trace *t, const struct sp_model *m,
	       uint32_t nr_samples);
int rep_awake_timeline(struct rep_result *r, const struct rep_trace *t, const struct sp_model *m);

/* print.c */
const char *rep_format_name(const struct rep_trace *t);
void rep_print_text(FILE *f, struct rep_result *r, const struct rep_opts *o);
void rep_print_csv(FILE *f, struct rep_result *r);
void rep_print_json(FILE *f, struct rep_result *r);

/* counts.c */
int rep_counts(struct rep_counts *c, const struct rep_result *r, const struct sp_model *m,
	       const char *comms);
void rep_counts_free(struct rep_counts *c);
void rep_print_counts(FILE *f, struct rep_result *r, struct rep_counts *c);

/* plot.c */
int rep_plot(const char *dir, struct rep_result *r, const struct sp_model *m,
	     const char *preamble);

/* diff.c */
void rep_print_diff(FILE *f, struct rep_result *a, struct rep_result *b);

/* util.c */
void rep_cpus_str(const uint64_t *mask, uint32_t nr, char *buf, size_t len);

#endif /* SP_REPORT_H */
