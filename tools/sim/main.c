// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - sp_sim: run stories x policies on a model, print the tables.
 *
 * Usage: sp_sim [-m MODEL] [-p POLICY,...] [--csv FILE] [--txt FILE]
 *               [--plotdata DIR] [--timeline FILE] [--timeline-story NAME]
 *               [--timeline-policy POLICY] [--timeline-ms N] [--decisions FILE]
 *               [--wakeups FILE] [--energy FILE] [--pin CPU,...]
 *               [--metrics]
 *               [--acct-deepest] [--balance-gate 0|1] [--ni-random 0|1]
 *               [--seed N] [--opp K] [--su-floor 0|1] [--idle-exit start|end]
 *               [--preempt gran|vruntime]
 *               [--bench]
 *               STORY.json...
 *
 * POLICY is any of the policies, "oracle", "oracle-lat", "oracle-lat-su"
 * and "lower-bound" (default: all).
 * Prints the per-run table and the sp-* ratio tables on stdout (also to
 * --txt), the CSV to --csv; --metrics adds the validation-metrics table;
 * --acct-deepest makes the module's accounting (acct_mJ) see every idle as
 * the deepest state, as a kernel without a cpuidle driver reports it;
 * --balance-gate 0 turns sched_power's balance_gate knob off for the sp-*
 * policies (default 1: the balancer is gated between top-level groups);
 * --kick-gate 0 turns its kick_gate knob off (default 1: a busy CPU's
 * tick kicks no idle balance the gate would refuse into a sleeping group);
 * --ni-random 0 runs every newly-idle balance (6.1.192's NI_RANDOM sched
 * feature off; default 1: each domain's is run with the probability of
 * its recent success, tools/sim/balance.c); --seed N (non-zero) throws
 * those dice from another seed;
 * --opp K runs every pd at OPP index K (its highest if it has fewer)
 * instead of the schedutil-like governor, for the policies (the oracles
 * choose their own); --su-floor 1 floors oracle-lat-su's governor at each
 * pd's most efficient OPP, as sp-power's opp_floor (default 0: cfs's).
 * --idle-exit end lets the snapshot the sp-* policies decide on, and the
 * module's accounting, see each idle exit when it ends, as 6.1 records it
 * (default start: when the CPU is woken; tools/sim/hw.c);
 * --preempt vruntime (the default) runs every run queue, the oracles'
 * included, with 6.1's vruntime, wake-up and tick preemption for nice-0
 * tasks, and the bound accordingly; --preempt gran with a flat slice
 * instead (a woken task preempts after 1 ms, the tick rotates after 4 ms;
 * tools/sim/rq.c);
 * --timeline FILE writes the busy and idle stretches of every CPU, and
 * --decisions FILE one line per sp_place() decision (policy.c), and
 * --wakeups FILE one line per wake-up latency sample (rq.c), and
 * --energy FILE the run's energy per CPU and per group (hw.c), for the
 * story --timeline-story names, under --timeline-policy (default sp-power).
 * --pin CPU,... adds a "pinned" row: every task instance, in story order,
 * on the CPU the list gives it, never balanced (a static schedule of the
 * oracle's kind, under the governor or --opp); --timeline-policy pinned
 * takes the per-event outputs from it.
 * --bench adds wall-clock timing (events/s) on stderr, and per oracle
 * search its pinnings up to symmetry, runs and seconds; it is the only
 * output that varies between runs.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_file.h"
#include "mono_clock.h"
#include "sim.h"

struct args {
	const char *model, *csv, *txt, *plotdata, *timeline, *decisions, *wakeups, *energy;
	const char *tl_story;
	u32 tl_policy;
	u64 tl_ms;
	bool bench, metrics, acct_deepest, gate_off, kick_off, ni_off, su_floor, exit_end;
	u64 seed;
	s8 opp[SP_MAX_PDS];	/* --opp: every pd's fixed OPP, or -1 (schedutil) */
	bool pol[SIM_POL_ALL];
	s16 pin[SP_MAX_CPUS];	/* --pin: CPU of each task instance */
	u32 nr_pin;
	char **stories;
	int nr_stories;
};

static int usage(void)
{
	fprintf(stderr, "usage: sp_sim [-m MODEL] [-p POLICY,...] [--csv FILE] "
		"[--txt FILE] [--plotdata DIR] [--timeline FILE] [--timeline-story NAME] "
		"[--timeline-policy POLICY] [--timeline-ms N] [--decisions FILE] [--wakeups FILE] "
		"[--energy FILE] [--pin CPU,...] "
		"[--metrics] [--acct-deepest] "
		"[--balance-gate 0|1] [--ni-random 0|1] [--seed N] [--opp K] [--su-floor 0|1] "
		"[--idle-exit start|end] [--preempt gran|vruntime] "
		"[--bench] "
		"STORY.json...\n");
	return 2;
}

static int parse_policies(struct args *a, char *list)
{
	char *tok;

	memset(a->pol, 0, sizeof(a->pol));
	for (tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		int p = sim_policy_by_name(tok);

		if (p < 0 || p == SIM_POL_PINNED) {
			fprintf(stderr, "sp_sim: unknown policy \"%s\"\n", tok);
			return -1;
		}
		a->pol[p] = true;
	}
	return 0;
}

/* --pin C0,C1,...: the CPU of each task instance, in story order. */
static int parse_pin(struct args *a, const char *list)
{
	const char *p = list;
	char *end;

	a->nr_pin = 0;
	while (*p && a->nr_pin < SP_ARRAY_SIZE(a->pin)) {
		unsigned long c = strtoul(p, &end, 10);

		if (end == p || c >= SP_MAX_CPUS || (*end && *end != ','))
			return -1;
		a->pin[a->nr_pin++] = (s16)c;
		p = *end ? end + 1 : end;
	}
	return *p || !a->nr_pin ? -1 : 0;
}

static int parse_args(struct args *a, int argc, char **argv)
{
	int i, p;

	for (p = 0; p < SIM_POL_ALL; p++)
		a->pol[p] = p != SIM_POL_PINNED;
	memset(a->opp, -1, sizeof(a->opp));
	a->model = "models/x86-2pkg.model";
	a->tl_policy = SIM_POL_SP_POWER;
	a->tl_ms = 200;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i];
		char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--bench")) {
			a->bench = true;
			continue;
		}
		if (!strcmp(o, "--metrics")) {
			a->metrics = true;
			continue;
		}
		if (!strcmp(o, "--acct-deepest")) {
			a->acct_deepest = true;
			continue;
		}
		if (!v)
			return usage();
		i++;
		if (!strcmp(o, "-m"))
			a->model = v;
		else if (!strcmp(o, "-p")) {
			if (parse_policies(a, v))
				return 2;
		} else if (!strcmp(o, "--csv"))
			a->csv = v;
		else if (!strcmp(o, "--txt"))
			a->txt = v;
		else if (!strcmp(o, "--plotdata"))
			a->plotdata = v;
		else if (!strcmp(o, "--timeline"))
			a->timeline = v;
		else if (!strcmp(o, "--decisions"))
			a->decisions = v;
		else if (!strcmp(o, "--wakeups"))
			a->wakeups = v;
		else if (!strcmp(o, "--energy"))
			a->energy = v;
		else if (!strcmp(o, "--pin")) {
			if (parse_pin(a, v))
				return usage();
		}
		else if (!strcmp(o, "--timeline-story"))
			a->tl_story = v;
		else if (!strcmp(o, "--timeline-ms"))
			a->tl_ms = strtoull(v, NULL, 10);
		else if (!strcmp(o, "--balance-gate") && (!strcmp(v, "0") || !strcmp(v, "1")))
			a->gate_off = v[0] == '0';
		else if (!strcmp(o, "--kick-gate") && (!strcmp(v, "0") || !strcmp(v, "1")))
			a->kick_off = v[0] == '0';
		else if (!strcmp(o, "--ni-random") && (!strcmp(v, "0") || !strcmp(v, "1")))
			a->ni_off = v[0] == '0';
		else if (!strcmp(o, "--idle-exit") && (!strcmp(v, "start") || !strcmp(v, "end")))
			a->exit_end = v[0] == 'e';
		else if (!strcmp(o, "--preempt") && (!strcmp(v, "gran") || !strcmp(v, "vruntime")))
			sim_set_preempt(v[0] == 'v' ? SIM_PREEMPT_VRUNTIME : SIM_PREEMPT_GRAN);
		else if (!strcmp(o, "--su-floor") && (!strcmp(v, "0") || !strcmp(v, "1")))
			a->su_floor = v[0] == '1';
		else if (!strcmp(o, "--seed") && strtoull(v, NULL, 0))
			a->seed = strtoull(v, NULL, 0);
		else if (!strcmp(o, "--opp") && v[0] >= '0' && v[0] <= '9' && !v[1])
			memset(a->opp, v[0] - '0', sizeof(a->opp));
		else if (!strcmp(o, "--timeline-policy")) {
			p = sim_policy_by_name(v);
			if (p < 0 || p > SIM_POL_PINNED)
				return usage();
			a->tl_policy = (u32)p;
		} else
			return usage();
	}
	a->stories = argv + i;
	a->nr_stories = argc - i;
	return a->nr_stories ? 0 : usage();
}

static void print_all(FILE *f, const struct sim_result *r, u32 n, const struct args *a)
{
	fprintf(f, "model: %s\n", a->model);
	sim_report_text(f, r, n);
	fprintf(f, "\n");
	sim_report_ratios(f, r, n);
	if (a->metrics) {
		fprintf(f, "\n");
		sim_report_metrics(f, r, n);
	}
}

/* --bench: an oracle search's size (its pinnings up to symmetry) and time. */
static void bench_oracle(const struct args *a, const struct sp_model *m,
			 const struct sim_story *s, const struct sim_result *r, u64 t0)
{
	u32 pinnings;

	if (!a->bench)
		return;
	pinnings = sim_oracle_pinnings(m, s);
	fprintf(stderr, "bench: story=%s policy=%s pinnings=%s%u runs=%u s=%.3f\n",
		s->name, sim_policy_names[r->policy],
		pinnings > SIM_ORACLE_MAX_PINNINGS ? ">" : "",
		pinnings > SIM_ORACLE_MAX_PINNINGS ? SIM_ORACLE_MAX_PINNINGS : pinnings,
		r->searched, (double)(mono_ns() - t0) / 1e9);
}

/*
 * oracle-lat, or oracle-lat-su with @su, after the story's results
 * r[first..*n): cfs's, or a cfs run.
 */
static int run_oracle_lat(const struct args *a, const struct sp_model *m,
			  const struct sim_story *s, bool su, struct sim_result *r,
			  u32 first, u32 *n, u64 *events, u64 *ns)
{
	struct sim_result cfs;
	const struct sim_result *c = NULL;
	u64 t0 = mono_ns();
	u32 i;

	for (i = first; i < *n && !c; i++)
		if (r[i].policy == SIM_POL_CFS)
			c = &r[i];
	if (!c) {
		if (sim_run(m, s, SIM_POL_CFS, NULL, &cfs))
			goto oom;
		c = &cfs;
	}
	if ((su ? sim_oracle_lat_su(m, s, c, a->su_floor, &r[*n]) :
		  sim_oracle_lat(m, s, c, &r[*n])) < 0)
		goto oom;
	bench_oracle(a, m, s, &r[*n], t0);
	*ns += mono_ns() - t0;
	*events += r[*n].events;
	(*n)++;
	return 0;
oom:
	fprintf(stderr, "sp_sim: out of memory\n");
	return -1;
}

/* @path opened for writing, or NULL if none is given or it fails (said). */
static FILE *open_out(const char *path)
{
	FILE *f = path ? fopen(path, "w") : NULL;

	if (path && !f)
		perror(path);
	return f;
}

/* The per-event outputs of the --timeline-story run, NULL where not asked. */
struct tl_out {
	FILE *tl, *dec, *wk, *en;
};

static void tl_close(struct tl_out *t)
{
	if (t->tl)
		fclose(t->tl);
	if (t->dec)
		fclose(t->dec);
	if (t->wk)
		fclose(t->wk);
	if (t->en)
		fclose(t->en);
}

/*
 * --pin: the "pinned" row, every task instance on the CPU the list gives
 * it (the oracle's kind of schedule, under the schedutil-like governor or
 * --opp), with the --timeline-story outputs if --timeline-policy pinned.
 */
static int run_pinned(const struct args *a, const struct sp_model *m,
		      const struct sim_story *s, struct sim_result *r,
		      const struct tl_out *t)
{
	struct sim_opts o = { .acct_deepest = a->acct_deepest,
			      .idle_exit_end = a->exit_end,
			      .rng_seed = a->seed, .pin = a->pin,
			      .fixed_opp = a->opp[0] >= 0 ? a->opp : NULL };
	u32 i;

	if (a->nr_pin != sim_story_tasks(s)) {
		fprintf(stderr, "sp_sim: --pin: %u CPUs for the %u task instances of %s\n",
			a->nr_pin, sim_story_tasks(s), s->name);
		return -1;
	}
	for (i = 0; i < a->nr_pin; i++) {
		if ((u32)a->pin[i] >= m->nr_cpus) {
			fprintf(stderr, "sp_sim: --pin: CPU %d outside the model\n", a->pin[i]);
			return -1;
		}
	}
	if (a->tl_policy == SIM_POL_PINNED) {
		o.timeline = t->tl;
		o.timeline_end_ns = a->tl_ms * 1000000ull;
		o.wakeups = t->wk;
		o.energy = t->en;
	}
	if (sim_run(m, s, SIM_POL_PINNED, &o, r)) {
		fprintf(stderr, "sp_sim: out of memory\n");
		return -1;
	}
	return 0;
}

/* One story: every selected policy, the oracles, then the bound. */
static int run_story(const struct args *a, const struct sp_model *m,
		     const struct sim_story *s, struct sim_result *r, u32 *n,
		     const struct tl_out *t, u64 *events, u64 *ns)
{
	u32 p, first = *n;

	for (p = 0; p < SIM_POL_NR; p++) {
		struct sim_opts o = { .acct_deepest = a->acct_deepest,
				      .balance_gate_off = a->gate_off,
				      .kick_gate_off = a->kick_off,
				      .ni_random_off = a->ni_off,
				      .idle_exit_end = a->exit_end,
				      .rng_seed = a->seed,
				      .fixed_opp = a->opp[0] >= 0 ? a->opp : NULL };
		u64 t0;

		if (!a->pol[p])
			continue;
		if (p == a->tl_policy) {
			o.timeline = t->tl;
			o.timeline_end_ns = a->tl_ms * 1000000ull;
			o.decisions = t->dec;
			o.wakeups = t->wk;
			o.energy = t->en;
		}
		t0 = mono_ns();
		if (sim_run(m, s, p, &o, &r[*n])) {
			fprintf(stderr, "sp_sim: out of memory\n");
			return -1;
		}
		*ns += mono_ns() - t0;
		*events += r[*n].events;
		(*n)++;
	}
	if (a->nr_pin && run_pinned(a, m, s, &r[*n], t))
		return -1;
	if (a->nr_pin)
		(*n)++;
	if (a->pol[SIM_POL_ORACLE]) {
		u64 t0 = mono_ns();

		if (sim_oracle(m, s, &r[*n]) < 0) {
			fprintf(stderr, "sp_sim: out of memory\n");
			return -1;
		}
		bench_oracle(a, m, s, &r[*n], t0);
		*ns += mono_ns() - t0;
		*events += r[*n].events;
		(*n)++;
	}
	if (a->pol[SIM_POL_ORACLE_LAT] &&
	    run_oracle_lat(a, m, s, false, r, first, n, events, ns))
		return -1;
	if (a->pol[SIM_POL_ORACLE_LAT_SU] &&
	    run_oracle_lat(a, m, s, true, r, first, n, events, ns))
		return -1;
	if (a->pol[SIM_POL_LOWER_BOUND])
		sim_lower_bound(m, s, &r[(*n)++]);
	return 0;
}

int main(int argc, char **argv)
{
	static struct sp_model m;
	struct args a = { 0 };
	struct sim_result *r;
	char err[SIM_ERR_LEN];
	u64 events = 0, ns = 0, t0 = mono_ns();
	u32 n = 0;
	int i, rc = 0;
	FILE *f;

	if (parse_args(&a, argc, argv))
		return 2;
	if (model_file_load(a.model, &m, err, sizeof(err))) {
		fprintf(stderr, "sp_sim: %s\n", err);
		return 1;
	}
	r = calloc((size_t)a.nr_stories * SIM_POL_ALL, sizeof(*r));
	if (!r)
		return 1;
	for (i = 0; i < a.nr_stories && !rc; i++) {
		struct sim_story s;
		struct tl_out t = { NULL, NULL, NULL, NULL };

		if (sim_story_load(a.stories[i], &s, err, sizeof(err))) {
			fprintf(stderr, "sp_sim: %s\n", err);
			rc = 1;
			break;
		}
		if (a.tl_story && !strcmp(s.name, a.tl_story)) {
			t.tl = open_out(a.timeline);
			t.dec = open_out(a.decisions);
			t.wk = open_out(a.wakeups);
			t.en = open_out(a.energy);
		}
		if (run_story(&a, &m, &s, r, &n, &t, &events, &ns))
			rc = 1;
		tl_close(&t);
		sim_story_free(&s);
	}
	if (!rc) {
		print_all(stdout, r, n, &a);
		if (a.txt && (f = fopen(a.txt, "w"))) {
			print_all(f, r, n, &a);
			fclose(f);
		}
		if (a.csv && (f = fopen(a.csv, "w"))) {
			sim_report_csv(f, r, n);
			fclose(f);
		}
		if (a.plotdata && sim_report_plotdata(a.plotdata, r, n))
			rc = 1;
	}
	if (a.bench && !rc)
		fprintf(stderr, "bench: model=%s runs=%u events=%llu sim_s=%.3f "
			"events_per_s=%.0f total_s=%.3f\n", a.model, n,
			(unsigned long long)events, (double)ns / 1e9,
			ns ? (double)events * 1e9 / (double)ns : 0.0,
			(double)(mono_ns() - t0) / 1e9);
	free(r);
	return rc;
}
