// SPDX-License-Identifier: GPL-2.0
/*
 * sp_place.c - where a waking task should run, from the energy model.
 */

/**
 * DOC: the decision rule
 *
 * On every wake-up and fork the kernel's CFS has already picked a CPU
 * (cfs_cpu).  sp_place() asks whether another CPU would do the same work for
 * less energy, without making the wake-up wait, and says why it kept or
 * moved the task.  It never allocates, never recurses, and reads the
 * snapshot (core/sp_state.h) lock-free.
 *
 * What a CPU is.  The snapshot says whether each CPU is awake or in which
 * idle state, and which groups (clusters, packages) are awake.  The kernel
 * decides inside try_to_wake_up() on the waker's CPU, and the CPU running
 * the decision is awake whatever the snapshot says: an interrupt (a timer)
 * that wakes a task on an idle CPU may run before that CPU's idle exit is
 * recorded (6.1's default_idle_call(); cpuidle_enter_state() records it
 * just before the handler), and the CPU and its groups count as awake, with
 * nothing to run (this_ctx SP_THIS_IRQ: the hook sees the idle task
 * running); a sync wake-up
 * that CFS sends to the waker's own CPU, with nothing in flight there (and,
 * where the snapshot counts runnable tasks, the waker its only one), leaves
 * the CPU as the waker sleeps (SP_THIS_SYNC, the case 6.1's
 * wake_affine_idle() trusts).  A CPU "queues" the task if
 * it runs one (awake, and not such a deciding CPU) or has work in flight;
 * its wake-up latency is its exit latencies plus SP_QUEUE_WAIT_US (1 ms,
 * the order of 6.1's wake-up preemption granularity) for each task it
 * would wait behind (at most 16).  A CPU is "free" if it queues nothing
 * and no group above it is asleep: a wake-up there costs at most its own
 * exit.  A CPU's utilisation is its average plus its work in flight, less
 * the waking task's own share on prev_cpu (mainline's cpu_util_without()).
 *
 * Work in flight.  Every decision notes the task's utilisation on the CPU
 * it returns (sp_state_note_decision()) until that CPU next enters idle,
 * for at most SP_PENDING_NS (4 ms), so that tasks placed at the same
 * instant (eight forks at once) see each other; a task woken back onto
 * prev_cpu counts there once, in its average (sp_place_note_util()).  A fork's utilisation is
 * an estimate (sp_place_fork_util()); next to a nearly idle parent it is
 * small, so the count of tasks in flight, not their utilisation, is what
 * keeps a burst of forks from queueing on one CPU: each one queued adds
 * SP_QUEUE_WAIT_US of expected wait, which soon makes waking another CPU
 * the faster choice.
 *
 * Candidates.  CFS's CPU and prev_cpu, plus CPUs found by one walk down the
 * group tree of the model, top level first.  At each level the walk looks
 * at the children of the group it stands in (at most SP_PLACE_SCAN_GROUPS,
 * 16, of them) and picks the best awake child (the smallest share of awake
 * CPUs: most spare capacity) and the best idle child (the one holding
 * prev_cpu, else the one that went idle last).  The best CPU of the idle
 * child (of at most SP_PLACE_SCAN_IDLE, 4, tried) becomes a candidate
 * ("what waking this group would cost"); the walk then steps into the
 * awake child.  It stops at the first group with at most
 * SP_PLACE_SCAN_CPUS (16) CPUs (or without children) and scans those CPUs
 * (a model of at most 16 CPUs is scanned whole), keeping one CPU per slot:
 * CPUs whose groups are all awake per performance domain (two slots), the
 * others per number of idle groups above them.  Bounded scans start at an
 * offset derived from cfs_cpu, so that ties do not always land on the same
 * CPU.  Within a slot a CPU that fits ranks first, then by wake-up latency
 * (the shallowest free CPU of an awake package before a deeper one, any
 * free one before a queueing one), then the domain's efficiency, then
 * spare capacity (mainline EAS's max-spare-capacity CPU).  The walk visits
 * O(fan-out x levels + SP_PLACE_SCAN_CPUS) entries, not O(CPUs), and yields
 * at most 2 + SP_MAX_LEVELS + (SP_AWAKE_SLOTS + SP_MAX_LEVELS + 1) =
 * 2 + 2 * SP_MAX_LEVELS + 3 = 13 candidates, whatever the number of CPUs.
 * Within one decision each CPU's utilisation and each group's awake
 * fraction are read once (sp_util_cache) and each pd's energy pass is made
 * once for all its candidates (sp_pd_cache).
 *
 * Filters.  A candidate other than CFS's must be allowed (the caller's
 * callback, asked only for a CPU that beats its slot so far; the kernel's
 * checks that it is active, in the task's affinity mask and not isolated;
 * sp_place() itself rejects any index >= the model's nr_cpus before using
 * it), must keep util + task_util within headroom_pct of its capacity
 * (overutil_pct; 50 % in balanced mode), and must wake within the latency
 * bound: the task's own bound (/dev/sched_power_latency) against its whole
 * wake-up latency, queueing included, else the latency_us knob, else (in
 * balanced mode only) the smallest non-zero group exit latency above CFS's
 * CPU, both against exit latencies only.  CFS's CPU is the fallback and
 * needs no headroom; it meets balanced mode's default bound, which keeps
 * other CPUs out and never makes the task leave CFS's CPU (a
 * latency_bound move goes whatever it costs, and balanced mode promises
 * no cost).  Then three constraints, which are not traded against
 * energy:
 *
 * - Queueing.  A queueing CPU is admissible only if no admissible free CPU
 *   exists and no allowed CPU idles in an awake package (a group of the
 *   balancer gate's level: the clusters of a one-package SoC), whether it
 *   fits the task or is a candidate or not, or if the task's own bound
 *   allows SP_QUEUE_WAIT_US; in balanced mode only if CFS's CPU queues
 *   too.  So sched_power never puts a task behind a running one while a
 *   CPU idles in an awake package; where CFS's own CPU queues and no
 *   admissible CPU takes the task at once, CFS's queue stays.  In power mode,
 *   when CFS's CPU queues the task and an admissible CPU of a sleeping
 *   group would wake it sooner than the queue's estimate (its exit chain,
 *   104 us on x86, against SP_QUEUE_WAIT_US per task ahead), a queue at
 *   least as slow as that wake-up is a slower choice (below): admissible
 *   only while the deciding CPU has the budget's tokens, and keeping CFS's
 *   queue then spends them as a slower move does; without them CFS's CPU
 *   must be left, and the cheapest admissible candidate wins
 *   (queue_avoided), waking the group.  The budget bounds the wake-ups made
 *   slower than CFS's CPU in the snapshot at hand, but the balancer gate
 *   (sp_gate.c) keeps gathered tasks gathered, so that CPU is not the one
 *   CFS would pick in its own, spread, state, where such a wake-up finds an
 *   idle CPU of the other package.  Uncharged, light tasks gathered on one
 *   package queue behind each other at every period while the other
 *   package sleeps, and no decision spends budget for it (a periodic pair
 *   and a phased task on x86: 485 queued wake-ups, none under CFS, p99
 *   3.4x CFS's).  For such a decision the sleeping groups the walk
 *   deferred are scanned, so that the wake-up that beats the queue is known.
 * - Latency budget.  A candidate whose wake-up latency exceeds that of
 *   CFS's CPU, or that queues the task and whose latency is not below
 *   CFS's CPU's, nor below a sleeping group's wake-up that beats CFS's
 *   queue (above) ("slower"; a queue's wait is counted per task, not
 *   known: equal counts say nothing about which wait ends first, the
 *   waker that stops in a few us or a task still leaving C6 with its
 *   whole run ahead) is admissible in power mode only while the
 *   deciding CPU has SP_LAT_TOKENS_SLOWER (200) tokens (sp_state.h: one
 *   earned per decision, at most 400 kept, 200 spent per slower decision):
 *   at most 1 wake-up in 200 is made slower than CFS would make it, so the
 *   latency percentiles below p99.5, p99 among them, stay CFS's.  Balanced
 *   mode never makes a wake-up slower.  A timer wake-up (an interrupt on
 *   the CPU the task slept on, SP_THIS_IRQ with this_cpu == prev_cpu)
 *   decides two wake-ups: the task's next timer fires on the CPU it sleeps
 *   on, and pays that CPU's exit and that of every group above it that
 *   sleeps by then.  In power mode a candidate slower now spends no budget
 *   if the larger of its wake-up latency now and its next timer wake-up's,
 *   from its deepest state with every group above it asleep
 *   (sp_place_next_lat()), is below the same for CFS's CPU: leaving a
 *   CPU whose groups wake slowly (big, 300 + 800 + 500 us on the phone
 *   model) for one that wakes faster (LITTLE, 150 + 400 + 500 us) makes
 *   every later timer wake-up earlier.  Its latency now is what the
 *   deciding CPU's exit has already taken (sp_place_paid_us(): the groups
 *   that woke with it and its deepest state, or, before its exit is
 *   recorded, its state and its sleeping groups) plus the candidate's
 *   own, since the two are paid one after the other: after big's whole
 *   chain, a move into a sleeping LITTLE cluster would make this wake-up
 *   1600 + 550 us, later than any CFS makes there, so it spends budget;
 *   after big's CPU exit alone it is 300 + 550 us, and spends none.  On a
 *   machine whose CPUs all have the same chain nothing changes.
 * - Forks.  A fork goes to no CPU of larger capacity than CFS's (the top
 *   OPP's) unless CFS's CPU must be left (it breaks the bound, or queues
 *   the task where queueing is not admissible).  Its utilisation is an
 *   estimate (sp_place_fork_util()), so what it costs on a larger CPU is
 *   not known, and a task put there stays whatever its size: its timer
 *   fires on the CPU it sleeps on, whose groups are then awake for it, so
 *   staying costs no wake-up while a move to the other cluster has to
 *   wake one, and moving one task does not let a cluster that others keep
 *   up sleep.  A task on too small a CPU outgrows it (overutilised, 6.1's
 *   misfit balance); one on too large a CPU gives no such signal.  Towards
 *   a smaller or an equal capacity a fork is priced as a wake-up is (in
 *   power mode; balanced mode keeps CFS's CPU for every fork, below).
 *   Mainline EAS never prices a fork (find_energy_efficient_cpu() runs for
 *   wake-ups only; forks take find_idlest_cpu()).  On a machine whose CPUs
 *   all have one capacity nothing changes.
 *
 * Overutilised.  Any visited CPU whose utilisation exceeds overutil_pct of
 * its capacity makes the decision fall back to CFS (overutilised_fallback),
 * as mainline EAS stops at an overutilised root domain: once a CPU is
 * saturated utilisation no longer predicts energy, and spreading wins.
 * "Visited" is what the walk scans, so the check costs nothing extra; it
 * does not see saturated CPUs in groups the walk skipped.  CFS's CPU,
 * prev_cpu and the deciding CPU are looked at first, before any energy is
 * computed: if one of them is overutilised the decision ends there (its
 * cfs_nj is then 0), as EAS's one read of rd->overutilized does.
 *
 * Choice.  Every admissible candidate's energy (sp_energy_delta(): busy,
 * P-state step, idle time given up, wake-ups, the static power of awake
 * groups kept up longer, the task's next wake-up there) is computed; at
 * a timer wake-up the deciding CPU's groups that woke with it and that no
 * other CPU holds awake are up for the task alone
 * (sp_place_alone_levels()), and staying there pays their static power
 * in full, not weighted by an awake fraction that is mostly the task's
 * own past runs (sp_energy.h); the lowest total_nj wins, ties going to
 * the earlier candidate and to CFS.  If CFS's own CPU breaks the latency
 * bound and a compliant candidate exists, the cheapest compliant one is
 * taken (latency_bound); if CFS's CPU queues
 * the task while a free one is admissible, the cheapest admissible one is
 * taken (queue_avoided), even if it costs more.  Otherwise the winner
 * replaces CFS's CPU only if it saves at least margin_pct % of the task's
 * running energy at CFS's CPU, the absolute value of busy_nj + pstate_nj +
 * idle_nj (below_margin otherwise): the margin absorbs the error of the
 * utilisation-driven part of the estimate; wake-ups and static power are
 * model constants, and counting them in the base would hide a saved
 * package wake-up (3 mJ on server-256) behind the package's own power over
 * the window (tens of mJ).  A winner short of the margin still replaces
 * CFS's CPU if both queue the task, the winner costs no more and its
 * wake-up latency estimate is lower (shorter_queue: fewer tasks ahead, as
 * on two CPUs of one domain that cost the same): the margin doubts a
 * saving, and this move needs none.  Staying would leave the task queued
 * where only the newly-idle balance of a CPU that frees could take it, and
 * 6.1's NI_RANDOM runs that balance at a domain only with probability
 * (1 + newidle_ratio) / 1024.  If the cheapest CPU overall was one the
 * callback refused and CFS is kept, the reason is not_allowed; so it is
 * when cfs_cpu lies outside the model.
 *
 * Reasons for a move, first match wins: latency_bound, queue_avoided as
 * above; then, for a winner that passes the margin, avoid_package_wakeup
 * (CFS's CPU sits in an idle top-level group, the chosen one in an awake
 * one).  Then, with "depth" = the idle groups
 * above a CPU plus one if the CPU itself is idle (what a wake-up there has
 * to wake): if the chosen CPU is shallower than CFS's, pstate_cheaper when
 * it pays a P-state step (opp_after > opp_before: raising a running
 * domain's OPP beat waking) and pack_awake_group when it does not (the task
 * simply joins awake hardware); if it is deeper, wake_cheaper (waking it
 * beat loading awake CPUs, typically because they would step up, or because
 * its package is up more often); at equal depth wake_cheaper if it is idle,
 * else pstate_cheaper (its domain runs the task for less: a lower OPP or a
 * more efficient CPU); shorter_queue for one short of the margin, as
 * above.  A kept CFS choice reports cfs_cheapest, below_margin,
 * not_allowed or overutilised_fallback.
 *
 * Pruning.  The result is that of evaluating every admissible candidate
 * (sp_place_exhaustive() does), but sp_place() skips what cannot change it.
 * A candidate is not evaluated when a lower bound of its total_nj (its
 * wake-ups exact, the static power of the groups it wakes, and for busy +
 * P-state + idle its pd's rate bound at the task's utilisation: the least
 * a unit costs at any OPP the task's own need can leave the pd at,
 * sp_model_derive.c's DOC block, its table entry picked once per decision)
 * reaches the best total so far, or, unless CFS's CPU must be left (it
 * breaks the bound, or queues the task where queueing is not admissible),
 * CFS's own total (exceeds it, when CFS's CPU queues the task: a tie may
 * still win as shorter_queue): such a candidate can neither win nor make
 * the reason below_margin.  And when CFS's CPU is free, fits and meets the bound, and
 * queueing is ruled out for everyone else (balanced mode, or a task bound
 * under SP_QUEUE_WAIT_US), only a CPU that costs less than CFS's CPU could
 * be chosen: the group tree is looked at top down before any walk (a
 * sleeping group ruled out when the bound of waking any of its CPUs, its
 * derived sleep_wake_uj plus its lb_sleep_q10 rate, which prices busy +
 * P-state + idle and the static power of the groups woken at the same
 * OPP, and, if that falls short, the group's own future term (its next
 * wake-up and static power weighted by the time it sleeps, from its awake
 * fraction), reaches CFS's total; an awake one when its rate bound does
 * (but for the deciding CPU's group against the upper bound below), else
 * its children; at the bottom each CPU, ruled out if it queues or its
 * own bound reaches CFS's total), and if everything is ruled out within
 * SP_PLACE_FAST_VISITS (32) looks, CFS's CPU is kept at once: reason
 * cfs_cheapest, one candidate.  The look compares the bounds first with an
 * upper bound of CFS's total (sp_place_cfs_upper_nj(): its estimate as
 * sp_energy.c computes it, the pass over its pd, the OPPs before and
 * after, the exit and group terms, but for the idle term, which is never
 * positive, plus a slack of one rounded term per term); if that fails,
 * CFS's estimate is computed, and the look is made again against it only
 * when the bound it found short (or the visits it ran out of) could pass
 * there, and the next SP_PLACE_UB_BACKOFF (8) looks of the same working
 * set skip the bound and compare with the estimate at once, so that
 * decisions the fast path does not settle pay for the bound rarely (the
 * CPU is the same either way; sp_place() tries the bound every time).  A
 * decision kept on the bound leaves cfs_nj, chosen_nj and the terms 0:
 * nothing in the decision needs them, and sp_place_w_energy() computes
 * them for a reader (the hook calls it while the trace event is on;
 * sp_place() always does).  Where the fast path keeps CFS's CPU, the
 * full evaluation keeps it too, but says overutilised_fallback if its walk
 * sees an overutilised CPU that the fast path had no need to look at, and
 * counts more candidates.  CFS's CPU is kept without a walk too, whatever
 * CFS's CPU, when the task fits no CPU at all (its utilisation alone above
 * headroom_pct of the largest capacity): no candidate is admissible.
 * There, on a model the walk scans whole (at most SP_PLACE_SCAN_CPUS
 * CPUs), the decision reads every CPU's utilisation and says
 * overutilised_fallback where the walk would; on a larger one it says
 * cfs_cheapest.  The trace shows the decision's reason and count; make
 * place-equiv and make sim-equiv count the decisions where the two differ
 * (the CPU must never).
 *
 * Modes.  off: nothing is computed, CFS kept (reason mode).  performance:
 * CFS kept (reason mode), its energy still filled in for the trace.
 * observe: the power decision, with override false.  power: the rule
 * above.  balanced: the rule above inside a guard (headroom 50 %, default
 * latency bound = shallowest group exit latency, no queueing where CFS
 * would not queue, no slower wake-up), so it packs only into CPUs that stay
 * half free and never makes a wake-up wait longer than CFS would; and for
 * wake-ups only: a fork keeps CFS's CPU (reason mode, CFS's energy filled
 * in as in performance mode).  The guard judges one wake-up against CFS's
 * choice for it, but a fork decides where a task of unknown size lives:
 * CFS's later wake-ups follow it (prev_cpu), so the fork's saving, priced
 * on an estimated utilisation, is not what the task's life costs.  Moved
 * off CFS's idlest CPU, a fork lands beside running tasks (the latency
 * bound takes the phone's forks from an idle big CPU of a sleeping
 * cluster to LITTLE CPUs of an awake one) or on hardware whose OPP is set
 * for others; its later wake-ups wait longer, and the work finishes
 * later, than in CFS's placement, which the per-wake-up guard cannot see
 * (Documentation/placement.rst, "Balanced mode").
 *
 * d->wake_lat_us is the chosen CPU's modelled wake-up latency, d->queued
 * says it queues the task, d->slower that it spends the budget (slower
 * than CFS's CPU, or a queue, CFS's own included, where a sleeping group
 * wakes the task sooner).  d->override is set only in power and balanced
 * mode and only when the CPU differs from CFS's.  The caller tells the
 * snapshot where the task went and whether the budget was spent
 * (sp_state_note_decision(); spent when the task goes to d->cpu,
 * sp_place_spends()); stats/slower_than_cfs counts the decisions that
 * spent it.
 */
#include "sp_place.h"

/* names in list order: the list defines the enum in the same order */
const char *const sp_mode_names[SP_MODE_NR] = SP_ENUM_NAMES(SP_MODE_LIST);
const char *const sp_reason_names[SP_R_NR] = SP_ENUM_NAMES(SP_REASON_LIST);
const char *const sp_wake_names[SP_WAKE_NR] = SP_ENUM_NAMES(SP_WAKE_LIST);

/* Bounds of the walk: entries looked at per level and per final scan. */
#define SP_PLACE_SCAN_GROUPS	16
#define SP_PLACE_SCAN_CPUS	SP_PLACE_SCAN_MAX
#define SP_PLACE_SCAN_IDLE	4	/* CPUs tried in an idle group */

#define SP_PLACE_DEF_OVERUTIL_PCT	80	/* when the policy says 0 */
#define SP_PLACE_BALANCED_HEADROOM_PCT	50
#define SP_NO_SCORE		(~0ull)
#define SP_PLACE_NO_BOUND	(-0x7fffffffffffffffll - 1)	/* sp_place_lb_nj() */
#define SP_PLACE_NO_LIMIT	0x7fffffffffffffffll
#define SP_PLACE_UB_POWER_MAX_UW	0x10000000000ull	/* sp_energy.c's clamp */
#define SP_PLACE_UB_BACKOFF	8	/* fast looks without the bound after it failed */

#define SP_CF_ALLOWED		0x1	/* allowed() accepted it */
#define SP_CF_FITS		0x2	/* util + task within headroom */
#define SP_CF_LAT_OK		0x4	/* wakes within the latency bound */
#define SP_CF_IDLE		0x8	/* the CPU itself is idle */
#define SP_CF_QUEUE		0x10	/* it runs a task or has work in flight */
#define SP_CF_NEXT_OK		0x20	/* slower now, faster by its timer key */
#define SP_CF_UP		0x40	/* larger than CFS's CPU, for a fork */
#define SP_CF_OK		(SP_CF_ALLOWED | SP_CF_FITS | SP_CF_LAT_OK)

static const struct sp_pd *sp_place_pd(const struct sp_model *m, u32 cpu)
{
	u32 pd = m->cpu_pd[cpu];

	return pd < m->nr_pds ? &m->pd[pd] : NULL;
}

/* Capacity of @cpu at its highest OPP, 0..1024. */
static u32 sp_place_cap(const struct sp_pd *pd)
{
	if (!pd || !pd->nr_opps)
		return SP_CAP_SCALE;
	return pd->opp[pd->nr_opps - 1].cap;
}

/* Is group @g of level @l idle, counting the deciding CPU as awake? */
static inline bool sp_place_group_idle(const struct sp_place_work *s, u32 l, u32 g)
{
	if (s->this_group[l] == g)
		return false;
	return sp_state_group_idle(s->st, g);
}

static u64 sp_place_min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static inline u32 sp_place_min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

/*
 * What the probe needs of pd @pdi, cached in @s for the last pd seen (scans walk
 * CPUs in pd order): its top capacity, that capacity times the overutil and
 * headroom percentages, and the efficiency key of the score, the cost per
 * unit of capacity at the lowest OPP (uW per 1/1024), the order in which
 * idle CPUs of different domains are tried.
 */
static void sp_place_pdinfo(struct sp_place_work *s, u32 pdi)
{
	const struct sp_pd *pd = pdi < s->m->nr_pds ? &s->m->pd[pdi] : NULL;

	s->eff_pdi = pdi;
	s->eff_pd = pd;
	s->cap = pd ? pd->cap_top : SP_CAP_SCALE;
	s->cap_ou = s->cap * s->overutil_pct;
	s->cap_hr = s->cap * s->headroom_pct;
	s->eff_key = pd ? (u64)pd->eff_key << 16 : 0;	/* sp_model_derive() */
}

/*
 * The exit latency of idle @cpu (state @idx; an unknown index counts as the
 * deepest state) plus that of every idle group above it, and what waking
 * them costs (into @c).  Groups nest, so the first awake level ends the
 * climb.
 */
static inline SP_INLINE u32 sp_place_wake_lat(const struct sp_place_work *s, u32 cpu,
					      s32 idx, const struct sp_pd *pd,
					      struct sp_cand *c)
{
	const struct sp_model *m = s->m;
	u32 lat = 0, wake_uj = 0, n = 0, l;
	u64 s_uw = 0;

	if (pd && pd->nr_idle) {
		u32 i = (u32)idx < pd->nr_idle ? (u32)idx : pd->nr_idle - 1u;

		lat = pd->idle[i].exit_latency_us;
		wake_uj = pd->idle[i].wakeup_uj;
	}
	for (l = 0; l < s->nr_levels; l++) {
		u32 g = m->cpu_group[l][cpu];
		const struct sp_group *gr;

		if (g >= m->nr_groups || !sp_place_group_idle(s, l, g))
			break;
		gr = &m->group[g];
		lat += gr->exit_latency_us;
		wake_uj += gr->wakeup_uj;
		if (gr->active_uw > gr->idle_uw)
			s_uw += gr->active_uw - gr->idle_uw;
		n++;
	}
	c->wake_uj = wake_uj;
	c->wake_s_uw = s_uw;
	c->idle_groups = (u8)n;
	return lat;
}

/*
 * Look at @cpu once: fill @c (fits/latency/idle/queue flags, idle groups,
 * ranking score) and note an overutilised CPU.  The allowed() callback is
 * left to the caller, which asks only for CPUs that would win.  A CPU
 * queues the task behind the one it runs, if it is awake (the deciding CPU
 * up for an interrupt only runs none), and behind those placed there and
 * not run yet.  Score, lower is better: fits, then wake-up latency (exit
 * latencies, plus the expected wait behind queued tasks), then the
 * domain's efficiency, then spare capacity (mainline EAS's
 * max-spare-capacity CPU of a domain).  With @seen (CFS's CPU and
 * prev_cpu, which sp_place_saturated() has read) the utilisation comes
 * from the util cache when it holds @cpu.
 */
static inline SP_INLINE void sp_place_probe(struct sp_place_work *s, u32 cpu, struct sp_cand *c,
					    bool seen)
{
	const struct sp_cpu_state *cs = &s->st->cpu[cpu];
	u32 pdi = s->m->cpu_pd[cpu];
	const struct sp_pd *pd;
	u64 now = s->now_ns;
	s32 idx = SP_READ_ONCE(cs->idle_state);
	int pn = sp_atomic_read(&cs->pending_nr);
	u32 flags = 0, lat = 0, queued = 0, spare, wake_lat, util;
	u32 ui = cpu % SP_UTIL_CACHE_SLOTS;

	if (seen && s->uc.key[ui] == sp_state_ucache_key(&s->uc, cpu)) {
		util = s->uc.util[ui];
		if (pn > 0 && now <= SP_READ_ONCE(cs->pending_ns) + SP_PENDING_NS)
			queued = (u32)pn;
	} else {
		int pu = sp_atomic_read(&cs->pending_util);

		/* sp_state_ucache_fill(), the first read of @cpu in this decision */
		util = SP_READ_ONCE(cs->util);
		if (now > SP_READ_ONCE(cs->util_stamp_ns) + SP_STALE_NS)
			util = sp_state_cpu_util(s->st, cpu, now);
		if (cpu == s->uc.without_cpu)
			util = util > s->uc.without_util ? util - s->uc.without_util : 0;
		if ((pu > 0 || pn > 0) && now <= SP_READ_ONCE(cs->pending_ns) + SP_PENDING_NS) {
			if (pu > 0)
				util += (u32)pu < SP_CAP_SCALE ? (u32)pu : SP_CAP_SCALE;
			if (pn > 0)
				queued = (u32)pn;
		}
		if (util > SP_CAP_SCALE)
			util = SP_CAP_SCALE;
		sp_state_ucache_put(&s->uc, cpu, util);
	}

	if (pdi != s->eff_pdi)
		sp_place_pdinfo(s, pdi);
	pd = s->eff_pd;
	if (cpu == s->this_cpu) {	/* up, whatever the snapshot says */
		queued += !s->this_free;
	} else if (idx == SP_CPU_AWAKE) {
		queued++;
	} else {
		flags = SP_CF_IDLE;
		lat = sp_place_wake_lat(s, cpu, idx, pd, c);
	}
	if (!flags) {
		c->wake_uj = 0;
		c->wake_s_uw = 0;
		c->idle_groups = 0;
	}
	if (util * 100u > s->cap_ou)
		s->overutilised = true;
	if ((util + s->task_util) * 100u <= s->cap_hr)
		flags |= SP_CF_FITS;
	c->queue_us = SP_QUEUE_WAIT_US * (queued < 16 ? queued : 16);
	wake_lat = lat + c->queue_us;
	if (queued)
		flags |= SP_CF_QUEUE;
	/* a task's own bound also counts the wait behind a running task */
	if (lat <= s->lat_lim_us && wake_lat <= s->own_lim_us)
		flags |= SP_CF_LAT_OK;
	spare = s->cap > util ? s->cap - util : 0;
	c->cpu = (u16)cpu;
	c->pd = (u16)pdi;
	c->flags = (u8)flags;
	c->wake_lat_us = wake_lat;	/* total_nj: set when it is evaluated */
	c->score = (u64)!(flags & SP_CF_FITS) << 56 |
		   sp_place_min_u64(wake_lat, 0xffff) << 40 |
		   s->eff_key |
		   (0xffff - sp_place_min_u64(spare, 0xffff));
}

/* An idle candidate that needs no group woken: where a wake-up is free. */
static bool sp_place_free(const struct sp_cand *c)
{
	return !(c->flags & SP_CF_QUEUE) && !c->idle_groups;
}

static bool sp_place_allowed(const struct sp_place_work *s, u32 cpu)
{
	return !s->allowed || s->allowed(s->ctx, cpu);
}

/*
 * Add a scan's slot winner @c to the candidates.  The scans of one decision
 * visit disjoint sets of CPUs (the flat scan once; the walk's groups are
 * siblings or descendants of siblings, the deferred ones among them), so
 * the only entry already in c[] that a scan can return is CFS's or
 * prev_cpu's own (sp_place_look()).
 */
static void sp_place_add(struct sp_place_work *s, const struct sp_cand *c)
{
	if (c == &s->c[0] || c == &s->c[s->prev])
		return;
	if (s->nr < SP_PLACE_MAX_CANDS)
		s->c[s->nr++] = *c;
}

static u64 sp_place_score(const struct sp_cand *c)
{
	return c ? c->score : SP_NO_SCORE;
}

/*
 * Slot of @c in a scan's table: a CPU whose groups are all awake (running,
 * or idle in an awake package) goes to the slot of its domain (or to the
 * worse of the two when a third domain shows up), where the score puts the
 * shallowest idle CPU first and a queueing one last; a CPU under idle
 * groups goes to the slot of its wake-up class.  A domain slot belongs to
 * the domain of its best allowed CPU, else of its best refused one, so that
 * a domain whose CPUs were all refused keeps its slot (and can report
 * not_allowed) instead of being overwritten by the next domain's CPUs.
 */
static u32 sp_place_slot(const struct sp_cand *const *best,
			 const struct sp_cand *const *refused,
			 const struct sp_cand *c, bool one)
{
	u32 k;

	if (one)
		return 0;
	if (c->idle_groups) {
		k = SP_AWAKE_SLOTS + c->idle_groups;
		return k < SP_NR_SLOTS ? k : SP_NR_SLOTS - 1;
	}
	for (k = 0; k < SP_AWAKE_SLOTS; k++) {
		const struct sp_cand *o = best[k] ? best[k] : refused[k];

		if (!o || o->pd == c->pd)
			return k;
	}
	return sp_place_score(best[0]) > sp_place_score(best[1]) ? 0 : 1;
}

/* The candidate entry for @cpu: CFS's or prev_cpu's if probed, else a new probe. */
static inline SP_INLINE struct sp_cand *sp_place_look(struct sp_place_work *s, u32 cpu, u32 *np)
{
	struct sp_cand *c;

	if (cpu == s->c[0].cpu)
		return &s->c[0];
	if (s->prev < s->nr && cpu == s->c[s->prev].cpu)
		return &s->c[s->prev];
	c = &s->scan_pool[(*np)++];
	sp_place_probe(s, cpu, c, false);
	return c;
}

/*
 * Scan at most SP_PLACE_SCAN_CPUS of the @n CPUs in @list (NULL: CPUs
 * 0..n-1) and add the best allowed CPU of each slot (awake CPUs: per
 * domain; idle CPUs: per wake-up class), or only the single best when @one
 * (an idle group, whose CPUs all need waking anyway).  A slot with no
 * allowed CPU contributes its best refused one, flagged, so that the
 * decision can say not_allowed.  allowed() is called only for a CPU that
 * beats its slot's best so far.
 */
static void sp_place_scan(struct sp_place_work *s, const u16 *list, u32 n, bool one)
{
	const struct sp_cand **best = s->scan_best, **refused = s->scan_refused;
	u32 max = one ? SP_PLACE_SCAN_IDLE : SP_PLACE_SCAN_CPUS;
	u32 lim = n < max ? n : max;
	u32 j = n > lim ? s->rot % n : 0;
	u32 i, k, np = 0, nr_cpus = s->m->nr_cpus, used = 0;

	memset(s->scan_best, 0, sizeof(s->scan_best));
	memset(s->scan_refused, 0, sizeof(s->scan_refused));
	for (i = 0; i < lim; i++, j++) {
		u32 cpu;
		struct sp_cand *c;

		if (j == n)	/* a rotated scan wraps round */
			j = 0;
		cpu = list ? list[j] : j;

		if (cpu >= nr_cpus)
			continue;
		c = sp_place_look(s, cpu, &np);
		k = sp_place_slot(best, refused, c, one);
		if (c->score >= sp_place_score(best[k]))
			continue;
		if (c->flags & SP_CF_ALLOWED || sp_place_allowed(s, cpu)) {
			c->flags |= SP_CF_ALLOWED;
			best[k] = c;
			used |= 1u << k;
		} else if (c->score < sp_place_score(refused[k])) {
			refused[k] = c;
			used |= 1u << k;
		}
	}
	for (k = 0; used; k++, used >>= 1) {	/* the slots filled, in order */
		if (!(used & 1))
			continue;
		sp_place_add(s, best[k] ? best[k] : refused[k]);
	}
}

static u32 sp_place_awake(const struct sp_place_work *s, u32 g)
{
	int a = sp_atomic_read(&s->st->group[g].nr_awake);

	if (a <= 0)
		return 0;
	return (u32)a < s->m->group[g].nr_cpus ? (u32)a : s->m->group[g].nr_cpus;
}

/*
 * Among the groups first..first+nr-1 (at most SP_PLACE_SCAN_GROUPS), pick
 * the awake one with the smallest share of awake CPUs and the idle one that
 * holds prev_cpu, else the one idle for the shortest time.
 */
static void sp_place_pick(const struct sp_place_work *s, u32 first, u32 nr,
			  u32 *awake, u32 *idle)
{
	const struct sp_model *m = s->m;
	u32 lim = nr < SP_PLACE_SCAN_GROUPS ? nr : SP_PLACE_SCAN_GROUPS;
	u32 start = nr > lim ? s->rot % nr : 0;
	u32 prev = s->t->prev_cpu;
	u32 ba = 0, bn = 1, i, j;
	u64 bsince = 0;
	bool bprev = false;

	*awake = SP_NONE;
	*idle = SP_NONE;
	for (i = 0, j = start; i < lim; i++, j++) {
		u32 g, a, n;

		if (j == nr)	/* a rotated look wraps round */
			j = 0;
		g = first + j;
		if (g >= m->nr_groups)
			continue;
		n = m->group[g].nr_cpus;
		a = sp_place_awake(s, g);	/* 0..n */
		if (a) {
			/* a / n < ba / bn, without dividing */
			if (*awake == SP_NONE || (u64)a * bn < (u64)ba * n) {
				*awake = g;
				ba = a;
				bn = n;
			}
		} else if (!bprev) {
			u64 since = SP_READ_ONCE(s->st->group[g].idle_since_ns);
			u32 l = m->group[g].level;
			bool hp = prev < m->nr_cpus && l < SP_MAX_LEVELS &&
				  m->cpu_group[l][prev] == g;

			if (hp || *idle == SP_NONE || since > bsince) {
				*idle = g;
				bsince = since;
				bprev = hp;
			}
		}
	}
}

static const u16 *sp_place_group_cpus(const struct sp_model *m,
				      const struct sp_group *g)
{
	if ((u32)g->cpu_off + g->nr_cpus > SP_MAX_LEVELS * SP_MAX_CPUS)
		return NULL;
	return &m->group_cpus[g->cpu_off];
}

/* The walk down the group tree described in the DOC block. */
static void sp_place_walk(struct sp_place_work *s)
{
	const struct sp_model *m = s->m;
	const struct sp_level *top;
	u32 first, nr, depth;

	if (!m->nr_levels || m->nr_levels > SP_MAX_LEVELS ||
	    m->nr_cpus <= SP_PLACE_SCAN_CPUS) {
		sp_place_scan(s, NULL, m->nr_cpus, false);
		return;
	}
	top = &m->level[m->nr_levels - 1];
	first = top->first_group;
	nr = top->nr_groups;
	for (depth = 0; depth < SP_MAX_LEVELS; depth++) {
		const struct sp_group *g;
		const u16 *cpus;
		u32 awake, idle;

		sp_place_pick(s, first, nr, &awake, &idle);
		if (idle != SP_NONE) {
			g = &m->group[idle];
			cpus = sp_place_group_cpus(m, g);
			if (cpus && !s->exhaustive && s->nr_pend < SP_MAX_LEVELS &&
			    sp_place_group_idle(s, g->level, idle)) {
				/* sp_place_pending() decides whether to scan it */
				s->pend_group[s->nr_pend] = (u16)idle;
				s->pend_at[s->nr_pend++] = (u8)s->nr;
			} else if (cpus) {
				sp_place_scan(s, cpus, g->nr_cpus, true);
			}
		}
		if (awake == SP_NONE)
			return;
		g = &m->group[awake];
		if (g->nr_cpus <= SP_PLACE_SCAN_CPUS || g->first_child == SP_NONE ||
		    !g->nr_children || depth + 1 == SP_MAX_LEVELS) {
			cpus = sp_place_group_cpus(m, g);
			if (cpus)
				sp_place_scan(s, cpus, g->nr_cpus, false);
			return;
		}
		first = g->first_child;
		nr = g->nr_children;
	}
}

/* Balanced mode's default bound: smallest non-zero exit latency above @cpu. */
static u32 sp_place_shallowest_group_lat(const struct sp_model *m, u32 cpu)
{
	u32 l, best = 0;

	for (l = 0; l < m->nr_levels && l < SP_MAX_LEVELS; l++) {
		u32 g = m->cpu_group[l][cpu];
		u32 lat;

		if (g >= m->nr_groups)
			continue;
		lat = m->group[g].exit_latency_us;
		if (lat && (!best || lat < best))
			best = lat;
	}
	return best;
}

static s64 sp_place_abs(s64 v)
{
	return v < 0 ? -v : v;
}

/* Does @nj save at least margin_pct % of |@base_nj| against @cfs_nj? */
static bool sp_place_margin_ok(s64 cfs_nj, s64 nj, s64 base_nj, u32 margin_pct)
{
	if (nj >= cfs_nj)
		return false;
	return (cfs_nj - nj) * 100 >= (s64)margin_pct * sp_place_abs(base_nj);
}

/* How much a CPU has to wake: itself if idle, plus its idle groups. */
static u32 sp_place_depth(const struct sp_cand *c)
{
	return c->idle_groups + !!(c->flags & SP_CF_IDLE);
}

/*
 * Why the chosen candidate @c (energy terms @e) beats CFS's @cfs; see the
 * DOC block.
 */
static u16 sp_place_reason(const struct sp_place_work *s, const struct sp_cand *cfs,
			   const struct sp_cand *c, const struct sp_energy_terms *e)
{
	const struct sp_model *m = s->m;
	bool step = e->opp_after > e->opp_before;

	if (m->nr_levels && m->nr_levels <= SP_MAX_LEVELS) {
		u32 top = m->nr_levels - 1;
		u32 gf = m->cpu_group[top][cfs->cpu];
		u32 gc = m->cpu_group[top][c->cpu];

		if (gf < m->nr_groups && gc < m->nr_groups &&
		    sp_place_group_idle(s, top, gf) && !sp_place_group_idle(s, top, gc))
			return SP_R_AVOID_PKG_WAKEUP;
	}
	if (sp_place_depth(c) < sp_place_depth(cfs))
		return step ? SP_R_PSTATE_CHEAPER : SP_R_PACK_AWAKE_GROUP;
	if (sp_place_depth(c) > sp_place_depth(cfs))
		return SP_R_WAKE_CHEAPER;
	return c->flags & SP_CF_IDLE ? SP_R_WAKE_CHEAPER : SP_R_PSTATE_CHEAPER;
}

/*
 * The levels (bit l for level l, from 0 up) of the deciding CPU's groups
 * that woke with it: while the snapshot still has the CPU idle (the
 * interrupt ran before its exit was recorded), those that sleep; else
 * those awake since the CPU left idle (sp_state_exit_cpu() stamps both at
 * once).  @idx is the CPU's idle state as read, @since its busy stamp.
 */
static u32 sp_place_woke_levels(const struct sp_place_work *s, s32 idx, u64 since)
{
	u32 l, mask = 0;

	for (l = 0; l < s->nr_levels; l++) {
		u32 g = s->this_group[l];

		if (g >= s->m->nr_groups)
			break;
		if (idx != SP_CPU_AWAKE ? !sp_state_group_idle(s->st, g) :
		    SP_READ_ONCE(s->st->group[g].awake_since_ns) < since)
			break;
		mask |= 1u << l;
	}
	return mask;
}

/*
 * What the deciding CPU's exit has already added to this timer wake-up.
 * If the snapshot still has it idle: its state's exit and that of every
 * group above it that woke with it (sp_place_woke_levels(), then every
 * one that sleeps).  Else the exit of every group that woke with it and,
 * if one did, that of its pd's deepest state, the only one that lets a
 * group sleep; a CPU that woke no group counts 0, as its state is not kept
 * past the exit.  A deciding CPU outside the model counts 0.
 */
static u32 sp_place_paid_us(const struct sp_place_work *s)
{
	const struct sp_model *m = s->m;
	const struct sp_cpu_state *cs;
	const struct sp_pd *pd;
	u32 lat = 0, deep = 0, l, woke;
	s32 idx;

	if (s->this_cpu == SP_NONE)
		return 0;
	cs = &s->st->cpu[s->this_cpu];
	pd = sp_place_pd(m, s->this_cpu);
	idx = SP_READ_ONCE(cs->idle_state);
	woke = sp_place_woke_levels(s, idx, SP_READ_ONCE(cs->busy_since_ns));
	if (pd && pd->nr_idle)
		deep = pd->idle[pd->nr_idle - 1u].exit_latency_us;
	if (idx != SP_CPU_AWAKE && pd && pd->nr_idle)
		lat = (u32)idx < pd->nr_idle ? pd->idle[idx].exit_latency_us : deep;
	for (l = 0; woke >> l & 1u; l++)
		lat += m->group[s->this_group[l]].exit_latency_us +
		       (idx == SP_CPU_AWAKE && !l ? deep : 0);
	return lat;
}

/*
 * The levels of the deciding CPU's groups that a timer wake-up (an
 * interrupt on the CPU the task slept on) woke for the task alone: they
 * woke with the CPU (sp_place_woke_levels()) and no other CPU holds them
 * awake.  The static term prices them in full (sp_state_ucache_asleep()).
 */
static u32 sp_place_alone_levels(const struct sp_place_work *s)
{
	const struct sp_cpu_state *cs = &s->st->cpu[s->this_cpu];
	s32 idx = SP_READ_ONCE(cs->idle_state);
	u32 woke = sp_place_woke_levels(s, idx, SP_READ_ONCE(cs->busy_since_ns));
	u32 l, mask = 0;

	for (l = 0; woke >> l & 1u; l++)
		if (sp_atomic_read(&s->st->group[s->this_group[l]].nr_awake) <=
		    (idx == SP_CPU_AWAKE ? 1 : 0))
			mask |= 1u << l;
	return mask;
}

static void sp_place_init_search(struct sp_place_work *s, const struct sp_model *m,
				 const struct sp_state *st,
				 const struct sp_knobs *pol,
				 const struct sp_task_info *t)
{
	u32 ou = pol->overutil_pct ? pol->overutil_pct : SP_PLACE_DEF_OVERUTIL_PCT;
	u32 l, b;

	s->m = m;
	s->st = st;
	s->t = t;
	s->task_util = t->util < SP_CAP_SCALE ? t->util : SP_CAP_SCALE;
	s->overutil_pct = ou;
	s->headroom_pct = ou;
	s->lat_bound_us = t->latency_us ? t->latency_us : pol->latency_us;
	if (pol->mode == SP_MODE_BALANCED) {
		if (s->headroom_pct > SP_PLACE_BALANCED_HEADROOM_PCT)
			s->headroom_pct = SP_PLACE_BALANCED_HEADROOM_PCT;
		if (!s->lat_bound_us)
			s->lat_bound_us = sp_place_shallowest_group_lat(m, t->cfs_cpu);
	}
	s->this_cpu = t->this_ctx != SP_THIS_NONE && t->this_cpu < m->nr_cpus ?
		      t->this_cpu : SP_NONE;
	s->this_free = t->this_ctx == SP_THIS_IRQ || t->this_ctx == SP_THIS_SYNC;
	s->now_ns = t->now_ns;
	s->lat_lim_us = s->lat_bound_us ? s->lat_bound_us : ~0u;
	s->nr_levels = m->nr_levels < SP_MAX_LEVELS ? m->nr_levels : SP_MAX_LEVELS;
	/*
	 * every level's entry, a fixed count the compiler unrolls; those past
	 * the model's levels are never read (sp_place_group_idle())
	 */
	if (s->this_cpu != SP_NONE) {
		for (l = 0; l < SP_MAX_LEVELS; l++)
			s->this_group[l] = m->cpu_group[l][s->this_cpu];
	} else {
		for (l = 0; l < SP_MAX_LEVELS; l++)
			s->this_group[l] = SP_NONE;
	}
	s->lb_w = pol->window_us < SP_ENERGY_WINDOW_MAX_US ? pol->window_us :
		  SP_ENERGY_WINDOW_MAX_US;
	s->lb_uw = (s64)s->task_util * s->lb_w;
	s->lb_slack_nj = s->lb_w / 1000 + 2;
	/* the bucket of the task's need (5u + 3) / 4, at most 1280: in the table */
	b = ((5 * s->task_util + 3) / 4) >> SP_OPP_LUT_SHIFT;
	s->lb_q10 = m->lb_q10[b];
	s->lb_sleep_q10 = m->lb_sleep_q10[b];
	sp_state_ucache_begin(&s->uc);
	if (t->wake != SP_WAKE_FORK && t->prev_cpu < m->nr_cpus) {
		sp_state_ucache_without(&s->uc, t->prev_cpu, s->task_util);
		if (t->this_ctx == SP_THIS_IRQ && s->this_cpu == t->prev_cpu)
			s->uc.alone_levels = sp_place_alone_levels(s);
	}
}

/*
 * What an energy of the decision needs beyond sp_place_init_search(): the
 * shared arguments (the clamped task utilisation and window, the deciding
 * CPU) and empty pd passes.  A decision that the fast path settles on its
 * bound leaves them until sp_place_w_energy() asks.  Out of line, so that
 * sp_place_w()'s frame, on the hook's deepest stack chain, stays small.
 */
static SP_NOINLINE void sp_place_init_energy(struct sp_place_work *s)
{
	sp_energy_args_init(&s->ea, s->m, s->st, s->now_ns, s->this_cpu, s->task_util, s->lb_w);
	s->pdc[0].pd = SP_NONE;
	s->pdc[0].uc = &s->uc;
	s->pdc[1].pd = SP_NONE;
	s->pdc[1].uc = &s->uc;
	s->pdc_next = 0;
}

/* What the search needs beyond the fast path: the probes' and the walk's state. */
static void sp_place_init_walk(struct sp_place_work *s)
{
	s->queue_ok = true;
	s->own_lim_us = s->t->latency_us ? s->lat_bound_us : ~0u;
	s->rot = s->t->cfs_cpu;
	/* what sp_place_pdinfo() computes for a CPU without a valid pd */
	s->eff_pdi = SP_NONE;
	s->eff_pd = NULL;
	s->cap = SP_CAP_SCALE;
	s->cap_ou = s->cap * s->overutil_pct;
	s->cap_hr = s->cap * s->headroom_pct;
	s->eff_key = 0;
	s->overutilised = false;
	s->nr = 0;
	s->prev = SP_PLACE_MAX_CANDS;
	s->nr_pend = 0;
	s->nr_skip = 0;
}

/* The pdc[] entry that holds @cpu's pd, else the one to refill. */
static struct sp_pd_cache *sp_place_pdc(struct sp_place_work *s, u32 cpu)
{
	u32 pd = s->m->cpu_pd[cpu];
	struct sp_pd_cache *c;

	if (s->pdc[0].pd == pd)
		return &s->pdc[0];
	if (s->pdc[1].pd == pd)
		return &s->pdc[1];
	c = &s->pdc[s->pdc_next];
	s->pdc_next ^= 1;
	return c;
}

/*
 * Can @cpu run the task at once: the deciding CPU if it is free
 * (this_free), another CPU if the snapshot has it idle, and neither with
 * work in flight?  Sets *@idx to its idle state (SP_CPU_AWAKE for the
 * deciding CPU).
 */
static inline SP_INLINE bool sp_place_runs_now(const struct sp_place_work *s, u32 cpu,
					       s32 *idx)
{
	if (cpu == s->this_cpu) {
		if (!s->this_free)
			return false;	/* runs the waker */
		*idx = SP_CPU_AWAKE;
	} else {
		*idx = SP_READ_ONCE(s->st->cpu[cpu].idle_state);
		if (*idx == SP_CPU_AWAKE)
			return false;	/* runs a task */
	}
	return !sp_state_cpu_pending_nr(s->st, cpu, s->now_ns);
}

/*
 * Does an allowed CPU idle, with nothing in flight, in an awake package?
 * The packages are the groups of the model's gate level (gate_cpu[]: the
 * topmost level with more than one group: the packages of x86-2pkg, the
 * clusters of a one-package big.LITTLE SoC, the two nodes of server-256);
 * without one, every CPU's package is awake.  The deciding CPU
 * counts when it is free (this_free).  Whether it fits the task does not
 * matter: a task that queues behind a running one waits for that task's
 * whole slice, one that runs on a CPU short of headroom runs now.  Every
 * CPU is read, out of line: it is asked only where a candidate queues.
 */
static SP_NOINLINE bool sp_place_idle_awake(const struct sp_place_work *s)
{
	const struct sp_model *m = s->m;
	u32 cpu, g;
	s32 idx;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (!sp_place_runs_now(s, cpu, &idx))
			continue;
		g = m->gate_cpu[cpu].group;
		if (g != SP_NONE && sp_state_group_idle(s->st, g))
			continue;
		if (sp_place_allowed(s, cpu))
			return true;
	}
	return false;
}

/*
 * May a candidate with work queued be chosen?  Only when no candidate that
 * is allowed, fits and meets the bound can take the task without queueing
 * and without waking a group, and no allowed CPU idles in an awake package
 * (sp_place_idle_awake()), or when the task's own bound allows the
 * expected wait; in balanced mode, only if CFS's own CPU queues the task
 * too (balanced never makes a wake-up wait that CFS would not).
 */
static bool sp_place_queue_ok(const struct sp_place_work *s, const struct sp_knobs *pol)
{
	u32 i, queues = 0;

	if (pol->mode == SP_MODE_BALANCED && !(s->c[0].flags & SP_CF_QUEUE))
		return false;
	if (s->t->latency_us >= SP_QUEUE_WAIT_US)
		return true;
	for (i = 0; i < s->nr; i++) {
		if ((s->c[i].flags & SP_CF_OK) == SP_CF_OK && sp_place_free(&s->c[i]))
			return false;
		queues |= s->c[i].flags & SP_CF_QUEUE;
	}
	return !queues || !sp_place_idle_awake(s);
}

/*
 * The rate part of the lower bounds: floor(@rate * u * W / 1024000) for the
 * task's utilisation u over the window W, less the slack of the two terms
 * it bounds (sp_place_lb_nj()); u * W and the slack are the decision's
 * (sp_place_init_search()).
 */
static inline s64 sp_place_lb_rate_nj(const struct sp_place_work *s, s32 rate)
{
	return sp_div_s64((s64)rate * s->lb_uw, 1024000) - 2 * s->lb_slack_nj;
}

/*
 * A lower bound of candidate @c's total_nj for a task of utilisation u
 * over a window of W us (sp_energy.h's terms): the wake-up energy of its state
 * and of the idle groups above it, exact; those groups' static power for
 * the task's busy time, at least (active - idle) * u / cap_top; busy +
 * P-state + idle at least u times its pd's rate bound for the task's
 * need, its entry in the decision's row of lb_q10 (sp_model_derive.c's
 * DOC block: d = u for a candidate that fits, the pd runs at an OPP no
 * lower than the one the task's own need asks for, and a step only adds
 * when no higher OPP is more efficient); static and future terms of awake
 * groups at least 0.
 * W / 1000 + 2 nJ per rounded term cover the floors the estimate takes.
 * SP_PLACE_NO_BOUND when the pd has no rate bound.
 */
static s64 sp_place_lb_nj(const struct sp_place_work *s, const struct sp_cand *c)
{
	const struct sp_pd *pd = &s->m->pd[c->pd];
	s32 rate = s->lb_q10[c->pd];
	s64 nj;

	if (rate == SP_LB_NONE || !pd->cap_top)
		return SP_PLACE_NO_BOUND;
	nj = (s64)c->wake_uj * 1000 + sp_place_lb_rate_nj(s, rate);
	if (c->wake_s_uw)
		nj += (s64)sp_div_u64(sp_div_u64(c->wake_s_uw * s->task_util, pd->cap_top) *
				      s->lb_w, 1000) - s->lb_slack_nj;
	return nj;
}

/*
 * Can candidate @c change the decision?  Its energy matters only if it
 * could beat the best allowed (or refused) candidate so far, and, unless
 * CFS's CPU must be left (its latency bound or its queue force a move),
 * only if it could beat CFS's CPU at all: a candidate above cfs_nj can
 * neither pass the margin nor make the reason below_margin, nor can one
 * at cfs_nj unless CFS's CPU queues the task (an allowed one may then win
 * as shorter_queue).  Ties keep the earlier candidate, so a bound equal to
 * the best so far skips too.
 */
static bool sp_place_may_win(const struct sp_place_work *s, bool allowed,
			     s64 best_nj, s64 lb_nj)
{
	if (s->exhaustive || lb_nj == SP_PLACE_NO_BOUND)
		return true;
	/* a refused CPU matters only by passing the margin: below cfs_nj */
	if ((!allowed || !s->forced) && s->cfs_nj < best_nj)
		return lb_nj < s->cfs_nj ||
		       (allowed && s->cfs_queues && lb_nj == s->cfs_nj);
	return lb_nj < best_nj;
}

/*
 * The timer key of candidate @c: the larger of its wake-up latency now,
 * after the @paid us the deciding CPU's exit took, and the latency of the
 * task's next timer wake-up there, which fires on the CPU the task sleeps
 * on, in the worst case from its deepest idle state with every group above
 * it asleep (derived at model swap).
 */
static u32 sp_place_next_lat(const struct sp_model *m, const struct sp_cand *c, u32 paid)
{
	u32 lat = m->cpu_wake_max_us[c->cpu];

	return lat > c->wake_lat_us + paid ? lat : c->wake_lat_us + paid;
}

/*
 * Is @c slower than CFS's CPU?  Its wake-up latency estimate is above
 * CFS's CPU's, or it queues the task and its estimate is not below
 * queue_ref_us (CFS's CPU's, or the wake-up of a sleeping group's CPU
 * that beats CFS's queue: sp_place_queue_slower()): a wait behind other
 * tasks is counted SP_QUEUE_WAIT_US per task, not measured (the task
 * running there may stop in a few us, or an idle exit and a whole task
 * may come first), so only a shorter estimate says that a queueing
 * candidate is no slower.
 */
static bool sp_place_slower(const struct sp_place_work *s, const struct sp_cand *c)
{
	if (c->flags & SP_CF_QUEUE)
		return c->wake_lat_us >= s->queue_ref_us;
	return c->wake_lat_us > s->cfs_lat_us;
}

/*
 * Flag (SP_CF_UP) each candidate of larger capacity than CFS's CPU, for a
 * fork that nothing forces off CFS's CPU: it is not admissible (the DOC
 * block's "Forks").
 */
static void sp_place_fork_up(struct sp_place_work *s)
{
	u32 cap = sp_place_cap(sp_place_pd(s->m, s->t->cfs_cpu)), i;

	for (i = 1; i < s->nr; i++)
		if (sp_place_cap(sp_place_pd(s->m, s->c[i].cpu)) > cap)
			s->c[i].flags |= SP_CF_UP;
}

/*
 * May a queue be slower than a sleeping group's wake-up: power (or
 * observe) mode, CFS's CPU queues the task, no free CPU is admissible
 * (queue_ok), and the task's own bound does not allow the wait?
 */
static inline bool sp_place_wake_q(const struct sp_place_work *s, const struct sp_knobs *pol)
{
	return pol->mode != SP_MODE_BALANCED && s->cfs_queues && s->queue_ok &&
	       s->t->latency_us < SP_QUEUE_WAIT_US;
}

/*
 * CFS's CPU queues the task and no free CPU is admissible (queue_ok): does
 * a CPU of a sleeping group, allowed, fitting and in the bound, wake the
 * task sooner than the queue's estimate?  Then the fastest such wake-up
 * is what a queue is slower than (queue_ref_us); without the deciding
 * CPU's tokens no queue is admissible and CFS's CPU must be left.
 */
static SP_NOINLINE void sp_place_queue_slower(struct sp_place_work *s)
{
	u32 i, lat = s->cfs_lat_us;

	for (i = 1; i < s->nr; i++) {
		const struct sp_cand *c = &s->c[i];

		if ((c->flags & (SP_CF_OK | SP_CF_QUEUE)) == SP_CF_OK && c->wake_lat_us < lat)
			lat = c->wake_lat_us;
	}
	if (lat == s->cfs_lat_us)
		return;
	s->queue_ref_us = lat;
	if (!sp_state_may_slow(s->st, s->this_cpu)) {
		s->queue_ok = false;
		s->forced = true;
	}
}

/*
 * The latency budget of this decision: may a candidate be slower now than
 * CFS's CPU (the deciding CPU's tokens, power mode only)?  And on a timer
 * wake-up on the CPU the task slept on, whose next one fires where it goes,
 * flag (SP_CF_NEXT_OK) each candidate slower now whose timer key
 * (sp_place_next_lat()) is below CFS's CPU's: it spends no budget.  A
 * fork's larger CPUs are flagged too (sp_place_fork_up()).  Out of line,
 * once per decision, to keep the evaluation loop's frame.
 */
static SP_NOINLINE void sp_place_budget(struct sp_place_work *s, const struct sp_knobs *pol)
{
	const struct sp_task_info *t = s->t;
	u32 i, paid, cfs_next;

	if (t->wake == SP_WAKE_FORK && !s->forced)
		sp_place_fork_up(s);
	s->slow_ok = pol->mode != SP_MODE_BALANCED && sp_state_may_slow(s->st, s->this_cpu);
	if (pol->mode == SP_MODE_BALANCED || t->this_ctx != SP_THIS_IRQ ||
	    t->this_cpu != t->prev_cpu)
		return;
	paid = sp_place_paid_us(s);
	cfs_next = sp_place_next_lat(s->m, &s->c[0], paid);
	for (i = 1; i < s->nr; i++) {
		struct sp_cand *c = &s->c[i];

		if (sp_place_slower(s, c) && sp_place_next_lat(s->m, c, paid) < cfs_next)
			c->flags |= SP_CF_NEXT_OK;
	}
}

/*
 * Is @c a shorter queue than CFS's CPU at no higher energy?  Both queue
 * the task; @c's estimate is lower (fewer tasks ahead).  The margin asks a
 * move to save energy because the estimate may be wrong; between two
 * queues that cost the same (two CPUs of one performance domain) there is
 * no saving to doubt, and staying only makes the task wait longer.
 */
static bool sp_place_shorter_queue(const struct sp_place_work *s, const struct sp_cand *c)
{
	return s->cfs_queues && (c->flags & SP_CF_QUEUE) && c->total_nj <= s->cfs_nj &&
	       c->wake_lat_us < s->cfs_lat_us;
}

/*
 * Is @c allowed, fitting, in the bound, not a larger CPU for a fork, and
 * neither queueing nor slower when it may not?
 */
static bool sp_place_admissible(const struct sp_place_work *s, const struct sp_cand *c)
{
	if ((c->flags & (SP_CF_FITS | SP_CF_LAT_OK | SP_CF_UP)) != (SP_CF_FITS | SP_CF_LAT_OK))
		return false;
	if ((c->flags & SP_CF_QUEUE) && !s->queue_ok)
		return false;
	return !sp_place_slower(s, c) || s->slow_ok || (c->flags & SP_CF_NEXT_OK);
}

/*
 * Energy of every admissible candidate that may still win (lower bound
 * below the best so far); returns the best allowed one or -1, and sets
 * s->refused to the best refused one or -1 and s->best_terms to the best
 * one's terms.  The terms go to one of two buffers in turn, the other
 * holding the best so far, so that no new best is copied.
 */
static int sp_place_eval(struct sp_place_work *s)
{
	struct sp_energy_terms *e = &s->terms_buf[0];
	int best = -1, refused = -1;
	u32 i;

	for (i = 1; i < s->nr; i++) {
		struct sp_cand *c = &s->c[i];
		bool ok = c->flags & SP_CF_ALLOWED;
		int bi = ok ? best : refused;
		s64 lb;

		if (!sp_place_admissible(s, c))
			continue;
		lb = sp_place_lb_nj(s, c);
		if (!sp_place_may_win(s, ok, bi < 0 ? SP_PLACE_NO_LIMIT :
				      s->c[bi].total_nj, lb))
			continue;
		sp_energy_delta_at(&s->ea, c->cpu, sp_place_pdc(s, c->cpu), e);
		c->total_nj = e->total_nj;
		if (bi >= 0 && e->total_nj >= s->c[bi].total_nj)
			continue;
		if (ok) {
			best = (int)i;
			s->best_terms = e;
			e = e == &s->terms_buf[0] ? &s->terms_buf[1] : &s->terms_buf[0];
		} else {
			refused = (int)i;
		}
	}
	s->refused = refused;
	return best;
}

/*
 * What group @gi's own term of future_nj (sp_energy.h) adds for any CPU
 * below it, at least: floor((wakeup_nj + S) * (1 - f)) with f the group's
 * awake fraction, read as the estimate reads it, and S the group's
 * active - idle power for the task's share of the window, at least
 * floor(floor(static_uw * u / 1024) * W / 1000) since cap_k' <= 1024 and
 * d = u for a CPU that fits.  Each floor is the estimate's own or below
 * it: no slack.
 */
static inline SP_INLINE s64 sp_place_lb_future_nj(const struct sp_place_work *s, u32 gi)
{
	const struct sp_group *g = &s->m->group[gi];
	u32 asleep = SP_CAP_SCALE - sp_state_group_awake_stored(s->st, gi, s->now_ns);
	u64 s_nj = sp_div_u64(((u64)g->static_uw * s->task_util >> 10) * s->lb_w, 1000);

	return (s64)(((g->wakeup_nj + s_nj) * asleep) >> 10);
}

/*
 * The lower bound of sp_place_lb_nj() for any CPU of group @gi while it
 * sleeps (then so does every group below it on the CPU's chain): the
 * group's derived sleep_wake_uj (sp_model_derive()) for the wake-up energy,
 * and its lb_sleep_q10 entry at the task's need for busy + P-state + idle
 * and the static power of the groups woken, at the OPP the task runs at.
 * The slack of sp_place_lb_rate_nj(), and one more per group woken.
 */
static inline SP_INLINE s64 sp_place_lb_sleeping(const struct sp_place_work *s, u32 gi)
{
	const struct sp_group *g = &s->m->group[gi];
	s32 rate = s->lb_sleep_q10[gi];

	if (rate == SP_LB_NONE)
		return SP_PLACE_NO_BOUND;
	return (s64)g->sleep_wake_uj * 1000 + sp_place_lb_rate_nj(s, rate) -
	       (s64)(g->level + 1u) * s->lb_slack_nj;
}

/*
 * Does every CPU of sleeping group @gi cost at least @limit?  The bound of
 * sp_place_lb_sleeping(), and only when it falls short (it costs no read
 * of the snapshot), that bound plus the group's own future term.
 */
static inline SP_INLINE bool sp_place_sleeping_out(const struct sp_place_work *s, u32 gi,
						   s64 limit)
{
	s64 nj = sp_place_lb_sleeping(s, gi);

	if (nj == SP_PLACE_NO_BOUND)
		return false;
	return nj >= limit || nj + sp_place_lb_future_nj(s, gi) >= limit;
}

/* The same bound for any CPU of group @gi, asleep or not: its rate bound alone. */
static s64 sp_place_lb_any(const struct sp_place_work *s, u32 gi)
{
	s32 rate = s->lb_q10[SP_LB_GROUP0 + gi];

	return rate == SP_LB_NONE ? SP_PLACE_NO_BOUND : sp_place_lb_rate_nj(s, rate);
}

/* floor(@p_uw * W / 1000) nJ over the decision's window W, as sp_energy.c's */
static inline u64 sp_place_ub_nj(const struct sp_place_work *s, u64 p_uw)
{
	return sp_div_u64(p_uw * s->lb_w, 1000);
}

/* sp_energy.c's busy energy of @pd at OPP @k for a capacity sum of @sum */
static inline u64 sp_place_ub_busy_nj(const struct sp_place_work *s,
				      const struct sp_pd *pd, u32 k, u32 sum)
{
	u64 p = sp_model_div_cap(pd, k, (u64)pd->opp[k].power_uw * sum);

	return sp_place_ub_nj(s, p < SP_PLACE_UB_POWER_MAX_UW ? p : SP_PLACE_UB_POWER_MAX_UW);
}

/*
 * At least sp_place_ub_busy_nj(@k, sum + @d) - sp_place_ub_busy_nj(@k, sum)
 * for any sum: with x = P_k * sum / cap_k, floor(x + P_k * d / cap_k) -
 * floor(x) is at most floor(P_k * d / cap_k) + 1, the clamp to
 * SP_PLACE_UB_POWER_MAX_UW only lowers the larger one, and the window's
 * floors add at most 1 nJ more; so floor((floor(P_k * d / cap_k) + 1) * W /
 * 1000) + 1.
 */
static inline u64 sp_place_ub_step_nj(const struct sp_place_work *s,
				      const struct sp_pd *pd, u32 k, u32 d)
{
	return sp_place_ub_nj(s, sp_model_div_cap(pd, k, (u64)pd->opp[k].power_uw * d) + 1) + 1;
}

/* sp_energy.c's OPP of @pd for a busiest CPU at @max, or cpufreq's @rep if higher */
static inline u32 sp_place_ub_opp(const struct sp_pd *pd, s32 rep, u32 max)
{
	u32 k = sp_model_pd_opp_idx(pd, (5 * max + 3) / 4);

	if (rep >= 0 && (u32)rep > k)
		k = (u32)rep < pd->nr_opps - 1u ? (u32)rep : pd->nr_opps - 1u;
	return k;
}

/* sp_state_ucache_cpu()'s first read of @cpu, out of the callers' loops */
static SP_NOINLINE u32 sp_place_ucache_fill(struct sp_place_work *s, u32 cpu)
{
	return sp_state_ucache_fill(&s->uc, s->st, cpu, s->now_ns, cpu % SP_UTIL_CACHE_SLOTS);
}

/* The decision's view of @cpu (sp_state_ucache_cpu()), a read already made inline. */
static inline SP_INLINE u32 sp_place_util(struct sp_place_work *s, u32 cpu)
{
	u32 i = cpu % SP_UTIL_CACHE_SLOTS;

	if (s->uc.key[i] == sp_state_ucache_key(&s->uc, cpu))
		return s->uc.util[i];
	return sp_place_ucache_fill(s, cpu);
}

/*
 * busy_nj + pstate_nj of the task on CFS's @cpu of @pd (index @pdi) at
 * least, exactly as sp_energy.c computes their sum, E_k'(with the task) -
 * E_k(without): the pass over the pd through the util cache (@cpu's own
 * utilisation is cfs_util), the OPPs before and after.  Sets *@d to the
 * task's share d and *@rcp2 to opp_rcp[k'].
 */
static inline SP_INLINE s64 sp_place_ub_run_nj(struct sp_place_work *s, u32 cpu,
					       const struct sp_pd *pd, u32 pdi, u32 *d,
					       u64 *rcp2)
{
	const u16 *cpus = s->m->pd_cpus + pd->cpu_off;
	u32 max = 0, sum = 0, sum_top, i, k, k2, cap2, s2, u_c, u_new, top, cap_top;
	s32 rep;

	for (i = 0; i < pd->nr_cpus; i++) {	/* sums at most 512 * 1024 */
		u32 u = sp_place_util(s, cpus[i]);

		max = u > max ? u : max;
		sum += u;
	}
	u_c = s->cfs_util;	/* @cpu's, as sp_place_saturated() read it */
	top = pd->nr_opps - 1u;
	cap_top = pd->cap_top;
	sum_top = sum;
	if (max > cap_top) {	/* a CPU above the top capacity: read again */
		sum_top = 0;
		for (i = 0; i < pd->nr_cpus; i++)
			sum_top += sp_place_min_u32(sp_place_util(s, cpus[i]), cap_top);
	}
	rep = SP_READ_ONCE(s->st->pd_opp[pdi]);
	u_new = sp_place_min_u32(u_c + s->task_util, SP_CAP_SCALE);
	k = sp_place_ub_opp(pd, rep, max);
	k2 = u_new > max ? sp_place_ub_opp(pd, rep, u_new) : k;
	cap2 = pd->opp[k2].cap;
	*d = sp_place_min_u32(u_new, cap2) - sp_place_min_u32(u_c, cap2);
	*rcp2 = pd->opp_rcp[k2];
	/* c's entry at k': below the top OPP it saturates only if k' is k */
	if (k2 == k && k != top)	/* sum + d at one OPP: the step is d's */
		return (s64)sp_place_ub_step_nj(s, pd, k, *d);
	if (k2 == top)
		s2 = sum_top - sp_place_min_u32(u_c, cap_top) + sp_place_min_u32(u_new, cap_top);
	else
		s2 = sum - u_c + u_new;
	return (s64)sp_place_ub_busy_nj(s, pd, k2, s2) -
	       (s64)sp_place_ub_busy_nj(s, pd, k, k == top ? sum_top : sum);
}

/*
 * An upper bound of CFS's total_nj on its free @cpu, whose pd (with OPPs)
 * and the wake-up energy of whose idle state (0 if it is up or the
 * deciding CPU) sp_place_cfs_free() noted: sp_energy_delta_at()'s total
 * without its idle term (never positive), the rest computed as it computes
 * it, plus a slack of one rounded term per term.
 */
static inline SP_INLINE s64 sp_place_cfs_upper_nj(struct sp_place_work *s, u32 cpu)
{
	const struct sp_model *m = s->m;
	const struct sp_pd *pd = s->cfs_pd;
	u32 d, l;
	u64 rcp2, grp = 0;
	s64 nj;

	nj = sp_place_ub_run_nj(s, cpu, pd, m->cpu_pd[cpu], &d, &rcp2);
	/* its state's exit, unless it is the deciding CPU or up already */
	nj += (s64)s->cfs_wake_uj * 1000;
	for (l = 0; l < s->nr_levels; l++) {
		u32 g = m->cpu_group[l][cpu];
		const struct sp_group *gr = &m->group[g];
		u64 s_nj = sp_place_ub_nj(s, sp_model_div_rcp((u64)gr->static_uw * d, rcp2));
		u64 cost = gr->wakeup_nj + s_nj;
		u32 asleep = SP_CAP_SCALE - sp_state_group_awake_stored(s->st, g, s->now_ns);

		/* level 0 is awake: sp_place_cfs_free() checked it */
		if (l && sp_place_group_idle(s, l, g))
			grp += cost;
		else
			grp += (s_nj * (s->uc.alone_levels ?
					sp_state_ucache_asleep(m, &s->uc, l, g, asleep) :
					asleep)) >> 10;
		grp += (cost * asleep) >> 10;
	}
	return nj + (s64)grp + (s64)(s->nr_levels + 3) * s->lb_slack_nj;
}

/*
 * The least @cpu, other than CFS's, costs against CFS's free CPU:
 * SP_PLACE_NO_LIMIT if it cannot be chosen at all (it queues, which is
 * not admissible beside CFS's free CPU), SP_PLACE_NO_BOUND if it has no
 * bound, else the lower bound of an idle CPU in awake groups: its state's
 * wake-up energy and its pd's rate bound.
 */
static inline SP_INLINE s64 sp_place_fast_cpu_nj(const struct sp_place_work *s, u32 cpu)
{
	const struct sp_pd *pd;
	u32 wake_uj = 0, pdi;
	s32 idx, rate;

	/* the cheap reasons first: each one alone rules the CPU out */
	if (!sp_place_runs_now(s, cpu, &idx))
		return SP_PLACE_NO_LIMIT;	/* it queues */
	pdi = s->m->cpu_pd[cpu];
	if (pdi >= s->m->nr_pds)
		return SP_PLACE_NO_BOUND;
	rate = s->lb_q10[pdi];
	if (rate == SP_LB_NONE)
		return SP_PLACE_NO_BOUND;
	pd = &s->m->pd[pdi];
	if (idx != SP_CPU_AWAKE && pd->nr_idle)
		wake_uj = pd->idle[(u32)idx < pd->nr_idle ? (u32)idx : pd->nr_idle - 1u].wakeup_uj;
	return (s64)wake_uj * 1000 + sp_place_lb_rate_nj(s, rate);
}

#define SP_PLACE_FAST_VISITS	32	/* groups and CPUs the fast path looks at */

/*
 * Do the @n CPUs of @cpus (NULL: 0..n-1) but CFS's all cost at least the
 * limit?  A CPU found short is remembered (fast_miss_nj): a look against a
 * lower limit can pass it only if that limit is at most its bound.
 */
static inline SP_INLINE bool sp_place_fast_cpus(struct sp_place_work *s, const u16 *cpus, u32 n)
{
	u32 cfs = s->t->cfs_cpu, i;

	for (i = 0; i < n; i++) {
		u32 cpu = cpus ? cpus[i] : i;
		s64 nj;

		if (cpu == cfs)
			continue;
		nj = sp_place_fast_cpu_nj(s, cpu);
		if (nj == SP_PLACE_NO_LIMIT || nj >= s->fast_lim)
			continue;
		if (nj != SP_PLACE_NO_BOUND)
			s->fast_miss_nj = nj;
		return false;
	}
	return true;
}

/*
 * Is there no CPU but CFS's that could take the task for less than the
 * limit (fast_lim: CFS's energy, or an upper bound of it) while
 * CFS's CPU is free, fits and meets the bound?  Then no queueing CPU is
 * admissible (sp_place_queue_ok()), nothing forces a move, and a candidate
 * must cost less than CFS's CPU to win: the decision is CFS's CPU whatever
 * the walk would find.  Groups are looked at top level first: a sleeping
 * one is ruled out by the bound of waking it, an awake one by its rate
 * bound, else its children are looked at, and at the bottom its CPUs; the
 * groups still to look at are kept as one range of siblings per level.
 * Gives up (false) after SP_PLACE_FAST_VISITS entries (fast_miss_nj
 * SP_PLACE_NO_LIMIT: a look against a lower limit, which descends into
 * fewer groups, may pass), at a group or CPU without a bound
 * (SP_PLACE_NO_BOUND) or at one whose bound falls short (fast_miss_nj that
 * bound).  With @this_first (the look against the upper bound) the
 * deciding CPU's group, awake, is looked into without its rate bound: in
 * the pipe-like wake-up it holds CFS's CPU, whose estimate that bound
 * never reaches, so it would rule nothing out; its children and CPUs are
 * ruled out one by one instead.  The answer depends on the limit and
 * @this_first alone, not on the order of the looks.
 */
static inline SP_INLINE bool sp_place_fast(struct sp_place_work *s, bool this_first)
{
	const struct sp_model *m = s->m;
	u32 visits = 0, depth = 0, gi, first, nr;
	const struct sp_level *top;
	s64 lim = s->fast_lim, nj;

	s->fast_miss_nj = SP_PLACE_NO_BOUND;
	if (!s->nr_levels)
		return m->nr_cpus <= SP_PLACE_FAST_VISITS &&
		       sp_place_fast_cpus(s, NULL, m->nr_cpus);
	top = &m->level[s->nr_levels - 1];
	first = top->first_group;
	nr = top->nr_groups;
	if (nr > SP_PLACE_FAST_VISITS)
		return false;
	for (;;) {
		const struct sp_group *g;
		const u16 *cpus;

		if (!nr) {		/* this range done: back to its parent's */
			if (!depth)
				return true;
			depth--;
			first = s->fast_stack[2 * depth];
			nr = s->fast_stack[2 * depth + 1];
			continue;
		}
		gi = first++;
		nr--;
		g = &m->group[gi];
		if (g->level >= s->nr_levels)
			return false;
		if (++visits > SP_PLACE_FAST_VISITS)
			goto full;
		if (s->this_group[g->level] == gi) {	/* awake */
			if (!this_first && sp_place_lb_any(s, gi) >= lim)
				continue;
		} else if (sp_state_group_idle(s->st, gi)) {
			nj = sp_place_lb_sleeping(s, gi);
			if (nj == SP_PLACE_NO_BOUND)
				return false;
			/* the group's future term only when the bound falls short */
			if (nj < lim)
				nj += sp_place_lb_future_nj(s, gi);
			if (nj >= lim)
				continue;
			s->fast_miss_nj = nj;
			return false;
		} else if (sp_place_lb_any(s, gi) >= lim) {
			continue;
		}
		if (g->first_child != SP_NONE && g->nr_children) {
			if (depth == SP_MAX_LEVELS)
				goto full;
			s->fast_stack[2 * depth] = (u16)first;
			s->fast_stack[2 * depth + 1] = (u16)nr;
			depth++;
			first = g->first_child;
			nr = g->nr_children;
			continue;
		}
		cpus = sp_place_group_cpus(m, g);
		if (!cpus)
			return false;
		visits += g->nr_cpus;
		if (visits > SP_PLACE_FAST_VISITS)
			goto full;
		if (!sp_place_fast_cpus(s, cpus, g->nr_cpus))
			return false;
	}
full:
	s->fast_miss_nj = SP_PLACE_NO_LIMIT;
	return false;
}

/*
 * The look against an upper bound of CFS's estimate (sp_place_cfs_upper_nj()),
 * which it keeps in cfs_ub_nj.  Out of line: the bound and the look keep
 * their values in registers of their own frame, not the decision's.
 */
static SP_NOINLINE bool sp_place_fast_ub(struct sp_place_work *s)
{
	s->cfs_ub_nj = s->cfs_pd && s->cfs_pd->nr_opps ?
		       sp_place_cfs_upper_nj(s, s->t->cfs_cpu) : SP_PLACE_NO_LIMIT;
	s->fast_lim = s->cfs_ub_nj;
	return sp_place_fast(s, true);
}

/*
 * Would a scan of group @g (as sp_place_scan(..., true) visits it) see an
 * overutilised CPU?
 */
static bool sp_place_group_overutilised(struct sp_place_work *s, u32 g)
{
	const struct sp_group *gr = &s->m->group[g];
	const u16 *cpus = sp_place_group_cpus(s->m, gr);
	u32 n = gr->nr_cpus, lim = n < SP_PLACE_SCAN_IDLE ? n : SP_PLACE_SCAN_IDLE;
	u32 i, j = n > lim ? s->rot % n : 0;

	for (i = 0; cpus && i < lim; i++, j = j + 1 < n ? j + 1 : 0) {
		u32 cpu = cpus[j], util;
		const struct sp_pd *pd;

		if (cpu >= s->m->nr_cpus)
			continue;
		pd = sp_place_pd(s->m, cpu);
		util = sp_state_ucache_cpu(&s->uc, s->st, cpu, s->now_ns);
		if (util * 100u > (pd ? pd->cap_top : SP_CAP_SCALE) * s->overutil_pct)
			return true;
	}
	return false;
}

/*
 * The sleeping groups the walk deferred (one per level at most): a group
 * whose every CPU costs at least CFS's total to wake cannot give a
 * candidate that matters unless CFS's CPU must be left (@forced); it is not
 * scanned, only remembered for the overutilisation check of a move.  The
 * others are scanned now and their candidate put where the walk would have
 * put it, so that ties go as they would.
 */
static void sp_place_pending(struct sp_place_work *s, bool forced, s64 cfs_nj)
{
	u32 i, added = 0;

	for (i = 0; i < s->nr_pend; i++) {
		u32 g = s->pend_group[i], at = s->pend_at[i] + added, nr = s->nr, k;
		const struct sp_group *gr = &s->m->group[g];
		struct sp_cand *c = &s->scan_pool[0];	/* free after the scan */

		if (!forced && sp_place_sleeping_out(s, g, cfs_nj)) {
			s->skip_group[s->nr_skip++] = (u16)g;
			continue;
		}
		sp_place_scan(s, sp_place_group_cpus(s->m, gr), gr->nr_cpus, true);
		if (s->nr == nr)
			continue;
		added++;
		*c = s->c[nr];
		for (k = nr; k > at; k--)
			s->c[k] = s->c[k - 1];
		s->c[at] = *c;
		if (s->prev < SP_PLACE_MAX_CANDS && s->prev >= at)
			s->prev++;
	}
}

/* Is @cpu's utilisation above overutil_pct of its capacity? */
static inline SP_INLINE bool sp_place_cpu_overutilised(struct sp_place_work *s, u32 cpu)
{
	/* its pd's cap_top, 1024 without a pd (sp_model_derive()) */
	u32 cap = s->m->gate_cpu[cpu].cap;

	return (u64)sp_state_ucache_cpu(&s->uc, s->st, cpu, s->now_ns) * 100 >
	       (u64)cap * s->overutil_pct;
}

/* sp_state_ucache_cpu() of a CPU this decision has not read yet */
static inline SP_INLINE u32 sp_place_first_fill(struct sp_place_work *s, u32 cpu)
{
	return sp_state_ucache_fill(&s->uc, s->st, cpu, s->now_ns, cpu % SP_UTIL_CACHE_SLOTS);
}

/* Is utilisation @u above overutil_pct of @cpu's capacity? */
static inline SP_INLINE bool sp_place_over(const struct sp_place_work *s, u32 cpu, u32 u)
{
	/* its pd's cap_top, 1024 without a pd (sp_model_derive()) */
	return (u64)u * 100 > (u64)s->m->gate_cpu[cpu].cap * s->overutil_pct;
}

/*
 * The CPUs every decision looks at first, CFS's, the task's previous one
 * and the deciding one: if one is overutilised the decision falls back to
 * CFS at once, as mainline EAS stops at an overutilised root domain before
 * computing any energy (the walk's overutilised check covers the others).
 * CFS's CPU's utilisation stays in cfs_util for the fast path.
 */
static bool sp_place_saturated(struct sp_place_work *s)
{
	const struct sp_task_info *t = s->t;
	u32 cfs = t->cfs_cpu, prev = t->prev_cpu, this = s->this_cpu, u;

	/*
	 * the decision's first reads, each CPU once: no slot holds this
	 * decision's key yet, so each one fills its slot at once
	 */
	u = sp_place_first_fill(s, cfs);
	s->cfs_util = u;	/* for the fast path */
	if (sp_place_over(s, cfs, u))
		return true;
	if (prev < s->m->nr_cpus && prev != cfs &&
	    sp_place_over(s, prev, sp_place_first_fill(s, prev)))
		return true;
	return this != SP_NONE && this != cfs && this != prev &&
	       sp_place_over(s, this, sp_place_first_fill(s, this));
}

/*
 * Does the task fit no CPU at all?  A candidate fits when its utilisation
 * plus the task's stays within headroom_pct of its pd's top capacity
 * (sp_place_probe()); at utilisation 0 that asks task * 100 <= cap_top *
 * headroom_pct, and no pd's cap_top exceeds the model's cap_max (a CPU
 * without a pd counts SP_CAP_SCALE).  Then no candidate but CFS's is
 * admissible, sp_place_eval() finds none, and the decision keeps CFS's CPU
 * whatever the walk would find.
 */
static bool sp_place_fits_none(const struct sp_place_work *s)
{
	u32 cap = s->m->cap_max > SP_CAP_SCALE ? s->m->cap_max : SP_CAP_SCALE;

	return (u64)s->task_util * 100 > (u64)cap * s->headroom_pct;
}

/*
 * The reason of a decision kept because the task fits no CPU
 * (sp_place_fits_none()), as the full walk would give it: where the walk
 * scans every CPU of the model (sp_place_walk(): at most
 * SP_PLACE_SCAN_CPUS of them, or no usable levels), overutilised_fallback
 * if one of them is overutilised, which costs one read of each CPU's
 * utilisation and no probe; else cfs_cheapest, what the walk says unless
 * it sees an overutilised CPU (a larger model's walk is not run for it).
 */
static u16 sp_place_fits_none_reason(struct sp_place_work *s)
{
	const struct sp_model *m = s->m;
	u32 cpu;

	if (m->nr_levels && m->nr_levels <= SP_MAX_LEVELS && m->nr_cpus > SP_PLACE_SCAN_CPUS)
		return SP_R_CFS_CHEAPEST;
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (sp_place_cpu_overutilised(s, cpu))
			return SP_R_OVERUTILISED;
	return SP_R_CFS_CHEAPEST;
}

/*
 * Is CFS's @cpu free, does the task fit it, and does it wake within the
 * bound?  What sp_place_probe() would flag (not SP_CF_QUEUE, no idle group
 * above it, SP_CF_FITS and SP_CF_LAT_OK), read without ranking it, for the
 * fast path; its wake-up latency, then its exit latency alone, into @lat,
 * and for sp_place_cfs_upper_nj() its pd and the wake-up energy of its
 * idle state (cfs_pd, cfs_wake_uj) when it is free.  Its utilisation is
 * cfs_util (sp_place_saturated() read it).
 */
static bool sp_place_cfs_free(struct sp_place_work *s, u32 cpu, u32 *lat)
{
	const struct sp_pd *pd = sp_place_pd(s->m, cpu);
	u32 util = s->cfs_util, g;

	*lat = 0;
	s->cfs_wake_uj = 0;
	if (cpu == s->this_cpu) {
		if (!s->this_free)
			return false;	/* runs the waker */
	} else {
		s32 idx = SP_READ_ONCE(s->st->cpu[cpu].idle_state);

		if (idx == SP_CPU_AWAKE)
			return false;	/* runs a task */
		if (pd && pd->nr_idle) {
			u32 i = (u32)idx < pd->nr_idle ? (u32)idx : pd->nr_idle - 1u;

			*lat = pd->idle[i].exit_latency_us;
			if (idx >= 0)
				s->cfs_wake_uj = pd->idle[i].wakeup_uj;
		}
		g = s->nr_levels ? s->m->cpu_group[0][cpu] : SP_NONE;
		if (g < s->m->nr_groups && sp_place_group_idle(s, 0, g))
			return false;	/* a group above it sleeps */
	}
	if (sp_state_cpu_pending_nr(s->st, cpu, s->now_ns))
		return false;
	if ((u64)(util + s->task_util) * 100 >
	    (u64)(pd ? pd->cap_top : SP_CAP_SCALE) * s->headroom_pct)
		return false;
	s->cfs_pd = pd;
	/* no queue: own_lim_us, never below lat_lim_us, asks nothing more */
	return *lat <= s->lat_lim_us;
}

/*
 * What the full evaluation leaves in @d when it keeps CFS's CPU with no
 * candidate admissible: CFS's latency and queue, and a latency miss if a
 * bound applied and CFS's CPU breaks it.
 */
static void sp_place_keep_cfs(const struct sp_place_work *s, struct sp_decision *d)
{
	const struct sp_cand *cfs = &s->c[0];

	d->wake_lat_us = cfs->wake_lat_us;
	d->queued = !!(cfs->flags & SP_CF_QUEUE);
	d->queue_us = cfs->queue_us;
	d->lat_miss = s->lat_bound_us && !(cfs->flags & SP_CF_LAT_OK);
}

static void sp_place_decide(const struct sp_model *m, const struct sp_state *st,
			    const struct sp_knobs *pol, const struct sp_task_info *t,
			    struct sp_decision *d, struct sp_place_work *s)
{
	const struct sp_cand *cfs;
	int best, refused;
	size_t tail;
	s64 run_nj;
	u32 i, lat = 0;
	bool fast, keep, wake_q;

	s->terms_due = false;
	/* all but the terms, which the energy of CFS's CPU fills whole */
	tail = (char *)&d->lat_bound_us - (char *)d;
	memset(d, 0, (char *)&d->terms - (char *)d);
	memset((char *)d + tail, 0, sizeof(*d) - tail);
	d->cpu = t->cfs_cpu;
	d->ret_cpu = (s32)t->cfs_cpu;
	d->util = t->util;
	d->prev_cpu = t->prev_cpu;
	d->cfs_cpu = t->cfs_cpu;
	d->wake = (u8)t->wake;
	d->mode = (u8)pol->mode;
	d->reason = SP_R_CFS_CHEAPEST;
	if (pol->mode == SP_MODE_OFF || pol->mode >= SP_MODE_NR) {
		memset(&d->terms, 0, sizeof(d->terms));
		d->reason = SP_R_MODE;
		return;
	}
	if (t->cfs_cpu >= m->nr_cpus || m->nr_cpus > SP_MAX_CPUS) {
		memset(&d->terms, 0, sizeof(d->terms));
		d->reason = SP_R_NOT_ALLOWED;	/* outside the model: CFS decides */
		return;
	}
	sp_place_init_search(s, m, st, pol, t);
	d->lat_bound_us = s->lat_bound_us;
	/* performance, and a fork in balanced mode: CFS's CPU, its energy traced */
	keep = pol->mode == SP_MODE_PERFORMANCE ||
	       (pol->mode == SP_MODE_BALANCED && t->wake == SP_WAKE_FORK);
	if (!keep && sp_place_saturated(s)) {
		memset(&d->terms, 0, sizeof(d->terms));
		d->reason = SP_R_OVERUTILISED;	/* before any energy: CFS decides */
		return;
	}
	d->nr_candidates = 1;
	fast = !keep && !s->exhaustive &&
	       (pol->mode == SP_MODE_BALANCED || t->latency_us < SP_QUEUE_WAIT_US) &&
	       sp_place_cfs_free(s, t->cfs_cpu, &lat);
	s->fast_miss_nj = SP_PLACE_NO_LIMIT;	/* no look made yet */
	if (fast && !s->ub_skip) {
		if (sp_place_fast_ub(s)) {
			memset(&d->terms, 0, sizeof(d->terms));
			s->terms_due = true;	/* sp_place_w_energy() */
			d->wake_lat_us = lat;	/* CFS's CPU is free: its exit latency */
			return;
		}
		s->ub_skip = SP_PLACE_UB_BACKOFF;
	} else if (fast) {
		s->ub_skip--;
	}
	sp_place_init_energy(s);
	sp_energy_delta_at(&s->ea, t->cfs_cpu, sp_place_pdc(s, t->cfs_cpu), &d->terms);
	d->cfs_nj = d->terms.total_nj;
	d->chosen_nj = d->cfs_nj;
	run_nj = d->terms.busy_nj + d->terms.pstate_nj + d->terms.idle_nj;
	if (keep) {
		d->reason = SP_R_MODE;
		return;
	}
	/* against the estimate, if that can pass what the bound did not */
	if (fast && s->fast_miss_nj >= d->cfs_nj) {
		s->fast_lim = d->cfs_nj;
		if (sp_place_fast(s, false)) {
			d->wake_lat_us = lat;
			return;
		}
	}
	sp_place_init_walk(s);
	sp_place_probe(s, t->cfs_cpu, &s->c[0], true);
	s->c[0].flags |= SP_CF_ALLOWED;	/* CFS's own choice is the fallback */
	/* balanced mode's default bound is CFS's CPU's own: it keeps others out */
	if (pol->mode == SP_MODE_BALANCED && !t->latency_us && !pol->latency_us)
		s->c[0].flags |= SP_CF_LAT_OK;
	s->c[0].total_nj = d->cfs_nj;
	s->nr = 1;
	cfs = &s->c[0];
	if (!s->exhaustive && sp_place_fits_none(s)) {
		d->reason = sp_place_fits_none_reason(s);
		if (d->reason == SP_R_CFS_CHEAPEST)
			sp_place_keep_cfs(s, d);
		return;
	}
	if (t->prev_cpu < m->nr_cpus && t->prev_cpu != t->cfs_cpu) {
		struct sp_cand *c = &s->c[s->nr];

		sp_place_probe(s, t->prev_cpu, c, true);
		if (sp_place_allowed(s, t->prev_cpu))
			c->flags |= SP_CF_ALLOWED;
		s->prev = s->nr++;
	}
	sp_place_walk(s);
	d->nr_candidates = s->nr;
	if (s->overutilised) {
		d->reason = SP_R_OVERUTILISED;
		return;
	}

	s->queue_ok = sp_place_queue_ok(s, pol);
	s->cfs_lat_us = cfs->wake_lat_us;
	s->queue_ref_us = cfs->wake_lat_us;
	s->cfs_nj = d->cfs_nj;
	s->cfs_queues = !!(cfs->flags & SP_CF_QUEUE);
	s->forced = !(cfs->flags & SP_CF_LAT_OK) ||
		    ((cfs->flags & SP_CF_QUEUE) && !s->queue_ok);
	wake_q = sp_place_wake_q(s, pol);
	if (s->nr_pend) {
		/*
		 * the deferred candidates are never free: queue_ok stands; all
		 * are scanned where a queue may be slower than one of them
		 */
		sp_place_pending(s, s->forced || wake_q, d->cfs_nj);
		d->nr_candidates = s->nr;
		if (s->overutilised) {
			d->reason = SP_R_OVERUTILISED;
			return;
		}
	}
	if (wake_q)
		sp_place_queue_slower(s);
	sp_place_budget(s, pol);
	best = sp_place_eval(s);
	refused = s->refused;
	d->wake_lat_us = cfs->wake_lat_us;
	d->queued = !!(cfs->flags & SP_CF_QUEUE);
	d->queue_us = cfs->queue_us;
	d->lat_miss = s->lat_bound_us && !(cfs->flags & SP_CF_LAT_OK) && best < 0;
	if (!(cfs->flags & SP_CF_LAT_OK) && best >= 0) {
		d->reason = SP_R_LATENCY_BOUND;
	} else if ((cfs->flags & SP_CF_QUEUE) && !s->queue_ok && best >= 0) {
		d->reason = SP_R_QUEUE_AVOIDED;
	} else if (best >= 0 &&
		   sp_place_margin_ok(d->cfs_nj, s->c[best].total_nj, run_nj,
				      pol->margin_pct)) {
		d->reason = sp_place_reason(s, cfs, &s->c[best], s->best_terms);
	} else if (best >= 0 && sp_place_shorter_queue(s, &s->c[best])) {
		d->reason = SP_R_SHORTER_QUEUE;
	} else {
		if (refused >= 0 &&
		    sp_place_margin_ok(d->cfs_nj, s->c[refused].total_nj, run_nj,
				       pol->margin_pct))
			d->reason = SP_R_NOT_ALLOWED;
		else if (best >= 0 && s->c[best].total_nj < d->cfs_nj)
			d->reason = SP_R_BELOW_MARGIN;
		/* CFS's queue kept where a sleeping group wakes sooner */
		d->slower = s->queue_ref_us < s->cfs_lat_us && s->slow_ok;
		return;
	}
	for (i = 0; i < s->nr_skip; i++) {
		if (sp_place_group_overutilised(s, s->skip_group[i])) {
			/* as the full walk would have seen before anything else */
			d->reason = SP_R_OVERUTILISED;
			d->wake_lat_us = 0;
			d->queued = false;
			d->queue_us = 0;
			return;
		}
	}
	d->cpu = s->c[best].cpu;
	d->wake_lat_us = s->c[best].wake_lat_us;
	d->queued = !!(s->c[best].flags & SP_CF_QUEUE);
	d->queue_us = s->c[best].queue_us;
	d->slower = sp_place_slower(s, &s->c[best]) && !(s->c[best].flags & SP_CF_NEXT_OK);
	d->chosen_nj = s->c[best].total_nj;
	d->terms = *s->best_terms;
	d->override = d->cpu != t->cfs_cpu && sp_place_mode_acts(pol->mode);
}

void sp_place_w(const struct sp_model *m, const struct sp_state *st,
		const struct sp_knobs *pol, const struct sp_task_info *t,
		struct sp_decision *d, struct sp_place_work *w)
{
	w->exhaustive = false;
	sp_place_decide(m, st, pol, t, d, w);
}

void sp_place_w_energy(struct sp_place_work *w, struct sp_decision *d)
{
	if (!w->terms_due)
		return;
	w->terms_due = false;
	sp_place_init_energy(w);
	sp_energy_delta_at(&w->ea, d->cfs_cpu, sp_place_pdc(w, d->cfs_cpu), &d->terms);
	d->cfs_nj = d->terms.total_nj;
	d->chosen_nj = d->cfs_nj;
}

#ifndef __KERNEL__
unsigned long sp_place_ub_violations, sp_place_ub_taken;

void sp_place(const struct sp_model *m, const struct sp_state *st,
	      const struct sp_knobs *pol, const struct sp_task_info *t,
	      sp_allowed_fn allowed, const void *ctx, struct sp_decision *d)
{
	struct sp_place_work w;
	bool due;

	/* no decision has stamped the caches of this fresh working set */
	memset(&w.uc, 0, sizeof(w.uc));
	w.ub_skip = 0;		/* the fast path tries the bound first */
	sp_place_w_filter(&w, allowed, ctx);
	sp_place_w(m, st, pol, t, d, &w);
	/* the whole decision, as before the fast path's bound */
	due = w.terms_due;
	sp_place_w_energy(&w, d);
	sp_place_ub_taken += due;
	if (due && d->cfs_nj > w.cfs_ub_nj)
		sp_place_ub_violations++;
}

void sp_place_exhaustive(const struct sp_model *m, const struct sp_state *st,
			 const struct sp_knobs *pol, const struct sp_task_info *t,
			 sp_allowed_fn allowed, const void *ctx,
			 struct sp_decision *d)
{
	struct sp_place_work w;

	memset(&w.uc, 0, sizeof(w.uc));
	w.ub_skip = 0;
	sp_place_w_filter(&w, allowed, ctx);
	w.exhaustive = true;
	sp_place_decide(m, st, pol, t, d, &w);
}
#endif

/* sp_place_brought_util() on a CPU below the largest capacity; @note: sp_place_note_util(). */
static u32 sp_place_brought_below(const struct sp_model *m, const struct sp_state *st,
				  const struct sp_decision *d, u32 cpu, u32 note,
				  u64 now_ns)
{
	u32 cap = m->gate_cpu[cpu].cap, u;

	if (d->wake != SP_WAKE_FORK)
		return note;
	u = sp_state_cpu_util(st, cpu, now_ns);
	return cap > u ? (cap - u) / 2 : 0;
}

u32 sp_place_brought_util(const struct sp_model *m, const struct sp_state *st,
			  const struct sp_decision *d, u32 cpu, u64 now_ns)
{
	if (!sp_place_below_cap_max(m, cpu))
		return 0;	/* sp_gate_cpu() reads it only below the largest */
	return sp_place_brought_below(m, st, d, cpu, sp_place_note_util(d, cpu), now_ns);
}

SP_NOINLINE void sp_place_note_below(const struct sp_model *m, struct sp_state *st,
				     const struct sp_decision *d, u32 this_cpu,
				     u32 cpu, bool slower, u64 now_ns)
{
	u32 note = sp_place_note_util(d, cpu);

	sp_state_note_task(st, cpu, sp_place_brought_below(m, st, d, cpu, note, now_ns),
			   now_ns);
	sp_state_note_decision(st, this_cpu, cpu, note, slower, now_ns);
}

u32 sp_place_fork_util(const struct sp_model *m, const struct sp_state *st, u32 cpu,
		       u64 now_ns)
{
	const struct sp_pd *pd;
	u32 cap, u, half;

	if (cpu >= m->nr_cpus || cpu >= SP_MAX_CPUS)
		return SP_CAP_SCALE / 2;
	pd = sp_place_pd(m, cpu);
	cap = sp_place_cap(pd);
	u = sp_state_cpu_util(st, cpu, now_ns);
	half = cap > u ? (cap - u) / 2 : 0;
	return u && u < half ? u : half;
}
