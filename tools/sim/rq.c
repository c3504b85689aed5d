// SPDX-License-Identifier: GPL-2.0
/*
 * rq.c - run queues: running, queueing, preemption, task utilisation.
 *
 * Each CPU runs one task at a time from its queue.  Work is kept in
 * capacity x ns: a segment "run N" holds N * 1000 * 1024 units and drains
 * at cap_k units per ns at OPP k (so it takes N * 1024 / cap_k us);
 * "runtime N" drains at 1024 whatever the OPP.  By default the queues
 * follow 6.1's vruntime (below).  Under sim_set_preempt(SIM_PREEMPT_GRAN)
 * a queue is a FIFO: a task woken onto a busy CPU queues ahead of the
 * tasks already waiting (a sleeper's vruntime is behind theirs) and
 * preempts the running one once that has had 1 ms of its slice (wake-up
 * preemption); the tick rotates the running task to the back when others
 * wait (a 4 ms slice).
 *
 * DOC: vruntime preemption
 *
 * By default (SIM_PREEMPT_VRUNTIME, sim_set_preempt()) the run queues
 * follow 6.1's CFS for nice-0 tasks (every story task is nice 0, so vruntime advances
 * 1:1 with running time).  The sysctls are scaled as
 * get_update_sysctl_factor() scales them by default (tunable scaling LOG):
 * f = 1 + ilog2(min(CPUs, 8)), latency 6 f ms, min_granularity 0.75 f ms,
 * wakeup_granularity f ms; sched_nr_latency is 8.
 *
 *  - Each task has a vruntime, each CPU a min_vruntime that follows
 *    update_min_vruntime(): the least of the running task's and the
 *    leftmost queued one's, never moving back.  The queue is kept in
 *    vruntime order, equal keys after the ones present (the rbtree's
 *    order); the CPU runs its leftmost.
 *  - A woken task is placed by place_entity(): max(its vruntime,
 *    min_vruntime - latency / 2) (GENTLE_FAIR_SLEEPERS).  A forked task
 *    starts at min_vruntime + sched_vslice() (START_DEBIT), the parent's
 *    run queue counted with it.  A task that changes CPU keeps its
 *    vruntime relative to min_vruntime (migrate_task_rq_fair() for a
 *    wake-up; the balancer's detach and attach).
 *  - A task enqueued on a CPU that runs another (wake-up, fork or the
 *    balancer's attach) preempts it at once if the running one's vruntime
 *    exceeds its own by more than wakeup_granularity
 *    (wakeup_preempt_entity()); the CPU then runs it if it is within
 *    wakeup_granularity of the leftmost (the next buddy), else the
 *    leftmost.  Otherwise nothing happens until the tick.  While the
 *    target CPU is still leaving its idle state its task has not started:
 *    the CPU picks the leftmost when it is up.
 *  - The tick preempts the running task (check_preempt_tick()) once it has
 *    run more than sched_slice() since it was picked (the period of
 *    latency, or nr x min_granularity above sched_nr_latency tasks, over
 *    the nr tasks of the CPU), or at least min_granularity while its
 *    vruntime leads the leftmost's by more than that slice.
 *
 * Where 6.1 differs: the sim keeps no LAST_BUDDY (it applies only from
 * sched_nr_latency tasks on a CPU), and the rt-app parent's own vruntime
 * at the forks is taken to be its run queue's min_vruntime.
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

/* ---- SIM_PREEMPT_VRUNTIME ---- */

/* get_update_sysctl_factor() under the default tunable scaling (LOG). */
void rq_vr_init(struct sim *S)
{
	u32 n = S->m->nr_cpus < 8 ? S->m->nr_cpus : 8, f = 1;

	while (n >>= 1)
		f++;
	S->vr_latency = 6000000ull * f;
	S->vr_min_gran = 750000ull * f;
	S->vr_wake_gran = 1000000ull * f;
}

/* update_min_vruntime() */
static void vr_update_min(struct sim_cpu *c)
{
	s64 v = c->min_vr;

	if (c->curr)
		v = c->curr->vr;
	if (c->q_head && (!c->curr || c->q_head->vr < v))
		v = c->q_head->vr;
	if (v > c->min_vr)
		c->min_vr = v;
}

/* update_curr(): the running task's vruntime up to now, then min_vruntime. */
static void vr_update_curr(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];

	if (c->curr && S->now > c->vr_ns) {
		c->curr->vr += (s64)(S->now - c->vr_ns);
		c->vr_ns = S->now;
	}
	vr_update_min(c);
}

/* sched_slice() of a nice-0 task among @nr nice-0 tasks. */
static u64 vr_slice(const struct sim *S, u32 nr)
{
	u64 period = nr > 8 ? nr * S->vr_min_gran : S->vr_latency;
	u64 slice = period / (nr ? nr : 1);

	return slice > S->vr_min_gran ? slice : S->vr_min_gran;
}

/*
 * @t's vruntime as it is enqueued on @cpu: a fork (task_fork_fair()), a
 * wake-up (migrate_task_rq_fair(), place_entity()), or the balancer's
 * attach (rq_dequeue() made a queued task's vruntime relative; a running
 * one, active balance, is made relative here).
 */
static void vr_place(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu], *p;
	s64 floor;
	u32 nr;

	vr_update_curr(S, cpu);
	switch (t->state) {
	case SIM_T_NEW:
		p = &S->cpu[S->parent_cpu];
		nr = !!p->curr + p->nr_queued + S->forking + 1;
		t->vr = c->min_vr + (s64)vr_slice(S, nr);
		break;
	case SIM_T_SLEEPING:
		if (t->cpu >= 0 && (u32)t->cpu != cpu)
			t->vr += c->min_vr - S->cpu[t->cpu].min_vr;
		floor = c->min_vr - (s64)(S->vr_latency / 2);
		if (t->vr < floor)
			t->vr = floor;
		break;
	case SIM_T_QUEUED:
		t->vr += c->min_vr;
		break;
	default:
		t->vr += c->min_vr - S->cpu[t->cpu].min_vr;
	}
}

/* Insert @t into @cpu's queue in vruntime order, after equal keys. */
static void vr_q_insert(struct sim_cpu *c, struct sim_task *t)
{
	struct sim_task **pp = &c->q_head, *last = NULL;

	while (*pp && (*pp)->vr <= t->vr) {
		last = *pp;
		pp = &(*pp)->rq_next;
	}
	t->rq_next = *pp;
	*pp = t;
	if (c->q_tail == last)
		c->q_tail = t;
}

/* pick_next_entity(): the next buddy if within wakeup_granularity, else the leftmost. */
static struct sim_task *vr_pick(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task *t = c->q_head, *b = c->next_buddy;

	c->next_buddy = NULL;
	if (b && b != t && b->state == SIM_T_QUEUED && b->cpu == (s32)cpu &&
	    b->vr - t->vr <= (s64)S->vr_wake_gran)
		t = b;
	if (t)
		rq_q_del(S, cpu, t);
	return t;
}

/* Bring the running task's work and utilisation up to now. */
void rq_progress(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 t0 = c->prog_ns > c->run_start ? c->prog_ns : c->run_start;
	u32 rate;
	u64 done;

	if (S->vrt)
		vr_update_curr(S, cpu);
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
	c->vr_ns = start;
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
	if (!S->vrt && c->q_head && c->q_head->waking) {	/* more wake-ups wait: preempt */
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
	if (S->vrt)
		vr_q_insert(c, t);
	else if (c->q_tail)
		c->q_tail->rq_next = t;
	else
		c->q_head = t;
	if (!S->vrt)
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

/*
 * Take queued @t off @cpu: it leaves the CPU (the balancer moves it); its
 * vruntime becomes relative to the CPU's min_vruntime (dequeue_entity()).
 */
void rq_dequeue(struct sim *S, u32 cpu, struct sim_task *t)
{
	if (S->vrt) {
		vr_update_curr(S, cpu);
		t->vr -= S->cpu[cpu].min_vr;
	}
	rq_q_del(S, cpu, t);
	rq_nr_sync(S, cpu);
}

/*
 * Run the first waiting task of @cpu, the current one goes to the back
 * (SIM_PREEMPT_VRUNTIME: back into the queue by its vruntime, and the CPU
 * runs its pick, which may be the current one again).
 */
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
	return rq_start_run(S, cpu, S->vrt ? vr_pick(S, cpu) : rq_q_pop(S, cpu), S->now);
}

/*
 * The tick's round-robin: after a 4 ms slice when others wait, or
 * (SIM_PREEMPT_VRUNTIME) check_preempt_tick().
 */
int rq_tick(struct sim *S, u32 cpu)
{
	struct sim_cpu *c = &S->cpu[cpu];
	u64 ran, ideal;

	rq_progress(S, cpu);
	if (!S->vrt)
		return c->curr && c->nr_queued && S->now - c->slice_start >= SIM_TICK_NS ?
		       rq_rotate(S, cpu) : 0;
	if (!c->curr || !c->nr_queued || S->now < c->slice_start)
		return 0;
	ran = S->now - c->slice_start;
	ideal = vr_slice(S, 1 + c->nr_queued);
	if (ran > ideal) {
		c->next_buddy = NULL;	/* clear_buddies() */
		return rq_rotate(S, cpu);
	}
	if (ran < S->vr_min_gran || c->curr->vr - c->q_head->vr <= (s64)ideal)
		return 0;
	return rq_rotate(S, cpu);
}

/*
 * check_preempt_curr() for @t, just queued on @cpu: wakeup_preempt_entity()
 * against the running task, or, while the CPU is still leaving its idle
 * state, the pick once it is up.
 */
static int vr_check_preempt(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];

	if (S->now < c->run_start) {
		c->preempt_gen++;
		return evq_push(S, c->run_start, EV_PREEMPT, cpu, c->preempt_gen, 0);
	}
	if (c->curr->vr - t->vr <= (s64)S->vr_wake_gran)
		return 0;
	c->next_buddy = t;
	return rq_rotate(S, cpu);
}

static int q_add_waking(struct sim *S, u32 cpu, struct sim_task *t)
{
	struct sim_cpu *c = &S->cpu[cpu];
	struct sim_task **pp = &c->q_head, *last = NULL;
	u64 at;

	if (S->vrt) {
		rq_q_add(S, cpu, t);
		return vr_check_preempt(S, cpu, t);
	}
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

	if (S->vrt)
		vr_place(S, cpu, t);
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
	if (S->vrt)
		vr_update_min(c);
	t = S->vrt ? vr_pick(S, cpu) : rq_q_pop(S, cpu);
	if (t)
		return rq_start_run(S, cpu, t, S->now);
	if (S->ops->newidle && S->ops->newidle(S, cpu))
		return -1;
	if (c->curr || c->irq_pending)
		return 0;
	return hw_cpu_go_idle(S, cpu);
}
