// SPDX-License-Identifier: GPL-2.0
/*
 * sp_gate.c - the load-balancer gate: keep what the wake-up rule gathered.
 */

/**
 * DOC: the load-balancer gate
 *
 * The wake-up rule (sp_place.c) gathers light tasks on one package so that
 * the other can sleep.  6.1's periodic, idle and newidle balancing then
 * spreads them again: with SD_PREFER_SIBLING the package level evens out
 * nr_running, and an idle CPU of the sleeping package pulls a task as soon
 * as its package wakes for anything.  Mainline EAS stops balancing while
 * no CPU of the root domain is overutilised; the vendor scheduler modules
 * keep their placements with hooks on the balancer.  sched_power gates
 * load_balance() itself (balance_hook.c) and the simulator's balancer with
 * this one rule, so both are gated alike.
 *
 * In the modes that act (power, balanced) with the balance_gate knob on,
 * a balance of a domain that spans more than one group of the gate level
 * (sp_gate_level(): the packages of a two-socket machine, the clusters of
 * a big.LITTLE board) moves nothing, unless one of the domain's CPUs
 *
 *  - is overutilised where moving work can help: its utilisation exceeds
 *    overutil_pct of its capacity, the wake-up rule's own fallback to CFS
 *    and mainline EAS's condition, and a task waits on it (nr_running >=
 *    2), or a CPU of larger capacity exists (a misfit task can grow
 *    there), or the CPU that would pull (dst, below) sits in another
 *    group of the gate level, one that its own tasks keep waking: awake
 *    more than SP_GATE_AWAKE_PCT % of the time (sp_state_group_awake()).
 *    A task outgrowing a LITTLE CPU therefore reaches big, and a
 *    saturated package, whose CPUs queue, spills to the other.
 *    On a CPU below the largest capacity, the utilisation is the CPU's
 *    average plus what the tasks placed on it since it last entered idle
 *    brought, decayed since (sp_state_cpu_placed(): a woken task's own
 *    utilisation unless it came back to this CPU, a fork's
 *    post_init_entity_util_avg() share).  The average is made of the
 *    CPU's own busy time only: when a job that ran at 770 on big is
 *    woken onto a LITTLE CPU that was idle, that CPU's average climbs
 *    from near 0 at 360 (about 37 after 5 ms) and passes
 *    288 (80 % of 360) only after some 74 ms, while 6.1's cpu_util_cfs()
 *    counts the job's 770 at once and CFS's misfit balance pulls it to an
 *    idle big CPU.  Without the brought term the gate held such a job on
 *    LITTLE beside idle big CPUs (tools/sim/stories/build.json on the phone
 *    model: make sim's "gated" column).  On the largest CPUs a task cannot
 *    outgrow its CPU, so the average alone is read; or
 *  - is starving: it has had a runnable task waiting (nr_running >= 2)
 *    continuously for SP_GATE_STARVE_NS.  Utilisation alone answers late
 *    (two light tasks sharing one CPU take tens of ms to read as
 *    overutilised), while the wait is what latency is made of; one tick
 *    is how long CFS itself takes to answer it; or
 *  - has a task waiting (nr_running >= 2) while the CPU being balanced,
 *    the one that would pull (load_balance()'s this_cpu, sp_gate_in's
 *    dst_cpu), sits in an awake group of the gate level.
 *
 * The first case narrows issue 19's "when a CPU is overutilised, CFS
 * balances as always": a CPU of the largest capacity that runs one task,
 * however busy, with nothing waiting behind it, does not open the gate.
 * Such a CPU has nothing a balance could improve.  load_balance() detaches
 * only waiting tasks, so all it can do is move the running task itself by
 * active balance, onto a CPU no faster, and 6.1 does exactly that: at the
 * package level SD_PREFER_SIBLING makes the imbalance half the difference
 * in nr_running, the detach finds nothing, and once nr_balance_failed
 * exceeds cache_nice_tries + 2 imbalanced_active_balance() moves the
 * running task ("the even distribution of the threads on a system with
 * spare capacity").  Six compile jobs gathered on one package of the
 * 64-CPU server model (tools/sim/stories/build.json) read as overutilised
 * at once (util near 1024), so the unnarrowed gate let every such balance
 * through and the jobs were spread over both packages one active balance
 * at a time: both packages awake 73 % of the run against CFS's 94 %, for
 * an energy of 0.92 of CFS's instead of 0.71.  Mainline never meets this
 * case: EAS, and with it the overutilised state, exists only on machines
 * of asymmetric capacity, where the state's purpose is to let misfit tasks
 * reach bigger CPUs; Vincent Guittot's EAS rework (2024-25, "sched/fair:
 * Rework EAS to handle more cases") goes the same way, handling a task
 * stuck alone on its CPU by a push from its own tick (find an
 * energy-efficient CPU for it) rather than by the load balancer, and no
 * longer tying misfit to the overutilised state.  A waiting task, or a
 * misfit one, still opens the gate at once, so nothing queues longer
 * behind the narrowing; what it gives up is spreading CPU-bound work for
 * a shared cache or memory bandwidth, which the model does not price and
 * power mode does not buy with a package kept awake.
 *
 * A package that its own tasks keep waking is the exception.  Periodic
 * tasks left on a package whose other CPUs idle (forks that overflowed a
 * full package, say) wake it at every period; it sleeps in between, and
 * every wake-up costs them its exit latency (683 us on the 64-CPU server
 * model: CPU, cluster and package), which a CPU-bound task running there
 * spares them by keeping the package awake, as CFS's spreading does.
 * Whether dst's group is awake at the moment of the balance cannot tell
 * such a package: the move is an active balance, which 6.1 makes only
 * once the domain's nr_balance_failed exceeds cache_nice_tries + 2, after
 * that many consecutive idle or periodic balances found the imbalance but
 * no waiting task to detach (newidle balances do not count), and a gated
 * balance ends as a balanced one, which clears the count.  A package that
 * sleeps between its tasks' periods is asleep at most of those balances,
 * so the move would almost never happen.  The group's awake fraction, an
 * average with a half-life of SP_GROUP_HALFLIFE_US, reads the same at each
 * of them.  The share follows from the latency constraint: where the
 * awake time counts each exit from the wake-up on (the simulator), the
 * exits of a group awake a fraction f of the time take at most f of it,
 * so below SP_GATE_AWAKE_PCT % (power mode's makespan tolerance, 1.02 of
 * CFS's) the tasks that wake it lose less than that and it is kept
 * asleep; a package woken only by a sparse timer stays below.  The
 * kernel's cpu_idle exit event comes after the exit, so there the fraction
 * leaves the exits out and this case passes for fewer packages than the
 * bound allows.
 *
 * The last case is what makes a balance across the gate cheap: the task
 * that moves is one that waits (load_balance() detaches only queued
 * tasks; a CPU running a single task has nothing to give but by active
 * balance), and it lands in a group that is awake already, so no package
 * or cluster wakes for it.  CFS puts tasks behind others on its own (a
 * sync wake-up pulled to the waker, a fork, a preemption), and the CPU
 * that would take such a task is typically an idle one of the other,
 * awake package at its newidle or idle balance; gating that balance
 * would make the task wait behind a running one while an idle CPU of an
 * awake package exists.  Only when the balanced CPU's group sleeps (an
 * idle balance run on its behalf by another CPU) does moving the task
 * wake a group, and there the starvation guard decides.  The gate
 * therefore keeps apart what it is for: a sleeping group stays asleep,
 * and tasks that run gathered, one per CPU, stay where the wake-up rule
 * put them.  When dst_cpu is SP_NONE (not known) only the first two
 * cases pass, the first only for a waiting or a misfit task.
 *
 * Balancing inside a group (an LLC, a cluster, a package's cores) stays
 * CFS's, so a task never waits behind another while a CPU of its own
 * awake package idles.  The reasons are one list (SP_GATE_LIST): off,
 * local, overutilised, starving, waiting pass; gated stops the balance.
 * A CPU that is both starving and waiting reads as starving.
 *
 * A balance that the gate stops has asked every CPU of the domain, so the
 * common answer, a CPU of the largest capacity with nothing waiting that
 * stays where it is, is read from little: the CPU's entry of the model's
 * gate_cpu table (its capacity and its group of the gate level, derived
 * once when the model is published), its nr_running and a bound of its
 * utilisation.  Such a CPU can pass only towards another group, and only
 * when overutilised; its average moves from the stored value towards its
 * rate (its capacity while awake, 0 in idle) and never past it, so when
 * the larger of the two is within overutil_pct it is not overutilised and
 * the decay is not computed.  Only a CPU that the bound cannot settle,
 * and one with a task waiting or below the largest capacity, reads its
 * decayed average, the placed sum and the groups' state.
 */
/**
 * DOC: the kick gate
 *
 * A busy CPU's tick calls trigger_load_balance() (sched_balance_trigger()
 * from 6.10), which raises the CPU's own SCHED_SOFTIRQ when its periodic
 * balance is due and then, in nohz_balancer_kick(), decides whether to
 * kick an idle balance: when the CPU runs two tasks, shares its LLC with
 * another busy CPU, has a misfit task, or idle CPUs hold blocked load to
 * decay.  The kick (kick_ilb(), find_new_ilb()) is an IPI to the first
 * tickless idle CPU in CPU order, which then balances on behalf of every
 * tickless idle CPU.  When the tasks are gathered on one package and that
 * CPU is in the other, sleeping one, the IPI wakes the package, and the
 * balance it was sent for is then refused by the load-balancer gate
 * anyway: the wake-up buys nothing.
 *
 * sp_gate_kick() answers, on the busy CPU's tick, whether to let the tick
 * be CFS's.  It predicts the kick's target as the first CPU other than
 * the ticking one, in CPU order, that the snapshot sees idle (not
 * SP_CPU_AWAKE): the module's cpuidle probes stand for
 * nohz.idle_cpus_mask, which is private.  The two differ where a CPU is
 * idle with its tick kept (in the mask only once the tick stops) and
 * where an offline CPU's snapshot entry is idle; a wrong prediction gates
 * a kick that would have landed elsewhere, or passes one that wakes the
 * sleeping package, never more than CFS's tick does.  The tick is gated
 * only when the target is in another group of sp_gate_level() than the
 * ticking CPU, every CPU of that group is idle (in any state: the kick
 * would make the group leave idle, which is what tools/gate counts as a
 * package wake-up), and the load-balancer gate would refuse a balance
 * pulled by the target across groups: sp_gate_cpu() with the target as
 * dst_cpu lets no CPU of the model through (none overutilised with a task
 * waiting or a larger CPU to grow onto, none starving, and no task
 * waiting while the target's group is awake in the gate's sense, a CPU of
 * it in a state shallower than the deepest: sp_state_group_idle()).
 * The kicked CPU would then balance, be gated, and sleep again: not
 * kicking it spares the package's wake-up and changes no placement.  Any
 * other answer leaves the tick to CFS, kick included.
 *
 * The answer comes in two steps, so that the kernel's wrapper reads
 * overutil_pct and the clock only for the second.  sp_gate_kick_begin()
 * reads the mode, the knobs' on/off, the target and its group's idle
 * states: off, none, local and awake end there.  sp_gate_kick_cpus()
 * asks sp_gate_cpu() of every CPU, with the time.  Unlike a balance's,
 * that question needs the time nearly always: a busy ticking CPU is
 * awake in the snapshot, so the bound sp_gate_cpu_settled() reads of its
 * utilisation is its capacity, and dst_cpu, the target, is in another
 * group, so that CPU is not settled without the decay (unless
 * overutil_pct is 100).
 *
 * A gated tick still runs the CPU's own periodic balance (the wrapper
 * raises SCHED_SOFTIRQ; balance_hook.c), and the load-balancer gate
 * still decides each of its domains.  What it gives up is the kick's
 * other work.  The sleeping package's idle CPUs' blocked load (the PELT
 * averages of tasks that ran there) is not decayed by a stats kick while
 * the package sleeps; PELT decays it exactly at the CPUs' next update,
 * since the decay depends only on the time elapsed, and a CPU about to
 * idle for longer than the migration cost decays every idle CPU's blocked
 * load itself, without an IPI (nohz_newidle_balance(), 6.1), as the
 * gathered tasks' CPUs do at the end of each period.  Until one of those
 * updates CFS reads it too high where it reads other CPUs' averages:
 * find_busiest_group()'s statistics of the periodic balances (which the
 * gate stops across groups), the wake-up path's cpu_util() of those CPUs
 * (which sched_power's own placement replaces in the modes that gate),
 * and schedutil, whose view of an idle CPU's frequency does not matter
 * until it runs (and then updates it).  And the ticking CPU's own
 * nohz_balance_exit_idle() (nohz_balancer_kick() takes a CPU whose tick
 * restarted out of nohz.idle_cpus_mask at its first busy tick) is
 * deferred to its next ungated tick: meanwhile it counts in nohz.nr_cpus
 * and the mask, and its LLC's nr_busy_cpus reads one low.
 * That is benign: find_new_ilb() and _nohz_idle_balance() re-check
 * idle_cpu() before using a CPU of the mask, so a busy CPU in it is
 * neither kicked nor balanced for; the low nr_busy_cpus only makes other
 * CPUs' kicks rarer.
 */
#include "sp_gate.h"
#include "sp_place.h"

/* names in list order: the list defines the enum in the same order */
const char *const sp_gate_names[SP_GATE_NR] = SP_ENUM_NAMES(SP_GATE_LIST);
const char *const sp_kick_names[SP_KICK_NR] = SP_ENUM_NAMES(SP_KICK_LIST);

u32 sp_gate_begin(const struct sp_model *m, const struct sp_gate_in *in,
		  bool crosses)
{
	if (!in->enabled || !sp_place_mode_acts(in->mode))
		return SP_GATE_OFF;
	if (!crosses || sp_gate_level(m) == SP_NONE)
		return SP_GATE_LOCAL;
	return SP_GATE_GATED;
}

/*
 * Is @cpu overutilised: its average, plus on a CPU that a larger one
 * exists for the utilisation placed tasks brought (sp_state_cpu_placed()),
 * above @pct % of @cap?  A bound within the limit answers without the
 * decay.  Inlined in both callers: one frame fewer under load_balance().
 */
static inline SP_INLINE bool sp_gate_overutil(const struct sp_model *m,
					      const struct sp_state *st, u32 cpu,
					      u32 cap, u32 pct, u64 now_ns)
{
	u64 limit = (u64)cap * pct;
	bool small = cap < m->cap_max;
	u32 util;

	if (sp_gate_util_bound(&st->cpu[cpu], small) * 100 <= limit)
		return false;
	util = sp_state_cpu_util(st, cpu, now_ns);
	if ((u64)util * 100 > limit)
		return true;
	if (!small)
		return false;
	util += sp_state_cpu_placed(st, cpu, now_ns);
	return (u64)util * 100 > limit;
}

/* Is @dst known, and its group of the gate level awake? */
static bool sp_gate_dst_awake(const struct sp_model *m, const struct sp_state *st,
			      u32 dst)
{
	u32 g = sp_gate_group_of(m, dst);

	return g != SP_NONE && !sp_state_group_idle(st, g);
}

/*
 * @cpu of the largest capacity, nothing waiting: its task may move only if
 * @cpu is overutilised and dst's group of the gate level is another than
 * @cpu's, awake more than SP_GATE_AWAKE_PCT % of the time
 * (sp_state_group_awake()), whether or not it sleeps right now.
 */
static u32 sp_gate_alone(const struct sp_model *m, const struct sp_state *st,
			 u32 cpu, const struct sp_gate_in *in)
{
	u32 g = sp_gate_group_of(m, in->dst_cpu);

	if (g == SP_NONE || g == m->gate_cpu[cpu].group ||
	    !sp_gate_overutil(m, st, cpu, m->gate_cpu[cpu].cap, in->overutil_pct,
			      in->now_ns))
		return SP_GATE_GATED;
	if ((u64)sp_state_group_awake(st, g, in->now_ns) * 100 >
	    (u64)SP_GATE_AWAKE_PCT * SP_CAP_SCALE)
		return SP_GATE_OVERUTIL;
	return SP_GATE_GATED;
}

u32 sp_gate_cpu_check(const struct sp_model *m, const struct sp_state *st,
		      u32 cpu, u32 nr_running, const struct sp_gate_in *in,
		      u64 *waited_ns)
{
	u64 waited;
	u32 cap;

	if (cpu >= m->nr_cpus || cpu >= SP_MAX_CPUS)
		return SP_GATE_GATED;
	cap = m->gate_cpu[cpu].cap;
	if (nr_running < 2 && cap >= m->cap_max)
		return sp_gate_alone(m, st, cpu, in);
	/* a task waits, or a larger CPU exists: overutilised passes */
	if (sp_gate_overutil(m, st, cpu, cap, in->overutil_pct, in->now_ns))
		return SP_GATE_OVERUTIL;
	if (nr_running < 2)
		return SP_GATE_GATED;
	waited = sp_gate_waited_ns(st, cpu, in->now_ns);
	if (waited_ns)
		*waited_ns = waited;
	if (waited >= SP_GATE_STARVE_NS)
		return SP_GATE_STARVING;
	if (sp_gate_dst_awake(m, st, in->dst_cpu))
		return SP_GATE_WAITING;
	return SP_GATE_GATED;
}

u32 sp_gate_kick_target(const struct sp_model *m, const struct sp_state *st,
			u32 cpu)
{
	u32 t;

	for (t = 0; t < m->nr_cpus && t < SP_MAX_CPUS; t++)
		if (t != cpu && SP_READ_ONCE(st->cpu[t].idle_state) != SP_CPU_AWAKE)
			return t;
	return SP_NONE;
}

/* Is every CPU of group @g idle (in any state)? */
static bool sp_gate_group_all_idle(const struct sp_model *m, const struct sp_state *st,
				   u32 g)
{
	const struct sp_group *gr = &m->group[g];
	u32 i, cpu;

	for (i = 0; i < gr->nr_cpus; i++) {
		cpu = m->group_cpus[gr->cpu_off + i];
		if (cpu < SP_MAX_CPUS && SP_READ_ONCE(st->cpu[cpu].idle_state) == SP_CPU_AWAKE)
			return false;
	}
	return true;
}

u32 sp_gate_kick_begin(const struct sp_model *m, const struct sp_state *st,
		       u32 cpu, struct sp_gate_in *in, u32 *target)
{
	u32 g;

	*target = SP_NONE;
	if (!in->enabled || !sp_place_mode_acts(in->mode))
		return SP_KICK_OFF;
	*target = sp_gate_kick_target(m, st, cpu);
	if (*target == SP_NONE)
		return SP_KICK_NONE;
	g = sp_gate_group_of(m, *target);
	if (g == SP_NONE || g == sp_gate_group_of(m, cpu))
		return SP_KICK_LOCAL;
	if (!sp_gate_group_all_idle(m, st, g))
		return SP_KICK_AWAKE;
	in->dst_cpu = *target;
	return SP_KICK_GATED;
}

u32 sp_gate_kick_cpus(const struct sp_model *m, const struct sp_state *st,
		      const struct sp_gate_in *in)
{
	u32 i;

	for (i = 0; i < m->nr_cpus && i < SP_MAX_CPUS; i++) {
		switch (sp_gate_cpu(m, st, i, in)) {
		case SP_GATE_OVERUTIL:
			return SP_KICK_OVERUTIL;
		case SP_GATE_STARVING:
			return SP_KICK_STARVING;
		case SP_GATE_WAITING:
			return SP_KICK_WAITING;
		}
	}
	return SP_KICK_GATED;
}

u32 sp_gate_kick(const struct sp_model *m, const struct sp_state *st, u32 cpu,
		 struct sp_gate_in *in, u32 *target)
{
	u32 reason = sp_gate_kick_begin(m, st, cpu, in, target);

	if (reason != SP_KICK_GATED)
		return reason;
	return sp_gate_kick_cpus(m, st, in);
}
