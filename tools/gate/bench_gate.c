// SPDX-License-Identifier: GPL-2.0
/*
 * bench_gate.c - host micro-benchmark of the load-balancer gate's predicate.
 *
 * The kernel's wrapper around load_balance() (balance_hook.c) asks
 * sp_gate_begin() once per call and, for a domain that crosses the gate,
 * sp_gate_cpu() for each CPU of the domain until one lets the balance
 * through.  This replays that on the models given, for the domain that
 * spans every CPU (the one that crosses the gate level), on a snapshot
 * kept by the core's own writers (sp_state_idle_enter/exit,
 * sp_state_set_nr_running): tasks gathered on the gate level's first
 * group, one per CPU on every other of its CPUs, the other CPUs in their
 * deepest state.  In the "light" story each task runs 3 ms in 10 (the
 * CPUs' starts staggered), and every 50 ms one task CPU has a second task
 * waiting for 2 ms; in the "busy" story each task runs without pause (a
 * CPU-bound job alone on its CPU, overutilised with nothing waiting).
 * After 1 s of warm-up, one balance a millisecond, with the balanced CPU
 * (dst) taking every CPU in turn.
 *
 * In the "full" story every CPU of the gate level's first group runs a
 * task without pause, so a busy CPU's kick would wake another group.
 *
 * The instructions are callgrind's Ir of bench_gate_balance() (the calls
 * above, the loop included), divided by the number of balances:
 *
 *	gate_balance model=PATH story=S cpus=N balances=B instr_per_balance=I
 *	cpus_asked_per_balance=A
 *
 * and a line "# verdicts ..." with how many balances ended in each reason,
 * so a change of the predicate's cost can be checked not to change what it
 * answers.  The same run replays the kick gate as the kernel's wrapper
 * around trigger_load_balance() asks it (balance_hook.c
 * sp_balance_kick_verdict()), at every millisecond for every awake CPU:
 * the mode read, sp_gate_kick_begin(), and only when that leaves the
 * verdict to the CPUs overutil_pct, the clock (bench_gate_clock(), which
 * stands for local_clock() and counts its calls) and sp_gate_kick_cpus():
 *
 *	gate_kick model=PATH story=S cpus=N ticks=T instr_per_tick=I
 *	clock_reads_per_tick=C
 *
 * with a line "# kick verdicts ...".  It prints numbers, not a pass or a
 * fail.
 *
 * Usage: bench_gate MODEL...
 *        bench_gate --child STORY MODEL  (the callgrind run)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"
#include "model_file.h"
#include "sp_gate.h"
#include "sp_place.h"

#define WARMUP_MS	1000u
#define BALANCES	4000u
#define NS_PER_MS	1000000ull

static struct sp_model model;
static struct sp_state state;
static unsigned long long verdicts[SP_GATE_NR];
static unsigned long long asked;
static unsigned long long kick_verdicts[SP_KICK_NR];
static unsigned long long ticks, clock_reads;
/* The knobs as the module keeps them, read by the kick as it reads them. */
static volatile struct sp_knobs knobs = {
	.mode = SP_MODE_POWER, .margin_pct = 5, .overutil_pct = 80,
};
static u64 clock_now_ns;

enum { STORY_LIGHT, STORY_BUSY, STORY_FULL, STORY_NR };
static const char *const stories[STORY_NR] = { "light", "busy", "full" };

/* One load_balance() of the all-CPU domain for @dst, as the wrapper asks. */
static SP_NOINLINE u32 bench_gate_balance(u32 dst, u64 now_ns)
{
	const struct sp_gate_in in = {
		.mode = SP_MODE_POWER, .enabled = true, .overutil_pct = 80,
		.now_ns = now_ns, .dst_cpu = dst,
	};
	u32 reason = sp_gate_begin(&model, &in, true), cpu;

	for (cpu = 0; reason == SP_GATE_GATED && cpu < model.nr_cpus; cpu++) {
		reason = sp_gate_cpu(&model, &state, cpu, &in);
		asked++;
	}
	return reason;
}

/* local_clock() in the kick's wrapper. */
static SP_NOINLINE u64 bench_gate_clock(void)
{
	clock_reads++;
	return clock_now_ns;
}

/* One busy tick of @cpu, as balance_hook.c's kick wrapper asks the gate. */
static SP_NOINLINE u32 bench_gate_kick(u32 cpu)
{
	struct sp_gate_in in = {
		.mode = knobs.mode, .enabled = true, .dst_cpu = SP_NONE,
	};
	u32 target, reason = sp_gate_kick_begin(&model, &state, cpu, &in, &target);

	if (reason == SP_KICK_GATED) {
		in.overutil_pct = knobs.overutil_pct;
		in.now_ns = bench_gate_clock();
		reason = sp_gate_kick_cpus(&model, &state, &in);
	}
	return reason;
}

/* @cpu's deepest idle state. */
static u32 deepest(u32 cpu)
{
	const struct sp_pd *pd = &model.pd[model.cpu_pd[cpu]];

	return pd->nr_idle ? pd->nr_idle - 1u : 0;
}

/*
 * Does @cpu run a task: every other CPU of the gate level's first group,
 * each of them in the full story.
 */
static bool task_cpu(u32 story, u32 cpu, u32 level, u32 *rank)
{
	u32 g0 = model.cpu_group[level][0], c, n = 0;

	if (model.cpu_group[level][cpu] != g0)
		return false;
	for (c = 0; c < cpu; c++)
		n += model.cpu_group[level][c] == g0;
	*rank = n;
	return story == STORY_FULL || n % 2 == 0;
}

/* The task CPUs' idle transitions of millisecond @ms. */
static void step(u32 story, u32 level, u32 ms, u64 now_ns)
{
	bool busy = story != STORY_LIGHT;
	u32 cpu, rank;

	for (cpu = 0; cpu < model.nr_cpus; cpu++) {
		u32 phase;

		if (!task_cpu(story, cpu, level, &rank))
			continue;
		phase = (ms + rank) % 10;
		if (!busy && phase == 0) {
			sp_state_idle_exit(&state, &model, cpu, now_ns);
			sp_state_set_nr_running(&state, cpu, 1, now_ns);
		} else if (!busy && phase == 3) {
			sp_state_set_nr_running(&state, cpu, 0, now_ns);
			sp_state_idle_enter(&state, &model, cpu, deepest(cpu), now_ns);
		}
		if (!busy && ms % 50 == 0 && rank == (ms / 50) % 4 && phase < 3)
			sp_state_set_nr_running(&state, cpu, 2, now_ns);
		if (!busy && ms % 50 == 2 && rank == (ms / 50) % 4 && phase < 3)
			sp_state_set_nr_running(&state, cpu, 1, now_ns);
	}
}

/* Every awake CPU's tick at @now_ns. */
static void kick_ticks(u64 now_ns)
{
	u32 cpu;

	clock_now_ns = now_ns;
	for (cpu = 0; cpu < model.nr_cpus; cpu++)
		if (state.cpu[cpu].idle_state == SP_CPU_AWAKE) {
			kick_verdicts[bench_gate_kick(cpu)]++;
			ticks++;
		}
}

/* The story; @balances balances and as many milliseconds of ticks after the warm-up. */
static void run(u32 story, u32 balances)
{
	bool busy = story != STORY_LIGHT;
	u64 now = 1000000000ull;
	u32 level = sp_gate_level(&model), cpu, ms, rank;

	memset(verdicts, 0, sizeof(verdicts));
	memset(kick_verdicts, 0, sizeof(kick_verdicts));
	asked = 0;
	ticks = 0;
	clock_reads = 0;
	sp_state_init(&state, &model, now);
	for (cpu = 0; cpu < model.nr_cpus; cpu++)
		sp_state_idle_enter(&state, &model, cpu, deepest(cpu), now);
	if (level == SP_NONE)
		level = 0;
	if (busy)
		for (cpu = 0; cpu < model.nr_cpus; cpu++)
			if (task_cpu(story, cpu, level, &rank)) {
				sp_state_idle_exit(&state, &model, cpu, now);
				sp_state_set_nr_running(&state, cpu, 1, now);
			}
	for (ms = 0; ms < WARMUP_MS + balances; ms++) {
		now += NS_PER_MS;
		step(story, level, ms, now);
		if (ms < WARMUP_MS)
			continue;
		verdicts[bench_gate_balance(ms % model.nr_cpus, now + 250000)]++;
		kick_ticks(now + 500000);
	}
}

/* The story named @name, STORY_NR if none. */
static u32 story_of(const char *name)
{
	u32 s;

	for (s = 0; s < STORY_NR; s++)
		if (!strcmp(name, stories[s]))
			break;
	return s;
}

/* @ir instructions over @n calls, or n/a. */
static void print_per(long long ir, unsigned long long n)
{
	if (ir >= 0 && n)
		printf("%.1f", (double)ir / n);
	else
		printf("n/a");
}

/* One story on the model at @path: the balances' lines, then the kicks'. */
static void report(const char *self, const char *path, u32 s)
{
	static const char *const balance_fn[] = { "bench_gate_balance", NULL };
	static const char *const kick_fn[] = { "bench_gate_kick", NULL };
	long long ir = callgrind_instr(balance_fn, "%s --child %s %s", self,
				       stories[s], path);
	long long ir_kick = callgrind_instr(kick_fn, "%s --child %s %s", self,
					    stories[s], path);
	u32 r;

	run(s, BALANCES);
	printf("# verdicts model=%s story=%s", path, stories[s]);
	for (r = 0; r < SP_GATE_NR; r++)
		printf(" %s=%llu", sp_gate_names[r], verdicts[r]);
	printf("\ngate_balance model=%s story=%s cpus=%u balances=%u",
	       path, stories[s], model.nr_cpus, BALANCES);
	printf(" instr_per_balance=");
	print_per(ir, BALANCES);
	printf(" cpus_asked_per_balance=%.2f\n", (double)asked / BALANCES);
	printf("# kick verdicts model=%s story=%s", path, stories[s]);
	for (r = 0; r < SP_KICK_NR; r++)
		printf(" %s=%llu", sp_kick_names[r], kick_verdicts[r]);
	printf("\ngate_kick model=%s story=%s cpus=%u ticks=%llu instr_per_tick=",
	       path, stories[s], model.nr_cpus, ticks);
	print_per(ir_kick, ticks);
	printf(" clock_reads_per_tick=%.3f\n", ticks ? (double)clock_reads / ticks : 0.0);
}

int main(int argc, char **argv)
{
	u32 s;
	int i;

	if (argc == 4 && !strcmp(argv[1], "--child")) {
		s = story_of(argv[2]);
		if (s == STORY_NR || model_file_load_warn("bench_gate", argv[3], &model))
			return 1;
		run(s, BALANCES);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (model_file_load_warn("bench_gate", argv[i], &model))
			return 1;
		for (s = 0; s < STORY_NR; s++)
			report(argv[0], argv[i], s);
	}
	return 0;
}
