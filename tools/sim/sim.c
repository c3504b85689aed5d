// SPDX-License-Identifier: GPL-2.0
/*
 * sim.c - discrete-event simulator: the event loop and the task programs.
 *
 * DOC: the event model
 *
 * Time is an integer number of ns.  Events sit in one binary heap (evq.c)
 * ordered by (time, sequence number), so equal times pop in the order they
 * were pushed and a run is deterministic:
 *
 *	wake	a task's sleep or timer ends: the timer interrupt is raised on
 *		the CPU the task went to sleep on (the hrtimer was armed there
 *		and stays there: get_nohz_timer_target() keeps a timer on the
 *		busy CPU that arms it)
 *	irq	an interrupt handler runs on a CPU that is up: a timer's
 *		wake-up (the policy places the task: the waker is that CPU),
 *		the forks at t = 0, a nohz idle-balance kick, or the tick of
 *		an idle CPU in a shallow state.  An idle CPU first leaves its
 *		idle state (exit latency, wake-up energy); if the handler
 *		leaves it without a task it goes idle again at once
 *	done	the running task finishes its segment and moves to its next
 *		event (run on, sleep, wait for its timer, end)
 *	preempt	a task woken onto a busy CPU takes it: by default
 *		(SIM_PREEMPT_VRUNTIME) the CPU picks its leftmost task once it
 *		is up (rq.c); under SIM_PREEMPT_GRAN once the running task has
 *		had 1 ms of its slice
 *	tick	every 4 ms on an awake CPU (HZ=250; NOHZ: none on idle CPUs
 *		in the deepest state): the OPP is re-chosen, the running task
 *		is rotated if others wait (rq_tick()), and the load balancer
 *		runs (balance.c)
 *	idle-tick the tick of an idle CPU in a shallower state (hw.c)
 *
 * A done, tick, preempt or idle-tick event carries its CPU's generation
 * number; a popped event whose generation is stale is dropped uncounted.
 * "Scheduling events" are the events actually handled.
 *
 * Tasks.  At t = 0 rt-app's main thread, on CPU 0, forks every task
 * instance in story order (fork placement, WF_FORK, with the parent
 * counted on CPU 0); a new task first runs a zero-length segment (the
 * thread starting), then its events.  Likewise every wake-up places the
 * task and runs it before it looks at its next event, so a task that
 * blocks twice in a row or ends after a wait still wakes a CPU, as an
 * rt-app thread does.  A task that finishes leaves; the makespan is the
 * time the last one finishes.
 *
 * Wake-up latency, per placement: from the time the task was due (timer
 * expiry, end of sleep, the fork) to its first instruction: the exit
 * latency of the timer CPU if it was idle, then that of the CPU it is
 * placed on if that one is idle too (and of the idle groups above it), or
 * its wait in that CPU's queue.  p50/p99 are nearest-rank.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

/* ---- timers armed on a CPU ---- */

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
	if (t->sl_prev)
		t->sl_prev->sl_next = t->sl_next;
	else
		S->cpu[t->cpu].sleepers = t->sl_next;
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
 * it blocked (sleep_until set) or ended (state SIM_T_DONE).
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
			S->r->work_ns += e->us * 1000;
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

static void task_done(struct sim *S)
{
	if (++S->nr_done == S->nr_tasks)
		S->r->makespan_ns = S->now;
}

static int on_done(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t = c->curr;

	rq_progress(S, cpu);
	if (advance(S, t))
		return rq_arm_done(S, cpu);
	c->curr = NULL;
	t->last_ran_ns = S->now;
	if (t->state == SIM_T_DONE) {
		task_done(S);
	} else {
		t->state = SIM_T_SLEEPING;
		t->util_est = t->util;
		sleeper_add(S, cpu, t);
		if (evq_push(S, t->sleep_until, EV_WAKE, t->id, 0, 0))
			return -1;
	}
	return rq_cpu_next(S, cpu);
}

/* ---- placement ---- */

static u32 pkg_of(const struct sim *S, u32 cpu)
{
	return S->cpu[cpu].pkg;
}

/* Is some CPU idle in @cpu's package (@same) or only outside it? */
static bool idle_cpu_where(const struct sim *S, u32 cpu, bool same)
{
	u32 c;

	for (c = 0; c < S->m->nr_cpus; c++)
		if ((pkg_of(S, c) == pkg_of(S, cpu)) == same && cfs_cpu_idle(S, c))
			return true;
	return false;
}

/*
 * Is a CPU other than @cpu idle in a package that is awake (the hardware's
 * grp_up[] of its metrics package: some CPU of it out of its pd's deepest
 * state, so waking this one costs no package wake-up)?  Every CPU counts
 * as allowed: stories carry no affinity ("cpus" is ignored, story.c).
 */
static bool idle_cpu_awake_pkg(const struct sim *S, u32 cpu)
{
	u32 l = S->topo.pkg_level, c;

	for (c = 0; c < S->m->nr_cpus; c++)
		if (c != cpu && cfs_cpu_idle(S, c) && S->grp_up[S->m->cpu_group[l][c]])
			return true;
	return false;
}

/*
 * The wake-up choice of @t (last on prev_cpu, woken on @waker) for @cpu,
 * in the validation counters (Documentation/simulator.rst): prev, the
 * waker's CPU or another; and whether it queues behind a task while a CPU
 * of its package, or only of another package, idles, and whether one of
 * the idle CPUs was in an awake package (the latency rule's defect).
 */
static void note_wake(struct sim *S, const struct sim_task *t, u32 waker, u32 cpu)
{
	struct sim_result *r = S->r;
	u32 prev = (u32)t->cpu;

	r->wake_placed++;
	if (pkg_of(S, cpu) == pkg_of(S, prev))
		r->wake_prev_pkg++;
	if (cpu == prev)
		r->wake_on_prev++;
	else if (cpu == waker)
		r->wake_on_waker++;
	if (cfs_cpu_idle(S, cpu))
		return;
	r->wake_queued++;
	if (idle_cpu_where(S, cpu, true))
		r->wake_queued_idle_pkg++;
	else if (idle_cpu_where(S, cpu, false))
		r->wake_queued_idle_far++;
	if (idle_cpu_awake_pkg(S, cpu))
		r->wake_queued_idle_awake_pkg++;
}

/* The policy places @t, woken or forked from @waker; it runs a resume. */
static int place(struct sim *S, struct sim_task *t, u32 waker, u32 wf)
{
	u32 cpu;

	task_util_idle(t, S->now);
	t->place_prev = t->cpu;
	cpu = sim_policy_select(S, t, waker, wf);
	t->place_ns = S->now;
	t->place_waker = (s32)waker;
	t->place_idle = S->cpu[cpu].idle;
	t->place_busy = S->cpu[cpu].curr != NULL;
	S->r->decisions++;
	if (wf & SIM_WF_TTWU)
		note_wake(S, t, waker, cpu);
	t->left = 0;
	t->wall = false;
	if (wf & SIM_WF_FORK)
		t->cpu = SIM_NO_CPU;	/* wake_up_new_task(): not a migration */
	return rq_enqueue(S, cpu, t);
}

/* rt-app's main thread forks the task instances in order. */
static int fork_all(struct sim *S, u32 parent)
{
	u32 i;

	S->forking = true;
	for (i = 0; i < S->nr_tasks; i++) {
		struct sim_task *t = &S->task[i];
		u32 cap, u;

		t->cpu = (s32)parent;
		t->recent_used = (s32)parent;
		t->wake_ns = S->now;
		t->waking = true;
		t->util_ns = S->now;
		if (place(S, t, parent, SIM_WF_FORK))
			return -1;
		cap = topo_cpu_cap(S, (u32)t->cpu);
		u = sim_cpu_util(S, (u32)t->cpu);
		t->util = u < cap ? (cap - u) / 2 : 0;
		t->util_est = t->util;
	}
	S->forking = false;
	return 0;
}

static int on_irq(struct sim *S, u32 cpu, u32 gen, u32 arg)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u32 irq = gen & 0xff;
	int rc = 0;

	c->irq_pending--;
	switch (irq) {
	case IRQ_FORK:
		rc = fork_all(S, cpu);
		break;
	case IRQ_TIMER:
		rc = place(S, &S->task[arg], cpu, SIM_WF_TTWU);
		if (gen >> 8 && (u32)S->task[arg].cpu != cpu)
			S->r->irq_wakes++;
		break;
	default:	/* a pinned run's tasks cannot move: its ticks balance nothing */
		rc = S->balance_on ? lb_idle_irq(S, cpu, irq, arg) : 0;
		break;
	}
	if (rc)
		return rc;
	if (!c->curr && !c->irq_pending && c->idle < 0)
		return hw_cpu_go_idle(S, cpu);
	return 0;
}

static int on_wake(struct sim *S, struct sim_task *t)
{
	sleeper_del(S, t);
	t->wake_ns = S->now;
	t->waking = true;
	return hw_irq_raise(S, (u32)t->cpu, IRQ_TIMER, t->id);
}

/* Tick of an awake CPU: OPP, the running task's average, round-robin, load balance. */
static int on_tick(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];

	if (opp_update(S, c->pd))
		return -1;
	if (rq_tick(S, cpu))
		return -1;
	if (S->balance_on && lb_tick(S, cpu))
		return -1;
	return evq_push(S, S->now + SIM_TICK_NS, EV_TICK, cpu, c->tick_gen, 0);
}

/* ---- setup and the loop ---- */

static u32 sim_preempt_model = SIM_PREEMPT_VRUNTIME;	/* sim_set_preempt() */

void sim_set_preempt(u32 model)
{
	sim_preempt_model = model;
}

u32 sim_get_preempt(void)
{
	return sim_preempt_model;
}

/*
 * The snapshots and the module's accounting are sized for SP_MAX_CPUS
 * (about 400 KB); they are allocated once and reused by every run (runs
 * are sequential), which keeps the oracle's thousands of runs off the page
 * allocator.
 */
static struct sim_bufs {
	struct sp_state *st, *acct_st;
	struct sp_acct *acct;
} bufs;

static int sim_alloc(struct sim *S)
{
	if (!bufs.st)
		bufs.st = malloc(sizeof(*bufs.st));
	if (!bufs.acct_st)
		bufs.acct_st = malloc(sizeof(*bufs.acct_st));
	if (!bufs.acct)
		bufs.acct = malloc(sizeof(*bufs.acct));
	S->st = bufs.st;
	S->acct_st = bufs.acct_st;
	S->acct = bufs.acct;
	S->nr_tasks = sim_story_tasks(S->story);
	S->task = calloc(S->nr_tasks ? S->nr_tasks : 1, sizeof(*S->task));
	S->cpu = calloc(S->m->nr_cpus, sizeof(*S->cpu));
	return S->task && S->cpu && S->st && S->acct_st && S->acct ? 0 : -1;
}

/* What the run queues and the hardware call back (sim_int.h). */
static const struct sim_ops sim_ops_balanced = {
	.freq_update = opp_update,
	.newidle = lb_newidle,
};

static const struct sim_ops sim_ops_pinned = {
	.freq_update = opp_update,
};

static int sim_setup(struct sim *S)
{
	const struct sim_story *s = S->story;
	u32 i, j, n, cpu;

	S->balance_on = S->policy != SIM_POL_PINNED;
	S->ops = S->balance_on ? &sim_ops_balanced : &sim_ops_pinned;
	if (sim_alloc(S))
		return -1;
	topo_build(S->m, &S->topo);
	sp_state_init(S->st, S->m, 0);
	sp_state_init(S->acct_st, S->m, 0);
	sp_acct_reset(S->acct, 0);
	opp_init(S);
	for (cpu = 0; cpu < S->m->nr_cpus; cpu++)
		hw_init_cpu(S, cpu);
	lb_init(S);
	rq_vr_init(S);
	S->nr_idle = S->m->nr_cpus;
	for (i = 0, n = 0; i < s->nr_defs; i++) {
		for (j = 0; j < s->defs[i].instance; j++, n++) {
			struct sim_task *t = &S->task[n];

			t->def = &s->defs[i];
			t->id = n;
			t->loop_left = t->def->loop;
			t->phase_loop_left = s->phases[t->def->first_phase].loop;
			t->cpu = t->recent_used = SIM_NO_CPU;
		}
	}
	S->parent_cpu = 0;
	S->nohz_next_blocked_ns = SIM_LOAD_AVG_PERIOD_NS;
	return S->nr_tasks ? hw_irq_raise(S, (u32)S->parent_cpu, IRQ_FORK, 0) : 0;
}

static int handle(struct sim *S, const struct sim_evt *e)
{
	struct sim_cpu *c = e->kind == EV_WAKE ? NULL : &S->cpu[e->id];

	switch (e->kind) {
	case EV_WAKE:
		return on_wake(S, &S->task[e->id]);
	case EV_IRQ:
		return on_irq(S, e->id, e->gen, e->arg);
	case EV_DONE:
		if (e->gen != c->done_gen || !c->curr)
			return 1;
		return on_done(S, e->id);
	case EV_PREEMPT:
		if (e->gen != c->preempt_gen || !c->q_head)
			return 1;
		return rq_rotate(S, e->id);
	case EV_EXIT_END:	/* hardware, not a scheduling event: uncounted */
		if (e->arg && e->gen == c->acct_gen)
			hw_acct_seen(S, e->id);
		else if (!e->arg && e->gen == c->exit_gen)
			hw_exit_seen(S, e->id);
		return 1;
	case EV_IDLE_TICK:
		if (e->gen != c->tick_gen || c->idle < 0)
			return 1;
		return hw_irq_raise(S, e->id, IRQ_TICK, 0);
	default:
		if (e->gen != c->tick_gen || c->idle >= 0)
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
	S->now = S->r->makespan_ns;
	hw_finish(S);
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
	free(S->heap);
	free(S->lat);
}

int sim_run(const struct sp_model *m, const struct sim_story *s, u32 policy,
	    const struct sim_opts *o, struct sim_result *r)
{
	struct sim *S = calloc(1, sizeof(*S));
	int rc = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->story, sizeof(r->story), "%s", s->name);
	r->policy = policy;
	if (!S)
		return -1;
	*S = (struct sim){ .m = m, .story = s, .o = o, .policy = policy, .r = r };
	S->sp_pol = (struct sp_knobs){ .mode = sim_policy_mode(policy), .margin_pct = 5,
					.overutil_pct = 80, .window_us = 4000, .latency_us = 0 };
	S->balance_gate = !(o && o->balance_gate_off);
	S->kick_gate = !(o && o->kick_gate_off);
	S->ni_random = !(o && o->ni_random_off);
	S->rng = o && o->rng_seed ? o->rng_seed : SIM_RNG_SEED;
	S->floor_gap = policy == SIM_POL_SP_POWER;
	S->vrt = sim_preempt_model == SIM_PREEMPT_VRUNTIME;
	S->floor_next_ns = SP_FLOOR_LOOK_MS * 1000000ull;
	rc = sim_setup(S);
	while (!rc && S->heap_n && S->nr_done < S->nr_tasks) {
		struct sim_evt e = evq_pop(S);

		S->now = e.t;
		if (S->floor_gap && S->now >= S->floor_next_ns && opp_floor_look(S)) {
			rc = -1;
			break;
		}
		rc = handle(S, &e);
		if (!rc)
			r->events++;
		rc = rc < 0 ? rc : 0;
		if (o && o->abort_fj && !(r->events & 63) && sim_total(r) > o->abort_fj) {
			r->aborted = true;	/* energy only grows: it cannot win */
			break;
		}
		if (o && o->abort_ns && S->now > o->abort_ns) {
			r->aborted = true;	/* the makespan will be later */
			break;
		}
	}
	if (!rc && !r->aborted)
		sim_finish(S);
	sim_free(S);
	free(S);
	return rc;
}
