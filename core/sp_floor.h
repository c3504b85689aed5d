/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_floor.h - the OPP floor's looks: the floor priced for the groups a pd
 * holds up, and the gap limit, how far the floor may raise a pd before its
 * CPUs' periodic idle gaps reach a slower idle state.
 */
#ifndef SP_FLOOR_H
#define SP_FLOOR_H

#include "sp_acct.h"

#define SP_FLOOR_LOOK_MS	20u	/* the floor is judged again this often */
#define SP_FLOOR_MIN_EXITS	8u	/* idle exits a CPU needs in a look to count */
#define SP_FLOOR_RAISE_SLACK	8u	/* above the floor in force, a gap within */
					/* 1/8 of a target counts as reaching it */

/**
 * struct sp_floor_look - one CPU's accounting totals at the last look
 * @busy_us: closed busy time, us
 * @span_us: closed busy and idle time, us
 * @exits: idle exits
 * @vote: 1 + the highest OPP the CPU's gaps over those totals' stretch
 *	  allow, 0 for none; kept until the CPU has %SP_FLOOR_MIN_EXITS exits
 *	  more (sp_floor_gap_opp())
 */
struct sp_floor_look {
	u64 busy_us;
	u64 span_us;
	u64 exits;
	u32 vote;
};

#define SP_FLOOR_SETTLE_LOOKS	4u	/* a move this soon after a move is unsettled */
#define SP_FLOOR_HOLD_MIN_LOOKS	50u	/* the first hold after one: 1 s */
#define SP_FLOOR_HOLD_MAX_LOOKS	1600u	/* the longest: 32 s */

/**
 * struct sp_floor_pd - one pd's limit over time (sp_floor_gap_opp())
 * @settle: looks left in which a move counts as unsettled
 * @hold: looks left in which the limit holds where it is
 * @backoff: the last hold, looks (0 for none); it doubles at each
 *	     unsettled move, from %SP_FLOOR_HOLD_MIN_LOOKS up to
 *	     %SP_FLOOR_HOLD_MAX_LOOKS, and halves after as many looks in which
 *	     the limit held still
 * @still: looks in which the limit held still since the last hold or halving
 *
 * All zero at first and after the model changes.
 */
struct sp_floor_pd {
	u32 settle;
	u32 hold;
	u32 backoff;
	u32 still;
};

/**
 * sp_floor_gap_opp() - the highest OPP up to @floor that keeps gaps short
 * @m: the model
 * @pdi: the pd's index in @m
 * @floor: the floor sp_energy_opp_floor() prices for the pd
 * @cur: the floor in force since the last look (this function's last
 *	 answer, @floor at first)
 * @bound_us: a wake-up latency every state may have (the latency_us
 *	      knob), 0 for none
 * @a: the accounting (sp_acct.h), read without a lock
 * @look: per CPU of @m, the totals at the CPU's last counted look and its
 *	  vote; updated for the pd's CPUs that counted in this one
 * @ps: the pd's limit over time; NULL to take the totals only
 *
 * Per CPU of the pd with at least %SP_FLOOR_MIN_EXITS idle exits since its
 * last counted look (a CPU with fewer keeps that look's totals and its
 * vote, so that a quiet stretch neither raises nor lowers the floor): its
 * mean period P (busy plus idle time per exit) and its mean
 * work per period W, its busy time per exit at the capacity of @cur (a pd
 * held at its floor runs there; the accounting's own per-OPP split rests
 * on a utilisation that is not frequency invariant in the module).  Its
 * idle gap at OPP k is P - W / cap_k: a higher OPP ends the work sooner
 * and lengthens the gap.  The state a gap reaches is the deepest whose
 * target residency it covers, as the governor picks, and a wake-up from
 * it costs its exit latency plus, for the pd's deepest state, the exit of
 * every group above the CPU.  At the OPP schedutil asks for the pd
 * (1.25 x the largest W / P) that latency is the base.  The answer is the
 * highest OPP up to @floor at which no such CPU's latency exceeds both its
 * base and @bound_us (the CPU's vote; the answer is the lowest vote in
 * force among the pd's CPUs), a gap predicted above @cur counting as reaching a
 * state within 1 / %SP_FLOOR_RAISE_SLACK of its target residency (the mean
 * is a few periods' and an interrupt that splits a stay shortens it; the
 * floor comes back up only past that noise): the floor is priced for work whose groups stay up
 * for it alone, and a gap that sleeps deeper each period wakes the groups
 * at every period and pays their chain at every wake-up.
 *
 * That prediction assumes a CPU's work per period runs in a time inverse to
 * the capacity.  Where it does not (memory-bound work; a cpufreq driver
 * that changes no speed, as sp_testfreq in the qemu guests), the work
 * measured after a move is not what the move predicted, and the next look
 * moves the limit again, the same way or back: a feedback that moves it
 * every look or two.  So a move within %SP_FLOOR_SETTLE_LOOKS looks of
 * the last one is unsettled: the limit goes to the lower of the two (the
 * side that keeps gaps short if the work does follow the OPP) and holds
 * there for a time that doubles at each unsettled move (struct
 * sp_floor_pd).  A limit that follows a load that changes for good moves
 * once and settles.
 *
 * Return: an OPP index at most @floor; @floor for a pd out of range, or
 * @cur while @ps holds.
 */
u32 sp_floor_gap_opp(const struct sp_model *m, u32 pdi, u32 floor, u32 cur, u32 bound_us,
		     const struct sp_acct *a, struct sp_floor_look *look,
		     struct sp_floor_pd *ps);

#define SP_FLOOR_SHARE_SHIFT	3u	/* recent awake time: 1/8 forgotten a look */
#define SP_FLOOR_SHARE_LOOKS	8u	/* looks before a share counts */

/**
 * struct sp_floor_groups - each group's awake time over the recent looks
 * @last_us: the group's awake time (sp_acct_group_sum()) at the last look
 * @recent_us: its awake time per look, summed over the looks with each
 *	       look's weight falling by 1/2^%SP_FLOOR_SHARE_SHIFT a look (the
 *	       last 8 looks or so, 160 ms, counted about 8 times over)
 * @looks: looks added since the baseline, up to %SP_FLOOR_SHARE_LOOKS
 *
 * All zero at first and after the model changes.
 */
struct sp_floor_groups {
	u64 last_us[SP_MAX_GROUPS];
	u64 recent_us[SP_MAX_GROUPS];
	u32 looks;
};

/**
 * sp_floor_groups_look() - add every group's awake time since the last look
 * @m: the model
 * @a: the accounting, read without a lock
 * @st: the snapshot, for the stretch each group has open
 * @now_ns: the look's time, on the accounting's clock
 * @fg: updated
 * @totals_only: take the totals as the baseline and forget the recent
 *	         times (the first look, or one after a gap in the looks)
 *
 * A group whose total went back (the accounting was reset) starts again
 * from its new total.
 */
void sp_floor_groups_look(const struct sp_model *m, const struct sp_acct *a,
			  const struct sp_state *st, u64 now_ns, struct sp_floor_groups *fg,
			  bool totals_only);

/**
 * sp_floor_shared_opp() - the floor priced for the groups the pd holds up
 * @m: the model
 * @pdi: the pd's index in @m
 * @st: the snapshot, for the OPP the pd's CPUs ask for (sp_state.pd_req)
 * @fg: the groups' recent awake times (sp_floor_groups_look())
 *
 * sp_energy_opp_floor_w() with each group above the pd counted for the
 * share of its awake time that the pd's work holds it up, but not below
 * the OPP the pd's CPUs ask for now (the DOC block "the floor's shared
 * groups" in sp_floor.c).
 *
 * Return: an OPP index at most sp_energy_opp_floor(); 0 for a pd out of
 * range or without OPPs or CPUs.
 */
u32 sp_floor_shared_opp(const struct sp_model *m, u32 pdi, const struct sp_state *st,
			const struct sp_floor_groups *fg);

#endif /* SP_FLOOR_H */
