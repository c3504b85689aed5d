// SPDX-License-Identifier: GPL-2.0
/*
 * hw.c - the simulated hardware: idle states, OPPs, groups and their energy.
 *
 * DOC: energy accounting
 *
 * Integrated exactly in fJ (uW x ns, 128-bit) over [0, makespan]; at t = 0
 * every CPU sits in its pd's deepest idle state and every group is idle.
 *
 *	CPU	idle: the power of its idle state.  Woken: it keeps drawing that
 *		state's power until its exit latency is over (run_start), and
 *		pays the state's wakeup_uj once, at the wake-up: wakeup_uj is
 *		the whole extra cost of one exit.  Awake: P_k of its pd's OPP,
 *		whether it runs a task or only an interrupt.
 *	group	idle_uw while it is idle, i.e. while every one of its CPUs is
 *		in its deepest state (core/sp_state.c), else active_uw.  The
 *		wake-up that takes it out of idle pays its wakeup_uj once and
 *		the group keeps drawing idle_uw until the first of its CPUs is
 *		up: that CPU, or another one of the group woken meanwhile whose
 *		own chain ends sooner (a LITTLE CPU beside a big one's longer
 *		exit, once the package is up).
 *
 * So a package wake-up costs the CPU state's wakeup_uj plus the package's,
 * and nothing else is charged over the exit latency.  The energy falls in
 * three sums: busy (CPUs awake, groups active), idle (idle and exiting
 * CPUs, idle and waking groups) and wake (the wakeup_uj terms).
 *
 * Beside this, every idle entry and exit is also fed to the module's own
 * accounting (core/sp_acct.c: sp_acct_enter()/sp_acct_exit()) on a second
 * snapshot, so that e_acct is the energy the module would report for the
 * same schedule (the validation metric), with the states the governor chose
 * or, with sim_opts.acct_deepest, every idle as the deepest state, as a
 * kernel without a cpuidle driver reports it.
 *
 * DOC: when the snapshot sees an idle exit
 *
 * The hardware's own state is c->idle and grp_up[] (a group's CPUs awake or
 * in a shallower state than their pd's deepest), moved at the wake-up and
 * the idle entry; the energy above reads only these.  The snapshot the
 * sp-* policies and the balancer's gate decide on (S->st) and the module's
 * accounting (S->acct_st) are told of an entry at once, and of an exit at
 * its start (the default) or, with sim_opts.idle_exit_end, at its end
 * (EV_EXIT_END at run_start, before the handler or task the CPU was woken
 * for), as 6.1 reports it: cpuidle_enter_state() fires the cpu_idle exit
 * event after ->enter() returns, and default_idle_call() after the idle
 * instruction returns.  Meanwhile the snapshot shows the CPU, and the
 * groups it wakes, still idle, with the work placed there in flight, and
 * its utilisation (which is also the PELT-like average cfs and schedutil
 * read, rq.c) does not grow: 6.1's PELT counts a task's running time, from
 * after the exit, too.
 *
 * DOC: the idle governor
 *
 * Menu-like: a CPU going idle predicts its idle time as the time to
 * the earliest timer armed on it (the tasks that went to sleep there), or,
 * when none is, as its last residency (unknown, i.e. long, before its first
 * governed stay and for the stay it started the run in).  It enters the
 * deepest state whose target residency fits the prediction.  A state
 * shallower than the deepest keeps the tick: if nothing wakes the CPU for
 * 4 ms the tick does, the stay ends (late, usually), the CPU balances as an
 * idle CPU and picks again with 4 ms of history.  On exit sim_verdict(),
 * which is the module's sp_acct_verdict(), classifies the stay: early,
 * hit or late; the initial state at t = 0 is not counted.
 */
#include "sim_int.h"

#define FJ_PER_UJ	1000000000ull

/* The module's own rule (core/sp_acct.c), so the two classify alike. */
u32 sim_verdict(const struct sp_pd *pd, u32 idx, u64 residency_us)
{
	return sp_acct_verdict(pd, idx, residency_us);
}

void hw_timeline(struct sim *S, u32 cpu, s32 kind, s32 level)
{
	struct sim_cpu *c = &S->cpu[cpu];

	if (!S->o || !S->o->timeline)
		return;
	if (c->tl_kind == kind && c->tl_level == level)
		return;
	if (S->now > c->tl_start && c->tl_kind >= 0 &&
	    (!S->o->timeline_end_ns || c->tl_start < S->o->timeline_end_ns))
		fprintf(S->o->timeline, "%u %llu %llu %d %d\n", cpu,
			(unsigned long long)(c->tl_start / 1000),
			(unsigned long long)(S->now / 1000), c->tl_kind, c->tl_level);
	c->tl_start = S->now;
	c->tl_kind = kind;
	c->tl_level = level;
}

/* Add @fj to one of the row's three sums and to the CPU's or group's own. */
static void hw_add(sim_fj *row, sim_fj *part, sim_fj fj)
{
	*row += fj;
	*part += fj;
}

/* Account @cpu's energy up to now, in the state it has been in. */
void hw_cpu_flush(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd = sim_cpu_pd(S, cpu);
	u64 t0 = c->acct_ns, now = S->now;

	if (now <= t0)
		return;
	if (c->idle >= 0) {
		hw_add(&S->r->e_idle, &c->e.idle, (sim_fj)pd->idle[c->idle].power_uw * (now - t0));
	} else {
		if (t0 < c->run_start && c->exit_from >= 0) {
			u64 s = (now < c->run_start ? now : c->run_start) - t0;

			hw_add(&S->r->e_idle, &c->e.idle,
			       (sim_fj)pd->idle[c->exit_from].power_uw * s);
			t0 += s;
		}
		hw_add(&S->r->e_busy, &c->e.busy,
		       (sim_fj)pd->opp[S->pd_opp[c->pd]].power_uw * (now - t0));
		c->e.up_ns += now - t0;
	}
	c->acct_ns = now;
}

void hw_group_flush(struct sim *S, u32 g)
{
	const struct sp_group *gr = &S->m->group[g];
	struct sim_part_e *e = &S->grp_e[g];
	u64 t0 = S->grp_acct[g], end = S->grp_wake_end[g];

	if (S->now <= t0)
		return;
	if (!S->grp_up[g]) {
		hw_add(&S->r->e_idle, &e->idle, (sim_fj)gr->idle_uw * (S->now - t0));
	} else {
		if (t0 < end) {
			u64 s = (S->now < end ? S->now : end) - t0;

			hw_add(&S->r->e_idle, &e->idle, (sim_fj)gr->idle_uw * s);
			t0 += s;
		}
		hw_add(&S->r->e_busy, &e->busy, (sim_fj)gr->active_uw * (S->now - t0));
		e->up_ns += S->now - t0;
	}
	S->grp_acct[g] = S->now;
}

void hw_groups_flush(struct sim *S, u32 cpu)
{
	u32 l;

	for (l = 0; l < S->m->nr_levels; l++)
		hw_group_flush(S, S->m->cpu_group[l][cpu]);
}

/*
 * The hardware's own group counters: a CPU keeps each group above it up
 * while it is awake or idle in a state shallower than its pd's deepest (the
 * rule of core/sp_state.c, at the hardware's timing).  Returns the levels
 * whose group @up took out of idle.
 */
static u32 hw_groups_move(struct sim *S, u32 cpu, bool up)
{
	u32 l, woken = 0;

	for (l = 0; l < S->m->nr_levels; l++) {
		u32 g = S->m->cpu_group[l][cpu];

		if (!up)
			S->grp_up[g]--;
		else if (!S->grp_up[g]++)
			woken |= 1u << l;
	}
	return woken;
}

/* The snapshot and the module's accounting see @cpu's pending idle exit now. */
void hw_exit_seen(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];

	if (!c->exit_unseen)
		return;
	c->exit_unseen = false;
	c->exit_gen++;
	sp_state_idle_exit(S->st, S->m, cpu, S->now);
	if (!c->acct_unseen)
		sp_acct_exit(S->acct, S->acct_st, S->m, cpu, S->now, NULL);
}

/* The accounting sees @cpu's idle exit now, the exit being over. */
void hw_acct_seen(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];

	if (!c->acct_unseen)
		return;
	c->acct_unseen = false;
	c->acct_gen++;
	sp_acct_exit(S->acct, S->acct_st, S->m, cpu, S->now, NULL);
}

u32 hw_cpu_rate(const struct sim *S, u32 cpu)
{
	const struct sim_task *t = S->cpu[cpu].curr;

	if (t && t->wall)
		return SP_CAP_SCALE;
	return sim_cpu_pd(S, cpu)->opp[S->pd_opp[S->cpu[cpu].pd]].cap;
}

/* The metric "every package has an awake CPU": one more/less awake CPU. */
static void pkg_awake_add(struct sim *S, u32 cpu, bool awake)
{
	u32 p = S->cpu[cpu].pkg;

	if (awake) {
		if (S->pkg_awake[p]++)
			return;
		if (++S->nr_pkgs_awake == S->topo.nr_pkgs)
			S->all_awake_since = S->now;
		return;
	}
	if (--S->pkg_awake[p])
		return;
	if (S->nr_pkgs_awake-- == S->topo.nr_pkgs)
		S->r->all_pkgs_awake_ns += S->now - S->all_awake_since;
}

/* Governor: deepest state whose target residency fits the prediction. */
static u32 idle_pick(const struct sim *S, u32 cpu)
{
	const struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd = sim_cpu_pd(S, cpu);
	const struct sim_task *t;
	u64 pred = c->last_resid_ns;
	u32 i;

	if (c->sleepers) {
		pred = ~0ull;
		for (t = c->sleepers; t; t = t->sl_next)
			if (t->sleep_until > S->now && t->sleep_until - S->now < pred)
				pred = t->sleep_until - S->now;
	}
	for (i = pd->nr_idle; i > 1; i--)
		if ((u64)pd->idle[i - 1].target_residency_us * 1000 <= pred)
			break;
	return i - 1;
}

static u32 acct_idx(const struct sim *S, u32 idx)
{
	return S->o && S->o->acct_deepest ? ~0u : idx;
}

int hw_cpu_go_idle(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd = sim_cpu_pd(S, cpu);
	u32 idx = idle_pick(S, cpu);

	hw_cpu_flush(S, cpu);
	hw_groups_flush(S, cpu);
	if (sp_state_deep(pd, idx))
		hw_groups_move(S, cpu, false);
	hw_exit_seen(S, cpu);	/* an exit ends before the CPU runs on */
	hw_acct_seen(S, cpu);
	sp_state_idle_enter(S->st, S->m, cpu, idx, S->now);
	sp_acct_enter(S->acct, S->acct_st, S->m, cpu, acct_idx(S, idx), S->now);
	c->idle = (s32)idx;
	c->exit_from = -1;
	c->idle_ns = S->now;
	c->governed = true;
	c->tick_gen++;
	c->ticking = false;
	S->nr_idle++;
	S->nr_nohz += idx + 1 >= pd->nr_idle;
	pkg_awake_add(S, cpu, false);
	hw_timeline(S, cpu, 0, (s32)idx);
	if (idx + 1 < pd->nr_idle &&
	    evq_push(S, S->now + SIM_TICK_NS, EV_IDLE_TICK, cpu, c->tick_gen, 0))
		return -1;
	return S->ops->freq_update(S, c->pd);
}

/*
 * When the snapshot and the module's accounting see the exit of @cpu, which
 * takes @lat ns: at its start, or with sim_opts.idle_exit_end at its end,
 * as 6.1 fires the cpu_idle exit event after the idle instruction returns.
 * Should the event not fit in the queue, the exit is seen now; the next
 * push fails the run anyway.
 */
static void hw_exit_note(struct sim *S, u32 cpu, u64 lat)
{
	struct sim_cpu *c = &S->cpu[cpu];

	c->exit_unseen = true;
	/*
	 * sp-power's floor reads the accounting's busy time (sp_floor.c):
	 * there, the accounting sees the exit at its end, as 6.1 reports it,
	 * so that the exit latency is idle time, not work.
	 */
	if (S->floor_gap && !(S->o && S->o->idle_exit_end) && lat &&
	    !evq_push(S, S->now + lat, EV_EXIT_END, cpu, c->acct_gen, 1))
		c->acct_unseen = true;
	if (!S->o || !S->o->idle_exit_end || !lat ||
	    evq_push(S, S->now + lat, EV_EXIT_END, cpu, c->exit_gen, 0))
		hw_exit_seen(S, cpu);
}

/*
 * The woken groups' chain, outermost first: a group powers up once the one
 * above it is up (woken by this exit or still powering up for another
 * CPU's), and is ready for a second CPU from then on, before this CPU's own
 * inner groups and its core.  Returns when the innermost group is up.
 */
static u64 hw_groups_up(struct sim *S, u32 cpu, u32 woken)
{
	u64 t = S->now;
	u32 l = S->m->nr_levels;

	while (l--) {
		u32 g = S->m->cpu_group[l][cpu];
		const struct sp_group *gr = &S->m->group[g];

		if (woken & (1u << l)) {
			t += (u64)gr->exit_latency_us * 1000;
			S->grp_ready[g] = t;
			hw_add(&S->r->e_wake, &S->grp_e[g].wake, (sim_fj)gr->wakeup_uj * FJ_PER_UJ);
			S->grp_e[g].exits++;
			if (l == S->topo.pkg_level)
				S->r->pkg_wakeups++;
		} else if (S->grp_ready[g] > t) {
			t = S->grp_ready[g];	/* still powering up */
		}
	}
	return t;
}

/* Wake @cpu now; returns the wake-up latency in ns (woken groups + CPU). */
u64 hw_cpu_wake(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd = sim_cpu_pd(S, cpu);
	const struct sp_idle_state *is = &pd->idle[c->idle];
	u64 resid = S->now - c->idle_ns, lat;
	u32 l, woken;

	hw_cpu_flush(S, cpu);
	hw_groups_flush(S, cpu);
	if (c->governed)	/* not the initial state, which nobody chose */
		S->r->verdict[sim_verdict(pd, (u32)c->idle, resid / 1000)]++;
	c->last_resid_ns = c->governed ? resid : ~0ull;
	hw_add(&S->r->e_wake, &c->e.wake, (sim_fj)is->wakeup_uj * FJ_PER_UJ);
	c->e.exits++;
	woken = sp_state_deep(pd, (u32)c->idle) ? hw_groups_move(S, cpu, true) : 0;
	lat = hw_groups_up(S, cpu, woken) - S->now + (u64)is->exit_latency_us * 1000;
	for (l = 0; l < S->m->nr_levels; l++) {
		u32 g = S->m->cpu_group[l][cpu];

		/* the first CPU up in a woken group ends its idle draw */
		if ((woken & (1u << l)) || S->grp_wake_end[g] > S->now + lat)
			S->grp_wake_end[g] = S->now + lat;
	}
	S->nr_nohz -= (u32)c->idle + 1 >= pd->nr_idle;
	c->exit_from = c->idle;
	c->idle = -1;
	c->run_start = S->now + lat;
	S->nr_idle--;
	pkg_awake_add(S, cpu, true);
	hw_timeline(S, cpu, 1, (s32)S->pd_opp[c->pd]);
	c->tick_gen++;
	c->ticking = false;
	hw_exit_note(S, cpu, lat);
	return lat;
}

/* Raise interrupt @irq on @cpu, waking it first if it is idle. */
int hw_irq_raise(struct sim *S, u32 cpu, u32 irq, u32 arg)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u32 woke = 0;

	if (c->idle >= 0) {
		hw_cpu_wake(S, cpu);
		woke = 1;
	}
	c->irq_pending++;
	return evq_push(S, S->now > c->run_start ? S->now : c->run_start, EV_IRQ,
			cpu, irq | woke << 8, arg);
}

void hw_init_cpu(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd;

	c->pd = S->m->cpu_pd[cpu];
	c->pkg = S->m->cpu_group[S->topo.pkg_level][cpu] -
		 S->m->level[S->topo.pkg_level].first_group;
	pd = sim_cpu_pd(S, cpu);
	c->idle = (s32)pd->nr_idle - 1;
	c->exit_from = -1;
	c->last_resid_ns = ~0ull;
	c->tl_kind = 0;
	c->tl_level = c->idle;
	c->ucache_ns = ~0ull;
	S->nr_nohz++;
	sp_state_idle_enter(S->st, S->m, cpu, (u32)c->idle, 0);
	sp_acct_enter(S->acct, S->acct_st, S->m, cpu, acct_idx(S, (u32)c->idle), 0);
}

/* @fj as uJ with three decimals (nJ), as the --energy lines print it. */
static void hw_print_uj(FILE *f, const char *key, sim_fj fj)
{
	u64 nj = (u64)(fj / 1000000u);

	fprintf(f, " %s=%llu.%03llu", key, (unsigned long long)(nj / 1000),
		(unsigned long long)(nj % 1000));
}

static void hw_print_part(FILE *f, const struct sim_part_e *e, const char *up)
{
	hw_print_uj(f, "busy_uj", e->busy);
	hw_print_uj(f, "idle_uj", e->idle);
	hw_print_uj(f, "wake_uj", e->wake);
	fprintf(f, " exits=%llu %s=%llu\n", (unsigned long long)e->exits, up,
		(unsigned long long)(e->up_ns / 1000));
}

/* A list of CPUs in increasing order as ranges: 0-3,8 */
static void hw_print_cpus(FILE *f, const u16 *cpus, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && cpus[j] == cpus[j - 1] + 1; j++)
			;
		fprintf(f, "%s%u", i ? "," : "", cpus[i]);
		if (j - i > 1)
			fprintf(f, "-%u", cpus[j - 1]);
	}
}

/*
 * sp_sim --energy: the row's energy split by where it is drawn, one line
 * per CPU ("cpu=N pd=P", awake_us: time at OPP power) and per group
 * ("group=G level=NAME id=I cpus=LIST", active_us: time at active_uw),
 * each with its busy, idle and wake terms (hw.c's DOC block) and its exits
 * from idle.  Over all lines the terms add up to the row's, to the nJ.
 */
static void hw_print_energy(const struct sim *S, FILE *f)
{
	const struct sp_model *m = S->m;
	u32 i;

	for (i = 0; i < m->nr_cpus; i++) {
		fprintf(f, "cpu=%u pd=%u", i, S->cpu[i].pd);
		hw_print_part(f, &S->cpu[i].e, "awake_us");
	}
	for (i = 0; i < m->nr_groups; i++) {
		const struct sp_group *g = &m->group[i];

		fprintf(f, "group=%u level=%s id=%u cpus=", i, m->level[g->level].name, g->id);
		hw_print_cpus(f, m->group_cpus + g->cpu_off, g->nr_cpus);
		hw_print_part(f, &S->grp_e[i], "active_us");
	}
}

/* Close every open stretch at the makespan and total the module's energy. */
void hw_finish(struct sim *S)
{
	struct sp_energy_sum e;
	u64 nj = 0;
	u32 i;

	for (i = 0; i < S->m->nr_cpus; i++) {
		hw_cpu_flush(S, i);
		hw_exit_seen(S, i);
		hw_acct_seen(S, i);
		hw_timeline(S, i, -1, -1);
		sp_acct_cpu_sum(S->acct, S->acct_st, S->m, i, S->now, &e);
		nj += e.busy_nj + e.idle_nj + e.wake_nj;
	}
	for (i = 0; i < S->m->nr_groups; i++) {
		hw_group_flush(S, i);
		sp_acct_group_sum(S->acct, S->acct_st, S->m, i, S->now, &e);
		nj += e.busy_nj + e.idle_nj + e.wake_nj;
	}
	if (S->nr_pkgs_awake == S->topo.nr_pkgs)
		S->r->all_pkgs_awake_ns += S->now - S->all_awake_since;
	S->r->e_acct = (sim_fj)nj * 1000000u;
	if (S->o && S->o->energy)
		hw_print_energy(S, S->o->energy);
}
