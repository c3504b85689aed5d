// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - discrete-event simulator of CPUs, OPPs, idle states and groups.
 *
 * DOC: the event model
 *
 * Time is an integer number of ns.  Four kinds of event sit in one binary
 * heap ordered by (time, sequence number), so equal times pop in the order
 * they were pushed and a run is deterministic:
 *
 *	wake	a task's sleep or timer ends (or it starts, at t = 0): the
 *		policy picks a CPU and the task is queued there
 *	done	the running task of a CPU finishes its run/runtime segment and
 *		moves to its next event (run on, sleep, wait for its timer, end)
 *	preempt	a task woken onto a busy CPU takes it over once the running
 *		task has had 1 ms of its slice (CFS's wake-up preemption)
 *	tick	every 4 ms on an awake CPU (HZ=250, none on idle CPUs as with
 *		NOHZ): the pd's OPP is re-chosen and, if tasks wait, the
 *		running one is rotated to the back of the queue (round-robin)
 *		and one waiting task is pushed to an idle CPU (load balance)
 *
 * A done or tick event carries its CPU's generation number; rescheduling
 * bumps it, and a popped event whose generation is stale is dropped without
 * counting.  "Scheduling events" (events/s in `make sim-bench`) are the
 * wake, done and tick events actually handled.
 *
 * Each CPU runs one task at a time from a FIFO queue.  Work is kept in
 * capacity x ns: a segment "run N" holds N * 1000 * 1024 units and drains at
 * cap_k units per ns at OPP k (so it takes N * 1024 / cap_k us); "runtime N"
 * drains at 1024 whatever the OPP.  When a pd changes OPP every running CPU
 * of the pd is brought up to date and its done event rescheduled.  A CPU
 * that runs out of tasks first pulls a waiting task from the CPU with the
 * longest queue (newidle balance), else goes idle.
 *
 * Timers are assumed to fire on the CPU the woken task is placed on (timer
 * migration): a sleeping CPU is woken only by work placed on it.
 *
 * DOC: utilisation tracking
 *
 * Two PELT-like averages, both built on sp_util_decay() (half-life 32 ms):
 *
 *	CPU:  the core's own snapshot (core/sp_state.c), moved by
 *	      sp_state_idle_enter()/sp_state_idle_exit() exactly as the
 *	      kernel's idle hook does: busy from idle exit to idle entry.
 *	      sp_place() and the OPP choice read it with sp_cpu_util_now().
 *	task: per task, frequency invariant as mainline PELT: over dt us of
 *	      running at capacity c, u' = u * y^dt + 1024 * (1 - y^dt) * c/1024;
 *	      while not running (asleep or waiting), u' = u * y^dt.  The
 *	      wake-up path passes it to the policy as the task's utilisation.
 *	      A new task starts at 512 (mainline gives a new task about half of
 *	      the spare capacity).
 *
 * DOC: OPP and idle governors
 *
 * OPP: schedutil-like, per pd, k = lowest OPP with cap_k >= 1.25 * max util
 * of its CPUs (sp_pd_opp_for()), re-chosen on every wake-up, idle entry and
 * exit and tick of one of its CPUs.  The snapshot's pd_opp stays
 * SP_OPP_MODELLED, so sp_place() models the same rule itself.
 *
 * Idle: menu-like.  A CPU going idle predicts its idle time as the time to
 * the earliest wake-up of the tasks that went to sleep on it (the timers it
 * knows about), or, when none sleeps there, as its last idle residency
 * (unbounded before the first).  It enters the deepest state whose target
 * residency is <= that prediction.  On exit the residency is classified by
 * sim_verdict(), which is the module's sp_idle_verdict(): early (shorter than the state's target), late (long enough
 * for a deeper state), else hit.
 *
 * DOC: energy accounting
 *
 * Integrated exactly in fJ (uW x ns) over [0, makespan]:
 *
 *	busy: a CPU running at its pd's OPP, P_k; a group's active_uw while
 *	      any of its CPUs is awake
 *	idle: a CPU's idle-state power; a group's idle_uw while all sleep
 *	wake: wakeup_uj per exit of a CPU from its state and per idle -> awake
 *	      transition of a group, plus the CPU's shallowest idle-state power
 *	      while it spends the exit latency (the "stall" before the task runs)
 *
 * All CPUs start idle in their deepest state, all groups idle, at t = 0.
 * A wake-up's latency is from the wake event to the task's first instruction:
 * the exit latency of the CPU's state plus those of the idle groups above it,
 * or, if the CPU is busy, the wait in its queue.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"
#include "sp_idle.h"

enum { EV_WAKE, EV_DONE, EV_TICK, EV_PREEMPT };

#define FJ_PER_UJ	1000000000ull

/* The module's own rule (core/sp_idle.c), so the two classify alike. */
u32 sim_verdict(const struct sp_pd *pd, u32 idx, u64 residency_us)
{
	return sp_idle_verdict(pd, idx, residency_us);
}

/* ---- event heap ---- */

static bool evt_before(const struct sim_evt *a, const struct sim_evt *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int push(struct sim *S, u64 t, u32 kind, u32 id, u32 gen)
{
	struct sim_evt e = { .t = t, .seq = S->seq++, .kind = kind, .id = id, .gen = gen };
	u32 i;

	if (S->heap_n == S->heap_cap) {
		u32 cap = S->heap_cap ? 2 * S->heap_cap : 256;
		struct sim_evt *h = realloc(S->heap, cap * sizeof(*h));

		if (!h)
			return -1;
		S->heap = h;
		S->heap_cap = cap;
	}
	i = S->heap_n++;
	while (i && evt_before(&e, &S->heap[(i - 1) / 2])) {
		S->heap[i] = S->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	S->heap[i] = e;
	return 0;
}

static struct sim_evt pop(struct sim *S)
{
	struct sim_evt top = S->heap[0], last = S->heap[--S->heap_n];
	u32 i = 0, n = S->heap_n;

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && evt_before(&S->heap[c + 1], &S->heap[c]))
			c++;
		if (!evt_before(&S->heap[c], &last))
			break;
		S->heap[i] = S->heap[c];
		i = c;
	}
	if (n)
		S->heap[i] = last;
	return top;
}

/* ---- energy and timeline ---- */

static const struct sp_pd *cpu_pd(const struct sim *S, u32 cpu)
{
	return &S->m->pd[S->cpu[cpu].pd];
}

static void timeline(struct sim *S, u32 cpu, s32 kind, s32 level)
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

/* Account @cpu's energy up to now, in the state it has been in. */
static void cpu_flush(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd = cpu_pd(S, cpu);
	u64 t0 = c->acct_ns, now = S->now;

	if (now <= t0)
		return;
	if (c->idle >= 0) {
		S->r->e_idle += (sim_fj)pd->idle[c->idle].power_uw * (now - t0);
	} else {
		if (t0 < c->run_start) {
			u64 s = (now < c->run_start ? now : c->run_start) - t0;

			S->r->e_wake += (sim_fj)c->stall_uw * s;
			t0 += s;
		}
		S->r->e_busy += (sim_fj)pd->opp[S->pd_opp[c->pd]].power_uw * (now - t0);
	}
	c->acct_ns = now;
}

static void group_flush(struct sim *S, u32 g)
{
	const struct sp_group *gr = &S->m->group[g];
	u64 dt = S->now - S->grp_acct[g];

	if (sp_group_idle(S->st, g))
		S->r->e_idle += (sim_fj)gr->idle_uw * dt;
	else
		S->r->e_busy += (sim_fj)gr->active_uw * dt;
	S->grp_acct[g] = S->now;
}

static void groups_flush(struct sim *S, u32 cpu)
{
	u32 l;

	for (l = 0; l < S->m->nr_levels; l++)
		group_flush(S, S->m->cpu_group[l][cpu]);
}

/* ---- task utilisation ---- */

static void task_util_idle(struct sim_task *t, u64 now)
{
	u64 us;

	if (now <= t->util_ns)
		return;
	us = (now - t->util_ns) / 1000;
	t->util = sp_util_decay(t->util, us, false);
	t->util_ns += us * 1000;
}

static void task_util_run(struct sim_task *t, u64 now, u32 rate)
{
	u64 us;
	u32 gain;

	if (now <= t->util_ns)
		return;
	us = (now - t->util_ns) / 1000;
	gain = (sp_util_decay(0, us, true) * rate + 512) / 1024;
	t->util = sp_util_decay(t->util, us, false) + gain;
	if (t->util > SP_CAP_SCALE)
		t->util = SP_CAP_SCALE;
	t->util_ns += us * 1000;
}

/* ---- running ---- */

static u32 cpu_rate(const struct sim *S, u32 cpu)
{
	const struct sim_task *t = S->cpu[cpu].curr;

	if (t->wall)
		return SP_CAP_SCALE;
	return cpu_pd(S, cpu)->opp[S->pd_opp[S->cpu[cpu].pd]].cap;
}

/* Bring the running task's work and utilisation up to now. */
static void progress(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 t0 = c->prog_ns > c->run_start ? c->prog_ns : c->run_start;
	u32 rate;
	u64 done;

	if (!c->curr || S->now <= t0)
		return;
	rate = cpu_rate(S, cpu);
	done = (S->now - t0) * rate;
	c->curr->left = done >= c->curr->left ? 0 : c->curr->left - done;
	task_util_run(c->curr, S->now, rate);
	c->prog_ns = S->now;
}

static int arm_done(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 t0 = S->now > c->run_start ? S->now : c->run_start;
	u32 rate = cpu_rate(S, cpu);

	c->done_gen++;
	return push(S, t0 + (c->curr->left + rate - 1) / rate, EV_DONE, cpu, c->done_gen);
}

static int pd_update(struct sim *S, u32 pdi)
{
	const struct sp_pd *pd = &S->m->pd[pdi];
	const u16 *cpus = S->m->pd_cpus + pd->cpu_off;
	u32 i, k, max = 0;

	for (i = 0; i < pd->nr_cpus; i++) {
		u32 u = sp_cpu_util_now(S->st, cpus[i], S->now);

		if (u > max)
			max = u;
	}
	k = sp_pd_opp_for(pd, (5 * max + 3) / 4);
	if (k == S->pd_opp[pdi])
		return 0;
	for (i = 0; i < pd->nr_cpus; i++) {
		if (S->cpu[cpus[i]].idle >= 0)
			continue;
		cpu_flush(S, cpus[i]);
		progress(S, cpus[i]);
	}
	S->pd_opp[pdi] = k;
	for (i = 0; i < pd->nr_cpus; i++) {
		struct sim_cpu *c = &S->cpu[cpus[i]];

		if (c->idle >= 0)
			continue;
		timeline(S, cpus[i], 1, (s32)k);
		if (c->curr && arm_done(S, cpus[i]))
			return -1;
	}
	return 0;
}

static int lat_add(struct sim *S, u64 ns)
{
	if (S->lat_n == S->lat_cap) {
		u64 cap = S->lat_cap ? 2 * S->lat_cap : 1024;
		u64 *l = realloc(S->lat, cap * sizeof(*l));

		if (!l)
			return -1;
		S->lat = l;
		S->lat_cap = cap;
	}
	S->lat[S->lat_n++] = ns;
	return 0;
}

/* @t gets @cpu from time @start (>= now: after the exit latency). */
static int start_run(struct sim *S, u32 cpu, struct sim_task *t, u64 start)
{
	struct sim_cpu *c = &S->cpu[cpu];

	cpu_flush(S, cpu);	/* energy so far belongs to the old segment */
	c->curr = t;
	c->run_start = start;
	c->prog_ns = start;
	c->slice_start = start;
	t->state = SIM_T_RUNNING;
	t->cpu = (s32)cpu;
	t->prev = (s32)cpu;
	task_util_idle(t, start);
	if (t->util_ns < start)
		t->util_ns = start;
	if (t->waking) {
		t->waking = false;
		if (lat_add(S, start - t->wake_ns))
			return -1;
	}
	if (c->q_head && c->q_head->waking) {	/* more wake-ups wait: preempt */
		c->preempt_gen++;
		if (push(S, start + SIM_WAKEUP_GRAN_NS, EV_PREEMPT, cpu, c->preempt_gen))
			return -1;
	}
	return arm_done(S, cpu);
}

/* Governor: deepest state whose target residency fits the prediction. */
static u32 idle_pick(struct sim *S, u32 cpu)
{
	const struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd = cpu_pd(S, cpu);
	const struct sim_task *t;
	u64 pred = c->last_resid_ns;
	u32 i;

	if (c->sleepers) {
		pred = ~0ull;
		for (t = c->sleepers; t; t = t->sl_next)
			if (t->sleep_until - S->now < pred)
				pred = t->sleep_until - S->now;
	}
	for (i = pd->nr_idle; i > 1; i--)
		if ((u64)pd->idle[i - 1].target_residency_us * 1000 <= pred)
			break;
	return i - 1;
}

static int cpu_go_idle(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u32 idx = idle_pick(S, cpu);

	cpu_flush(S, cpu);
	groups_flush(S, cpu);
	sp_state_idle_enter(S->st, S->m, cpu, idx, S->now);
	c->idle = (s32)idx;
	c->idle_ns = S->now;
	c->governed = true;
	c->tick_gen++;
	S->nr_idle++;
	timeline(S, cpu, 0, (s32)idx);
	return pd_update(S, c->pd);
}

/* Wake @cpu now; returns the wake-up latency in ns (CPU + idle groups). */
static u64 cpu_wake(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	const struct sp_pd *pd = cpu_pd(S, cpu);
	const struct sp_idle_state *is = &pd->idle[c->idle];
	u64 resid = S->now - c->idle_ns, lat = is->exit_latency_us;
	u32 l;

	cpu_flush(S, cpu);
	groups_flush(S, cpu);
	if (c->governed)	/* not the initial state, which nobody chose */
		S->r->verdict[sim_verdict(pd, (u32)c->idle, resid / 1000)]++;
	c->last_resid_ns = resid;
	S->r->e_wake += (sim_fj)is->wakeup_uj * FJ_PER_UJ;
	for (l = 0; l < S->m->nr_levels; l++) {
		u32 g = S->m->cpu_group[l][cpu];
		const struct sp_group *gr = &S->m->group[g];

		if (!sp_group_idle(S->st, g))
			break;
		lat += gr->exit_latency_us;
		S->r->e_wake += (sim_fj)gr->wakeup_uj * FJ_PER_UJ;
		if (l + 1 == S->m->nr_levels)
			S->r->pkg_wakeups++;
	}
	sp_state_idle_exit(S->st, S->m, cpu, S->now);
	c->idle = -1;
	c->stall_uw = pd->idle[0].power_uw;
	S->nr_idle--;
	timeline(S, cpu, 1, (s32)S->pd_opp[c->pd]);
	c->tick_gen++;
	return lat * 1000;
}

static void q_add(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];

	t->rq_next = NULL;
	t->state = SIM_T_QUEUED;
	t->cpu = (s32)cpu;
	if (c->q_tail)
		c->q_tail->rq_next = t;
	else
		c->q_head = t;
	c->q_tail = t;
	c->nr_queued++;
	S->nr_queued++;
}

static struct sim_task *q_pop(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t = c->q_head;

	if (!t)
		return NULL;
	c->q_head = t->rq_next;
	if (!c->q_head)
		c->q_tail = NULL;
	c->nr_queued--;
	S->nr_queued--;
	return t;
}

/* Run the first waiting task of @cpu, the current one goes to the back. */
static int rotate(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t = c->curr;

	if (!t || !c->q_head || S->now < c->run_start)
		return 0;
	progress(S, cpu);
	c->curr = NULL;
	q_add(S, cpu, t);
	return start_run(S, cpu, q_pop(S, cpu), S->now);
}

/*
 * Wake-up preemption, CFS-like: a waking task queues ahead of the tasks
 * that were already waiting (a sleeper's vruntime is behind theirs) and
 * preempts the current task once that has run SIM_WAKEUP_GRAN_NS of its
 * slice.
 */
static int q_add_waking(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task **pp = &c->q_head, *last = NULL;
	u64 at;

	while (*pp && (*pp)->waking) {
		last = *pp;
		pp = &(*pp)->rq_next;
	}
	t->rq_next = *pp;
	*pp = t;
	if (c->q_tail == last)
		c->q_tail = t;
	t->state = SIM_T_QUEUED;
	t->cpu = (s32)cpu;
	c->nr_queued++;
	S->nr_queued++;
	at = (c->slice_start > c->run_start ? c->slice_start : c->run_start) +
	     SIM_WAKEUP_GRAN_NS;
	if (at <= S->now)
		return rotate(S, cpu);
	c->preempt_gen++;
	return push(S, at, EV_PREEMPT, cpu, c->preempt_gen);
}

/* Put @t on @cpu: run it at once (waking the CPU if idle) or queue it. */
static int enqueue(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 lat;

	if (c->idle < 0)
		return q_add_waking(S, cpu, t);
	lat = cpu_wake(S, cpu);
	if (start_run(S, cpu, t, S->now + lat))
		return -1;
	if (push(S, S->now + SIM_TICK_NS, EV_TICK, cpu, c->tick_gen))
		return -1;
	return pd_update(S, c->pd);
}

static void sleeper_add(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];

	t->sl_prev = NULL;
	t->sl_next = c->sleepers;
	if (c->sleepers)
		c->sleepers->sl_prev = t;
	c->sleepers = t;
}

static void sleeper_del(struct sim *S, struct sim_task *t)
{
	if (t->prev < 0)
		return;
	if (t->sl_prev)
		t->sl_prev->sl_next = t->sl_next;
	else
		S->cpu[t->prev].sleepers = t->sl_next;
	if (t->sl_next)
		t->sl_next->sl_prev = t->sl_prev;
	t->sl_next = t->sl_prev = NULL;
}

/* ---- the task program ---- */

static const struct sim_ev *next_ev(struct sim *S, struct sim_task *t)
{
	const struct sim_story *s = S->story;
	const struct sim_phase *ph;

	for (;;) {
		ph = &s->phases[t->def->first_phase + t->phase];
		if (t->ev < ph->nr_ev)
			return &s->evs[ph->first_ev + t->ev++];
		t->ev = 0;
		if (--t->phase_loop_left)
			continue;
		if (++t->phase == t->def->nr_phases) {
			t->phase = 0;
			if (!--t->loop_left)
				return NULL;
		}
		t->phase_loop_left = s->phases[t->def->first_phase + t->phase].loop;
	}
}

/*
 * Advance @t to its next segment.  Returns 1 if it has work to run, 0 if
 * it blocked or ended (sleep_until / state set), -1 on error.
 */
static int advance(struct sim *S, struct sim_task *t)
{
	const struct sim_ev *e;

	while ((e = next_ev(S, t))) {
		u64 next;

		switch (e->kind) {
		case SIM_EV_RUN:
		case SIM_EV_RUNTIME:
			t->left = e->us * 1000 * SP_CAP_SCALE;
			t->wall = e->kind == SIM_EV_RUNTIME;
			return 1;
		case SIM_EV_SLEEP:
			t->sleep_until = S->now + e->us * 1000;
			return 0;
		default:
			if (!t->timer_armed[e->timer]) {
				t->timer_armed[e->timer] = 1;
				t->timer_next[e->timer] = S->now;
			}
			next = t->timer_next[e->timer] + e->us * 1000;
			t->timer_next[e->timer] = next;
			if (next > S->now) {
				t->sleep_until = next;
				return 0;
			}
		}
	}
	t->state = SIM_T_DONE;
	return 0;
}

/* The CPU has no current task: run the next, pull one, or go idle. */
static int cpu_next(struct sim *S, u32 cpu)
{
	struct sim_task *t = q_pop(S, cpu);
	u32 i, best = cpu, most = 0;

	if (!t && S->nr_queued) {
		for (i = 0; i < S->m->nr_cpus; i++) {
			if (S->cpu[i].nr_queued > most) {
				most = S->cpu[i].nr_queued;
				best = i;
			}
		}
		t = q_pop(S, best);
		if (t)
			S->r->migrations++;
	}
	if (t)
		return start_run(S, cpu, t, S->now);
	return cpu_go_idle(S, cpu);
}

static int on_done(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t = c->curr;
	int rc;

	progress(S, cpu);
	rc = advance(S, t);
	if (rc)
		return arm_done(S, cpu);
	c->curr = NULL;
	if (t->state == SIM_T_DONE) {
		S->nr_done++;
		if (S->nr_done == S->nr_tasks)
			S->r->makespan_ns = S->now;
	} else {
		t->state = SIM_T_SLEEPING;
		t->cpu = SIM_NO_CPU;
		sleeper_add(S, cpu, t);
		if (push(S, t->sleep_until, EV_WAKE, (u32)(t - S->task), 0))
			return -1;
	}
	return cpu_next(S, cpu);
}

static int on_wake(struct sim *S, struct sim_task *t)
{
	u32 cpu;

	task_util_idle(t, S->now);
	t->wake_ns = S->now;
	t->waking = true;
	cpu = sim_policy_select(S, t);
	S->r->decisions++;
	if (t->prev >= 0 && (u32)t->prev != cpu)
		S->r->migrations++;
	return enqueue(S, cpu, t);
}

/* Tick: OPP, round-robin, and push one waiting task to an idle CPU. */
static int on_tick(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t;

	if (pd_update(S, c->pd))
		return -1;
	if (c->nr_queued && S->nr_idle) {
		u32 to = sim_spread_select(S, NULL, (s32)cpu);

		if (sim_cpu_is_idle(S, to)) {
			t = q_pop(S, cpu);
			S->r->migrations++;
			if (enqueue(S, to, t))
				return -1;
		}
	}
	if (c->nr_queued && S->now - c->slice_start >= SIM_TICK_NS && rotate(S, cpu))
		return -1;
	return push(S, S->now + SIM_TICK_NS, EV_TICK, cpu, c->tick_gen);
}

/* ---- setup and the loop ---- */

static int sim_setup(struct sim *S)
{
	const struct sim_story *s = S->story;
	u32 i, j, n = 0, cpu;

	for (i = 0; i < s->nr_defs; i++)
		n += s->defs[i].instance;
	S->nr_tasks = n;
	S->task = calloc(n ? n : 1, sizeof(*S->task));
	S->cpu = calloc(S->m->nr_cpus, sizeof(*S->cpu));
	S->st = malloc(sizeof(*S->st));
	if (!S->task || !S->cpu || !S->st)
		return -1;
	sp_state_init(S->st, S->m, 0);
	for (cpu = 0; cpu < S->m->nr_cpus; cpu++) {
		struct sim_cpu *c = &S->cpu[cpu];
		const struct sp_pd *pd;

		c->pd = S->m->cpu_pd[cpu];
		pd = cpu_pd(S, cpu);
		c->idle = (s32)pd->nr_idle - 1;
		c->last_resid_ns = ~0ull;
		c->tl_kind = 0;
		c->tl_level = c->idle;
		sp_state_idle_enter(S->st, S->m, cpu, (u32)c->idle, 0);
	}
	S->nr_idle = S->m->nr_cpus;
	for (i = 0, n = 0; i < s->nr_defs; i++) {
		for (j = 0; j < s->defs[i].instance; j++, n++) {
			struct sim_task *t = &S->task[n];

			t->def = &s->defs[i];
			t->loop_left = t->def->loop;
			t->phase_loop_left = s->phases[t->def->first_phase].loop;
			t->util = SP_CAP_SCALE / 2;
			t->cpu = t->prev = SIM_NO_CPU;
			if (push(S, 0, EV_WAKE, n, 0))
				return -1;
		}
	}
	return 0;
}

static int handle(struct sim *S, const struct sim_evt *e)
{
	struct sim_task *t;
	int rc;

	switch (e->kind) {
	case EV_WAKE:
		t = &S->task[e->id];
		sleeper_del(S, t);
		rc = advance(S, t);
		if (rc > 0)
			return on_wake(S, t);
		if (t->state == SIM_T_DONE) {
			if (++S->nr_done == S->nr_tasks)
				S->r->makespan_ns = S->now;
			return 0;
		}
		if (t->prev >= 0)	/* blocked again at once, on its old CPU */
			sleeper_add(S, (u32)t->prev, t);
		return push(S, t->sleep_until, EV_WAKE, e->id, 0);
	case EV_DONE:
		if (e->gen != S->cpu[e->id].done_gen)
			return 1;
		return on_done(S, e->id);
	case EV_PREEMPT:
		if (e->gen != S->cpu[e->id].preempt_gen || !S->cpu[e->id].q_head)
			return 1;
		return rotate(S, e->id);
	default:
		if (e->gen != S->cpu[e->id].tick_gen || S->cpu[e->id].idle >= 0)
			return 1;
		return on_tick(S, e->id);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 pct(const u64 *v, u64 n, u32 p)
{
	u64 rank;

	if (!n)
		return 0;
	rank = (n * p + 99) / 100;	/* nearest rank, 1-based */
	return v[rank ? rank - 1 : 0];
}

static void sim_finish(struct sim *S)
{
	u32 i;

	S->now = S->r->makespan_ns;
	for (i = 0; i < S->m->nr_cpus; i++) {
		cpu_flush(S, i);
		timeline(S, i, -1, -1);
	}
	for (i = 0; i < S->m->nr_groups; i++)
		group_flush(S, i);
	qsort(S->lat, S->lat_n, sizeof(*S->lat), cmp_u64);
	S->r->wakeups = S->lat_n;
	S->r->lat_p50_ns = pct(S->lat, S->lat_n, 50);
	S->r->lat_p99_ns = pct(S->lat, S->lat_n, 99);
	S->r->lat_max_ns = S->lat_n ? S->lat[S->lat_n - 1] : 0;
}

static void sim_free(struct sim *S)
{
	free(S->task);
	free(S->cpu);
	free(S->st);
	free(S->heap);
	free(S->lat);
}

int sim_run(const struct sp_model *m, const struct sim_story *s, u32 policy,
	    const struct sim_opts *o, struct sim_result *r)
{
	struct sim S = { .m = m, .story = s, .o = o, .policy = policy, .r = r };
	int rc = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->story, sizeof(r->story), "%s", s->name);
	r->policy = policy;
	S.sp_pol = (struct sp_policy){ .margin_pct = 5, .overutil_pct = 80,
				       .window_us = 4000, .latency_us = 0 };
	if (sim_setup(&S)) {
		sim_free(&S);
		return -1;
	}
	while (S.heap_n && S.nr_done < S.nr_tasks) {
		struct sim_evt e = pop(&S);

		S.now = e.t;
		rc = handle(&S, &e);
		if (rc < 0)
			break;
		if (!rc)
			r->events++;
		rc = 0;
	}
	if (!rc)
		sim_finish(&S);
	sim_free(&S);
	return rc;
}
