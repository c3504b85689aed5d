/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_model.h - sched_power's energy model: cost tables per scheduling level.
 */

/**
 * DOC: the model
 *
 * A board is described by three kinds of object.
 *
 * Performance domains (pd): CPUs that share one clock and so one P-state.
 * Each pd carries its busy states (OPPs: frequency in kHz, capacity 1..1024,
 * busy power of one CPU in uW) in strictly increasing order, and the idle
 * states of its CPUs (C-states: power in uW, exit latency in us, target
 * residency in us, energy of one wake-up in uJ), shallowest first.
 *
 * Levels: the scheduling-domain levels above the CPU (e.g. "core" for SMT
 * siblings, "cluster", "package", "node"), smallest first.  Every level
 * partitions all CPUs into groups and every group lies inside exactly one
 * group of the next level up, so the groups form a tree.
 *
 * Groups: the CPUs of one node of that tree plus the shared hardware that can
 * only sleep when all of them sleep (uncore, L3, package PLL).  A group costs
 * active_uw while at least one of its CPUs is awake and idle_uw while all are
 * idle; waking it from its deepest idle state costs wakeup_uj and adds
 * exit_latency_us to the first CPU's wake-up.  This is the "first CPU of an
 * idle package costs more than one in an active package" term.
 *
 * All tables are built and validated on the write side (parser or the kernel's
 * topology probe) and then only read; the kernel publishes a complete model
 * with one RCU pointer swap, so readers never see a half-written table.
 */
#ifndef SP_MODEL_H
#define SP_MODEL_H

#include "sp_compat.h"

#define SP_MAX_CPUS		512
#define SP_MAX_PDS		256
#define SP_MAX_OPPS		16
#define SP_MAX_IDLE		8
#define SP_MAX_LEVELS		4
#define SP_MAX_GROUPS		512
#define SP_NAME_LEN		16
#define SP_NONE			0xffffu

/* Largest model text the parser accepts (bytes); larger input is -E2BIG. */
#define SP_MODEL_TEXT_MAX	(256 * 1024)
#define SP_CAP_SCALE		1024u

/*
 * OPP lookup by index: opp_lut[i] is the lowest OPP whose capacity covers
 * i << SP_OPP_LUT_SHIFT, for the capacities schedutil's 1.25 headroom asks
 * of utilisations 0..1024 (up to 1280).
 */
#define SP_OPP_LUT_SHIFT	5
#define SP_OPP_LUT_LEN		((1280 >> SP_OPP_LUT_SHIFT) + 1)

/* The first group's column in sp_model.lb_q10: the pds' come first. */
#define SP_LB_GROUP0		SP_MAX_PDS

/*
 * Division by an OPP's capacity as a multiply: sp_model_div_cap() is exact
 * for dividends below 2^SP_RCP_DIVIDEND_BITS (sp_model_div_cap()'s proof).
 */
#define SP_RCP_SHIFT		61
#define SP_RCP_DIVIDEND_BITS	51

/*
 * Largest exit latency of an idle state or of a group, us (100 s).  A CPU's
 * slowest wake-up, one state and a group per level, stays below 2^29 us,
 * so that the wake-up path's u32 sums of latencies (a candidate's chain,
 * its queue estimate and the deciding CPU's chain) cannot wrap.
 */
#define SP_EXIT_US_MAX		100000000u

/*
 * Bound of a pd's busy power, uW (2^40): sp_model_validate() refuses a pd
 * whose CPUs times its highest OPP's power reach it, so that the estimate's
 * clamp of a busy power at this value (sp_energy.c) never cuts one.
 */
#define SP_PD_POWER_MAX_UW	0x10000000000ULL

/* sp_pd_idle.opp_clamp of a pd without OPPs: no index is clamped. */
#define SP_OPP_NO_CLAMP		0xffffffffu

/**
 * struct sp_opp - one busy state (OPP) of a performance domain
 * @freq_khz: frequency in kHz, as cpufreq reports it
 * @cap: compute capacity at this OPP, 1..1024
 * @power_uw: busy power of one CPU at this OPP, uW
 */
struct sp_opp {
	u32 freq_khz;
	u32 cap;
	u32 power_uw;
};

/**
 * struct sp_idle_state - one idle state (C-state) of the CPUs of a pd
 * @name: its name, as the text or the cpuidle driver gives it
 * @power_uw: power of one CPU resident in this state, uW
 * @exit_latency_us: time to leave the state, us
 * @target_residency_us: shortest stay that saves energy, us
 * @wakeup_uj: energy of one exit from this state, uJ
 *
 * Whether the CPU polls in the state is its pd's (sp_pd.nr_poll).
 */
struct sp_idle_state {
	char name[SP_NAME_LEN];
	u32 power_uw;
	u32 exit_latency_us;
	u32 target_residency_us;
	u32 wakeup_uj;
};

/**
 * struct sp_pd - a performance domain: CPUs that share one clock
 * @id: id as written in the model text
 * @nr_cpus: number of its CPUs
 * @cpu_off: first index of its CPUs in sp_model.pd_cpus
 * @nr_opps: number of OPPs in @opp
 * @nr_idle: number of idle states in @idle
 * @opp: its OPPs, capacity, frequency and power strictly increasing
 * @idle: its CPUs' idle states, shallowest first
 * @nr_poll: its first @nr_poll idle states poll (x86's POLL,
 *	     CPUIDLE_FLAG_POLLING): the CPU runs there, so it keeps the groups
 *	     above it awake; the text marks each with poll=1
 * @src_line: line of the pd in the model text, 0 if built in code
 * @cap_top: derived: capacity at the highest OPP, 1024 if none
 * @eff_key: derived: P_0 / cap_0, uW per capacity unit, below 2^24
 * @wake_min_uj: derived: smallest wakeup_uj of its idle states, uJ; 0 if
 *		 none
 * @opp_lut: derived: where sp_model_pd_opp_idx() starts, per
 *	     2^SP_OPP_LUT_SHIFT of capacity asked for
 * @opp_rcp: derived: ceil(2^SP_RCP_SHIFT / cap_k) per OPP k, the reciprocal
 *	     sp_model_div_cap() divides by cap_k with
 * @opp_step_cap: derived: per OPP k, the capacity below which
 *		  sp_model_pd_opp_idx() steps past k: cap_k, all ones from the
 *		  highest OPP on (where it stops)
 *
 * The derived fields are computed by sp_model_derive() for the wake-up path.
 */
struct sp_pd {
	u16 id;
	u16 nr_cpus;
	u16 cpu_off;
	u8 nr_opps;
	u8 nr_idle;
	struct sp_opp opp[SP_MAX_OPPS];
	struct sp_idle_state idle[SP_MAX_IDLE];
	u32 src_line;
	u32 cap_top;
	u32 eff_key;
	u32 wake_min_uj;
	u8 opp_lut[SP_OPP_LUT_LEN];
	u8 nr_poll;		/* in opp_lut's padding: the layout stays */
	u64 opp_rcp[SP_MAX_OPPS];
	u32 opp_step_cap[SP_MAX_OPPS];
};

/**
 * struct sp_pd_idle - what the idle path reads of a pd, derived from it
 * @idle_late_us: per idle state, the shortest stay that a deeper state
 *		  would have paid off (the next state's target, at least this
 *		  one's); all ones for @deepest
 * @opp_urange: per OPP k, the utilisations u (0..1024) whose schedutil
 *		request sp_model_pd_opp_idx(pd, (5u + 3) / 4) is k, lowest in
 *		bits 0-15, highest in bits 16-31; lowest above highest if there
 *		are none (sp_model_pd_opp_keeps())
 * @idle_target_us: per idle state up to @deepest, its target residency; 0
 *		    without states
 * @opp_clamp: the highest OPP index, %SP_OPP_NO_CLAMP without OPPs
 * @deepest: the deepest idle state's index, 0 without states
 *
 * sp_model_derive() keeps one per pd in sp_model.pd_idle, beside the pds
 * rather than in them, so that struct sp_pd, which the wake-up path reads,
 * keeps its layout.
 */
struct sp_pd_idle {
	u64 idle_late_us[SP_MAX_IDLE];
	u32 opp_urange[SP_MAX_OPPS];
	u32 idle_target_us[SP_MAX_IDLE];
	u32 opp_clamp;
	u32 deepest;
};

/**
 * struct sp_level - a scheduling-domain level above the CPU
 * @name: e.g. "core", "cluster", "package", "node"
 * @first_group: its first group in sp_model.group: the groups of a level
 *		 are contiguous there
 * @nr_groups: number of its groups
 * @src_line: line of the level in the model text, 0 if built in code
 */
struct sp_level {
	char name[SP_NAME_LEN];
	u16 first_group;
	u16 nr_groups;
	u32 src_line;
};

/**
 * struct sp_group - the CPUs of one node of the tree and their shared hardware
 * @id: id within its level, as written
 * @level: index into sp_model.level
 * @parent: group index one level up, or %SP_NONE
 * @nr_cpus: number of its CPUs
 * @cpu_off: first index of its CPUs in sp_model.group_cpus
 * @first_child: first group index one level down, or %SP_NONE
 * @nr_children: number of groups one level down
 * @active_uw: shared power while any of its CPUs is awake, uW
 * @idle_uw: shared power while all its CPUs idle, uW
 * @wakeup_uj: energy to wake the group from its deepest idle, uJ
 * @exit_latency_us: wake-up latency it adds while idle, us
 * @src_line: line of the group in the model text, 0 if built in code
 * @sleep_wake_uj: derived: a lower bound of the wake-up energy of any of its
 *		   CPUs while the group sleeps, uJ (sp_model_derive())
 * @static_uw: derived: @active_uw - @idle_uw (0 if negative: not in a
 *	       validated model)
 * @wakeup_nj: derived: @wakeup_uj * 1000
 * @pad: unused: keeps the struct at 64 bytes, so that indexing sp_model.group
 *	 is a shift on the wake-up path
 */
struct sp_group {
	u16 id;
	u8 level;
	u16 parent;
	u16 nr_cpus;
	u16 cpu_off;
	u16 first_child;
	u16 nr_children;
	u32 active_uw;
	u32 idle_uw;
	u32 wakeup_uj;
	u32 exit_latency_us;
	u32 src_line;
	u32 sleep_wake_uj;
	u32 static_uw;
	u32 pad[2];
	u64 wakeup_nj;
};

/**
 * struct sp_gate_entry - what the load-balancer gate reads of one CPU (the
 *	placement's saturation check reads @cap too)
 * @cap: its pd's cap_top, 1024 without a pd (0..1024 in a validated model)
 * @group: its group at sp_model.gate_level, %SP_NONE without one
 *
 * sp_model_derive() fills one per CPU, so that a balance asks nothing of
 * the model but this entry (core/sp_gate.c).
 */
struct sp_gate_entry {
	u32 cap;
	u32 group;
};

/**
 * struct sp_model - a whole board
 * @nr_cpus: CPUs 0..nr_cpus-1 are described
 * @nr_pds: number of pds in @pd
 * @nr_levels: number of levels in @level
 * @nr_groups: number of groups in @group, all levels
 * @src_line: line of the header in the model text
 * @cpu_pd: pd index of each CPU
 * @cpu_group: group index of each CPU, per level
 * @pd_cpus: the CPUs of every pd, pd after pd (sp_pd.cpu_off)
 * @group_cpus: the CPUs of every group, group after group (sp_group.cpu_off)
 * @pd: the performance domains
 * @level: the levels, smallest first
 * @group: the groups, level by level and under their parents
 * @pd_idle: derived: what the idle path reads of each pd (sp_model_derive())
 * @cpu_wake_max_us: derived: each CPU's slowest wake-up, from its deepest
 *	state with every group above it asleep (sp_model_derive())
 * @cap_max: derived: the largest pd's cap_top (6.1's rd->max_cpu_capacity)
 * @lb_q10: derived: per bucket of 2^SP_OPP_LUT_SHIFT of capacity a task asks
 *	for (those of sp_pd.opp_lut), a lower bound of what a unit of the
 *	task's utilisation costs, uW per capacity unit << 10, or %SP_LB_NONE
 *	(sp_model_derive()): per pd p in column p, per group g in column
 *	%SP_LB_GROUP0 + g, the smallest of its CPUs' pds'; a decision reads one
 *	bucket's row
 * @lb_sleep_q10: derived: per bucket as @lb_q10, per group g in column g, a
 *	lower bound of what a unit of the task's utilisation costs on any CPU
 *	of g while g sleeps: busy, P-state and idle given up as in @lb_q10,
 *	plus the active - idle power of the groups it wakes from level 0 up to
 *	g, both per capacity unit of the same OPP, or %SP_LB_NONE
 *	(sp_model_derive.c: "lower bounds of a task's cost")
 * @gate_level: derived: the topmost level with more than one group, whose
 *	groups the load-balancer gate keeps apart; %SP_NONE if every level
 *	has one group (sp_model_derive())
 * @gate_cpu: derived: per CPU, its capacity and its group at @gate_level
 *	(sp_model_derive())
 */
struct sp_model {
	u32 nr_cpus;
	u16 nr_pds;
	u16 nr_levels;
	u16 nr_groups;
	u32 src_line;
	u16 cpu_pd[SP_MAX_CPUS];
	u16 cpu_group[SP_MAX_LEVELS][SP_MAX_CPUS];
	u16 pd_cpus[SP_MAX_CPUS];
	u16 group_cpus[SP_MAX_LEVELS * SP_MAX_CPUS];
	struct sp_pd pd[SP_MAX_PDS];
	struct sp_level level[SP_MAX_LEVELS];
	struct sp_group group[SP_MAX_GROUPS];
	struct sp_pd_idle pd_idle[SP_MAX_PDS];
	u32 cpu_wake_max_us[SP_MAX_CPUS];
	u32 cap_max;
	s32 lb_q10[SP_OPP_LUT_LEN][SP_LB_GROUP0 + SP_MAX_GROUPS];
	s32 lb_sleep_q10[SP_OPP_LUT_LEN][SP_MAX_GROUPS];
	u32 gate_level;
	struct sp_gate_entry gate_cpu[SP_MAX_CPUS];
};

/**
 * struct sp_parse_error - where a parse failed, for dmesg
 * @line: the line, 1-based
 * @field: the offending field
 * @msg: what is wrong with it, a static string
 * @cpu: the CPU the error is about, or -1
 */
struct sp_parse_error {
	int line;
	char field[SP_NAME_LEN];
	const char *msg;
	int cpu;
};

/**
 * sp_model_parse() - read a model text
 * @text: the text (Documentation/model-format.rst); need not be NUL-terminated
 * @len: its length in bytes
 * @out: the model, caller-allocated, need not be zeroed
 * @err: where a failure was, or NULL
 *
 * The text is checked whole, linked (sp_model_link()) and validated
 * (sp_model_validate()).  On error @out is garbage and must not be
 * published.
 *
 * Return: 0, -EINVAL (bad content, @err says where) or -E2BIG (input
 * longer than %SP_MODEL_TEXT_MAX or a table overflows).
 */
int sp_model_parse(const char *text, size_t len, struct sp_model *out,
		   struct sp_parse_error *err);

/**
 * sp_model_format() - a model as text, in canonical form
 * @m: a linked model
 * @buf: where to write, or NULL with @size 0 to learn the length
 * @size: at most this many bytes are written, the text always NUL-terminated
 *
 * parse(format(m)) == m, and format(parse(t)) == t for a canonical text t.
 *
 * Return: the length of the whole text without the NUL, like snprintf().
 */
size_t sp_model_format(const struct sp_model *m, char *buf, size_t size);

/**
 * struct sp_model_stream - a model text that arrives in chunks
 * @len: bytes fed
 * @line: line of the next byte, 1-based
 * @err_off: offset of the byte refused
 * @err: 0 while the text may be a model, or -EINVAL, -E2BIG
 * @msg: why it was refused
 * @word_off: offset of the line's first word
 * @at: where in its line the next byte falls
 * @word_len: bytes of that word so far, at most 18
 * @word: the word: one byte more than the longest kind
 * @header: the header's word was seen
 * @ended: the word "end" was seen, and a byte after it
 * @written: a byte other than a blank or LF was fed
 *
 * What can be decided about the sysfs file's text before all of it is there
 * (sp_model_stream.c).  Zero it with sp_model_stream_init(), then feed it
 * every chunk in order.
 */
struct sp_model_stream {
	u32 len;
	u32 line;
	u32 err_off;
	int err;
	const char *msg;
	u32 word_off;
	u8 at;
	u8 word_len;
	char word[18];
	bool header;
	bool ended;
	bool written;
};

/**
 * sp_model_stream_init() - start reading a new text
 * @s: the stream
 */
void sp_model_stream_init(struct sp_model_stream *s);

/**
 * sp_model_stream_feed() - read the next chunk of the text
 * @s: the stream
 * @buf: the chunk
 * @len: its length
 *
 * The text stays acceptable while it has no NUL byte, the first word of
 * every line is a kind, the header comes first, and only blank space and
 * comments follow "end".
 *
 * Return: 0 while the text may still be a model; -EINVAL when it cannot be
 * (@s->msg says why, @s->err_off and @s->line where), or -E2BIG when it
 * passes %SP_MODEL_TEXT_MAX.  A refused stream stays refused.
 */
int sp_model_stream_feed(struct sp_model_stream *s, const char *buf, size_t len);

/**
 * sp_model_stream_ended() - has the word "end" arrived?
 * @s: the stream
 *
 * Return: true once the "d" of an "end" that opens a line has been fed,
 * even as the last byte so far.
 */
bool sp_model_stream_ended(const struct sp_model_stream *s);

/**
 * sp_model_validate() - check the invariants the parser enforces
 * @m: a linked model, parsed or built in code
 * @err: where a failure was, or NULL
 *
 * Every CPU in one pd and in one group of every level, every group inside
 * one group of the next level, every pd with at least one OPP and one idle
 * state, the OPP and idle-state orders of the text format.
 *
 * Return: 0, -EINVAL or -E2BIG (@err says where).
 */
int sp_model_validate(const struct sp_model *m, struct sp_parse_error *err);

/**
 * sp_model_link() - compute the maps of a model whose tables are filled in
 * @m: the model
 * @err: where a failure was, or NULL
 *
 * Sorts the groups level by level and under their parents, and fills the
 * levels' group ranges, each group's parent and children, cpu_group[] and
 * the fields sp_model_derive() computes.
 *
 * Return: 0, -EINVAL (a group in no level, outside one group of the next
 * level, a level without groups, ...) or -E2BIG (a table overflows).
 */
int sp_model_link(struct sp_model *m, struct sp_parse_error *err);

/**
 * sp_model_synthetic() - the model of a topology, without the kernel's tables
 * @m: the model to build
 * @nr_cpus: CPUs 0..nr_cpus-1
 * @pkg_of: the package id of each CPU
 * @core_of: the core id of each CPU (SMT siblings share one), or NULL
 *	     when there is no SMT
 *
 * Used when the kernel offers neither an Energy Model nor cpufreq/cpuidle
 * tables; see "the synthetic model" (core/sp_model_build.c).
 *
 * Return: 0, -EINVAL (no CPU, no @pkg_of, an id above 65534) or -E2BIG.
 */
int sp_model_synthetic(struct sp_model *m, u32 nr_cpus, const u16 *pkg_of,
		       const u16 *core_of);

/**
 * sp_model_set_pds() - re-partition the CPUs of a linked model into pds
 * @m: the model
 * @pd_of: the pd id of each CPU: CPUs with equal ids share a pd
 * @tmpl: the OPP and idle tables every pd gets (the caller then fills in
 *	  the real ones)
 *
 * @m is linked and validated again.
 *
 * Return: 0, -EINVAL or -E2BIG (more than %SP_MAX_PDS).
 */
int sp_model_set_pds(struct sp_model *m, const u16 *pd_of, const struct sp_pd *tmpl);

/**
 * sp_model_add_level() - add a level above the top level of a linked model
 * @m: the model
 * @name: the level's name
 * @of: the group id of each CPU: CPUs with equal ids form one group
 * @tmpl: the powers, wake-up energy and exit latency of every new group
 *
 * @m is linked and validated again.
 *
 * Return: 0; -EINVAL, leaving @m untouched, if @name is not a valid name or
 * a group of the current top level would straddle two of the new groups;
 * -E2BIG if a table is full.
 */
int sp_model_add_level(struct sp_model *m, const char *name, const u16 *of,
		       const struct sp_group *tmpl);

/* sp_model.lb_q10 of a pd or group without a bound (sp_model_derive()). */
#define SP_LB_NONE		(-0x7fffffff - 1)

/**
 * sp_model_derive() - the derived fields of a linked model
 * @m: the model
 *
 * The per-pd and per-group constants the wake-up path reads, derived once
 * from the tables instead of once per decision (or idle event).  Per pd:
 * cap_top, eff_key, wake_min_uj, opp_lut, opp_rcp, its struct sp_pd_idle
 * for the idle path, and its column of lb_q10: per bucket of opp_lut, a
 * lower bound of what a unit of utilisation costs on the pd (busy, P-state
 * step and idle time given up, in uW per capacity unit, << 10) for a task
 * whose own request falls in the bucket: the smallest, over the OPPs k from
 * the bucket's on, of (P_k - max_i P_idle_i) / cap_k * 1024, each term
 * rounded against it; valid only when P_k / cap_k does not fall as k rises
 * (no OPP is more efficient than a lower one), else %SP_LB_NONE
 * (sp_model_derive.c: "lower bounds of a task's cost").  Per group: its
 * column of lb_q10, the smallest of its CPUs' pds' per bucket;
 * static_uw and wakeup_nj, the terms the energy
 * estimate reads; sleep_wake_uj and its column of lb_sleep_q10, which
 * bound what waking any of its CPUs costs while the group sleeps (then so
 * do the groups below it): the smallest, over its CPUs, of the cheapest
 * idle state's wakeup_uj plus the wakeup_uj of every group from level 0 up
 * to it; and per bucket, the smallest over its CPUs and over the OPPs k
 * from the bucket's on of (P_k + S - max_i P_idle_i) / cap_k * 1024, S the
 * active_uw - idle_uw of those groups, each term rounded against it, or
 * %SP_LB_NONE if a pd of the group has no lb_q10 bound.
 * For the load-balancer gate: gate_level and, per CPU, gate_cpu.
 *
 * sp_model_link() calls it; whoever changes a linked model's OPP, idle or
 * group tables calls it again before publishing the model.
 */
void sp_model_derive(struct sp_model *m);

/**
 * sp_model_pd_opp_for() - the OPP a pd needs for some utilisation
 * @pd: the pd
 * @util_needed: the capacity asked for, 0..1024 (or more)
 *
 * Return: the index of the lowest OPP of @pd whose capacity covers
 * @util_needed, else of the highest.
 */
static inline u32 sp_model_pd_opp_for(const struct sp_pd *pd, u32 util_needed)
{
	u32 i;

	for (i = 0; i + 1 < pd->nr_opps; i++)
		if (pd->opp[i].cap >= util_needed)
			break;
	return i;
}

/**
 * sp_model_pd_opp_idx() - sp_model_pd_opp_for() through the derived table
 * @pd: a pd of a derived model (sp_model_derive())
 * @util_needed: the capacity asked for
 *
 * Starts at the table's entry for @util_needed and steps over at most the
 * OPPs whose capacities lie within 2^SP_OPP_LUT_SHIFT below it; the step
 * table's all-ones entry at the highest OPP ends the walk there, so the
 * loop has one compare.
 *
 * Return: the same OPP as sp_model_pd_opp_for().
 */
static inline u32 sp_model_pd_opp_idx(const struct sp_pd *pd, u32 util_needed)
{
	u32 i = util_needed >> SP_OPP_LUT_SHIFT, k;

	k = pd->opp_lut[i < SP_OPP_LUT_LEN ? i : SP_OPP_LUT_LEN - 1];
	while (pd->opp_step_cap[k] < util_needed)
		k++;
	return k;
}

/**
 * sp_model_div_cap() - floor(@y / cap_k), without a division
 * @pd: a pd of a derived model (sp_model_derive())
 * @k: an OPP of @pd
 * @y: the dividend, below 2^SP_RCP_DIVIDEND_BITS (2^51)
 *
 * With m = opp_rcp[k] = ceil(2^61 / c) for c = cap_k, 1..1024, m * c =
 * 2^61 + e with 0 <= e < c, so y * m / 2^61 = y / c + y * e / (c * 2^61),
 * and the second part is below 1 / c because y * e < 2^51 * 2^10.  y / c
 * is floor(y / c) plus at most (c - 1) / c, so the sum stays below the
 * next integer: the shifted product is floor(y / c) exactly.  Every
 * dividend the energy estimate takes is below 2^51: a power below 2^32
 * uW times a capacity sum of at most 512 CPUs * 1024.
 *
 * Return: floor(@y / cap_k).
 */
static inline u64 sp_model_div_cap(const struct sp_pd *pd, u32 k, u64 y)
{
	return sp_mul_u64_u64_shr(y, pd->opp_rcp[k], SP_RCP_SHIFT);
}

/**
 * sp_model_div_rcp() - sp_model_div_cap() with the reciprocal already read
 * @y: the dividend, below 2^SP_RCP_DIVIDEND_BITS
 * @rcp: opp_rcp[k] of a pd
 *
 * Return: floor(@y / cap_k).
 */
static inline u64 sp_model_div_rcp(u64 y, u64 rcp)
{
	return sp_mul_u64_u64_shr(y, rcp, SP_RCP_SHIFT);
}

/**
 * sp_model_pd_urange() - the utilisations that ask for an OPP
 * @pi: a pd's idle-path table in a derived model (sp_model_derive())
 * @k: an OPP index
 *
 * Return: opp_urange[@k], none (lowest 65535, highest 0) past the table.
 */
static inline u32 sp_model_pd_urange(const struct sp_pd_idle *pi, u32 k)
{
	return k < SP_MAX_OPPS ? pi->opp_urange[k] : 0xffffu;
}

/**
 * sp_model_urange_keeps() - is a utilisation in an OPP's run?
 * @r: the run, as sp_model_pd_urange() gives it
 * @util: the utilisation, 0..1024
 *
 * Return: true if @util is in @r.
 */
static inline bool sp_model_urange_keeps(u32 r, u32 util)
{
	return util >= (r & 0xffffu) && util <= r >> 16;
}

/**
 * sp_model_pd_opp_keeps() - does a utilisation still ask for the same OPP?
 * @pi: a pd's idle-path table in a derived model (sp_model_derive())
 * @k: an OPP index, as a CPU asked for it before
 * @util: the utilisation now, 0..1024
 *
 * Return: true if sp_model_pd_opp_idx() of the pd for (5 * @util + 3) / 4
 * is @k: two compares against opp_urange instead of the lookup.
 */
static inline bool sp_model_pd_opp_keeps(const struct sp_pd_idle *pi, u32 k, u32 util)
{
	return sp_model_urange_keeps(sp_model_pd_urange(pi, k), util);
}

#endif /* SP_MODEL_H */
