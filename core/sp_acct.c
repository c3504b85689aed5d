// SPDX-License-Identifier: GPL-2.0
/*
 * sp_acct.c - idle-prediction accuracy and modelled energy from idle events.
 */

/**
 * DOC: how well idle was predicted
 *
 * An idle governor picks a state when a CPU goes idle; the state pays off
 * only if the CPU then stays at least the state's target residency.  For
 * every completed stay of residency r in state s sp_acct_exit() gives a
 * verdict (sp_acct_verdict()):
 *
 *  - early: r < target of s, the governor went too deep;
 *  - late: r >= target of the next deeper state, it could have gone deeper
 *    (never for the deepest state);
 *  - hit: otherwise.
 *
 * Counts and total residency are kept per CPU and per state; their ratios
 * are the governor's accuracy.  The states and targets are the model's
 * (which come from the cpuidle driver where there is one), so a board
 * without a cpuidle driver is classified against the model.
 */

/**
 * DOC: energy without a power meter
 *
 * The same events integrate the model over time, as time per state: a CPU
 * between an idle exit and the next entry is busy, and the stretch adds to
 * the busy time of the OPP its pd runs at when it ends: the OPP cpufreq
 * last reported, else the largest its CPUs ask for (sp_state_pd_opp()),
 * the CPU itself with the stretch folded into its utilisation, the others
 * as their last idle entry left them; no other CPU's utilisation is
 * decayed on the idle path.  A stay in state s adds to s's residency and
 * each exit counts one wake-up from s.  A group's awake and idle stretches
 * add to its active and idle time, each time a CPU wakes it to its
 * wake-ups.  The sums (sp_acct_cpu_sum(), sp_acct_group_sum()) price the
 * times when read: busy time of OPP k at P_k, a state's residency at its
 * power, an exit at its wakeup_uj; a group's active time at active_uw, its
 * idle time at idle_uw, a wake-up at its wakeup_uj.  Units:
 * nJ = uW * us / 1000, rounded down once per total; each total saturates
 * at 2^64 - 1 nJ instead of wrapping.
 *
 * Every stretch is clipped to start no earlier than the last reset, and the
 * sums add the stretch still open, so that busy_us + idle_us of a CPU
 * equals the wall time since reset.  The CPU an event is about is the only
 * writer of its entry.  Its sequence count (sp_cpu_state.seq, beside the
 * group offsets the event reads) is odd while the event writes, the groups
 * it changes included: a sum read while the CPU closed a stretch would lose it
 * (counters read before, the open stretch after) or count it twice, so the
 * readers copy what they need and retry until the counts of the CPUs they
 * read were even and unchanged around the copy (sp_acct_cpu_sum(),
 * sp_acct_group_sum()).  An event pays two increments; on x86 the barriers
 * are the compiler's only.  A reset that raced with an event could lose it,
 * so none may run meanwhile: the kernel pauses its probes and waits for
 * those in flight around sp_acct_reset() (cpuidle_hook.c).
 *
 * The steady event, an entry after a busy stretch or the exit that ends the
 * stay, of a CPU whose average was last folded when its stretch began, after
 * the reset, with the clock not gone back and the stretch under 40
 * half-lives (1.28 s, one compare for both), takes a straight path
 * (sp_acct_enter(), sp_acct_exit()): one ns to us conversion (a division by
 * a constant, which a 64-bit build makes a product), one fold of the CPU's
 * average (its ms split and its interpolation products, with no test of
 * their range; a stretch under 1 ms is the table's first step alone,
 * sp_state_decay_near_in()), two
 * counters, and one walk of its groups, level by level (sp_acct_walk()).  A
 * group the event leaves in its state has its stamp looked at; a group it
 * wakes or puts to sleep has its awake fraction folded (a stamp under
 * %SP_GROUP_KEEPS_NS old, as a pipe's ping-pong leaves it, only moves), its
 * since stamp written and its stretch charged, one division shared with the
 * level below when that group changed state at the same time (nested groups
 * sleep and wake together), none when its stretch is the CPU's own (the CPU
 * that woke a group puts it to sleep again, as a pipe's does).  What it reads
 * of the model is derived when the model is (sp_model_derive()), and the
 * entry's part kept in the CPU's own entry by sp_state_resync(): the entry
 * keeps the CPU's last OPP request while its utilisation stays among those
 * that ask for it (req_urange, which every writer of opp_req keeps: two
 * compares; the lookup, sp_model_pd_opp_idx(), only when it leaves them),
 * clamps to the pd's top OPP and deepest state as the entry keeps them; the
 * exit's verdict is two compares against the stay's bounds (idle_target_us,
 * idle_late_us).  The CPU that holds its pd's largest request and asks for
 * less hands it on to the first CPU that still asks for it, or rescans the
 * pd, in line (a call would cost every steady entry saved registers and
 * stack slots), and goes on.  Every other case (a second entry, a stretch
 * that began before the reset, a clock step back, a stretch of 1.28 s or
 * more) is left, before anything is written, to the general path, which
 * gives the same result.
 */
#include "sp_acct.h"

/* names in list order: the list defines the enum in the same order */
const char *const sp_verdict_names[SP_V_NR] = SP_ENUM_NAMES(SP_VERDICT_LIST);

static u32 sp_acct_clamp_idx(const struct sp_pd *pd, u32 idx)
{
	if (!pd->nr_idle)
		return 0;
	return idx < pd->nr_idle ? idx : pd->nr_idle - 1u;
}

u32 sp_acct_verdict(const struct sp_pd *pd, u32 idx, u64 residency_us)
{
	if (!pd->nr_idle)
		return SP_V_HIT;
	idx = sp_acct_clamp_idx(pd, idx);
	if (residency_us < pd->idle[idx].target_residency_us)
		return SP_V_EARLY;
	if (idx + 1u < pd->nr_idle &&
	    residency_us >= pd->idle[idx + 1u].target_residency_us)
		return SP_V_LATE;
	return SP_V_HIT;
}

void sp_acct_reset(struct sp_acct *a, u64 now_ns)
{
	u32 i;

	memset(a->cpu, 0, sizeof(a->cpu));
	for (i = 0; i < SP_MAX_GROUPS; i++) {
		sp_atomic64_set(&a->group[i].wakeups, 0);
		sp_atomic64_set(&a->group[i].active_us, 0);
		sp_atomic64_set(&a->group[i].idle_us, 0);
	}
	SP_WRITE_ONCE(a->reset_ns, now_ns);
}

/* Microseconds from max(@since_ns, @reset_ns) to @now_ns, 0 if negative. */
static inline SP_INLINE u64 sp_acct_since_us(u64 since_ns, u64 reset_ns, u64 now_ns)
{
	u64 from = since_ns > reset_ns ? since_ns : reset_ns;

	return now_ns > from ? sp_div_u64(now_ns - from, 1000) : 0;
}

/* Microseconds from max(@since_ns, reset) to @now_ns, 0 if negative. */
static u64 sp_acct_stretch_us(const struct sp_acct *a, u64 since_ns, u64 now_ns)
{
	return sp_acct_since_us(since_ns, SP_READ_ONCE(a->reset_ns), now_ns);
}

/* sp_acct_stretch_us() out of line, for a stretch that began before the reset */
static SP_NOINLINE u64 sp_acct_clipped_us(const struct sp_acct *a, u64 since_ns, u64 now_ns)
{
	return sp_acct_stretch_us(a, since_ns, now_ns);
}

#define SP_ACCT_NJ_MAX	(~0ull)

/* @a + @b, saturating. */
static u64 sp_acct_add(u64 a, u64 b)
{
	return a + b >= a ? a + b : SP_ACCT_NJ_MAX;
}

/* @a * @b, saturating. */
static u64 sp_acct_mul(u64 a, u32 b)
{
	if (b && a > sp_div_u64(SP_ACCT_NJ_MAX, b))
		return SP_ACCT_NJ_MAX;
	return a * b;
}

/*
 * nJ of @uw over @us, saturating: (us / 1000) * uw + (us % 1000) * uw / 1000,
 * whose first product only overflows past 2^64 nJ itself.
 */
static u64 sp_acct_nj(u32 uw, u64 us)
{
	u64 ms = sp_div_u64(us, 1000);
	u64 rest = sp_div_u64((us - ms * 1000) * uw, 1000);

	return sp_acct_add(sp_acct_mul(ms, uw), rest);
}

/* nJ of @n wake-ups at @uj each, saturating. */
static u64 sp_acct_wake_nj(u64 n, u32 uj)
{
	return sp_acct_mul(sp_acct_mul(n, uj), 1000);
}

/* The pd's deepest state, 0 without states: the clamp of sp_acct_clamp_idx() */
static inline u32 sp_acct_deepest(const struct sp_pd_idle *pi)
{
	return pi->deepest;	/* sp_model_derive() */
}

static bool sp_acct_cpu_ok(const struct sp_model *m, u32 cpu)
{
	return cpu < SP_MAX_CPUS && cpu < m->nr_cpus;
}

/*
 * sp_acct_cpu_ok() in one compare: a model's nr_cpus is at most
 * SP_MAX_CPUS (sp_model_check()).
 */
static inline bool sp_acct_cpu_in(const struct sp_model *m, u32 cpu)
{
	return cpu < m->nr_cpus;
}

/*
 * The CPU's sequence count made odd for the event that writes its entries
 * (and the groups it changes), ordered before them.
 */
static inline SP_INLINE void sp_acct_write_begin(struct sp_cpu_state *c)
{
	c->seq++;	/* one writer: a plain increment, ordered by the barrier */
	SP_SMP_WMB();
}

/* The event's writes ordered before the count is made even again. */
static inline SP_INLINE void sp_acct_write_end(struct sp_cpu_state *c)
{
	SP_SMP_WMB();
	c->seq++;
}

/*
 * A reader's spins and attempts before it takes what it read as it is:
 * an event writes for well under a microsecond with interrupts off, so a
 * reader waits for one that a hypervisor descheduled in its middle (tens
 * of ms at a spin each), and the bound only keeps a defect from becoming a
 * lockup.
 */
#define SP_ACCT_READ_TRIES	0x100000u

/* The count of @c once even (no event of the CPU in progress), or odd after the tries. */
static u32 sp_acct_read_begin(const struct sp_cpu_state *c)
{
	u32 seq = SP_READ_ONCE(c->seq);
	u32 n;

	for (n = 0; (seq & 1u) && n < SP_ACCT_READ_TRIES; n++) {
		SP_CPU_RELAX();
		seq = SP_READ_ONCE(c->seq);
	}
	SP_SMP_RMB();
	return seq;
}

/* True if an event of the CPU wrote since sp_acct_read_begin() returned @seq. */
static bool sp_acct_read_retry(const struct sp_cpu_state *c, u32 seq)
{
	SP_SMP_RMB();
	return SP_READ_ONCE(c->seq) != seq;
}

/* Charge the awake stretch of every group @changed says went idle. */
static inline SP_INLINE void sp_acct_charge_slept(struct sp_acct *a,
						  const struct sp_state *st,
						  const struct sp_model *m, u32 cpu,
						  u32 changed, u64 now_ns)
{
	u32 l;

	for (l = 0; changed && l < m->nr_levels; l++) {
		u32 g = m->cpu_group[l][cpu];
		u64 since;

		if (!(changed & (1u << l)))
			continue;
		since = SP_READ_ONCE(st->group[g].awake_since_ns);
		sp_atomic64_add(&a->group[g].active_us,
				(s64)sp_acct_stretch_us(a, since, now_ns));
	}
}

/*
 * A group's counters from its offset in the snapshot (sp_cpu_state.group_off):
 * both arrays have one 64-byte entry per group, so the offset is the same.
 */
_Static_assert(sizeof(struct sp_acct_group) == sizeof(struct sp_group_state),
	       "sp_acct.group and sp_state.group entries differ in size");

static inline struct sp_acct_group *sp_acct_group_at(struct sp_acct *a, u32 off)
{
	return (struct sp_acct_group *)((char *)a->group + off);
}

/* A second entry without an exit: only the state, and maybe the groups, change. */
static SP_NOINLINE void sp_acct_reenter(struct sp_acct *a, struct sp_state *st,
					const struct sp_model *m, const struct sp_pd *pd,
					u32 cpu, u32 idx, u64 now_ns)
{
	u32 changed = sp_state_enter_cpu(st, m, pd, cpu, idx, now_ns);

	if (changed)
		sp_acct_charge_slept(a, st, m, cpu, changed, now_ns);
}

/*
 * The fraction of sp_state_group_fold_move() with sp_state_decay_far(): a
 * fraction already at its target (0 or 1024) comes out of the product as
 * it is, and one in range (its writers fold it) needs no clamp
 * (sp_state_decay_mix_in()).  The callers write the stamp after it, fold
 * or not, so that the common case (no fold) is a straight path.
 */
static inline SP_INLINE void sp_acct_fold_avg(struct sp_group_state *gs, u32 avg, u64 dt_ns,
					      bool awake)
{
	u64 dt_us = sp_state_group_dt_us(dt_ns);

	/* from 33 half-lives on the factor is 0 already: a clamp, not a branch */
	dt_us = dt_us < SP_STATE_DECAY_FAR_US ? dt_us : SP_STATE_DECAY_FAR_US - 1;
	SP_WRITE_ONCE(gs->awake_avg, sp_state_decay_mix_in(avg, sp_state_decay_factor_in(dt_us),
							   awake ? SP_CAP_SCALE : 0));
}

/*
 * Past %SP_STALE_NS a fold towards 1024 moves a fraction that lies this far
 * below it or more: sp_state_group_fold_keeps() needs d * (24 dt + 1) <
 * 2^31, false for d >= 23 once dt > 4 ms.  The fold is taken without the
 * test there, which only spares folds.
 */
#define SP_ACCT_REFRESH_MOVES	23u

/*
 * sp_state_group_refresh() of @gs, with its stamp read once: the common
 * case is one compare.  An awake group refreshed every few ms sits a few
 * units below 1024 for good, where sp_state_group_fold_keeps() spares the
 * fold.
 */
static inline SP_INLINE void sp_acct_refresh(struct sp_group_state *gs, u64 now_ns)
{
	u64 stamp = SP_READ_ONCE(gs->avg_stamp_ns);
	u32 avg;

	if (now_ns <= stamp + SP_STALE_NS)
		return;
	avg = SP_READ_ONCE(gs->awake_avg);
	if (avg != SP_CAP_SCALE &&	/* at 1024 a fold keeps it there */
	    (avg + SP_ACCT_REFRESH_MOVES <= SP_CAP_SCALE ||
	     !sp_state_group_fold_keeps(avg, true, now_ns - stamp)))
		sp_acct_fold_avg(gs, avg, now_ns - stamp, true);
	SP_WRITE_ONCE(gs->avg_stamp_ns, now_ns);
}

/*
 * sp_state_group_fold_at() of a group that @awake says changes state now,
 * with its stamp read once.  A stamp under %SP_GROUP_KEEPS_NS old (a
 * pipe's ping-pong) only moves.  An older one folds without
 * sp_state_group_fold_keeps(): where that is true the fold writes the
 * fraction back unchanged, so the test only spares work, and a group that
 * changes state after so long is seldom where it holds.
 */
static inline SP_INLINE void sp_acct_fold_turn(struct sp_group_state *gs, u64 now_ns, bool awake)
{
	/*
	 * signed, one compare: a stamp ahead of now (the clock stepped back)
	 * is below the bound, as now > stamp tests, for times on one clock
	 * under 2^63 ns apart
	 */
	s64 dt = (s64)(now_ns - SP_READ_ONCE(gs->avg_stamp_ns));

	if (dt >= (s64)SP_GROUP_KEEPS_NS)
		sp_acct_fold_avg(gs, SP_READ_ONCE(gs->awake_avg), (u64)dt, awake);
	SP_WRITE_ONCE(gs->avg_stamp_ns, now_ns);
}

/* What a CPU's idle event does to each of its groups (sp_acct_walk()). */
enum sp_acct_step {
	SP_ACCT_RELEASE,	/* it enters its deepest state */
	SP_ACCT_HOLD,		/* it leaves its deepest state */
	SP_ACCT_TOUCH,		/* it enters or leaves a shallower one */
};

/*
 * One group, at byte offset @off in both @st->group and @a->group, of a CPU
 * whose event is @how.  Release: the CPU that takes nr_awake to zero folds
 * the awake fraction, stamps idle_since_ns and charges the awake stretch
 * to active_us (sp_state_groups_release()).  Hold: the CPU that takes it
 * to one folds it, stamps awake_since_ns, charges the idle stretch to
 * idle_us and counts a wake-up (sp_state_groups_hold()).  Any other event
 * folds an awake group forward if its stamp is stale
 * (sp_state_group_refresh()).  @last_since and @last_us carry the stretch
 * charged by the walk's last group that changed state (the CPU's own
 * before any), reused for a group whose since stamp is the same.
 */
static inline SP_INLINE void sp_acct_step(struct sp_acct *a, struct sp_state *st, u32 off,
					  u64 now_ns, enum sp_acct_step how,
					  u64 *last_since, u64 *last_us)
{
	struct sp_group_state *gs = sp_state_group_at(st, off);
	struct sp_acct_group *ag = sp_acct_group_at(a, off);
	u64 since, us;

	if (how == SP_ACCT_RELEASE) {
		if (sp_atomic_dec(&gs->nr_awake) != 0) {
			sp_acct_refresh(gs, now_ns);
			return;
		}
		sp_acct_fold_turn(gs, now_ns, true);
		since = SP_READ_ONCE(gs->awake_since_ns);
		SP_WRITE_ONCE(gs->idle_since_ns, now_ns);
	} else if (how == SP_ACCT_HOLD) {
		if (sp_atomic_inc(&gs->nr_awake) != 1) {
			sp_acct_refresh(gs, now_ns);
			return;
		}
		sp_acct_fold_turn(gs, now_ns, false);
		since = SP_READ_ONCE(gs->idle_since_ns);
		SP_WRITE_ONCE(gs->awake_since_ns, now_ns);
		sp_atomic64_add(&ag->wakeups, 1);
	} else {
		sp_acct_refresh(gs, now_ns);
		return;
	}
	/*
	 * a group that changed state with the one below it, as nested groups
	 * do, or that the CPU itself woke or put to sleep (a pipe's round trip)
	 */
	if (since != *last_since) {
		*last_since = since;
		*last_us = sp_acct_stretch_us(a, since, now_ns);
	}
	us = *last_us;
	sp_atomic64_add(how == SP_ACCT_RELEASE ? &ag->active_us : &ag->idle_us, (s64)us);
}

/*
 * sp_acct_step() for every level of @cpu, from the lowest, with no loop: a
 * model has at most SP_MAX_LEVELS (4) levels.  @how is a constant at every
 * call, so each call inlines one kind of step.  @since and @us are the
 * stretch the event ends for the CPU itself, @us being
 * sp_acct_stretch_us() of @since: a group whose since stamp is @since
 * charges @us without a division.
 */
static inline SP_INLINE void sp_acct_walk(struct sp_acct *a, struct sp_state *st,
					  const struct sp_model *m, u32 cpu, u64 now_ns,
					  u64 since, u64 us, enum sp_acct_step how)
{
	const u16 *g = st->cpu[cpu].group_off;
	u32 n = m->nr_levels;

	if (!n)
		return;
	sp_acct_step(a, st, g[0], now_ns, how, &since, &us);
	if (n < 2)
		return;
	sp_acct_step(a, st, g[1], now_ns, how, &since, &us);
	if (n < 3)
		return;
	sp_acct_step(a, st, g[2], now_ns, how, &since, &us);
	if (n < 4)
		return;
	sp_acct_step(a, st, g[3], now_ns, how, &since, &us);
}

/* sp_acct_enter_any()'s work, for a CPU of the model, inside its sequence count */
static inline SP_INLINE void sp_acct_enter_all(struct sp_acct *a, struct sp_state *st,
					       const struct sp_model *m, u32 cpu, u32 idx,
					       u64 now_ns)
{
	struct sp_cpu_state *c;
	struct sp_acct_cpu *ac;
	const struct sp_pd *pd;
	u64 since, stamp, dt_us, us, reset_ns;
	u32 pdi, u, deepest;

	pdi = m->cpu_pd[cpu];
	pd = &m->pd[pdi];
	deepest = sp_acct_deepest(&m->pd_idle[pdi]);
	idx = idx < deepest ? idx : deepest;
	c = &st->cpu[cpu];
	if (c->idle_state != SP_CPU_AWAKE) {
		sp_acct_reenter(a, st, m, pd, cpu, idx, now_ns);
		return;
	}
	/*
	 * sp_state_enter_cpu()'s first entry after a busy stretch, in line;
	 * a fold over 0 us writes the average back unchanged
	 */
	since = c->busy_since_ns;
	stamp = c->util_stamp_ns;
	dt_us = now_ns > stamp ? sp_div_u64(now_ns - stamp, 1000) : 0;
	u = sp_state_decay_us(c->util, dt_us, c->cap);
	SP_WRITE_ONCE(c->util, u);
	SP_WRITE_ONCE(c->util_stamp_ns, now_ns);
	SP_WRITE_ONCE(c->idle_since_ns, now_ns);
	SP_WRITE_ONCE(c->idle_state, (s32)idx);
	sp_atomic_set(&c->pending_util, 0);	/* its queue ran dry */
	sp_atomic_set(&c->pending_nr, 0);
	sp_state_req_update(st, m, pdi, cpu, sp_model_pd_opp_idx(pd, (5 * u + 3) / 4));

	/* the busy stretch, at the OPP the pd runs at now */
	us = dt_us;
	reset_ns = SP_READ_ONCE(a->reset_ns);
	if (since != stamp || since < reset_ns)
		us = sp_acct_clipped_us(a, since, now_ns);
	ac = &a->cpu[cpu];
	ac->busy_opp_us[sp_state_pd_opp_req(st, &m->pd_idle[pdi], pdi) % SP_MAX_OPPS] += us;

	if (idx >= c->sleep_from)	/* sp_state_deep() */
		sp_acct_walk(a, st, m, cpu, now_ns, since, us, SP_ACCT_RELEASE);
	else
		sp_acct_walk(a, st, m, cpu, now_ns, since, us, SP_ACCT_TOUCH);
}

/*
 * sp_acct_verdict() for a stay of @res_us in the pd's state @idx (clamped),
 * from the bounds sp_model_derive() keeps (the late one is at least the
 * target), with the target returned through @target_us for the trace.
 */
static inline u32 sp_acct_judge(const struct sp_pd_idle *pi, u32 idx, u64 res_us,
				u32 *target_us)
{
	u32 t = pi->idle_target_us[idx];

	*target_us = t;
	/* early 0, hit 1, late 2: one step per bound reached (late >= t) */
	return SP_V_EARLY + (res_us >= t) + (res_us >= pi->idle_late_us[idx]);
}

/* sp_acct_exit_any()'s work, for a CPU of the model, inside its sequence count */
static inline SP_INLINE bool sp_acct_exit_all(struct sp_acct *a, struct sp_state *st,
					      const struct sp_model *m, u32 cpu, u64 now_ns,
					      struct sp_idle_exit_info *out)
{
	struct sp_cpu_state *c;
	struct sp_acct_cpu *ac;
	struct sp_idle_stat *s;
	const struct sp_pd_idle *pi;
	u64 since, stamp, res, us, dt_us, reset_ns;
	u32 idx, v, target, deepest;
	s32 old;

	c = &st->cpu[cpu];
	old = SP_READ_ONCE(c->idle_state);
	if (old == SP_CPU_AWAKE)
		return false;
	pi = &m->pd_idle[m->cpu_pd[cpu]];
	deepest = sp_acct_deepest(pi);
	idx = (u32)old < deepest ? (u32)old : deepest;
	since = SP_READ_ONCE(c->idle_since_ns);
	stamp = c->util_stamp_ns;
	res = now_ns > since ? sp_div_u64(now_ns - since, 1000) : 0;
	/*
	 * sp_state_exit_cpu(), in line: the stay decays the average (a fold
	 * over 0 us writes it back unchanged)
	 */
	dt_us = res;
	if (stamp != since)
		dt_us = now_ns > stamp ? sp_div_u64(now_ns - stamp, 1000) : 0;
	SP_WRITE_ONCE(c->util, sp_state_decay_us(c->util, dt_us, 0));
	SP_WRITE_ONCE(c->util_stamp_ns, now_ns);
	SP_WRITE_ONCE(c->busy_since_ns, now_ns);
	SP_WRITE_ONCE(c->idle_state, SP_CPU_AWAKE);

	v = sp_acct_judge(pi, idx, res, &target);
	us = res;
	reset_ns = SP_READ_ONCE(a->reset_ns);
	if (since < reset_ns)
		us = sp_acct_clipped_us(a, since, now_ns);
	ac = &a->cpu[cpu];
	s = &ac->state[idx];
	s->residency_us += us;
	s->verdict[v]++;
	if (out) {
		out->state = idx;
		out->target_us = target;
		out->residency_us = res;
		out->verdict = v;
	}

	if ((u32)old >= c->sleep_from)	/* sp_state_deep() */
		sp_acct_walk(a, st, m, cpu, now_ns, since, us, SP_ACCT_HOLD);
	else
		sp_acct_walk(a, st, m, cpu, now_ns, since, us, SP_ACCT_TOUCH);
	return true;
}

/*
 * The steady events' stretches end at most this long after they began:
 * under 40 half-lives (sp_state_decay_near_in()), the clock not gone back
 * (a step back wraps past it).
 */
#define SP_ACCT_STEADY_NS	(SP_STATE_DECAY_FAR_US * 1000ull)

/* sp_acct_enter() for any CPU of the model in any state, at any time */
static SP_NOINLINE void sp_acct_enter_any(struct sp_acct *a, struct sp_state *st,
					  const struct sp_model *m, u32 cpu, u32 idx, u64 now_ns)
{
	if (!sp_acct_cpu_ok(m, cpu))
		return;
	sp_acct_write_begin(&st->cpu[cpu]);
	sp_acct_enter_all(a, st, m, cpu, idx, now_ns);
	sp_acct_write_end(&st->cpu[cpu]);
}

/* sp_acct_exit() for an idle CPU of the model, at any time */
static SP_NOINLINE bool sp_acct_exit_any(struct sp_acct *a, struct sp_state *st,
					 const struct sp_model *m, u32 cpu, u64 now_ns,
					 struct sp_idle_exit_info *out)
{
	bool done;

	if (!sp_acct_cpu_ok(m, cpu))
		return false;
	sp_acct_write_begin(&st->cpu[cpu]);
	done = sp_acct_exit_all(a, st, m, cpu, now_ns, out);
	sp_acct_write_end(&st->cpu[cpu]);
	return done;
}

/*
 * The steady entry: a CPU awake since its last exit, whose average was
 * last folded then, after the reset, with the clock not gone back (a clock
 * that stood still, as local_clock() clamped to the next tick does, is a
 * stretch of 0 us, which the fold leaves as it is) and the stretch under
 * %SP_ACCT_STEADY_NS.  It has the effects of
 * sp_acct_enter_any(), which takes the other cases before anything is
 * written.
 */
void sp_acct_enter(struct sp_acct *a, struct sp_state *st,
		   const struct sp_model *m, u32 cpu, u32 idx, u64 now_ns)
{
	struct sp_cpu_state *c;
	u64 stamp, us, reset_ns;
	u32 pdi, u, k, req, top, deepest;

	if (!sp_acct_cpu_in(m, cpu))
		return;
	c = &st->cpu[cpu];
	stamp = c->util_stamp_ns;
	reset_ns = SP_READ_ONCE(a->reset_ns);
	if (c->idle_state != SP_CPU_AWAKE || c->busy_since_ns != stamp ||
	    now_ns - stamp >= SP_ACCT_STEADY_NS || stamp < reset_ns) {
		sp_acct_enter_any(a, st, m, cpu, idx, now_ns);
		return;
	}
	sp_acct_write_begin(c);
	us = sp_div_u64(now_ns - stamp, 1000);
	u = sp_state_decay_near_in(c->util, us, c->cap);	/* cap <= 1024: its writers clamp */
	deepest = c->deepest;
	idx = idx < deepest ? idx : deepest;
	SP_WRITE_ONCE(c->util, u);
	SP_WRITE_ONCE(c->util_stamp_ns, now_ns);
	SP_WRITE_ONCE(c->idle_since_ns, now_ns);
	SP_WRITE_ONCE(c->idle_state, (s32)idx);
	sp_atomic_set(&c->pending_util, 0);	/* its queue ran dry */
	sp_atomic_set(&c->pending_nr, 0);
	pdi = m->cpu_pd[cpu];
	/*
	 * sp_state_req_update(): a utilisation out of its request's run asks
	 * for another OPP (sp_model_pd_opp_keeps())
	 */
	k = SP_READ_ONCE(st->opp_req[cpu]);
	if (SP_UNLIKELY(!sp_model_urange_keeps(c->req_urange, u))) {
		k = sp_model_pd_opp_idx(&m->pd[pdi], (5 * u + 3) / 4);
		sp_state_req_set(st, m, pdi, cpu, k);
	}
	req = SP_READ_ONCE(st->pd_req[pdi]);
	top = req & SP_PD_REQ_OPP_MASK;
	if (SP_UNLIKELY(k != top)) {
		if (k > top) {
			SP_WRITE_ONCE(st->pd_req[pdi], cpu << SP_PD_REQ_CPU_SHIFT | k);
			top = k;
		} else if (req >> SP_PD_REQ_CPU_SHIFT == cpu) {
			/*
			 * the holder asks less: the pd rescanned in line, as a
			 * call would keep the whole path's values in saved
			 * registers and on the stack
			 */
			req = sp_state_pd_req_rescan(st, m, pdi);
			SP_WRITE_ONCE(st->pd_req[pdi], req);
			top = req & SP_PD_REQ_OPP_MASK;
		}
	}
	top = sp_state_pd_opp_top(st, c->opp_clamp, pdi, top);
	a->cpu[cpu].busy_opp_us[top % SP_MAX_OPPS] += us;
	/*
	 * sleep_from and the stretch's start (busy_since_ns, which an entry
	 * leaves as it is) read again: kept across the OPP part, each costs
	 * a register
	 */
	stamp = c->busy_since_ns;
	if (idx >= SP_READ_ONCE(c->sleep_from))
		sp_acct_walk(a, st, m, cpu, now_ns, stamp, us, SP_ACCT_RELEASE);
	else
		sp_acct_walk(a, st, m, cpu, now_ns, stamp, us, SP_ACCT_TOUCH);
	sp_acct_write_end(c);
}

/*
 * The steady exit: an idle CPU whose average was last folded at its entry,
 * after the reset, with the clock not gone back and the stay under
 * %SP_ACCT_STEADY_NS; the effects of
 * sp_acct_exit_any(), which takes the other cases.
 */
bool sp_acct_exit(struct sp_acct *a, struct sp_state *st,
		  const struct sp_model *m, u32 cpu, u64 now_ns,
		  struct sp_idle_exit_info *out)
{
	struct sp_cpu_state *c;
	struct sp_idle_stat *s;
	const struct sp_pd_idle *pi;
	u64 since, res, reset_ns;
	u32 idx, v, target, deepest;
	s32 old;

	if (!sp_acct_cpu_in(m, cpu))
		return false;
	c = &st->cpu[cpu];
	old = SP_READ_ONCE(c->idle_state);
	if (old == SP_CPU_AWAKE)
		return false;
	since = SP_READ_ONCE(c->idle_since_ns);
	reset_ns = SP_READ_ONCE(a->reset_ns);
	if (c->util_stamp_ns != since || now_ns - since >= SP_ACCT_STEADY_NS || since < reset_ns)
		return sp_acct_exit_any(a, st, m, cpu, now_ns, out);
	sp_acct_write_begin(c);
	res = sp_div_u64(now_ns - since, 1000);
	SP_WRITE_ONCE(c->util, sp_state_decay_near_in(c->util, res, 0));
	SP_WRITE_ONCE(c->util_stamp_ns, now_ns);
	SP_WRITE_ONCE(c->busy_since_ns, now_ns);
	SP_WRITE_ONCE(c->idle_state, SP_CPU_AWAKE);
	pi = &m->pd_idle[m->cpu_pd[cpu]];
	deepest = sp_acct_deepest(pi);
	idx = (u32)old < deepest ? (u32)old : deepest;
	v = sp_acct_judge(pi, idx, res, &target);
	s = &a->cpu[cpu].state[idx];
	s->residency_us += res;
	s->verdict[v]++;
	if (out) {	/* a store each: a pair merged costs a host build a shuffle */
		SP_WRITE_ONCE(out->state, idx);
		SP_WRITE_ONCE(out->target_us, target);
		SP_WRITE_ONCE(out->residency_us, res);
		SP_WRITE_ONCE(out->verdict, v);
	}
	if ((u32)old >= c->sleep_from)
		sp_acct_walk(a, st, m, cpu, now_ns, since, res, SP_ACCT_HOLD);
	else
		sp_acct_walk(a, st, m, cpu, now_ns, since, res, SP_ACCT_TOUCH);
	sp_acct_write_end(c);
	return true;
}

/*
 * What sp_acct_cpu_sum() reads of a CPU, copied whole (sp_acct_read_begin()):
 * the closed time per OPP and per state, the stays per state, and the
 * stretch still open.
 */
struct sp_acct_cpu_view {
	u64 busy_us[SP_MAX_OPPS];
	u64 idle_us[SP_MAX_IDLE];
	u64 stays[SP_MAX_IDLE];
	u64 since_ns;		/* of the open stretch, idle or busy */
	s32 idle_state;
};

/* The view of @cpu: short, so that an event seldom lands inside it. */
static void sp_acct_cpu_copy(const struct sp_acct *a, const struct sp_state *st, u32 cpu,
			     struct sp_acct_cpu_view *v)
{
	const struct sp_acct_cpu *ac = &a->cpu[cpu];
	const struct sp_cpu_state *c = &st->cpu[cpu];
	u32 seq, i, n = 0;

	do {
		seq = sp_acct_read_begin(c);
		for (i = 0; i < SP_MAX_OPPS; i++)
			v->busy_us[i] = SP_READ_ONCE(ac->busy_opp_us[i]);
		for (i = 0; i < SP_MAX_IDLE; i++) {
			v->idle_us[i] = SP_READ_ONCE(ac->state[i].residency_us);
			v->stays[i] = sp_acct_stat_entries(&ac->state[i]);
		}
		v->idle_state = SP_READ_ONCE(c->idle_state);
		v->since_ns = v->idle_state != SP_CPU_AWAKE ? SP_READ_ONCE(c->idle_since_ns) :
							      SP_READ_ONCE(c->busy_since_ns);
	} while (sp_acct_read_retry(c, seq) && ++n < SP_ACCT_READ_TRIES);
}

/* The closed stretches of @v: time and wake-ups, priced per OPP and state. */
static void sp_acct_cpu_price(const struct sp_acct_cpu_view *v, const struct sp_pd *pd,
			      struct sp_energy_sum *s)
{
	u32 i;

	for (i = 0; i < SP_MAX_OPPS; i++) {
		s->busy_us += v->busy_us[i];
		if (i < pd->nr_opps)
			s->busy_nj = sp_acct_add(s->busy_nj,
						 sp_acct_nj(pd->opp[i].power_uw, v->busy_us[i]));
	}
	for (i = 0; i < SP_MAX_IDLE; i++) {
		s->idle_us += v->idle_us[i];
		s->wakeups += v->stays[i];
		if (i >= pd->nr_idle)
			continue;
		s->idle_nj = sp_acct_add(s->idle_nj,
					 sp_acct_nj(pd->idle[i].power_uw, v->idle_us[i]));
		s->wake_nj = sp_acct_add(s->wake_nj,
					 sp_acct_wake_nj(v->stays[i], pd->idle[i].wakeup_uj));
	}
}

void sp_acct_cpu_sum(const struct sp_acct *a, const struct sp_state *st,
		     const struct sp_model *m, u32 cpu, u64 now_ns,
		     struct sp_energy_sum *s)
{
	struct sp_acct_cpu_view v;
	const struct sp_pd *pd;
	u64 us;

	memset(s, 0, sizeof(*s));
	if (!sp_acct_cpu_ok(m, cpu))
		return;
	pd = &m->pd[m->cpu_pd[cpu]];
	sp_acct_cpu_copy(a, st, cpu, &v);
	sp_acct_cpu_price(&v, pd, s);
	us = sp_acct_stretch_us(a, v.since_ns, now_ns);
	if (v.idle_state != SP_CPU_AWAKE) {
		u32 idx = sp_acct_clamp_idx(pd, (u32)v.idle_state);

		s->idle_us += us;
		if (pd->nr_idle)
			s->idle_nj = sp_acct_add(s->idle_nj,
						 sp_acct_nj(pd->idle[idx].power_uw, us));
	} else {
		u32 k = sp_state_pd_opp(st, m, m->cpu_pd[cpu]);

		s->busy_us += us;
		if (pd->nr_opps)
			s->busy_nj = sp_acct_add(s->busy_nj, sp_acct_nj(pd->opp[k].power_uw, us));
	}
}

/*
 * Only the group's own CPUs change it, each inside an event of its own:
 * a reading is whole if every one of their counts was even before it and
 * is the same after.  Counts only grow, so their sum is the same only if
 * each is.
 */
static u32 sp_acct_group_read_begin(const struct sp_state *st, const struct sp_model *m,
				    const struct sp_group *gr)
{
	u32 i, sum = 0;

	for (i = 0; i < gr->nr_cpus; i++)
		sum += sp_acct_read_begin(&st->cpu[m->group_cpus[gr->cpu_off + i]]);
	return sum;
}

static bool sp_acct_group_read_retry(const struct sp_state *st, const struct sp_model *m,
				     const struct sp_group *gr, u32 sum)
{
	u32 i, now = 0;

	SP_SMP_RMB();
	for (i = 0; i < gr->nr_cpus; i++)
		now += SP_READ_ONCE(st->cpu[m->group_cpus[gr->cpu_off + i]].seq);
	return now != sum;
}

void sp_acct_group_sum(const struct sp_acct *a, const struct sp_state *st,
		       const struct sp_model *m, u32 g, u64 now_ns,
		       struct sp_energy_sum *s)
{
	const struct sp_acct_group *ag = &a->group[g];
	const struct sp_group_state *gs = &st->group[g];
	const struct sp_group *gr;
	u64 since;
	u32 sum, n = 0;
	bool idle;

	memset(s, 0, sizeof(*s));
	if (g >= m->nr_groups)
		return;
	gr = &m->group[g];
	do {
		sum = sp_acct_group_read_begin(st, m, gr);
		s->wakeups = (u64)sp_atomic64_read(&ag->wakeups);
		s->busy_us = (u64)sp_atomic64_read(&ag->active_us);
		s->idle_us = (u64)sp_atomic64_read(&ag->idle_us);
		idle = sp_state_group_idle(st, g);
		since = idle ? SP_READ_ONCE(gs->idle_since_ns) : SP_READ_ONCE(gs->awake_since_ns);
	} while (sp_acct_group_read_retry(st, m, gr, sum) && ++n < SP_ACCT_READ_TRIES);
	if (idle)
		s->idle_us += sp_acct_stretch_us(a, since, now_ns);
	else
		s->busy_us += sp_acct_stretch_us(a, since, now_ns);
	s->busy_nj = sp_acct_nj(gr->active_uw, s->busy_us);
	s->idle_nj = sp_acct_nj(gr->idle_uw, s->idle_us);
	s->wake_nj = sp_acct_wake_nj(s->wakeups, gr->wakeup_uj);
}
