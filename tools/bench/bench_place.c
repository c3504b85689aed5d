// SPDX-License-Identifier: GPL-2.0
/*
 * bench_place.c - host micro-benchmark of one placement decision (sp_place).
 *
 * For each model size (8, 64 and 256 CPUs) the benchmark fills a snapshot
 * from a seeded pseudo-random generator (some packages idle, the others
 * partly busy, no CPU overutilised, so every decision runs the full search),
 * precomputes a ring of wake-ups (task utilisation, prev_cpu, CFS's choice)
 * and then times NR decisions in power mode, best of several repetitions,
 * through sp_place_w() with one working set kept across decisions, as the
 * kernel keeps one per CPU.  It then runs itself under `valgrind
 * --tool=callgrind --toggle-collect=sp_place_w` so that only instructions
 * inside the decision and its callees are counted, and divides by the
 * number of decisions.
 *
 * Output, one line per size:
 *
 *	cpus=N model=SRC stamp_age_us=A ns_per_decision=T instr_per_decision=I
 *	ns_ratio_to_target=R target_ns=TN instr_ratio_to_target=RI target_instr=TI
 *
 * T is wall-clock ns on this host (-O2), I is callgrind's Ir per decision
 * (stable across hosts), R = T / TN and RI = I / TI with the targets below
 * (bench_one()).  A second line per size, starting with '#', reports how
 * the decisions came out (reasons).
 *
 * Models: the first models/NAME.model (from the command line) whose header
 * has cpus=N; else a generated one (see gen_model()), reported as "gen".
 *
 * --pipe adds two more lines: the wake-up of `perf bench sched pipe` on the
 * two-package board (models/x86-2pkg.model): the waker runs on CPU 0, the
 * task last ran on CPU 1, which idles in package 0 (awake for as long as the
 * pipe runs), CFS returns CPU 1, package 1 sleeps.  Stamps are those the
 * pipe leaves (whatever -a says): CPU 0 left idle 30 us ago, CPU 1 entered
 * it 20 us ago, CPUs 2 and 3 50 ms ago.  It is the common case the hook
 * must make cheap: CFS's CPU is free and nothing else can do better.
 * Then the same wake-up of a task of utilisation 741 ("pipe_heavy"), what
 * the pipe's tasks show in the qemu guest under TCG (Documentation/
 * overhead.rst: median 741 over 601 wake-ups), which the fast path settles
 * too, its rate bounds being those of the OPP the task's own need asks for.
 *
 * --state FILE adds one more line, "pipe_guest": the wake-up and the snapshot
 * of one decision as the x86 guest made it (tools/bench/pipe-guest.state:
 * perf bench sched pipe in power mode under TCG, Documentation/overhead.rst),
 * on the model of 4 CPUs given, with the stamps the guest's snapshot had.
 *
 * -a AGE_US dates every CPU's utilisation stamp up to AGE_US before the
 * decision (uniformly), so that each utilisation read decays it as in the
 * kernel, where stamps are those of the last idle entry or exit; the
 * default 0 stamps them at the decision time (no decay work).
 *
 * Usage: bench_place [-n DECISIONS] [-s SEED] [-a AGE_US] [--pipe] [--state FILE]
 *                    [--no-callgrind] [MODEL...]
 *        bench_place --child CPUS DECISIONS SEED AGE_US PIPE STATE [MODEL...]  (callgrind run)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "callgrind.h"
#include "model_file.h"
#include "mono_clock.h"
#include "sp_place.h"
#include "xorshift.h"

#define NR_TASKS	4096
#define NR_REPS		5

static const unsigned int sizes[] = { 8, 64, 256 };

struct wake {
	u32 util;
	u32 prev_cpu;
	u32 cfs_cpu;
};

static struct sp_model model;
static struct sp_state state;
static struct wake wakes[NR_TASKS];
static char text[SP_MODEL_TEXT_MAX];
static u64 reasons[SP_R_NR];
static u64 nr_cands;
static volatile u32 sink;
static struct sp_place_work work;	/* the kernel's per-CPU working set */

static u64 rng_state;
static u32 stamp_age_us;	/* -a: utilisation stamps up to this old */
static int pipe_mode;		/* --pipe: the pipe-like scenario, 2: heavy, 3: --state */
static const char *state_file;	/* --state: a snapshot the guest's decision saw */
static struct sp_task_info state_task;	/* ... and its wake-up */

#define PIPE_UTIL	200	/* the pipe-like task's utilisation */
#define PIPE_HEAVY_UTIL	741	/* pipe_heavy's, as in the guest under TCG */

static u32 rnd(void)
{
	return xorshift_u32(&rng_state);
}

static u32 rnd_in(u32 lo, u32 hi)
{
	return xorshift_in(&rng_state, lo, hi);
}

/* Append to text[]; returns the new length. */
static size_t put(size_t len, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static size_t put(size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text + len, sizeof(text) - len, fmt, ap);
	va_end(ap);
	return n > 0 ? len + (size_t)n : len;
}

/*
 * A generated model: 8 CPUs = one package of two 4-CPU clusters (a little
 * pd with capacity up to 400 and a big one up to 1024, like a phone); larger
 * sizes = packages of 64 CPUs, each 4 LLCs of 8 SMT cores, one pd per LLC.
 */
static size_t gen_model(unsigned int cpus)
{
	unsigned int per_pkg = cpus == 8 ? 8 : 64;
	unsigned int per_llc = cpus == 8 ? 4 : 16;
	unsigned int smt = cpus == 8 ? 1 : 2;
	unsigned int i, pd, little;
	size_t len = 0;

	len = put(len, "sched_power_model version=1 cpus=%u\n", cpus);
	if (smt > 1)
		len = put(len, "level name=core\n");
	len = put(len, "level name=llc\nlevel name=package\n");
	for (pd = 0; pd < cpus / per_llc; pd++) {
		little = cpus == 8 && pd == 0;
		len = put(len, "pd id=%u cpus=%u-%u\n", pd, pd * per_llc,
			  pd * per_llc + per_llc - 1);
		for (i = 0; i < 4; i++)
			len = put(len, "opp pd=%u khz=%u cap=%u uw=%u\n", pd,
				  800000 + i * 600000,
				  little ? 100 + i * 100 : 256 + i * 256,
				  little ? 50000 + i * 60000 : 300000 + i * i * 350000);
		len = put(len, "idle pd=%u name=C1 uw=%u exit_us=2 target_us=4 wake_uj=1\n",
			  pd, little ? 10000 : 80000);
		len = put(len, "idle pd=%u name=C6 uw=%u exit_us=100 target_us=400 wake_uj=20\n",
			  pd, little ? 1000 : 5000);
	}
	if (smt > 1)
		for (i = 0; i < cpus / smt; i++)
			len = put(len, "group level=core id=%u cpus=%u-%u active_uw=50000 idle_uw=5000 wake_uj=5 exit_us=5\n",
				  i, i * smt, i * smt + smt - 1);
	for (i = 0; i < cpus / per_llc; i++)
		len = put(len, "group level=llc id=%u cpus=%u-%u active_uw=300000 idle_uw=30000 wake_uj=50 exit_us=20\n",
			  i, i * per_llc, i * per_llc + per_llc - 1);
	for (i = 0; i < cpus / per_pkg; i++)
		len = put(len, "group level=package id=%u cpus=%u-%u active_uw=4000000 idle_uw=400000 wake_uj=400 exit_us=60\n",
			  i, i * per_pkg, i * per_pkg + per_pkg - 1);
	len = put(len, "end\n");
	return len;
}

/* Load the model of @cpus CPUs from the files given, else generate one. */
static const char *load_model(unsigned int cpus, char **files, int nfiles)
{
	struct sp_parse_error err;
	char msg[512];
	size_t len;
	int i;

	for (i = 0; i < nfiles; i++)
		if (model_file_load(files[i], &model, msg, sizeof(msg)) == 0 &&
		    model.nr_cpus == cpus && model.nr_levels)
			return files[i];
	len = gen_model(cpus);
	if (sp_model_parse(text, len, &model, &err)) {
		fprintf(stderr, "generated %u-CPU model, line %d: %s: %s\n", cpus,
			err.line, err.field, err.msg);
		exit(1);
	}
	return "gen";
}

/* Cap of the CPU's pd at its top OPP. */
static u32 cpu_cap(u32 cpu)
{
	const struct sp_pd *pd = &model.pd[model.cpu_pd[cpu]];

	return pd->opp[pd->nr_opps - 1].cap;
}

/*
 * Snapshot at now_ns: each top-level group is idle with probability 1/3,
 * else each of its CPUs is awake with probability 1/2.  Awake CPUs get
 * 10..60 % of their capacity, idle ones 0..10 %; nothing is overutilised.
 */
static void fill_state(u64 now_ns)
{
	const struct sp_level *top = &model.level[model.nr_levels - 1];
	u32 g, i, cpu;

	sp_state_init(&state, &model, now_ns - 1000000);
	for (g = top->first_group; g < top->first_group + top->nr_groups; g++) {
		const struct sp_group *gr = &model.group[g];
		bool pkg_idle = rnd() % 3 == 0;

		for (i = 0; i < gr->nr_cpus; i++) {
			const struct sp_pd *pd;
			u32 cap, idx, since_ns;

			cpu = model.group_cpus[gr->cpu_off + i];
			pd = &model.pd[model.cpu_pd[cpu]];
			cap = cpu_cap(cpu);
			if (!pkg_idle && rnd() % 2) {
				state.cpu[cpu].util = cap * rnd_in(10, 60) / 100;
				continue;
			}
			state.cpu[cpu].util = cap * rnd_in(0, 10) / 100;
			/* one draw a statement: the order of arguments is the compiler's */
			since_ns = rnd_in(1000, 500000);
			idx = rnd() % pd->nr_idle;
			sp_state_idle_enter(&state, &model, cpu, idx, now_ns - since_ns);
		}
	}
	for (cpu = 0; cpu < model.nr_cpus; cpu++)
		state.cpu[cpu].util_stamp_ns = now_ns -
			(stamp_age_us ? 1000ull * rnd_in(0, stamp_age_us) : 0);
}

/*
 * The pipe-like snapshot on the x86 board: CPU 0 runs the waker (40 %), CPU 1
 * idles in package 0 for 20 us (30 %), package 1 has slept for 50 ms, both
 * packages' awake fractions as a long pipe run leaves them, every stamp at
 * the CPU's last idle entry or exit.
 */
static void fill_pipe_state(u64 now_ns)
{
	u32 deep = model.pd[model.cpu_pd[1]].nr_idle - 1;

	sp_state_init(&state, &model, now_ns - 1000000000ull);
	sp_state_idle_enter(&state, &model, 2, deep, now_ns - 50000000ull);
	sp_state_idle_enter(&state, &model, 3, deep, now_ns - 50000000ull);
	sp_state_idle_enter(&state, &model, 1, deep, now_ns - 20000);
	state.cpu[0].util = 410;
	state.cpu[1].util = 307;
	state.cpu[2].util = 12;
	state.cpu[3].util = 9;
	state.group[0].awake_avg = 1000;
	state.group[0].avg_stamp_ns = now_ns - 20000;
	state.group[1].awake_avg = 40;
	state.group[1].avg_stamp_ns = now_ns - 50000000ull;
	state.cpu[0].util_stamp_ns = now_ns - 30000;
	state.cpu[1].util_stamp_ns = now_ns - 20000;
	state.cpu[2].util_stamp_ns = now_ns - 50000000ull;
	state.cpu[3].util_stamp_ns = now_ns - 50000000ull;
}

/* The value of " KEY=" in @line, or @def if absent. */
static long long kv(const char *line, const char *key, long long def)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? strtoll(p + strlen(pat), NULL, 10) : def;
}

/* An age of the state file (ns before the decision) as a time before @now_ns. */
static u64 ago(const char *line, const char *key, u64 now_ns)
{
	long long a = kv(line, key, 0);

	return a > 0 && (u64)a < now_ns ? now_ns - (u64)a : now_ns;
}

/*
 * --state FILE: the snapshot one decision saw in the guest, in the text of
 * tools/bench/pipe-guest.state: a "D" line (the wake-up: util, prev, cfs,
 * this, ctx), then per CPU a "C N" line (idle state index or -1, util,
 * cap, opp_req, pending work, nr_running, latency tokens, and the ages in
 * ns before the decision of its stamps) and per group a "G N" line
 * (nr_awake, awake_avg and the ages of its stamps).  The model's own
 * derived fields are refreshed by sp_state_resync() before the groups'
 * lines are applied.
 */
static void fill_state_file(u64 now_ns)
{
	char line[512];
	FILE *f = fopen(state_file, "r");
	u32 cpu, g;

	if (!f) {
		perror(state_file);
		exit(1);
	}
	sp_state_init(&state, &model, now_ns - 1000000000ull);
	while (fgets(line, sizeof(line), f)) {
		struct sp_cpu_state *c;

		if (line[0] != 'C' || sscanf(line + 1, "%u", &cpu) != 1 || cpu >= model.nr_cpus)
			continue;
		c = &state.cpu[cpu];
		c->idle_state = (s32)kv(line, "idx", SP_CPU_AWAKE);
		c->util = (u32)kv(line, "util", 0);
		c->cap = (u32)kv(line, "cap", SP_CAP_SCALE);
		c->util_stamp_ns = ago(line, "ustamp_age", now_ns);
		c->idle_since_ns = ago(line, "idle_age", now_ns);
		c->busy_since_ns = ago(line, "busy_age", now_ns);
		c->pending_ns = ago(line, "pend_age", now_ns);
		sp_atomic_set(&c->pending_nr, (int)kv(line, "pnr", 0));
		sp_atomic_set(&c->pending_util, (int)kv(line, "putil", 0));
		c->nr_running = (u32)kv(line, "nr_run", 0);
		c->lat_tokens = (u32)kv(line, "tokens", 0);
		state.opp_req[cpu] = (u8)kv(line, "opp_req", 0);
	}
	sp_state_resync(&state, &model, now_ns);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		struct sp_group_state *gs;

		if (line[0] == 'D') {
			state_task.util = (u32)kv(line, "util", 0);
			state_task.prev_cpu = (u32)kv(line, "prev", 0);
			state_task.cfs_cpu = (u32)kv(line, "cfs", 0);
			state_task.this_cpu = (u32)kv(line, "this", SP_NONE);
			state_task.this_ctx = (u32)kv(line, "ctx", SP_THIS_NONE);
			continue;
		}
		if (line[0] != 'G' || sscanf(line + 1, "%u", &g) != 1 || g >= model.nr_groups)
			continue;
		gs = &state.group[g];
		sp_atomic_set(&gs->nr_awake, (int)kv(line, "nr_awake", 0));
		gs->awake_avg = (u32)kv(line, "avg", 0);
		gs->avg_stamp_ns = ago(line, "avg_age", now_ns);
		gs->idle_since_ns = ago(line, "idle_age", now_ns);
		gs->awake_since_ns = ago(line, "awake_age", now_ns);
	}
	fclose(f);
}

static void fill_wakes(void)
{
	u32 i;

	for (i = 0; i < NR_TASKS; i++) {
		wakes[i].util = rnd_in(5, 300);
		wakes[i].prev_cpu = rnd() % model.nr_cpus;
		wakes[i].cfs_cpu = rnd() % 4 ? wakes[i].prev_cpu :
				   rnd() % model.nr_cpus;
	}
}

static bool allow_all(const void *ctx, u32 cpu)
{
	return cpu < *(const u32 *)ctx;
}

static const struct sp_knobs policy = {
	.mode = SP_MODE_POWER,
	.margin_pct = 5,
	.overutil_pct = 80,
	.window_us = 4000,
	.latency_us = 0,
};

static void run(u64 now_ns, unsigned long n, bool count)
{
	struct sp_task_info t = { .now_ns = now_ns };

	if (pipe_mode == 3) {
		t = state_task;
		t.now_ns = now_ns;
	} else if (pipe_mode) {
		t.this_cpu = 0;
		t.this_ctx = SP_THIS_TASK;
	}
	struct sp_decision d;
	unsigned long i;

	for (i = 0; i < n; i++) {
		const struct wake *w = &wakes[i % NR_TASKS];

		if (pipe_mode != 3) {
			t.util = pipe_mode == 2 ? PIPE_HEAVY_UTIL : pipe_mode ? PIPE_UTIL : w->util;
			t.prev_cpu = pipe_mode ? 1 : w->prev_cpu;
			t.cfs_cpu = pipe_mode ? 1 : w->cfs_cpu;
		}
		sp_place_w_filter(&work, allow_all, &model.nr_cpus);
		sp_place_w(&model, &state, &policy, &t, &d, &work);
		sink += d.cpu;
		if (count && d.reason < SP_R_NR) {
			reasons[d.reason]++;
			nr_cands += d.nr_candidates;
		}
	}
}

static const char *setup(unsigned int cpus, u64 seed, char **files, int nfiles)
{
	const u64 now_ns = 10000000000ull;
	const char *src;

	rng_state = seed * 0x9e3779b97f4a7c15ull + cpus;
	src = load_model(cpus, files, nfiles);
	if (pipe_mode == 3)
		fill_state_file(now_ns);
	else if (pipe_mode)
		fill_pipe_state(now_ns);
	else
		fill_state(now_ns);
	fill_wakes();
	return src;
}

/* callgrind's instructions in a child run of @n decisions. */
static long long callgrind_decisions(const char *self, unsigned int cpus,
				     unsigned long n, u64 seed, char **files,
				     int nfiles)
{
	static const char *const counted[] = { "sp_place_w", NULL };
	char models[3072] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < nfiles && len < sizeof(models); i++)
		len += (size_t)snprintf(models + len, sizeof(models) - len, " %s", files[i]);
	if (len >= sizeof(models))
		return -1;
	return callgrind_instr(counted, "%s --child %u %lu %llu %u %d %s%s",
			       self, cpus, n, (unsigned long long)seed, stamp_age_us, pipe_mode,
			       state_file ? state_file : "-", models);
}

/*
 * Targets per decision: at 8 CPUs 150 ns and 1500 instructions, at 64 and
 * 256 CPUs 1000 ns and 2500 instructions, the pipe-like wake-up 500.
 */
static void bench_one(const char *self, unsigned int cpus, unsigned long n,
		      u64 seed, bool callgrind, char **files, int nfiles)
{
	double target = cpus <= 8 ? 150.0 : 1000.0;
	double itarget = pipe_mode ? 500.0 : cpus <= 8 ? 1500.0 : 2500.0;
	unsigned long cg_n = n < 20000 ? n : 20000;
	u64 best = ~0ull, t0;
	long long ir = -1;
	const char *src;
	double ns;
	int rep;
	u32 r;

	src = setup(cpus, seed, files, nfiles);
	memset(reasons, 0, sizeof(reasons));
	nr_cands = 0;
	run(10000000000ull, NR_TASKS, true);	/* warm-up, and the reasons */
	for (rep = 0; rep < NR_REPS; rep++) {
		t0 = mono_ns();
		run(10000000000ull, n, false);
		t0 = mono_ns() - t0;
		if (t0 < best)
			best = t0;
	}
	ns = (double)best / (double)n;
	if (callgrind)
		ir = callgrind_decisions(self, cpus, cg_n, seed, files, nfiles);
	if (pipe_mode)
		printf("%s cpus=%u model=%s",
		       pipe_mode == 3 ? "pipe_guest" : pipe_mode == 2 ? "pipe_heavy" : "pipe",
		       cpus, src);
	else
		printf("cpus=%u model=%s stamp_age_us=%u", cpus, src, stamp_age_us);
	printf(" ns_per_decision=%.1f instr_per_decision=", ns);
	if (ir >= 0)
		printf("%.0f", (double)ir / (double)cg_n);
	else
		printf("n/a");
	printf(" ns_ratio_to_target=%.2f target_ns=%.0f", ns / target, target);
	if (ir >= 0)
		printf(" instr_ratio_to_target=%.2f", (double)ir / (double)cg_n / itarget);
	printf(" target_instr=%.0f\n", itarget);
	printf("#   cpus=%u candidates/decision=%.2f reasons over %u wake-ups:", cpus,
	       (double)nr_cands / NR_TASKS, NR_TASKS);
	for (r = 0; r < SP_R_NR; r++)
		if (reasons[r])
			printf(" %s=%llu", sp_reason_names[r],
			       (unsigned long long)reasons[r]);
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned long n = 200000;
	bool callgrind = true, want_pipe = false;
	u64 seed = 1;
	int argi = 1;
	unsigned int k;

	if (argc >= 8 && !strcmp(argv[1], "--child")) {
		unsigned int cpus = (unsigned int)atoi(argv[2]);

		n = strtoul(argv[3], NULL, 10);
		seed = strtoull(argv[4], NULL, 10);
		stamp_age_us = (u32)strtoul(argv[5], NULL, 10);
		pipe_mode = atoi(argv[6]);
		state_file = strcmp(argv[7], "-") ? argv[7] : NULL;
		setup(cpus, seed, argv + 8, argc - 8);
		run(10000000000ull, n, false);
		return 0;
	}
	while (argi < argc && argv[argi][0] == '-') {
		if (!strcmp(argv[argi], "-n") && argi + 1 < argc) {
			n = strtoul(argv[++argi], NULL, 10);
		} else if (!strcmp(argv[argi], "-s") && argi + 1 < argc) {
			seed = strtoull(argv[++argi], NULL, 10);
		} else if (!strcmp(argv[argi], "-a") && argi + 1 < argc) {
			stamp_age_us = (u32)strtoul(argv[++argi], NULL, 10);
		} else if (!strcmp(argv[argi], "--pipe")) {
			want_pipe = true;
		} else if (!strcmp(argv[argi], "--state") && argi + 1 < argc) {
			state_file = argv[++argi];
		} else if (!strcmp(argv[argi], "--no-callgrind")) {
			callgrind = false;
		} else {
			fprintf(stderr, "usage: %s [-n DECISIONS] [-s SEED] [-a AGE_US] [--pipe] [--state FILE] [--no-callgrind] [MODEL...]\n",
				argv[0]);
			return 2;
		}
		argi++;
	}
	for (k = 0; k < SP_ARRAY_SIZE(sizes); k++)
		bench_one(argv[0], sizes[k], n, seed, callgrind, argv + argi, argc - argi);
	if (want_pipe) {
		pipe_mode = 1;
		printf("# pipe: the wake-up of perf bench sched pipe on the two-package board\n");
		bench_one(argv[0], 4, n, seed, callgrind, argv + argi, argc - argi);
		pipe_mode = 2;
		printf("# pipe_heavy: the same wake-up of a task of utilisation %u\n",
		       PIPE_HEAVY_UTIL);
		bench_one(argv[0], 4, n, seed, callgrind, argv + argi, argc - argi);
	}
	if (state_file) {
		pipe_mode = 3;
		printf("# pipe_guest: the wake-up and snapshot of %s\n", state_file);
		bench_one(argv[0], 4, n, seed, callgrind, argv + argi, argc - argi);
	}
	return 0;
}
