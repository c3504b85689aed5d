// SPDX-License-Identifier: GPL-2.0
/*
 * counts.c - the mechanism counts of one recording, in one line (--counts).
 *
 * DOC: mechanism counts
 *
 * power-bench records each run in the guest and asks sp-report, on the
 * host, what the run did: how often packages woke, how long each was
 * awake and how long all were awake at once, how often the story's threads
 * moved between packages, how long their wake-ups waited, and what the
 * estimator (replay.c) says the run cost.  The counts cover the span W
 * (--span, the first to the last row of rt-app's logs; else --window or the
 * whole recording) and the story's threads (--comm; else every task).
 *
 * Story threads: a pid is one from the first event that shows it with one
 * of the names (comm, 15 characters) on.  Every event is read for state
 * (running, pending wake-up, last CPU), but only events inside W count.
 *
 * Wake-ups: a sched_waking of a story thread in W that is not running (the
 * last sched_switch did not put it on a CPU) and has no wake-up pending; its
 * latency runs to the sched_switch that puts it on a CPU, even after W.
 * Forks are not wake-ups.
 *
 * Migrations: from sched_migrate_task when the recording has it, with
 * orig_cpu != dest_cpu (6.1 also fires it for equal CPUs).  The event is
 * the kernel's set_task_cpu(), the simulator's definition; it names both
 * CPUs, so a task moved twice while queued counts twice and a recording that
 * starts mid-flight needs no earlier state.  Without it, a switch-in on
 * another CPU than the thread's previous switch-in counts: the net moves
 * between runs only.  migr_src says which.  A move is between packages when
 * the two CPUs lie in different packages (replay.c's DOC: packages).
 *
 * Run shares: the story threads' time on a CPU (switch-in to switch-out,
 * cut to W) per package, over their total: where the story's work ran (on
 * the big.LITTLE board, the big or the LITTLE cluster).
 *
 * prev_pkg_share: of the wake-ups, the share placed in prev_cpu's package;
 * from sched_power_select (wake=wakeup, ret_cpu against prev_cpu) when the
 * module traced decisions, else from sched_waking's target_cpu (prev_cpu)
 * against the next sched_wakeup's; both are printed when both exist.
 *
 * DOC: wake-ups that queue
 *
 * The project's rule is that a wake-up never waits behind a running task
 * while a CPU idles in an awake package.  The simulator counts the wake-ups
 * that queue and where a CPU idled meanwhile (tools/sim/sim.c,
 * note_wake()), tools/sim/validate/wake-choices.awk the same in a text
 * trace of the kernel; these are the same counts from a recording, over
 * the wake-ups above, and the rule's own.
 *
 * A wake-up is judged once, at its decision: the first sched_power_select
 * of the thread with wake=wakeup after its sched_waking, where the CPU is
 * ret_cpu (what the kernel got); without one (no module, or a wake-up that
 * never reaches select_task_rq_fair()), its sched_wakeup, where the CPU is
 * target_cpu.  The state of the CPUs is the one at that event:
 *
 * - a CPU is idle while the last sched_switch on it put the idle task (pid
 *   0) on it and no task is on its way to it; a CPU before its first
 *   sched_switch is not known, and a wake-up placed on it is not judged
 *   (wake_judged counts those judged);
 * - a task is on its way to a CPU from the event that puts it there to its
 *   next switch-in: a sched_power_select with wake=wakeup (ret_cpu), a
 *   sched_wakeup or sched_wakeup_new (target_cpu), a sched_migrate_task
 *   (dest_cpu) of a task that is not running; every task counts, not only
 *   the story's (the kernel's available_idle_cpu(): nothing running,
 *   nothing queued, no wake-up pending).
 *
 * wake_queued counts the wake-ups placed on a CPU that is not idle: it
 * runs a task or one is on its way there.  Of those, as the simulator
 * splits them: wake_queued_idle_pkg, while another CPU of the same package
 * was idle; wake_queued_idle_far, while none of its package was but one of
 * another package was.  And the rule's own count,
 * wake_queued_idle_awake_pkg: while some other CPU was idle in a package
 * that was awake.  Awake is the notion of pkgN_awake_share (replay.c, DOC:
 * packages): at least one CPU of the package out of its deepest idle state,
 * by power:cpu_idle; but on the recorded clock, before --slowdown moves the
 * idle entries (the queueing happened in guest time).  A recording says
 * nothing of a thread's affinity: every CPU counts as allowed
 * (power-bench's stories are not pinned: pb-story drops "cpus").  Each
 * wake_queued_idle_awake_pkg is counted by the reason of its decision
 * (sched_power_select's reason, "ttwu" when judged at sched_wakeup); how
 * it ended (the thread's next switch-in on the CPU it was placed on:
 * waited; on another: moved), its latency (as lat_p99_us's, and how many
 * of them exceed the run's lat_p99_us); and, by the gate's reason, the
 * sched_power_balance events while it waited on the CPUs that were idle in
 * an awake package at its decision (each event once, however many such
 * wake-ups wait).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct rep_cthread {
	int32_t pid;
	bool story, running;
	int32_t waking_cpu;		/* prev_cpu of a counted waking, -1 none */
	int32_t last_cpu;		/* CPU of its last switch-in, -1 none */
	uint64_t pending_ns;		/* waking time of a counted wake-up, 0 none */
	uint64_t run_from_ns;		/* its switch-in while running, 0 none */
	int32_t target;			/* the CPU it is on its way to, -1 none */
	bool judge;			/* a counted wake-up whose decision is to come */
	int32_t defect_cpu;		/* placed there, queued beside an awake idle CPU; -1 */
	uint64_t defect_ns;		/* that decision's time */
	uint64_t defect_idle[(SP_MAX_CPUS + 63) / 64];	/* the awake idle CPUs then */
};

struct rep_cmap {
	struct rep_cthread *slot;
	size_t size, nr;		/* size: a power of two */
};

struct rep_cpass {
	struct rep_counts *c;
	const struct rep_result *r;
	const struct sp_model *m;
	uint32_t pkg_level;
	const char *comms;		/* ",a,b," or NULL for every task */
	struct rep_cmap map;
	uint64_t sw_migr, sw_xpkg;	/* switch-in CPU changes */
	int32_t curr[SP_MAX_CPUS];	/* the pid on each CPU: 0 idle, -1 not known */
	uint32_t on_way[SP_MAX_CPUS];	/* tasks on their way to each CPU */
	bool awake[SP_MAX_GROUPS];	/* each package, at the flip cursor */
	size_t flip;			/* the next of r->flips to apply */
	uint32_t defect_watch[SP_MAX_CPUS];	/* open defects that had each CPU idle */
};

static size_t rep_chash(int32_t pid, size_t size)
{
	return ((uint32_t)pid * 2654435761u) & (size - 1);
}

static int rep_cmap_grow(struct rep_cmap *mp)
{
	size_t size = mp->size ? mp->size * 2 : 256, i, h;
	struct rep_cthread *slot = calloc(size, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < mp->size; i++) {
		if (!mp->slot[i].pid)
			continue;
		for (h = rep_chash(mp->slot[i].pid, size); slot[h].pid; h = (h + 1) & (size - 1))
			;
		slot[h] = mp->slot[i];
	}
	free(mp->slot);
	mp->slot = slot;
	mp->size = size;
	return 0;
}

/* The thread @pid, created on first sight; NULL for pid <= 0 or no memory. */
static struct rep_cthread *rep_cthread(struct rep_cpass *p, int32_t pid)
{
	struct rep_cmap *mp = &p->map;
	struct rep_cthread *th;
	size_t h;

	if (pid <= 0)
		return NULL;
	if ((mp->nr + 1) * 2 > mp->size && rep_cmap_grow(mp))
		return NULL;
	for (h = rep_chash(pid, mp->size); mp->slot[h].pid; h = (h + 1) & (mp->size - 1))
		if (mp->slot[h].pid == pid)
			return &mp->slot[h];
	th = &mp->slot[h];
	th->pid = pid;
	th->waking_cpu = th->last_cpu = th->target = th->defect_cpu = -1;
	th->story = !p->comms;
	mp->nr++;
	return th;
}

/* Marks @th a story thread if @comm is one of the names. */
static void rep_cnote(const struct rep_cpass *p, struct rep_cthread *th, const char *comm)
{
	char key[REP_COMM_LEN + 2];

	if (th->story || !comm[0])
		return;
	snprintf(key, sizeof(key), ",%.*s,", REP_COMM_LEN - 1, comm);
	th->story = strstr(p->comms, key) != NULL;
}

static bool rep_cin(const struct rep_cpass *p, uint64_t ts)
{
	return ts >= p->r->start_ns && ts <= p->r->end_ns;
}

/* Package index of @cpu in the model, -1 if the model does not have it. */
static int32_t rep_cpkg(const struct rep_cpass *p, int32_t cpu)
{
	const struct sp_model *m = p->m;
	uint32_t g;

	if (!m || !m->nr_levels || cpu < 0 || (uint32_t)cpu >= m->nr_cpus)
		return -1;
	g = m->cpu_group[p->pkg_level][cpu];
	return g < m->nr_groups ? (int32_t)(g - m->level[p->pkg_level].first_group) : -1;
}

static bool rep_csame_pkg(const struct rep_cpass *p, int32_t a, int32_t b)
{
	int32_t pa = rep_cpkg(p, a), pb = rep_cpkg(p, b);

	return pa >= 0 && pa == pb;
}

static bool rep_cother_pkg(const struct rep_cpass *p, int32_t a, int32_t b)
{
	int32_t pa = rep_cpkg(p, a), pb = rep_cpkg(p, b);

	return pa >= 0 && pb >= 0 && pa != pb;
}

static bool rep_cvalid(int32_t cpu)
{
	return cpu >= 0 && cpu < SP_MAX_CPUS;
}

static bool rep_cidle(const struct rep_cpass *p, int32_t cpu)
{
	return p->curr[cpu] == 0 && !p->on_way[cpu];
}

/* @th is on its way to @cpu from now on (-1: to none). */
static void rep_cplace(struct rep_cpass *p, struct rep_cthread *th, int32_t cpu)
{
	if (th->target >= 0)
		p->on_way[th->target]--;
	th->target = rep_cvalid(cpu) ? cpu : -1;
	if (th->target >= 0)
		p->on_way[th->target]++;
}

/* The packages' awake states at @ts_ns, from the replay's flips. */
static void rep_cflips(struct rep_cpass *p, uint64_t ts_ns)
{
	const struct rep_result *r = p->r;

	for (; p->flip < r->nr_flips && r->flips[p->flip].ts_ns <= ts_ns; p->flip++)
		if (r->flips[p->flip].pkg < SP_MAX_GROUPS)
			p->awake[r->flips[p->flip].pkg] = r->flips[p->flip].awake;
}

/* @th's defect (if any) ends at its switch-in on @cpu at @ts_ns. */
static int rep_cdefect_end(struct rep_cpass *p, struct rep_cthread *th, int32_t cpu,
			   uint64_t ts_ns)
{
	uint64_t from = th->pending_ns ? th->pending_ns : th->defect_ns;
	uint32_t x;

	if (th->defect_cpu < 0)
		return 0;
	for (x = 0; x < SP_MAX_CPUS; x++)
		if (th->defect_idle[x / 64] & (1ull << (x % 64)))
			p->defect_watch[x]--;
	memset(th->defect_idle, 0, sizeof(th->defect_idle));
	p->c->awake_waited += cpu == th->defect_cpu;
	p->c->awake_moved += cpu != th->defect_cpu;
	th->defect_cpu = -1;
	return rep_vec_push(&p->c->awake_lat_ns, ts_ns > from ? ts_ns - from : 0);
}

static void rep_con_balance(struct rep_cpass *p, const struct rep_event *e)
{
	if (rep_cvalid(e->lb.cpu) && p->defect_watch[e->lb.cpu] && e->lb.reason < REP_MAX_NAMES)
		p->c->awake_lb[e->lb.reason]++;
}

/* A wake-up of @th placed on @cpu at @e, decided for @reason (the DOC block). */
static void rep_cjudge(struct rep_cpass *p, struct rep_cthread *th, const struct rep_event *e,
		       int32_t cpu, uint32_t reason)
{
	uint64_t idle_awake[(SP_MAX_CPUS + 63) / 64] = { 0 };
	struct rep_counts *c = p->c;
	bool same = false, far = false, awake = false;
	int32_t x, pc, px;

	if (!rep_cvalid(cpu) || p->curr[cpu] < 0)
		return;
	c->wake_judged++;
	if (rep_cidle(p, cpu))
		return;
	c->wake_queued++;
	rep_cflips(p, e->ts_ns);
	pc = rep_cpkg(p, cpu);
	for (x = 0; x < SP_MAX_CPUS; x++) {
		if (x == cpu || !rep_cidle(p, x))
			continue;
		px = rep_cpkg(p, x);
		if (px < 0)
			continue;
		same |= px == pc;
		far |= pc >= 0 && px != pc;
		if (px < SP_MAX_GROUPS && p->awake[px]) {
			awake = true;
			idle_awake[x / 64] |= 1ull << (x % 64);
		}
	}
	c->wake_queued_idle_pkg += same;
	c->wake_queued_idle_far += !same && far;
	if (!awake)
		return;
	c->wake_queued_idle_awake_pkg++;
	c->awake_by_reason[reason < REP_MAX_NAMES ? reason : REP_MAX_NAMES]++;
	if (th->defect_cpu >= 0)
		return;		/* still open: its switch-in was not seen */
	th->defect_cpu = cpu;
	th->defect_ns = e->ts_ns;
	memcpy(th->defect_idle, idle_awake, sizeof(idle_awake));
	for (x = 0; x < SP_MAX_CPUS; x++)
		if (idle_awake[x / 64] & (1ull << (x % 64)))
			p->defect_watch[x]++;
}

static int rep_con_waking(struct rep_cpass *p, const struct rep_event *e)
{
	struct rep_cthread *th = rep_cthread(p, e->wk.pid);

	if (!th)
		return e->wk.pid > 0 ? -ENOMEM : 0;
	rep_cnote(p, th, e->wk.comm);
	if (!th->story || !rep_cin(p, e->ts_ns) || th->running || th->pending_ns)
		return 0;
	th->pending_ns = e->ts_ns ? e->ts_ns : 1;
	th->waking_cpu = e->wk.target_cpu;
	th->judge = true;
	p->c->wakeups++;
	return 0;
}

static int rep_con_wakeup(struct rep_cpass *p, const struct rep_event *e)
{
	struct rep_cthread *th = rep_cthread(p, e->wk.pid);

	if (!th)
		return e->wk.pid > 0 ? -ENOMEM : 0;
	if (th->judge)
		rep_cjudge(p, th, e, e->wk.target_cpu, REP_MAX_NAMES);
	th->judge = false;
	if (e->kind == REP_EV_WAKEUP_NEW)
		rep_cnote(p, th, e->wk.comm);
	if (!th->running)
		rep_cplace(p, th, e->wk.target_cpu);
	if (th->waking_cpu < 0 || e->kind != REP_EV_WAKEUP)
		return 0;
	p->c->ttwu_n++;
	p->c->ttwu_same += rep_csame_pkg(p, th->waking_cpu, e->wk.target_cpu);
	th->waking_cpu = -1;
	return 0;
}

/* A story thread ran on @cpu from @from to @to: its part in W, per package. */
static void rep_crun(struct rep_cpass *p, int32_t cpu, uint64_t from, uint64_t to)
{
	int32_t pkg = rep_cpkg(p, cpu);

	if (from < p->r->start_ns)
		from = p->r->start_ns;
	if (to > p->r->end_ns)
		to = p->r->end_ns;
	if (pkg < 0 || to <= from)
		return;
	p->c->run_ns[pkg] += to - from;
	p->c->run_total_ns += to - from;
}

static int rep_con_switch(struct rep_cpass *p, const struct rep_event *e)
{
	struct rep_cthread *prev = rep_cthread(p, e->sw.prev_pid), *next;
	uint64_t lat;

	if (rep_cvalid(e->cpu))
		p->curr[e->cpu] = e->sw.next_pid;
	if (prev) {
		prev->running = false;
		if (prev->story && prev->run_from_ns)
			rep_crun(p, e->cpu, prev->run_from_ns, e->ts_ns);
		prev->run_from_ns = 0;
	}
	next = rep_cthread(p, e->sw.next_pid);
	if (!next)
		return e->sw.next_pid > 0 ? -ENOMEM : 0;
	rep_cnote(p, next, e->sw.next_comm);
	next->running = true;
	next->judge = false;
	rep_cplace(p, next, -1);
	if (rep_cdefect_end(p, next, e->cpu, e->ts_ns))
		return -ENOMEM;
	next->run_from_ns = e->ts_ns ? e->ts_ns : 1;
	if (next->story && rep_cin(p, e->ts_ns) && next->last_cpu >= 0 &&
	    next->last_cpu != e->cpu) {
		p->sw_migr++;
		p->sw_xpkg += rep_cother_pkg(p, next->last_cpu, e->cpu);
	}
	next->last_cpu = e->cpu;
	if (!next->pending_ns)
		return 0;
	lat = e->ts_ns > next->pending_ns ? e->ts_ns - next->pending_ns : 0;
	next->pending_ns = 0;
	return rep_vec_push(&p->c->lat_ns, lat);
}

static int rep_con_migrate(struct rep_cpass *p, const struct rep_event *e)
{
	struct rep_cthread *th = rep_cthread(p, e->mg.pid);

	if (!th)
		return e->mg.pid > 0 ? -ENOMEM : 0;
	rep_cnote(p, th, e->mg.comm);
	if (!th->running)
		rep_cplace(p, th, e->mg.dest_cpu);
	if (!th->story || !rep_cin(p, e->ts_ns) || e->mg.orig_cpu == e->mg.dest_cpu)
		return 0;
	p->c->migrations++;
	p->c->xpkg_migrations += rep_cother_pkg(p, e->mg.orig_cpu, e->mg.dest_cpu);
	return 0;
}

static int rep_con_select(struct rep_cpass *p, const struct rep_event *e)
{
	const struct rep_select *s = &e->sel;
	struct rep_cthread *th = rep_cthread(p, s->pid);

	if (!th)
		return s->pid > 0 ? -ENOMEM : 0;
	rep_cnote(p, th, s->comm);
	if (strcmp(rep_name(&p->r->t->wakes, s->wake), "wakeup"))
		return 0;
	if (th->judge)
		rep_cjudge(p, th, e, s->ret_cpu, s->reason);
	th->judge = false;
	if (!th->running)
		rep_cplace(p, th, s->ret_cpu);
	if (!th->story || !rep_cin(p, e->ts_ns))
		return 0;
	p->c->sel_n++;
	p->c->sel_same += rep_csame_pkg(p, s->ret_cpu, s->prev_cpu);
	return 0;
}

static int rep_con_event(struct rep_cpass *p, const struct rep_event *e)
{
	switch (e->kind) {
	case REP_EV_WAKING:
		return rep_con_waking(p, e);
	case REP_EV_WAKEUP:
	case REP_EV_WAKEUP_NEW:
		return rep_con_wakeup(p, e);
	case REP_EV_SWITCH:
		return rep_con_switch(p, e);
	case REP_EV_MIGRATE:
		return rep_con_migrate(p, e);
	case REP_EV_SELECT:
		return rep_con_select(p, e);
	case REP_EV_BALANCE:
		rep_con_balance(p, e);
		return 0;
	default:
		return 0;
	}
}

/* ",a,b," from "a,b" (names cut to a comm's 15 characters), or NULL. */
static char *rep_comm_list(const char *comms)
{
	size_t n = comms ? strlen(comms) : 0, i, w = 1, run = 0;
	char *out;

	if (!comms || !n)
		return NULL;
	out = malloc(n + 3);
	if (!out)
		return NULL;
	out[0] = ',';
	for (i = 0; i < n; i++) {
		if (comms[i] == ',') {
			run = 0;
			out[w++] = ',';
		} else if (run++ < REP_COMM_LEN - 1) {
			out[w++] = comms[i];
		}
	}
	out[w++] = ',';
	out[w] = 0;
	return out;
}

int rep_counts(struct rep_counts *c, const struct rep_result *r, const struct sp_model *m,
	       const char *comms)
{
	struct rep_cpass p = { .c = c, .r = r, .m = m };
	const struct rep_trace *t = r->t;
	size_t i;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < SP_MAX_CPUS; i++)
		p.curr[i] = -1;
	c->has_pkgs = m && m->nr_levels;
	c->has_awake = r->awake_known;
	p.pkg_level = m ? rep_pkg_level(m) : 0;
	p.comms = rep_comm_list(comms);
	if (comms && comms[0] && !p.comms)
		return -ENOMEM;
	for (i = 0; i < t->nr && !ret; i++)
		ret = rep_con_event(&p, &t->ev[i]);
	/* still on a CPU at the end: until the end of W */
	for (i = 0; i < p.map.size; i++)
		if (p.map.slot[i].pid && p.map.slot[i].story && p.map.slot[i].run_from_ns)
			rep_crun(&p, p.map.slot[i].last_cpu, p.map.slot[i].run_from_ns, r->end_ns);
	c->migr_from_migrate = t->fmt.has_migrate;
	if (!c->migr_from_migrate) {
		c->migrations = p.sw_migr;
		c->xpkg_migrations = p.sw_xpkg;
	}
	c->complete = t->nr && t->ev[0].ts_ns <= r->start_ns && t->ev[t->nr - 1].ts_ns >= r->end_ns;
	free(p.map.slot);
	free((char *)p.comms);
	return ret;
}

void rep_counts_free(struct rep_counts *c)
{
	free(c->lat_ns.v);
	c->lat_ns.v = NULL;
	free(c->awake_lat_ns.v);
	c->awake_lat_ns.v = NULL;
}

static void rep_pr_share(FILE *f, const char *key, uint64_t part, uint64_t whole)
{
	if (whole)
		fprintf(f, " %s=%.4f", key, (double)part / (double)whole);
	else
		fprintf(f, " %s=-", key);
}

static void rep_pr_rate(FILE *f, const char *key, uint64_t n, uint64_t span_ns)
{
	if (span_ns)
		fprintf(f, " %s=%.3f", key, (double)n * 1e9 / (double)span_ns);
	else
		fprintf(f, " %s=-", key);
}

static void rep_pr_lat(FILE *f, struct rep_counts *c)
{
	static const uint32_t pct[] = { 50, 99, 100 };
	static const char *const key[] = { "lat_p50_us", "lat_p99_us", "lat_max_us" };
	uint32_t i;

	for (i = 0; i < 3; i++) {
		if (c->lat_ns.nr)
			fprintf(f, " %s=%.1f", key[i], (double)rep_pct_ns(&c->lat_ns, pct[i]) / 1e3);
		else
			fprintf(f, " %s=-", key[i]);
	}
}

/* @n and its rate per second of the span, or "-" for both when @known is false. */
static void rep_pr_count(FILE *f, const char *key, bool known, uint64_t n, uint64_t span_ns)
{
	char rate[64];

	snprintf(rate, sizeof(rate), "%s_per_s", key);
	if (!known) {
		fprintf(f, " %s=- %s=-", key, rate);
		return;
	}
	fprintf(f, " %s=%llu", key, (unsigned long long)n);
	rep_pr_rate(f, rate, n, span_ns);
}

/* " KEY=name:n,..." over the @nr counts @n named by @names ("ttwu" past them). */
static void rep_pr_tally(FILE *f, const char *key, const struct rep_names *names,
			 const uint64_t *n, uint32_t nr, bool known)
{
	const char *name, *sep = "";
	uint32_t i;

	fprintf(f, " %s=", key);
	for (i = 0; known && i < nr; i++) {
		if (!n[i])
			continue;
		fputs(sep, f);
		name = i < REP_MAX_NAMES ? rep_name(names, i) : "ttwu";
		for (; *name; name++)	/* one token: key=value lines split on spaces */
			fputc(isalnum((unsigned char)*name) ? *name : '_', f);
		fprintf(f, ":%llu", (unsigned long long)n[i]);
		sep = ",";
	}
	if (!*sep)
		fputc('-', f);
}

/* How the wake-ups queued beside an awake package's idle CPU came about and ended. */
static void rep_pr_defects(FILE *f, const struct rep_result *r, struct rep_counts *c)
{
	bool known = c->has_awake;

	rep_pr_tally(f, "wake_queued_idle_awake_pkg_by", &r->t->reasons, c->awake_by_reason,
		     REP_MAX_NAMES + 1, known);
	if (known)
		fprintf(f, " wake_queued_idle_awake_pkg_waited=%llu wake_queued_idle_awake_pkg_moved=%llu",
			(unsigned long long)c->awake_waited, (unsigned long long)c->awake_moved);
	else
		fprintf(f, " wake_queued_idle_awake_pkg_waited=- wake_queued_idle_awake_pkg_moved=-");
	if (c->awake_lat_ns.nr && c->lat_ns.nr) {
		uint64_t p99 = rep_pct_ns(&c->lat_ns, 99), over = 0;
		size_t i;

		for (i = 0; i < c->awake_lat_ns.nr; i++)
			over += c->awake_lat_ns.v[i] > p99;
		fprintf(f, " wake_queued_idle_awake_pkg_lat_p50_us=%.1f"
			" wake_queued_idle_awake_pkg_lat_max_us=%.1f wake_queued_idle_awake_pkg_over_p99=%llu",
			(double)rep_pct_ns(&c->awake_lat_ns, 50) / 1e3,
			(double)rep_pct_ns(&c->awake_lat_ns, 100) / 1e3, (unsigned long long)over);
	} else {
		fprintf(f, " wake_queued_idle_awake_pkg_lat_p50_us=- wake_queued_idle_awake_pkg_lat_max_us=-"
			" wake_queued_idle_awake_pkg_over_p99=-");
	}
	rep_pr_tally(f, "wake_queued_idle_awake_pkg_lb", &r->t->gates, c->awake_lb,
		     REP_MAX_NAMES, known && r->t->fmt.has_balance);
}

/* The wake-ups that queue (the DOC block). */
static void rep_pr_queued(FILE *f, const struct rep_result *r, struct rep_counts *c,
			  uint64_t span_ns)
{
	fprintf(f, " wake_judged=%llu", (unsigned long long)c->wake_judged);
	rep_pr_count(f, "wake_queued", true, c->wake_queued, span_ns);
	rep_pr_count(f, "wake_queued_idle_pkg", c->has_pkgs, c->wake_queued_idle_pkg, span_ns);
	rep_pr_count(f, "wake_queued_idle_far", c->has_pkgs, c->wake_queued_idle_far, span_ns);
	rep_pr_count(f, "wake_queued_idle_awake_pkg", c->has_awake,
		     c->wake_queued_idle_awake_pkg, span_ns);
	rep_pr_defects(f, r, c);
}

/* Where the story threads ran: their time on a CPU per package. */
static void rep_pr_run(FILE *f, const struct rep_result *r, const struct rep_counts *c)
{
	uint32_t i;

	fprintf(f, " story_run_ms=%.1f", (double)c->run_total_ns / 1e6);
	for (i = 0; i < r->nr_pkgs; i++) {
		char key[32];

		snprintf(key, sizeof(key), "pkg%u_run_share", i);
		rep_pr_share(f, key, c->run_ns[i], c->run_total_ns);
	}
}

/* The modelled part: packages from the replay, the estimator's energy. */
static void rep_pr_model(FILE *f, const struct rep_result *r, uint64_t span_ns)
{
	uint64_t wakeups = 0, awake_us = 0, span_us = span_ns / 1000;
	uint32_t i;

	if (!r->energy || !r->nr_pkgs) {
		fprintf(f, " pkg_level=- nr_pkgs=0 pkg_wakeups=- pkg_wakeups_per_s=- pkg_awake_share=-"
			" all_pkgs_awake_share=- est_uj=- est_busy_uj=- est_stretch_uj=- est_max_uj=-"
			" acct_uj=-");
		return;
	}
	fprintf(f, " pkg_level=%s nr_pkgs=%u", r->pkg_level, r->nr_pkgs);
	for (i = 0; i < r->nr_pkgs; i++) {
		char key[32];

		wakeups += r->pkg[i].grp.wakeups;
		awake_us += r->pkg[i].grp.busy_us;
		snprintf(key, sizeof(key), "pkg%u_awake_share", i);
		rep_pr_share(f, key, r->pkg[i].grp.busy_us, span_us);
	}
	fprintf(f, " pkg_wakeups=%llu", (unsigned long long)wakeups);
	rep_pr_rate(f, "pkg_wakeups_per_s", wakeups, span_ns);
	rep_pr_share(f, "pkg_awake_share", awake_us, span_us * r->nr_pkgs);
	rep_pr_share(f, "all_pkgs_awake_share", r->all_pkgs_awake_ns, span_ns);
	fprintf(f, " est_uj=%.0f est_busy_uj=%.0f est_stretch_uj=%.0f est_max_uj=%.0f acct_uj=%.0f",
		(double)r->work_total_nj / 1e3, (double)r->work_busy_nj / 1e3,
		(double)r->work_stretch_nj / 1e3,
		(double)(r->work_total_nj + r->work_stretch_nj) / 1e3, (double)r->total_nj / 1e3);
}

void rep_print_counts(FILE *f, struct rep_result *r, struct rep_counts *c)
{
	uint64_t span_ns = r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0;
	const struct rep_trace *t = r->t;

	fprintf(f, "trace_status=%s span_us=%llu events=%zu trace_lost=%llu wakeups=%llu",
		c->complete ? "ok" : "short", (unsigned long long)(span_ns / 1000), t->nr,
		(unsigned long long)(t->lost + t->lost_pages), (unsigned long long)c->wakeups);
	rep_pr_lat(f, c);
	fprintf(f, " migr_src=%s migrations=%llu", c->migr_from_migrate ? "migrate" : "switch",
		(unsigned long long)c->migrations);
	rep_pr_rate(f, "migrations_per_s", c->migrations, span_ns);
	fprintf(f, " xpkg_migrations=%llu", (unsigned long long)c->xpkg_migrations);
	rep_pr_rate(f, "xpkg_migrations_per_s", c->xpkg_migrations, span_ns);
	if (c->sel_n) {
		rep_pr_share(f, "prev_pkg_share", c->sel_same, c->sel_n);
		fprintf(f, " prev_pkg_src=select");
	} else {
		rep_pr_share(f, "prev_pkg_share", c->ttwu_same, c->ttwu_n);
		fprintf(f, " prev_pkg_src=ttwu");
	}
	rep_pr_share(f, "prev_pkg_share_ttwu", c->ttwu_same, c->ttwu_n);
	fprintf(f, " select_wakeups=%llu", (unsigned long long)c->sel_n);
	rep_pr_queued(f, r, c, span_ns);
	rep_pr_run(f, r, c);
	rep_pr_model(f, r, span_ns);
	fputc('\n', f);
}
