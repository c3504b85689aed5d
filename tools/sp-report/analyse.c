// SPDX-License-Identifier: GPL-2.0
/*
 * analyse.c - decisions, tasks, wake-up latency and idle verdicts.
 *
 * DOC: what is counted
 *
 * Decisions are sched_power_select events.  An override is a decision
 * whose returned CPU replaced CFS's: in the 0.2 event format
 * applied=1 && ret_cpu != cfs_cpu, in the older one chosen_cpu != cfs_cpu
 * (chosen_cpu was the returned CPU); these are what stats counts as
 * decisions and overrides.  saved is the model's own estimate of an
 * override, cfs_nj - chosen_nj, summed; the difference and the sum stop at
 * the ends of int64_t instead of wrapping (a corrupt record can hold any
 * value).
 *
 * Wake-up latency of a task is the time from sched:sched_waking (or
 * sched:sched_wakeup_new) to the sched:sched_switch that puts it on a CPU.
 * A waking of a task that is running (the kernel's ttwu_runnable path)
 * starts no latency.  A task's CPUs are those it was switched in on, and a
 * migration is a switch-in on another CPU than its previous one.
 *
 * Idle verdicts are the module's own (sched_power_idle events), per idle
 * state name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int rep_vec_push(struct rep_vec *v, uint64_t x)
{
	if (v->nr == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		uint64_t *p = realloc(v->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		v->v = p;
		v->cap = cap;
	}
	v->v[v->nr++] = x;
	return 0;
}

static int rep_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank percentile @pct (1..100) of @v; sorts @v; 0 if empty. */
uint64_t rep_pct_ns(struct rep_vec *v, uint32_t pct)
{
	size_t rank;

	if (!v->nr)
		return 0;
	qsort(v->v, v->nr, sizeof(*v->v), rep_u64_cmp);
	rank = (v->nr * pct + 99) / 100;
	return v->v[rank ? rank - 1 : 0];
}

bool rep_is_override(const struct rep_trace *t, const struct rep_select *s)
{
	if (s->ret_cpu < 0 || s->cfs_cpu < 0 || s->ret_cpu == s->cfs_cpu)
		return false;
	if (t->fmt.has_applied)
		return s->applied == 1;
	return true;
}

/* ---- tasks ------------------------------------------------------------- */

struct rep_task_index {
	size_t *slot;		/* index + 1 into r->tasks, 0 = empty */
	size_t size;		/* power of two */
};

static size_t rep_hash(int32_t pid, size_t size)
{
	return ((uint32_t)pid * 2654435761u) & (size - 1);
}

static int rep_index_grow(struct rep_task_index *ix, const struct rep_result *r)
{
	size_t size = ix->size ? ix->size * 2 : 1024, i;
	size_t *slot = calloc(size, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < r->nr_tasks; i++) {
		size_t h = rep_hash(r->tasks[i].pid, size);

		while (slot[h])
			h = (h + 1) & (size - 1);
		slot[h] = i + 1;
	}
	free(ix->slot);
	ix->slot = slot;
	ix->size = size;
	return 0;
}

static struct rep_task *rep_task_get(struct rep_result *r, struct rep_task_index *ix,
				     int32_t pid)
{
	struct rep_task *tk;
	size_t h;

	if (pid <= 0)
		return NULL;	/* the idle task, or a field that was missing */
	if ((r->nr_tasks + 1) * 2 > ix->size && rep_index_grow(ix, r))
		return NULL;
	for (h = rep_hash(pid, ix->size); ix->slot[h]; h = (h + 1) & (ix->size - 1))
		if (r->tasks[ix->slot[h] - 1].pid == pid)
			return &r->tasks[ix->slot[h] - 1];
	if (r->nr_tasks == r->cap_tasks) {
		size_t cap = r->cap_tasks ? r->cap_tasks * 2 : 256;
		struct rep_task *p = realloc(r->tasks, cap * sizeof(*p));

		if (!p)
			return NULL;
		r->tasks = p;
		r->cap_tasks = cap;
	}
	tk = &r->tasks[r->nr_tasks];
	memset(tk, 0, sizeof(*tk));
	tk->pid = pid;
	tk->last_cpu = REP_NONE;
	ix->slot[h] = ++r->nr_tasks;
	return tk;
}

static void rep_set_comm(struct rep_task *tk, const char *comm)
{
	if (comm[0])
		snprintf(tk->comm, sizeof(tk->comm), "%s", comm);
}

/* ---- one pass over the events ------------------------------------------- */

/* @a + @b, or the int64_t end it passes. */
static int64_t rep_add_sat(int64_t a, int64_t b)
{
	int64_t v;

	if (!__builtin_add_overflow(a, b, &v))
		return v;
	return b > 0 ? INT64_MAX : INT64_MIN;
}

/* @a - @b, or the int64_t end it passes. */
static int64_t rep_sub_sat(int64_t a, int64_t b)
{
	int64_t v;

	if (!__builtin_sub_overflow(a, b, &v))
		return v;
	return b < 0 ? INT64_MAX : INT64_MIN;
}

static void rep_count_add(struct rep_count *c, bool ovr, int64_t saved_nj)
{
	c->decisions++;
	if (ovr) {
		c->overrides++;
		c->saved_nj = rep_add_sat(c->saved_nj, saved_nj);
	}
}

static int rep_on_select(struct rep_result *r, struct rep_task_index *ix,
			 const struct rep_select *s)
{
	const struct rep_trace *t = r->t;
	bool ovr = rep_is_override(t, s);
	int64_t saved = rep_sub_sat(s->cfs_nj, s->chosen_nj);
	struct rep_task *tk;

	rep_count_add(&r->total, ovr, saved);
	rep_count_add(&r->by_reason[s->reason % REP_MAX_NAMES], ovr, saved);
	rep_count_add(&r->by_mode[s->mode % REP_MAX_NAMES], ovr, saved);
	rep_count_add(&r->by_wake[s->wake % REP_MAX_NAMES], ovr, saved);
	if (s->lat_bound_us > 0)
		r->bounded++;
	if (!strcmp(rep_name(&t->reasons, s->reason), "latency_bound"))
		r->reason_latency_bound++;
	tk = rep_task_get(r, ix, s->pid);
	if (!tk)
		return s->pid > 0 ? -ENOMEM : 0;
	if (!tk->comm[0])
		rep_set_comm(tk, s->comm);
	tk->decisions++;
	tk->overrides += ovr;
	tk->util_sum += s->util > 0 ? (uint64_t)s->util : 0;
	tk->bound_us = s->lat_bound_us;
	return 0;
}

static int rep_on_waking(struct rep_result *r, struct rep_task_index *ix,
			 const struct rep_event *e)
{
	struct rep_task *tk = rep_task_get(r, ix, e->wk.pid);

	if (!tk)
		return e->wk.pid > 0 ? -ENOMEM : 0;
	rep_set_comm(tk, e->wk.comm);
	if (!tk->running && !tk->waking_ns)
		tk->waking_ns = e->ts_ns ? e->ts_ns : 1;
	return 0;
}

static int rep_on_switch_in(struct rep_result *r, struct rep_task *tk,
			    const struct rep_event *e)
{
	uint32_t cpu = (uint32_t)e->cpu;
	uint64_t lat;

	rep_set_comm(tk, e->sw.next_comm);
	tk->running = true;
	if (cpu < SP_MAX_CPUS) {
		tk->cpus[cpu / 64] |= 1ull << (cpu % 64);
		if (tk->last_cpu != REP_NONE && (uint32_t)tk->last_cpu != cpu)
			tk->migrations++;
		tk->last_cpu = (int32_t)cpu;
	}
	if (!tk->waking_ns)
		return 0;
	lat = e->ts_ns > tk->waking_ns ? e->ts_ns - tk->waking_ns : 0;
	tk->waking_ns = 0;
	if (tk->bound_us > 0) {
		r->bound_measured++;
		if (lat > (uint64_t)tk->bound_us * 1000) {
			r->bound_measured_violations++;
			tk->bound_missed++;
		}
	}
	if (rep_vec_push(&tk->lat_ns, lat) || rep_vec_push(&r->all_lat_ns, lat))
		return -ENOMEM;
	return 0;
}

static int rep_on_switch(struct rep_result *r, struct rep_task_index *ix,
			 const struct rep_event *e)
{
	struct rep_task *prev = rep_task_get(r, ix, e->sw.prev_pid);
	struct rep_task *next;

	if (prev)
		prev->running = false;
	next = rep_task_get(r, ix, e->sw.next_pid);
	if (!next)
		return e->sw.next_pid > 0 ? -ENOMEM : 0;
	return rep_on_switch_in(r, next, e);
}

static void rep_on_sp_idle(struct rep_result *r, const struct rep_event *e,
			   const struct sp_model *m)
{
	const struct rep_trace *t = r->t;
	const char *vname = rep_name(&t->verdicts, (uint32_t)e->spi.verdict);
	char name[SP_NAME_LEN];
	struct rep_state_verdict *vs = NULL;
	uint32_t i, v;
	int32_t cpu = e->spi.cpu, st = e->spi.state;

	if (m && cpu >= 0 && (uint32_t)cpu < m->nr_cpus && st >= 0 &&
	    (uint32_t)st < m->pd[m->cpu_pd[cpu]].nr_idle)
		snprintf(name, sizeof(name), "%s", m->pd[m->cpu_pd[cpu]].idle[st].name);
	else
		snprintf(name, sizeof(name), "state%d", (int)st);
	for (i = 0; i < r->nr_vstates; i++)
		if (!strcmp(r->vstate[i].name, name))
			vs = &r->vstate[i];
	if (!vs) {
		if (r->nr_vstates == SP_MAX_IDLE)
			return;
		vs = &r->vstate[r->nr_vstates++];
		snprintf(vs->name, sizeof(vs->name), "%s", name);
		vs->target_us = e->spi.target_us;
	}
	for (v = 0; v < SP_V_NR; v++)
		if (!strcmp(vname, sp_verdict_names[v]))
			break;
	vs->entries++;
	vs->residency_us += e->spi.residency_us;
	if (v < SP_V_NR) {
		vs->verdict[v]++;
		r->verdict_total[v]++;
	}
}

static int rep_pass(struct rep_result *r, const struct sp_model *m)
{
	struct rep_task_index ix = { 0 };
	const struct rep_trace *t = r->t;
	size_t i;
	int ret = 0;

	for (i = 0; i < t->nr && !ret; i++) {
		const struct rep_event *e = &t->ev[i];

		if (e->ts_ns < r->start_ns || e->ts_ns > r->end_ns)
			continue;	/* outside --window */
		switch (e->kind) {
		case REP_EV_SELECT:
			ret = rep_on_select(r, &ix, &e->sel);
			break;
		case REP_EV_WAKING:
		case REP_EV_WAKEUP_NEW:
			ret = rep_on_waking(r, &ix, e);
			break;
		case REP_EV_SWITCH:
			ret = rep_on_switch(r, &ix, e);
			break;
		case REP_EV_SP_IDLE:
			rep_on_sp_idle(r, e, m);
			break;
		default:
			break;
		}
	}
	free(ix.slot);
	return ret;
}

/* libtracecmd hands records in time order; if not, a stable merge sort. */
static int rep_sort(struct rep_trace *t)
{
	struct rep_event *tmp, *src = t->ev, *dst;
	size_t i, w;

	for (i = 1; i < t->nr; i++)
		if (t->ev[i].ts_ns < t->ev[i - 1].ts_ns)
			break;
	if (i >= t->nr)
		return 0;
	tmp = malloc(t->nr * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (w = 1; w < t->nr; w *= 2) {
		for (i = 0; i < t->nr; i += 2 * w) {
			size_t a = i, am = i + w < t->nr ? i + w : t->nr;
			size_t b = am, bm = i + 2 * w < t->nr ? i + 2 * w : t->nr, k = i;

			while (a < am && b < bm)
				dst[k++] = src[b].ts_ns < src[a].ts_ns ? src[b++] : src[a++];
			while (a < am)
				dst[k++] = src[a++];
			while (b < bm)
				dst[k++] = src[b++];
		}
		tmp = src;
		src = dst;
		dst = tmp;
	}
	if (src != t->ev)
		memcpy(t->ev, src, t->nr * sizeof(*src));
	free(src == t->ev ? dst : src);
	return 0;
}

/*
 * DOC: the work timeline
 *
 * Under TCG the host's load slows the guest: the same loops of rt-app took
 * 1 to 4 times their calibrated time from run to run on a shared host (up to
 * 12 times single-threaded), and
 * every busy stretch of the guest grows with it, and with them each
 * package's awake time and the energy charged for it.  --slowdown S (a
 * run's measured over configured run time, from rt-app's own logs) puts the
 * recording on the timeline of the calibrated speed before the replay: each
 * busy stretch (an idle exit to the next idle entry on that CPU) is
 * shortened to 1/S of its length, its entry moved earlier; idle exits, that
 * is the timers and wake-ups that start the work, stay where they were.  The
 * replay's energy, package wake-ups and awake shares are then those of the
 * work, not of the host's load.  S below 1 changes nothing (a stretch is
 * never lengthened into the next one); events other than power:cpu_idle keep
 * their times, so wake-up latencies and migrations are what was measured.
 */
static void rep_warp(struct rep_trace *t, double slowdown)
{
	uint64_t busy_since[SP_MAX_CPUS];
	bool busy[SP_MAX_CPUS] = { false };
	size_t i;

	if (!(slowdown > 1.0))
		return;
	for (i = 0; i < t->nr; i++) {
		struct rep_event *e = &t->ev[i];
		int32_t cpu = e->pw.cpu;

		if (e->kind != REP_EV_CPU_IDLE || cpu < 0 || cpu >= SP_MAX_CPUS)
			continue;
		if (e->pw.value == REP_IDLE_EXIT) {
			busy_since[cpu] = e->ts_ns;
			busy[cpu] = true;
		} else if (busy[cpu]) {
			e->ts_ns = busy_since[cpu] +
				   (uint64_t)((double)(e->ts_ns - busy_since[cpu]) / slowdown);
			busy[cpu] = false;
		}
	}
}

/* The first marker containing @text at or after @from_ns, or NULL. */
static const struct rep_event *rep_marker(const struct rep_trace *t, const char *text,
					  uint64_t from_ns)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->ev[i].kind == REP_EV_MARKER && t->ev[i].ts_ns >= from_ns &&
		    strstr(t->ev[i].mark, text))
			return &t->ev[i];
	return NULL;
}

/* --span FROM,TO, or --window FROM,TO: the span between two trace_marker lines. */
static int rep_window(struct rep_result *r, const struct rep_trace *t)
{
	const struct rep_event *a, *b;

	if (r->span_to_ns) {
		r->start_ns = r->span_from_ns;
		r->end_ns = r->span_to_ns;
		return 0;
	}
	if (!r->win_from)
		return 0;
	a = rep_marker(t, r->win_from, 0);
	b = a ? rep_marker(t, r->win_to, a->ts_ns) : NULL;
	if (!a || !b)
		return -ENOENT;
	r->start_ns = a->ts_ns;
	r->end_ns = b->ts_ns;
	return 0;
}

int rep_analyse(struct rep_result *r, struct rep_trace *t, const struct sp_model *m)
{
	int ret;

	r->t = t;
	ret = rep_sort(t);
	if (ret)
		return ret;
	if (m) {
		ret = rep_awake_timeline(r, t, m);
		if (ret)
			return ret;
	}
	if (r->slowdown > 1.0) {
		rep_warp(t, r->slowdown);
		ret = rep_sort(t);
		if (ret)
			return ret;
	}
	r->nr_cpus = t->nr_cpus;
	if (t->nr) {
		r->start_ns = t->ev[0].ts_ns;
		r->end_ns = t->ev[t->nr - 1].ts_ns;
	}
	ret = rep_window(r, t);
	if (ret)
		return ret;
	ret = rep_pass(r, m);
	if (ret)
		return ret;
	return m ? rep_replay(r, t, m, 200) : 0;
}

void rep_result_free(struct rep_result *r)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++)
		free(r->tasks[i].lat_ns.v);
	free(r->tasks);
	free(r->all_lat_ns.v);
	free(r->segs);
	free(r->samples);
	free(r->flips);
	r->flips = NULL;
	r->nr_flips = r->cap_flips = 0;
	r->awake_known = false;
	r->tasks = NULL;
	r->segs = NULL;
	r->samples = NULL;
	r->all_lat_ns.v = NULL;
	r->nr_tasks = r->nr_segs = r->nr_samples = 0;
}
