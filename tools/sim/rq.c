// SPDX-License-Identifier: GPL-2.0
/*
 * rq.c - run queues: running, queueing, preemption, task utilisation.
 *
 * Each CPU runs one task at a time from a FIFO queue.  Work is kept in
 * capacity x ns: a segment "run N" holds N * 1000 * 1024 units and drains
 * at cap_k units per ns at OPP k (so it takes N * 1024 / cap_k us);
 * "runtime N" drains at 1024 whatever the OPP.  A task woken onto a busy
 * CPU queues ahead of the tasks already waiting (a sleeper's vruntime is
 * behind theirs) and preempts the running one once that has had 1 ms of
 * its slice (wake-up preemption); the tick rotates the running task to the
 * back when others wait (a 4 ms slice).
 *
 * DOC: task utilisation
 *
 * Per task, frequency invariant as mainline PELT: over dt us of running at
 * capacity c, u' = u * y^dt + c * (1 - y^dt); while not running (asleep or
 * waiting), u' = u * y^dt (sp_state_decay_cap()).  The running task's
 * average is brought up to date at every tick (task_tick_fair()'s
 * update_load_avg(), which the balancer's misfit test reads), on an OPP
 * change and when it stops running.  util_est is the task's utilisation
 * when it last went to sleep, as 6.1's util_est.enqueued; the sim's cfs
 * reads max(util, util_est) as 6.1's task_util_est(), and sp-power the
 * same, as select_hook.c reads max(util_avg, util_est.enqueued).
 *
 * Where 6.1's util_est_update() differs: it also keeps an ewma, which
 * task_util_est() and the run queue's sum read as max(ewma, enqueued) and
 * which after a drop closes a quarter of the gap per activation (the sim
 * keeps none); it leaves util_est as it was when PELT has not moved since
 * the last write (no 1 ms period crossed), when enqueued and ewma are both
 * within 1 % of the new value, and when a value below the ewma exceeds
 * the CPU's capacity_orig (the sim writes it at every sleep); and a
 * forked task's util_est is 0 until its first sleep (the sim starts it at
 * the initial average).
 *
 * At fork 6.1 has not yet initialised the child's average when it places
 * it (post_init_entity_util_avg() runs after select_task_rq()), so the
 * placement sees 0; the child then starts at half the spare capacity of
 * the CPU it lands on, (cap - cpu_util) / 2, as post_init_entity_util_avg()
 * gives a task on an otherwise idle run queue.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sim_int.h"

void task_util_idle(struct sim_task *t, u64 now)
{
	u64 us;

	if (now <= t->util_ns)
		return;
	us = (now - t->util_ns) / 1000;
	t->util = sp_state_decay(t->util, us, false);
	t->util_ns += us * 1000;
}

static void task_util_run(struct sim_task *t, u64 now, u32 rate)
{
	u64 us;

	if (now <= t->util_ns)
		return;
	us = (now - t->util_ns) / 1000;
	t->util = sp_state_decay_cap(t->util, us, rate);
	t->util_ns += us * 1000;
}

/* Sum of the util_est of the tasks on @cpu's run queue. */
static u32 rq_util_est(const struct sim *S, u32 cpu)
{
	const struct sim_cpu *c = &S->cpu[cpu];
	const struct sim_task *t;
	u32 sum = c->curr ? c->curr->util_est : 0;

	for (t = c->q_head; t; t = t->rq_next)
		sum += t->util_est;
	return sum;
}

/* cpu_util_cfs(): max(PELT-like average, util_est of the queue), capped. */
u32 sim_util_cfs(const struct sim *S, u32 cpu)
{
	u32 u = sim_cpu_util(S, cpu), q = rq_util_est(S, cpu), cap = topo_cpu_cap(S, cpu);

	if (q > u)
		u = q;
	return u < cap ? u : cap;
}

/* Bring the running task's work and utilisation up to now. */
void rq_progress(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 t0 = c->prog_ns > c->run_start ? c->prog_ns : c->run_start;
	u32 rate;
	u64 done;

	if (!c->curr || S->now <= t0)
		return;
	rate = hw_cpu_rate(S, cpu);
	done = (S->now - t0) * rate;
	c->curr->left = done >= c->curr->left ? 0 : c->curr->left - done;
	task_util_run(c->curr, S->now, c->curr->wall ?
		      sim_cpu_pd(S, cpu)->opp[S->pd_opp[c->pd]].cap : rate);
	c->prog_ns = S->now;
}

int rq_arm_done(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 t0 = S->now > c->run_start ? S->now : c->run_start;
	u32 rate = hw_cpu_rate(S, cpu);

	c->done_gen++;
	return evq_push(S, t0 + (c->curr->left + rate - 1) / rate, EV_DONE, cpu,
			c->done_gen, 0);
}

/*
 * One wake-up latency sample as a line (sp_sim --wakeups): when it was
 * due, the task, the deciding CPU (the timer's CPU for a timer wake-up)
 * and prev_cpu, the CPU it got, waker_ns from due to placed (the deciding
 * CPU's own exit from idle), the target's state when placed (idle state
 * index, awake, or busy running a task) and wait_ns from placed to
 * running there (the target's exit, or its queue).
 */
static void wake_line(FILE *f, const struct sim_task *t, u32 cpu, u64 start)
{
	char st[16];

	if (t->place_busy)
		snprintf(st, sizeof(st), "busy");
	else if (t->place_idle < 0)
		snprintf(st, sizeof(st), "awake");
	else
		snprintf(st, sizeof(st), "idle%d", t->place_idle);
	fprintf(f, "t_us=%llu task=%s#%u waker=%d prev=%d cpu=%u waker_ns=%llu "
		"target=%s wait_ns=%llu lat_ns=%llu\n",
		(unsigned long long)(t->wake_ns / 1000), t->def->name, t->id,
		t->place_waker, t->place_prev, cpu,
		(unsigned long long)(t->place_ns - t->wake_ns), st,
		(unsigned long long)(start - t->place_ns),
		(unsigned long long)(start - t->wake_ns));
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

/*
 * The snapshot's nr_running of @cpu (sp_state_set_nr_running(), read by
 * the balancer's gate): the running task and the queued ones, told when a
 * task arrives (rq_enqueue()) or leaves (rq_dequeue(), and rq_cpu_next()
 * after the running task blocked, ended or was pushed away), not when the
 * running and a queued task swap places (the kernel's nr_running counts
 * both).  rt-app's main thread, forking at t = 0, is not counted.
 */
static void rq_nr_sync(struct sim *S, u32 cpu)
{
	const struct sim_cpu *c = &S->cpu[cpu];

	sp_state_set_nr_running(S->st, cpu, !!c->curr + c->nr_queued, S->now);
}

/* set_task_cpu(): a change of task_cpu is a migration. */
void rq_set_task_cpu(struct sim *S, struct sim_task *t, u32 cpu)
{
	if (t->cpu >= 0 && (u32)t->cpu != cpu)
		S->r->migrations++;
	t->cpu = (s32)cpu;
}

/* @t gets @cpu from time @start (>= now: after the exit latency). */
int rq_start_run(struct sim *S, u32 cpu, struct sim_task *t, u64 start)
{
	struct sim_cpu *c = &S->cpu[cpu];

	hw_cpu_flush(S, cpu);	/* energy so far belongs to the old segment */
	c->curr = t;
	c->run_start = start;
	c->prog_ns = start;
	c->slice_start = start;
	t->state = SIM_T_RUNNING;
	rq_set_task_cpu(S, t, cpu);
	task_util_idle(t, start);
	if (t->util_ns < start)
		t->util_ns = start;
	if (t->waking) {
		t->waking = false;
		if (S->o && S->o->wakeups)
			wake_line(S->o->wakeups, t, cpu, start);
		if (lat_add(S, start - t->wake_ns))
			return -1;
	}
	if (c->q_head && c->q_head->waking) {	/* more wake-ups wait: preempt */
		c->preempt_gen++;
		if (evq_push(S, start + SIM_WAKEUP_GRAN_NS, EV_PREEMPT, cpu,
			     c->preempt_gen, 0))
			return -1;
	}
	return rq_arm_done(S, cpu);
}

void rq_q_add(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];

	t->rq_next = NULL;
	t->state = SIM_T_QUEUED;
	rq_set_task_cpu(S, t, cpu);
	if (c->q_tail)
		c->q_tail->rq_next = t;
	else
		c->q_head = t;
	c->q_tail = t;
	c->nr_queued++;
	S->nr_queued++;
}

struct sim_task *rq_q_pop(struct sim *S, u32 cpu)
{
	struct sim_task *t = S->cpu[cpu].q_head;

	if (t)
		rq_q_del(S, cpu, t);
	return t;
}

/* Take @t (queued, not running) off @cpu's queue. */
void rq_q_del(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task **pp = &c->q_head, *last = NULL;

	while (*pp && *pp != t) {
		last = *pp;
		pp = &(*pp)->rq_next;
	}
	if (!*pp)
		return;
	*pp = t->rq_next;
	if (c->q_tail == t)
		c->q_tail = last;
	t->rq_next = NULL;
	c->nr_queued--;
	S->nr_queued--;
}

/* Take queued @t off @cpu: it leaves the CPU (the balancer moves it). */
void rq_dequeue(struct sim *S, u32 cpu, struct sim_task *t)
{
	rq_q_del(S, cpu, t);
	rq_nr_sync(S, cpu);
}

/* Run the first waiting task of @cpu, the current one goes to the back. */
int rq_rotate(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t = c->curr;

	if (!t || !c->q_head || S->now < c->run_start)
		return 0;
	rq_progress(S, cpu);
	c->curr = NULL;
	t->last_ran_ns = S->now;
	rq_q_add(S, cpu, t);
	return rq_start_run(S, cpu, rq_q_pop(S, cpu), S->now);
}

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
	rq_set_task_cpu(S, t, cpu);
	c->nr_queued++;
	S->nr_queued++;
	if (!t->waking)
		return 0;
	at = (c->slice_start > c->run_start ? c->slice_start : c->run_start) +
	     SIM_WAKEUP_GRAN_NS;
	if (at <= S->now)
		return rq_rotate(S, cpu);
	c->preempt_gen++;
	return evq_push(S, at, EV_PREEMPT, cpu, c->preempt_gen, 0);
}

static int start_ticking(struct sim *S, u32 cpu, u64 start)
{
	struct sim_cpu *c = &S->cpu[cpu];

	if (c->ticking)
		return 0;
	c->ticking = true;
	return evq_push(S, start + SIM_TICK_NS, EV_TICK, cpu, c->tick_gen, 0);
}

/* Put @t on @cpu: run it at once (waking the CPU if idle) or queue it. */
int rq_enqueue(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 start;

	if (c->idle < 0 && c->curr) {
		if (q_add_waking(S, cpu, t))
			return -1;
		rq_nr_sync(S, cpu);
		return S->ops->freq_update(S, c->pd);
	}
	if (c->idle >= 0)
		hw_cpu_wake(S, cpu);
	start = S->now > c->run_start ? S->now : c->run_start;
	if (rq_start_run(S, cpu, t, start) || start_ticking(S, cpu, start))
		return -1;
	rq_nr_sync(S, cpu);
	return S->ops->freq_update(S, c->pd);
}

/* The CPU has no current task: run the next, pull one, or go idle. */
int rq_cpu_next(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t;

	rq_nr_sync(S, cpu);
	t = rq_q_pop(S, cpu);
	if (t)
		return rq_start_run(S, cpu, t, S->now);
	if (S->ops->newidle && S->ops->newidle(S, cpu))
		return -1;
	if (c->curr || c->irq_pending)
		return 0;
	return hw_cpu_go_idle(S, cpu);
}
