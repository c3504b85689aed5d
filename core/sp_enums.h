/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_enums.h - every enum sched_power prints, as one EM()/EMe() list each.
 */

/**
 * DOC: one list per enum
 *
 * A list names each value and its printed name once.  The core expands it
 * into the enum and the name table (SP_ENUM_DEFINE, SP_ENUM_NAMES), the
 * trace header into TRACE_DEFINE_ENUM() and __print_symbolic() tables, as
 * include/trace/events/migrate.h does, so names can never drift from values.
 * A list is a macro of two arguments, EM(value, name) and EMe(value, name)
 * (the last entry): what to make of each entry.  SP_ENUM_DEFINE() and
 * SP_ENUM_NAMES() pass their own, so no user of an enum defines them; the
 * trace header passes EM and EMe as migrate.h defines them.
 */
#ifndef SP_ENUMS_H
#define SP_ENUMS_H

/* Policy modes (the `mode` knob). */
#define SP_MODE_LIST(EM, EMe)						\
	EM(SP_MODE_OFF,		"off")		/* hook returns at once */	\
	EM(SP_MODE_OBSERVE,	"observe")	/* decide, trace, never act */	\
	EM(SP_MODE_POWER,	"power")	/* minimise energy */		\
	EM(SP_MODE_BALANCED,	"balanced")	/* ... within a guard */	\
	EMe(SP_MODE_PERFORMANCE, "performance")	/* keep CFS, still trace */

/* Why a decision kept or moved CFS's CPU (core/sp_place.c DOC block). */
#define SP_REASON_LIST(EM, EMe)						\
	EM(SP_R_CFS_CHEAPEST,	"cfs_cheapest")				\
	EM(SP_R_BELOW_MARGIN,	"below_margin")				\
	EM(SP_R_PACK_AWAKE_GROUP, "pack_awake_group")			\
	EM(SP_R_AVOID_PKG_WAKEUP, "avoid_package_wakeup")		\
	EM(SP_R_PSTATE_CHEAPER,	"pstate_cheaper")			\
	EM(SP_R_WAKE_CHEAPER,	"wake_cheaper")				\
	EM(SP_R_LATENCY_BOUND,	"latency_bound")			\
	EM(SP_R_QUEUE_AVOIDED,	"queue_avoided")			\
	EM(SP_R_SHORTER_QUEUE,	"shorter_queue")			\
	EM(SP_R_OVERUTILISED,	"overutilised_fallback")		\
	EM(SP_R_NOT_ALLOWED,	"not_allowed")				\
	EMe(SP_R_MODE,		"mode")

/* What kind of placement the kernel asked for (the `wake_types` knob). */
#define SP_WAKE_LIST(EM, EMe)						\
	EM(SP_WAKE_WAKEUP,	"wakeup")	/* try_to_wake_up() */		\
	EM(SP_WAKE_FORK,	"fork")		/* wake_up_new_task() */	\
	EMe(SP_WAKE_EXEC,	"exec")		/* sched_exec() */

/* What the load-balancer gate says of one balance (core/sp_gate.h). */
#define SP_GATE_LIST(EM, EMe)						\
	EM(SP_GATE_OFF,		"off")		/* mode or knob: CFS's */	\
	EM(SP_GATE_LOCAL,	"local")	/* inside one top group */	\
	EM(SP_GATE_OVERUTIL,	"overutilised")	/* a CPU above overutil_pct */	\
	EM(SP_GATE_STARVING,	"starving")	/* tasks waited > the bound */	\
	EM(SP_GATE_WAITING,	"waiting")	/* a task waits, dst awake */	\
	EMe(SP_GATE_GATED,	"gated")	/* no move between top groups */

/* Which balance the gate saw (balance_hook.c): enum cpu_idle_type by name. */
#define SP_LB_IDLE_LIST(EM, EMe)					\
	EM(SP_LB_BUSY,		"busy")		/* CPU_NOT_IDLE: periodic */	\
	EM(SP_LB_IDLE,		"idle")		/* CPU_IDLE: idle or nohz */	\
	EMe(SP_LB_NEWIDLE,	"newidle")	/* CPU_NEWLY_IDLE */

/*
 * The kick gate's verdicts (core/sp_gate.c sp_gate_kick()): whether a busy
 * CPU's tick may kick an idle balance, and why.
 */
#define SP_KICK_LIST(EM, EMe)						\
	EM(SP_KICK_OFF,		"off")		/* mode or knob: CFS's */	\
	EM(SP_KICK_NONE,	"none")		/* no other CPU idle */		\
	EM(SP_KICK_LOCAL,	"local")	/* target in the CPU's group */	\
	EM(SP_KICK_AWAKE,	"awake")	/* a CPU of its group runs */	\
	EM(SP_KICK_OVERUTIL,	"overutilised")	/* the gate would pass */	\
	EM(SP_KICK_STARVING,	"starving")	/* ... for a starving CPU */	\
	EM(SP_KICK_WAITING,	"waiting")	/* ... for a waiting task */	\
	EMe(SP_KICK_GATED,	"gated")	/* the tick kicks nobody */

/* Idle-prediction verdicts (core/sp_acct.h). */
#define SP_VERDICT_LIST(EM, EMe)					\
	EM(SP_V_EARLY,		"early")	/* shorter than the target */	\
	EM(SP_V_HIT,		"hit")					\
	EMe(SP_V_LATE,		"late")		/* a deeper state would pay */

/*
 * The wake-up hook's and the balancer gate's counters, one file each under
 * stats/ (select_stats.c).
 */
#define SP_STAT_LIST(EM, EMe)						\
	EM(SP_STAT_CALLS,	"calls")	/* hook entered */		\
	EM(SP_STAT_DECISIONS,	"decisions")	/* sp_place() ran */		\
	EM(SP_STAT_OVERRIDES,	"overrides")	/* the core's CPU returned */	\
	EM(SP_STAT_REJECTED,	"rejected")	/* it failed the final check */	\
	EM(SP_STAT_SKIPPED,	"skipped_type")	/* wake type not handled */	\
	EM(SP_STAT_LAT_BOUNDED,	"latency_bounded") /* task has its own bound */ \
	EM(SP_STAT_LAT_MISS,	"latency_violations") /* no CPU met a bound */	\
	EM(SP_STAT_SLOWER,	"slower_than_cfs") /* decisions that spent budget */ \
	EM(SP_STAT_BAL_GATED,	"balance_gated") /* ... moved nothing: gated */ \
	EM(SP_STAT_BAL_PASSED,	"balance_passed") /* ... CFS balanced */	\
	EM(SP_STAT_BAL_LOCAL,	"balance_local") /* passed: inside one group */ \
	EM(SP_STAT_BAL_OVERUTIL, "balance_overutilised") /* passed: a CPU over */ \
	EM(SP_STAT_BAL_STARVING, "balance_starving") /* passed: a task waited */ \
	EM(SP_STAT_BAL_WAITING,	"balance_waiting") /* passed: waits, dst awake */ \
	EM(SP_STAT_BAL_NR_BAD,	"balance_nr_mismatch") /* run-queue read failed */ \
	EM(SP_STAT_KICK_GATED,	"kick_gated")	/* busy ticks that kicked nobody */ \
	EMe(SP_STAT_KICK_PASSED, "kick_passed")	/* busy ticks left to CFS */

/* What SP_ENUM_DEFINE() and SP_ENUM_NAMES() make of each entry. */
#define SP_ENUM_VALUE(value, name)	value,
#define SP_ENUM_NAME(value, name)	name,
#define SP_ENUM_NAME_LAST(value, name)	name

/**
 * SP_ENUM_DEFINE() - define the enum of a list
 * @tag: the enum's tag
 * @list: the list's name, e.g. SP_GATE_LIST
 * @nr: the name of the count, after the last value
 */
#define SP_ENUM_DEFINE(tag, list, nr)					\
	enum tag {							\
		list(SP_ENUM_VALUE, SP_ENUM_VALUE)			\
		nr							\
	}

/**
 * SP_ENUM_NAMES() - the initialiser of a list's name table
 * @list: the list's name, e.g. SP_GATE_LIST
 */
#define SP_ENUM_NAMES(list)	{ list(SP_ENUM_NAME, SP_ENUM_NAME_LAST) }

#endif /* SP_ENUMS_H */
